// The VS Code client of `oprec lsp` (docs/lsp.md): starts the server for
// .rec files and passes the `oprec.layer` setting for live bytes.
'use strict';
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('oprec');
  const command = config.get('server.path') || 'oprec';
  const serverOptions = { command, args: ['lsp'] };
  const clientOptions = {
    documentSelector: [{ scheme: 'file', language: 'rec' }],
    initializationOptions: { layer: config.get('layer') || undefined },
    synchronize: { configurationSection: 'oprec' },
  };
  client = new LanguageClient('oprec', 'oprec', serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

// The VS Code client of `oprec lsp` (docs/lsp.md): starts the server for
// .rec files and passes the `oprec.layer` setting for live bytes. The
// server is found by server.js; where it is not, the extension says how to
// set it instead of failing to start.
'use strict';
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const { findServer } = require('./server');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('oprec');
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  const server = findServer(config.get('server.path'), process.env, undefined, folder && folder.uri.fsPath);
  if (server.error) {
    vscode.window.showErrorMessage(server.error, 'Open Settings').then((choice) => {
      if (choice) vscode.commands.executeCommand('workbench.action.openSettings', 'oprec.server.path');
    });
    return undefined;
  }
  const serverOptions = { command: server.command, args: ['lsp'] };
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.{rec,json}');
  context.subscriptions.push(watcher);
  const clientOptions = {
    documentSelector: [{ scheme: 'file', language: 'rec' }],
    initializationOptions: { layer: config.get('layer') || undefined },
    // Files changed on disk (an import created or edited, a layer document)
    // are told to the server, which reads its documents' imports again.
    synchronize: { configurationSection: 'oprec', fileEvents: watcher },
  };
  client = new LanguageClient('oprec', 'oprec', serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

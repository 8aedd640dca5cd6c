// server.js: the setting, then PATH, then ~/.local/bin; else an error saying how to set it.
'use strict';
const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { findServer } = require('../server');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'oprec-server-'));
function command(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'oprec');
  fs.writeFileSync(file, '#!/bin/sh\n');
  fs.chmodSync(file, 0o755);
  return file;
}
try {
  const home = path.join(root, 'home');
  const onPath = command(path.join(root, 'bin'));
  const inHome = command(path.join(home, '.local', 'bin'));
  const inClone = command(path.join(root, 'clone', 'build'));
  const env = { PATH: ['/nonexistent', path.dirname(onPath)].join(path.delimiter) };
  const none = { PATH: '/nonexistent' };

  assert.deepStrictEqual(findServer('', env, home), { command: onPath }, 'empty setting: PATH first');
  assert.deepStrictEqual(findServer('oprec', env, home), { command: onPath }, 'the old default: a name on PATH');
  assert.deepStrictEqual(findServer('', none, home), { command: inHome }, 'then ~/.local/bin');
  assert.deepStrictEqual(findServer(inClone, env, home), { command: inClone }, 'an absolute setting wins');
  assert.deepStrictEqual(findServer('build/oprec', env, home, path.join(root, 'clone')), { command: inClone },
    'a relative setting is the workspace folder\'s');
  assert.deepStrictEqual(findServer('~/.local/bin/oprec', none, home), { command: inHome }, '~/ is the home');

  const missing = findServer('', none, path.join(root, 'nohome'));
  if (fs.existsSync('/usr/local/bin/oprec')) {
    assert.strictEqual(missing.command, '/usr/local/bin/oprec');
  } else {
    assert.match(missing.error, /not found on PATH/);
    assert.match(missing.error, /oprec\.server\.path/);
  }
  const wrong = findServer('/nowhere/oprec', env, home);
  assert.match(wrong.error, /"\/nowhere\/oprec", which is not an executable file/);
  assert.match(wrong.error, /Set "oprec\.server\.path"/);
  console.log('server.test.js: ok');
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}

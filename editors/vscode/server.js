// Where the extension finds `oprec`: the `oprec.server.path` setting when set
// (a path, or a name looked up on PATH), else `oprec` on PATH, else where
// scripts/bootstrap and `cmake --install` put it (~/.local/bin, /usr/local/bin).
// Without vscode, so that node tests it (test/server.test.js).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

function executable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function onPath(name, envPath) {
  for (const dir of (envPath || '').split(path.delimiter)) {
    if (dir && executable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

const HOW =
  'Set "oprec.server.path" to the oprec command (e.g. ~/.local/bin/oprec, or build/oprec in a clone), ' +
  'or put oprec on PATH: scripts/bootstrap installs it, as does `cmake --install build --prefix ~/.local`.';

// { command } or { error }: the error says what was looked for and how to set it.
function findServer(setting, env = process.env, home = os.homedir(), folder = undefined) {
  const given = (setting || '').trim();
  if (given) {
    const expanded = given.startsWith('~/') ? path.join(home, given.slice(2)) : given;
    if (!expanded.includes('/')) {
      const found = onPath(expanded, env.PATH);
      if (found) return { command: found };
      if (expanded !== 'oprec') return { error: `oprec.server.path is "${given}", which is not on PATH. ${HOW}` };
    } else {
      const resolved = path.isAbsolute(expanded) || !folder ? expanded : path.join(folder, expanded);
      if (executable(resolved)) return { command: resolved };
      return { error: `oprec.server.path is "${given}", which is not an executable file (${resolved}). ${HOW}` };
    }
  }
  const found = onPath('oprec', env.PATH);
  if (found) return { command: found };
  for (const candidate of [path.join(home, '.local', 'bin', 'oprec'), '/usr/local/bin/oprec']) {
    if (executable(candidate)) return { command: candidate };
  }
  return { error: `oprec was not found on PATH, in ~/.local/bin or in /usr/local/bin. ${HOW}` };
}

module.exports = { findServer };

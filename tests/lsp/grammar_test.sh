#!/usr/bin/env bash
# The VS Code extension's TextMate grammar on every .rec of the repository
# (editors/vscode/test/grammar.test.js, vscode-textmate and vscode-oniguruma
# from npm). scripts/test runs `npm ci` first; here npm is asked only if the
# packages are missing, so the test runs offline once they are installed.
# Usage: grammar_test.sh SOURCE_DIR. Exits 77 (a skip) without node.
set -euo pipefail
src=$1
ext=$src/editors/vscode
if ! command -v node >/dev/null; then
  echo "SKIP: node is not installed (scripts/install-deps installs nodejs)"
  exit 77
fi
if [ ! -d "$ext/node_modules/vscode-textmate" ] || [ ! -d "$ext/node_modules/vscode-oniguruma" ]; then
  (cd "$ext" && npm ci --no-audit --no-fund)
fi
node --check "$ext/extension.js"
node "$ext/test/grammar.test.js" "$src"

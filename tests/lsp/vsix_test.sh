#!/usr/bin/env bash
# The VS Code extension as users get it: `npm run package` (vsce, after the
# esbuild bundle) makes a .vsix with no warning, holding exactly what the
# extension needs; the bundle loads (with a stand-in for the `vscode`
# module) and finds its server as server.js says (test/server.test.js).
# Usage: vsix_test.sh SOURCE_DIR. Exits 77 (a skip) without node, or without
# the npm packages (`cd editors/vscode && npm ci`; scripts/test runs it).
set -euo pipefail
src=$1
ext=$src/editors/vscode
if ! command -v node >/dev/null; then
  echo "SKIP: node is not installed (scripts/install-deps installs nodejs)"
  exit 77
fi
if [ ! -x "$ext/node_modules/.bin/vsce" ] || [ ! -x "$ext/node_modules/.bin/esbuild" ]; then
  echo "SKIP: editors/vscode's npm packages are missing (cd editors/vscode && npm ci)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node "$ext/test/server.test.js"
if ! (cd "$ext" && npm run --silent package -- -o "$work/oprec.vsix") </dev/null >"$work/log" 2>&1; then
  cat "$work/log"
  echo "FAIL: vsce package failed" >&2
  exit 1
fi
cat "$work/log"
if grep -i -E 'warn|error' "$work/log"; then
  echo "FAIL: vsce package warned (above)" >&2
  exit 1
fi
python3 -m zipfile -l "$work/oprec.vsix" | awk 'NR > 1 {print $1}' | sort > "$work/files"
sort > "$work/expected" <<'LIST'
[Content_Types].xml
extension.vsixmanifest
extension/LICENSE.txt
extension/README.md
extension/dist/extension.js
extension/images/live-bytes.png
extension/language-configuration.json
extension/package.json
extension/syntaxes/rec.tmLanguage.json
LIST
if ! diff -u "$work/expected" "$work/files"; then
  echo "FAIL: the .vsix holds other files than the extension needs (- expected, + found)" >&2
  exit 1
fi
# The bundle stands alone: it loads with only `vscode` provided.
node -e '
const Module = require("module");
const load = Module._load;
// vscode: any property, call or construction gives it again (the client extends its classes).
const vscode = new Proxy(function () {}, { get: (t, p) => (p === "prototype" ? {} : vscode), apply: () => vscode, construct: () => ({}) });
Module._load = function (request, ...rest) { return request === "vscode" ? vscode : load.call(this, request, ...rest); };
const ext = require(process.argv[1]);
if (typeof ext.activate !== "function" || typeof ext.deactivate !== "function") throw new Error("no activate/deactivate");
' "$ext/dist/extension.js" 2>&1 | cut -c1-300
echo "vsix: ok ($(wc -l <"$work/files") files)"

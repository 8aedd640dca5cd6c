#!/usr/bin/env bash
# The page `oprec serve` serves, in headless Chromium (web/test/page.test.js):
# its bytes against `oprec fit`'s, an upload, the sweep, an error, the
# console, a screenshot and the redraw time (OUT_DIR/serve.png, web_bench.json).
# Skipped (77) where node, Chromium or web/'s npm packages are missing.
# Usage: tests/web_test.sh SOURCE_DIR OPREC_BINARY [OUT_DIR]
set -euo pipefail
src="$(cd "$1" && pwd)"
bin="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
out="${3:-}"
for need in node; do
  command -v "$need" >/dev/null || { echo "web test: skipped: no $need"; exit 77; }
done
[ -x /usr/bin/chromium ] || { echo "web test: skipped: no /usr/bin/chromium"; exit 77; }
[ -d "$src/web/node_modules/puppeteer-core" ] ||
  { echo "web test: skipped: no web/node_modules/puppeteer-core (npm ci in web/)"; exit 77; }
if [ -z "$out" ]; then
  out="$(mktemp -d)"
else
  mkdir -p "$out"
  out="$(cd "$out" && pwd)"
fi
cd "$src"
OPREC_BINARY="$bin" OPREC_SOURCE_DIR="$src" OPREC_OUT="$out" exec node web/test/page.test.js

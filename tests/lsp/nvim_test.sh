#!/usr/bin/env bash
# Neovim, headless, as a client of `oprec lsp` through editors/nvim: opens a
# records file with a misspelt field, expects the diagnostic at its
# line:col, hovers a field, formats the file (tests/lsp/nvim_test.lua).
# Usage: nvim_test.sh OPREC_BINARY SOURCE_DIR. Exits 77 (a skip) without nvim.
set -euo pipefail
oprec=$1
src=$2
if ! command -v nvim >/dev/null; then
  echo "SKIP: nvim is not installed (scripts/install-deps installs Debian's neovim)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The shipped records beside their own folder's imports (the standard
# library is the server's search path), with a misspelt field in the ffn
# slot and a default laid out as `oprec fmt` would not.
sed -e 's/ffAct = bytes_compute \* hff$/ffAct = bytes_compute * hf/' \
    -e 's/^default n_qknorm = 0$/default  n_qknorm=0/' \
    "$src/records/op_records.rec" > "$work/records.rec"
grep -q 'bytes_compute \* hf$' "$work/records.rec"
grep -q '^default  n_qknorm=0$' "$work/records.rec"
HOME=$work XDG_CONFIG_HOME=$work XDG_DATA_HOME=$work XDG_STATE_HOME=$work \
OPREC_BIN=$oprec OPREC_SRC=$src OPREC_FILE=$work/records.rec \
  timeout 60 nvim --headless --clean -u "$src/tests/lsp/nvim_test.lua" "$work/records.rec" 2>&1
echo "nvim: ok"

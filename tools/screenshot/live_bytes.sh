#!/usr/bin/env bash
# The picture in editors/vscode/README.md: Neovim (Debian's 0.7, through
# editors/nvim) in tmux, on the shipped records with live bytes priced on
# examples/llama2-7b.json, captured with its colours and rendered to PNG
# (ansi_png.py, python3-pil). Usage: live_bytes.sh OPREC SOURCE_DIR OUT.png
set -euo pipefail
oprec="$(realpath "$1")"
src="$(realpath "$2")"
out="$3"
work="$(mktemp -d)"
socket="oprec-shot-$$"
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
cp "$src/records/op_records.rec" "$work/op_records.rec"
line="$(grep -n '^slot qkv ' "$work/op_records.rec" | cut -d: -f1)"
cat > "$work/init.lua" <<LUA
vim.opt.runtimepath:prepend('$src/editors/nvim')
vim.cmd('filetype plugin on')
vim.cmd('syntax on')
vim.opt.number = true
vim.opt.signcolumn = 'no'
require('oprec').setup({ cmd = { '$oprec', 'lsp' }, layer = '$src/examples/llama2-7b.json' })
LUA
HOME="$work" XDG_CONFIG_HOME="$work" XDG_DATA_HOME="$work" XDG_STATE_HOME="$work" \
  tmux -L "$socket" -f /dev/null new-session -d -x 118 -y 24 \
  "TERM=xterm-256color nvim --clean -u '$work/init.lua' '+$((line - 2))' '+normal! zt' '$work/op_records.rec'"
sleep 6
tmux -L "$socket" capture-pane -e -p > "$work/capture.txt"
grep -q 'MiB' "$work/capture.txt" || { echo "no live bytes on the screen:" >&2; cat "$work/capture.txt" >&2; exit 1; }
/usr/bin/python3 "$src/tools/screenshot/ansi_png.py" "$work/capture.txt" "$out"
echo "wrote $out"

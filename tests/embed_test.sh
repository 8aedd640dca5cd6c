#!/usr/bin/env bash
# README's "Embed it in C++" commands, run as written: build what the install
# takes, `cmake --install` into ~/.local, build examples/embed against it with
# find_package(oprec), run it on a bundled layer; then compare its total with
# `oprec eval`'s. HOME is a scratch folder (so ~/.local is), and the commands
# run in a scratch copy of the clone's layout whose build/ is this build.
# Usage: tests/embed_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$(cd "$1" && pwd)"
src="$(cd "$2" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/clone"
ln -s "$build" "$work/clone/build"
ln -s "$src/examples" "$work/clone/examples"
commands="$("$src/tests/readme_block.sh" "$src/README.md" "## Embed it in C++")"
echo "$commands"
grep -q 'cmake --install build' <<<"$commands"
out="$(cd "$work/clone" && HOME="$work/home" bash -euo pipefail -c "$commands" 2>"$work/err")" ||
  { cat "$work/err" >&2; exit 1; }
echo "$out"
prefix="$work/home/.local"
# The installed library finds the installed data, and the installed command too.
[ -f "$prefix/share/oprec/records/op_records.rec" ] && [ -f "$prefix/lib/cmake/oprec/oprecConfig.cmake" ]
"$prefix/bin/oprec" eval "$src/examples/llama2-7b.json" >/dev/null
total="$(echo "$out" | awk '$1 == "layer" {print $2}')"
expected="$("$build/oprec" eval --format json "$src/examples/llama2-7b.json" |
  python3 -c 'import json,sys; d=json.load(sys.stdin)["parts"]; print(sum(d.values(), 0.0))')"
if [ "$total" != "$expected" ]; then
  echo "embed: total $total, oprec eval says $expected" >&2
  exit 1
fi
echo "$out" | grep -q '^t=8 '
echo "embed: ok"

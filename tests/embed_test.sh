#!/usr/bin/env bash
# The embed example built against the installed package: install the build
# into a scratch prefix, build examples/embed with find_package(oprec), run
# it on a bundled layer, and compare its total with `oprec eval`'s.
# Usage: tests/embed_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$1"
src="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/examples/embed" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/build" >/dev/null
out="$("$work/build/price" "$src/examples/llama2-7b.json")"
echo "$out"
# The installed library finds the installed data, not the source tree's.
[ -f "$work/prefix/share/oprec/records/op_records.rec" ]
total="$(echo "$out" | awk '$1 == "layer" {print $2}')"
expected="$("$build/oprec" eval --format json "$src/examples/llama2-7b.json" |
  python3 -c 'import json,sys; d=json.load(sys.stdin)["parts"]; print(sum(d.values(), 0.0))')"
if [ "$total" != "$expected" ]; then
  echo "embed: total $total, oprec eval says $expected" >&2
  exit 1
fi
echo "$out" | grep -q '^t=8 '
echo "embed: ok"

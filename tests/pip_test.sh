#!/usr/bin/env bash
# The Python package as pip installs it (pyproject.toml, setup.py), offline:
#  1. `pip install --no-build-isolation .` into a fresh venv (Debian's setuptools and wheel through
#     --system-site-packages, as the README says), then python/tests against the installed package;
#  2. `pip wheel`, and the wheel installed into a second venv without the system's packages, where
#     `import oprec` finds its records and standard library inside the venv and prices a layer.
# OPREC_CMAKE_BUILD_DIR points setup.py at this build (configured for PYTHON), so `_oprec` is
# already built: what is tested is the packaging, not the compiler.
# Usage: tests/pip_test.sh BUILD_DIR SOURCE_DIR PYTHON OPREC_BINARY
set -euo pipefail
build="$(cd "$1" && pwd)"
src="$(cd "$2" && pwd)"
python="$3"
binary="$4"
work="$build/pip-test"
rm -rf "$work"
mkdir -p "$work"
export OPREC_CMAKE_BUILD_DIR="$build" PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
# The bootstrap's .pth in the user site names build/python: it must not stand in for the installed package.
export PYTHONNOUSERSITE=1 PYTHONDONTWRITEBYTECODE=1

for m in venv setuptools wheel pytest; do
  if ! "$python" -c "import $m" 2>/dev/null; then
    echo "skipped: $python lacks $m (Debian: python3-venv python3-setuptools python3-wheel python3-pytest)"
    exit 77
  fi
done

echo "== pip install --no-build-isolation . into a fresh venv"
"$python" -m venv --system-site-packages "$work/v1"
(cd "$src" && "$work/v1/bin/pip" install -q --no-index --no-build-isolation .)
where="$(cd "$work" && v1/bin/python -c 'import oprec, os; print(os.path.dirname(oprec.__file__))')"
case "$where" in
  "$work/v1/"*) echo "import oprec: $where" ;;
  *) echo "import oprec found $where, not the venv's package" >&2; exit 1 ;;
esac
data="$(cd "$work" && v1/bin/python -c 'import oprec; print(oprec.Records.default_data_dir())')"
[ "$data" = "$where/data" ] || { echo "the installed package's data dir is $data, not $where/data" >&2; exit 1; }
[ -f "$where/data/records/op_records.rec" ] && [ -f "$where/data/stdlib/profiles.rec" ] && [ -f "$where/py.typed" ]

echo "== python/tests against the installed package"
# From the venv's directory, so the source's python/ is not on the path; conftest finds the source by
# OPREC_SOURCE_DIR. test_cmake_option.py configures CMake, not the package: python_pytest runs it.
(cd "$work" && OPREC_SOURCE_DIR="$src" OPREC_BINARY="$binary" OPREC_INSTALLED="$where" \
  v1/bin/python -m pytest -q -p no:cacheprovider --ignore="$src/python/tests/test_cmake_option.py" "$src/python/tests")

echo "== pip wheel, installed into a second venv"
(cd "$src" && "$work/v1/bin/pip" wheel -q --no-index --no-build-isolation --no-deps -w "$work/wheels" .)
wheel="$(ls "$work"/wheels/oprec-*.whl)"
"$python" -m zipfile -l "$wheel" | awk '{print $1}' > "$work/wheel.txt"
for f in oprec/__init__.py oprec/compat/op_records.py oprec/py.typed oprec/_oprec.pyi \
         oprec/data/records/op_records.rec oprec/data/records/calibrated.rec oprec/data/stdlib/profiles.rec; do
  grep -qx "$f" "$work/wheel.txt" || { echo "the wheel lacks $f" >&2; exit 1; }
done
grep -q '^oprec/_oprec\..*\.so$' "$work/wheel.txt" || { echo "the wheel lacks the extension" >&2; exit 1; }
"$python" -m venv "$work/v2"
"$work/v2/bin/pip" install -q --no-index "$wheel"
# Elsewhere, with the source tree nowhere near: the shipped records, a Hugging Face layer, a layer priced.
mkdir -p "$work/elsewhere"
cp "$src/examples/llama2-7b.json" "$work/elsewhere/"
(cd "$work/elsewhere" && ../v2/bin/python - "$work/v2" <<'PY'
import sys
import oprec

venv = sys.argv[1]
assert oprec.__file__.startswith(venv), oprec.__file__
records = oprec.Records()
assert records.source.startswith(venv), records.source
assert oprec.Records("calibrated").source.startswith(venv)
layer = records.layer_file("llama2-7b.json")
layer["t"] = 8
total = layer.total()
assert total == 52690944.0, total
print("the wheel's oprec in a second venv:", records.source, "prices", total)
PY
)
echo "pip: ok"

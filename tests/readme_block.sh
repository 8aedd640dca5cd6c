#!/usr/bin/env bash
# Prints the first ```sh block under a README heading: the commands a test runs as written.
# Usage: tests/readme_block.sh README.md "## Heading"
set -euo pipefail
awk -v heading="$2" '
  $0 == heading { inside = 1; next }
  inside && /^## / { exit }
  inside && /^```sh$/ { block = 1; next }
  block && /^```$/ { found = 1; exit }
  block { print }
  END { if (!found) { print "no ```sh block under " heading > "/dev/stderr"; exit 1 } }
' "$1"

#!/usr/bin/env bash
# The REPL at a real terminal, under tmux: tab completion (a command, a slot,
# a list of ops), Ctrl-C, a reload after an edit of a copy of the records, a
# broken edit that keeps the last good records, the fix reloading, Ctrl-D,
# and the history in a second session. Every step waits for what it expects
# on the screen (polling capture-pane, with a time limit), never a fixed sleep.
#
#   tests/repl/tmux_test.sh OPREC_BINARY SOURCE_DIR
set -euo pipefail

oprec=$1
src=$2
limit=${OPREC_TMUX_TIMEOUT:-30}  # seconds a step may take

if ! command -v tmux >/dev/null; then
  echo "tmux_test: tmux is not installed (scripts/install-deps installs it)" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/oprec-tmux.XXXXXX")
socket="oprec-repl-test-$$-$RANDOM"
cleanup() {
  tmux -L "$socket" kill-server >/dev/null 2>&1 || true
  rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$socket"  # the server leaves its socket behind
  rm -rf "$work"
}
trap cleanup EXIT

tm() { tmux -L "$socket" -f /dev/null "$@"; }

session=""
# The pane's whole text, wrapped lines joined.
screen() { tm capture-pane -p -J -S - -t "$session" 2>/dev/null || true; }
count() { screen | grep -cE -- "$1" || true; }
fail() {
  echo "tmux_test: FAILED: $1" >&2
  echo "---- the screen ----" >&2
  screen >&2
  exit 1
}
# Waits until the screen has more lines matching the regex than `before`.
wait_more() {
  local pattern=$1 before=$2 what=$3 start=$SECONDS
  while (( $(count "$pattern") <= before )); do
    (( SECONDS - start < limit )) || fail "$what (waited ${limit}s for /$pattern/)"
    sleep 0.1
  done
}
# Sends keys, then waits for one more line matching the regex.
step() {
  local pattern=$1 what=$2
  shift 2
  local before
  before=$(count "$pattern")
  tm send-keys -t "$session" "$@"
  wait_more "$pattern" "$before" "$what"
  echo "ok: $what"
}

# Waits for an empty prompt on the last line: the REPL is reading, its
# terminal in editing mode (a key sent before would meet the terminal's own
# line discipline instead).
ready() {
  local start=$SECONDS
  until [[ "$(screen | sed 's/ *$//' | grep -v '^$' | tail -n 1)" == "oprec>" ]]; do
    (( SECONDS - start < limit )) || fail "no prompt to type at"
    sleep 0.05
  done
}
# A step that begins a new line.
line() {
  ready
  step "$@"
}

start() {
  session=$1
  shift
  # The exit status goes to a file: tmux's own report of it can come late.
  tm new-session -d -s "$session" -x 132 -y 50 \
    "env HOME='$work' XDG_STATE_HOME=${STATE:-$work/state} TERM=screen $*; echo \$? > '$work/status.$session'"
  tm set-option -t "$session" remain-on-exit on >/dev/null
  wait_more '^oprec> $' 0 "the prompt of session $session"
}

records="$work/op_records.rec"
cp "$src/records/op_records.rec" "$records"
repl="'$oprec' repl --records '$records' --layer '$src/examples/llama2-7b.json'"

# ---- completion -------------------------------------------------------------------
start one "$repl"
step '^oprec> explain $' "Tab completes a command" 'expl' Tab
step '^oprec> explain score $' "Tab completes a slot" 'sc' Tab
step '^  bytes +the formula on total +12,582,912' "explain runs" Enter
line '^attBMM +attMM +attUp$' "Tab lists the ops a word may become" 'qkv only att' Tab
step '^qkv only attMM  20,971,520 bytes' "the completed line runs" 'M' Tab Enter

# ---- Ctrl-C cancels the line ------------------------------------------------------
line '^oprec> garbage line\^C$' "Ctrl-C cancels the line" 'garbage line' C-c
line '^qkv  21,233,664 bytes  20.25 MiB$' "a slot's bytes" 'qkv' Enter
(( $(count 'garbage') == 1 )) || fail "the cancelled line ran"

# ---- reload after an edit ---------------------------------------------------------
# attBMM keeps twice its elements: qkv's total 20736 -> 20992.
sed -i 's/^    attBMM = n_attBMM \* dh$/    attBMM = 2 * n_attBMM * dh/' "$records"
grep -q '^    attBMM = 2 \* n_attBMM \* dh$' "$records" || fail "the edit of the records copy"
line '^qkv  21,495,808 bytes  20\.50 MiB$' "an edit reloads the records" 'qkv' Enter
(( $(count 'reloaded the records \(`.*op_records\.rec` changed\)') == 1 )) || fail "the reload was not reported"

# ---- a broken edit keeps the last good records ------------------------------------
sed -i 's/^    attBMM = 2 \* n_attBMM \* dh$/    attBMM = 2 * n_attBMM */' "$records"
line 'keeping the records that last loaded' "a broken edit is reported" 'qkv' Enter
(( $(count 'op_records\.rec:[0-9]+:[0-9]+: error: syntax error') >= 1 )) || fail "no diagnostic at the broken line"
wait_more '^qkv  21,495,808 bytes  20\.50 MiB$' 1 "the last good records still answer"
echo "ok: the last good records still answer"
line '^qkv  21,495,808 bytes  20\.50 MiB$' "and go on answering, without reporting again" 'qkv' Enter
(( $(count 'keeping the records that last loaded') == 1 )) || fail "the broken file was reported twice"

# ---- the fix reloads ----------------------------------------------------------------
cp "$src/records/op_records.rec" "$records"
line '^qkv  21,233,664 bytes  20\.25 MiB$' "the fixed records reload" 'qkv' Enter

# ---- Ctrl-D leaves -------------------------------------------------------------------
ready
tm send-keys -t "$session" C-d
start_wait=$SECONDS
until [[ -s "$work/status.$session" ]]; do
  (( SECONDS - start_wait < limit )) || fail "Ctrl-D did not leave"
  sleep 0.1
done
[[ "$(cat "$work/status.$session")" == 0 ]] || fail "Ctrl-D left with status $(cat "$work/status.$session")"
echo "ok: Ctrl-D leaves, status 0"

# ---- the history, in a second session ---------------------------------------------
[[ -s "$work/state/oprec/history" ]] || fail "no history file at \$XDG_STATE_HOME/oprec/history"
start two "$repl"
line '^oprec> qkv$' "Up recalls the last session's last command" Up
step '^qkv  21,233,664 bytes  20\.25 MiB$' "and it runs" Enter
line '^oprec> qkv only attMM$' "Up again, further back" Up Up
tm send-keys -t "$session" C-u C-d

# ---- a history file that cannot be written is no error -----------------------------
touch "$work/not-a-folder"
STATE="$work/not-a-folder/state" start three "$repl"
line '^qkv  21,233,664 bytes  20\.25 MiB$' "no history file: the REPL works all the same" 'qkv' Enter
(( $(count 'error') == 0 )) || fail "an unwritable history file was reported"

echo "tmux_test: all passed"

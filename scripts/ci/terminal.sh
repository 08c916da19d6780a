#!/usr/bin/env bash
# The terminal output in a real terminal: versus exec runs in an 80-column
# tmux window; while it runs, the screen must show the ETA (a time, from
# measured runs), and no line may be wider than the window, neither of the
# progress display nor of the end-of-run tables. VERSUS names the binary
# (default: target/debug/versus, built here).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v tmux >/dev/null; then
  sudo_=""; [[ $(id -u) -ne 0 ]] && sudo_="sudo"
  $sudo_ apt-get update -qq && $sudo_ apt-get install -y -qq tmux >/dev/null
fi
if [[ -z "${VERSUS:-}" ]]; then
  cargo build --locked --quiet
  VERSUS="$PWD/target/debug/versus"
fi
session="versus-terminal-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true' EXIT
tmux new-session -d -s "$session" -x 80 -y 24 \
  "$VERSUS exec --no-history -r 8 -w 1 -n a-rather-long-name-for-the-first-command -n b 'sleep 0.4' 'sleep 0.3'; sleep 30"
screen=""
for _ in $(seq 1 40); do
  sleep 0.25
  screen=$(tmux capture-pane -p -t "$session")
  grep -q 'ETA' <<<"$screen" && break
done
status=0
if grep -q 'ETA' <<<"$screen"; then echo "ok    ETA shown"; else echo "FAIL  no ETA on screen:"; echo "$screen"; status=1; fi
wider() { python3 -c 'import sys; [print(l) for l in sys.stdin.read().splitlines() if len(l) > 80]'; }
long=$(wider <<<"$screen")
if [[ -z $long ]]; then echo "ok    no progress line wider than 80 columns"; else echo "FAIL  lines wider than 80:"; echo "$long"; status=1; fi
# The ETA is a time once a run has finished ("ETA 3s"), not a count of runs.
for _ in $(seq 1 40); do
  grep -Eq 'ETA [0-9]+(s|m [0-9]+s)' <<<"$screen" && break
  sleep 0.25
  screen=$(tmux capture-pane -p -t "$session")
done
if grep -Eq 'ETA [0-9]+(s|m [0-9]+s)' <<<"$screen"; then echo "ok    ETA is a time"; else echo "FAIL  no time after ETA:"; echo "$screen"; status=1; fi
# The end-of-run tables, whole (with the window's scrollback).
for _ in $(seq 1 80); do
  sleep 0.25
  screen=$(tmux capture-pane -p -J -S -500 -t "$session")
  grep -q '== Headline ==' <<<"$screen" && break
done
if grep -q '== Headline ==' <<<"$screen"; then echo "ok    end-of-run tables shown"; else echo "FAIL  no tables:"; echo "$screen"; status=1; fi
screen=$(tmux capture-pane -p -S -500 -t "$session")
long=$(wider <<<"$screen")
if [[ -z $long ]]; then echo "ok    no table line wider than 80 columns"; else echo "FAIL  table lines wider than 80:"; echo "$long"; status=1; fi
exit $status

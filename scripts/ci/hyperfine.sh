#!/usr/bin/env bash
# versus exec against hyperfine, flag by flag, on the same commands.
#
# Each case runs hyperfine and versus with the same flags on commands that
# append a line to a log file (and --prepare/--setup/... commands that do
# the same), then compares the logs: the same commands run the same number
# of times, setups and cleanups in the same order, parameters expanded in
# the same order. Flags Debian's hyperfine (1.15) lacks (--conclude,
# --input, --sort, -u microsecond, --reference, --reference-name) are
# checked against hyperfine's documented meaning instead. Called from scripts/test.sh; VERSUS names the
# binary (default: target/debug/versus, built here).
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v hyperfine >/dev/null; then
  sudo_=""; [[ $(id -u) -ne 0 ]] && sudo_="sudo"
  $sudo_ apt-get update -qq && $sudo_ apt-get install -y -qq hyperfine >/dev/null
fi
if [[ -z "${VERSUS:-}" ]]; then
  cargo build --locked --quiet
  VERSUS="$PWD/target/debug/versus"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A store of the script's own: these runs are not the checkout's history.
export VERSUS_STORE="$work/history.db"
LOG="$work/log"
# `$tag TEXT` appends TEXT to $LOG; started without a shell by both tools.
tag="$work/tag"
printf '#!/bin/sh\necho "$1" >> %s\nexit "${2:-0}"\n' "$LOG" > "$tag"
chmod +x "$tag"

pass=0
fail=0
ok() { pass=$((pass + 1)); printf 'ok    %s\n' "$1"; }
bad() { fail=$((fail + 1)); printf 'FAIL  %s\n%s\n' "$1" "$2"; }

# same NAME MODE ARGS...: runs both tools with ARGS, compares their logs.
# MODE is `exact` (same lines in the same order), `counts` (same lines,
# any order: versus interleaves the commands run by run) or `order:REGEX`
# (the lines matching REGEX in the same order).
same() {
  local name=$1 mode=$2; shift 2
  : > "$LOG"; hyperfine --style none "$@" >/dev/null 2>"$work/hf.err" || { bad "$name" "hyperfine failed: $(cat "$work/hf.err")"; return; }
  cp "$LOG" "$work/hf.log"
  : > "$LOG"; "$VERSUS" exec -q "$@" >/dev/null 2>"$work/vs.err" || { bad "$name" "versus failed: $(cat "$work/vs.err")"; return; }
  cp "$LOG" "$work/vs.log"
  if [[ $mode == counts ]]; then
    sort "$work/hf.log" -o "$work/hf.log"; sort "$work/vs.log" -o "$work/vs.log"
  elif [[ $mode == order:* ]]; then
    grep -E "${mode#order:}" "$work/hf.log" > "$work/hf.sel" || true; mv "$work/hf.sel" "$work/hf.log"
    grep -E "${mode#order:}" "$work/vs.log" > "$work/vs.sel" || true; mv "$work/vs.sel" "$work/vs.log"
  fi
  if diff -u "$work/hf.log" "$work/vs.log" >"$work/diff"; then ok "$name ($(wc -l < "$work/vs.log") lines)"; else bad "$name" "$(cat "$work/diff")"; fi
}

# expect NAME EXPECTED ARGS...: versus alone, its log against hyperfine's documented behaviour.
expect() {
  local name=$1 want=$2; shift 2
  : > "$LOG"; "$VERSUS" exec -q "$@" >/dev/null 2>"$work/vs.err" || { bad "$name" "versus failed: $(cat "$work/vs.err")"; return; }
  if [[ "$(sort "$LOG" | uniq -c | tr -s ' ' | tr '\n' ';')" == "$want" ]]; then ok "$name"; else bad "$name" "want $want, got $(sort "$LOG" | uniq -c | tr -s ' ' | tr '\n' ';')"; fi
}

N=(-N)
same "--runs/--warmup: same runs"              counts "${N[@]}" -r 3 -w 2 "$tag A" "$tag B"
same "-L: product order, first -L fastest"      exact  "${N[@]}" -r 1 -w 0 -L x 1,2 -L y a,b "$tag A{x}{y}" "$tag B{x}{y}"
same "-L: escaped commas"                       exact  "${N[@]}" -r 1 -w 0 -L v 'p\,q,r' "$tag {v}"
same "-P: inclusive scan"                        exact  "${N[@]}" -r 1 -w 0 -P n 1 4 "$tag A{n}" "$tag B{n}"
same "-P -D: integer step"                       exact  "${N[@]}" -r 1 -w 0 -P n 1 6 -D 2 "$tag {n}"
same "-P -D: decimal step"                       exact  "${N[@]}" -r 1 -w 0 -P d 0 1 -D 0.25 "$tag {d}"
same "--prepare: before every run"               counts "${N[@]}" -r 3 -w 1 --prepare "$tag prep" "$tag A" "$tag B"
same "--prepare: once per command"               counts "${N[@]}" -r 2 -w 1 --prepare "$tag pA" --prepare "$tag pB" "$tag A" "$tag B"
same "--setup: once per command and value, in order" order:^setup "${N[@]}" -r 1 -w 0 -L x 1,2 --setup "$tag setup{x}" "$tag A{x}" "$tag B{x}"
same "--cleanup: once per command and value, in order" order:^clean "${N[@]}" -r 1 -w 0 -L x 1,2 --cleanup "$tag clean{x}" "$tag A{x}" "$tag B{x}"
same "--setup/--cleanup counts with runs"        counts "${N[@]}" -r 3 -w 1 --setup "$tag s" --cleanup "$tag c" "$tag A" "$tag B"
same "-i: failing command runs every run"        counts "${N[@]}" -r 3 -w 1 -i "$tag F 1" "$tag A"
same "-S sh: shell syntax through a shell"       counts -S sh -r 2 -w 1 "echo X >> $LOG && echo Y >> $LOG"
same "--shell=bash with a parameter"             exact  --shell=bash -r 1 -w 0 -L n 1,2 "echo n{n} >> $LOG"
same "--output=pipe: same runs"                  counts "${N[@]}" -r 2 -w 1 --output=pipe "$tag A"
same "--min-runs: hyperfine's 3 s rule"          counts "${N[@]}" -w 0 --min-runs 2 "sh -c 'sleep 0.7; echo slow >> $LOG'"
same "--min-runs: the minimum"                   counts "${N[@]}" -w 0 --min-runs 4 "sh -c 'sleep 1.2; echo slow >> $LOG'"

# --output=FILE: both leave the last run's standard output in FILE.
hyperfine -N --style none -r 2 --output="$work/hf.out" "echo out" >/dev/null
"$VERSUS" exec -q -N -r 2 --output="$work/vs.out" "echo out" >/dev/null
if cmp -s "$work/hf.out" "$work/vs.out"; then ok "--output=FILE"; else bad "--output=FILE" "$(cat "$work/hf.out") vs $(cat "$work/vs.out")"; fi

# --show-output: each run's output is shown.
h=$(hyperfine -N -r 3 -w 1 --show-output "echo shown" 2>/dev/null | grep -c '^shown$' || true)
v=$("$VERSUS" exec -q -N -r 3 -w 1 --show-output "echo shown" 2>/dev/null | grep -c '^shown$' || true)
if [[ $h == "$v" ]]; then ok "--show-output ($v lines)"; else bad "--show-output" "hyperfine $h, versus $v"; fi

# Exports: each file is written, and the JSON (hyperfine's own format; compared
# key by key in scripts/ci/formats.sh) has as many runs as hyperfine's.
hyperfine -N --style none -r 4 -w 0 --export-json "$work/hf.json" "true" >/dev/null 2>&1
"$VERSUS" exec -q -N -r 4 -w 0 --export-json "$work/vs.json" --export-markdown "$work/vs.md" \
  --export-csv "$work/vs.csv" --export-asciidoc "$work/vs.adoc" "true" >/dev/null
h=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"][0]["times"]))' "$work/hf.json")
v=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"][0]["times"]))' "$work/vs.json")
if [[ $h == "$v" ]]; then ok "--export-json ($v runs)"; else bad "--export-json" "hyperfine $h runs, versus $v"; fi
for f in vs.md vs.csv vs.adoc; do
  if [[ -s "$work/$f" ]]; then ok "--export-${f#vs.} written"; else bad "--export ${f}" "empty"; fi
done
if "$VERSUS" exec -q -N -r 2 --json - true 2>/dev/null | python3 -c 'import json,sys; json.load(sys.stdin)'; then ok "--json - writes JSON to stdout"; else bad "--json -" "not JSON"; fi

# --style none prints nothing, as hyperfine's.
h=$(hyperfine -N --style none -r 2 true | wc -c)
v=$("$VERSUS" exec -N --style none -r 2 true | wc -c)
if [[ $h == 0 && $v == 0 ]]; then ok "--style none"; else bad "--style none" "hyperfine $h bytes, versus $v"; fi

# --time-unit: every measured time in the summary in that unit (the run
# record's load line states its sampling interval, which is not a measurement).
for u in millisecond second microsecond; do
  sym=$(case $u in millisecond) echo ms;; second) echo s;; microsecond) echo µs;; esac)
  out=$("$VERSUS" exec -q -N -r 2 -u "$u" true | grep -v 'load min')
  others=$(grep -oE '[0-9.]+ (ns|µs|ms|s)\b' <<<"$out" | grep -vE " $sym\$" || true)
  if [[ -z $others ]]; then ok "--time-unit $u"; else bad "--time-unit $u" "$others"; fi
done

# Flags Debian's hyperfine 1.15 lacks, against hyperfine's documented meaning.
expect "--conclude: after every run (hyperfine >= 1.17)" " 3 A; 3 B; 6 done;" "${N[@]}" -r 2 -w 1 --conclude "$tag done" "$tag A" "$tag B"
expect "--reference: measured beside the commands (hyperfine >= 1.19)" " 3 A; 3 R;" "${N[@]}" -r 2 -w 1 --reference "$tag R" "$tag A"
"$VERSUS" exec -q -N -r 2 --reference true --reference-name base --export-json "$work/ref.json" "sleep 0.01" >/dev/null
first=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["command"])' "$work/ref.json")
if [[ $first == base ]]; then ok "--reference-name: the reference first, by its name (hyperfine >= 1.20)"; else bad "--reference-name" "first result: $first"; fi
printf 'line\n' > "$work/in"
expect "--input: the file on stdin of every run (hyperfine >= 1.17)" " 3 line;" -S sh -r 2 -w 1 --input "$work/in" "cat >> $LOG"
first=$("$VERSUS" exec -q -N -r 3 --sort mean-time "sleep 0.2" "true" | awk '/^ +(true|sleep 0.2) /{print $1; exit}')
if [[ $first == true ]]; then ok "--sort mean-time: fastest first"; else bad "--sort mean-time" "first row: $first"; fi

# Shell syntax without a shell is refused with the fix named (hyperfine -N would pass it on as arguments).
if "$VERSUS" exec -q 'echo a | cat' 2>"$work/err"; then bad "shell syntax refused" "exit 0"; fi
if grep -q -- '--shell' "$work/err"; then ok "shell syntax without a shell: refused, --shell named"; else bad "shell syntax message" "$(cat "$work/err")"; fi

printf '\nhyperfine comparison: %d passed, %d failed\n' "$pass" "$fail"
[[ $fail == 0 ]]

#!/usr/bin/env bash
# How analysis grows with a cell's runs and with a suite's cells (issue 50):
# hyperfine files of a fixed shape (bench/analysis-scale/data.py: lognormal
# noise, one run in fifty an outlier), imported with `versus import` (the
# whole path: analysis, the terminal summary, results.json, report.md with
# its charts, report.html), then the same results.json analysed again by
# `versus report FILE --json OUT` (read, analyse, check, write: no report
# drawn). Writes docs/results/analysis-scale.md.
#
#   bash bench/analysis-scale.sh                     # builds versus (release) first
#   VERSUS=target/release/versus QUICK=1 bash bench/analysis-scale.sh   # the smaller sizes only
#   VERSUS=OLD/versus LIMIT=120 REPORT=docs/results/analysis-scale-before.md bash bench/analysis-scale.sh
#                                                     # an older build, for the curve before a change
#
# Each command has LIMIT seconds (600); one that takes longer is shown as
# "> LIMIT" and the larger sizes of its kind are not tried.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPORT=${REPORT:-$ROOT/docs/results/analysis-scale.md}
LIMIT=${LIMIT:-600}
if [[ -z "${VERSUS:-}" ]]; then
  (cd "$ROOT" && cargo build --release --locked --quiet)
  VERSUS="$ROOT/target/release/versus"
fi
VERSUS=$(realpath "$VERSUS")
WORK=$(mktemp -d /tmp/versus-analysis-scale.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export VERSUS_CACHE_DIR="$WORK/cache"

# One row: IMPLS GROUPS RUNS. Prints "import s | import MB | again s | again MB"
# or "> LIMIT" where a command ran out of time.
timed() { # OUT CMD... -> "seconds peak_MB" or "timeout"
  local out=$1; shift
  if /usr/bin/time -f "%e %M" -o "$out.time" timeout "$LIMIT" "$@" >/dev/null 2>"$out.err"; then
    awk '{ printf "%.2f %.0f", $1, $2 / 1024 }' "$out.time"
  elif [[ $? == 124 ]]; then
    echo timeout
  else
    echo "failed: $(tail -1 "$out.err")" >&2; exit 1
  fi
}
row() {
  local impls=$1 groups=$2 runs=$3 name="$1x$2x$3"
  python3 "$ROOT/bench/analysis-scale/data.py" "$impls" "$groups" "$runs" "$WORK/$name.json"
  local import again
  import=$(timed "$WORK/$name.import" "$VERSUS" import "$WORK/$name.json" --out "$WORK/$name" --no-history)
  if [[ $import == timeout ]]; then
    printf '| %s | %s | %s | %s | > %s | | | |\n' "$impls" "$groups" "$runs" $((impls * groups)) "$LIMIT"
    return 1
  fi
  [[ -s "$WORK/commit" ]] || python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["environment"].get("versus_commit") or {}
print(c.get("commit", "unknown")[:7] + ("+changes" if c.get("dirty") else ""))' "$WORK/$name/results.json" > "$WORK/commit"
  again=$(timed "$WORK/$name.again" "$VERSUS" report "$WORK/$name/results.json" --json "$WORK/$name.again.json")
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$impls" "$groups" "$runs" $((impls * groups)) \
    ${import% *} ${import#* } ${again% *} ${again#* }
  rm -rf "$WORK/$name" "$WORK/$name".*
}
table() { # ROWS... each "IMPLS GROUPS RUNS"
  echo '| implementations | groups | runs per cell | cells | import s | import peak MB | analysed again s | again peak MB |'
  echo '|---:|---:|---:|---:|---:|---:|---:|---:|'
  for r in "$@"; do row $r || break; done
}
if [[ -n "${QUICK:-}" ]]; then
  runs=("2 1 1000" "2 1 10000" "2 1 100000")
  cells=("2 50 10" "2 500 10" "2 2500 10")
  impls=("100 1 10" "1000 1 10")
else
  runs=("2 1 1000" "2 1 10000" "2 1 100000" "2 1 1000000")
  cells=("2 50 10" "2 500 10" "2 2500 10" "2 10000 10")
  impls=("100 1 10" "1000 1 10" "5000 1 10" "20000 1 10")
fi
start_load=$(cut -d' ' -f1 /proc/loadavg)
{
  echo '## Runs per cell (two cells)'
  echo
  table "${runs[@]}"
  echo
  echo '## Cells per suite (two implementations, one group per parameter value, 10 runs)'
  echo
  table "${cells[@]}"
  echo
  echo '## Implementations in one group (10 runs each)'
  echo
  table "${impls[@]}"
} > "$WORK/tables.md"
{
  echo '# Analysis time against runs per cell and cells per suite'
  echo
  echo "Made by \`bash bench/analysis-scale.sh\`${QUICK:+ (QUICK=1)} on $(date -u +%Y-%m-%d), with the versus built from"
  echo "commit $(cat "$WORK/commit" 2>/dev/null || echo unknown) (as its results.json records it), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')),"
  echo "load $start_load at the start."
  echo
  echo 'Each row imports a hyperfine file (`versus import FILE --no-history`: analysis, the terminal'
  echo 'summary, results.json, report.md with its charts and report.html), then analyses the'
  echo 'results.json it wrote once more (`versus report results.json --json OUT`: read, analyse,'
  echo 'check, write, no report drawn). Seconds are wall time, peak MB the largest resident set (GNU'
  echo "time), one try each; a command stopped at $LIMIT s shows \"> $LIMIT\" and ends its table."
  echo
  cat "$WORK/tables.md"
} | tee "$REPORT"

#!/usr/bin/env bash
# The history store at a team's scale (issue 32): both backends filled to
# RUNS runs of a 1,000-cell suite through versus's own write path
# (`versus history import` of documents made from one real run), measured at
# each checkpoint, for this versus and, when VERSUS_BEFORE names one, an
# earlier versus beside it. Writes docs/results/store-scale.md.
#
#   bash bench/store-scale.sh                       # builds versus (release) first
#   VERSUS=target/release/versus VERSUS_BEFORE=/path/to/old/versus bash bench/store-scale.sh
#   RUNS=200 CHECKPOINTS="2 200" REPS=3 bash bench/store-scale.sh   # a quick pass
#
# What it does:
#   1. the real run: 250 values x 4 implementations (true, echo, printf,
#      test), 10-30 runs per cell (--precision 3%), no history;
#   2. bench/store-scale/generate.py makes RUNS documents from it (each
#      cell's own noise, one cell in 25 stepping to a new level), imported
#      in batches into an SQLite file and a PostgreSQL database per versus;
#   3. at each checkpoint, REPS times each: `versus trend` of the whole suite
#      (wall time, peak RSS, page sizes), `history list --suite`, `show`,
#      `export`, `diff RUN RUN`, and the store's size on disk;
#   4. at the end: `prune --run`, the history's cost inside a run (a
#      `versus run --resume` of a finished run, which measures nothing,
#      with history against --no-history), and recording one run into the
#      PostgreSQL store directly and through bench/store-scale/proxy.py at
#      2.4 ms and 20 ms round trips; a closed pipe and `--store` after the
#      subcommand, checked.
# The PostgreSQL server is a throw-away one (scripts/ci/postgres.sh, its
# state in VERSUS_PG_STATE, default /tmp/versus-store-scale-pg).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPORT=${REPORT:-$ROOT/docs/results/store-scale.md}
RUNS=${RUNS:-2000}
CHECKPOINTS=${CHECKPOINTS:-"2 200 1000 2000"}
REPS=${REPS:-3}
BATCH=${BATCH:-25}
WORK=${WORK:-$(mktemp -d /tmp/versus-store-scale.XXXXXX)}
export VERSUS_PG_STATE=${VERSUS_PG_STATE:-/tmp/versus-store-scale-pg}
if [[ -z "${VERSUS:-}" ]]; then
  (cd "$ROOT" && cargo build --release --locked --quiet)
  VERSUS="$ROOT/target/release/versus"
fi
VERSUS=$(realpath "$VERSUS")
declare -A BIN=([after]="$VERSUS")
# The layout of the results files each side's versus writes (generate.py):
# versus before the one-line arrays of src/results/layout.rs wrote one
# number per line.
declare -A LAYOUT=([after]=versus [before]="${BEFORE_LAYOUT:-pretty}")
SIDES=(after)
if [[ -n "${VERSUS_BEFORE:-}" ]]; then
  BIN[before]=$(realpath "$VERSUS_BEFORE")
  SIDES=(before after)
fi

# shellcheck source=../scripts/ci/postgres.sh
source "$ROOT/scripts/ci/postgres.sh" start >/dev/null
PROXY_PIDS=()
cleanup() {
  for p in "${PROXY_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  bash "$ROOT/scripts/ci/postgres.sh" stop >/dev/null 2>&1 || true
  [[ -n "${KEEP_WORK:-}" ]] || rm -rf "$WORK"
}
trap cleanup EXIT
PG_ROOT=${VERSUS_TEST_POSTGRES_URL%/*}
psql_() { psql "$PG_ROOT/postgres" -qAtX "$@"; }

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
load() { cut -d' ' -f1 /proc/loadavg; }
out() { echo "$*" >> "$REPORT"; }
# timed OUTFILE CMD...: appends "seconds peak_kib exit" of one run to OUTFILE.
timed() {
  local f=$1; shift
  /usr/bin/time -f "%e %M %x" -o "$WORK/time.tmp" "$@" >/dev/null 2>"$WORK/stderr.tmp" || true
  cat "$WORK/time.tmp" | tail -1 >> "$f"
}
col() { awk -v c="$2" '{ print $c }' "$1"; }

# --- 1. the real run -------------------------------------------------------------
mkdir -p "$WORK/real"
# TEMPLATE=results.json of an earlier real run skips making one (but the
# resume measurement below needs its folder: cells.jsonl beside it).
cp "$ROOT/bench/store-scale/team.toml" "$WORK/real/team.toml"
if [[ -n "${TEMPLATE:-}" ]]; then
  cp -r "$(dirname "$TEMPLATE")" "$WORK/real/out"
else
  (cd "$WORK/real" && "$VERSUS" run team.toml --precision 3% --max-runs 30 --out out -q --no-history >/dev/null) || true
fi
TEMPLATE="$WORK/real/out/results.json"
[[ -f "$TEMPLATE" ]] || { echo "the real run wrote no results" >&2; exit 1; }
CELLS=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['cells']))" "$TEMPLATE")

# --- 2. the stores ---------------------------------------------------------------
declare -A STORE
for side in "${SIDES[@]}"; do
  STORE[$side-sqlite]="$WORK/$side.db"
  psql_ -c "DROP DATABASE IF EXISTS scale_$side" -c "CREATE DATABASE scale_$side"
  STORE[$side-postgres]="$PG_ROOT/scale_$side"
done
size_of() { # size_of SIDE BACKEND: bytes on disk
  case $2 in
    sqlite) du -cb "${STORE[$1-sqlite]}"* | tail -1 | cut -f1 ;;
    postgres) psql_ -c "SELECT pg_database_size('scale_$1')" ;;
  esac
}
: > "$REPORT"
out "# The history store at a team's scale"
out
out "Made by \`bash bench/store-scale.sh\` (RUNS=$RUNS, REPS=$REPS) on $(date -u +%Y-%m-%dT%H:%MZ): $(nproc) cores, $(awk '/model name/ { sub(/.*: /, ""); print; exit }' /proc/cpuinfo), load $(load) at the start; PostgreSQL $(psql_ -c 'SHOW server_version'). **after**: $("$VERSUS" --version)$(for s in "${SIDES[@]}"; do [[ $s == before ]] && printf '; **before**: %s (%s)' "$("${BIN[before]}" --version)" "${VERSUS_BEFORE_LABEL:-the versus before this change}"; done)."
out
out "Both stores filled through \`versus history import\` with documents made by \`bench/store-scale/generate.py\` from one real $CELLS-cell run (\`$(basename "$TEMPLATE")\`, $(mb "$(stat -c %s "$TEMPLATE")") MB; 10–30 samples per cell), each cell with its own run-to-run noise (0.5–3%) and one cell in 25 stepping to a new level, its figures kept to a measurement's grain (CPU times in whole microseconds, extremes in whole nanoseconds). Each side is given the documents in the layout its own versus writes: $(for s in "${SIDES[@]}"; do printf '%s %s; ' "$s" "${LAYOUT[$s]}"; done)\`pretty\` is one number per line, \`versus\` an array of numbers on one line (src/results/layout.rs). Times are wall seconds, medians of $REPS; RSS is GNU time's peak resident KiB. Load is the 1-minute load average when each row was taken: the machine is shared with other builds."
out

measure_checkpoint() { # SIDE BACKEND N
  local side=$1 backend=$2 n=$3 v=${BIN[$1]} s=${STORE[$1-$2]} f
  f="$WORK/m-$side-$backend-$n"
  : > "$f.trend"; : > "$f.list"; : > "$f.show"; : > "$f.export"; : > "$f.diff"
  for _ in $(seq "$REPS"); do
    timed "$f.trend" "$v" trend --store "$s" --suite team --html "$WORK/t.html" --markdown "$WORK/t.md"
    timed "$f.list" "$v" history --store "$s" list --suite team --limit 20
    timed "$f.show" "$v" history --store "$s" show "$n"
    timed "$f.export" "$v" history --store "$s" export "$n" --out "$WORK/e.json"
    timed "$f.diff" "$v" diff --store "$s" "$((n > 1 ? n - 1 : n))" "$n"
  done
  local html md
  html=$(stat -c %s "$WORK/t.html" 2>/dev/null || echo 0); md=$(stat -c %s "$WORK/t.md" 2>/dev/null || echo 0)
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
    "$side" "$backend" "$n" \
    "$(col "$f.trend" 1 | median)" "$(col "$f.trend" 2 | median)" "$(mb "$html")" "$(mb "$md")" \
    "$(col "$f.list" 1 | median)" "$(col "$f.show" 1 | median)" "$(col "$f.export" 1 | median)" "$(col "$f.diff" 1 | median)" \
    "$(mb "$(size_of "$side" "$backend")")" "$(load)" >> "$WORK/table"
}

: > "$WORK/table"
: > "$WORK/imports"
done_runs=0
for cp in $CHECKPOINTS; do
  while (( done_runs < cp )); do
    last=$(( done_runs + BATCH < cp ? done_runs + BATCH : cp ))
    for side in "${SIDES[@]}"; do
      # Each side is given documents in the layout its own versus writes.
      rm -rf "$WORK/gen"; mkdir -p "$WORK/gen"
      python3 "$ROOT/bench/store-scale/generate.py" "$TEMPLATE" "$WORK/gen" $((done_runs + 1)) "$last" "$RUNS" "${LAYOUT[$side]}"
      files=$(ls -v "$WORK"/gen/run-*.json)
      for backend in sqlite postgres; do
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086
        "${BIN[$side]}" history --store "${STORE[$side-$backend]}" import $files >/dev/null
        echo "$side $backend $(awk -v a="$t0" -v b="$(date +%s.%N)" -v n=$((last - done_runs)) 'BEGIN { printf "%.3f", (b - a) / n }')" >> "$WORK/imports"
      done
    done
    done_runs=$last
  done
  for side in "${SIDES[@]}"; do
    for backend in sqlite postgres; do measure_checkpoint "$side" "$backend" "$cp"; done
  done
done

out "## Reading: trend, list, show, export, diff, and the size on disk"
out
out "| versus | store | runs | trend s | trend peak RSS KiB | trend.html MB | trend.md MB | list --suite s | show s | export s | diff RUN RUN s | store MB | load |"
out "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
cat "$WORK/table" >> "$REPORT"
out
out "Import (parse, analyse nothing, record), seconds per run, median over every batch:"
out
out "| versus | store | s per run |"
out "|---|---|---:|"
for side in "${SIDES[@]}"; do
  for backend in sqlite postgres; do
    out "| $side | $backend | $(awk -v s="$side" -v b="$backend" '$1 == s && $2 == b { print $3 }' "$WORK/imports" | median) |"
  done
done
out

# --- 4. at the end ---------------------------------------------------------------
N=$done_runs
out "## At $N runs: pruning, the history's cost inside a run, recording through a round trip"
out
out "| versus | store | prune --run s | run --resume, history on s | --no-history s | history's cost s | load |"
out "|---|---|---:|---:|---:|---:|---:|"
# A finished run to resume: nothing left to measure, so the run is its analysis, reports and history.
(cd "$WORK/real" && cp -r out resume-src)
for side in "${SIDES[@]}"; do
  for backend in sqlite postgres; do
    v=${BIN[$side]} s=${STORE[$side-$backend]}
    : > "$WORK/prune"; : > "$WORK/on"; : > "$WORK/off"
    timed "$WORK/prune" "$v" history --store "$s" prune --run 1
    for _ in $(seq "$REPS"); do
      rm -rf "$WORK/real/r"; cp -r "$WORK/real/resume-src" "$WORK/real/r"
      (cd "$WORK/real" && timed "$WORK/on" "$v" run team.toml --resume r -q --store "$s")
      rm -rf "$WORK/real/r"; cp -r "$WORK/real/resume-src" "$WORK/real/r"
      (cd "$WORK/real" && timed "$WORK/off" "$v" run team.toml --resume r -q --no-history)
    done
    on=$(col "$WORK/on" 1 | median) off=$(col "$WORK/off" 1 | median)
    out "| $side | $backend | $(col "$WORK/prune" 1 | median) | $on | $off | $(awk -v a="$on" -v b="$off" 'BEGIN { printf "%+.2f", a - b }') | $(load) |"
  done
done
out
out "Recording one $CELLS-cell run into the PostgreSQL store of $N runs (\`versus history import\`: start-up, connection, schema check, parse, record), directly and through \`bench/store-scale/proxy.py\` adding a round trip on loopback; seconds, median of $REPS (1 for the slowest):"
out
out "| versus | direct | 2.4 ms round trip | 20 ms round trip | load |"
out "|---|---:|---:|---:|---:|"
for side in "${SIDES[@]}"; do
  mkdir -p "$WORK/rec-$side"
  python3 "$ROOT/bench/store-scale/generate.py" "$TEMPLATE" "$WORK/rec-$side" $((N + 1)) $((N + 1)) "$RUNS" "${LAYOUT[$side]}"
done
pg_port=$(cat "$VERSUS_PG_STATE/port")
port=$(( 20000 + RANDOM % 20000 ))
row=()
for rtt in 2.4 20; do
  port=$((port + 1))
  python3 "$ROOT/bench/store-scale/proxy.py" "$port" "$pg_port" "$rtt" > "$WORK/proxy-$rtt.out" &
  PROXY_PIDS+=($!)
  for _ in 1 2 3 4 5 6 7 8 9 10; do grep -q ready "$WORK/proxy-$rtt.out" 2>/dev/null && break; sleep 0.5; done
  eval "proxy_$(echo "$rtt" | tr . _)=$port"
done
for side in "${SIDES[@]}"; do
  v=${BIN[$side]}
  cells=()
  for via in direct 2.4 20; do
    case $via in
      direct) url="$PG_ROOT/scale_$side" ;;
      2.4) url="postgres://postgres@127.0.0.1:$proxy_2_4/scale_$side" ;;
      20) url="postgres://postgres@127.0.0.1:$proxy_20/scale_$side" ;;
    esac
    reps=$REPS
    [[ $side == before && $via == 20 ]] && reps=1
    : > "$WORK/rec"
    for _ in $(seq "$reps"); do timed "$WORK/rec" "$v" history --store "$url" import "$WORK/rec-$side/run-$((N + 1)).json"; done
    cells+=("$(col "$WORK/rec" 1 | median)")
  done
  out "| $side | ${cells[0]} | ${cells[1]} | ${cells[2]} | $(load) |"
done
out
out "Opening a store and reading its schema version, through the 20 ms proxy (\`history list --limit 1\`: connection, schema check, one query):"
out
out "| versus | s |"
out "|---|---:|"
for side in "${SIDES[@]}"; do
  : > "$WORK/open"
  for _ in $(seq "$REPS"); do timed "$WORK/open" "${BIN[$side]}" history --store "postgres://postgres@127.0.0.1:$proxy_20/scale_$side" list --limit 1; done
  out "| $side | $(col "$WORK/open" 1 | median) |"
done
out
out "## Behaviour"
out
out "| versus | \`history show 2\` into a closed pipe | \`history list --store PATH\` (flag after the subcommand) |"
out "|---|---|---|"
for side in "${SIDES[@]}"; do
  v=${BIN[$side]} s=${STORE[$side-sqlite]}
  pipe=$(python3 -c "
import os, subprocess, sys
r, w = os.pipe(); os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)
print('panics (exit 101)' if p.returncode == 101 or b'panicked' in p.stderr else 'stops quietly (exit %d)' % p.returncode)
" "$v" history --store "$s" show 2)
  if "$v" history list --store "$s" --limit 1 >/dev/null 2>&1; then after="accepted"; else after="usage error"; fi
  out "| $side | $pipe | $after |"
done
cat "$REPORT"

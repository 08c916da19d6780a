#!/usr/bin/env bash
# `versus site` at a team's scale (issue 43): an SQLite store filled to
# RUNS runs of a 1,000-cell suite the way bench/store-scale.sh fills one
# (`versus history import` of documents bench/store-scale/generate.py
# makes from one real run), then the whole site published into an empty
# folder, one more run imported, and the site published again over the
# first. Writes docs/results/site-scale.md.
#
#   bash bench/site-scale.sh                          # builds versus (release) first
#   VERSUS=target/release/versus RUNS=200 bash bench/site-scale.sh   # a quick pass
#   KEEP_WORK=1 WORK=/tmp/w bash bench/site-scale.sh, then
#   REUSE=1 KEEP_WORK=1 WORK=/tmp/w RUNS=<runs in its store> TEMPLATE=<a copy of /tmp/w/real/out/results.json> \
#     bash bench/site-scale.sh                       # publish the same store again (after a change to versus)
#
# Measured: wall seconds and peak RSS (GNU time) of each publish, the
# pages it wrote of the pages in the site, the largest page and the
# site's total size. The issue's goal: the whole site under 30 s and
# 300 MB peak, a re-publish after one run under 2 s, no page over 2 MB,
# the site under 500 MB.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPORT=${REPORT:-$ROOT/docs/results/site-scale.md}
RUNS=${RUNS:-2000}
BATCH=${BATCH:-50}
WORK=${WORK:-$(mktemp -d /tmp/versus-site-scale.XXXXXX)}
if [[ -z "${VERSUS:-}" ]]; then
  (cd "$ROOT" && cargo build --release --locked --quiet)
  VERSUS="$ROOT/target/release/versus"
fi
VERSUS=$(realpath "$VERSUS")
trap '[[ -n "${KEEP_WORK:-}" ]] || rm -rf "$WORK"' EXIT
load() { cut -d' ' -f1 /proc/loadavg; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }

# --- 1. the real run (as bench/store-scale.sh makes it) --------------------------
mkdir -p "$WORK/real"
cp "$ROOT/bench/store-scale/team.toml" "$WORK/real/team.toml"
if [[ -n "${TEMPLATE:-}" ]]; then
  mkdir -p "$WORK/real/out"; cp "$TEMPLATE" "$WORK/real/out/results.json"
else
  (cd "$WORK/real" && "$VERSUS" run team.toml --precision 3% --max-runs 30 --out out -q --no-history >/dev/null) || true
fi
TEMPLATE="$WORK/real/out/results.json"
[[ -f "$TEMPLATE" ]] || { echo "the real run wrote no results" >&2; exit 1; }
CELLS=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['cells']))" "$TEMPLATE")

# --- 2. the store ----------------------------------------------------------------
STORE="$WORK/site.db"
fill() { # fill FIRST LAST TOTAL: generate and import runs FIRST..LAST of a TOTAL-run history
  local first=$1 last=$2 total=$3 upto
  while (( first <= last )); do
    upto=$(( first + BATCH - 1 < last ? first + BATCH - 1 : last ))
    rm -rf "$WORK/gen"; mkdir -p "$WORK/gen"
    python3 "$ROOT/bench/store-scale/generate.py" "$TEMPLATE" "$WORK/gen" "$first" "$upto" "$total"
    # shellcheck disable=SC2046
    "$VERSUS" history --store "$STORE" import $(ls -v "$WORK"/gen/run-*.json) >/dev/null
    first=$(( upto + 1 ))
  done
}
if [[ -n "${REUSE:-}" && -f "$STORE" ]]; then
  # REUSE=1 with WORK=the folder of an earlier pass (KEEP_WORK=1): its store, RUNS runs, is published again.
  FILL="reused from an earlier pass of this script (REUSE=1), not filled again"
else
  t0=$(date +%s)
  fill 1 "$RUNS" "$((RUNS + 1))"
  FILL="filling it took $(( $(date +%s) - t0 )) s"
fi

# --- 3. publishing ---------------------------------------------------------------
# publish LABEL [CPU]: one `versus site`, its figures appended to $WORK/rows;
# with CPU, pinned to that one core (taskset), else on all of them.
publish() {
  local pin=()
  [[ -n "${2:-}" ]] && pin=(taskset -c "$2")
  "${pin[@]}" /usr/bin/time -v -o "$WORK/time" "$VERSUS" site --store "$STORE" --out "$WORK/site" > "$WORK/out" 2>"$WORK/err"
  local wall rss line
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$WORK/time")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$WORK/time")
  line=$(grep '^Site: wrote' "$WORK/out" | sed 's/ in .*//; s/^Site: //')
  local largest total pages
  largest=$(find "$WORK/site" -type f -printf '%s\n' | sort -n | tail -1)
  total=$(du -sb "$WORK/site" | cut -f1)
  pages=$(find "$WORK/site" -type f | wc -l)
  local cores
  cores=$(nproc)
  [[ -n "${2:-}" ]] && cores="1 (CPU $2)"
  echo "| $1 | $cores | $wall | $rss | $line | $pages | $(mb "$largest") | $(mb "$total") | $(load) |" >> "$WORK/rows"
}
runs() { python3 -c "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from runs').fetchone()[0])" "$STORE"; }
# The site's cache of per-run points (app::site::cache), kept with the work.
export VERSUS_CACHE_DIR="$WORK/cache"
rm -rf "$VERSUS_CACHE_DIR"
: > "$WORK/rows"
N=$(runs)
rm -rf "$WORK/site"
publish "whole site, empty folder, $N runs"
publish "again, no new run"
publish "again, no new run" 0
fill "$((N + 1))" "$((N + 1))" "$((N + 1))"
publish "after one more run ($((N + 1)) runs)"
fill "$((N + 2))" "$((N + 2))" "$((N + 2))"
publish "after one more run ($((N + 2)) runs)" 0
CACHE_MB=$(mb "$(du -sb "$VERSUS_CACHE_DIR" | cut -f1)")
rm -rf "$VERSUS_CACHE_DIR"
fill "$((N + 3))" "$((N + 3))" "$((N + 3))"
publish "after one more run ($((N + 3)) runs), no cache"
rm -rf "$WORK/site" "$VERSUS_CACHE_DIR"
publish "whole site, empty folder, no cache, $((N + 3)) runs" 0

# --- 4. the report ---------------------------------------------------------------
{
  echo "# \`versus site\` at a team's scale"
  echo
  echo "Made by \`bash bench/site-scale.sh\` (RUNS=$RUNS${REUSE:+, REUSE=1}) on $(date -u +%Y-%m-%dT%H:%MZ): $(nproc) core(s) available to it, $(awk '/model name/ { sub(/.*: /, ""); print; exit }' /proc/cpuinfo); $("$VERSUS" --version) at $VERSUS."
  echo
  echo "The store: SQLite, $N runs of one $CELLS-cell suite (250 values × 4 implementations), filled through \`versus history import\` of documents \`bench/store-scale/generate.py\` made from one real run (each cell with its own run-to-run noise, one cell in 25 stepping to a new level), $(mb "$(du -cb "$STORE"* | tail -1 | cut -f1)") MB on disk; $FILL. Each row is one \`versus site --store STORE --out SITE\` into the same folder, on all $(nproc) cores or pinned to one with taskset: wall seconds and peak RSS (MB) from GNU time (\`/usr/bin/time -v\`), the command's own count of pages written, the files in the folder, the largest one and the folder's total. Load is the 1-minute load average after the row (the machine is shared)."
  echo
  echo "| publish | cores | wall s | peak RSS MB | pages written | files | largest MB | total MB | load |"
  echo "|---|---|---:|---:|---|---:|---:|---:|---:|"
  cat "$WORK/rows"
  echo
  echo "The first row and the last two start without the cache of per-run points a publish keeps for the next (\`app::site::cache\`, in \`VERSUS_CACHE_DIR\`); the others read the runs it covers from it and only newer runs from the store. The cache was $CACHE_MB MB."
  echo
  echo "Goal (issue 43): the whole site under 30 s and 300 MB peak, a re-publish after one run under 2 s, no page over 2 MB, the site under 500 MB."
} > "$REPORT"
cat "$REPORT"

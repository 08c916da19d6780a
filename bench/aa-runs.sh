#!/usr/bin/env bash
# Verdicts across runs, measured on this machine with real processes.
#
# A suite of four identical CPU-bound implementations (a xorshift loop, one
# copy per implementation) at three amounts of work is run again and again
# with history on, as a team's CI would run it:
#   1. HISTORY runs build up the history store (the run-to-run noise is
#      learned from it);
#   2. AA more runs of the unchanged suite: every cell's "change since the
#      last run" verdict is an A/A trial (12 per run);
#   3. CHANGED runs where implementation d does 5% more work: d's three
#      cells should read "slower"; the other nine are A/A trials too. Each
#      changed run is taken out of the store again, so the history stays
#      that of the unchanged suite.
# For every pair of consecutive runs, `versus diff` without a store gives
# the verdict of the intervals alone (the rule before run-to-run noise).
# The whole protocol runs quiet, then with a busy loop on every other core,
# for each PASSES setting, and for each MODE: `process` (the loop in C as a
# command) and `inprocess` (the same loop in a Go worker, bench/aa-spin,
# 5% more work through AA_PERCENT=105 in d's environment). Writes
# docs/results/aa-runs.md.
#
#   bash bench/aa-runs.sh                       # defaults below
#   MODES=process PASSES="1 3" HISTORY=6 AA=10 CHANGED=10 RUNS=12 bash bench/aa-runs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
MODES="${MODES:-process inprocess}"
PASSES="${PASSES:-1 3}"
HISTORY="${HISTORY:-6}"
AA="${AA:-10}"
CHANGED="${CHANGED:-10}"
RUNS="${RUNS:-12}"
CONDITIONS="${CONDITIONS:-quiet loaded}"
OUT="${OUT:-docs/results/aa-runs.md}"
source bench/common.sh

gcc -O2 -o "$tmp/spin" bench/spin.c
for i in a b c d; do cp "$tmp/spin" "$tmp/spin-$i"; done
(cd bench/aa-spin && GOFLAGS=-mod=mod go build -o "$tmp/aa-spin" .)

suite() { # mode passes extra-percent-for-d → suite file
  local f="$tmp/suite-$1-$2-$3.toml"
  {
    printf 'name = "A/A across runs (%s)"\n' "$1"
    printf '[settings]\nruns = %s\nwarmup = 1\npasses = %s\n' "$RUNS" "$2"
    printf '[operations.spin]\noutput = "none"\n'
    if [[ "$1" == process ]]; then
      printf '[matrix]\nwork = [10000000, 40000000, 120000000]\n'
      for i in a b c; do printf '[implementations.%s]\nrun.spin = "%s/spin-%s {work}"\n' "$i" "$tmp" "$i"; done
      printf '[implementations.d]\nrun.spin = "%s/spin-d {work} %s"\n' "$tmp" "$3"
    else
      printf '[matrix]\nwork = [1000000, 4000000, 12000000]\n'
      for i in a b c; do printf '[implementations.%s]\nworker = "%s/aa-spin"\n' "$i" "$tmp"; done
      printf '[implementations.d]\nworker = "%s/aa-spin"\nenv = { AA_PERCENT = "%s" }\n' "$tmp" "$3"
    fi
  } > "$f"
  echo "$f"
}

# Tallies of one results.json's change-since verdicts, appended to $tally:
# "kind cell verdict" lines (kind: aa or changed).
tally_since() { # results.json changed(0|1)
  python3 - "$1" "$2" >> "$tally" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); changed = sys.argv[2] == "1"
for c in (r.get("since") or {}).get("changes", []):
    kind = "changed" if changed and "/d/" in c["id"] else "aa"
    print(kind, c["id"], c.get("verdict") or "none", c.get("minimum_detectable") or "0", "beside" if c.get("beside") else "own")
PY
}
tally_diff() { # old.json new.json changed(0|1) → intervals-only verdicts into $plain
  "$versus" diff "$1" "$2" --store "$tmp/none.db" --markdown "$tmp/d.md" > /dev/null
  python3 - "$tmp/d.md" "$3" >> "$plain" <<'PY'
import sys
changed = sys.argv[2] == "1"
for line in open(sys.argv[1]):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) == 5 and cells[0].startswith("spin/"):
        kind = "changed" if changed and "/d/" in cells[0] else "aa"
        print(kind, cells[0], cells[4].split(" ")[0])
PY
}

run() { # suite out-dir store → seconds
  local s e
  s=$(date +%s.%N)
  "$versus" run -q "$1" --out "$2" --store "$3" > /dev/null 2>> "$tmp/stderr.log" || true
  e=$(date +%s.%N)
  python3 -c "print($e - $s)"
}

summarise() { # file kind → "called slower total median-smallest-change"
  python3 - "$1" "$2" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith(sys.argv[2] + " ")]
called = sum(1 for r in rows if r[2] in ("slower", "faster"))
slower = sum(1 for r in rows if r[2] == "slower")
mdes = sorted(float(r[3]) for r in rows if len(r) > 3 and float(r[3]) > 0)
mde = f"{100 * mdes[len(mdes) // 2]:.1f}%" if mdes else "—"
beside = sum(1 for r in rows if len(r) > 4 and r[4] == "beside")
print(f"{called} {slower} {len(rows)} {mde} {beside}")
PY
}

rows=()
for mode in $MODES; do
  for passes in $PASSES; do
    for condition in $CONDITIONS; do
      echo "$mode, passes=$passes, $condition" >&2
      if [[ "$condition" == loaded ]]; then
        for _ in $(seq 2 "$(nproc)"); do (while :; do :; done) & busy+=($!); done
      fi
      key="$mode-$passes-$condition"
      store="$tmp/store-$key.db"
      tally="$tmp/tally-$key"; plain="$tmp/plain-$key"
      : > "$tally"; : > "$plain"
      same=$(suite "$mode" "$passes" 100); more=$(suite "$mode" "$passes" 105)
      seconds=0; previous=""
      load_start=$(cut -d' ' -f1 /proc/loadavg)
      for i in $(seq 1 $((HISTORY + AA))); do
        dir="$tmp/r-$key-$i"
        t=$(run "$same" "$dir" "$store"); seconds=$(python3 -c "print($seconds + $t)")
        if (( i > HISTORY )); then
          tally_since "$dir/results.json" 0
          tally_diff "$previous" "$dir/results.json" 0
        fi
        previous="$dir/results.json"
      done
      for i in $(seq 1 "$CHANGED"); do
        dir="$tmp/c-$key-$i"
        cp "$store" "$store.kept"
        run "$more" "$dir" "$store" > /dev/null
        mv "$store.kept" "$store"
        tally_since "$dir/results.json" 1
        tally_diff "$previous" "$dir/results.json" 1
      done
      load_end=$(cut -d' ' -f1 /proc/loadavg)
      stop_busy
      read -r aa_called _ aa_total mde aa_beside < <(summarise "$tally" aa)
      read -r _ found total _ _ < <(summarise "$tally" changed)
      read -r paa_called _ paa_total _ _ < <(summarise "$plain" aa)
      read -r _ pfound ptotal _ _ < <(summarise "$plain" changed)
      per_run=$(python3 -c "print(f'{$seconds / ($HISTORY + $AA):.1f}')")
      rows+=("| $mode | $passes | $condition | $load_start → $load_end | **$aa_called of $aa_total** | **$found of $total** | $paa_called of $paa_total | $pfound of $ptotal | $aa_beside of $aa_total | $mde | $per_run s |")
    done
  done
done

{
  echo "# Verdicts across runs: unchanged cells called changed, and a real 5% slowdown found"
  echo
  echo "Generated by \`bash bench/aa-runs.sh\` (MODES=\"$MODES\" PASSES=\"$PASSES\" HISTORY=$HISTORY AA=$AA CHANGED=$CHANGED RUNS=$RUNS) on $(date -u '+%Y-%m-%d %H:%M UTC'); do not edit by hand."
  echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores. versus: $("$versus" --version), built from commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src Cargo.lock || echo " with uncommitted changes")."
  echo
  echo "The suite: four identical copies of a xorshift loop (implementations a–d). *process*: a C command at 10, 40 and 120 million rounds (about 10, 40 and 120 ms); *inprocess*: the same loop in a Go worker (bench/aa-spin) at 1, 4 and 12 million rounds per call, in batches of at least 10 ms. $RUNS measured runs per cell, 1 warm-up per visit. $HISTORY runs build the history store; then $AA unchanged runs, each cell's change since the previous run an A/A trial; then $CHANGED runs where d does 5% more work (each taken out of the store again afterwards): d's cells should read slower, the others are A/A trials too. *Loaded*: a busy loop on every other core for the whole protocol."
  echo
  echo "*With noise*: the change-since verdicts of \`versus run\`, measured from each cell's level (the median of its last 5 recorded runs) and judged against its run-to-run noise learned from the store — beside the other implementations of its group (its ratio to the median of the other three) once the store has enough runs for that ratio, on its own before; *judged beside the others*: how many A/A trials were judged so; *smallest change found*: the median over the A/A trials of the change each could have found four times in five. *Intervals only*: \`versus diff\` of the same consecutive pairs without a store (each run's own intervals, the rule before run-to-run noise)."
  echo
  echo "| cells | passes | machine | load (1 min, start → end) | A/A called changed, with noise | 5% found, with noise | A/A called changed, intervals only | 5% found, intervals only | A/A judged beside the others | smallest change found (median) | wall time per run |"
  echo "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
} > "$OUT"
echo "wrote $OUT" >&2

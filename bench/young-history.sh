#!/usr/bin/env bash
# "Change since the last run" on a young history, as a new user meets it
# (issue 41): a suite run six times with history on at versus's default
# settings (runs 2–6 unchanged: each cell's change since the previous run is
# an A/A trial), then once with implementation b (a in a suite without b)
# doing 5% more work. Under
# each condition the protocol starts from an empty store, REPEAT times:
#   quiet       nothing else started by the bench;
#   steady      a busy loop during every run (a steady neighbour);
#   alternate   a busy loop during every other run (2, 4, 6): a neighbour
#               coming and going between runs;
#   alternate2  a busy loop on every core during every other run.
# The busy loops run on the CPUs the bench runs on: with CPUS set (e.g.
# CPUS=0) versus, what it measures and the neighbour are all pinned there
# with taskset, so other work elsewhere on the machine stays out.
# Two suites: four identical CPU loops a–d (C, bench/spin.c) at 10, 40 and
# 120 million rounds, and the same with implementation a alone (a suite of
# one command: no group to be judged beside, only versus's speed
# reference). Every verdict is tallied twice from the same results: as
# reported (after the group and machine references of history::judge::references) and
# as the change alone judged it (the rule before them: a change withheld by
# a reference counts as called). Writes docs/results/young-history.md.
#
#   bash bench/young-history.sh                       # REPEAT=5: 345 A/A trials per condition
#   CPUS=0 REPEAT=5 SUITES="a b c d" bash bench/young-history.sh
#   CPUS=0 SUITES=a OUT=docs/results/young-history-alone.md bash bench/young-history.sh
#   RUNS=15 REPEAT=1 CONDITIONS="quiet alternate" bash bench/young-history.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-}"            # empty: versus's default run count, as a user starts
REPEAT="${REPEAT:-5}"
CPUS="${CPUS:-}"
CONDITIONS="${CONDITIONS:-quiet steady alternate}"
# The suites, by their implementations, separated by commas.
IFS=, read -r -a SUITES <<< "${SUITES:-a b c d,a}"
OUT="${OUT:-docs/results/young-history.md}"
source bench/common.sh

gcc -O2 -o "$tmp/spin" bench/spin.c
for i in a b c d; do cp "$tmp/spin" "$tmp/spin-$i"; done

# The implementation made 5% slower at run 7: b, or a where there is no b.
slowed() { [[ " $1 " == *" b "* ]] && echo b || echo a; }

suite() { # implementations percent-for-the-slowed → suite file
  local f="$tmp/suite-$1-$2.toml"
  {
    printf 'name = "young history (%s)"\n' "$1"
    [[ -n "$RUNS" ]] && printf '[settings]\nruns = %s\n' "$RUNS"
    printf '[operations.spin]\noutput = "none"\n'
    printf '[matrix]\nwork = [10000000, 40000000, 120000000]\n'
    for i in $1; do
      local extra=""
      [[ "$i" == "$(slowed "$1")" ]] && extra=" $2"
      printf '[implementations.%s]\nrun.spin = "%s/spin-%s {work}%s"\n' "$i" "$tmp" "$i" "$extra"
    done
  } > "$f"
  echo "$f"
}

# "run kind id verdict before" lines of one results.json's change since.
tally() { # results.json run-number changed(0|1)
  python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); run = sys.argv[2]; changed = sys.argv[3] == "1"; slowed = sys.argv[4]
for c in (r.get("since") or {}).get("changes", []):
    kind = "changed" if changed and f"/{slowed}/" in c["id"] else "aa"
    after = c.get("verdict") or "none"
    before = after
    note = c.get("note") or ""
    if c.get("shared") and after == "unknown" and note.startswith("moved with"):
        before = "withheld"
    rule = "beside" if c.get("beside") else ("shared" if c.get("shared") else "own")
    print(run, kind, c["id"], after, before, rule)
m = (r.get("since") or {}).get("machine")
if m:
    print(run, "machine", "-", m["verdict"], f'{m["ratio"]:.3f}', "-")
PY
}

# The commit the measuring versus was built from, as its own results record it.
built_from() {
  python3 - "$(ls -d "$tmp"/r-*/results.json | head -1)" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["environment"].get("versus_commit") or {}
print(c.get("commit", "unknown")[:7] + (" with uncommitted changes" if c.get("dirty") else ""))
PY
}

rows=()
for imps in "${SUITES[@]}"; do
  for condition in $CONDITIONS; do
    key="$(echo "$imps" | tr -d ' ')-$condition"
    t="$tmp/tally-$key"; : > "$t"; loads=()
    same=$(suite "$imps" 100); more=$(suite "$imps" 105)
    for rep in $(seq 1 "$REPEAT"); do
      echo "$imps, $condition, repeat $rep of $REPEAT" >&2
      store="$tmp/store-$key-$rep.db"
      for i in 1 2 3 4 5 6 7; do
        s="$same"; changed=0
        if (( i == 7 )); then s="$more"; changed=1; fi
        case "$condition" in
          steady) busy_start 1 ;;
          alternate) (( i % 2 == 0 )) && busy_start 1 ;;
          alternate2) (( i % 2 == 0 )) && busy_start "$(nproc)" ;;
        esac
        "${pin[@]}" "$versus" run -q "$s" --out "$tmp/r-$key-$rep-$i" --store "$store" > /dev/null 2>> "$tmp/stderr.log" || true
        stop_busy
        loads+=("$(cut -d' ' -f1 /proc/loadavg)")
        (( i > 1 )) && tally "$tmp/r-$key-$rep-$i/results.json" "$i" "$changed" "$(slowed "$imps")" >> "$t"
      done
    done
    read -r row < <(python3 - "$t" "$imps" "$condition" "${loads[*]}" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
aa = [r for r in rows if r[1] == "aa"]
ch = [r for r in rows if r[1] == "changed"]
called = lambda rs, col: sum(1 for r in rs if r[col] in ("slower", "faster", "withheld"))
found = lambda rs, col: sum(1 for r in rs if r[col] == "slower")
verdicts = lambda rs: ", ".join(f"{v} {sum(1 for r in rs if r[3] == v)}" for v in ("slower", "unknown", "same", "faster") if any(r[3] == v for r in rs))
ratios = [float(r[4]) for r in rows if r[1] == "machine"]
moved = sum(1 for r in rows if r[1] == "machine" and r[3] in ("slower", "faster"))
speed = f"{min(ratios):.3f}–{max(ratios):.3f}, moved in {moved} of {len(ratios)}" if ratios else "—"
withheld = sum(1 for r in aa if r[4] == "withheld")
share = lambda n, d: f"{n} of {d} ({100 * n / d:.1f}%)" if d else "0 of 0"
loads = [float(x) for x in sys.argv[4].split()]
print(f"| {sys.argv[2]} | {sys.argv[3]} | **{share(called(aa, 3), len(aa))}** | {share(called(aa, 4), len(aa))} | "
      f"**{share(found(ch, 3), len(ch))}** | {verdicts(ch) or '—'} | {withheld} | {speed} | {min(loads):.2f}–{max(loads):.2f} |")
PY
)
    rows+=("$row")
  done
done

{
  echo "# Change since the last run on a young history: runs 2–7"
  echo
  echo "Generated by \`bash bench/young-history.sh\` (RUNS=${RUNS:-default} REPEAT=$REPEAT CPUS=${CPUS:-all} CONDITIONS=\"$CONDITIONS\") on $(date -u '+%Y-%m-%d %H:%M UTC'); do not edit by hand."
  echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores. versus: $("$versus" --version), built from commit $(built_from)."
  echo
  echo "Each condition starts from an empty store REPEAT times and runs the suite 7 times each: runs 2–6 unchanged (every cell's change since the previous run is an A/A trial), run 7 with b doing 5% more work (a where the suite has no b; its 3 cells should read slower; the other cells are A/A trials too). From run 6 the store has 5 runs, the history \`judge::noise\` and \`judge::relative\` learn from. *steady*: a busy loop during every run; *alternate*: a busy loop during runs 2, 4 and 6; *alternate2*: one on every core during those runs. With CPUS set, versus, the loops it measures and the busy loop share those CPUs (taskset), so a busy loop takes about half of what the measured loops had."
  echo
  echo "*As reported*: the verdicts of \`versus run\` (the change judged, then withheld where its group or versus's speed reference explains it, \`history::judge::references\`). *Change alone*: the same changes before that (a withheld change counts as called): the rule of the versus before this bench. *The 5% by verdict*: what the slowed implementation's cells read at run 7. *Speed reference*: versus's speed reference, run N against run N−1 (now/before), its range and how often it moved beyond its interval and the 1% band."
  echo
  echo "| implementations | condition | A/A called changed, as reported | A/A called changed, change alone | 5% found (slower), as reported | the 5% by verdict | A/A withheld | speed reference, run to run | load after the runs |"
  echo "|---|---|---:|---:|---:|---|---:|---|---|"
  printf '%s\n' "${rows[@]}"
} > "$OUT"
echo "wrote $OUT" >&2

#!/usr/bin/env bash
# The proof behind docs/results/bisect.md: on a generated repository of 32
# commits of a small C program, one of which does 5% more work
# (bench/bisect-repo.sh), with a busy loop on the other core the whole time:
#
#   1. `versus bisect` TRIES times (default 10): does it name the 5% commit,
#      and how many commits does it build?
#   2. `versus run --rev A --rev A` (the same commit twice) AA times
#      (default 20): how many cells are called changed? (false alarms)
#   3. `versus run --rev` across the 5% commit ACROSS times (default 20):
#      how many cells are called slower? (detection)
#
#   bash bench/bisect.sh [OUT]        (default OUT: /tmp/versus-bisect-bench)
#
# Environment: VERSUS (default target/release/versus), TRIES, AA, ACROSS,
# CULPRIT (default 19), ROUNDS (default 10000000: about 25 ms at scale 4),
# RUN_ARGS (more flags for every run and bisection, e.g. "--runs 30").
# Each run's results stay in OUT; the summary is OUT/summary.md.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
versus=${VERSUS:-$root/target/release/versus}
out=${1:-/tmp/versus-bisect-bench}
tries=${TRIES:-10}
aa=${AA:-20}
across=${ACROSS:-20}
culprit=${CULPRIT:-19}
rounds=${ROUNDS:-10000000}
read -r -a run_args <<< "${RUN_ARGS:-}"
rm -rf "$out"
mkdir -p "$out"
repo=$out/repo
bash "$root/bench/bisect-repo.sh" "$repo" "$culprit" "$rounds" >/dev/null
export VERSUS_CACHE_DIR=$out/cache
cd "$repo"
bad_commit=$(git rev-parse HEAD)
good_commit=$(git rev-parse HEAD~32)
culprit_commit=$(git rev-list --reverse HEAD | sed -n "$((culprit + 1))p")
parent_commit=$(git rev-parse "$culprit_commit^")
summary=$out/summary.md
say() { printf '%s\n' "$*" | tee -a "$summary"; }

bash -c 'while :; do :; done' &
busy=$!
trap 'kill $busy 2>/dev/null || true' EXIT

say "# bench/bisect.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
say ""
say "versus: $("$versus" --version); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
say "culprit: commit $culprit of 32 ($culprit_commit), 5% more rounds; ROUNDS=$rounds; RUN_ARGS=${RUN_ARGS:-}"
say "a busy loop (bash, pid $busy) runs on the other core throughout"
say "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
say ""

say "## 1. versus bisect, $tries tries"
say ""
say "| try | found | named | steps | attempts | forced | builds (distinct commits) | fresh builds | seconds | load at start |"
say "|---|---|---|---|---|---|---|---|---|---|"
found=0
for i in $(seq 1 "$tries"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s.%N)
  status=0
  "$versus" bisect suite.toml --good "$good_commit" --bad "$bad_commit" --cell work/prog/scale=4 \
    --out "$out/bisect-$i" --no-history -q "${run_args[@]}" > "$out/bisect-$i.txt" 2>&1 || status=$?
  seconds=$(echo "$(date +%s.%N) - $start" | bc)
  row=$(python3 - "$out/bisect-$i/bisect.json" "$culprit_commit" "$out/bisect-$i" <<'PY'
import json, sys, glob, os
s = json.load(open(sys.argv[1])); culprit = sys.argv[2]
end = s.get("ending") or {}
named = end.get("commit") or ",".join(end.get("commits", [])) or end.get("kind", "none")
found = end.get("kind") == "found" and end.get("commit") == culprit
attempts = sum(len(st["attempts"]) for st in s["steps"])
forced = sum(1 for st in s["steps"] if st.get("forced"))
fresh = 0
for f in glob.glob(os.path.join(sys.argv[3], "step-*", "results.json")):
    r = json.load(open(f))
    fresh += sum(1 for c in r.get("revisions", {}).get("columns", []) if c["build"]["status"] == "built")
print(f"{'yes' if found else 'NO'} | {named[:10]} | {len(s['steps'])} | {attempts} | {forced} | {s.get('builds', 0)} | {fresh}")
PY
)
  [[ $row == yes* ]] && found=$((found + 1))
  say "| $i | $row | $seconds | $load |"
done
say ""
say "found the 5% commit in $found of $tries tries"
say ""

count_verdicts() {  # FILES... -> "cells slower faster same unknown not_ok"
  python3 - "$@" <<'PY'
import json, sys
n = slower = faster = same = unknown = 0
ratios = []
for f in sys.argv[1:]:
    r = json.load(open(f))
    for c in r["revisions"]["comparisons"]:
        n += 1
        ratios.append(c["ratio"])
        v = c["verdict"]
        slower += v == "slower"; faster += v == "faster"; same += v == "same"; unknown += v == "unknown"
ratios.sort()
med = ratios[len(ratios) // 2] if ratios else float("nan")
print(n, slower, faster, same, unknown, f"{(med - 1) * 100:+.2f}%")
PY
}

say "## 2. --rev A --rev A, $aa runs (3 cells each)"
say ""
for i in $(seq 1 "$aa"); do
  "$versus" run suite.toml --rev "a=$bad_commit" --rev "b=$bad_commit" --out "$out/aa-$i" --no-history -q \
    "${run_args[@]}" > "$out/aa-$i.txt" 2>&1 || true
done
read -r n slower faster same unknown med < <(count_verdicts "$out"/aa-*/results.json)
say "cells: $n; called changed: $((slower + faster)) (slower $slower, faster $faster); same $same; unknown $unknown; median change $med"
say "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
say ""

say "## 3. --rev across the 5% commit, $across runs (3 cells each)"
say ""
for i in $(seq 1 "$across"); do
  "$versus" run suite.toml --rev "before=$parent_commit" --rev "after=$culprit_commit" --out "$out/across-$i" \
    --no-history -q "${run_args[@]}" > "$out/across-$i.txt" 2>&1 || true
done
read -r n slower faster same unknown med < <(count_verdicts "$out"/across-*/results.json)
say "cells: $n; called slower: $slower; faster $faster; same $same; unknown $unknown; median change $med"
say "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

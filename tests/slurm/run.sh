#!/usr/bin/env bash
# A real scheduler: a one-node Slurm cluster on this machine runs the
# quickstart as an exclusive job array of 3 pieces through the documented
# recipe (docs/recipes/slurm-submit.sh), Slurm merges them, and the merged
# results must cover exactly the cells of a single-machine run, with the
# same outcomes (figures are not compared). Skips, saying why, where Slurm
# cannot be installed. Every daemon it starts is stopped on exit.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/ci/slurm.sh
source "$root/scripts/ci/slurm.sh"

if ! slurm_install; then
  echo "SKIPPED: Slurm test: slurm-wlm and munge cannot be installed here"
  exit 0
fi
if [[ -z ${VERSUS:-} ]]; then
  (cd "$root" && cargo build --locked --quiet)
  VERSUS=$root/target/debug/versus
fi
export VERSUS
work=$(mktemp -d /tmp/versus-slurm-test.XXXXXX)
trap 'slurm_stop; rm -rf "$work"' EXIT
# The jobs and the single run record into a store and cache of the test's
# own (sbatch hands the environment on), not the checkout's .versus/.
export VERSUS_STORE="$work/history.db" VERSUS_CACHE_DIR="$work/cache"
slurm_start
cd "$work"
flags=(--runs 2 --warmup 0)
read -r array merge < <(bash "$root/docs/recipes/slurm-submit.sh" "$root/examples/quickstart.toml" 3 "${flags[@]}")
echo "slurm: array job $array, merge job $merge"
if ! slurm_wait_job "$merge" 600; then
  echo "FAIL: the jobs did not finish in 10 minutes" >&2
  squeue >&2
  exit 1
fi
cat versus-merge-*.log
[[ -f versus-shards/$array/merged/results.json ]] || {
  echo "FAIL: no merged results; the jobs' logs:" >&2
  tail -n 20 versus-*.log >&2
  exit 1
}
"$VERSUS" run -q "$root/examples/quickstart.toml" "${flags[@]}" --out single >/dev/null
python3 - "versus-shards/$array/merged/results.json" single/results.json <<'PY'
import json, sys
merged, single = (json.load(open(p)) for p in sys.argv[1:])
cells = lambda r: [(c["id"], c["outcome"]) for c in r["cells"]]
assert cells(merged) == cells(single), (cells(merged), cells(single))
pieces = merged["merge"]["pieces"]
assert sorted(p["index"] for p in pieces) == [0, 1, 2], pieces
assert all(p["environment"]["machine"]["id"] for p in pieces)
assert merged["status"] == "complete" and not merged["merge"]["missing"]
assert merged["suite"]["hash"] == single["suite"]["hash"]
print(f"slurm: merged {len(pieces)} pieces, {len(merged['cells'])} cells, equal to a single run's cells")
PY

#!/usr/bin/env bash
# Change-point detection (src/stats/changepoint.rs) on synthetic series with
# known steps: 200 series per row, fixed seeds. Writes docs/results/trend.md.
#
#   bash bench/trend.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/results/trend.md
cmd="cargo test --locked --lib changepoint_bench -- --ignored --nocapture --test-threads 1"
table=$($cmd 2>/dev/null | grep '^|')
{
  echo "# Change points on synthetic series"
  echo
  echo "How well \`versus trend\` finds known steps (src/stats/changepoint.rs: PELT on"
  echo "log medians, penalty 3 ln n, per-cell noise threshold max(2σ, 1%); see"
  echo "[docs/history.md](../history.md)). Each row: 200 series of per-run medians"
  echo "with Gaussian relative noise σ and steps of the given size at random places"
  echo "(at least 6 runs apart; successive steps alternate up and down), seeds fixed"
  echo "in src/stats/changepoint/bench.rs. A step is *found* when a change lies"
  echo "within 2 runs of it; every other change is *false*."
  echo
  echo "Made by \`bash bench/trend.sh\`, which runs \`$cmd\`, on $(date -u +%Y-%m-%d)."
  echo
  echo "$table"
} > "$out"
echo "wrote $out"
cat "$out"

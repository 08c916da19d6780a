#!/usr/bin/env bash
# The trend demo: ten synthetic versions of `app` (the sixth adds a 25 ms
# delay) run one after another into a fresh history store, then
# `versus trend` on it. Writes docs/results/trend-demo.md and .html.
#
#   bash examples/trend-demo/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
versus=${VERSUS:-target/release/versus}
[ -x "$versus" ] || cargo build --release --locked --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
store="$work/history.db"
load=$(cut -d' ' -f1-3 /proc/loadavg)
log="$work/log.md"
suite="Trend demo: gzip vs app versions"
echo "| version | \`versus trend\` exit status after this run |" > "$log"
echo "|---:|---:|" >> "$log"
for v in 1 2 3 4 5 6 7 8 9 10; do
  VERSUS_DEMO_VERSION=$v "$versus" run examples/trend-demo/trend-demo.toml -q --store "$store" --out "$work/out" > /dev/null
  status=0
  "$versus" trend --store "$store" --suite "$suite" --markdown "$work/t.md" > /dev/null 2>&1 || status=$?
  echo "| $v | $status |" >> "$log"
done
"$versus" trend --store "$store" --suite "$suite" \
  --html docs/results/trend-demo.html --markdown docs/results/trend-demo.md || true
{
  echo
  echo "## How this was made"
  echo
  echo "\`bash examples/trend-demo/run.sh\` on $(date -u +%Y-%m-%d): for v in 1..10,"
  echo "\`VERSUS_DEMO_VERSION=\$v versus run examples/trend-demo/trend-demo.toml --store STORE\`,"
  echo "then \`versus trend --store STORE --suite '$suite'\` after each run (exit status 4"
  echo "when the newest run starts a regression) and once at the end for this report."
  echo "Load average when the runs started: $load (on $(nproc) cores); the cells' noise above"
  echo "is that machine's, and each cell's threshold is learned from it."
  echo
  cat "$log"
} >> docs/results/trend-demo.md
cat docs/results/trend-demo.md

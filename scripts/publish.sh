#!/usr/bin/env bash
# Runs a suite and publishes its report under docs/results/, the layout every
# example uses:
#   docs/results/NAME.md, NAME.html, NAME-chart-*.svg   the report
#   docs/results/NAME/results.json, cells.jsonl         what was measured
# The copies of the report that `versus run` also writes into its output
# folder are removed, so each report exists once.
#
#   scripts/publish.sh NAME SUITE [versus run arguments...]
#
# Runs from the repository root with paths relative to it, so the command the
# report shows is the one to type. Exits with versus's status (3 when some
# cells did not end ok). VERSUS=/path/to/versus uses that binary.
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: scripts/publish.sh NAME SUITE [versus run arguments...]" >&2; exit 2; }
name="$1" suite="$2"
shift 2
cd "$(dirname "${BASH_SOURCE[0]}")/.."
versus="${VERSUS:-target/release/versus}"
[[ -x "$versus" ]] || cargo build --release --locked --quiet
results=docs/results
rm -f "$results/$name.md" "$results/$name.html" "$results/$name"-chart-*.svg
status=0
"$versus" run "$suite" --out "$results/$name" \
  --markdown "$results/$name.md" --html "$results/$name.html" "$@" || status=$?
rm -f "$results/$name/report.md" "$results/$name/report.html" "$results/$name"/report-chart-*.svg
exit "$status"

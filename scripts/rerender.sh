#!/usr/bin/env bash
# Renders every committed report again from its results (docs/results/NAME/
# results.json), samples untouched: NAME.md with its charts and NAME.html,
# each with the author's notes (NAME.notes.md beside it, found without a
# flag). Run after a change to what reports say; the diff is the change.
#
#   scripts/rerender.sh [NAME...]        (default: every report)
#
# VERSUS=/path/to/versus uses that binary.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
versus="${VERSUS:-target/debug/versus}"
[[ -x "$versus" ]] || cargo build --locked --quiet
results=docs/results
names=("$@")
if [[ ${#names[@]} -eq 0 ]]; then
  for f in "$results"/*/results.json; do names+=("$(basename "$(dirname "$f")")"); done
fi
for name in "${names[@]}"; do
  rm -f "$results/$name"-chart-*.svg
  "$versus" report "$results/$name/results.json" \
    --markdown "$results/$name.md" --html "$results/$name.html" >/dev/null
  echo "rendered $results/$name.md and .html"
done

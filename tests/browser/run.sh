#!/usr/bin/env bash
# End-to-end: renders the committed hostile results with this versus and
# checks the page in Debian's headless Chromium, installing it (and
# playwright-core, which drives it) when missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
versus="${VERSUS:-$repo/target/debug/versus}"
if [ ! -x /usr/bin/chromium ]; then
  echo "installing Debian's chromium"
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi
(cd "$here" && { [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund --silent; })
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# Each page is checked against the results as this versus analyses them
# (--json), not as the file was written: verdicts follow the judge of today.
"$versus" report "$repo/tests/fixtures/hostile-results.json" --html "$out/report.html" --json "$out/report.json"
node "$here/check-report.mjs" "$out/report.html" "$out/report.json"
# The same results with a parameter value far longer than a chart is wide:
# chart titles must wrap, not be cut.
node "$here/long-values.mjs" "$repo/tests/fixtures/hostile-results.json" "$out/long.json"
"$versus" report "$out/long.json" --html "$out/long.html" --json "$out/long-now.json"
node "$here/check-report.mjs" "$out/long.html" "$out/long-now.json"
# Committed reports with many implementations and sizes, as a reader gets
# them: legends clear of the data and no table scrolling sideways at 1400 px.
for name in opentdf aes-gcm-java aes-gcm-java-file age; do
  "$versus" report "$repo/docs/results/$name/results.json" --html "$out/$name.html" --json "$out/$name.json"
  node "$here/check-report.mjs" "$out/$name.html" "$out/$name.json"
done
# A team's site (versus site), as a reader opens it from disk: the committed
# seed runs and a generated history of 30 runs with a commit each, imported
# into a store, published, and walked index → suite → cell → report.
# SITE_SHOTS=PREFIX saves the screenshots (docs/site-*.png are made so).
store="$out/site-store.db"
"$versus" history --store "$store" import "$repo"/docs/results/*/results.json >/dev/null
mkdir -p "$out/gen"
GENERATE_COMMITS=1 python3 "$repo/bench/store-scale/generate.py" "$repo/docs/results/age/results.json" "$out/gen" 1 30 30
"$versus" history --store "$store" import $(ls -v "$out"/gen/run-*.json) >/dev/null
VERSUS_CACHE_DIR="$out/cache" "$versus" site --store "$store" --out "$out/site" >/dev/null
node "$here/check-site.mjs" "$out/site" ${SITE_SHOTS:+"$SITE_SHOTS"}

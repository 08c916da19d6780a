#!/usr/bin/env bash
# A quick check of examples/opentdf for CI: the suite at two sizes (256B and
# 1MiB), one warm-up and one measured run per cell, every implementation
# (or those named: smoke.sh go-sdk,java-sdk-jdk17). Every output check still
# runs, so it proves each SDK encrypts, decrypts and reads the Go SDK's TDF.
# About a minute on the 2-core test machine. Run install.sh first.
# The suite copy (.smoke.toml, ignored by git) has to sit beside the suite,
# whose paths are relative to its folder: versus has no flag to narrow the
# matrix. VERSUS=/path/to/versus picks the binary.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VERSUS="${VERSUS:-versus}"
OUT="${OUT:-$(mktemp -d)}"
python3 - "$HERE/opentdf.toml" "$HERE/.smoke.toml" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r'^size = \[.*$', 'size = ["256B", "1MiB"]', text, flags=re.M)
# the override names a size the smoke matrix does not have
text = re.sub(r'\[\[override\]\]\nwhen = \{ size = "100MiB" \}\n(?:[a-z_]+ = .*\n)*', '', text)
open(sys.argv[2], "w").write(text)
PY
only=(); [[ $# -ge 1 ]] && only=(--only "$1")
status=0
"$VERSUS" run "$HERE/.smoke.toml" --runs 1 --warmup 1 --out "$OUT" --quiet "${only[@]}" || status=$?
[[ $status -eq 0 || $status -eq 3 ]] || exit "$status"
python3 "$HERE/check-outcomes.py" "$OUT/results.json"
echo "smoke: report in $OUT/report.md"

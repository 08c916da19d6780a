#!/usr/bin/env bash
# Coverage-guided fuzzing of versus's four readers of untrusted input: the
# suite parser and validator, the results reader with everything `report`
# and `diff` do with what it accepts, and the worker protocol decoder.
# libFuzzer through cargo-fuzz, built on the stable toolchain without a
# sanitizer (`-s none`; Rust code is memory-safe, the targets look for panics,
# hangs and runaway allocation). Each target runs a fixed number of inputs;
# the corpus grows in fuzz/corpus/ and is committed. Writes
# docs/results/fuzz.md.
#
#   bash bench/fuzz.sh            # 1,000,000 inputs per target
#   RUNS=100000 bash bench/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-1000000}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
cd fuzz
cargo +stable fuzz build -s none >/dev/null
report=../docs/results/fuzz.md
{
  echo "# Fuzzing"
  echo
  echo "Made by \`bash bench/fuzz.sh\` (RUNS=$runs) on $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg) at the start; $(rustc +stable --version), cargo-fuzz $(cargo fuzz --version | awk '{print $2}'), libFuzzer without a sanitizer."
  echo
  echo "| target | what it feeds | inputs run | corpus files | seconds | crashes |"
  echo "|---|---|---:|---:|---:|---:|"
} > "$report"
declare -A what=(
  [suite]="suite parser and validator (arbitrary TOML text)"
  [results]="results reader, then analysis, diff and every renderer on what it accepts"
  [protocol]="worker protocol decoder (arbitrary lines)"
  [journal]="journal reader (versus report DIR): arbitrary bytes as cells.jsonl, rebuilt, analysed, rendered"
)
declare -A max_len=([suite]=8192 [results]=200000 [protocol]=4096 [journal]=200000)
failed=0
for target in suite results protocol journal; do
  log=$(mktemp)
  start=$(date +%s)
  status=0
  cargo +stable fuzz run -s none "$target" "corpus/$target" -- \
    -runs="$runs" -max_len="${max_len[$target]}" -timeout=10 -rss_limit_mb=2048 >"$log" 2>&1 || status=$?
  seconds=$(( $(date +%s) - start ))
  done_runs=$(grep -o 'Done [0-9]* runs' "$log" | awk '{print $2}' || true)
  crashes=$(ls artifacts/"$target" 2>/dev/null | wc -l)
  files=$(ls "corpus/$target" | wc -l)
  echo "| $target | ${what[$target]} | ${done_runs:-stopped early (status $status)} | $files | $seconds | $crashes |" >> "$report"
  if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    failed=1
    tail -40 "$log"
  fi
  rm -f "$log"
done
{
  echo
  echo "Crashes are the inputs libFuzzer saved in fuzz/artifacts/<target>/ (a panic, a hang over 10 s, or more than 2 GB of memory); each one found is fixed and kept as a regression input in the target's corpus."
} >> "$report"
cat "$report"
exit $failed

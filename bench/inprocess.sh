#!/usr/bin/env bash
# Measures, for the same two functions in five languages, the figure versus
# reports (in-process, through the worker libraries) next to the figure of the
# language's own benchmark harness, and writes docs/results/inprocess.md (the
# report is generated here; do not edit it by hand).
#
#   bash bench/inprocess.sh                          # builds versus and everything in bench/inprocess first
#   VERSUS=/path/to/versus bash bench/inprocess.sh   # use that binary, no build of versus
#   LANGS="rust go" bash bench/inprocess.sh          # a subset of the languages
#
# The functions: (a) SHA-256 of a 1 MB buffer in memory (byte i = i*31 mod
# 256) with the standard library (Rust: the sha2 crate), (b) an empty
# operation returning an empty byte string. Per language, one after the other
# (never two measurements at once): the native harness, then `versus run
# bench/inprocess/inprocess.toml --only <lang>`. Native harnesses: criterion
# (Rust), testing.B (Go), JMH (Java 17), mitata (Node.js), pyperf (Python);
# the sources are in bench/inprocess/<lang>/.
#
# Before measuring, the script waits while the 1-minute load average is above
# LOAD_MAX (default 1.0), in 60 s steps, at most WAIT_STEPS (default 20) of
# them, then measures anyway and says so; before each language it also waits
# up to IDLE_WAIT seconds (default 180) for the CPUs to be >= 90 % idle over
# 5 s. The report records both. About 5 minutes of measuring on 2
# cores, plus builds (minutes the first time). Needs cargo, go, JDK 17 and
# Maven, node/npm, python3, jq, awk, GNU coreutils.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HERE="$ROOT/bench/inprocess"
OUT="$HERE/out"                          # raw outputs of this run (gitignored)
REPORT="$ROOT/docs/results/inprocess.md"
JAVA17="${JAVA17:-/usr/lib/jvm/java-17-openjdk-amd64}"
read -r -a LANGS <<<"${LANGS:-rust go java node python}"
LOAD_MAX="${LOAD_MAX:-1.0}"
WAIT_STEPS="${WAIT_STEPS:-20}"
SHA_GOAL_PCT=3                           # goal (a): versus within 3 % of the native figure

# Settings of the native harnesses (everything else is each harness's default).
GO_ARGS=(-test.run '^$' -test.bench . -test.benchtime 1s -test.count 10)
JMH_ARGS=(-wi 3 -w 1s -i 5 -r 1s -f 1)
# versus: the suite's settings (runs 20, min_sample_time 50ms), with warm-up
# until the samples are level, which the JIT runtimes need.
VERSUS_ARGS=(--warmup auto)

need() { command -v "$1" >/dev/null || { echo "inprocess: '$1' not found in PATH" >&2; exit 1; }; }
need jq; need awk; need sort; need cargo; need go; need node; need npm; need python3; need mvn
[[ -x "$JAVA17/bin/java" ]] || { echo "inprocess: no JDK 17 at $JAVA17 (set JAVA17)" >&2; exit 1; }
for lang in "${LANGS[@]}"; do
  case "$lang" in rust|go|java|node|python) ;; *) echo "inprocess: unknown language '$lang'" >&2; exit 2 ;; esac
done

rm -rf "$OUT"; mkdir -p "$OUT"
CMDS="$OUT/commands.txt"; : >"$CMDS"
cmdline() { local out="" a; for a in "$@"; do out+="$(printf '%q' "$a") "; done; out="${out% }"; printf '%s' "${out//"$ROOT/"/}"; }
# run_in DIR LOG CMD...: records the command, runs it in DIR with its output in LOG
run_in() {
  local dir="$1" log="$2"; shift 2
  local rel="${dir#"$ROOT"}"; rel="${rel#/}"
  if [[ -n "$rel" ]]; then echo "(cd $rel && $(cmdline "$@"))" >>"$CMDS"; else cmdline "$@" >>"$CMDS"; echo >>"$CMDS"; fi
  if ! (cd "$dir" && "$@") >"$log" 2>&1; then
    echo "inprocess: failed: $(cmdline "$@") (in $dir); last lines of $log:" >&2
    tail -20 "$log" >&2
    exit 1
  fi
}

# --- build ---------------------------------------------------------------------
if [[ -n "${VERSUS:-}" ]]; then
  VERSUS="$(cd "$(dirname "$VERSUS")" && pwd)/$(basename "$VERSUS")"
  BUILT="given as VERSUS, not rebuilt"
else
  echo "building versus (cargo build --release)..."
  (cd "$ROOT" && cargo build --release --quiet)
  echo "cargo build --release --quiet" >>"$CMDS"
  VERSUS="$ROOT/target/release/versus"
  BUILT="built by this script with \`cargo build --release\`"
fi
[[ -x "$VERSUS" ]] || { echo "inprocess: $VERSUS is not executable" >&2; exit 1; }
echo "building the benchmarks and workers (bench/inprocess/install.sh)..."
echo "JAVA_HOME17=$JAVA17 bash bench/inprocess/install.sh" >>"$CMDS"
if ! JAVA_HOME17="$JAVA17" bash "$HERE/install.sh" >"$OUT/install.log" 2>&1; then
  tail -30 "$OUT/install.log" >&2; exit 1
fi

# --- numbers -------------------------------------------------------------------
calc() { awk "BEGIN { printf \"%.17g\n\", $1 }"; }
# fmt_t NS: a time with 4 significant digits in ns, µs or ms
fmt_t() { awk -v x="$1" 'BEGIN { u = "ns"; if (x >= 1e6) { x /= 1e6; u = "ms" } else if (x >= 1e3) { x /= 1e3; u = "µs" }
  printf "%.4g %s\n", x, u }'; }
raw_ns() { awk -v x="$1" 'BEGIN { if (x >= 100) printf "%.0f\n", x; else printf "%.4f\n", x }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f %%\n", (a / b - 1) * 100 }'; }
# median, min and max of the numbers on stdin
med_min_max() { sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
  printf "%.17g %.17g %.17g %d\n", m, v[1], v[NR], NR }'; }
load1() { cut -d' ' -f1 /proc/loadavg; }

# --- CPU taken by other processes while a language is measured ----------------
HZ="$(getconf CLK_TCK)"; NPROC="$(nproc)"
busy_s() { awk -v hz="$HZ" 'NR == 1 { for (i = 2; i <= 9 && i <= NF; i++) if (i != 5 && i != 6) b += $i; printf "%.2f\n", b / hz; exit }' /proc/stat; }
OWN_TF="$(mktemp)"; trap 'rm -f "$OWN_TF"' EXIT
own_s() { # own_s VAR: CPU seconds of this shell and its finished children
  times >"$OWN_TF"
  printf -v "$1" '%s' "$(awk '{ for (i = 1; i <= NF; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } } END { printf "%.2f\n", t }' "$OWN_TF")"
}

# --- wait for a quiet machine --------------------------------------------------
# cpu_idle_pct S: percentage of CPU time idle machine-wide over the next S seconds
cpu_idle_pct() {
  local a b
  read -r -a a < <(head -1 /proc/stat); sleep "$1"; read -r -a b < <(head -1 /proc/stat)
  awk -v a="${a[*]}" -v b="${b[*]}" 'BEGIN { n = split(a, x, " "); split(b, y, " ");
    for (i = 2; i <= n && i <= 9; i++) { d = y[i] - x[i]; t += d; if (i == 5 || i == 6) idle += d }
    printf "%.0f\n", t ? 100 * idle / t : 100 }'
}
# wait_idle: before each language, up to IDLE_WAIT seconds (default 180) for a
# 5-second window with >= 90 % of the CPUs idle (the load average would still
# count the previous language's own measurements); sets IDLE_PCT and IDLE_WAITED
wait_idle() {
  IDLE_WAITED=0
  while :; do
    IDLE_PCT="$(cpu_idle_pct 5)"
    (( IDLE_PCT >= 90 || IDLE_WAITED >= ${IDLE_WAIT:-180} )) && break
    echo "   CPUs ${IDLE_PCT}% idle: waiting for other work to finish (${IDLE_WAITED}/${IDLE_WAIT:-180} s)..."
    sleep 5; IDLE_WAITED=$((IDLE_WAITED + 10))
  done
}
LOAD_START="$(cat /proc/loadavg)"
waited=0
while awk -v l="$(load1)" -v m="$LOAD_MAX" 'BEGIN { exit !(l > m) }' && (( waited < WAIT_STEPS )); do
  echo "1-minute load average $(load1) > $LOAD_MAX: waiting 60 s ($waited/$WAIT_STEPS)..."
  sleep 60; waited=$((waited + 1))
done
LOAD_BEFORE="$(cat /proc/loadavg)"
if awk -v l="$(load1)" -v m="$LOAD_MAX" 'BEGIN { exit !(l > m) }'; then
  QUIET="**no**: the 1-minute load average was still $(load1) (above $LOAD_MAX) after waiting $waited min; measured anyway"
else
  QUIET="yes: 1-minute load average $(load1) ≤ $LOAD_MAX (waited $waited min for it)"
fi

# --- measure ---------------------------------------------------------------------
# Per language and function, one line in $OUT/figures.tsv:
# lang op harness native_ns native_spread native_median_ns versus_median versus_lo versus_hi batch samples warmup
FIG="$OUT/figures.tsv"; : >"$FIG"
SECTIONS="$OUT/sections.tsv"; : >"$SECTIONS"
declare -A NATIVE NSPREAD NMEDIAN HARNESS
HARNESS=([rust]="criterion" [go]="testing.B" [java]="JMH" [node]="mitata" [python]="pyperf")

native_rust() {
  rm -rf "$HERE/rust/target/criterion"
  run_in "$HERE/rust" "$OUT/rust.native.log" cargo bench --locked --bench native -- --noplot
  local op f kind v lo hi med
  for op in sha256_1mb noop; do
    f="$HERE/rust/target/criterion/$op/new/estimates.json"
    # criterion prints the slope estimate when it has one, else the mean
    read -r kind v lo hi med < <(jq -r '(if .slope then ["slope", .slope] else ["mean", .mean] end) as [$k, $e]
      | [$k, $e.point_estimate, $e.confidence_interval.lower_bound, $e.confidence_interval.upper_bound, .median.point_estimate] | @tsv' "$f")
    NATIVE[rust.$op]="$v"; NMEDIAN[rust.$op]="$med"
    NSPREAD[rust.$op]="$kind, 95% CI [$(fmt_t "$lo"), $(fmt_t "$hi")]"
  done
}

native_go() {
  run_in "$HERE/go" "$OUT/go.native.log" .bin/native.test "${GO_ARGS[@]}"
  local op name m mn mx n
  for op in sha256_1mb noop; do
    case "$op" in sha256_1mb) name=Sha256_1mb ;; noop) name=Noop ;; esac
    read -r m mn mx n < <(awk -v b="Benchmark$name" '$1 ~ "^" b "(-[0-9]+)?$" && $4 == "ns/op" { print $3 }' "$OUT/go.native.log" | med_min_max)
    NATIVE[go.$op]="$m"; NMEDIAN[go.$op]="$m"
    NSPREAD[go.$op]="median of $n runs; min … max $(fmt_t "$mn") … $(fmt_t "$mx")"
  done
}

native_java() {
  run_in "$HERE/java" "$OUT/java.native.log" "$JAVA17/bin/java" -jar target/benchmarks.jar "${JMH_ARGS[@]}" \
    -rf json -rff ../out/java.jmh.json
  local op v err med
  for op in sha256_1mb noop; do
    read -r v err med < <(jq -r --arg b "bench.NativeBench.$op" '.[] | select(.benchmark == $b) | .primaryMetric
      | [.score, .scoreError, .scorePercentiles["50.0"]] | @tsv' "$OUT/java.jmh.json")
    NATIVE[java.$op]="$v"; NMEDIAN[java.$op]="$med"
    NSPREAD[java.$op]="± $(fmt_t "$err") (99.9% CI)"
  done
}

native_node() {
  run_in "$HERE/node" "$OUT/node.native.log" node native.mjs ../out/node.mitata.json
  local op v mn mx p50 p99
  for op in sha256_1mb noop; do
    read -r v mn mx p50 p99 < <(jq -r --arg op "$op" '.[$op] | [.avg, .min, .max, .p50, .p99] | @tsv' "$OUT/node.mitata.json")
    NATIVE[node.$op]="$v"; NMEDIAN[node.$op]="$p50"
    NSPREAD[node.$op]="avg; min … max $(fmt_t "$mn") … $(fmt_t "$mx"), p99 $(fmt_t "$p99")"
  done
}

native_python() {
  run_in "$HERE/python" "$OUT/python.native.log" .venv/bin/python native.py -o ../out/python.pyperf.json
  local op v sd med
  for op in sha256_1mb noop; do
    read -r v sd med < <(cd "$HERE/python" && .venv/bin/python -c '
import sys, pyperf
b = pyperf.BenchmarkSuite.load(sys.argv[1]).get_benchmark(sys.argv[2])
print(b.mean() * 1e9, b.stdev() * 1e9, b.median() * 1e9)' "$OUT/python.pyperf.json" "$op")
    NATIVE[python.$op]="$v"; NMEDIAN[python.$op]="$med"
    NSPREAD[python.$op]="mean ± $(fmt_t "$sd") (std dev)"
  done
}

for lang in "${LANGS[@]}"; do
  echo "== $lang: native (${HARNESS[$lang]}), then versus =="
  wait_idle
  l0="$(cat /proc/loadavg)"; b0="$(busy_s)"; own_s o0; t0="$EPOCHREALTIME"
  "native_$lang"
  run_in "$ROOT" "$OUT/$lang.versus.log" "$VERSUS" run bench/inprocess/inprocess.toml --only "$lang" \
    "${VERSUS_ARGS[@]}" --out "bench/inprocess/out/versus-$lang" -q
  b1="$(busy_s)"; own_s o1; el="$(calc "$EPOCHREALTIME - $t0")"
  other="$(calc "($b1 - $b0) - ($o1 - $o0)")"
  other_pct="$(calc "100 * $other / ($el * $NPROC)")"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$lang" "$l0" "$(cat /proc/loadavg)" "$el" "$other_pct" "$IDLE_PCT" "$IDLE_WAITED" >>"$SECTIONS"
  for op in sha256_1mb noop; do
    read -r outcome vm vlo vhi batch n warm < <(jq -r --arg op "$op" '.cells[] | select(.operation == $op)
      | [.outcome, .stats.median_ns, .stats.ci_low_ns, .stats.ci_high_ns, .samples.iterations[0],
         (.samples.iterations | length), .warmup_runs] | @tsv' "$OUT/versus-$lang/results.json")
    [[ "$outcome" == ok ]] || { echo "inprocess: versus cell $lang/$op ended $outcome" >&2; exit 1; }
    for v in "${NATIVE[$lang.$op]:-}" "${NMEDIAN[$lang.$op]:-}" "$vm" "$vlo" "$vhi"; do
      [[ "$v" =~ ^[0-9.eE+-]+$ ]] || { echo "inprocess: no figure for $lang/$op (got '$v'); see $OUT" >&2; exit 1; }
    done
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$lang" "$op" "${HARNESS[$lang]}" \
      "${NATIVE[$lang.$op]}" "${NSPREAD[$lang.$op]}" "${NMEDIAN[$lang.$op]}" "$vm" "$vlo" "$vhi" "$batch" "$n" "$warm" >>"$FIG"
  done
done
LOAD_END="$(cat /proc/loadavg)"

# --- versions ----------------------------------------------------------------------
ver_rust="$(rustc --version)"
ver_criterion="$(awk '/^name = "criterion"$/ { getline; gsub(/"/, "", $3); print $3; exit }' "$HERE/rust/Cargo.lock")"
ver_sha2="$(awk '/^name = "sha2"$/ { getline; gsub(/"/, "", $3); print $3; exit }' "$HERE/rust/Cargo.lock")"
ver_go="$(go version)"
ver_java="$("$JAVA17/bin/java" -version 2>&1 | sed -n 2p)"
ver_jmh="$(sed -n 's:.*<jmh.version>\(.*\)</jmh.version>.*:\1:p' "$HERE/java/pom.xml")"
ver_mvn="$(mvn -v 2>/dev/null | sed -n 1p | sed 's/\x1b\[[0-9;]*m//g')"
ver_node="$(node --version)"
ver_mitata="$(jq -r '.packages["node_modules/mitata"].version' "$HERE/node/package-lock.json")"
ver_python="$("$HERE/python/.venv/bin/python" --version)"
ver_pyperf="$("$HERE/python/.venv/bin/python" -c 'import pyperf; print(pyperf.__version__)')"
ver_versus="$("$VERSUS" --version)"
commit="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
dirty=""; [[ -n "$(git -C "$ROOT" status --porcelain -- src Cargo.toml Cargo.lock workers 2>/dev/null)" ]] && dirty=" (with uncommitted changes in src/, Cargo.* or workers/)"
cpu="$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
flags="$(grep -m1 -ow -e sha_ni -e avx2 -e avx512f /proc/cpuinfo | sort -u | paste -sd' ' || true)"

# --- report ------------------------------------------------------------------------
T="$OUT/report.md"; : >"$T"
w() { printf '%s\n' "$*" >>"$T"; }
lang_name() { case "$1" in rust) echo Rust ;; go) echo Go ;; java) echo "Java 17" ;; node) echo Node.js ;; python) echo Python ;; esac; }
op_name() { case "$1" in sha256_1mb) echo "SHA-256, 1 MB" ;; noop) echo "noop" ;; esac; }

sha_met=(); sha_missed=(); noop_met=(); noop_missed=()
while IFS=$'\t' read -r lang op h nv ns nmed vm vlo vhi batch n warm; do
  d="$(pct "$vm" "$nv")"
  if [[ "$op" == sha256_1mb ]]; then
    if awk -v a="$vm" -v b="$nv" -v g="$SHA_GOAL_PCT" 'BEGIN { r = (a / b - 1) * 100; exit !(r <= g && r >= -g) }'; then
      sha_met+=("$(lang_name "$lang") ($d)"); else sha_missed+=("$(lang_name "$lang") ($d)"); fi
  else
    if awk -v a="$vm" -v b="$nv" 'BEGIN { exit !(a <= b) }'; then
      noop_met+=("$(lang_name "$lang") ($(fmt_t "$vm") vs $(fmt_t "$nv"))")
    else
      noop_missed+=("$(lang_name "$lang") ($(fmt_t "$vm") vs $(fmt_t "$nv"), $d, $(awk -v a="$vm" -v b="$nv" 'BEGIN { printf "%+.2f ns", a - b }'))")
    fi
  fi
done <"$FIG"
# list_or_none ITEM...: the items separated by commas, or "none"
list_or_none() { if (( $# == 0 )); then printf 'none'; else local IFS=';'; local s="$*"; printf '%s' "${s//;/, }"; fi; }
maxother="$(awk -F'\t' 'BEGIN { m = 0 } $5 > m { m = $5 } END { printf "%.0f", m }' "$SECTIONS")"
disturbed=()
while IFS=$'\t' read -r lang l0 l1 el other idle waited; do
  if awk -v o="$other" 'BEGIN { exit !(o > 10) }'; then disturbed+=("$(lang_name "$lang") ($(printf '%.0f' "$other") %)"); fi
done <"$SECTIONS"

w "# versus against each language's own benchmark harness (in-process)"
w ""
w "_Generated by \`bash bench/inprocess.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'); do not edit by hand._"
w ""
w "For the same function in each language, the time per call that versus reports for an"
w "in-process cell (the median over samples of batch elapsed ÷ batch size, measured by the"
w "language's versus worker library) next to the figure of that language's standard"
w "benchmark harness: (a) SHA-256 of a 1 MB buffer in memory, (b) an empty operation, the"
w "per-call floor of each method. Languages: $(for l in "${LANGS[@]}"; do printf '%s\n' "$(lang_name "$l")"; done | paste -sd, - | sed 's/,/, /g')."
w ""
w "## Goals"
w ""
w "- **(a) SHA-256 of 1 MB: versus within ${SHA_GOAL_PCT} % of the native harness** (|versus ÷ native − 1| ≤ ${SHA_GOAL_PCT} %, on unrounded figures)."
w "  Met: $(list_or_none ${sha_met[@]+"${sha_met[@]}"})."
w "  Missed: $(list_or_none ${sha_missed[@]+"${sha_missed[@]}"})."
w "- **(b) noop floor no worse than the native harness's** (versus median ≤ native figure)."
w "  Met: $(list_or_none ${noop_met[@]+"${noop_met[@]}"})."
w "  Missed: $(list_or_none ${noop_missed[@]+"${noop_missed[@]}"})."
if (( ${#sha_missed[@]} == 0 && ${#noop_missed[@]} == 0 )); then
  w "- Both goals were met for every language measured in this run."
else
  w "- Not every goal was met in this run; the misses are listed above, with the figures below."
fi
w "- Quiet machine before measuring: $QUIET. Other processes took up to ${maxother} % of the CPUs while a language was measured (see [Load](#load)). Languages measured while other processes took over 10 % of the CPUs, whose figures (native and versus alike) are less trustworthy: $(list_or_none ${disturbed[@]+"${disturbed[@]}"}). Each figure comes from one run of each harness; none is adjusted."
w ""
w "## Figures"
w ""
w "Per call. *native* is the harness's headline figure (criterion: slope or mean estimate; testing.B: median ns/op of the runs; JMH: average time; mitata: avg; pyperf: mean) with its spread as the harness gives it; *versus* is \`stats.median_ns\` with its 95 % interval (\`ci_low_ns\` … \`ci_high_ns\`)."
w ""
w "| language | function | harness | native | native spread | versus median | versus 95 % CI | versus ÷ native − 1 |"
w "|---|---|---|--:|---|--:|---|--:|"
while IFS=$'\t' read -r lang op h nv ns nmed vm vlo vhi batch n warm; do
  w "| $(lang_name "$lang") | $(op_name "$op") | $h | $(fmt_t "$nv") | $ns | $(fmt_t "$vm") | $(fmt_t "$vlo") … $(fmt_t "$vhi") | $(pct "$vm" "$nv") |"
done <"$FIG"
w ""
w "### Raw figures (ns per call)"
w ""
w "*native median* is the harness's median where it has one (criterion: median estimate; testing.B: same as the headline; JMH: median of the iteration scores; mitata: p50; pyperf: median), for a like-for-like comparison with versus's median. *batch* is the calls per versus sample (calibrated to \`min_sample_time\`), *samples* and *warm-up* the measured and warm-up samples."
w ""
w "| language | function | native | native median | versus median | versus CI low | versus CI high | native inside versus CI | versus ÷ native − 1 | versus ÷ native median − 1 | batch | samples | warm-up |"
w "|---|---|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|"
while IFS=$'\t' read -r lang op h nv ns nmed vm vlo vhi batch n warm; do
  inside="$(awk -v x="$nv" -v lo="$vlo" -v hi="$vhi" 'BEGIN { print (x >= lo && x <= hi) ? "yes" : "no" }')"
  w "| $(lang_name "$lang") | $op | $(raw_ns "$nv") | $(raw_ns "$nmed") | $(raw_ns "$vm") | $(raw_ns "$vlo") | $(raw_ns "$vhi") | $inside | $(pct "$vm" "$nv") | $(pct "$vm" "$nmed") | $batch | $n | $warm |"
done <"$FIG"
w ""
w "## Machine and tools"
w ""
w "- Date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
w "- CPU: $cpu, $NPROC cores (flags: ${flags:-none of sha_ni/avx2/avx512f}); $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) memory; kernel $(uname -r)"
w "- versus: $ver_versus, commit $commit$dirty, $BUILT"
w "- Rust: $ver_rust; criterion $ver_criterion (default features off, \`cargo_bench_support\` only); sha2 $ver_sha2"
w "- Go: $ver_go; testing.B with \`b.Loop\`"
w "- Java: $ver_java (\`$JAVA17\`); JMH $ver_jmh; $ver_mvn"
w "- Node.js: $ver_node; mitata $ver_mitata"
w "- Python: $ver_python; pyperf $ver_pyperf"
w ""
w "## Load"
w ""
w "\`/proc/loadavg\` (1, 5, 15 minutes) when the script started: \`$LOAD_START\`; after the wait for a load ≤ $LOAD_MAX: \`$LOAD_BEFORE\`; at the end: \`$LOAD_END\`."
w ""
w "| language | CPUs idle just before (waited) | load before | load after | seconds | CPU taken by other processes |"
w "|---|---|---|---|--:|--:|"
while IFS=$'\t' read -r lang l0 l1 el other idle waited; do
  w "| $(lang_name "$lang") | ${idle} % (${waited} s) | \`$(cut -d' ' -f1-3 <<<"$l0")\` | \`$(cut -d' ' -f1-3 <<<"$l1")\` | $(printf '%.0f' "$el") | $(printf '%.1f' "$other") % |"
done <"$SECTIONS"
w ""
w "Before each language the script waits (up to ${IDLE_WAIT:-180} s) for a 5-second window with ≥ 90 % of the CPUs idle. The last column is the machine's busy CPU time during that language's measurements minus this script's own (and its children's), as a share of all CPUs: work by something else, which competes with the benchmark for the 2 cores."
w ""
w "## Method"
w ""
w "- **Same code on both sides.** Each language folder \`bench/inprocess/<lang>/\` has one source of the two functions (\`rust/src/lib.rs\`, \`go/ops.go\`, \`java/src/main/java/bench/Ops.java\`, \`node/ops.mjs\`, \`python/ops.py\`), called by the native benchmark and by the versus worker alike."
w "- **Data.** The 1 MB buffer (10^6 bytes, byte *i* = *i*·31 mod 256) is built in memory by the native benchmark's setup and by the worker's setup hook (untimed), so no payload file is read. Every native benchmark checks the digest (\`34596c45…798c\`) before timing; versus checks each worker's output with \`expect_sha256\` (the SHA-256 of the 32-byte digest; for noop, of no bytes)."
w "- **Native harnesses**, each with its defaults except as given: criterion (\`cargo bench\`: 3 s warm-up, 5 s measurement, 100 samples); testing.B (\`${GO_ARGS[*]}\`, summarised here as the median of the runs, with their range); JMH (\`${JMH_ARGS[*]} -bm avgt\`, compiler blackholes as JMH auto-detects on JDK 17); mitata (\`run()\` defaults; result passed to \`do_not_optimize\`); pyperf (\`Runner.bench_func\`, defaults: 20 processes × 3 values after 1 warm-up, loops calibrated to ≥ 100 ms per value)."
w "- **versus**: \`bench/inprocess/inprocess.toml\` (runs 20, min_sample_time 50ms), with \`${VERSUS_ARGS[*]}\`; each cell gets a fresh worker process, the batch size is calibrated, then warm-up and measured samples."
w "- **Order**: one language at a time, native harness first and versus right after, never two measurements at once. One run of each; no figure is adjusted."
w ""
w "## Commands"
w ""
w "Run from the repository root, in this order (the first lines build; then, per language, the native harness and versus; raw outputs went to \`bench/inprocess/out/\`, which is not committed):"
w ""
w '```sh'
while IFS= read -r c; do w "$c"; done <"$CMDS"
w '```'
w ""
w "## What the native harnesses printed"
w ""
for lang in "${LANGS[@]}"; do
  w "<details><summary>$(lang_name "$lang"): ${HARNESS[$lang]}</summary>"
  w ""
  w '```text'
  case "$lang" in
    rust) grep -E '^(sha256_1mb|noop) +time:|^ +(time|change):|^Found|^Warning' "$OUT/rust.native.log" >>"$T" || true ;;
    go) grep -E '^(goos|goarch|cpu|Benchmark)' "$OUT/go.native.log" >>"$T" || true ;;
    java) sed -n '/^Benchmark  *Mode/,$p' "$OUT/java.native.log" >>"$T"; grep -m1 'Blackhole mode' "$OUT/java.native.log" >>"$T" || true ;;
    node) grep -v '^\s*$' "$OUT/node.native.log" >>"$T" || true ;;
    python) grep -E '^(sha256_1mb|noop):|^\.\.\.\.\.|^WARNING|^\* ' "$OUT/python.native.log" >>"$T" || true ;;
  esac
  w '```'
  w ""
  w "</details>"
  w ""
done

mkdir -p "$(dirname "$REPORT")"
cp "$T" "$REPORT"
echo
sed -n '/^## Goals/,/^## Machine/p' "$REPORT" | sed '$d'
echo "report: ${REPORT#"$ROOT/"}"

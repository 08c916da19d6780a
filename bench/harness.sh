#!/usr/bin/env bash
# Measures versus against hyperfine on this machine, in one run, and writes
# what it finds to docs/results/harness.md (the report is generated here; do
# not edit it by hand).
#
#   bash bench/harness.sh                 # builds target/release/versus first
#   VERSUS=/path/to/versus bash bench/harness.sh   # use that binary, no build
#
# Measurements (about 3 minutes, after up to QUIET_WAIT=240 s waiting for idle CPUs):
#   1. whole-tool wall time for 1000 runs of `true`, hyperfine -N vs versus exec,
#      5 alternating rounds, each timed from outside (bash `time`);
#   2. the median each tool reports for `sleep 0.02`;
#   3. the median each tool reports for decrypting 10 MB with age (Go);
#   4. generating a 1 GB payload with `versus run` vs `head -c 1GB /dev/urandom`.
# Every figure printed is a measured one; targets are checked on the unrounded
# values. Needs: cargo (unless VERSUS is set), hyperfine (apt-get installs it
# when missing), jq, awk, GNU coreutils, and go/cargo/node/npm for the age
# install script (it skips whatever is already installed).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPORT="$ROOT/docs/results/harness.md"
ROUNDS=15         # measurement 1, 2 and 3: alternating rounds per tool (cheap: seconds each)
REPS=3            # measurement 4: repetitions per command
SETTLE=5          # measurement 4: seconds idle before each timed 1 GB write (see there)

# --- tools ------------------------------------------------------------------
need() { command -v "$1" >/dev/null || { echo "harness: '$1' not found in PATH" >&2; exit 1; }; }
need jq; need awk; need sort; need dd; need head; need git

if ! command -v hyperfine >/dev/null; then
  echo "hyperfine not found: installing the Debian package..."
  if [[ $(id -u) -eq 0 ]]; then SUDO=(); else SUDO=(sudo); fi
  "${SUDO[@]}" apt-get install -y hyperfine >/dev/null 2>&1 \
    || { "${SUDO[@]}" apt-get update >/dev/null && "${SUDO[@]}" apt-get install -y hyperfine >/dev/null; }
fi
need hyperfine

if [[ -n "${VERSUS:-}" ]]; then
  VERSUS="$(cd "$(dirname "$VERSUS")" && pwd)/$(basename "$VERSUS")"
  BUILT="given as VERSUS, not rebuilt"
else
  echo "building versus (cargo build --release)..."
  (cd "$ROOT" && cargo build --release --quiet)
  VERSUS="$ROOT/target/release/versus"
  BUILT="built by the harness with \`cargo build --release\`"
fi
[[ -x "$VERSUS" ]] || { echo "harness: $VERSUS is not executable" >&2; exit 1; }

echo "installing age (examples/age/install.sh; skips what is installed)..."
bash "$ROOT/examples/age/install.sh" >/dev/null
AGE="$ROOT/examples/age/.tools/bin/age"
AGE_KEYGEN="$ROOT/examples/age/.tools/bin/age-keygen"

# --- priority -----------------------------------------------------------------
# Everything the harness starts (both tools alike) inherits this niceness, so
# that other work on the machine takes less of the CPUs from the measurements.
# HARNESS_NICE=0 leaves the priority alone; raising it needs root.
HARNESS_NICE="${HARNESS_NICE:--10}"
if [[ "$HARNESS_NICE" != 0 ]] && renice -n "$HARNESS_NICE" -p $$ >/dev/null 2>&1; then
  PRIORITY="nice $HARNESS_NICE for the harness and everything it starts (both tools alike)"
else
  PRIORITY="default (nice $(nice))"
fi

# --- wait for a quiet machine --------------------------------------------------
# Other work on the CPUs (a compiler, a test suite) moves every figure here.
# Wait up to QUIET_WAIT seconds for a 5-second window with >= 90 % of the CPUs
# idle; proceed anyway after that, and say so in the report.
cpu_idle_pct() { # percentage of CPU time idle over the next $1 seconds
  local a b
  read -r -a a < <(head -1 /proc/stat); sleep "$1"; read -r -a b < <(head -1 /proc/stat)
  awk -v a="${a[*]}" -v b="${b[*]}" 'BEGIN { n = split(a, x, " "); split(b, y, " ");
    for (i = 2; i <= n; i++) { d = y[i] - x[i]; t += d; if (i == 5 || i == 6) idle += d }
    printf "%.0f\n", t ? 100 * idle / t : 100 }'
}
# CPU seconds used machine-wide (all but idle and iowait) and by this shell and its
# finished children; their difference over a section is what other processes took.
HZ="$(getconf CLK_TCK)"
# fields: user nice system idle iowait irq softirq steal guest guest_nice (guest is inside user)
busy_s() { awk -v hz="$HZ" 'NR == 1 { for (i = 2; i <= 9 && i <= NF; i++) if (i != 5 && i != 6) b += $i; printf "%.2f\n", b / hz; exit }' /proc/stat; }
# own_s VAR: `times` must run in this shell (a subshell has its own, empty, counts)
own_s() {
  times >"$OWN_TF"
  printf -v "$1" '%s' "$(awk '{ for (i = 1; i <= NF; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } } END { printf "%.2f\n", t }' "$OWN_TF")"
}
OWN_TF="$(mktemp)"
section_start() { S_BUSY="$(busy_s)"; own_s S_OWN; S_T="$EPOCHREALTIME"; }
# section_end NAME: reports the CPU time other processes took during the section
section_end() {
  local busy own el other pct
  busy="$(busy_s)"; own_s own; el="$(calc "$EPOCHREALTIME - $S_T")"
  other="$(calc "($busy - $S_BUSY) - ($own - $S_OWN)")"
  pct="$(calc "100 * $other / ($el * $NPROC)")"
  say ""
  say "_Other processes used $(fmt "$other" 1) CPU-seconds during this section ($(fmt "$el" 1) s × $NPROC CPUs, $(fmt "$pct" 0) % of the machine)._"
  if awk "BEGIN { exit !($pct > 5) }"; then
    DISTURBED+=("$1 ($(fmt "$pct" 0) % of the CPUs taken by other work)")
  fi
}
DISTURBED=()
QUIET_WAIT="${QUIET_WAIT:-240}"
waited=0
while :; do
  IDLE_PCT="$(cpu_idle_pct 5)"
  (( IDLE_PCT >= 90 || waited >= QUIET_WAIT )) && break
  echo "machine busy (${IDLE_PCT}% idle), waiting for it to quieten ($waited/$QUIET_WAIT s)..."
  sleep 5; waited=$((waited + 10))
done
if (( IDLE_PCT >= 90 )); then
  QUIET="CPUs ${IDLE_PCT}% idle over 5 s just before the start (waited ${waited} s for that)"
else
  QUIET="**busy**: CPUs only ${IDLE_PCT}% idle just before the start, after waiting ${waited} s; other work was running"
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/versus-harness.XXXXXX")"
trap 'rm -rf "$WORK" "$OWN_TF"' EXIT
cd "$WORK"
LOG="$WORK/tools.log"   # stdout/stderr of the timed tools
: >"$LOG"

# --- helpers ----------------------------------------------------------------
BODY="$WORK/body.md"; RAW="$WORK/raw.md"; SUMMARY="$WORK/summary.md"
: >"$BODY"; : >"$RAW"; : >"$SUMMARY"
say() { printf '%s\n' "$*" | tee -a "$BODY"; }       # printed and reported
raw() { printf '%s\n' "$*" >>"$RAW"; }               # reported only (long)
cmdline() { local out="" a; for a in "$@"; do out+="$(printf '%q' "$a") "; done; printf '%s' "${out% }"; }

# median of numbers on stdin (mean of the middle two for an even count)
median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) {print "nan"; exit} if (NR%2) print v[(NR+1)/2]; else printf "%.17g\n", (v[NR/2]+v[NR/2+1])/2}'; }
calc() { awk "BEGIN { printf \"%.17g\n\", $1 }"; }
fmt() { awk -v x="$1" -v p="${2:-3}" 'BEGIN { printf "%.*f\n", p, x }'; }
yes_no() { if awk "BEGIN { exit !($1) }"; then echo "**yes**"; else echo "**no**"; fi; }

TIMEFORMAT='%3R %3U %3S'   # bash `time`: wall, user, system seconds (ms resolution)
TF="$WORK/time.txt"
# timed CMD...: runs CMD with its output to the log and sets T_WALL, T_USER, T_SYS
timed() {
  { time "$@" >>"$LOG" 2>&1; } 2>"$TF"
  read -r T_WALL T_USER T_SYS <"$TF"
}

# --- environment ------------------------------------------------------------
DATE="$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
CPU="$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)"
NPROC="$(nproc)"
MEM="$(awk '/^MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
KERNEL="$(uname -sr)"
VERSUS_V="$("$VERSUS" --version)"
HYPERFINE_V="$(hyperfine --version)"
AGE_V="$("$AGE" --version)"
GIT_REV="$(git -C "$ROOT" rev-parse --short HEAD)"
GIT_DIRTY="$(git -C "$ROOT" status --porcelain -- src Cargo.toml Cargo.lock | wc -l)"
LOAD_START="$(cut -d' ' -f1-3 /proc/loadavg)"
FS="$(df -T "$WORK" | awk 'NR==2 {print $2 " (" $1 ")"}')"
# virtio-balloon (device id 5) feature bit 5 = free page reporting: freed guest
# memory is handed back to the host and is slow to touch again.
REPORTING="no virtio balloon"
for d in /sys/bus/virtio/devices/*; do
  [[ -r "$d/device" && "$(cat "$d/device")" == "0x0005" ]] || continue
  if [[ "$(cut -c6 "$d/features")" == 1 ]]; then REPORTING="on"; else REPORTING="off"; fi
done

echo "versus harness: $DATE, $CPU x$NPROC, $VERSUS_V, $HYPERFINE_V"

# ============================================================================
say ""
say "## 1. Whole-tool wall time: 1000 runs of \`true\`"
section_start
say ""
HF1=(hyperfine -N --runs 1000 --warmup 0 true)
VS1=("$VERSUS" exec --runs 1000 --warmup 0 true)
say "Each command is timed from outside with bash \`time\` (wall seconds, ms resolution), output discarded,"
say "$ROUNDS rounds alternating hyperfine, versus."
say ""
say "- hyperfine: \`$(cmdline "${HF1[@]}")\`"
say "- versus: \`$(cmdline "${VS1[@]}")\`"
say ""
say "| round | hyperfine -N wall s (user / sys) | versus wall s (user / sys) |"
say "|---|---|---|"
HF1_W=(); VS1_W=()
for r in $(seq "$ROUNDS"); do
  timed "${HF1[@]}"; hw="$T_WALL"; hu="$T_USER"; hs="$T_SYS"; HF1_W+=("$hw")
  timed "${VS1[@]}"; vw="$T_WALL"; vu="$T_USER"; vs="$T_SYS"; VS1_W+=("$vw")
  say "| $r | $hw ($hu / $hs) | $vw ($vu / $vs) |"
done
HF1_MED="$(printf '%s\n' "${HF1_W[@]}" | median)"
VS1_MED="$(printf '%s\n' "${VS1_W[@]}" | median)"
M1_OK="$(yes_no "$VS1_MED <= $HF1_MED")"
say ""
say "Median wall: hyperfine -N **$(fmt "$HF1_MED") s**, versus **$(fmt "$VS1_MED") s**"
say "(versus/hyperfine = $(fmt "$(calc "$VS1_MED / $HF1_MED")"); per run, overhead included: hyperfine $(fmt "$(calc "$HF1_MED * 1000")" 0) µs, versus $(fmt "$(calc "$VS1_MED * 1000")" 0) µs)."
say "Target, versus not slower than hyperfine -N: $M1_OK."
section_end "1. true × 1000"
echo "| 1. 1000 × \`true\`, whole-tool wall (median of $ROUNDS) | $(fmt "$VS1_MED") s | $(fmt "$HF1_MED") s (hyperfine -N) | versus ≤ hyperfine | $M1_OK |" >>"$SUMMARY"

# ============================================================================
# compare_medians LABEL RUNS WARMUP CMD: rounds of hyperfine -N then versus exec
# on CMD; sets CM_HF_MED, CM_VS_MED (ns, median of the reported medians),
# CM_REL (percent, versus vs hyperfine) and writes the tables.
compare_medians() {
  local label="$1" runs="$2" warmup="$3" cmd="$4" r hj vj hm vm
  local hfm=() vsm=() hall=() vall=()
  local hf=(hyperfine -N --runs "$runs" --warmup "$warmup" --export-json "$WORK/hf.json" "$cmd")
  local vs=("$VERSUS" exec --runs "$runs" --warmup "$warmup" --json "$WORK/vs.json" "$cmd")
  say "$ROUNDS rounds, alternating hyperfine then versus; each round is one invocation of:"
  say ""
  say "- hyperfine: \`$(cmdline "${hf[@]}")\` → \`.results[0].median\` (s)"
  say "- versus: \`$(cmdline "${vs[@]}")\` → \`.cells[0].stats.median_ns\`"
  say ""
  say "| round | hyperfine median ms | versus median ms | versus vs hyperfine |"
  say "|---|---|---|---|"
  raw "### $label"
  raw ""
  for r in $(seq "$ROUNDS"); do
    "${hf[@]}" >>"$LOG" 2>&1
    "${vs[@]}" >>"$LOG" 2>&1
    hm="$(jq -r '.results[0].median * 1e9' "$WORK/hf.json")"
    vm="$(jq -r '.cells[0].stats.median_ns' "$WORK/vs.json")"
    [[ "$(jq -r '.cells[0].outcome' "$WORK/vs.json")" == ok ]] || { echo "harness: versus cell not ok" >&2; exit 1; }
    hfm+=("$hm"); vsm+=("$vm")
    mapfile -t hj < <(jq -r '.results[0].times[] * 1e9 | floor' "$WORK/hf.json")
    mapfile -t vj < <(jq -r '.cells[0].samples.wall_ns[]' "$WORK/vs.json")
    hall+=("${hj[@]}"); vall+=("${vj[@]}")
    say "| $r | $(fmt "$(calc "$hm / 1e6")") | $(fmt "$(calc "$vm / 1e6")") | $(fmt "$(calc "($vm - $hm) / $hm * 100")" 2) % |"
    raw "- round $r hyperfine times (ns, floored from its seconds): ${hj[*]}"
    raw "- round $r versus wall_ns: ${vj[*]}"
  done
  raw ""
  CM_HF_MED="$(printf '%s\n' "${hfm[@]}" | median)"
  CM_VS_MED="$(printf '%s\n' "${vsm[@]}" | median)"
  CM_REL="$(calc "($CM_VS_MED - $CM_HF_MED) / $CM_HF_MED * 100")"
  local hp vp
  hp="$(printf '%s\n' "${hall[@]}" | median)"; vp="$(printf '%s\n' "${vall[@]}" | median)"
  say ""
  say "Median of the $ROUNDS reported medians: hyperfine **$(fmt "$(calc "$CM_HF_MED / 1e6")") ms**, versus **$(fmt "$(calc "$CM_VS_MED / 1e6")") ms**,"
  say "difference **$(fmt "$CM_REL" 2) %** (versus − hyperfine, of hyperfine)."
  say "Pooled median of all $((ROUNDS * runs)) samples: hyperfine $(fmt "$(calc "$hp / 1e6")") ms, versus $(fmt "$(calc "$vp / 1e6")") ms ($(fmt "$(calc "($vp - $hp) / $hp * 100")" 2) %)."
}

say ""
say "## 2. Reported median of \`sleep 0.02\`"
section_start
say ""
say "Both tools start the command without a shell (hyperfine \`-N\`, versus by default)."
compare_medians "2. sleep 0.02" 30 3 "sleep 0.02"
section_end "2. sleep 0.02"
M2_OK="$(yes_no "($CM_REL) <= 2 && ($CM_REL) >= -2")"
say "Target, within 2 %: $M2_OK."
echo "| 2. \`sleep 0.02\` reported median (median of $ROUNDS × 30 runs) | $(fmt "$(calc "$CM_VS_MED / 1e6")") ms | $(fmt "$(calc "$CM_HF_MED / 1e6")") ms | within ±2 % (got $(fmt "$CM_REL" 2) %) | $M2_OK |" >>"$SUMMARY"

# ============================================================================
say ""
say "## 3. Reported median of a 10 MB \`age -d\`"
section_start
say ""
KEY="$WORK/key.txt"; PLAIN="$WORK/plain.bin"; ENC="$WORK/plain.bin.age"
"$AGE_KEYGEN" -o "$KEY" 2>>"$LOG"
head -c 10MB /dev/urandom >"$PLAIN"
"$AGE" -e -i "$KEY" -o "$ENC" "$PLAIN"
"$AGE" -d -i "$KEY" "$ENC" | cmp -s - "$PLAIN" || { echo "harness: age round trip failed" >&2; exit 1; }
say "Setup: \`$(cmdline "$AGE_KEYGEN" -o "$KEY")\`, \`head -c 10MB /dev/urandom > $PLAIN\` (10,000,000 bytes),"
say "\`$(cmdline "$AGE" -e -i "$KEY" -o "$ENC" "$PLAIN")\` (checked to decrypt back to the same bytes)."
say "age $AGE_V (Go), from examples/age/install.sh."
say ""
compare_medians "3. age -d 10 MB" 30 3 "$AGE -d -i $KEY -o /dev/null $ENC"
section_end "3. age -d"
M3_OK="$(yes_no "($CM_REL) <= 2 && ($CM_REL) >= -2")"
say "Target, within 2 %: $M3_OK."
echo "| 3. 10 MB \`age -d\` reported median (median of $ROUNDS × 30 runs) | $(fmt "$(calc "$CM_VS_MED / 1e6")") ms | $(fmt "$(calc "$CM_HF_MED / 1e6")") ms | within ±2 % (got $(fmt "$CM_REL" 2) %) | $M3_OK |" >>"$SUMMARY"
rm -f "$PLAIN" "$ENC"

# ============================================================================
say ""
say "## 4. Generating a 1 GB payload"
section_start
say ""
write_suite() { # write_suite FILE SIZE
  cat >"$1" <<EOF
name = "harness-payload"
[payload]
size = "$2"
seed = 1
[operations.noop]
[implementations.true]
run.noop = "true"
EOF
}
write_suite "$WORK/big.toml" 1GB
write_suite "$WORK/tiny.toml" 1KB
BIG="$WORK/head-urandom.bin"; ZERO="$WORK/dd-zero.bin"
CACHE="$WORK/cache-N"   # a fresh, empty cache folder each time (N = 1, 2, ...)
VS4=(env "VERSUS_CACHE_DIR=$CACHE" "$VERSUS" run "$WORK/big.toml" --runs 1 --warmup 0 --out "$WORK/out")
VT4=(env "VERSUS_CACHE_DIR=$CACHE" "$VERSUS" run "$WORK/tiny.toml" --runs 1 --warmup 0 --out "$WORK/out")
HD4="head -c 1GB /dev/urandom > $BIG"
DD4=(dd if=/dev/zero "of=$ZERO" bs=4000000 count=250 status=none)
say "A suite with \`[payload] size = \"1GB\"\` (10^9 bytes) and one operation whose command is \`true\`:"
say ""
say '```toml'
while IFS= read -r l; do say "$l"; done <"$WORK/big.toml"
say '```'
say ""
say "Commands, each timed whole with bash \`time\` (wall, user, sys s), files deleted after each:"
say ""
say "- (a) versus, 1 GB payload: \`$(cmdline "${VS4[@]}")\`"
say "- (b) head, same byte count: \`$HD4\`"
say "- (c) versus, the same suite with \`size = \"1KB\"\`: \`$(cmdline "${VT4[@]}")\` (tool overhead, subtracted from (a) to isolate generation)"
say "- (d) kernel floor, 1 GB of zeros written in 4 MB blocks, no generation at all: \`$(cmdline "${DD4[@]}")\`"
say "- (e) versus again, 1 GB, fresh cache folder, started immediately after (a)'s payload was deleted"
say ""
say "Before (a), (b) and (d) the harness sleeps ${SETTLE} s. On this VM freed memory is handed back"
say "to the host (virtio-balloon free page reporting: $REPORTING) about 2 s after it is freed, and"
say "writing a 1 GB file into such memory costs several times more than into memory the guest freed"
say "moments ago. The sleep makes every rep start from the same state, the one a user meets the"
say "first time a payload is generated; (e), run straight after (a) with no pause, shows the other"
say "state. Targets are judged on (a)."
say ""
say "| rep | (a) versus 1 GB | (b) head urandom 1 GB | (c) versus 1 KB | (d) dd zeros 1 GB | (e) versus 1 GB, right after (a) |"
say "|---|---|---|---|---|---|"
A_W=(); B_W=(); C_W=(); D_W=(); E_W=(); n=0
run_versus() { # run_versus ARRAY-NAME: fresh cache, timed, checks the payload size, cleans up
  local -n argv="$1"
  n=$((n + 1)); local c="${CACHE%-N}-$n"
  local a=("${argv[@]}"); a[1]="VERSUS_CACHE_DIR=$c"
  mkdir "$c"
  timed "${a[@]}"
  PAYLOAD_BYTES="$(find "$c/payloads" -type f -name 'random-*' -printf '%s\n')"
  rm -rf "$c" "$WORK/out"
}
for r in $(seq "$REPS"); do
  sleep "$SETTLE"; run_versus VS4; a="$T_WALL ($T_USER / $T_SYS)"; A_W+=("$T_WALL")
  [[ "$PAYLOAD_BYTES" == 1000000000 ]] || { echo "harness: payload is $PAYLOAD_BYTES bytes, not 10^9" >&2; exit 1; }
  run_versus VS4; e="$T_WALL ($T_USER / $T_SYS)"; E_W+=("$T_WALL")
  sleep "$SETTLE"; { time head -c 1GB /dev/urandom >"$BIG" 2>>"$LOG"; } 2>"$TF"; read -r T_WALL T_USER T_SYS <"$TF"
  [[ "$(stat -c %s "$BIG")" == 1000000000 ]] || { echo "harness: head wrote the wrong size" >&2; exit 1; }
  rm -f "$BIG"; b="$T_WALL ($T_USER / $T_SYS)"; B_W+=("$T_WALL")
  run_versus VT4; c="$T_WALL ($T_USER / $T_SYS)"; C_W+=("$T_WALL")
  sleep "$SETTLE"; timed "${DD4[@]}"; rm -f "$ZERO"; d="$T_WALL ($T_USER / $T_SYS)"; D_W+=("$T_WALL")
  say "| $r | $a | $b | $c | $d | $e |"
done
A_MED="$(printf '%s\n' "${A_W[@]}" | median)"; B_MED="$(printf '%s\n' "${B_W[@]}" | median)"
C_MED="$(printf '%s\n' "${C_W[@]}" | median)"; D_MED="$(printf '%s\n' "${D_W[@]}" | median)"
E_MED="$(printf '%s\n' "${E_W[@]}" | median)"
GEN="$(calc "$A_MED - $C_MED")"
# GB/s = 10^9 bytes / seconds / 10^9
say ""
say "Medians (s): (a) $A_MED, (b) $B_MED, (c) $C_MED, (d) $D_MED, (e) $E_MED."
say ""
say "- versus, whole run (a): **$(fmt "$(calc "1 / $A_MED")" 2) GB/s**; generation alone (a − c = $(fmt "$GEN") s): $(fmt "$(calc "1 / $GEN")" 2) GB/s."
say "- head -c 1GB /dev/urandom (b): $(fmt "$(calc "1 / $B_MED")" 2) GB/s; versus is **$(fmt "$(calc "$B_MED / $A_MED")" 2)×** faster (b / a)."
say "- Kernel floor (d), writing zeros with no generation: $(fmt "$(calc "1 / $D_MED")" 2) GB/s."
say "- versus straight after another 1 GB write (e): $(fmt "$(calc "1 / $E_MED")" 2) GB/s, $(fmt "$(calc "$B_MED / $E_MED")" 2)× head."
section_end "4. payload"
M4A_OK="$(yes_no "1 / $A_MED >= 1")"
M4B_OK="$(yes_no "$B_MED / $A_MED >= 3")"
say ""
say "Target ≥ 1 GB/s (on (a)): $M4A_OK. Target ≥ 3× head (b / a): $M4B_OK."
echo "| 4a. 1 GB payload, whole \`versus run\` (median of $REPS) | $(fmt "$(calc "1 / $A_MED")" 2) GB/s ($A_MED s) | kernel floor (dd zeros): $(fmt "$(calc "1 / $D_MED")" 2) GB/s | ≥ 1 GB/s | $M4A_OK |" >>"$SUMMARY"
echo "| 4b. 1 GB payload vs \`head -c 1GB /dev/urandom\` | $A_MED s | $B_MED s | ≥ 3× head (got $(fmt "$(calc "$B_MED / $A_MED")" 2)×) | $M4B_OK |" >>"$SUMMARY"
echo "| 4e. (not a target) same as 4a, run straight after it | $(fmt "$(calc "1 / $E_MED")" 2) GB/s ($E_MED s) | head: $B_MED s | — | $(fmt "$(calc "$B_MED / $E_MED")" 2)× head |" >>"$SUMMARY"
raw "### 4. Payload wall seconds"
raw ""
raw "- (a) ${A_W[*]}"
raw "- (b) ${B_W[*]}"
raw "- (c) ${C_W[*]}"
raw "- (d) ${D_W[*]}"
raw "- (e) ${E_W[*]}"
raw ""

LOAD_END="$(cut -d' ' -f1-3 /proc/loadavg)"
END_DATE="$(date -u '+%Y-%m-%d %H:%M:%S UTC')"

# ============================================================================
mkdir -p "$(dirname "$REPORT")"
{
  echo "# versus vs hyperfine: harness results"
  echo ""
  echo "Generated by \`bash bench/harness.sh\` (do not edit by hand). Started $DATE, finished $END_DATE."
  echo ""
  echo "## Environment"
  echo ""
  echo "| | |"
  echo "|---|---|"
  echo "| CPU | $CPU, $NPROC logical CPUs |"
  echo "| Memory | $MEM |"
  echo "| Kernel | $KERNEL |"
  echo "| Free page reporting (virtio-balloon) | $REPORTING |"
  echo "| Temp files on | $FS |"
  echo "| versus | $VERSUS_V, $BUILT, git $GIT_REV$( ((GIT_DIRTY > 0)) && echo " with uncommitted changes in $GIT_DIRTY file(s) under src/ or Cargo.*") |"
  echo "| hyperfine | $HYPERFINE_V |"
  echo "| age | $AGE_V |"
  echo "| Priority | $PRIORITY |"
  echo "| Quiet machine? | $QUIET |"
  echo "| Load average | $LOAD_START at start, $LOAD_END at end (the harness itself keeps about one CPU busy) |"
  echo ""
  echo "## Summary"
  echo ""
  echo "| measurement | versus | compared with | target | met |"
  echo "|---|---|---|---|---|"
  cat "$SUMMARY"
  echo ""
  echo "Figures are as measured in this one run; nothing is adjusted. A 2-CPU VM is noisy: run-to-run"
  echo "spread in the tables below is part of the result."
  if ((${#DISTURBED[@]})); then
    echo ""
    echo "**Warning:** other work took a share of the CPUs during: $(IFS=';'; echo "${DISTURBED[*]}" | sed 's/;/; /g')."
    echo "Those figures are disturbed by it (see the note at the end of each section)."
  fi
  if (( IDLE_PCT < 90 )); then
    echo ""
    echo "**Warning:** the CPUs were only ${IDLE_PCT}% idle when the harness started (load average"
    echo "$LOAD_START): other work was competing for the $NPROC CPUs, so the figures are disturbed by it."
  fi
  cat "$BODY"
  echo ""
  echo "## Raw samples"
  echo ""
  echo "<details><summary>Every sample behind the medians above</summary>"
  echo ""
  cat "$RAW"
  echo "</details>"
} >"$REPORT"

echo ""
echo "## Summary"
cat "$SUMMARY"
echo ""
echo "Report written to ${REPORT#"$ROOT"/}"

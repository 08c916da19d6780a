#!/usr/bin/env bash
# Instruction counts against wall time, on this machine, with real runs.
#
# One suite of three implementations of a xorshift loop: `base`, `same` (an
# identical copy: every verdict on it is an A/A trial) and `more` (1% more
# rounds: a real 1% change). Each is measured in wall time and in
# instructions (`measure = ["wall", "instructions"]`), and the whole suite
# is run REPEATS times quiet, then REPEATS times with a busy loop on every
# other core (IP_REPEATS for the in-process cells, whose runs take longer). For each condition the script reports:
#   - the spread of each cell's median over the repeats (max − min over the
#     median of medians), in wall time and in instructions;
#   - how often `more` was called slower than `base` (the 1% found), and
#     how often `same` was called different (A/A), in each metric;
#   - the time a run took.
# MODES: `process` (the loop in C as a command: Cachegrind counts the
# process) and `inprocess` (the loop in a Go worker, bench/aa-spin, the
# extra 1% through AA_PERCENT=101: Callgrind counts each batch).
# Then the slow-down factor of running under valgrind, per language, for the
# same loop as a process (CPU time under Cachegrind over CPU time without).
# Writes docs/results/instructions.md.
#
#   bash bench/instructions.sh                          # defaults below
#   REPEATS=5 MODES=process LANGUAGES="c python" bash bench/instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
MODES="${MODES:-process inprocess}"
REPEATS="${REPEATS:-10}"
IP_REPEATS="${IP_REPEATS:-3}"
RUNS="${RUNS:-10}"
COUNTED="${COUNTED:-6}"
CONDITIONS="${CONDITIONS:-quiet loaded}"
LANGUAGES="${LANGUAGES:-c python node go java}"
OUT="${OUT:-docs/results/instructions.md}"
versus="${VERSUS:-}"
if [[ -z "$versus" ]]; then
  cargo build --quiet
  versus="$PWD/target/debug/versus"
fi
commit="$(git rev-parse --short HEAD)"
began=$(date +%s)
command -v valgrind > /dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
tmp="$(mktemp -d)"
busy=()
stop_busy() { for p in "${busy[@]}"; do kill "$p" 2>/dev/null || true; done; busy=(); }
trap 'stop_busy; rm -rf "$tmp"' EXIT
root="$PWD"

gcc -O2 -o "$tmp/spin" bench/spin.c
for i in base same more; do cp "$tmp/spin" "$tmp/spin-$i"; done
if [[ " $MODES " == *" inprocess "* ]]; then
  (cd bench/aa-spin && GOFLAGS=-mod=mod go build -o "$tmp/aa-spin" .)
fi

suite() { # mode → suite file
  local f="$tmp/suite-$1.toml"
  {
    printf 'name = "instructions against wall time (%s)"\nbaseline = "base"\n' "$1"
    printf '[settings]\nruns = %s\nwarmup = 1\ncounted_runs = %s\n' "$RUNS" "$COUNTED"
    printf 'measure = ["wall", "instructions"]\ncounter = "valgrind"\n'
    printf '[operations.spin]\noutput = "none"\n'
    if [[ "$1" == process ]]; then
      printf '[matrix]\nwork = [5000000]\n'
      printf '[implementations.base]\nrun.spin = "%s/spin-base {work}"\n' "$tmp"
      printf '[implementations.same]\nrun.spin = "%s/spin-same {work}"\n' "$tmp"
      printf '[implementations.more]\nrun.spin = "%s/spin-more {work} 101"\n' "$tmp"
    else
      printf '[matrix]\nwork = [250000]\n'
      printf '[implementations.base]\nworker = "%s/aa-spin"\n' "$tmp"
      printf '[implementations.same]\nworker = "%s/aa-spin"\nenv = { AA_PERCENT = "100" }\n' "$tmp"
      printf '[implementations.more]\nworker = "%s/aa-spin"\nenv = { AA_PERCENT = "101" }\n' "$tmp"
    fi
  } > "$f"
  echo "$f"
}

# One line per repeat and cell: "cell wall_median instr_median wall_verdict instr_verdict".
record() { # results.json → lines on stdout
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def verdicts(cs):
    return {c["implementation"]: c["verdict"] for c in cs}
wall = verdicts(r.get("comparisons", []))
instr = verdicts((r.get("metrics") or {}).get("instructions", {}).get("comparisons", []))
for c in r["cells"]:
    s = c.get("stats") or {}
    i = (s.get("instructions") or {}).get("median")
    name = c["implementation"]
    print(name, s.get("median_ns"), i, wall.get(name, "none"), instr.get(name, "none"))
PY
}

summarise() { # records-file → markdown rows (one per metric)
  python3 - "$1" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
def spread(xs):
    xs = sorted(float(x) for x in xs if x != "None")
    if not xs: return "—"
    med = xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs)//2 - 1] + xs[len(xs)//2]) / 2
    return f"{(xs[-1] - xs[0]) / med * 100:.3g}%"
for metric, col, vcol in (("wall time", 1, 3), ("instructions", 2, 4)):
    cell = lambda n: [r for r in rows if r[0] == n]
    spreads = ", ".join(f"{n} {spread([r[col] for r in cell(n)])}" for n in ("base", "same", "more"))
    more = cell("more"); same = cell("same")
    found = sum(1 for r in more if r[vcol] == "slower")
    aa = sum(1 for r in same if r[vcol] in ("slower", "faster"))
    print(f"{metric} | {spreads} | **{found} of {len(more)}** | {aa} of {len(same)}")
PY
}

rows=()
for mode in $MODES; do
  s=$(suite "$mode")
  for condition in $CONDITIONS; do
    echo "$mode, $condition" >&2
    if [[ "$condition" == loaded ]]; then
      for _ in $(seq 2 "$(nproc)"); do (while :; do :; done) & busy+=($!); done
    fi
    records="$tmp/records-$mode-$condition"
    : > "$records"
    load_start=$(cut -d' ' -f1 /proc/loadavg)
    start=$(date +%s.%N)
    repeats=$REPEATS; [[ "$mode" == inprocess ]] && repeats=$IP_REPEATS
    for i in $(seq 1 "$repeats"); do
      dir="$tmp/r-$mode-$condition-$i"
      "$versus" run -q --no-history "$s" --out "$dir" > /dev/null 2>> "$tmp/stderr.log" || true
      if [[ -f "$dir/results.json" ]]; then
        record "$dir/results.json" >> "$records"
      else
        echo "run $i of $mode, $condition wrote no results: $(tail -n 2 "$tmp/stderr.log" | tr '\n' ' ')" >&2
      fi
    done
    per_run=$(python3 -c "import time; print(f'{(time.time() - $start) / $repeats:.1f}')")
    load_end=$(cut -d' ' -f1 /proc/loadavg)
    stop_busy
    while IFS= read -r line; do
      rows+=("| $mode | $condition | $load_start → $load_end | $line | $per_run s |")
    done < <(summarise "$records")
  done
done

# The slow-down factor: CPU time (user + sys, children) of one run under
# Cachegrind over the median of three without, and the count.
cat > "$tmp/spin.py" <<'PY'
import sys
n, x, m = int(sys.argv[1]), 88172645463325252, (1 << 64) - 1
for _ in range(n):
    x ^= (x << 13) & m; x ^= x >> 7; x ^= (x << 17) & m
print(x)
PY
cat > "$tmp/spin.js" <<'JS'
let n = BigInt(process.argv[2]), x = 88172645463325252n, m = (1n << 64n) - 1n;
for (let i = 0n; i < n; i++) { x ^= (x << 13n) & m; x ^= x >> 7n; x ^= (x << 17n) & m; }
console.log(x.toString());
JS
mkdir -p "$tmp/gospin" "$tmp/java"
cat > "$tmp/gospin/main.go" <<'GO'
package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	n, _ := strconv.ParseUint(os.Args[1], 10, 64)
	x := uint64(88172645463325252)
	for i := uint64(0); i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	fmt.Println(x)
}
GO
cat > "$tmp/java/Spin.java" <<'JAVA'
public class Spin {
  public static void main(String[] a) {
    long n = Long.parseLong(a[0]), x = 88172645463325252L;
    for (long i = 0; i < n; i++) { x ^= x << 13; x ^= x >>> 7; x ^= x << 17; }
    System.out.println(Long.toUnsignedString(x));
  }
}
JAVA
slowdown() { # language rounds command... → a markdown row
  local lang="$1" rounds="$2"; shift 2
  python3 - "$tmp/sd" "$lang" "$rounds" "$@" <<'PY'
import glob, os, resource, subprocess, sys, time
scratch, lang, rounds, cmd = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def cpu(argv, timeout):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.time()
    p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout,
                       env=dict(os.environ, PYTHONHASHSEED="0", GODEBUG="asyncpreemptoff=1"))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return p.returncode, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, time.time() - t
native = sorted(cpu(cmd, 120)[1] for _ in range(3))[1]
os.makedirs(scratch, exist_ok=True)
for f in glob.glob(scratch + "/*"): os.remove(f)
vg = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=no", "--trace-children=yes",
      f"--cachegrind-out-file={scratch}/count.%p", f"--log-file={scratch}/log.%p"]
try:
    code, counted, wall = cpu(vg + cmd, 300)
except subprocess.TimeoutExpired:
    print(f"| {lang} | {rounds} | {native:.3f} s | did not finish in 300 s | — | — |"); sys.exit()
total = 0
for f in glob.glob(scratch + "/count.*"):
    for line in open(f):
        if line.startswith("summary:"): total += int(line.split()[1])
runs = "runs" if code == 0 else f"exit {code}"
print(f"| {lang} | {rounds} | {native:.3f} s | {counted:.2f} s ({runs}) | {counted / native:.0f}× | {total / 1e6:.1f} M |")
PY
}
sd_rows=()
load_sd=$(cut -d' ' -f1 /proc/loadavg)
for lang in $LANGUAGES; do
  echo "slow-down: $lang" >&2
  case "$lang" in
    c) sd_rows+=("$(slowdown C 5000000 "$tmp/spin" 5000000)") ;;
    python) sd_rows+=("$(slowdown "Python $(python3 -c 'import sys; print(sys.version.split()[0])')" 200000 python3 "$tmp/spin.py" 200000)") ;;
    node) sd_rows+=("$(slowdown "Node $(node --version)" 200000 node "$tmp/spin.js" 200000)") ;;
    go) (cd "$tmp/gospin" && go mod init gospin > /dev/null 2>&1 && go build -o "$tmp/gospin/spin" .)
        sd_rows+=("$(slowdown "Go $(go env GOVERSION)" 5000000 "$tmp/gospin/spin" 5000000)") ;;
    java) (cd "$tmp/java" && javac Spin.java)
          sd_rows+=("$(slowdown "Java $(java -version 2>&1 | head -1 | cut -d'"' -f2)" 5000000 java -cp "$tmp/java" Spin 5000000)") ;;
  esac
done

took=$(( $(date +%s) - began ))
{
  echo "# Instruction counts against wall time"
  echo
  echo "Generated by \`bash bench/instructions.sh\` (MODES=\"$MODES\" REPEATS=$REPEATS IP_REPEATS=$IP_REPEATS RUNS=$RUNS COUNTED=$COUNTED LANGUAGES=\"$LANGUAGES\") on $(date -u '+%Y-%m-%d %H:%M UTC'); do not edit by hand."
  echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, no hardware performance counters (\`perf stat -e instructions\` counts nothing). $(valgrind --version). versus: $("$versus" --version) at commit $commit. The script took $((took / 60)) min $((took % 60)) s."
  echo "The machine is shared: other builds and tests ran beside these runs, so *quiet* means no busy loop of ours, not an idle machine; the load averages are in the table."
  echo
  echo "The suite: three implementations of a xorshift64 loop, \`base\`, \`same\` (an identical copy: A/A) and \`more\` (1% more rounds). *process*: a C command at 5 million rounds (about 5 ms, 60 M instructions); *inprocess*: the same loop in a Go worker (bench/aa-spin) at 250 000 rounds per call. $RUNS timed runs and $COUNTED counted runs per cell (\`measure = [\"wall\", \"instructions\"]\`, \`counter = \"valgrind\"\`: Cachegrind for the process, Callgrind read between batches for the worker), 1 warm-up. The suite is run $REPEATS times per condition ($IP_REPEATS for *inprocess*); *loaded*: a busy loop on every other core throughout."
  echo
  echo "*Spread*: over the runs, each cell's largest median less its smallest, over the median of its medians. *1% found*: runs in which \`more\` was called slower than \`base\` in that metric. *A/A called different*: runs in which \`same\` was called slower or faster than \`base\`."
  echo
  echo "| cells | machine | load (1 min, start → end) | metric | spread of the median over the runs | 1% found | A/A called different | time per run |"
  echo "|---|---|---|---|---|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "## Slow-down under valgrind, per language"
  echo
  echo "The same loop as a process in each language, CPU time (user + sys) of one run under Cachegrind without cache simulation over the median of three native runs (load average $load_sd at the start). Start-up is included, so a runtime that starts slowly (a JVM, V8) shows a larger factor at few rounds; the JVM's JIT compiles on background threads whose instructions are counted too."
  echo
  echo "| language | rounds | native CPU | under valgrind | slow-down | instructions counted |"
  echo "|---|---:|---:|---:|---:|---:|"
  printf '%s\n' "${sd_rows[@]}"
} > "$OUT"
echo "wrote $OUT" >&2

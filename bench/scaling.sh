#!/usr/bin/env bash
# The harness's own cost as a suite grows (issue: "linear in the size of a
# suite, payloads at disk speed, memory no more than hyperfine's"). Writes
# docs/results/scaling.md. Three measurements, every figure a measured one:
#   1. per-cell cost of `versus run` for a matrix of V values x 3
#      implementations of `true` (runs 3, warm-up 1), V = 10, 100, 1000:
#      whole-run wall time / cells, in alternating rounds;
#   2. a 1 GiB payload: versus generating it (fresh cache each time) against
#      `dd` of zeros (buffered, and with oflag=direct) and `head -c` of
#      /dev/urandom of the same size, in rotated rounds;
#   3. peak resident memory of 100,000 runs of `true`: versus exec -N
#      against hyperfine -N, in the same session; versus both with
#      --no-history and on the default path (history on: recorded in a new
#      store, then again with the change since that first run).
#
#   bash bench/scaling.sh                 # builds versus (release) first
#   VERSUS=target/release/versus ROUNDS=5 bash bench/scaling.sh
#   SECTIONS=3 OUT=docs/results/scaling-memory.md bash bench/scaling.sh   # one section
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPORT="${OUT:-$ROOT/docs/results/scaling.md}"
SECTIONS="${SECTIONS:-1 2 3}"
section() { [[ " $SECTIONS " == *" $1 "* ]]; }
ROUNDS=${ROUNDS:-5}
SETTLE=${SETTLE:-5}   # seconds idle before each timed 1 GiB write (see section 2)
RUNS_100K=${RUNS_100K:-100000}
command -v hyperfine >/dev/null || { apt-get install -y hyperfine >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y hyperfine >/dev/null; }; }
if [[ -z "${VERSUS:-}" ]]; then
  (cd "$ROOT" && cargo build --release --locked --quiet)
  VERSUS="$ROOT/target/release/versus"
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
range() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s–%s", lo, hi }'; }

out() { echo "$*" >> "$REPORT"; }
: > "$REPORT"
out "# The harness's own cost"
out
out "Made by \`bash bench/scaling.sh\` (ROUNDS=$ROUNDS SECTIONS=\"$SECTIONS\") on $(date -u +%Y-%m-%dT%H:%MZ): $(nproc) cores, $(awk '/model name/ { sub(/.*: /, ""); print; exit }' /proc/cpuinfo), load $(cut -d' ' -f1 /proc/loadavg) at the start; $("$VERSUS" --version), $(hyperfine --version)."
out

# --- 1. per-cell cost ---------------------------------------------------------
if section 1; then
suite() { # suite FILE V
  {
    echo '[settings]'; echo 'runs = 3'; echo 'warmup = 1'
    echo '[matrix]'; printf 'v = ['; seq -s, 1 "$2" | tr -d '\n'; echo ']'
    echo '[operations.noop]'; echo 'output = "none"'
    for i in a b c; do echo "[implementations.$i]"; echo 'run.noop = "true"'; done
  } > "$1"
}
declare -A per_cell
for v in 10 100 1000; do suite "$WORK/v$v.toml" "$v"; done
for r in $(seq "$ROUNDS"); do
  for v in 10 100 1000; do
    t0=$(now)
    "$VERSUS" run "$WORK/v$v.toml" --out "$WORK/out-v$v" -q --no-history > /dev/null
    t1=$(now)
    per_cell[$v]+="$(awk -v t="$(elapsed "$t0" "$t1")" -v c=$((v * 3)) 'BEGIN { printf "%.3f", t / c * 1000 }') "
  done
done
out "## 1. Per-cell cost as the suite grows"
out
out "A matrix of V values × 3 implementations of \`true\` (runs 3, warm-up 1: 12 runs per group), \`versus run --no-history -q\`, whole-run wall time divided by the number of cells; $ROUNDS rounds, V alternating within each round."
out
out "| V | cells | ms per cell, median | range |"
out "|---:|---:|---:|---|"
for v in 10 100 1000; do
  m=$(echo "${per_cell[$v]}" | tr ' ' '\n' | grep . | median)
  out "| $v | $((v * 3)) | $m | $(echo "${per_cell[$v]}" | tr ' ' '\n' | grep . | range) |"
  eval "m$v=$m"
done
ratio=$(awk -v a="$m1000" -v b="$m10" 'BEGIN { printf "%.2f", a / b }')
out
out "Per-cell cost at V = 1000 over V = 10: **${ratio}×** (target: within 1.3×)."
out

fi

# --- 2. payload ------------------------------------------------------------------
if section 2; then
printf '[payload]\nsize = "1GiB"\nseed = 1\n[operations.noop]\noutput = "none"\n[implementations.t]\nrun.noop = "true"\n' > "$WORK/big.toml"
declare -A pay
write_1g() { # write_1g versus|dd|dd-direct|head: one timed 1 GiB write, its file deleted after
  case $1 in
    versus) rm -rf "$WORK/cache"; t0=$(now); VERSUS_CACHE_DIR="$WORK/cache" "$VERSUS" run "$WORK/big.toml" --runs 1 --warmup 0 --out "$WORK/out-big" -q --no-history > /dev/null; t1=$(now); rm -rf "$WORK/cache" ;;
    dd) t0=$(now); dd if=/dev/zero of="$WORK/zero.bin" bs=4M count=256 status=none; t1=$(now); rm -f "$WORK/zero.bin" ;;
    dd-direct) t0=$(now); dd if=/dev/zero of="$WORK/zero.bin" bs=4M count=256 oflag=direct status=none; t1=$(now); rm -f "$WORK/zero.bin" ;;
    head) t0=$(now); head -c 1073741824 /dev/urandom > "$WORK/rand.bin"; t1=$(now); rm -f "$WORK/rand.bin" ;;
  esac
  pay[$1]+="$(elapsed "$t0" "$t1") "
}
order=(versus dd dd-direct head)
for r in $(seq "$ROUNDS"); do
  for i in 0 1 2 3; do
    # Rotated each round, and after a pause: on this VM a 1 GiB file just
    # deleted hands its memory back to the host a moment later, and writing
    # into memory that came back costs several times more; the pause puts
    # every write in the same state, and rotation spreads what is left.
    sleep "$SETTLE"
    write_1g "${order[$(( (i + r) % 4 ))]}"
  done
done
out "## 2. A 1 GiB payload"
out
out "versus generating a 1 GiB payload into an empty cache (the whole \`versus run\` of a one-run suite, so its start-up is included) against \`dd if=/dev/zero bs=4M count=256\` (the buffered write path, nothing generated), the same with \`oflag=direct\` (the direct write path versus uses where the filesystem allows it) and \`head -c 1073741824 /dev/urandom\`, the four in an order rotated each of $ROUNDS rounds, each after ${SETTLE} s idle. Seconds."
out
out "| command | median | range |"
out "|---|---:|---|"
for k in versus dd dd-direct head; do
  out "| $k | $(echo "${pay[$k]}" | tr ' ' '\n' | grep . | median) | $(echo "${pay[$k]}" | tr ' ' '\n' | grep . | range) |"
done
pv=$(echo "${pay[versus]}" | tr ' ' '\n' | grep . | median); pd=$(echo "${pay[dd]}" | tr ' ' '\n' | grep . | median); pdd=$(echo "${pay[dd-direct]}" | tr ' ' '\n' | grep . | median); ph=$(echo "${pay[head]}" | tr ' ' '\n' | grep . | median)
out
out "versus / dd: **$(awk -v a="$pv" -v b="$pd" 'BEGIN { printf "%.2f", a / b }')×**, versus / dd-direct: **$(awk -v a="$pv" -v b="$pdd" 'BEGIN { printf "%.2f", a / b }')×** (target: within 1.5×); head / versus: **$(awk -v a="$ph" -v b="$pv" 'BEGIN { printf "%.2f", a / b }')×** (target: at least 3×)."
out

fi

# --- 3. memory -------------------------------------------------------------------
if section 3; then
rss() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1; }
# held CMD...: "PEAK FILE" in KiB: the process's peak resident memory
# (VmHWM) and its file pages then (RssFile: its executable and libraries),
# written at its exit by bench/peek/peek.c, preloaded (for that process
# only, not its children).
cc -shared -fPIC -O2 -o "$WORK/peek.so" "$ROOT/bench/peek/peek.c"
held() {
  rm -f "$WORK/peek.out"
  PEEK_OUT="$WORK/peek.out" sh -c 'PEEK_PID=$$ exec env LD_PRELOAD="$0" "$@"' "$WORK/peek.so" "$@" > /dev/null 2>&1 || true
  cat "$WORK/peek.out" 2>/dev/null
}
declare -A mem peak file
# The default path records into the user's data folder (this folder is in
# no git work tree): a new one, so "history on" starts from an empty store.
export XDG_DATA_HOME="$WORK/data"
mkdir -p "$WORK/history"
held_into() { # held_into KEY N CMD...: held's figures into peak[KEY-N] and file[KEY-N]
  local key=$1 n=$2; shift 2
  read -r "peak[$key-$n]" "file[$key-$n]" <<< "$(held "$@")"
}
measure() { # measure KEY N CMD...: %M of one run; VmHWM and RssFile of another
  local key=$1 n=$2; shift 2
  mem[$key-$n]=$(rss "$@")
  held_into "$key" "$n" "$@"
}
for n in 1 "$RUNS_100K"; do
  measure versus "$n" "$VERSUS" exec -N --runs "$n" --warmup 0 -q --no-history true
  measure hyperfine "$n" hyperfine -N --runs "$n" --warmup 0 --style none true
  # The default path: first into a new store, then (twice: the peek run
  # records too) with the change since the run before.
  rm -rf "$WORK/data"
  cd "$WORK/history"
  mem[history-$n]=$(rss "$VERSUS" exec -N --runs "$n" --warmup 0 -q true)
  rm -rf "$WORK/data"
  held_into history "$n" "$VERSUS" exec -N --runs "$n" --warmup 0 -q true
  measure since "$n" "$VERSUS" exec -N --runs "$n" --warmup 0 -q true
  cd "$ROOT"
done
out "## 3. Peak memory at $RUNS_100K runs"
out
out "Peak resident memory (GNU time's %M, KiB) of \`versus exec -N --runs N --warmup 0 -q --no-history true\` and \`hyperfine -N --runs N --warmup 0 --style none true\`, one after the other, at N = 1 and N = $RUNS_100K; what the runs cost is the difference. *versus, history on* is the default path (no \`--no-history\`): the run recorded in a new store (\`XDG_DATA_HOME\` set to an empty folder: \`versus exec\` outside a git work tree keeps its runs in the user's data folder); *versus, history + since* the same command again, which also compares with the run before."
out
out "| tool | peak RSS, 1 run | peak RSS, $RUNS_100K runs | cost of the runs | bytes per run |"
out "|---|---:|---:|---:|---:|"
declare -A label=([versus]="versus --no-history" [history]="versus, history on" [since]="versus, history + since" [hyperfine]="hyperfine")
for t in versus history since hyperfine; do
  a=${mem[$t-1]} b=${mem[$t-$RUNS_100K]}
  out "| ${label[$t]} | $a | $b | $(( b - a )) | $(awk -v d=$(( b - a )) -v n="$RUNS_100K" 'BEGIN { printf "%.1f", d * 1024 / n }') |"
done
vm=${mem[versus-$RUNS_100K]} hm=${mem[hyperfine-$RUNS_100K]}
vc=$(( vm - mem[versus-1] )) hc=$(( hm - mem[hyperfine-1] ))
out
out "versus / hyperfine at $RUNS_100K runs: **$(awk -v a="$vm" -v b="$hm" 'BEGIN { printf "%.2f", a / b }')×** in peak RSS (target: at most 1×), **$(awk -v a="$vc" -v b="$hc" 'BEGIN { printf "%.2f", a / b }')×** in what the runs cost; on the default path (history on) **$(awk -v a="${mem[history-$RUNS_100K]}" -v b="$hm" 'BEGIN { printf "%.2f", a / b }')×**, and **$(awk -v a="${mem[since-$RUNS_100K]}" -v b="$hm" 'BEGIN { printf "%.2f", a / b }')×** with the change since an earlier run."
out
out "### What the peak is made of"
out
out "Resident memory counts the pages of a tool's executable and shared libraries that are mapped in: file pages, shared with the page cache and with every other process running the same file, which the kernel can drop and read again. The same commands again, each with a small library preloaded (bench/peek/peek.c) that reads /proc/self/status as the tool exits: the process's peak (VmHWM; GNU time's figure above also counts its children) and its file pages then (RssFile). File pages only grow over a run, so *peak less file pages* is at most the memory the tool held at its peak (its heap, stacks and written data)."
out
out "| tool | runs | peak (VmHWM) | file pages at exit | peak less file pages |"
out "|---|---:|---:|---:|---:|"
for t in versus history since hyperfine; do
  for n in 1 "$RUNS_100K"; do
    out "| ${label[$t]} | $n | ${peak[$t-$n]} | ${file[$t-$n]} | $(( peak[$t-$n] - file[$t-$n] )) |"
  done
done
h=$(( peak[hyperfine-$RUNS_100K] - file[hyperfine-$RUNS_100K] ))
out
out "Peak less file pages at $RUNS_100K runs, versus / hyperfine: **$(awk -v a=$(( peak[versus-$RUNS_100K] - file[versus-$RUNS_100K] )) -v b="$h" 'BEGIN { printf "%.2f", a / b }')×** with --no-history, **$(awk -v a=$(( peak[history-$RUNS_100K] - file[history-$RUNS_100K] )) -v b="$h" 'BEGIN { printf "%.2f", a / b }')×** on the default path, **$(awk -v a=$(( peak[since-$RUNS_100K] - file[since-$RUNS_100K] )) -v b="$h" 'BEGIN { printf "%.2f", a / b }')×** with the change since; file pages at exit $(( file[history-$RUNS_100K] )) KiB for versus on the default path against ${file[hyperfine-$RUNS_100K]} KiB for hyperfine."
fi
cat "$REPORT"

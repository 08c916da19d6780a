#!/usr/bin/env bash
# versus import and the exports against the real tools, installed here from
# their package registries: hyperfine and Google Benchmark (Debian), pyperf
# and pytest-benchmark (PyPI), benchstat (Go module proxy), criterion
# (crates), JMH (Maven Central), zod (npm, the schema library
# github-action-benchmark checks its input with). Each tool writes results
# from the small projects in tests/formats/, versus imports them, and the
# figures are compared with the tool's own; versus's exports go back to the
# tools that read them (pyperf stats and compare_to, benchstat, hyperfine's
# readers), round trips where there is one.
#
# Downloads start at once, in parallel; nothing is cached between runs.
# VERSUS names the binary (default: target/debug/versus, built here).
# FORMATS_REFRESH=1 also writes the tools' files to tests/fixtures/formats/.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
check="python3 $root/scripts/ci/formats_check.py"
start=$SECONDS

if [[ -z "${VERSUS:-}" ]]; then
  cargo build --locked --quiet
  VERSUS="$root/target/debug/versus"
fi
work=$(mktemp -d)
jobs_=()
cleanup() { for p in "${jobs_[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

pass=0
fail=0
ok() { pass=$((pass + 1)); printf 'ok    %s\n' "$1"; }
bad() { fail=$((fail + 1)); printf 'FAIL  %s\n%s\n' "$1" "$2"; }
# try NAME CMD...: runs CMD, ok when it exits 0, else FAIL with its output.
try() {
  local name=$1; shift
  if "$@" >"$work/out" 2>&1; then ok "$name: $(tail -1 "$work/out")"; else bad "$name" "$(tail -20 "$work/out")"; fi
}
vs() { "$VERSUS" "$@" --no-history; }

# --- installs, in parallel ----------------------------------------------------
sudo_=""; [[ $(id -u) -ne 0 ]] && sudo_="sudo"
log="$work/install"; mkdir -p "$log"
(
  need=()
  command -v hyperfine >/dev/null || need+=(hyperfine)
  [[ -e /usr/include/benchmark/benchmark.h ]] || need+=(libbenchmark-dev)
  command -v g++ >/dev/null || need+=(g++)
  if ((${#need[@]})); then $sudo_ apt-get update -qq && $sudo_ apt-get install -y -qq "${need[@]}" >/dev/null; fi
) >"$log/apt" 2>&1 & jobs_+=($!); apt_pid=$!
(python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q --disable-pip-version-check pyperf pytest-benchmark) >"$log/pip" 2>&1 & jobs_+=($!); pip_pid=$!
(cd "$work" && GOBIN="$work/bin" GOFLAGS=-modcacherw go install golang.org/x/perf/cmd/benchstat@latest) >"$log/go" 2>&1 & jobs_+=($!); go_pid=$!
(mkdir -p "$work/jmh" && cp "$root/tests/formats/jmh/pom.xml" "$work/jmh/" && cd "$work/jmh" &&
  mvn -B -q -ntp dependency:copy-dependencies -DoutputDirectory=lib) >"$log/mvn" 2>&1 & jobs_+=($!); mvn_pid=$!
(mkdir -p "$work/zod" && cd "$work/zod" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund zod@4) >"$log/npm" 2>&1 & jobs_+=($!); npm_pid=$!
# criterion compiles for most of a minute: it starts now, beside the downloads.
cp -r "$root/tests/formats/criterion" "$work/criterion"
(cd "$work/criterion" && CARGO_TARGET_DIR="$work/criterion/target" cargo bench --locked --bench sum -- --noplot) \
  >"$log/criterion" 2>&1 & jobs_+=($!); crit_pid=$!
waitfor() { wait "$1" || { echo "install failed:"; cat "$2"; exit 1; }; }

refresh() { [[ "${FORMATS_REFRESH:-}" == 1 ]] && cp -r "$1" "$root/tests/fixtures/formats/$2" || true; }

# --- hyperfine -------------------------------------------------------------------
waitfor "$apt_pid" "$log/apt"
cmds=(-N -r 5 -w 1 -L t 0.01,0.02 'sleep {t}' 'sleep 0.015')
hyperfine --style none --export-json "$work/hf.json" "${cmds[@]}" >/dev/null 2>&1
vs exec -q --export-json "$work/vs-hf.json" "${cmds[@]}" >/dev/null 2>&1
try "hyperfine: versus exec --export-json against hyperfine $(hyperfine --version | cut -d' ' -f2), key by key" \
  $check hyperfine-shape "$work/hf.json" "$work/vs-hf.json" "$root/tests/fixtures/formats/hyperfine-1.20.json"
vs exec -q -N -r 10 -w 1 --export-json "$work/vs-two.json" 'sleep 0.01' 'sleep 0.012' >/dev/null 2>&1
try "hyperfine: its scripts' reads (statistics, Welch's t, parameters) on versus's export" \
  $check hyperfine-reader "$work/vs-two.json" "$work/vs-hf.json"
vs import "$work/hf.json" --out "$work/hf-in" --hyperfine "$work/hf-back.json" >/dev/null 2>&1
try "hyperfine: round trip (import, then --hyperfine): the same times" $check same-times "$work/hf.json" "$work/hf-back.json"
refresh "$work/hf.json" hyperfine-1.15.json

# --- Google Benchmark ------------------------------------------------------------
g++ -O2 "$root/tests/formats/gbench/bench.cc" -o "$work/gbench" -lbenchmark -lpthread
"$work/gbench" --benchmark_repetitions=3 --benchmark_min_time=0.01 --benchmark_out="$work/gb.json" \
  --benchmark_out_format=json >/dev/null 2>&1
python3 - "$work/gb.json" >"$work/gb-want.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
want = {}
for b in d["benchmarks"]:
    if b.get("aggregate_name") == "median":
        op, _, arg = b["run_name"].partition("/")
        want[f"{op}/cpp/" + (f"arg={arg}" if arg else "")] = b["real_time"] * scale[b["time_unit"]]
print(json.dumps(want))
PY
vs import "$work/gb.json=cpp" --out "$work/gb-in" >/dev/null 2>&1
try "Google Benchmark: imported medians are its own median aggregates" $check medians "$work/gb-in/results.json" "$work/gb-want.json"
refresh "$work/gb.json" google-benchmark.json

# --- pyperf and pytest-benchmark ---------------------------------------------------
waitfor "$pip_pid" "$log/pip"
py="$work/venv/bin/python"
$py -m pyperf timeit -q -p 3 -n 3 -l 1000 -w 1 -o "$work/a.pyperf.json" -s 'x = list(range(100))' 'sorted(x)'  >/dev/null
$py -m pyperf timeit -q -p 3 -n 3 -l 1000 -w 1 -o "$work/b.pyperf.json" -s 'x = list(range(100))' 'sorted(x, reverse=True)' >/dev/null
vs import "$work/a.pyperf.json=py" --out "$work/pa" --pyperf "$work/a.out.json" >/dev/null 2>&1
vs import "$work/b.pyperf.json=py" --out "$work/pb" --pyperf "$work/b.out.json" >/dev/null 2>&1
try "pyperf: stats reads versus's export" $py -m pyperf stats "$work/a.out.json"
try "pyperf: compare_to reads two of versus's exports" $py -m pyperf compare_to "$work/a.out.json" "$work/b.out.json"
$py - "$work/a.pyperf.json" "$work/a.out.json" >"$work/out" 2>&1 <<'PY' && ok "pyperf: round trip (import, then --pyperf): $(cat "$work/out")" || bad "pyperf round trip" "$(cat "$work/out")"
import sys, pyperf
a = pyperf.Benchmark.load(sys.argv[1])
b = pyperf.BenchmarkSuite.load(sys.argv[2]).get_benchmarks()[0]
for what in ("mean", "median", "stdev"):
    x, y = getattr(a, what)(), getattr(b, what)()
    assert abs(x / y - 1) < 1e-6, f"{what}: {x} before, {y} after"
print(f"mean, median and stdev as pyperf read them before ({a.mean():.4g} s)")
PY
$py - "$work/a.pyperf.json" >"$work/py-want.json" <<'PY'
import json, sys, pyperf
b = pyperf.Benchmark.load(sys.argv[1])
print(json.dumps({"timeit/py/": b.median() * 1e9}))
PY
try "pyperf: imported median is pyperf's own" $check medians "$work/pa/results.json" "$work/py-want.json"
mkdir -p "$work/pytest" && cp "$root/tests/formats/pytest/test_hash.py" "$work/pytest/"
(cd "$work/pytest" && $py -m pytest -q -p no:cacheprovider --benchmark-json="$work/pyb.json" \
  --benchmark-min-rounds=5 --benchmark-max-time=0.001 test_hash.py) >"$work/pyb.log" 2>&1
python3 - "$work/pyb.json" >"$work/pyb-want.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = {}
for b in d["benchmarks"]:
    op = b["name"].split("[")[0]
    params = ",".join(f"{k}={v}" for k, v in (b["params"] or {}).items())
    want[f"{op}/py/{params}"] = b["stats"]["median"] * 1e9
print(json.dumps(want))
PY
vs import "$work/pyb.json=py" --out "$work/pyb-in" >/dev/null 2>&1
try "pytest-benchmark: imported medians are its own" $check medians "$work/pyb-in/results.json" "$work/pyb-want.json"
refresh "$work/pyb.json" pytest-benchmark.json
refresh "$work/a.pyperf.json" pyperf.json

# --- go test -bench and benchstat ----------------------------------------------------
waitfor "$go_pid" "$log/go"
(cd "$root/tests/formats/go" && go test -run '^$' -bench . -benchmem -count 3 -benchtime 2000x) >"$work/go.txt"
vs import "$work/go.txt=go" --out "$work/go-in" --go-bench "$work/go.out.txt" >/dev/null 2>&1
"$work/bin/benchstat" -format csv "$work/go.txt" >"$work/go.csv" 2>/dev/null
"$work/bin/benchstat" -format csv "$work/go.out.txt" >"$work/go.out.csv" 2>/dev/null
python3 - "$work/go.csv" "$work/go.out.csv" >"$work/out" 2>&1 <<'PY' && ok "benchstat: round trip (import, then --go-bench): $(cat "$work/out")" || bad "benchstat round trip" "$(cat "$work/out")"
import csv, re, sys
def medians(path):
    """benchstat's CSV: sections of rows under a ",UNIT,CI" header; the sec/op rows by name."""
    rows, unit = {}, None
    for row in csv.reader(open(path)):
        if len(row) == 3 and row[0] == "" and row[2] == "CI":
            unit = row[1]
        elif unit == "sec/op" and len(row) >= 2 and row[0] not in ("", "geomean"):
            rows[re.sub(r"-\d+$", "", row[0]).replace("/impl=go", "")] = float(row[1])
    return rows
a, b = medians(sys.argv[1]), medians(sys.argv[2])
assert a and a.keys() == b.keys(), f"{sorted(a)} vs {sorted(b)}"
for k in a:
    assert abs(a[k] / b[k] - 1) < 1e-6, f"{k}: {a[k]} vs {b[k]}"
print(f"benchstat reads the same sec/op for {len(a)} benchmarks")
PY
try "benchstat: compares implementations by /impl" "$work/bin/benchstat" -col /impl "$work/go.out.txt"
refresh "$work/go.txt" go-bench.txt

# --- JMH --------------------------------------------------------------------------------
waitfor "$mvn_pid" "$log/mvn"
mkdir -p "$work/jmh/classes"
javac -cp "$work/jmh/lib/*" -d "$work/jmh/classes" "$root/tests/formats/jmh/bench/HashBench.java"
java -cp "$work/jmh/classes:$work/jmh/lib/*" org.openjdk.jmh.Main -f 1 -wi 1 -i 3 -w 100ms -r 100ms \
  -rf json -rff "$work/jmh.json" HashBench >"$work/jmh.log" 2>&1
python3 - "$work/jmh.json" >"$work/jmh-want.json" <<'PY'
import json, statistics, sys
want = {}
for b in json.load(open(sys.argv[1])):
    op = ".".join(b["benchmark"].split(".")[-2:])
    raw = [x for fork in b["primaryMetric"]["rawData"] for x in fork]
    want[f"{op}/java/size={b['params']['size']}"] = statistics.median(raw)  # ns/op
print(json.dumps(want))
PY
vs import "$work/jmh.json=java" --out "$work/jmh-in" >/dev/null 2>&1
try "JMH: imported medians are the median of its iteration scores" $check medians "$work/jmh-in/results.json" "$work/jmh-want.json"
refresh "$work/jmh.json" jmh.json

# --- criterion ----------------------------------------------------------------------------
waitfor "$crit_pid" "$log/criterion"
python3 - "$work/criterion/target/criterion" >"$work/crit-want.json" <<'PY'
import json, pathlib, sys
want = {}
for est in pathlib.Path(sys.argv[1]).glob("**/new/estimates.json"):
    b = json.load(open(est.parent / "benchmark.json"))
    imp = "rust/" + b["function_id"] if b["function_id"] else "rust"
    params = f"arg={b['value_str']}" if b["value_str"] else ""
    want[f"{b['group_id']}/{imp}/{params}"] = json.load(open(est))["median"]["point_estimate"]
print(json.dumps(want))
PY
vs import "$work/criterion/target/criterion=rust" --out "$work/crit-in" >/dev/null 2>&1
try "criterion: imported medians are its own median estimates" $check medians "$work/crit-in/results.json" "$work/crit-want.json"
if [[ "${FORMATS_REFRESH:-}" == 1 ]]; then
  rm -rf "$root/tests/fixtures/formats/criterion"
  (cd "$work/criterion/target/criterion" && find . -path '*/new/*' \( -name benchmark.json -o -name sample.json \) |
    while read -r f; do mkdir -p "$root/tests/fixtures/formats/criterion/$(dirname "$f")"; cp "$f" "$root/tests/fixtures/formats/criterion/$f"; done)
fi

# --- one comparison of several harnesses, and github-action-benchmark ---------------------
vs import "$work/go.txt=go" "$work/criterion/target/criterion=rust" "$work/jmh.json=java" \
  --rename sum=Sha256 --rename HashBench.sha256=Sha256 --rename arg=size \
  --out "$work/all" --github-action "$work/gab.json" >/dev/null 2>&1
try "import: go, rust and java in one comparison, reported" test -s "$work/all/report.html"
waitfor "$npm_pid" "$log/npm"
cat >"$work/zod/check.mjs" <<'JS'
// github-action-benchmark's customSmallerIsBetter input, as its extractor
// validates it: an array of {name, value, unit, range?, extra?}.
import { readFileSync } from "node:fs";
import { z } from "zod";
const Entry = z.object({
  name: z.string(), value: z.number(), unit: z.string(),
  range: z.string().optional(), extra: z.string().optional(),
}).strict();
const entries = z.array(Entry).min(1).parse(JSON.parse(readFileSync(process.argv[2], "utf8")));
console.log(`${entries.length} entries valid`);
JS
try "github-action-benchmark: customSmallerIsBetter input valid (zod)" node "$work/zod/check.mjs" "$work/gab.json"

# --- bad input: a clear message naming the file, exit 1 -------------------------------------
printf 'BenchmarkX-2  100  12 ns/op\nBenchmarkY-2  ten  12 ns/op\n' >"$work/broken.txt"
set +e; "$VERSUS" import --no-history "$work/broken.txt" --out "$work/broken" >/dev/null 2>"$work/err"; code=$?; set -e
if [[ $code == 1 ]] && grep -q "broken.txt: line 2" "$work/err"; then ok "bad input: exit 1, file and line named"
else bad "bad input" "exit $code: $(cat "$work/err")"; fi

printf '\nformats (%ds): %d passed, %d failed\n' "$((SECONDS - start))" "$pass" "$fail"
[[ $fail == 0 ]]

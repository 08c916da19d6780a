"""Checks for scripts/ci/formats.sh: each compares a file versus wrote (or
read) with what the real tool wrote (or reads), and exits non-zero with the
difference. Standard library only, so it runs on any Python 3.

    formats_check.py hyperfine-shape HYPERFINE_JSON VERSUS_JSON HYPERFINE_1_20_JSON
    formats_check.py hyperfine-reader FILE [PARAMETRISED_FILE]
    formats_check.py medians RESULTS_JSON EXPECTED_JSON
    formats_check.py same-times HYPERFINE_JSON VERSUS_HYPERFINE_JSON
    formats_check.py github-action FILE
"""

import json
import math
import statistics
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    return type(v).__name__


def fail(msg):
    sys.exit(msg)


def hyperfine_shape(hf_path, vs_path, ref_path):
    """Same results, same keys in the same order, same types, same units."""
    hf, vs, ref = load(hf_path)["results"], load(vs_path)["results"], load(ref_path)["results"]
    if list(load(vs_path)) != ["results"]:
        fail(f"top-level keys {list(load(vs_path))}, hyperfine has ['results']")
    if [r["command"] for r in hf] != [r["command"] for r in vs]:
        fail(f"commands {[r['command'] for r in vs]}, hyperfine {[r['command'] for r in hf]}")
    # hyperfine 1.20 (the committed file it wrote) sets the keys and their order;
    # the installed hyperfine may be older and lack memory_usage_byte.
    want = list(ref[0])
    for i, (h, v) in enumerate(zip(hf, vs)):
        if list(v) != want:
            fail(f"results[{i}] keys {list(v)}, hyperfine 1.20 writes {want}")
        for k in h:
            if kind(h[k]) != kind(v[k]):
                fail(f"results[{i}].{k}: {kind(v[k])}, hyperfine {kind(h[k])}")
            if isinstance(h[k], list) and h[k] and kind(h[k][0]) != kind(v[k][0]):
                fail(f"results[{i}].{k}[0]: {kind(v[k][0])}, hyperfine {kind(h[k][0])}")
        if h.get("parameters") != v.get("parameters"):
            fail(f"results[{i}].parameters {v.get('parameters')}, hyperfine {h.get('parameters')}")
        if len(v["times"]) != len(h["times"]) or len(v["exit_codes"]) != len(v["times"]):
            fail(f"results[{i}]: {len(v['times'])} times, hyperfine {len(h['times'])}")
        if "memory_usage_byte" in v and len(v["memory_usage_byte"]) != len(v["times"]):
            fail(f"results[{i}]: memory_usage_byte is not one figure per run")
        # Units: both in seconds. The commands sleep 10-20 ms; each tool's median is
        # within 10x of the other's (a unit slip would be 1000x).
        if not (0.1 < v["median"] / h["median"] < 10):
            fail(f"results[{i}].median {v['median']}, hyperfine {h['median']}: not the same unit")
        if not all(isinstance(t, float) and 0.005 < t < 5 for t in v["times"]):
            fail(f"results[{i}].times not in seconds: {v['times'][:3]}")
    print(f"{len(vs)} results, keys {want}")


def hyperfine_reader(path, param_path=None):
    """What hyperfine's scripts/ read, read the same way, in our own words:
    each result's command and times (statistics, Welch's t, histograms,
    whiskers), its median, and mean/stddev against a parameter."""
    results = load(path)["results"]
    for r in results:
        times = r["times"]
        summary = (statistics.mean(times), statistics.stdev(times), statistics.median(times))
        quartiles = statistics.quantiles(times, n=4)
        if not all(math.isfinite(x) for x in summary + tuple(quartiles)):
            fail(f"{r['command']}: not finite")
        if abs(summary[2] - r["median"]) > 1e-9:
            fail(f"{r['command']}: median {r['median']} is not the median of times")
    a, b = results[0]["times"], results[1]["times"]
    va, vb = statistics.variance(a), statistics.variance(b)
    t = (statistics.mean(a) - statistics.mean(b)) / math.sqrt(va / len(a) + vb / len(b))
    print(f"{len(results)} results; Welch's t of the first two: {t:.3f}")
    if param_path:
        for r in load(param_path)["results"]:
            name = next(iter(r.get("parameters", {})), None)
            if name is None:
                fail(f"{r['command']}: no parameters")
            float(r["parameters"][name])
            float(r["mean"]), float(r["stddev"])


def medians(results_path, expected_path):
    """Each cell's median per call (ns) in a versus results.json against the
    figure the harness gives: EXPECTED_JSON maps cell id to nanoseconds."""
    cells = {c["id"]: c for c in load(results_path)["cells"]}
    expected = load(expected_path)
    if not expected:
        fail("nothing to compare")
    for cid, want in expected.items():
        if cid not in cells:
            fail(f"no cell {cid} (cells: {sorted(cells)})")
        got = cells[cid]["stats"]["median_ns"]
        # results.json keeps times in whole nanoseconds: a harness's 270.997 ns
        # reads back as 271 ns, so half a nanosecond is the resolution.
        if abs(got - want) > max(1e-6 * want, 0.5):
            fail(f"{cid}: median {got} ns, the harness says {want} ns")
    print(f"{len(expected)} medians equal to the harness's own")


def same_times(original_path, exported_path):
    """Round trip: hyperfine's file imported, then exported as hyperfine's JSON again."""
    a, b = load(original_path)["results"], load(exported_path)["results"]
    if len(a) != len(b):
        fail(f"{len(b)} results back, {len(a)} in")
    for x, y in zip(a, b):
        if len(x["times"]) != len(y["times"]) or any(abs(s - t) > 1e-9 for s, t in zip(x["times"], y["times"])):
            fail(f"{x['command']}: times changed on the way")
        if x.get("parameters") != y.get("parameters") or x["command"] != y["command"]:
            fail(f"{x['command']}: now {y['command']} {y.get('parameters')}")
    print(f"{len(a)} results, every time and name as it was")


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {
        "hyperfine-shape": hyperfine_shape,
        "hyperfine-reader": hyperfine_reader,
        "medians": medians,
        "same-times": same_times,
    }[cmd](*args)


if __name__ == "__main__":
    main()

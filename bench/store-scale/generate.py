#!/usr/bin/env python3
"""Results documents for bench/store-scale.sh, made from one real run.

    generate.py TEMPLATE_RESULTS_JSON OUT_DIR FIRST LAST TOTAL [LAYOUT]

writes OUT_DIR/run-<i>.json for runs FIRST..LAST (1-based) of a history of
TOTAL runs. Each run is the template with every cell's times (its samples'
wall_ns and user_ns, its warm-up times and every *_ns statistic) scaled by
the cell's level in that run times its noise, and kept to the grain a
measured figure has (GRAIN below): each cell has its own noise
(0.5-3% run to run, log-normal), and one cell in 25 steps to a new level
(x0.85 or x1.2) at a run of its own. Everything is drawn from seeds fixed
per cell and per run, so run i is the same whichever batch makes it, and
the start times go up an hour per run (with GENERATE_COMMITS set, each run
also gets a made-up git commit of its own). The sample counts, outcomes and the
rest of the document stay the template's. Each document is written in the
layout a versus writes, so that a store is given what its own versus would
give it: LAYOUT `versus` (the default) is this versus's (src/results/layout.rs:
an array of numbers on one line), `pretty` the one of versus before it
(serde_json's pretty printer: one number per line).
"""
import copy
import datetime
import hashlib
import os
import json
import math
import random
import sys


def cell_plan(index, total):
    rng = random.Random(1_000_003 * index + 17)
    noise = rng.uniform(0.005, 0.03)
    step_at, ratio = None, 1.0
    if rng.random() < 0.04 and total >= 12:
        step_at = rng.randint(6, total - 1)
        ratio = rng.choice([0.85, 1.2])
    return noise, step_at, ratio


# What a scaled figure keeps of a measured one: CPU times are whole
# microseconds (wait4 reports them so), extremes are whole nanoseconds and
# medians of whole nanoseconds end in .0 or .5; means, spreads and interval
# ends are any float.
GRAIN = {"user_ns": 1000, "sys_ns": 1000, "min_ns": 1, "max_ns": 1, "median_ns": 0.5, "median_user_ns": 500}


def grained(key, v):
    g = GRAIN.get(key)
    return v if g is None else round(v / g) * g


def scale_cell(cell, orig, factor):
    samples = orig["samples"]
    for key in ("wall_ns", "user_ns"):
        if key in samples:
            cell["samples"][key] = [int(grained(key, v * factor)) for v in samples[key]]
    if orig.get("warmup_wall_ns"):
        cell["warmup_wall_ns"] = [int(v * factor) for v in orig["warmup_wall_ns"]]
    if orig.get("stats"):
        for key, v in orig["stats"].items():
            if key.endswith("_ns") and isinstance(v, (int, float)):
                cell["stats"][key] = grained(key, v * factor)


def is_scalar(v):
    return not isinstance(v, (dict, list))


def layout(v, depth=0):
    """`v` as versus lays out JSON: pretty, two-space indent, an array whose
    first element is a scalar on one line."""
    inner = "  " * (depth + 1)
    if isinstance(v, dict):
        if not v:
            return "{}"
        members = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {layout(x, depth + 1)}" for k, x in v.items()]
        return "{\n" + ",\n".join(members) + "\n" + "  " * depth + "}"
    if isinstance(v, list):
        if not v:
            return "[]"
        if is_scalar(v[0]):
            return "[" + ", ".join(layout(x, depth + 1) for x in v) + "]"
        return "[\n" + ",\n".join(inner + layout(x, depth + 1) for x in v) + "\n" + "  " * depth + "]"
    return json.dumps(v, ensure_ascii=False)


def main():
    template, out_dir, first, last, total = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    write = {"versus": layout, "pretty": lambda v: json.dumps(v, indent=2, ensure_ascii=False)}[
        sys.argv[6] if len(sys.argv) > 6 else "versus"
    ]
    with open(template) as f:
        base = json.load(f)
    plans = [cell_plan(i, total) for i in range(len(base["cells"]))]
    originals = copy.deepcopy(base["cells"])
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    for run in range(first, last + 1):
        rng = random.Random(7_919 * run + 3)
        for cell, orig, (noise, step_at, ratio) in zip(base["cells"], originals, plans):
            level = ratio if step_at is not None and run > step_at else 1.0
            scale_cell(cell, orig, level * math.exp(rng.gauss(0.0, noise)))
        t = start + datetime.timedelta(hours=run)
        base["started_at"] = t.strftime("%Y-%m-%dT%H:%M:%SZ")
        base["finished_at"] = (t + datetime.timedelta(seconds=50)).strftime("%Y-%m-%dT%H:%M:%SZ")
        base.pop("since", None)
        if os.environ.get("GENERATE_COMMITS"):
            # A commit of its own per run, for a history a site lists changes of.
            base["suite"]["git"] = {"commit": hashlib.sha1(f"run {run}".encode()).hexdigest(), "dirty": False}
        with open(f"{out_dir}/run-{run}.json", "w") as f:
            f.write(write(base) + "\n")


if __name__ == "__main__":
    main()

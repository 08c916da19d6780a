#!/usr/bin/env python3
"""A hyperfine --export-json file of IMPLS commands over GROUPS parameter
values, RUNS runs each: lognormal noise of 3% around 1 ms per command (the
second command 10% slower), one run in fifty an outlier at twice the time.
Fixed seed: the same file every time. For bench/analysis-scale.sh."""
import json
import random
import sys

impls, groups, runs, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = random.Random(20261201)


def letters(i):
    """a, b, ..., z, ba, bb, ...: names without digits, which hyperfine's
    parameter values (digits) cannot be mistaken for."""
    out = chr(97 + i % 26)
    while i >= 26:
        i //= 26
        out = chr(97 + i % 26) + out
    return out


with open(out, "w") as f:
    f.write('{"results":[')
    first = True
    for g in range(groups):
        for i in range(impls):
            level = 1e-3 * (1.0 + 0.1 * i)
            times = [level * rng.lognormvariate(0.0, 0.03) * (2.0 if rng.random() < 0.02 else 1.0) for _ in range(runs)]
            s = sorted(times)
            entry = {
                "command": f"impl-{letters(i)} --n {g}",
                "mean": sum(times) / runs,
                "stddev": None,
                "median": s[runs // 2],
                "user": level / 2,
                "system": level / 4,
                "min": s[0],
                "max": s[-1],
                "times": times,
                "exit_codes": [0] * runs,
                "parameters": {"n": str(g)},
            }
            f.write(("" if first else ",") + json.dumps(entry))
            first = False
    f.write("]}\n")

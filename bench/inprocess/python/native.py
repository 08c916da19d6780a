"""The native side: pyperf with its default settings (20 worker processes,
1 warm-up and 3 values each, loops calibrated to 100 ms per value) times the
same two functions. pyperf's own options apply, e.g. `-o results.json`.

    .venv/bin/python native.py -o native.json
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyperf  # noqa: E402

import ops  # noqa: E402

EXPECTED = "34596c4573adf4f29b28ef2c79c997eeb28dcf482ce9370047b727b0396a798c"

if __name__ == "__main__":
    runner = pyperf.Runner()
    data = ops.make_data()
    digest = ops.sha256(data).hex()
    if digest != EXPECTED:
        sys.exit(f"digest of the 1 MB buffer is {digest}")
    runner.bench_func("sha256_1mb", ops.sha256, data)
    runner.bench_func("noop", ops.noop)

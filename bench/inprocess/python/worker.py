"""The versus side of bench/inprocess.sh for Python: serves sha256_1mb and
noop (ops.py) over the worker protocol. The setup hook builds the 1 MB buffer,
untimed."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import versus_worker  # noqa: E402

import ops  # noqa: E402

versus_worker.operation("sha256_1mb", setup=lambda params, payload, input: ops.make_data())(ops.sha256)
versus_worker.operation("noop")(ops.noop)

if __name__ == "__main__":
    versus_worker.main()

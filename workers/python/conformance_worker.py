"""The conformance worker: the operations docs/worker-protocol.md lists under
"Conformance", for `versus conformance -- python3 conformance_worker.py`."""

import sys
import time

import versus_worker


def read_input(params, payload_path, input_path):
    with open(input_path, "rb") as f:
        return f.read()


@versus_worker.operation("echo", setup=read_input)
def echo(data):
    return data


@versus_worker.operation("noop")
def noop():
    return b""


def spin_setup(params, payload_path, input_path):
    return round(float(params.get("micros", 100)) * 1000)


@versus_worker.operation("spin", setup=spin_setup)
def spin(duration_ns):
    # Busy-wait on purpose: sleeping would let the scheduler decide.
    deadline = time.perf_counter_ns() + duration_ns
    while time.perf_counter_ns() < deadline:
        pass
    return b"spin"


@versus_worker.operation("noisy")
def noisy():
    print("noisy: a line on stdout")
    print("noisy: a line on stderr", file=sys.stderr)
    return b"noisy"


@versus_worker.operation("fails")
def fails():
    raise RuntimeError("this operation always fails")


def failing_setup(params, payload_path, input_path):
    raise RuntimeError("this setup hook always fails")


@versus_worker.operation("bad_setup", setup=failing_setup)
def bad_setup(state):
    return b"unreachable"


if __name__ == "__main__":
    versus_worker.main()

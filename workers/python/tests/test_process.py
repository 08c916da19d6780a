"""Real worker processes, started the way the core starts them: requests on
fd 3, responses on fd 4, stdout and stderr free for the code under test."""

import hashlib
import os
import subprocess
import sys
import textwrap

import pytest
from support import PACKAGE_ROOT

CONFORMANCE_WORKER = PACKAGE_ROOT / "conformance_worker.py"
SHA256_WORKER = PACKAGE_ROOT / "examples" / "sha256_worker.py"


def test_a_conversation_over_fds_3_and_4(start_worker, tmp_path):
    payload = tmp_path / "payload.bin"
    payload.write_bytes(b"some payload bytes\n" * 50)
    worker = start_worker(CONFORMANCE_WORKER)
    hello = worker.recv()
    assert hello["type"] == "hello" and hello["id"] == 0
    assert {"echo", "noop", "spin", "noisy", "fails", "bad_setup"} <= set(
        hello["data"]["operations"]
    )
    worker.send("setup", {"operation": "echo", "params": {}, "input": str(payload)}, 1)
    assert worker.recv() == {"type": "ready", "id": 1, "data": {}}
    worker.send("run", {"iterations": 10}, 2)
    result = worker.recv()
    assert (result["type"], result["id"], result["data"]["iterations"]) == (
        "result",
        2,
        10,
    )
    worker.send("verify", {}, 3)
    assert worker.recv()["data"] == {
        "sha256": hashlib.sha256(payload.read_bytes()).hexdigest(),
        "length": payload.stat().st_size,
    }
    worker.send("teardown", {}, 4)
    assert worker.recv()["type"] == "done"
    worker.send("shutdown", {}, 5)
    assert worker.recv() == {"type": "bye", "id": 5, "data": {}}
    assert worker.wait() == 0


def test_spin_takes_at_least_its_time_per_iteration(start_worker):
    worker = start_worker(CONFORMANCE_WORKER)
    worker.recv()
    worker.send("setup", {"operation": "spin", "params": {"micros": 2000}})
    assert worker.recv()["type"] == "ready"
    worker.send("run", {"iterations": 3})
    assert worker.recv()["data"]["elapsed_ns"] >= 6_000_000


def test_the_code_under_test_may_print(start_worker):
    worker = start_worker(CONFORMANCE_WORKER)
    worker.recv()
    worker.send("setup", {"operation": "noisy"})
    assert worker.recv()["type"] == "ready"
    worker.send("run", {"iterations": 3})
    assert worker.recv()["type"] == "result"
    worker.send("verify", {})
    assert worker.recv()["data"]["length"] == 5
    worker.close_requests()
    assert worker.wait() == 0
    assert worker.stdout_path.read_text().count("noisy: a line on stdout") == 4
    assert worker.stderr_path.read_text().count("noisy: a line on stderr") == 4


def test_garbage_then_a_good_request(start_worker):
    worker = start_worker(CONFORMANCE_WORKER)
    worker.recv()
    worker.send_raw(b"this is not json\n")
    assert worker.recv()["data"]["class"] == "bad_request"
    worker.send("setup", {"operation": "bad_setup"}, 7)
    response = worker.recv()
    assert (response["id"], response["data"]["class"]) == (7, "setup_failed")
    assert "this setup hook always fails" in worker.stderr_path.read_text()


def test_end_of_input_exits(start_worker):
    worker = start_worker(CONFORMANCE_WORKER)
    worker.recv()
    worker.close_requests()
    assert worker.wait() == 0


def test_any_descriptors_named_in_the_environment_work(start_worker):
    worker = start_worker(CONFORMANCE_WORKER, fds="any")
    assert worker.recv()["type"] == "hello"
    worker.send("shutdown")
    assert worker.recv()["type"] == "bye"
    assert worker.wait() == 0


def test_the_protocol_pipes_are_not_inherited_by_programs_the_operation_starts(
    start_worker, tmp_path
):
    script = tmp_path / "inherit.py"
    script.write_text(
        textwrap.dedent(
            """
            import os
            import versus_worker

            @versus_worker.operation("inheritable")
            def inheritable():
                return f"{os.get_inheritable(3)} {os.get_inheritable(4)}"

            versus_worker.main()
            """
        )
    )
    worker = start_worker(script)
    worker.recv()
    worker.send("setup", {"operation": "inheritable"})
    worker.recv()
    worker.send("verify")
    assert worker.recv()["data"]["sha256"] == hashlib.sha256(b"False False").hexdigest()


@pytest.mark.parametrize("fds", [None, "", "3", "x,y", "3,4,5", "90,91"])
def test_without_the_protocol_descriptors_the_worker_exits_2(fds):
    env = {k: v for k, v in os.environ.items() if k != "VERSUS_WORKER_FDS"}
    env["PYTHONPATH"] = str(PACKAGE_ROOT / "src")
    if fds is not None:
        env["VERSUS_WORKER_FDS"] = fds
    done = subprocess.run(
        [sys.executable, str(CONFORMANCE_WORKER)],
        check=False,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert b"VERSUS_WORKER_FDS" in done.stderr
    assert b"versus" in done.stderr
    assert done.stdout == b""


def test_the_sha256_example(start_worker, tmp_path):
    data = os.urandom(4096)
    (tmp_path / "input.bin").write_bytes(data)
    worker = start_worker(SHA256_WORKER)
    assert worker.recv()["data"]["operations"] == ["sha256"]
    worker.send("setup", {"operation": "sha256", "input": str(tmp_path / "input.bin")})
    assert worker.recv()["type"] == "ready"
    worker.send("run", {"iterations": 100})
    assert worker.recv()["data"]["iterations"] == 100
    worker.send("verify")
    assert worker.recv()["data"] == {
        "sha256": hashlib.sha256(hashlib.sha256(data).digest()).hexdigest(),
        "length": 32,
    }

"""Helpers shared by the tests: an in-memory conversation with a Worker, and
a real worker process talking over pipes placed at the descriptors the core
uses."""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

from versus_worker import Worker

HERE = Path(__file__).resolve().parent
PACKAGE_ROOT = HERE.parent


class FakeClock:
    """A monotonic nanosecond clock that advances by ``step_ns`` per reading."""

    def __init__(self, start_ns: int = 1_000, step_ns: int = 250) -> None:
        self.now_ns = start_ns
        self.step_ns = step_ns
        self.readings = 0

    def __call__(self) -> int:
        self.readings += 1
        self.now_ns += self.step_ns
        return self.now_ns


def request_line(kind: str, data: dict[str, Any] | None = None, id: int = 1) -> bytes:
    return json.dumps({"type": kind, "id": id, "data": data or {}}).encode() + b"\n"


def converse(worker: Worker, *lines: bytes) -> list[dict[str, Any]]:
    """Serves ``lines`` (then end of input) and returns every response,
    starting with hello."""
    responses = io.BytesIO()
    status = worker.serve(io.BytesIO(b"".join(lines)), responses)
    assert status == 0
    out = responses.getvalue()
    assert out.endswith(b"\n")
    return [json.loads(line) for line in out.splitlines()]


def ask(worker: Worker, kind: str, data: dict[str, Any] | None = None, id: int = 1):
    """One request through the line-level entry point; the decoded response."""
    line, _ = worker.respond(request_line(kind, data, id))
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    return json.loads(line)


class WorkerProcess:
    """A worker program started the way the core starts it: requests on its
    fd 3, responses on its fd 4 (or the descriptors given), stdout and stderr
    captured."""

    def __init__(self, script: Path, tmp_path: Path, fds: str = "3,4") -> None:
        request_read, self._request_write = os.pipe()
        self._response_read, response_write = os.pipe()
        self.stdout_path = tmp_path / "stdout.log"
        self.stderr_path = tmp_path / "stderr.log"
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(PACKAGE_ROOT / "src"), env.get("PYTHONPATH")) if p
        )
        env["VERSUS_PROTOCOL"] = "1"
        if fds == "3,4":
            # bash places the pipes at 3 and 4, as the core does.
            env["VERSUS_WORKER_FDS"] = "3,4"
            argv = [
                "bash",
                "-c",
                (
                    f'exec "$@" 3<&{request_read} 4>&{response_write} '
                    f"{request_read}<&- {response_write}>&-"
                ),
                "bash",
                sys.executable,
                str(script),
            ]
        else:
            env["VERSUS_WORKER_FDS"] = f"{request_read},{response_write}"
            argv = [sys.executable, str(script)]
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.process = subprocess.Popen(
                argv,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                pass_fds=(request_read, response_write),
            )
        os.close(request_read)
        os.close(response_write)
        self._buffer = b""

    def send(self, kind: str, data: dict[str, Any] | None = None, id: int = 1) -> None:
        self.send_raw(request_line(kind, data, id))

    def send_raw(self, line: bytes) -> None:
        os.write(self._request_write, line)

    def close_requests(self) -> None:
        if self._request_write >= 0:
            os.close(self._request_write)
            self._request_write = -1

    def recv(self, timeout_s: float = 10.0) -> dict[str, Any]:
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([self._response_read], [], [], timeout_s)
            assert ready, "the worker did not answer in time"
            chunk = os.read(self._response_read, 65536)
            assert chunk, "the worker closed its response channel"
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)

    def wait(self, timeout_s: float = 10.0) -> int:
        return self.process.wait(timeout_s)

    def close(self) -> None:
        self.close_requests()
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self._response_read)

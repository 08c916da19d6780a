"""Fixtures: worker processes that are always cleaned up."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support import WorkerProcess


@pytest.fixture
def start_worker(tmp_path: Path) -> Iterator:
    started: list[WorkerProcess] = []

    def start(script: Path, fds: str = "3,4") -> WorkerProcess:
        worker = WorkerProcess(script, tmp_path, fds)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.close()

"""Python worker library for versus, the cross-language benchmarking tool.

A worker registers named operations; the versus core sets one up, asks for
batches of N calls and times nothing itself: the loop and its clock readings
live here, in :mod:`versus_worker.timing`. The wire format is in
:mod:`versus_worker.protocol` (docs/worker-protocol.md in the versus repo).

    import hashlib
    import versus_worker

    def load(params, payload_path, input_path):
        with open(input_path, "rb") as f:
            return f.read()

    @versus_worker.operation("sha256", setup=load)
    def sha256(data):
        return hashlib.sha256(data).digest()

    if __name__ == "__main__":
        versus_worker.main()
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, NoReturn, TypeVar

from ._version import __version__
from .protocol import PROTOCOL_VERSION, ErrorClass
from .worker import Operation, SetupHook, TeardownHook, Worker

__all__ = [
    "PROTOCOL_VERSION",
    "ErrorClass",
    "Operation",
    "Worker",
    "__version__",
    "default_worker",
    "main",
    "operation",
]

F = TypeVar("F", bound=Callable[..., Any])

_default_worker = Worker()


def default_worker() -> Worker:
    """The worker that :func:`operation` registers into and :func:`main` serves."""
    return _default_worker


def operation(
    name: str | None = None,
    *,
    setup: SetupHook | None = None,
    teardown: TeardownHook | None = None,
) -> Callable[[F], F]:
    """Decorator registering an operation in the default worker.

    The operation is called as ``fn(state)`` when ``setup`` is given, with
    the state ``setup(params, payload_path, input_path)`` returned, and as
    ``fn()`` otherwise; it returns bytes (or any bytes-like object) or a
    ``str``. ``teardown(state)`` runs when the core tears the operation
    down. ``name`` defaults to the function's name. Hooks are not timed.
    """
    return _default_worker.operation(name, setup=setup, teardown=teardown)


def main(environ: Mapping[str, str] | None = None) -> NoReturn:
    """Serves the default worker to the versus core, then exits.

    Exits with status 2 and a message when the program was not started by
    versus (``VERSUS_WORKER_FDS`` unset).
    """
    _default_worker.main(environ)

"""A worker: registered operations, and the conversation with the core.

The core owns everything about measurement policy (batch sizes, warm-up,
statistics); a worker only sets an operation up, runs it N times when asked,
reports what it returned, and tears it down. Requests arrive on one file
descriptor and responses leave on another, so the code under test keeps
stdout and stderr to itself.
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from typing import (
    Any,
    BinaryIO,
    Callable,
    ClassVar,
    NoReturn,
    Optional,
    TypeVar,
)

from . import timing
from ._version import __version__
from .protocol import (
    PROTOCOL_VERSION,
    ErrorClass,
    ProtocolError,
    Request,
    decode_request,
    encode_error,
    encode_message,
    optional_object,
    optional_str,
    require_count,
    require_str,
)

#: ``setup(params, payload_path, input_path) -> state``
SetupHook = Callable[[dict[str, Any], Optional[str], Optional[str]], Any]
#: ``teardown(state)``
TeardownHook = Callable[[Any], Any]

F = TypeVar("F", bound=Callable[..., Any])
_Handler = Callable[["Worker", Request], "tuple[str, dict[str, Any]]"]

LANGUAGE = "python"
LIBRARY = f"versus-worker-python {__version__}"
#: Exit status of a worker started without the protocol descriptors.
EXIT_NOT_STARTED_BY_VERSUS = 2


def runtime_name() -> str:
    """The runtime and its version, e.g. ``CPython 3.11.7``."""
    return f"{platform.python_implementation()} {platform.python_version()}"


@dataclass(frozen=True)
class Operation:
    """A registered operation.

    ``function`` is called as ``function(state)`` when there is a ``setup``
    hook (``state`` is what the hook returned) and as ``function()`` when
    there is none. It returns a bytes-like object or a ``str`` (encoded as
    UTF-8 for ``verify``).
    """

    name: str
    function: Callable[..., Any]
    setup: SetupHook | None = None
    teardown: TeardownHook | None = None


@dataclass
class _Active:
    """The operation set up for the current cell, and its setup state."""

    operation: Operation
    state: Any


def output_bytes(result: Any) -> bytes:
    """What an operation returned, as the bytes ``verify`` reports on.

    Raises TypeError for anything but a bytes-like object or a ``str``, and
    UnicodeEncodeError for a ``str`` that is not valid Unicode.
    """
    if isinstance(result, bytes):
        return result
    if isinstance(result, str):
        return result.encode("utf-8")
    try:
        view = memoryview(result)
    except TypeError:
        raise TypeError(
            f"the operation returned {type(result).__name__}, "
            "not bytes (or another bytes-like object) or str"
        ) from None
    with view:
        return view.tobytes()


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _log_exception(context: str) -> None:
    """Writes the current exception's traceback to stderr, which the core
    keeps in the worker log; the error response carries one line only."""
    print(f"versus-worker: {context}", file=sys.stderr)
    traceback.print_exc(file=sys.stderr)


def _flush_standard_streams() -> None:
    # The code under test may print; flushing between requests keeps the
    # worker log in step with the conversation. Never inside a batch.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass


class Worker:
    """A set of named operations and the request handler that serves them.

    Most programs use the module-level :func:`versus_worker.operation` and
    :func:`versus_worker.main`, which share one default ``Worker``.
    ``clock`` (monotonic, in nanoseconds) can be replaced in tests.
    """

    def __init__(self, *, clock: Callable[[], int] = time.perf_counter_ns) -> None:
        self._operations: dict[str, Operation] = {}
        self._clock = clock
        self._active: _Active | None = None

    # Registration

    def operation(
        self,
        name: str | None = None,
        *,
        setup: SetupHook | None = None,
        teardown: TeardownHook | None = None,
    ) -> Callable[[F], F]:
        """Decorator registering a function as an operation, named ``name``
        or else the function's own name; the function is returned as is.

        ``setup(params, payload_path, input_path)`` runs (untimed) on each
        ``setup`` request and returns the state passed to the operation;
        ``teardown(state)`` runs on ``teardown``.
        """

        def register(function: F) -> F:
            self.register(
                name if name is not None else function.__name__,
                function,
                setup=setup,
                teardown=teardown,
            )
            return function

        return register

    def register(
        self,
        name: str,
        function: Callable[..., Any],
        *,
        setup: SetupHook | None = None,
        teardown: TeardownHook | None = None,
    ) -> Operation:
        """Registers ``function`` as operation ``name``; see :meth:`operation`."""
        if not isinstance(name, str) or not name:
            raise ValueError(
                f"an operation name must be a non-empty string, not {name!r}"
            )
        if name in self._operations:
            raise ValueError(f"operation {name!r} is already registered")
        for what, hook in (
            ("operation", function),
            ("setup", setup),
            ("teardown", teardown),
        ):
            if hook is not None and not callable(hook):
                raise TypeError(f"the {what} of {name!r} is not callable: {hook!r}")
        registered = Operation(name, function, setup, teardown)
        self._operations[name] = registered
        return registered

    @property
    def operations(self) -> list[str]:
        """Names of the registered operations, in registration order."""
        return list(self._operations)

    def hello(self) -> dict[str, Any]:
        """The data of the ``hello`` message."""
        return {
            "protocol": PROTOCOL_VERSION,
            "language": LANGUAGE,
            "runtime": runtime_name(),
            "library": LIBRARY,
            "operations": self.operations,
        }

    # Requests

    def respond(self, line: bytes) -> tuple[bytes, bool]:
        """Answers one request line: the response line, and whether to keep
        serving (false after ``shutdown``). Never raises for a bad request or
        a failing operation; those become ``error`` responses."""
        request_id = 0
        try:
            request = decode_request(line)
            request_id = request.id
            kind, data = self.handle(request)
        except ProtocolError as exc:
            return encode_error(exc.error_class, exc.message, exc.request_id), True
        except Exception as exc:  # a bug in this library: report, keep serving
            _log_exception("internal error")
            return encode_error(ErrorClass.INTERNAL, _describe(exc), request_id), True
        return encode_message(kind, request.id, data), kind != "bye"

    def handle(self, request: Request) -> tuple[str, dict[str, Any]]:
        """Serves one decoded request: the response type and data, or a
        :class:`ProtocolError` for an ``error`` response."""
        handler = self._handlers.get(request.type)
        if handler is None:
            raise ProtocolError(
                ErrorClass.BAD_REQUEST,
                f"unknown request type {request.type!r}",
                request.id,
            )
        return handler(self, request)

    def _setup(self, request: Request) -> tuple[str, dict[str, Any]]:
        name = require_str(request, "operation")
        params = optional_object(request, "params")
        payload_path = optional_str(request, "payload")
        input_path = optional_str(request, "input")
        # A setup without a teardown before it (the core gave up on a cell)
        # still ends the previous operation.
        self._end_quietly()
        operation = self._operations.get(name)
        if operation is None:
            known = ", ".join(self._operations) or "none"
            raise ProtocolError(
                ErrorClass.UNKNOWN_OPERATION,
                f"no operation {name!r} is registered (registered: {known})",
                request.id,
            )
        state = None
        if operation.setup is not None:
            try:
                state = operation.setup(params, payload_path, input_path)
            except Exception as exc:
                _log_exception(f"the setup hook of {name!r} raised")
                raise ProtocolError(
                    ErrorClass.SETUP_FAILED,
                    f"the setup hook of {name!r} raised {_describe(exc)}",
                    request.id,
                ) from None
        self._active = _Active(operation, state)
        return "ready", {}

    def _run(self, request: Request) -> tuple[str, dict[str, Any]]:
        active = self._require_active(request)
        iterations = require_count(request, "iterations")
        operation = active.operation
        try:
            batch = timing.run_batch(
                operation.function,
                active.state,
                operation.setup is not None,
                iterations,
                self._clock,
            )
        except Exception as exc:
            _log_exception(f"operation {operation.name!r} raised during run")
            raise ProtocolError(
                ErrorClass.OPERATION_FAILED,
                f"operation {operation.name!r} raised {_describe(exc)}",
                request.id,
            ) from None
        result: dict[str, Any] = {
            "iterations": batch.iterations,
            "elapsed_ns": batch.elapsed_ns,
        }
        if batch.gc_count is not None:
            result["gc_count"] = batch.gc_count
        return "result", result

    def _verify(self, request: Request) -> tuple[str, dict[str, Any]]:
        active = self._require_active(request)
        operation = active.operation
        try:
            if operation.setup is not None:
                returned = operation.function(active.state)
            else:
                returned = operation.function()
            output = output_bytes(returned)
        except Exception as exc:
            _log_exception(f"operation {operation.name!r} failed during verify")
            raise ProtocolError(
                ErrorClass.OPERATION_FAILED,
                f"operation {operation.name!r}: {_describe(exc)}",
                request.id,
            ) from None
        return "output", {
            "sha256": hashlib.sha256(output).hexdigest(),
            "length": len(output),
        }

    def _teardown(self, request: Request) -> tuple[str, dict[str, Any]]:
        # Tearing down with nothing set up (say after a failed setup) is
        # not an error: there is simply nothing to forget.
        active, self._active = self._active, None
        timing.release_sink()
        if active is not None and active.operation.teardown is not None:
            name = active.operation.name
            try:
                active.operation.teardown(active.state)
            except Exception as exc:
                _log_exception(f"the teardown hook of {name!r} raised")
                raise ProtocolError(
                    ErrorClass.OPERATION_FAILED,
                    f"the teardown hook of {name!r} raised {_describe(exc)}",
                    request.id,
                ) from None
        return "done", {}

    def _shutdown(self, request: Request) -> tuple[str, dict[str, Any]]:
        self._end_quietly()
        return "bye", {}

    _handlers: ClassVar[dict[str, _Handler]] = {
        "setup": _setup,
        "run": _run,
        "verify": _verify,
        "teardown": _teardown,
        "shutdown": _shutdown,
    }

    def _require_active(self, request: Request) -> _Active:
        if self._active is None:
            raise ProtocolError(
                ErrorClass.BAD_REQUEST,
                f"{request.type} before a successful setup",
                request.id,
            )
        return self._active

    def _end_quietly(self) -> None:
        """Tears the current operation down, if any, with no one to answer:
        a failing teardown hook is only logged."""
        active, self._active = self._active, None
        timing.release_sink()
        if active is not None and active.operation.teardown is not None:
            try:
                active.operation.teardown(active.state)
            except Exception:
                _log_exception(f"the teardown hook of {active.operation.name!r} raised")

    # Serving

    def serve(self, requests: BinaryIO, responses: BinaryIO) -> int:
        """Says hello, then answers requests until ``shutdown`` or the end of
        ``requests``. Returns the exit status: 0, or 1 if ``responses``
        closed under us (the core is gone)."""
        try:
            self._send(responses, encode_message("hello", 0, self.hello()))
            for line in requests:
                response, keep_serving = self.respond(line)
                _flush_standard_streams()
                self._send(responses, response)
                if not keep_serving:
                    return 0
        except BrokenPipeError:
            print("versus-worker: the response channel closed", file=sys.stderr)
            return 1
        finally:
            self._end_quietly()
        return 0

    @staticmethod
    def _send(responses: BinaryIO, line: bytes) -> None:
        responses.write(line)
        responses.flush()

    def main(self, environ: Mapping[str, str] | None = None) -> NoReturn:
        """Serves the core on the descriptors named by ``VERSUS_WORKER_FDS``
        and exits: 0 after ``shutdown`` or end of input, 2 (with a message)
        when not started by versus."""
        env = os.environ if environ is None else environ
        try:
            read_fd, write_fd = parse_worker_fds(env.get("VERSUS_WORKER_FDS"))
            requests, responses = _open_channel(read_fd, write_fd)
        except ValueError as exc:
            print(
                f"{exc}\nThis program is a versus worker: run it with the versus "
                "benchmarking tool (for example `versus conformance -- CMD`).",
                file=sys.stderr,
            )
            sys.exit(EXIT_NOT_STARTED_BY_VERSUS)
        with requests, responses:
            status = self.serve(requests, responses)
        _flush_standard_streams()
        sys.exit(status)


def parse_worker_fds(value: str | None) -> tuple[int, int]:
    """Parses ``VERSUS_WORKER_FDS`` (``"R,W"``); ValueError says what is wrong."""
    if not value:
        raise ValueError("versus-worker: VERSUS_WORKER_FDS is not set")
    parts = value.split(",")
    if len(parts) != 2 or not all(part.strip().isdigit() for part in parts):
        raise ValueError(
            f"versus-worker: VERSUS_WORKER_FDS={value!r} is not two descriptors 'R,W'"
        )
    return int(parts[0]), int(parts[1])


def _open_channel(read_fd: int, write_fd: int) -> tuple[BinaryIO, BinaryIO]:
    try:
        # Programs the operation starts must not hold the protocol pipes
        # open: the core would never see this worker's end of file.
        os.set_inheritable(read_fd, False)
        os.set_inheritable(write_fd, False)
        requests = os.fdopen(read_fd, "rb")
        responses = os.fdopen(write_fd, "wb", closefd=write_fd != read_fd)
    except OSError as exc:
        raise ValueError(
            f"versus-worker: cannot open the descriptors in VERSUS_WORKER_FDS: {exc}"
        ) from None
    return requests, responses

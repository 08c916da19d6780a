"""The versus worker wire format, version 1 (docs/worker-protocol.md).

Every message is one line of UTF-8 JSON with a ``{"type", "id", "data"}``
envelope. This module only turns lines into requests and responses into
lines; what a request means is decided in :mod:`versus_worker.worker`.
Readers ignore fields they do not know, at every level, so nothing here
rejects an extra key.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

#: The protocol version this library speaks, sent in ``hello``.
PROTOCOL_VERSION = 1


class ErrorClass:
    """The closed set of error classes a worker may answer with.

    The core maps each class to a cell outcome and never matches on the
    message, so code (and tests) should compare these values, not text.
    """

    UNKNOWN_OPERATION = "unknown_operation"
    SETUP_FAILED = "setup_failed"
    OPERATION_FAILED = "operation_failed"
    BAD_REQUEST = "bad_request"
    UNSUPPORTED_VERSION = "unsupported_version"
    INTERNAL = "internal"

    ALL = frozenset(
        {
            UNKNOWN_OPERATION,
            SETUP_FAILED,
            OPERATION_FAILED,
            BAD_REQUEST,
            UNSUPPORTED_VERSION,
            INTERNAL,
        }
    )


class ProtocolError(Exception):
    """A request the worker cannot serve, answered with an ``error`` message.

    ``request_id`` is the id to echo: the request's own when it could be
    read, else 0 (a line that is not JSON has no id to copy).
    """

    def __init__(self, error_class: str, message: str, request_id: int = 0) -> None:
        super().__init__(message)
        if error_class not in ErrorClass.ALL:
            raise ValueError(f"unknown error class {error_class!r}")
        self.error_class = error_class
        self.message = message
        self.request_id = request_id


@dataclass(frozen=True)
class Request:
    """One decoded request from the core; unknown fields are already dropped
    from the envelope (``data`` keeps every key, readers pick theirs)."""

    type: str
    id: int
    data: dict[str, Any] = field(default_factory=dict)


def _is_int(value: Any) -> bool:
    # JSON true/false decode to bool, which is a subclass of int in Python.
    return isinstance(value, int) and not isinstance(value, bool)


def decode_request(line: bytes) -> Request:
    """Decodes one request line (with or without its trailing newline).

    Raises :class:`ProtocolError` of class ``bad_request`` when the line is
    not UTF-8 JSON, not an object, has no string ``type``, no integer ``id``,
    or a ``data`` that is not an object. A missing or null ``data`` is an
    empty object, as in the core's own reader.
    """
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(ErrorClass.BAD_REQUEST, f"not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise ProtocolError(ErrorClass.BAD_REQUEST, "not a JSON object")
    request_id = message.get("id")
    valid_id = _is_int(request_id) and request_id >= 0
    echo_id = request_id if valid_id else 0
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorClass.BAD_REQUEST, 'no string field "type"', echo_id)
    if not valid_id:
        raise ProtocolError(
            ErrorClass.BAD_REQUEST, 'no non-negative integer field "id"', echo_id
        )
    data = message.get("data")
    if data is None:
        data = {}
    elif not isinstance(data, dict):
        raise ProtocolError(
            ErrorClass.BAD_REQUEST, 'field "data" is not an object', echo_id
        )
    return Request(type=kind, id=request_id, data=data)


def encode_message(kind: str, message_id: int, data: dict[str, Any]) -> bytes:
    """Encodes one message as a compact JSON line ending in ``\\n``.

    The output is ASCII (non-ASCII text is escaped), so it is valid UTF-8
    and can never contain a raw newline inside the line.
    """
    text = json.dumps(
        {"type": kind, "id": message_id, "data": data},
        separators=(",", ":"),
        allow_nan=False,
    )
    return text.encode("ascii") + b"\n"


def encode_error(error_class: str, message: str, message_id: int) -> bytes:
    """Encodes an ``error`` response of one of the :class:`ErrorClass` values."""
    if error_class not in ErrorClass.ALL:
        raise ValueError(f"unknown error class {error_class!r}")
    return encode_message(
        "error", message_id, {"class": error_class, "message": message}
    )


# Helpers that read typed fields out of a request's data. Each raises
# bad_request naming the field, so the core's log says what was wrong.


def require_str(request: Request, key: str) -> str:
    value = request.data.get(key)
    if not isinstance(value, str):
        raise ProtocolError(
            ErrorClass.BAD_REQUEST,
            f'{request.type}: no string field "{key}"',
            request.id,
        )
    return value


def optional_str(request: Request, key: str) -> str | None:
    """A field that may be a string, null, or absent (absent means null)."""
    value = request.data.get(key)
    if value is not None and not isinstance(value, str):
        raise ProtocolError(
            ErrorClass.BAD_REQUEST,
            f'{request.type}: field "{key}" is neither a string nor null',
            request.id,
        )
    return value


def optional_object(request: Request, key: str) -> dict[str, Any]:
    """A field that may be an object, null, or absent (both mean ``{}``)."""
    value = request.data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ProtocolError(
            ErrorClass.BAD_REQUEST,
            f'{request.type}: field "{key}" is not an object',
            request.id,
        )
    return value


def require_count(request: Request, key: str) -> int:
    """A positive integer small enough to count a loop with."""
    value = request.data.get(key)
    if not _is_int(value) or not 1 <= value <= sys.maxsize:
        raise ProtocolError(
            ErrorClass.BAD_REQUEST,
            f'{request.type}: field "{key}" must be an integer from 1 to {sys.maxsize}',
            request.id,
        )
    return value

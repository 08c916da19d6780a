"""The measured loop: the only code that runs between the two clock readings.

Between ``start`` and ``end`` there is nothing but the loop and the calls:
no allocation by the library (``itertools.repeat`` yields the same ``None``
every time, where ``range`` would make a new int per iteration above 256),
no attribute look-ups (everything is a local), no logging, no JSON. This is
the same loop ``timeit`` uses.

The black box: each call's result is stored in a local, which keeps it alive
until the next call replaces it, and the last one is stored in the
module-level ``_sink`` after the loop. CPython never removes a call whose
result is unused, and a tracing JIT cannot drop a result that escapes to a
module global.

Garbage collections are counted from ``gc.get_stats()`` (collections summed
over every generation), read outside the timed region. CPython has no cheap
counter of allocated bytes (``tracemalloc`` slows every allocation), so no
``alloc_bytes`` is reported.
"""

from __future__ import annotations

import gc
from itertools import repeat
from typing import Any, Callable, NamedTuple

# Holds the last result of the last batch (see the module comment).
_sink: list = [None]


class Batch(NamedTuple):
    """What one batch measured."""

    #: Calls made, as asked.
    iterations: int
    #: Nanoseconds between the two clock readings around the whole loop.
    elapsed_ns: int
    #: Garbage collections during the loop, or None where not counted.
    gc_count: int | None


def _collections_from_stats() -> int:
    return sum(generation["collections"] for generation in gc.get_stats())


def _find_gc_counter() -> Callable[[], int] | None:
    """CPython's gc.get_stats() is a list of dicts per generation; other
    runtimes (PyPy) have a different or no such call, and get no gc_count."""
    try:
        _collections_from_stats()
    except (AttributeError, KeyError, TypeError):
        return None
    return _collections_from_stats


gc_collections: Callable[[], int] | None = _find_gc_counter()


def run_batch(
    operation: Callable[..., Any],
    state: Any,
    pass_state: bool,
    iterations: int,
    clock: Callable[[], int],
) -> Batch:
    """Calls ``operation(state)`` (or ``operation()`` when ``pass_state`` is
    false) ``iterations`` times between two readings of ``clock``, a
    monotonic clock in nanoseconds. An exception from the operation
    propagates, ending the batch."""
    count = gc_collections
    gc_before = count() if count is not None else 0
    if pass_state:
        elapsed_ns = _loop_with_state(operation, state, iterations, clock)
    else:
        elapsed_ns = _loop(operation, iterations, clock)
    gc_count = count() - gc_before if count is not None else None
    return Batch(iterations, elapsed_ns, gc_count)


# Two copies of the loop, so that neither pays for a branch or an argument it
# does not need.


def _loop_with_state(
    operation: Callable[[Any], Any],
    state: Any,
    iterations: int,
    clock: Callable[[], int],
) -> int:
    calls = repeat(None, iterations)
    result = None
    start = clock()
    for _ in calls:
        result = operation(state)
    end = clock()
    _sink[0] = result
    return end - start


def _loop(
    operation: Callable[[], Any], iterations: int, clock: Callable[[], int]
) -> int:
    calls = repeat(None, iterations)
    result = None
    start = clock()
    for _ in calls:
        result = operation()
    end = clock()
    _sink[0] = result
    return end - start


def release_sink() -> None:
    """Drops the last kept result, so a large output does not outlive its cell."""
    _sink[0] = None

"""The request handler, in process: the conversation, the error classes, the
measured loop (with a fake clock) and registration."""

import gc
import hashlib
import io
import json
import platform
from array import array

import pytest
from support import FakeClock, ask, converse, request_line

import versus_worker
from versus_worker import ErrorClass, Worker, timing


def setup_data(operation, params=None, payload="/p", input="/i"):
    return {
        "operation": operation,
        "params": params or {},
        "payload": payload,
        "input": input,
    }


@pytest.fixture
def calls():
    return []


@pytest.fixture
def worker(calls):
    """A worker whose operations record how they were called."""
    w = Worker(clock=FakeClock())

    def load(params, payload_path, input_path):
        calls.append(("setup", params, payload_path, input_path))
        return b"state:" + input_path.encode()

    def unload(state):
        calls.append(("teardown", state))

    @w.operation("echo", setup=load, teardown=unload)
    def echo(state):
        calls.append(("echo", state))
        return state

    @w.operation()
    def noop():
        return b""

    @w.operation("text")
    def text():
        return "caf\u00e9"

    @w.operation("fails")
    def fails():
        raise RuntimeError("always")

    def broken_setup(params, payload_path, input_path):
        raise OSError("no such file")

    @w.operation("bad_setup", setup=broken_setup)
    def bad_setup(state):
        return b""

    @w.operation("returns_int")
    def returns_int():
        return 5

    return w


def error_class(response):
    assert response["type"] == "error", response
    assert response["data"]["message"]
    return response["data"]["class"]


def test_hello_names_the_runtime_library_and_operations(worker):
    [hello] = converse(worker)
    assert hello["type"] == "hello" and hello["id"] == 0
    data = hello["data"]
    assert data["protocol"] == 1
    assert data["language"] == "python"
    assert data["runtime"] == (
        f"{platform.python_implementation()} {platform.python_version()}"
    )
    assert data["library"] == f"versus-worker-python {versus_worker.__version__}"
    assert data["operations"] == [
        "echo",
        "noop",
        "text",
        "fails",
        "bad_setup",
        "returns_int",
    ]


def test_a_full_conversation(worker, calls):
    responses = converse(
        worker,
        request_line("setup", setup_data("echo", {"size": 3}, "/payload", "/input"), 1),
        request_line("run", {"iterations": 4}, 2),
        request_line("verify", {}, 3),
        request_line("teardown", {}, 4),
        request_line("shutdown", {}, 5),
        request_line("run", {"iterations": 1}, 6),  # never read: after shutdown
    )
    assert [(r["type"], r["id"]) for r in responses] == [
        ("hello", 0),
        ("ready", 1),
        ("result", 2),
        ("output", 3),
        ("done", 4),
        ("bye", 5),
    ]
    result = responses[2]["data"]
    assert result["iterations"] == 4
    assert result["elapsed_ns"] == 250  # the fake clock, read twice
    state = b"state:/input"
    assert responses[3]["data"] == {
        "sha256": hashlib.sha256(state).hexdigest(),
        "length": len(state),
    }
    assert calls == [("setup", {"size": 3}, "/payload", "/input")] + [
        ("echo", state)
    ] * 5 + [("teardown", state)]


def test_ids_are_echoed(worker):
    assert ask(worker, "setup", setup_data("noop"), id=41)["id"] == 41
    assert ask(worker, "run", {"iterations": 1}, id=42)["id"] == 42
    assert ask(worker, "dance", {}, id=43)["id"] == 43


def test_unknown_fields_are_ignored(worker):
    line = (
        b'{"type":"setup","id":1,"future":true,"data":{"operation":"noop",'
        b'"params":{},"payload":null,"input":null,"colour":"blue"}}\n'
    )
    response, _ = worker.respond(line)
    assert json.loads(response)["type"] == "ready"
    result = ask(worker, "run", {"iterations": 3, "hint": "ignored"})
    assert result["type"] == "result" and result["data"]["iterations"] == 3


def test_setup_fields_may_be_null_or_absent(worker, calls):
    assert ask(worker, "setup", {"operation": "noop"})["type"] == "ready"
    assert (
        ask(worker, "setup", setup_data("noop", payload=None, input=None))["type"]
        == "ready"
    )


def test_run_calls_the_operation_exactly_n_times_between_two_clock_readings():
    clock = FakeClock(step_ns=1_000)
    w = Worker(clock=clock)
    counter = []

    def count():
        counter.append(1)
        return b""

    w.register("count", count)
    ask(w, "setup", setup_data("count"))
    response = ask(w, "run", {"iterations": 1000})
    assert len(counter) == 1000
    assert clock.readings == 2
    assert response["data"]["elapsed_ns"] == 1_000


def test_the_last_result_is_kept_in_the_sink_until_teardown(worker):
    ask(worker, "setup", setup_data("echo", input="/x"))
    ask(worker, "run", {"iterations": 2})
    assert timing._sink[0] == b"state:/x"
    ask(worker, "teardown")
    assert timing._sink[0] is None


def test_gc_count_counts_collections_during_the_batch():
    if timing.gc_collections is None:
        pytest.skip("this runtime has no gc.get_stats() counters")
    w = Worker()

    def collect():
        gc.collect()
        return b""

    w.register("collect", collect)
    w.register("noop", lambda: b"")
    ask(w, "setup", setup_data("collect"))
    assert ask(w, "run", {"iterations": 3})["data"]["gc_count"] >= 3
    ask(w, "setup", setup_data("noop"))
    data = ask(w, "run", {"iterations": 3})["data"]
    assert isinstance(data["gc_count"], int) and data["gc_count"] >= 0
    assert "alloc_bytes" not in data


def test_elapsed_is_real_time_with_the_default_clock():
    w = Worker()
    w.register("noop", lambda: b"")
    ask(w, "setup", setup_data("noop"))
    data = ask(w, "run", {"iterations": 10})["data"]
    assert isinstance(data["elapsed_ns"], int) and data["elapsed_ns"] >= 0


@pytest.mark.parametrize(
    "returned, expected",
    [
        (b"", b""),
        ("caf\u00e9", "caf\u00e9".encode()),
        (bytearray(b"abc"), b"abc"),
        (memoryview(b"xyz"), b"xyz"),
        (array("I", [1, 2]), array("I", [1, 2]).tobytes()),
    ],
)
def test_verify_reports_sha256_and_length_of_the_returned_bytes(returned, expected):
    w = Worker()
    w.register("op", lambda: returned)
    ask(w, "setup", setup_data("op"))
    assert ask(w, "verify")["data"] == {
        "sha256": hashlib.sha256(expected).hexdigest(),
        "length": len(expected),
    }


def test_verify_of_nothing_is_the_empty_string_digest(worker):
    ask(worker, "setup", setup_data("noop"))
    assert ask(worker, "verify")["data"] == {
        "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "length": 0,
    }


def test_unknown_operation(worker):
    response = ask(worker, "setup", setup_data("no_such_operation"))
    assert error_class(response) == ErrorClass.UNKNOWN_OPERATION
    assert ask(worker, "setup", setup_data("noop"))["type"] == "ready"


def test_setup_failed(worker):
    assert error_class(ask(worker, "setup", setup_data("bad_setup"))) == (
        ErrorClass.SETUP_FAILED
    )
    # The failed setup left nothing set up.
    assert error_class(ask(worker, "run", {"iterations": 1})) == ErrorClass.BAD_REQUEST


def test_operation_failed_in_run_and_verify(worker):
    ask(worker, "setup", setup_data("fails"))
    assert error_class(ask(worker, "run", {"iterations": 2})) == (
        ErrorClass.OPERATION_FAILED
    )
    assert error_class(ask(worker, "verify")) == ErrorClass.OPERATION_FAILED
    assert ask(worker, "teardown")["type"] == "done"


@pytest.mark.parametrize("returned", [None, 5, ["x"], "\ud800"])
def test_verify_of_something_that_is_not_bytes_or_text_is_operation_failed(returned):
    w = Worker()
    w.register("op", lambda: returned)
    ask(w, "setup", setup_data("op"))
    assert error_class(ask(w, "verify")) == ErrorClass.OPERATION_FAILED


@pytest.mark.parametrize(
    "kind, data",
    [
        ("dance", {}),
        ("hello", {}),
        ("run", {"iterations": 1}),
        ("verify", {}),
        ("setup", {}),
        ("setup", {"operation": 5}),
        ("setup", {"operation": "noop", "params": []}),
        ("setup", {"operation": "noop", "input": 3}),
    ],
)
def test_bad_requests(worker, kind, data):
    assert error_class(ask(worker, kind, data, id=8)) == ErrorClass.BAD_REQUEST


@pytest.mark.parametrize("iterations", [None, 0, -1, 1.5, "3", True])
def test_bad_iterations(worker, iterations):
    ask(worker, "setup", setup_data("noop"))
    data = {} if iterations is None else {"iterations": iterations}
    assert error_class(ask(worker, "run", data)) == ErrorClass.BAD_REQUEST
    assert ask(worker, "run", {"iterations": 1})["type"] == "result"


def test_the_worker_keeps_serving_after_errors(worker):
    responses = converse(
        worker,
        b"this is not json\n",
        request_line("dance", {}, 2),
        request_line("run", {"iterations": 1}, 3),
        request_line("setup", setup_data("noop"), 4),
    )
    assert [(r["type"], r["id"]) for r in responses] == [
        ("hello", 0),
        ("error", 0),
        ("error", 2),
        ("error", 3),
        ("ready", 4),
    ]
    assert {r["data"]["class"] for r in responses[1:4]} == {ErrorClass.BAD_REQUEST}


def test_a_library_bug_is_internal(worker, monkeypatch):
    def broken(request, key):
        raise KeyError(key)

    monkeypatch.setattr("versus_worker.worker.require_count", broken)
    ask(worker, "setup", setup_data("noop"))
    assert error_class(ask(worker, "run", {"iterations": 1}, id=5)) == (
        ErrorClass.INTERNAL
    )


def test_teardown_with_nothing_set_up_is_done(worker):
    assert ask(worker, "teardown")["type"] == "done"


def test_a_failing_teardown_hook_is_operation_failed_and_forgets_the_state():
    torn_down = []
    w = Worker()

    def teardown(state):
        torn_down.append(state)
        raise RuntimeError("cannot close")

    w.register("op", lambda state: b"", setup=lambda *a: "s", teardown=teardown)
    ask(w, "setup", setup_data("op"))
    assert error_class(ask(w, "teardown")) == ErrorClass.OPERATION_FAILED
    assert torn_down == ["s"]
    assert error_class(ask(w, "run", {"iterations": 1})) == ErrorClass.BAD_REQUEST


def test_a_new_setup_tears_the_previous_operation_down(worker, calls):
    ask(worker, "setup", setup_data("echo", input="/a"))
    ask(worker, "setup", setup_data("noop"))
    assert calls[-1] == ("teardown", b"state:/a")


@pytest.mark.parametrize("ending", [b"", request_line("shutdown")])
def test_shutdown_and_end_of_input_tear_down(worker, calls, ending):
    converse(worker, request_line("setup", setup_data("echo", input="/a")), ending)
    assert calls[-1] == ("teardown", b"state:/a")


def test_serve_returns_1_when_the_core_is_gone(worker):
    class Closed(io.BytesIO):
        def write(self, data):
            raise BrokenPipeError

    assert worker.serve(io.BytesIO(request_line("shutdown")), Closed()) == 1


def test_registration():
    w = Worker()

    def sha(data):
        return data

    assert w.operation("sha", setup=lambda *a: b"")(sha) is sha
    with pytest.raises(ValueError, match="already registered"):
        w.register("sha", sha)
    with pytest.raises(ValueError):
        w.register("", sha)
    with pytest.raises(TypeError):
        w.register("x", "not callable")
    with pytest.raises(TypeError):
        w.register("y", sha, setup=3)
    assert w.operations == ["sha"]


def test_the_module_level_decorator_registers_in_the_default_worker():
    name = "test_the_module_level_decorator"

    @versus_worker.operation(name)
    def op():
        return b"x"

    assert name in versus_worker.default_worker().operations

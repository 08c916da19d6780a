"""The wire format on its own: decoding requests, encoding responses."""

import json
import sys

import pytest

from versus_worker.protocol import (
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


def bad_request(line: bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        decode_request(line)
    assert caught.value.error_class == ErrorClass.BAD_REQUEST
    return caught.value


def test_decodes_the_envelope():
    request = decode_request(b'{"type":"run","id":7,"data":{"iterations":1000}}\n')
    assert request == Request("run", 7, {"iterations": 1000})


def test_ignores_unknown_fields_at_every_level():
    request = decode_request(
        b'{"type":"setup","id":3,"future":true,"meta":{"x":1},'
        b'"data":{"operation":"noop","colour":"blue"}}'
    )
    assert (request.type, request.id) == ("setup", 3)
    assert require_str(request, "operation") == "noop"


@pytest.mark.parametrize("data", [b"", b',"data":null'])
def test_missing_or_null_data_is_an_empty_object(data):
    assert decode_request(b'{"type":"verify","id":1' + data + b"}").data == {}


@pytest.mark.parametrize(
    "line",
    [
        b"this is not json",
        b"",
        b"\n",
        b"\xff\xfe not utf-8",
        b"[1, 2]",
        b'"run"',
        b"null",
        b"[" * 100_000,
    ],
)
def test_lines_that_are_not_json_objects_are_bad_requests_with_id_0(line):
    assert bad_request(line).request_id == 0


@pytest.mark.parametrize(
    "line, echoed_id",
    [
        (b'{"id":5,"data":{}}', 5),
        (b'{"type":7,"id":5}', 5),
        (b'{"type":"run","data":{}}', 0),
        (b'{"type":"run","id":"5"}', 0),
        (b'{"type":"run","id":true}', 0),
        (b'{"type":"run","id":1.5}', 0),
        (b'{"type":"run","id":-1}', 0),
        (b'{"type":"run","id":5,"data":[]}', 5),
        (b'{"type":"run","id":5,"data":"x"}', 5),
    ],
)
def test_a_broken_envelope_is_a_bad_request_echoing_what_id_it_can(line, echoed_id):
    assert bad_request(line).request_id == echoed_id


def test_encodes_one_compact_line():
    line = encode_message("result", 42, {"iterations": 3, "elapsed_ns": 1234})
    assert (
        line == b'{"type":"result","id":42,"data":{"iterations":3,"elapsed_ns":1234}}\n'
    )


def test_encoded_text_is_escaped_so_a_message_stays_on_one_line():
    line = encode_error(ErrorClass.SETUP_FAILED, "two\nlines and caf\u00e9 \u2603", 9)
    assert line.count(b"\n") == 1 and line.endswith(b"\n")
    line.decode("ascii")
    assert json.loads(line) == {
        "type": "error",
        "id": 9,
        "data": {"class": "setup_failed", "message": "two\nlines and caf\u00e9 \u2603"},
    }


def test_error_classes_are_the_closed_set_of_the_protocol():
    assert ErrorClass.ALL == {
        "unknown_operation",
        "setup_failed",
        "operation_failed",
        "bad_request",
        "unsupported_version",
        "internal",
    }
    with pytest.raises(ValueError):
        encode_error("oops", "message", 1)
    with pytest.raises(ValueError):
        ProtocolError("oops", "message")


def test_round_trip_through_the_encoder_and_decoder():
    line = encode_message("setup", 11, {"operation": "echo", "params": {"n": 1}})
    assert decode_request(line) == Request(
        "setup", 11, {"operation": "echo", "params": {"n": 1}}
    )


@pytest.mark.parametrize("value", [1, 1000, sys.maxsize])
def test_counts_accept_positive_integers(value):
    assert (
        require_count(Request("run", 1, {"iterations": value}), "iterations") == value
    )


@pytest.mark.parametrize("value", [None, 0, -3, 2.0, True, "5", sys.maxsize + 1])
def test_counts_reject_anything_else_naming_the_field(value):
    data = {} if value is None else {"iterations": value}
    with pytest.raises(ProtocolError) as caught:
        require_count(Request("run", 4, data), "iterations")
    assert caught.value.error_class == ErrorClass.BAD_REQUEST
    assert caught.value.request_id == 4
    assert "iterations" in caught.value.message


def test_nullable_fields():
    request = Request(
        "setup", 2, {"payload": None, "input": "/x", "params": None, "n": 3}
    )
    assert optional_str(request, "payload") is None
    assert optional_str(request, "absent") is None
    assert optional_str(request, "input") == "/x"
    assert optional_object(request, "params") == {}
    assert optional_object(request, "absent") == {}
    for reader, key in (
        (optional_str, "n"),
        (optional_object, "n"),
        (require_str, "n"),
    ):
        with pytest.raises(ProtocolError) as caught:
            reader(request, key)
        assert caught.value.error_class == ErrorClass.BAD_REQUEST

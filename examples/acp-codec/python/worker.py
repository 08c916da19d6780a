"""versus worker for the acp-codec example (Python). Operations, each over the
whole corpus per call, returning the canonical summary:

- parse:  json.loads per line (standard library).
- decode: json.loads + acp.schema.SessionNotification.model_validate per line
          (pydantic models of the PyPI package agent-client-protocol).

- encode_decode: every message, decoded in the untimed setup, encoded as the
          package sends one (serialize_params, json.dumps) and decoded again.

The setup of `decode` and `encode_decode` (not timed) first checks every line strictly: the model,
dumped again, must equal the line's params.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import versus_worker  # noqa: E402

import codec  # noqa: E402


def load(params, payload_path, input_path):
    return codec.read_lines(input_path)


def load_checked(params, payload_path, input_path):
    lines = codec.read_lines(input_path)
    for i, line in enumerate(lines):
        try:
            codec.check_line(line)
        except Exception as e:
            raise ValueError(f"line {i + 1}: {e}") from e
    return lines


@versus_worker.operation("parse", setup=load)
def parse(lines):
    return codec.parse_lines(lines)


@versus_worker.operation("decode", setup=load_checked)
def decode(lines):
    return codec.decode_lines(lines)


def load_decoded(params, payload_path, input_path):
    return [codec.decode(line) for line in load_checked(params, payload_path, input_path)]


@versus_worker.operation("encode_decode", setup=load_decoded)
def encode_decode(values):
    return codec.encode_decode_all(values)


if __name__ == "__main__":
    versus_worker.main()

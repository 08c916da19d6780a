"""SHA-256 of the input file, for the cross-language comparison in
examples/sha256: setup reads the whole input into memory (untimed), and the
operation is the standard library's one-shot digest of those bytes."""

import hashlib

import versus_worker


def read_input(params, payload_path, input_path):
    with open(input_path, "rb") as f:
        return f.read()


@versus_worker.operation("sha256", setup=read_input)
def sha256(data):
    return hashlib.sha256(data).digest()


if __name__ == "__main__":
    versus_worker.main()

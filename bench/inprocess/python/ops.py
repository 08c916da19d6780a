"""The two functions both harnesses time: pyperf (native.py) and versus
(worker.py)."""

import hashlib

#: 1 MB: 10^6 bytes, versus's "1MB".
SIZE = 1_000_000


def make_data():
    """The deterministic 1 MB input: byte i is i*31 mod 256, as in every language."""
    return bytes(i * 31 % 256 for i in range(SIZE))


def sha256(data):
    """SHA-256 of data with the standard library (hashlib): the raw 32-byte digest."""
    return hashlib.sha256(data).digest()


def noop():
    """The empty operation: returns an empty byte string."""
    return b""

import hashlib
import pytest

@pytest.mark.parametrize("size", [64, 1024])
def test_sha256(benchmark, size):
    data = b"x" * size
    benchmark(hashlib.sha256, data)

def test_concat(benchmark):
    benchmark(lambda: "a" + str(1))

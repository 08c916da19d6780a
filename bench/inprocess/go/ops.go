package main

import "crypto/sha256"

// size is 1 MB (10^6 bytes, versus's "1MB").
const size = 1_000_000

// makeData returns the deterministic 1 MB input: byte i is i*31 mod 256, the
// same in every language of bench/inprocess.
func makeData() []byte {
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i * 31 % 256)
	}
	return data
}

// digest returns the raw 32-byte SHA-256 digest of data (crypto/sha256).
func digest(data []byte) ([]byte, error) {
	sum := sha256.Sum256(data)
	return sum[:], nil
}

// noop does nothing and returns an empty byte string.
func noop(struct{}) ([]byte, error) {
	return nil, nil
}

package main

import (
	"encoding/hex"
	"testing"
)

// The native side: testing.B with the b.Loop idiom (Go 1.24+), which keeps
// each call and its results alive, on the same functions as the worker.

func BenchmarkSha256_1mb(b *testing.B) {
	data := makeData()
	sum, _ := digest(data)
	if got := hex.EncodeToString(sum); got != "34596c4573adf4f29b28ef2c79c997eeb28dcf482ce9370047b727b0396a798c" {
		b.Fatalf("digest of the 1 MB buffer is %s", got)
	}
	for b.Loop() {
		digest(data)
	}
}

func BenchmarkNoop(b *testing.B) {
	for b.Loop() {
		noop(struct{}{})
	}
}

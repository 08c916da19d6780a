// Command sha256-worker is the Go side of versus's SHA-256 comparison
// (examples/sha256): the operation sha256 digests the input file, read into
// memory by the setup hook, with the standard library.
package main

import (
	"crypto/sha256"
	"os"

	versus "github.com/versus-bench/versus/workers/go"
)

func main() {
	versus.Register("sha256", digest, versus.WithSetup(readInput))
	versus.Main()
}

// readInput reads the whole input file; it runs once per cell, untimed.
func readInput(setup versus.Setup) ([]byte, error) {
	return os.ReadFile(setup.Input)
}

// digest returns the raw 32-byte SHA-256 digest of data.
func digest(data []byte) ([]byte, error) {
	sum := sha256.Sum256(data)
	return sum[:], nil
}

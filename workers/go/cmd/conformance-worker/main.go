// Command conformance-worker registers the operations that versus's worker
// conformance scenarios expect (docs/worker-protocol.md, "Conformance"):
//
//	versus conformance -- ./conformance-worker
package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	versus "github.com/versus-bench/versus/workers/go"
)

// spinOutput is shared so that spin's result costs no allocation.
var spinOutput = []byte("spin")

func main() {
	versus.Register("echo", echo, versus.WithSetup(readInput))
	versus.Register("noop", noop)
	versus.Register("spin", spin, versus.WithSetup(spinDuration))
	versus.Register("noisy", noisy)
	versus.Register("fails", fails)
	versus.Register("bad_setup", noop, versus.WithSetup(badSetup))
	versus.Main()
}

// echo returns the input file's bytes, read by its setup hook.
func echo(input []byte) ([]byte, error) { return input, nil }

func readInput(setup versus.Setup) ([]byte, error) {
	if setup.Input == "" {
		return nil, errors.New("echo needs an input file")
	}
	return os.ReadFile(setup.Input)
}

// noop returns an empty byte string.
func noop(struct{}) ([]byte, error) { return nil, nil }

// spin busy-waits params.micros microseconds (default 100) per call.
func spin(d time.Duration) ([]byte, error) {
	start := time.Now()
	for time.Since(start) < d {
	}
	return spinOutput, nil
}

func spinDuration(setup versus.Setup) (time.Duration, error) {
	micros, err := setup.Params.Int("micros", 100)
	return time.Duration(micros) * time.Microsecond, err
}

// noisy prints on stdout and stderr on every call; it returns a string, to
// exercise the string output path.
func noisy(struct{}) (string, error) {
	fmt.Println("noisy: a line on stdout")
	fmt.Fprintln(os.Stderr, "noisy: a line on stderr")
	return "noisy", nil
}

// fails fails on every call.
func fails(struct{}) ([]byte, error) {
	return nil, errors.New("fails: this operation always fails")
}

func badSetup(versus.Setup) (struct{}, error) {
	return struct{}{}, errors.New("bad_setup: this setup hook always fails")
}

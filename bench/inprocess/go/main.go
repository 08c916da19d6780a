// Command worker is the versus side of bench/inprocess.sh for Go: it serves
// sha256_1mb and noop (ops.go) over the worker protocol. The setup hook
// builds the 1 MB buffer, untimed. native_test.go times the same functions
// with testing.B.
package main

import versus "github.com/versus-bench/versus/workers/go"

func main() {
	versus.Register("sha256_1mb", digest, versus.WithSetup(func(versus.Setup) ([]byte, error) {
		return makeData(), nil
	}))
	versus.Register("noop", noop)
	versus.Main()
}

// Command aa-spin is the in-process worker of bench/aa-runs.sh: the
// operation spin runs `work` rounds of xorshift64 per call (the matrix
// parameter), times AA_PERCENT/100 when that variable is set, so one
// implementation can be made to do 5% more work than its identical copies.
package main

import (
	"encoding/binary"
	"os"
	"strconv"

	versus "github.com/versus-bench/versus/workers/go"
)

func main() {
	versus.Register("spin", spin, versus.WithSetup(rounds))
	versus.Main()
}

// rounds reads the rounds per call from the cell's parameters, untimed.
func rounds(setup versus.Setup) (uint64, error) {
	n, err := setup.Params.Int("work", 1000000)
	if err != nil {
		return 0, err
	}
	if p, err := strconv.ParseUint(os.Getenv("AA_PERCENT"), 10, 64); err == nil {
		return uint64(n) * p / 100, nil
	}
	return uint64(n), nil
}

// spin runs n rounds of xorshift64 and returns the final state.
func spin(n uint64) ([]byte, error) {
	x := uint64(88172645463325252)
	for i := uint64(0); i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return binary.LittleEndian.AppendUint64(nil, x), nil
}

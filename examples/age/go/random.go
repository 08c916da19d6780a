// Sequential against random-access reading of an encrypted file held in
// memory, through age.DecryptReaderAt: the seed's "Random Access" table. Both
// operations read the whole plaintext in 16 KiB reads, in file order or in a
// fixed shuffled order, into one buffer, which must equal the payload.
package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"

	"filippo.io/age"
	versus "github.com/versus-bench/versus/workers/go"
)

const readSize = 16 << 10

type randomState struct {
	ct      []byte
	size    int
	id      *age.X25519Identity
	offsets []int
}

func registerRandom() {
	versus.Register("read_sequential", readAll, versus.WithSetup(func(su versus.Setup) (*randomState, error) { return newRandom(su, false) }))
	versus.Register("read_random", readAll, versus.WithSetup(func(su versus.Setup) (*randomState, error) { return newRandom(su, true) }))
}

func newRandom(su versus.Setup, shuffled bool) (*randomState, error) {
	payload, err := os.ReadFile(su.Input)
	if err != nil {
		return nil, err
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return nil, err
	}
	ct, err := encrypt(payload, false, id.Recipient())
	if err != nil {
		return nil, err
	}
	s := &randomState{ct: ct, size: len(payload), id: id}
	for off := 0; off < len(payload); off += readSize {
		s.offsets = append(s.offsets, off)
	}
	if shuffled {
		rng := rand.New(rand.NewSource(1))
		rng.Shuffle(len(s.offsets), func(i, j int) { s.offsets[i], s.offsets[j] = s.offsets[j], s.offsets[i] })
	}
	got, err := readAll(s)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(got, payload) {
		return nil, fmt.Errorf("reading did not restore the payload")
	}
	return s, nil
}

// readAll opens the file (header parsed, file key unwrapped) and reads every
// block at its offset into a new output buffer (allocated per call, as in
// the Rust worker).
func readAll(s *randomState) ([]byte, error) {
	ra, size, err := age.DecryptReaderAt(bytes.NewReader(s.ct), int64(len(s.ct)), s.id)
	if err != nil {
		return nil, err
	}
	if size != int64(s.size) {
		return nil, fmt.Errorf("plaintext size %d, want %d", size, s.size)
	}
	out := make([]byte, s.size)
	for _, off := range s.offsets {
		end := min(off+readSize, s.size)
		// A read that ends at the end of the file may say io.EOF with every byte read.
		if n, err := ra.ReadAt(out[off:end], int64(off)); err != nil && !(err == io.EOF && n == end-off) {
			return nil, err
		}
	}
	return out, nil
}

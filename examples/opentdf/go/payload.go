// The suite's payload generator (payload.command): writes SIZE bytes of
// deterministic pseudo-random data (ChaCha8 with a fixed seed, the same bytes
// on every machine) to --out, and the Go SDK's TDF of them to
// --out + ".go-sdk.tdf", for every implementation's decrypt-go-tdf: the
// cross-SDK check needs a Go-written TDF of exactly the cell's payload, and
// the payload generator is the one step that runs per size, after the KAS
// has started and before any cell. The TDF is checked by decrypting it
// through the KAS before the generator succeeds.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

const goTDFSuffix = ".go-sdk.tdf"

func runPayload(args []string) error {
	fs := flag.NewFlagSet("payload", flag.ContinueOnError)
	sizeText := fs.String("size", "", "payload size: 256B, 1KiB, 64KiB, 1MiB, 100MiB, 1KB, 1MB ...")
	out := fs.String("out", "", "file to write the payload to")
	state := fs.String("state", "", "the KAS's --state folder")
	kasURL := fs.String("kas-url", "", "KAS base URL (default: the kas-url file in --state)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || *state == "" || *sizeText == "" {
		return fmt.Errorf("payload needs --size, --out and --state")
	}
	size, err := parseSize(*sizeText)
	if err != nil {
		return err
	}
	plain := make([]byte, size)
	var seed [32]byte
	copy(seed[:], "versus examples/opentdf payload")
	_, _ = rand.NewChaCha8(seed).Read(plain)
	if err := os.WriteFile(*out, plain, 0o644); err != nil {
		return err
	}

	c, err := newClient(*kasURL, *state)
	if err != nil {
		return err
	}
	var tdf bytes.Buffer
	if err := c.encrypt(plain, &tdf); err != nil {
		return fmt.Errorf("encrypting the cross-check TDF: %w", err)
	}
	if err := c.roundTrip(tdf.Bytes(), plain); err != nil {
		return fmt.Errorf("checking the cross-check TDF: %w", err)
	}
	return os.WriteFile(*out+goTDFSuffix, tdf.Bytes(), 0o644)
}

// parseSize reads a size as versus writes them: a number and an optional
// unit, B, KB/MB/GB (powers of 1000) or KiB/MiB/GiB (powers of 1024).
func parseSize(text string) (int, error) {
	units := []struct {
		suffix string
		mult   int
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}
	t := strings.TrimSpace(text)
	mult := 1
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSuffix(t, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("size %q: not a size", text)
	}
	return int(n * float64(mult)), nil
}

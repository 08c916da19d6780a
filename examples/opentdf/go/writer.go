// go-writer: the Go SDK's experimental segment writer (sdk/experimental/tdf),
// as the seed report's "Go Exp. Writer": the payload is cut into 2 MiB
// segments (the SDK's default segment size), each encrypted by its own
// goroutine (at most GOMAXPROCS at a time), then the writer is finalized and
// the TDF assembled: the segments' bytes in index order, then the final part.
package main

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/opentdf/platform/protocol/go/policy"
	"github.com/opentdf/platform/sdk/experimental/tdf"
)

const writerSegmentSize = 2 << 20

func writeSegments(c *client, plain []byte, out *bytes.Buffer) error {
	key := &policy.SimpleKasKey{
		KasUri: c.kasInfo.URL,
		PublicKey: &policy.SimpleKasPublicKey{
			Algorithm: policy.Algorithm_ALGORITHM_RSA_2048,
			Kid:       c.kasInfo.KID,
			Pem:       c.kasInfo.PublicKey,
		},
	}
	w, err := tdf.NewWriter(background, tdf.WithDefaultKASForWriter(key), tdf.WithTargetMode(tdfVersion))
	if err != nil {
		return fmt.Errorf("tdf.NewWriter: %w", err)
	}
	n := (len(plain) + writerSegmentSize - 1) / writerSegmentSize
	if n == 0 {
		n = 1
	}
	results := make([]*tdf.SegmentResult, n)
	errs := make([]error, n)
	limit := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		lo, hi := i*writerSegmentSize, min((i+1)*writerSegmentSize, len(plain))
		wg.Add(1)
		limit <- struct{}{}
		go func() {
			defer wg.Done()
			results[i], errs[i] = w.WriteSegment(background, i, plain[lo:hi])
			<-limit
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("WriteSegment %d: %w", i, err)
		}
	}
	final, err := w.Finalize(background, tdf.WithDefaultKAS(key))
	if err != nil {
		return fmt.Errorf("Finalize: %w", err)
	}
	out.Reset()
	for i, r := range results {
		if _, err := io.Copy(out, r.TDFData); err != nil {
			return fmt.Errorf("segment %d: %w", i, err)
		}
	}
	out.Write(final.Data)
	return nil
}

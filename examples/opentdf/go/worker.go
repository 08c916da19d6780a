// The versus worker: registers the operations of one implementation.
//
// go-sdk:    encrypt (CreateTDF), decrypt (LoadTDF, network rewrap),
//            decrypt-go-tdf (the same on the payload generator's TDF)
// go-writer: encrypt (experimental segment writer, parallel segments)
//
// Setup (untimed) reads the payload and checks the implementation once end
// to end: an encrypt cell first decrypts its own output through the KAS, so
// an encryption that could not be read back fails the cell instead of being
// timed. Every decrypt returns the plaintext, which versus compares with the
// payload (roundtrip). The Go SDK has no hook for a local unwrap, so Go has
// no decrypt-local.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	versus "github.com/versus-bench/versus/workers/go"
)

// state of one cell: the input and a reused output buffer.
type cell struct {
	in  []byte
	out *bytes.Buffer
}

func runWorker(impl string, args []string) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	kasURL := fs.String("kas-url", "", "KAS base URL (default: the kas-url file in --state)")
	state := fs.String("state", "", "the KAS's --state folder (kas-public.pem)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *state == "" {
		return fmt.Errorf("--state is required")
	}
	// One SDK client per worker process, made on the first setup (the KAS
	// must be up by then; versus starts services before any worker).
	var c *client
	get := func() (*client, error) {
		if c != nil {
			return c, nil
		}
		var err error
		c, err = newClient(*kasURL, *state)
		return c, err
	}

	switch impl {
	case "go-sdk":
		versus.Register("encrypt", func(s cell) ([]byte, error) {
			err := c.encrypt(s.in, s.out)
			return s.out.Bytes(), err
		}, versus.WithSetup(func(st versus.Setup) (cell, error) {
			cl, plain, err := setupPlain(get, st.Input)
			if err != nil {
				return cell{}, err
			}
			out := new(bytes.Buffer)
			if err := cl.encrypt(plain, out); err != nil {
				return cell{}, err
			}
			return cell{in: plain, out: new(bytes.Buffer)}, cl.roundTrip(out.Bytes(), plain)
		}))
		versus.Register("decrypt", decryptOp, versus.WithSetup(func(st versus.Setup) (cell, error) {
			cl, plain, err := setupPlain(get, st.Input)
			if err != nil {
				return cell{}, err
			}
			tdf := new(bytes.Buffer)
			if err := cl.encrypt(plain, tdf); err != nil {
				return cell{}, err
			}
			return cell{in: tdf.Bytes(), out: bytes.NewBuffer(make([]byte, 0, len(plain)))}, nil
		}))
		versus.Register("decrypt-go-tdf", decryptOp, versus.WithSetup(func(st versus.Setup) (cell, error) {
			if _, err := get(); err != nil {
				return cell{}, err
			}
			tdf, err := os.ReadFile(st.Payload + goTDFSuffix)
			if err != nil {
				return cell{}, fmt.Errorf("the payload generator's TDF: %w", err)
			}
			return cell{in: tdf, out: new(bytes.Buffer)}, nil
		}))
		decryptClient = get
	case "go-writer":
		versus.Register("encrypt", func(s cell) ([]byte, error) {
			err := writeSegments(c, s.in, s.out)
			return s.out.Bytes(), err
		}, versus.WithSetup(func(st versus.Setup) (cell, error) {
			cl, plain, err := setupPlain(get, st.Input)
			if err != nil {
				return cell{}, err
			}
			out := new(bytes.Buffer)
			if err := writeSegments(cl, plain, out); err != nil {
				return cell{}, err
			}
			// The segment writer cannot read; the Go SDK's reader checks it.
			return cell{in: plain, out: new(bytes.Buffer)}, cl.roundTrip(out.Bytes(), plain)
		}))
	default:
		return fmt.Errorf("unknown implementation %q (go-sdk or go-writer)", impl)
	}
	versus.Main()
	return nil
}

var decryptClient func() (*client, error)

func decryptOp(s cell) ([]byte, error) {
	cl, err := decryptClient()
	if err != nil {
		return nil, err
	}
	if err := cl.decrypt(s.in, s.out); err != nil {
		return nil, err
	}
	return s.out.Bytes(), nil
}

func setupPlain(get func() (*client, error), input string) (*client, []byte, error) {
	cl, err := get()
	if err != nil {
		return nil, nil, err
	}
	plain, err := os.ReadFile(input)
	if err != nil {
		return nil, nil, err
	}
	return cl, plain, nil
}

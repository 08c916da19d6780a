// wazero host for tdfcore.wasm: a versus worker (operations `encrypt`,
// `decrypt-local` and `decrypt-go-tdf-local`), or, with
// `encrypt|decrypt IN OUT [IN OUT ...]`, a one-shot command used by check.sh.
//
//	wazero-host --module tdfcore.wasm --state KAS_STATE [flags] [encrypt|decrypt IN OUT ...]
//
// KAS_STATE is the folder the KAS writes at start (../../kas): kas-public.pem,
// kas-private.pem and kas-url; --public, --private and --kas-url override
// its files. They are read when the first cell is set up, not at start, so
// the worker may start before the KAS has written them.

package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	versus "github.com/versus-bench/versus/workers/go"
)

func main() {
	var cfg config
	var state, publicPath, privatePath, tdfVersion string
	var segmentSize uint
	flag.StringVar(&state, "state", "", "the KAS state folder (kas-public.pem, kas-private.pem, kas-url)")
	flag.StringVar(&cfg.modulePath, "module", "tdfcore.wasm", "the TDF core module")
	flag.StringVar(&publicPath, "public", "", "KAS public key (PEM), for encrypt")
	flag.StringVar(&privatePath, "private", "", "KAS private key (PEM), for the local unwrap in decrypt")
	flag.StringVar(&cfg.kasURL, "kas-url", "", "KAS URL written into the manifest (default: STATE/kas-url)")
	flag.StringVar(&cfg.kid, "kid", "r1", "key id written into the manifest (none if empty)")
	flag.UintVar(&segmentSize, "segment-size", 2<<20, "plaintext bytes per segment")
	flag.StringVar(&tdfVersion, "tdf-version", "4.2.2", "manifest form: 4.2.2 (no schemaVersion, hex hashes; what every SDK here reads) or 4.3.0")
	version := flag.Bool("version", false, "print the versions and exit")
	flag.Parse()
	cfg.segmentSize = uint32(segmentSize)
	switch tdfVersion {
	case "4.2.2":
		cfg.legacy = true
	case "4.3.0":
	default:
		fmt.Fprintln(os.Stderr, "wazero-host: --tdf-version must be 4.2.2 or 4.3.0")
		os.Exit(2)
	}
	if state != "" {
		publicPath = orDefault(publicPath, filepath.Join(state, "kas-public.pem"))
		privatePath = orDefault(privatePath, filepath.Join(state, "kas-private.pem"))
	}

	if *version {
		fmt.Println(versionLine(cfg.modulePath))
		return
	}
	load := func() (*tdfModule, error) {
		var err error
		if publicPath != "" {
			if cfg.publicPEM, err = os.ReadFile(publicPath); err != nil {
				return nil, err
			}
		}
		if privatePath != "" {
			if cfg.privatePEM, err = os.ReadFile(privatePath); err != nil {
				return nil, err
			}
		}
		if cfg.kasURL == "" && state != "" {
			b, err := os.ReadFile(filepath.Join(state, "kas-url"))
			if err != nil {
				return nil, err
			}
			cfg.kasURL = strings.TrimSpace(string(b))
		}
		return loadModule(cfg)
	}
	if flag.NArg() > 0 {
		if err := oneShot(load, flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "wazero-host:", err)
			os.Exit(1)
		}
		return
	}
	serve(load)
}

// oneShot runs `encrypt|decrypt IN OUT [IN OUT ...]` on one module instance.
func oneShot(load func() (*tdfModule, error), args []string) error {
	if len(args) < 3 || len(args)%2 != 1 || (args[0] != "encrypt" && args[0] != "decrypt") {
		return fmt.Errorf("usage: [flags] encrypt|decrypt IN OUT [IN OUT ...]")
	}
	t, err := load()
	if err != nil {
		return err
	}
	defer t.close()
	op := t.encrypt
	if args[0] == "decrypt" {
		op = t.decrypt
	}
	for i := 1; i < len(args); i += 2 {
		in, err := os.ReadFile(args[i])
		if err != nil {
			return err
		}
		out, err := op(in)
		if err != nil {
			return fmt.Errorf("%s: %w", args[i], err)
		}
		if err := os.WriteFile(args[i+1], out, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// serve runs the versus worker. decrypt-local decrypts its input when that
// is a TDF; given plaintext (the payload), setup first encrypts it with the
// module, untimed, since a worker operation cannot chain on another's output.
func serve(load func() (*tdfModule, error)) {
	var t *tdfModule
	instance := func() (*tdfModule, error) {
		var err error
		if t == nil {
			t, err = load()
		}
		return t, err
	}
	versus.Register("encrypt", func(pt []byte) ([]byte, error) { return t.encrypt(pt) },
		versus.WithSetup(func(s versus.Setup) ([]byte, error) {
			if _, err := instance(); err != nil {
				return nil, err
			}
			return os.ReadFile(s.Input)
		}))
	versus.Register("decrypt-local", func(tdf []byte) ([]byte, error) { return t.decrypt(tdf) },
		versus.WithSetup(func(s versus.Setup) ([]byte, error) {
			if _, err := instance(); err != nil {
				return nil, err
			}
			in, err := os.ReadFile(s.Input)
			if err != nil || bytes.HasPrefix(in, []byte("PK\x03\x04")) {
				return in, err
			}
			return t.encrypt(in)
		}))
	// The Go SDK's TDF of the payload, written beside it by the suite's
	// payload generator: the module reading another writer's TDF.
	versus.Register("decrypt-go-tdf-local", func(tdf []byte) ([]byte, error) { return t.decrypt(tdf) },
		versus.WithSetup(func(s versus.Setup) ([]byte, error) {
			if _, err := instance(); err != nil {
				return nil, err
			}
			return os.ReadFile(s.Payload + goTDFSuffix)
		}))
	versus.Main()
}

// goTDFSuffix names the Go SDK's TDF beside the payload (../go/payload.go).
const goTDFSuffix = ".go-sdk.tdf"

func versionLine(modulePath string) string {
	wazeroVersion := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/tetratelabs/wazero" {
				wazeroVersion = dep.Version
			}
		}
	}
	size := "missing"
	if st, err := os.Stat(modulePath); err == nil {
		size = fmt.Sprintf("%d bytes", st.Size())
	}
	return fmt.Sprintf("wazero %s (compiler), host %s; module %s (%s)", wazeroVersion, runtime.Version(), modulePath, size)
}

func orDefault(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

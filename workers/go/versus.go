// Package versus is the Go worker library for versus, the cross-language
// benchmarking tool.
//
// A worker registers named operations and hands control to the library,
// which speaks versus's worker protocol (version 1, docs/worker-protocol.md in
// the versus repository) on the file descriptors the core passes in
// VERSUS_WORKER_FDS. The core owns the sampling policy and the statistics;
// this library only runs an operation N times between two readings of the
// monotonic clock, so every language is measured by the same method.
//
//	func main() {
//		versus.Register("sha256", digest, versus.WithSetup(readInput))
//		versus.Main()
//	}
//
// Standard output and standard error stay free for the code under test: the
// protocol never uses them.
package versus

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Library is the name this library gives in its hello, and Version its
// version.
const (
	Library = "versus-worker-go"
	Version = "0.1.0"
)

// Output is what an operation may return: bytes, or a string (its bytes are
// reported as they are, so a Go string holding UTF-8 text is reported as
// UTF-8).
type Output interface {
	~[]byte | ~string
}

// Setup is what the core passes to a setup hook: the cell the operation is
// about to be measured in.
type Setup struct {
	// Operation is the registered name being set up.
	Operation string
	// Params holds the cell's matrix parameters. Never nil.
	Params Params
	// Payload is the path of the payload file, or "" when the core sent null.
	Payload string
	// Input is the path of the operation's input (the payload, or an
	// earlier operation's output), or "" when the core sent null.
	Input string
}

// Option configures a registered operation whose setup state has type S.
type Option[S any] func(*hooks[S])

type hooks[S any] struct {
	setup    func(Setup) (S, error)
	teardown func(S) error
}

// WithSetup gives an operation a setup hook. The core calls it once per cell,
// outside any timed region; the state it returns is passed to every call of
// the operation and to the teardown hook. An error (or a panic) from the hook
// is reported to the core as setup_failed.
func WithSetup[S any](setup func(Setup) (S, error)) Option[S] {
	return func(h *hooks[S]) { h.setup = setup }
}

// WithTeardown gives an operation a teardown hook, called with the setup
// state when the core is done with the cell.
func WithTeardown[S any](teardown func(state S) error) Option[S] {
	return func(h *hooks[S]) { h.teardown = teardown }
}

// Register adds an operation to the worker under name. op is the code under
// test: it receives the state returned by the setup hook (the zero S when
// there is no setup hook) and returns its output. An error or a panic from op
// is reported to the core as operation_failed.
//
// Register must be called before Main, typically from main or init. It
// panics if name is empty or already registered, as both are programming
// errors.
func Register[S any, O Output](name string, op func(state S) (O, error), opts ...Option[S]) {
	register(defaultRegistry, name, op, opts...)
}

func register[S any, O Output](r *registry, name string, op func(S) (O, error), opts ...Option[S]) {
	if op == nil {
		panic("versus: Register " + strconv.Quote(name) + " with a nil operation")
	}
	reg := &registration[S, O]{op: op}
	for _, opt := range opts {
		opt(&reg.hooks)
	}
	r.add(name, reg)
}

// Main serves the protocol on the file descriptors named by VERSUS_WORKER_FDS
// and exits the process: with status 0 after shutdown or when the request
// channel closes, 1 if the channel fails, and 2 (after printing a message) if
// the program was not started by versus.
func Main() {
	os.Exit(run(os.Getenv("VERSUS_WORKER_FDS"), os.Stderr))
}

// Serve speaks the protocol with the operations registered so far: it sends
// hello to responses, then answers each request line read from requests. It
// returns nil after shutdown or at the end of requests, and an error when
// reading or writing fails. Main calls it; use it directly to serve other
// streams.
func Serve(requests io.Reader, responses io.Writer) error {
	return defaultRegistry.serve(requests, responses)
}

// run is Main without the exit, returning the process status.
func run(fdsVar string, stderr io.Writer) int {
	if fdsVar == "" {
		fmt.Fprintf(stderr, "%s is a versus worker: it must be started by versus, which passes "+
			"its request and response pipes in VERSUS_WORKER_FDS (not set).\n", os.Args[0])
		return 2
	}
	readFD, writeFD, err := parseFDs(fdsVar)
	if err != nil {
		fmt.Fprintf(stderr, "versus worker: %v\n", err)
		return 2
	}
	requests := os.NewFile(readFD, "versus-requests")
	responses := os.NewFile(writeFD, "versus-responses")
	if err := Serve(requests, responses); err != nil {
		fmt.Fprintf(stderr, "versus worker: %v\n", err)
		return 1
	}
	return 0
}

// parseFDs reads VERSUS_WORKER_FDS, "R,W".
func parseFDs(value string) (readFD, writeFD uintptr, err error) {
	r, w, ok := strings.Cut(value, ",")
	if ok {
		var rn, wn uint64
		rn, err = strconv.ParseUint(strings.TrimSpace(r), 10, 31)
		if err == nil {
			wn, err = strconv.ParseUint(strings.TrimSpace(w), 10, 31)
		}
		if err == nil {
			return uintptr(rn), uintptr(wn), nil
		}
	}
	return 0, 0, fmt.Errorf("VERSUS_WORKER_FDS is %q; expected two file descriptors, \"R,W\"", value)
}

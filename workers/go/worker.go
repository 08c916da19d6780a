package versus

// The serving side: a registry of operations, one set-up cell at a time, and
// the timed loop. The core sends one request at a time and waits for its
// answer, so the server is a plain sequential loop with no locking.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"time"
)

// registry holds the registered operations, in registration order (the order
// hello lists them in).
type registry struct {
	names      []string
	operations map[string]operation
}

var defaultRegistry = newRegistry()

func newRegistry() *registry {
	return &registry{operations: map[string]operation{}}
}

func (r *registry) add(name string, op operation) {
	if name == "" {
		panic("versus: Register with an empty operation name")
	}
	if _, taken := r.operations[name]; taken {
		panic("versus: operation " + strconv.Quote(name) + " registered twice")
	}
	r.names = append(r.names, name)
	r.operations[name] = op
}

// operation is a registered operation, whatever its state and output types.
type operation interface {
	// start runs the setup hook and returns the set-up cell.
	start(Setup) (cell, error)
}

// cell is an operation set up for one cell of the core's matrix.
type cell interface {
	run(iterations int64, mem *memCounters) (resultData, error)
	verify() (outputData, error)
	stop() error
}

// memCounters holds the runtime statistics read around a timed loop. It
// lives on the heap for the life of the server: runtime.MemStats is a few
// kilobytes, too big to want on the stack next to the loop.
type memCounters struct {
	before, after runtime.MemStats
}

type registration[S any, O Output] struct {
	op    func(S) (O, error)
	hooks hooks[S]
}

func (r *registration[S, O]) start(setup Setup) (cell, error) {
	c := &activeCell[S, O]{op: r.op, teardown: r.hooks.teardown}
	if r.hooks.setup != nil {
		err := catch(func() (err error) {
			c.state, err = r.hooks.setup(setup)
			return err
		})
		if err != nil {
			return nil, newError(classSetupFailed, "setup of %s failed: %v", setup.Operation, err)
		}
	}
	return c, nil
}

// activeCell is a set-up operation with its state.
type activeCell[S any, O Output] struct {
	op       func(S) (O, error)
	teardown func(S) error
	state    S
	// sink receives the last result of the timed loop, so it stays reachable
	// until the clock has been read (runtime.KeepAlive after the loop).
	sink O
}

// run calls the operation iterations times between two readings of the
// monotonic clock. Inside the timed region there is only the call, the error
// check and the store into the sink: no allocation, logging or JSON by the
// library. The runtime's allocation and GC counters are read outside it.
func (c *activeCell[S, O]) run(iterations int64, mem *memCounters) (result resultData, err error) {
	op, state := c.op, c.state
	defer func() {
		if p := recover(); p != nil {
			err = newError(classOperationFailed, "operation panicked: %v", p)
		}
	}()
	var opErr error

	// Each result goes to a local and only the last to the heap: op is a
	// function value, an indirect call the compiler can neither inline nor
	// drop, so every call happens without a store (and its write-barrier
	// check) per iteration in the timed region.
	var last O
	runtime.ReadMemStats(&mem.before)
	start := time.Now()
	for i := int64(0); i < iterations; i++ {
		out, err := op(state)
		if err != nil {
			opErr = err
			break
		}
		last = out
	}
	elapsed := time.Since(start)
	c.sink = last
	runtime.ReadMemStats(&mem.after)
	runtime.KeepAlive(c.sink)

	if opErr != nil {
		return resultData{}, newError(classOperationFailed, "operation failed: %v", opErr)
	}
	return resultData{
		Iterations: iterations,
		ElapsedNs:  elapsed.Nanoseconds(),
		AllocBytes: mem.after.TotalAlloc - mem.before.TotalAlloc,
		GCCount:    uint64(mem.after.NumGC - mem.before.NumGC),
	}, nil
}

// verify calls the operation once more and digests what it returned.
func (c *activeCell[S, O]) verify() (outputData, error) {
	var out O
	err := catch(func() (err error) {
		out, err = c.op(c.state)
		return err
	})
	if err != nil {
		return outputData{}, newError(classOperationFailed, "operation failed: %v", err)
	}
	sum := sha256.Sum256([]byte(out))
	return outputData{SHA256: hex.EncodeToString(sum[:]), Length: len(out)}, nil
}

func (c *activeCell[S, O]) stop() error {
	if c.teardown == nil {
		return nil
	}
	return catch(func() error { return c.teardown(c.state) })
}

// catch runs f, turning a panic into an error.
func catch(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f()
}

// server is one conversation with the core.
type server struct {
	registry   *registry
	responses  io.Writer
	active     cell
	activeName string
	mem        *memCounters
}

func (r *registry) serve(requests io.Reader, responses io.Writer) error {
	s := &server{registry: r, responses: responses, mem: new(memCounters)}
	if err := s.send("hello", 0, newHello(r.names)); err != nil {
		return err
	}
	defer s.release()
	reader := bufio.NewReader(requests)
	for {
		line, readErr := reader.ReadBytes('\n')
		// A last line without its newline is still a request.
		if len(bytes.TrimSpace(line)) > 0 {
			shutdown, err := s.handle(line)
			if err != nil || shutdown {
				return err
			}
		}
		if readErr == io.EOF {
			return nil
		}
		if readErr != nil {
			return fmt.Errorf("reading requests: %w", readErr)
		}
	}
}

// handle answers one request line. It reports whether the request was
// shutdown, and fails only when the answer cannot be written.
func (s *server) handle(line []byte) (shutdown bool, err error) {
	req, perr := decodeRequest(line)
	if perr != nil {
		return false, s.send("error", req.ID, perr)
	}
	kind, data := s.dispatch(req)
	return req.Type == "shutdown" && kind == "bye", s.send(kind, req.ID, data)
}

// dispatch runs a decoded request and returns the answer's type and data.
func (s *server) dispatch(req request) (kind string, data any) {
	defer func() {
		if p := recover(); p != nil {
			kind, data = "error", newError(classInternal, "the worker library panicked: %v", p)
		}
	}()
	var err error
	switch req.Type {
	case "setup":
		kind, data, err = "ready", empty{}, s.setup(req)
	case "run":
		kind = "result"
		data, err = s.run(req)
	case "verify":
		kind = "output"
		data, err = s.verify()
	case "teardown":
		kind, data, err = "done", empty{}, s.teardown()
	case "shutdown":
		kind, data = "bye", empty{}
		s.release()
	default:
		err = newError(classBadRequest, "unknown message type %q", req.Type)
	}
	if err != nil {
		return "error", asProtocolError(err)
	}
	return kind, data
}

func (s *server) setup(req request) error {
	setup, perr := decodeSetup(req.Data)
	if perr != nil {
		return perr
	}
	// A new setup means the core is done with the previous cell.
	s.release()
	op, ok := s.registry.operations[setup.Operation]
	if !ok {
		return newError(classUnknownOperation, "no operation %q is registered (registered: %v)",
			setup.Operation, s.registry.names)
	}
	c, err := op.start(setup)
	if err != nil {
		return err
	}
	s.active, s.activeName = c, setup.Operation
	return nil
}

func (s *server) run(req request) (any, error) {
	iterations, perr := decodeRun(req.Data)
	if perr != nil {
		return nil, perr
	}
	if s.active == nil {
		return nil, newError(classBadRequest, "run before setup")
	}
	return s.active.run(iterations, s.mem)
}

func (s *server) verify() (any, error) {
	if s.active == nil {
		return nil, newError(classBadRequest, "verify before setup")
	}
	return s.active.verify()
}

// teardown runs the active cell's teardown hook, if any, and forgets the
// cell. Without a set-up cell there is nothing to do, which is not an error:
// the core may tear down after a setup that failed. The protocol has no class
// for a failing teardown hook; it is user code, not the library, so it is
// reported like a failing operation.
func (s *server) teardown() error {
	if s.active == nil {
		return nil
	}
	name := s.activeName
	err := s.active.stop()
	s.active, s.activeName = nil, ""
	if err != nil {
		return newError(classOperationFailed, "teardown of %s failed: %v", name, err)
	}
	return nil
}

// release tears down the active cell when no request asked for it (a new
// setup, shutdown, end of input). There is no request to answer with a
// failure, so it goes to stderr, which the core keeps in the worker log.
func (s *server) release() {
	if err := s.teardown(); err != nil {
		fmt.Fprintf(os.Stderr, "versus worker: %s\n", err.(*protocolError).Message)
	}
}

func (s *server) send(kind string, id int64, data any) error {
	line, err := encodeResponse(kind, id, data)
	if err != nil {
		// Every response type encodes; this is a bug in the library.
		line, _ = encodeResponse("error", id, newError(classInternal, "encoding %s: %v", kind, err))
	}
	if _, err := s.responses.Write(line); err != nil {
		return fmt.Errorf("writing %s: %w", kind, err)
	}
	return nil
}

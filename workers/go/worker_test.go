package versus

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// message is how these tests read responses: with their own generic type,
// not the library's, so the tests check the wire format itself.
type message struct {
	Type string         `json:"type"`
	ID   int64          `json:"id"`
	Data map[string]any `json:"data"`
}

func (m message) String() string {
	b, _ := json.Marshal(m)
	return string(b)
}

// converse serves the request lines and returns every response, hello first.
func converse(t *testing.T, r *registry, requests ...string) []message {
	t.Helper()
	var out bytes.Buffer
	if err := r.serve(strings.NewReader(strings.Join(requests, "\n")+"\n"), &out); err != nil {
		t.Fatalf("serve: %v", err)
	}
	return parseResponses(t, out.Bytes())
}

func parseResponses(t *testing.T, out []byte) []message {
	t.Helper()
	var messages []message
	scanner := bufio.NewScanner(bytes.NewReader(out))
	for scanner.Scan() {
		var m message
		if err := json.Unmarshal(scanner.Bytes(), &m); err != nil {
			t.Fatalf("response %q is not a protocol message: %v", scanner.Text(), err)
		}
		messages = append(messages, m)
	}
	return messages
}

func expectType(t *testing.T, m message, kind string, id int64) {
	t.Helper()
	if m.Type != kind || m.ID != id {
		t.Fatalf("got %v, want type %q id %d", m, kind, id)
	}
}

func expectError(t *testing.T, m message, class string, id int64) {
	t.Helper()
	expectType(t, m, "error", id)
	if m.Data["class"] != class {
		t.Fatalf("got %v, want class %q", m, class)
	}
	if msg, _ := m.Data["message"].(string); msg == "" {
		t.Fatalf("error without a message: %v", m)
	}
}

func number(t *testing.T, m message, key string) float64 {
	t.Helper()
	v, ok := m.Data[key].(float64)
	if !ok {
		t.Fatalf("%v: %s is not a number", m, key)
	}
	return v
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// events records what hooks saw, for the tests to check.
type events struct{ log []string }

func (e *events) add(format string, args ...any) { e.log = append(e.log, fmt.Sprintf(format, args...)) }

type counter struct {
	name  string
	calls int
}

func testRegistry(ev *events) *registry {
	r := newRegistry()
	register(r, "echo", func(input []byte) ([]byte, error) { return input, nil },
		WithSetup(func(s Setup) ([]byte, error) { return os.ReadFile(s.Input) }))
	register(r, "noop", func(struct{}) ([]byte, error) { return nil, nil })
	register(r, "text", func(struct{}) (string, error) { return "héllo, wörld", nil })
	register(r, "count", func(c *counter) ([]byte, error) { c.calls++; return nil, nil },
		WithSetup(func(s Setup) (*counter, error) {
			ev.add("setup %s", s.Operation)
			return &counter{name: s.Operation}, nil
		}),
		WithTeardown(func(c *counter) error { ev.add("teardown after %d calls", c.calls); return nil }))
	register(r, "alloc", func(struct{}) ([]byte, error) { return make([]byte, 1000), nil })
	register(r, "fails", func(struct{}) ([]byte, error) { return nil, errors.New("always") })
	register(r, "panics", func(struct{}) ([]byte, error) { panic("boom") })
	register(r, "bad_setup", func(struct{}) ([]byte, error) { return nil, nil },
		WithSetup(func(Setup) (struct{}, error) { return struct{}{}, errors.New("no") }))
	register(r, "panicky_setup", func(struct{}) ([]byte, error) { return nil, nil },
		WithSetup(func(Setup) (struct{}, error) { panic("setup boom") }))
	register(r, "bad_teardown", func(struct{}) ([]byte, error) { return nil, nil },
		WithTeardown(func(struct{}) error { return errors.New("leaked") }))
	register(r, "params", func(s Setup) (string, error) { return fmt.Sprintf("%+v", s), nil },
		WithSetup(func(s Setup) (Setup, error) { return s, nil }))
	return r
}

func setupLine(id int, op string) string {
	return fmt.Sprintf(`{"type":"setup","id":%d,"data":{"operation":%q,"params":{},"payload":null,"input":null}}`, id, op)
}

func runLine(id, iterations int) string {
	return fmt.Sprintf(`{"type":"run","id":%d,"data":{"iterations":%d}}`, id, iterations)
}

func simple(kind string, id int) string {
	return fmt.Sprintf(`{"type":%q,"id":%d,"data":{}}`, kind, id)
}

func TestFullConversation(t *testing.T) {
	payload := []byte("the payload\x00\xff bytes\n")
	path := filepath.Join(t.TempDir(), "payload.bin")
	if err := os.WriteFile(path, payload, 0o600); err != nil {
		t.Fatal(err)
	}
	got := converse(t, testRegistry(&events{}),
		fmt.Sprintf(`{"type":"setup","id":1,"data":{"operation":"echo","params":{"size":23},"payload":%q,"input":%q}}`, path, path),
		runLine(2, 1),
		runLine(3, 1000),
		simple("verify", 4),
		simple("teardown", 5),
		simple("shutdown", 6),
	)
	if len(got) != 7 {
		t.Fatalf("got %d responses: %v", len(got), got)
	}
	expectType(t, got[0], "hello", 0)
	if got[0].Data["protocol"] != 1.0 || got[0].Data["language"] != "go" {
		t.Errorf("hello: %v", got[0])
	}
	expectType(t, got[1], "ready", 1)
	expectType(t, got[2], "result", 2)
	expectType(t, got[3], "result", 3)
	if n := number(t, got[3], "iterations"); n != 1000 {
		t.Errorf("iterations %v, want 1000", n)
	}
	for _, key := range []string{"elapsed_ns", "alloc_bytes", "gc_count"} {
		if v := number(t, got[3], key); v < 0 {
			t.Errorf("%s = %v", key, v)
		}
	}
	expectType(t, got[4], "output", 4)
	if got[4].Data["sha256"] != sha256Hex(payload) || number(t, got[4], "length") != float64(len(payload)) {
		t.Errorf("verify: %v, want sha256 %s length %d", got[4], sha256Hex(payload), len(payload))
	}
	expectType(t, got[5], "done", 5)
	expectType(t, got[6], "bye", 6)
}

func TestHelloListsOperationsInRegistrationOrder(t *testing.T) {
	got := converse(t, testRegistry(&events{}))
	ops, _ := json.Marshal(got[0].Data["operations"])
	want := `["echo","noop","text","count","alloc","fails","panics","bad_setup","panicky_setup","bad_teardown","params"]`
	if string(ops) != want {
		t.Errorf("operations %s, want %s", ops, want)
	}
	for _, key := range []string{"runtime", "library"} {
		if s, _ := got[0].Data[key].(string); s == "" {
			t.Errorf("hello without %s: %v", key, got[0])
		}
	}
}

func TestUnknownFieldsAreIgnored(t *testing.T) {
	got := converse(t, testRegistry(&events{}),
		`{"type":"setup","future":true,"id":1,"data":{"operation":"noop","params":{},"payload":null,"input":null,"colour":"blue"},"trailer":[1,2]}`,
		`{"type":"run","id":2,"data":{"iterations":3,"hint":"ignored","nested":{"a":[]}}}`,
		`{"type":"verify","id":3,"data":{"whatever":null}}`,
	)
	expectType(t, got[1], "ready", 1)
	expectType(t, got[2], "result", 2)
	expectType(t, got[3], "output", 3)
}

func TestErrorClassesAndTheWorkerKeepsServing(t *testing.T) {
	got := converse(t, testRegistry(&events{}),
		"this is not json",                             // 1
		simple("dance", 2),                             // 2
		runLine(3, 1),                                  // 3: run before setup
		simple("verify", 4),                            // 4: verify before setup
		setupLine(5, "no_such_op"),                     // 5
		setupLine(6, "bad_setup"),                      // 6
		setupLine(7, "panicky_setup"),                  // 7
		`{"type":"setup","id":8,"data":{"params":{}}}`, // 8: missing operation
		setupLine(9, "fails"),                          // 9
		runLine(10, 2),                                 // 10
		simple("verify", 11),                           // 11
		setupLine(12, "panics"),                        // 12
		runLine(13, 5),                                 // 13
		simple("verify", 14),                           // 14
		runLine(15, 0),                                 // 15: iterations must be >= 1
		`{"type":"run","id":16,"data":{}}`,             // 16: missing iterations
		simple("teardown", 17),                         // 17
		setupLine(18, "noop"),                          // 18
		runLine(19, 1),                                 // 19
	)
	want := []struct {
		kind, class string
	}{
		{"error", classBadRequest},
		{"error", classBadRequest},
		{"error", classBadRequest},
		{"error", classBadRequest},
		{"error", classUnknownOperation},
		{"error", classSetupFailed},
		{"error", classSetupFailed},
		{"error", classBadRequest},
		{"ready", ""},
		{"error", classOperationFailed},
		{"error", classOperationFailed},
		{"ready", ""},
		{"error", classOperationFailed},
		{"error", classOperationFailed},
		{"error", classBadRequest},
		{"error", classBadRequest},
		{"done", ""},
		{"ready", ""},
		{"result", ""},
	}
	if len(got) != len(want)+1 {
		t.Fatalf("got %d responses, want %d: %v", len(got), len(want)+1, got)
	}
	for i, w := range want {
		m := got[i+1]
		wantID := int64(i + 1)
		if i == 0 {
			wantID = 0 // an unreadable line has no id to echo
		}
		if w.kind == "error" {
			expectError(t, m, w.class, wantID)
		} else {
			expectType(t, m, w.kind, wantID)
		}
	}
}

func TestRunCallsTheOperationExactlyIterationsTimes(t *testing.T) {
	ev := &events{}
	converse(t, testRegistry(ev),
		setupLine(1, "count"),
		runLine(2, 1),
		runLine(3, 7),
		runLine(4, 100),
		simple("verify", 5),
		simple("teardown", 6),
	)
	want := []string{"setup count", "teardown after 109 calls"}
	if fmt.Sprint(ev.log) != fmt.Sprint(want) {
		t.Errorf("hooks saw %q, want %q", ev.log, want)
	}
}

func TestTeardownHappensOnceWhateverEndsTheCell(t *testing.T) {
	cases := map[string][]string{
		"new setup":    {setupLine(1, "count"), runLine(2, 2), setupLine(3, "noop")},
		"shutdown":     {setupLine(1, "count"), runLine(2, 2), simple("shutdown", 3)},
		"end of input": {setupLine(1, "count"), runLine(2, 2)},
		"teardown":     {setupLine(1, "count"), runLine(2, 2), simple("teardown", 3), simple("teardown", 4)},
	}
	for name, requests := range cases {
		t.Run(name, func(t *testing.T) {
			ev := &events{}
			got := converse(t, testRegistry(ev), requests...)
			want := []string{"setup count", "teardown after 2 calls"}
			if fmt.Sprint(ev.log) != fmt.Sprint(want) {
				t.Errorf("hooks saw %q, want %q", ev.log, want)
			}
			for _, m := range got {
				if m.Type == "error" {
					t.Errorf("unexpected %v", m)
				}
			}
		})
	}
}

func TestTeardownWithoutSetupIsDone(t *testing.T) {
	got := converse(t, testRegistry(&events{}), simple("teardown", 1))
	expectType(t, got[1], "done", 1)
}

func TestFailingTeardownHookIsAnError(t *testing.T) {
	got := converse(t, testRegistry(&events{}),
		setupLine(1, "bad_teardown"), simple("teardown", 2), runLine(3, 1))
	expectError(t, got[2], classOperationFailed, 2)
	// The cell is forgotten all the same.
	expectError(t, got[3], classBadRequest, 3)
}

func TestShutdownStopsServing(t *testing.T) {
	got := converse(t, testRegistry(&events{}), simple("shutdown", 1), setupLine(2, "noop"))
	if len(got) != 2 {
		t.Fatalf("got %v, want hello and bye only", got)
	}
	expectType(t, got[1], "bye", 1)
}

func TestLastLineWithoutNewlineIsServed(t *testing.T) {
	var out bytes.Buffer
	in := strings.NewReader(setupLine(1, "noop") + "\n\n   \n" + runLine(2, 1))
	if err := testRegistry(&events{}).serve(in, &out); err != nil {
		t.Fatal(err)
	}
	got := parseResponses(t, out.Bytes())
	if len(got) != 3 {
		t.Fatalf("got %v", got)
	}
	expectType(t, got[1], "ready", 1)
	expectType(t, got[2], "result", 2)
}

func TestVerifyDigestsStringsAsUTF8AndEmptyOutput(t *testing.T) {
	got := converse(t, testRegistry(&events{}),
		setupLine(1, "text"), simple("verify", 2),
		setupLine(3, "noop"), simple("verify", 4))
	text := []byte("héllo, wörld")
	if got[2].Data["sha256"] != sha256Hex(text) || number(t, got[2], "length") != float64(len(text)) {
		t.Errorf("string output: %v", got[2])
	}
	if got[4].Data["sha256"] != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" ||
		number(t, got[4], "length") != 0 {
		t.Errorf("empty output: %v", got[4])
	}
}

func TestSetupReceivesParamsAndPaths(t *testing.T) {
	got := converse(t, testRegistry(&events{}),
		`{"type":"setup","id":1,"data":{"operation":"params","params":{"n":3,"mode":"x","on":true},"payload":"/p","input":"/i"}}`,
		simple("verify", 2))
	expectType(t, got[1], "ready", 1)
	want := `{Operation:params Params:map[mode:x n:3 on:true] Payload:/p Input:/i}`
	if got[2].Data["sha256"] != sha256Hex([]byte(want)) {
		t.Errorf("setup did not receive %s", want)
	}
}

func TestAllocationCounters(t *testing.T) {
	got := converse(t, testRegistry(&events{}),
		setupLine(1, "noop"), runLine(2, 1000),
		setupLine(3, "alloc"), runLine(4, 1000))
	if n := number(t, got[2], "alloc_bytes"); n != 0 {
		t.Errorf("noop: alloc_bytes %v, want 0 (the library must not allocate in the timed loop)", n)
	}
	if n := number(t, got[4], "alloc_bytes"); n < 1000*1000 {
		t.Errorf("alloc: alloc_bytes %v, want at least 1000 x 1000", n)
	}
	if _, ok := got[4].Data["gc_count"]; !ok {
		t.Errorf("no gc_count: %v", got[4])
	}
}

func TestWriteFailureEndsServe(t *testing.T) {
	err := testRegistry(&events{}).serve(strings.NewReader(""), failingWriter{})
	if err == nil {
		t.Fatal("serve ignored a write failure")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestRegisterRejectsProgrammingErrors(t *testing.T) {
	noop := func(struct{}) ([]byte, error) { return nil, nil }
	for name, f := range map[string]func(r *registry){
		"empty name": func(r *registry) { register(r, "", noop) },
		"duplicate":  func(r *registry) { register(r, "a", noop); register(r, "a", noop) },
		"nil op":     func(r *registry) { register[struct{}, []byte](r, "a", nil) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f(newRegistry())
		})
	}
}

func TestParseFDs(t *testing.T) {
	if r, w, err := parseFDs("3,4"); err != nil || r != 3 || w != 4 {
		t.Errorf("3,4: %d %d %v", r, w, err)
	}
	for _, bad := range []string{"3", "3,", ",4", "a,b", "-1,4", "3;4", "3,4,5"} {
		if _, _, err := parseFDs(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

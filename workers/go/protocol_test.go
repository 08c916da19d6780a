package versus

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

func TestDecodeRequest(t *testing.T) {
	tests := []struct {
		name     string
		line     string
		wantType string
		wantID   int64
		wantData string
	}{
		{"envelope", `{"type":"run","id":7,"data":{"iterations":1000}}` + "\n", "run", 7, `{"iterations":1000}`},
		{"unknown top-level fields", `{"type":"setup","future":true,"id":3,"data":{"colour":"blue"},"x":[1,{}]}`, "setup", 3, `{"colour":"blue"}`},
		{"whitespace", "  {\"type\": \"verify\", \"id\": 2, \"data\": {}}  \r\n", "verify", 2, `{}`},
		{"missing data is empty", `{"type":"shutdown","id":9}`, "shutdown", 9, `{}`},
		{"null data is empty", `{"type":"teardown","id":9,"data":null}`, "teardown", 9, `{}`},
		{"missing id is 0", `{"type":"teardown","data":{}}`, "teardown", 0, `{}`},
		{"large id", `{"type":"run","id":9007199254740993,"data":{}}`, "run", 9007199254740993, `{}`},
		{"unknown type still decodes", `{"type":"dance","id":1,"data":{}}`, "dance", 1, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, perr := decodeRequest([]byte(tt.line))
			if perr != nil {
				t.Fatalf("decodeRequest: %v", perr)
			}
			if req.Type != tt.wantType || req.ID != tt.wantID || string(req.Data) != tt.wantData {
				t.Errorf("got type %q id %d data %s, want %q %d %s", req.Type, req.ID, req.Data, tt.wantType, tt.wantID, tt.wantData)
			}
		})
	}
}

func TestDecodeRequestRejects(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		wantID int64 // echoed when the line had a readable id
	}{
		{"not json", "this is not json", 0},
		{"truncated", `{"type":"run","id":4,`, 0},
		{"null", "null", 0},
		{"array", `[{"type":"run"}]`, 0},
		{"string", `"run"`, 0},
		{"missing type", `{"id":5,"data":{}}`, 5},
		{"type not a string", `{"type":3,"id":5}`, 0},
		{"id not an integer", `{"type":"run","id":1.5,"data":{}}`, 0},
		{"id a string", `{"type":"run","id":"6","data":{}}`, 0},
		{"data not an object", `{"type":"run","id":6,"data":[1]}`, 6},
		{"data a number", `{"type":"run","id":6,"data":4}`, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, perr := decodeRequest([]byte(tt.line))
			if perr == nil {
				t.Fatalf("decodeRequest accepted %s as %+v", tt.line, req)
			}
			if perr.Class != classBadRequest {
				t.Errorf("class %q, want bad_request", perr.Class)
			}
			if perr.Message == "" {
				t.Error("empty message")
			}
			if req.ID != tt.wantID {
				t.Errorf("id %d, want %d", req.ID, tt.wantID)
			}
		})
	}
}

func TestDecodeSetup(t *testing.T) {
	setup, perr := decodeSetup(json.RawMessage(`{"operation":"sha256","params":{"size":1048576,"big":9007199254740993,"mode":"fast","armor":true},` +
		`"payload":"/tmp/p","input":"/tmp/i","colour":"blue"}`))
	if perr != nil {
		t.Fatal(perr)
	}
	if setup.Operation != "sha256" || setup.Payload != "/tmp/p" || setup.Input != "/tmp/i" {
		t.Errorf("got %+v", setup)
	}
	if n, err := setup.Params.Int("big", 0); err != nil || n != 9007199254740993 {
		t.Errorf("big integer param: %d, %v (numbers must stay exact)", n, err)
	}
	if got := setup.Params.String("mode", ""); got != "fast" {
		t.Errorf("mode %q", got)
	}

	setup, perr = decodeSetup(json.RawMessage(`{"operation":"noop","params":{},"payload":null,"input":null}`))
	if perr != nil {
		t.Fatal(perr)
	}
	if setup.Payload != "" || setup.Input != "" || setup.Params == nil || len(setup.Params) != 0 {
		t.Errorf("null paths and empty params: got %+v", setup)
	}

	setup, perr = decodeSetup(json.RawMessage(`{"operation":"noop"}`))
	if perr != nil {
		t.Fatal(perr)
	}
	if setup.Params == nil {
		t.Error("absent params must give an empty, non-nil Params")
	}
}

func TestDecodeSetupRejects(t *testing.T) {
	for _, data := range []string{
		`{}`,
		`{"operation":null}`,
		`{"operation":5}`,
		`{"operation":"noop","params":[]}`,
		`{"operation":"noop","params":"x"}`,
		`{"operation":"noop","payload":3}`,
		`{"operation":"noop","input":{}}`,
	} {
		if setup, perr := decodeSetup(json.RawMessage(data)); perr == nil || perr.Class != classBadRequest {
			t.Errorf("%s: got %+v, %v; want bad_request", data, setup, perr)
		}
	}
}

func TestDecodeRun(t *testing.T) {
	n, perr := decodeRun(json.RawMessage(`{"iterations":1000,"hint":"ignored"}`))
	if perr != nil || n != 1000 {
		t.Fatalf("got %d, %v", n, perr)
	}
	for _, data := range []string{`{}`, `{"iterations":null}`, `{"iterations":0}`, `{"iterations":-3}`,
		`{"iterations":1.5}`, `{"iterations":"3"}`, `{"iterations":1e3}`} {
		if n, perr := decodeRun(json.RawMessage(data)); perr == nil || perr.Class != classBadRequest {
			t.Errorf("%s: got %d, %v; want bad_request", data, n, perr)
		}
	}
}

func TestEncodeResponse(t *testing.T) {
	tests := []struct {
		kind string
		id   int64
		data any
		want string
	}{
		{"ready", 41, empty{}, `{"type":"ready","id":41,"data":{}}`},
		{"result", 42, resultData{Iterations: 8, ElapsedNs: 1234, AllocBytes: 256, GCCount: 1},
			`{"type":"result","id":42,"data":{"iterations":8,"elapsed_ns":1234,"alloc_bytes":256,"gc_count":1}}`},
		{"result", 43, resultData{Iterations: 1, ElapsedNs: 5},
			`{"type":"result","id":43,"data":{"iterations":1,"elapsed_ns":5,"alloc_bytes":0,"gc_count":0}}`},
		{"output", 3, outputData{SHA256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", Length: 0},
			`{"type":"output","id":3,"data":{"sha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","length":0}}`},
		{"error", 4, newError(classSetupFailed, "setup of x failed: no \"file\"\n"),
			`{"type":"error","id":4,"data":{"class":"setup_failed","message":"setup of x failed: no \"file\"\n"}}`},
	}
	for _, tt := range tests {
		line, err := encodeResponse(tt.kind, tt.id, tt.data)
		if err != nil {
			t.Fatal(err)
		}
		if string(line) != tt.want+"\n" {
			t.Errorf("got  %s\nwant %s", line, tt.want)
		}
		if strings.Count(string(line), "\n") != 1 {
			t.Errorf("%s: a response must be exactly one line", tt.kind)
		}
	}
}

func TestHello(t *testing.T) {
	line, err := encodeResponse("hello", 0, newHello([]string{"a", "b"}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"hello","id":0,"data":{"protocol":1,"language":"go","runtime":"` + runtime.Version() +
		`","library":"versus-worker-go ` + Version + `","operations":["a","b"]}}` + "\n"
	if string(line) != want {
		t.Errorf("got  %s\nwant %s", line, want)
	}
	// No operations is an empty list, not null.
	line, _ = encodeResponse("hello", 0, newHello(nil))
	if !strings.Contains(string(line), `"operations":[]`) {
		t.Errorf("got %s", line)
	}
}

func TestInvalidUTF8InMessagesStillEncodes(t *testing.T) {
	line, err := encodeResponse("error", 1, newError(classOperationFailed, "bad byte \xff"))
	if err != nil {
		t.Fatal(err)
	}
	var decoded map[string]any
	if err := json.Unmarshal(line, &decoded); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
}

package versus

// The wire format: one JSON object per line, {"type", "id", "data"}. Readers
// ignore fields they do not know, at every level; encoding/json already does
// so for struct targets, which is why every message is decoded into a struct.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
)

// ProtocolVersion is the version of the worker protocol this library speaks.
const ProtocolVersion = 1

// Error classes, a closed set within a protocol version. The core maps them
// to cell outcomes and never reads the message.
const (
	classUnknownOperation   = "unknown_operation"
	classSetupFailed        = "setup_failed"
	classOperationFailed    = "operation_failed"
	classBadRequest         = "bad_request"
	classUnsupportedVersion = "unsupported_version" // reserved: never sent in version 1
	classInternal           = "internal"
)

// protocolError is an error answer: a class from the set above and a message
// for people.
type protocolError struct {
	Class   string `json:"class"`
	Message string `json:"message"`
}

func (e *protocolError) Error() string { return e.Class + ": " + e.Message }

func newError(class, format string, args ...any) *protocolError {
	return &protocolError{Class: class, Message: fmt.Sprintf(format, args...)}
}

// request is a decoded request envelope; data is still raw, decoded by the
// handler for its type.
type request struct {
	Type string
	ID   int64
	Data json.RawMessage
}

// decodeRequest parses one request line. On failure it returns the id it
// could read (0 when none) with a bad_request error, so the answer still
// echoes the id whenever the line had one.
func decodeRequest(line []byte) (request, *protocolError) {
	var envelope struct {
		Type *string         `json:"type"`
		ID   json.RawMessage `json:"id"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(line, &envelope); err != nil {
		return request{}, newError(classBadRequest, "not a JSON object: %v", err)
	}
	if !isObject(line) { // null unmarshals into a struct without error
		return request{}, newError(classBadRequest, "not a JSON object: %s", bytes.TrimSpace(line))
	}
	var req request
	if len(envelope.ID) > 0 && !isNull(envelope.ID) {
		id, err := strconv.ParseInt(string(envelope.ID), 10, 64)
		if err != nil {
			return request{}, newError(classBadRequest, "id must be an integer, got %s", envelope.ID)
		}
		req.ID = id
	}
	if envelope.Type == nil {
		return req, newError(classBadRequest, "missing field type")
	}
	req.Type = *envelope.Type
	switch {
	case len(envelope.Data) == 0 || isNull(envelope.Data):
		req.Data = json.RawMessage("{}")
	case isObject(envelope.Data):
		req.Data = envelope.Data
	default:
		return req, newError(classBadRequest, "%s: data must be an object, got %s", req.Type, envelope.Data)
	}
	return req, nil
}

func isNull(raw []byte) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

func isObject(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// setupRequest is the data of setup.
type setupRequest struct {
	Operation *string         `json:"operation"`
	Params    json.RawMessage `json:"params"`
	Payload   *string         `json:"payload"`
	Input     *string         `json:"input"`
}

// decodeSetup reads setup's data. operation is required; params, payload and
// input may be null or absent.
func decodeSetup(data json.RawMessage) (Setup, *protocolError) {
	var raw setupRequest
	if err := json.Unmarshal(data, &raw); err != nil {
		return Setup{}, newError(classBadRequest, "setup: %v", err)
	}
	if raw.Operation == nil {
		return Setup{}, newError(classBadRequest, "setup: missing field operation")
	}
	setup := Setup{Operation: *raw.Operation, Params: Params{}}
	if raw.Payload != nil {
		setup.Payload = *raw.Payload
	}
	if raw.Input != nil {
		setup.Input = *raw.Input
	}
	if len(raw.Params) > 0 && !isNull(raw.Params) {
		if !isObject(raw.Params) {
			return Setup{}, newError(classBadRequest, "setup: params must be an object, got %s", raw.Params)
		}
		decoder := json.NewDecoder(bytes.NewReader(raw.Params))
		decoder.UseNumber()
		if err := decoder.Decode(&setup.Params); err != nil {
			return Setup{}, newError(classBadRequest, "setup: params: %v", err)
		}
	}
	return setup, nil
}

// decodeRun reads run's data: iterations, an integer of at least 1.
func decodeRun(data json.RawMessage) (int64, *protocolError) {
	var raw struct {
		Iterations json.RawMessage `json:"iterations"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return 0, newError(classBadRequest, "run: %v", err)
	}
	if len(raw.Iterations) == 0 || isNull(raw.Iterations) {
		return 0, newError(classBadRequest, "run: missing field iterations")
	}
	n, err := strconv.ParseInt(string(raw.Iterations), 10, 64)
	if err != nil || n < 1 {
		return 0, newError(classBadRequest, "run: iterations must be an integer >= 1, got %s", raw.Iterations)
	}
	return n, nil
}

// Responses.

type response struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
	Data any    `json:"data"`
}

type helloData struct {
	Protocol   int      `json:"protocol"`
	Language   string   `json:"language"`
	Runtime    string   `json:"runtime"`
	Library    string   `json:"library"`
	Operations []string `json:"operations"`
}

func newHello(operations []string) helloData {
	if operations == nil {
		operations = []string{}
	}
	return helloData{
		Protocol:   ProtocolVersion,
		Language:   "go",
		Runtime:    runtime.Version(),
		Library:    Library + " " + Version,
		Operations: operations,
	}
}

// resultData answers run. AllocBytes and GCCount come from the Go runtime's
// own counters, so a Go worker always reports them.
type resultData struct {
	Iterations int64  `json:"iterations"`
	ElapsedNs  int64  `json:"elapsed_ns"`
	AllocBytes uint64 `json:"alloc_bytes"`
	GCCount    uint64 `json:"gc_count"`
}

// outputData answers verify.
type outputData struct {
	SHA256 string `json:"sha256"`
	Length int    `json:"length"`
}

type empty struct{}

// encodeResponse renders one response line, newline included.
func encodeResponse(kind string, id int64, data any) ([]byte, error) {
	line, err := json.Marshal(response{Type: kind, ID: id, Data: data})
	if err != nil {
		return nil, err
	}
	return append(line, '\n'), nil
}

// asProtocolError classifies err: protocol errors keep their class, anything
// else is internal.
func asProtocolError(err error) *protocolError {
	var perr *protocolError
	if errors.As(err, &perr) {
		return perr
	}
	return newError(classInternal, "%v", err)
}

package versus

// These tests start this test binary again as a worker process, wired the
// way versus wires one: requests on fd 3, responses on fd 4, both real pipes.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const childEnv = "VERSUS_GO_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		Register("echo", func(input []byte) ([]byte, error) { return input, nil },
			WithSetup(func(s Setup) ([]byte, error) { return os.ReadFile(s.Input) }))
		Register("noisy", func(struct{}) (string, error) {
			fmt.Println(`{"type":"result","id":99,"data":{}}`) // looks like protocol, must not be taken for it
			fmt.Fprintln(os.Stderr, "noise on stderr")
			return "noisy", nil
		})
		Main()
	}
	os.Exit(m.Run())
}

// child is a worker process under test.
type child struct {
	t         *testing.T
	cmd       *exec.Cmd
	requests  *os.File
	responses *bufio.Reader
	stdout    bytes.Buffer
	stderr    bytes.Buffer
	exited    chan struct{} // closed when the process has exited
	exitErr   error
}

func startChild(t *testing.T, env ...string) *child {
	t.Helper()
	reqRead, reqWrite, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respRead, respWrite, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &child{t: t, requests: reqWrite, exited: make(chan struct{})}
	c.cmd = exec.Command(os.Args[0], "-test.run=^$")
	c.cmd.Env = append(environWithout("VERSUS_WORKER_FDS"), childEnv+"=1")
	c.cmd.Env = append(c.cmd.Env, env...)
	c.cmd.ExtraFiles = []*os.File{reqRead, respWrite} // fds 3 and 4
	c.cmd.Stdout, c.cmd.Stderr = &c.stdout, &c.stderr
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reqRead.Close()
	respWrite.Close()
	if err := respRead.SetReadDeadline(time.Now().Add(20 * time.Second)); err != nil {
		t.Fatal(err)
	}
	c.responses = bufio.NewReader(respRead)
	go func() {
		c.exitErr = c.cmd.Wait()
		close(c.exited)
	}()
	t.Cleanup(func() {
		reqWrite.Close()
		respRead.Close()
		select {
		case <-c.exited:
		case <-time.After(10 * time.Second):
			_ = c.cmd.Process.Kill()
		}
	})
	return c
}

func environWithout(name string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, name+"=") {
			env = append(env, kv)
		}
	}
	return env
}

func (c *child) send(line string) {
	c.t.Helper()
	if _, err := c.requests.WriteString(line + "\n"); err != nil {
		c.t.Fatal(err)
	}
}

func (c *child) receive() message {
	c.t.Helper()
	line, err := c.responses.ReadBytes('\n')
	if err != nil {
		c.t.Fatalf("reading a response: %v (stderr: %s)", err, c.stderr.String())
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		c.t.Fatalf("%q is not a protocol message: %v", line, err)
	}
	return m
}

// wait returns the worker's exit status.
func (c *child) wait() int {
	c.t.Helper()
	select {
	case <-c.exited:
		var exit *exec.ExitError
		if errors.As(c.exitErr, &exit) {
			return exit.ExitCode()
		}
		if c.exitErr != nil {
			c.t.Fatal(c.exitErr)
		}
		return 0
	case <-time.After(10 * time.Second):
		c.t.Fatal("the worker did not exit within 10 s")
		return -1
	}
}

func TestWorkerOverRealFileDescriptors(t *testing.T) {
	payload := bytes.Repeat([]byte("0123456789abcdef"), 4096)
	path := filepath.Join(t.TempDir(), "payload")
	if err := os.WriteFile(path, payload, 0o600); err != nil {
		t.Fatal(err)
	}
	c := startChild(t, "VERSUS_WORKER_FDS=3,4", "VERSUS_PROTOCOL=1")

	hello := c.receive()
	expectType(t, hello, "hello", 0)
	if ops, _ := json.Marshal(hello.Data["operations"]); string(ops) != `["echo","noisy"]` {
		t.Errorf("operations %s", ops)
	}

	c.send(fmt.Sprintf(`{"type":"setup","id":1,"data":{"operation":"echo","params":{},"payload":%q,"input":%q}}`, path, path))
	expectType(t, c.receive(), "ready", 1)
	c.send(runLine(2, 500))
	result := c.receive()
	expectType(t, result, "result", 2)
	if number(t, result, "iterations") != 500 {
		t.Errorf("result %v", result)
	}
	c.send(simple("verify", 3))
	output := c.receive()
	expectType(t, output, "output", 3)
	if output.Data["sha256"] != sha256Hex(payload) || number(t, output, "length") != float64(len(payload)) {
		t.Errorf("output %v", output)
	}

	c.send(setupLine(4, "noisy"))
	expectType(t, c.receive(), "ready", 4)
	c.send(runLine(5, 3))
	expectType(t, c.receive(), "result", 5)
	c.send("not json")
	expectError(t, c.receive(), classBadRequest, 0)

	c.send(simple("shutdown", 6))
	expectType(t, c.receive(), "bye", 6)
	if status := c.wait(); status != 0 {
		t.Errorf("exit status %d after shutdown, want 0 (stderr: %s)", status, c.stderr.String())
	}
	if n := strings.Count(c.stdout.String(), `"id":99`); n != 3 {
		t.Errorf("stdout has %d lines from noisy, want 3: %q", n, c.stdout.String())
	}
	if n := strings.Count(c.stderr.String(), "noise on stderr"); n != 3 {
		t.Errorf("stderr has %d lines from noisy, want 3: %q", n, c.stderr.String())
	}
}

func TestWorkerExitsAtEndOfInput(t *testing.T) {
	c := startChild(t, "VERSUS_WORKER_FDS=3,4")
	expectType(t, c.receive(), "hello", 0)
	c.requests.Close()
	if status := c.wait(); status != 0 {
		t.Errorf("exit status %d, want 0", status)
	}
}

func TestWorkerNotStartedByVersus(t *testing.T) {
	for _, tt := range []struct {
		name string
		env  []string
	}{
		{"no VERSUS_WORKER_FDS", nil},
		{"malformed VERSUS_WORKER_FDS", []string{"VERSUS_WORKER_FDS=three"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := startChild(t, tt.env...)
			if status := c.wait(); status != 2 {
				t.Errorf("exit status %d, want 2", status)
			}
			if !strings.Contains(c.stderr.String(), "VERSUS_WORKER_FDS") {
				t.Errorf("stderr does not say what is missing: %q", c.stderr.String())
			}
			if c.stdout.Len() != 0 {
				t.Errorf("stdout: %q", c.stdout.String())
			}
		})
	}
}

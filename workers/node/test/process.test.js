// Whole conversations with real worker processes over OS pipes on fds 3 and
// 4, as the core runs them (FIFOs stand in for the core's pipe2 pipes).

import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { readLines } from "../src/transport.js";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const CONFORMANCE = here("../conformance-worker.mjs");
const SHA256_EXAMPLE = here("../examples/sha256-worker.mjs");
const dir = mkdtempSync(join(tmpdir(), "versus-worker-process-"));
after(() => rmSync(dir, { recursive: true, force: true }));

let fifoCount = 0;
function fifo() {
  const path = join(dir, `fifo${fifoCount++}`);
  execFileSync("mkfifo", [path]);
  return path;
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/**
 * Starts `node script` with a request pipe on fd 3 and a response pipe on
 * fd 4. Returns helpers to send requests, read responses and await the exit.
 */
function startWorker(script) {
  const requests = fifo();
  const responses = fifo();
  // O_NONBLOCK lets each open succeed before the other end is open.
  const requestRead = openSync(
    requests,
    constants.O_RDONLY | constants.O_NONBLOCK,
  );
  const requestWrite = openSync(requests, constants.O_WRONLY);
  const responseRead = openSync(
    responses,
    constants.O_RDONLY | constants.O_NONBLOCK,
  );
  const responseWrite = openSync(responses, constants.O_WRONLY);
  const child = spawn(process.execPath, [script], {
    stdio: ["ignore", "pipe", "pipe", requestRead, responseWrite],
    env: { ...process.env, VERSUS_WORKER_FDS: "3,4", VERSUS_PROTOCOL: "1" },
  });
  closeSync(requestRead);
  closeSync(responseWrite);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text) => (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text) => (stderr += text));
  const exited = new Promise((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const lines = readLines(
    new Socket({ fd: responseRead, readable: true, writable: false }),
  );
  let nextId = 1;
  let open = true;
  const worker = {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    sendRaw(text) {
      writeSync(requestWrite, text + "\n");
    },
    send(type, data = {}, id = nextId++) {
      worker.sendRaw(JSON.stringify({ type, id, data }));
      return id;
    },
    async next() {
      const { value, done } = await lines.next();
      assert.equal(done, false, "the worker closed its response channel");
      return JSON.parse(value);
    },
    async ask(type, data) {
      const id = worker.send(type, data);
      const message = await worker.next();
      assert.equal(message.id, id);
      return message;
    },
    close() {
      if (open) closeSync(requestWrite);
      open = false;
    },
  };
  return worker;
}

// Fails the test instead of hanging when a worker does not exit.
function within(ms, promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no exit within ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe("conformance worker over pipes", () => {
  it("holds a whole conversation and exits 0 after bye", async () => {
    const payload = join(dir, "payload.bin");
    const bytes = Buffer.from("the payload bytes\n".repeat(100));
    writeFileSync(payload, bytes);
    const worker = startWorker(CONFORMANCE);
    try {
      const hello = await worker.next();
      assert.equal(hello.type, "hello");
      assert.equal(hello.id, 0);
      assert.equal(hello.data.protocol, 1);
      assert.equal(hello.data.language, "node");
      assert.match(hello.data.runtime, /^Node\.js \d+\.\d+\.\d+$/);
      assert.match(hello.data.library, /^versus-worker-node \d+\.\d+\.\d+$/);
      assert.deepEqual(hello.data.operations, [
        "echo",
        "noop",
        "spin",
        "noisy",
        "fails",
        "bad_setup",
      ]);

      const setup = { params: {}, payload, input: payload };
      assert.equal(
        (await worker.ask("setup", { ...setup, operation: "echo" })).type,
        "ready",
      );
      const result = await worker.ask("run", { iterations: 10 });
      assert.equal(result.type, "result");
      assert.equal(result.data.iterations, 10);
      assert.ok(Number.isSafeInteger(result.data.elapsed_ns));
      assert.deepEqual((await worker.ask("verify")).data, {
        sha256: sha256(bytes),
        length: bytes.length,
      });
      assert.equal((await worker.ask("teardown")).type, "done");

      const spin = await worker.ask("setup", {
        ...setup,
        operation: "spin",
        params: { micros: 1000 },
      });
      assert.equal(spin.type, "ready");
      const spun = await worker.ask("run", { iterations: 3 });
      assert.ok(
        spun.data.elapsed_ns >= 3_000_000,
        `${spun.data.elapsed_ns} ns`,
      );

      worker.sendRaw("this is not json");
      assert.equal((await worker.next()).data.class, "bad_request");
      const failing = await worker.ask("setup", {
        ...setup,
        operation: "bad_setup",
      });
      assert.equal(failing.data.class, "setup_failed");
      assert.equal(
        (await worker.ask("setup", { ...setup, operation: "fails" })).type,
        "ready",
      );
      assert.equal(
        (await worker.ask("run", { iterations: 2 })).data.class,
        "operation_failed",
      );
      assert.equal((await worker.ask("verify")).data.class, "operation_failed");

      assert.equal((await worker.ask("shutdown")).type, "bye");
      // The request pipe is still open: the worker must leave by itself.
      const { code } = await within(10_000, worker.exited, "after bye");
      assert.equal(code, 0);
    } finally {
      worker.close();
      worker.child.kill();
    }
  });

  it("leaves stdout and stderr to the code under test", async () => {
    const worker = startWorker(CONFORMANCE);
    try {
      await worker.next();
      await worker.ask("setup", {
        operation: "noisy",
        params: {},
        payload: null,
        input: null,
      });
      const result = await worker.ask("run", { iterations: 3 });
      assert.equal(result.type, "result");
      assert.deepEqual((await worker.ask("verify")).data, {
        sha256: sha256("noisy"),
        length: 5,
      });
      worker.close();
      await within(10_000, worker.exited, "after end of input");
      const { stdout, stderr } = worker.output();
      assert.equal(
        stdout.split("\n").filter((l) => l.startsWith("noisy")).length,
        4,
      );
      assert.equal(
        stderr.split("\n").filter((l) => l.startsWith("noisy")).length,
        4,
      );
    } finally {
      worker.close();
      worker.child.kill();
    }
  });

  it("exits when its request channel closes", async () => {
    const worker = startWorker(CONFORMANCE);
    try {
      await worker.next();
      await worker.ask("setup", {
        operation: "noop",
        params: {},
        payload: null,
        input: null,
      });
      worker.close();
      const { code } = await within(
        10_000,
        worker.exited,
        "after end of input",
      );
      assert.equal(code, 0);
    } finally {
      worker.child.kill();
    }
  });
});

describe("sha256 example over pipes", () => {
  it("returns the raw 32-byte digest of the input", async () => {
    const input = join(dir, "input.bin");
    const bytes = Buffer.alloc(1 << 20, 7);
    writeFileSync(input, bytes);
    const worker = startWorker(SHA256_EXAMPLE);
    try {
      const hello = await worker.next();
      assert.deepEqual(hello.data.operations, ["sha256"]);
      const ready = await worker.ask("setup", {
        operation: "sha256",
        params: {},
        payload: input,
        input,
      });
      assert.equal(ready.type, "ready");
      assert.equal((await worker.ask("run", { iterations: 4 })).type, "result");
      const digest = createHash("sha256").update(bytes).digest();
      assert.deepEqual((await worker.ask("verify")).data, {
        sha256: sha256(digest),
        length: 32,
      });
      // A missing input file is the setup hook failing.
      const missing = await worker.ask("setup", {
        operation: "sha256",
        params: {},
        payload: null,
        input: join(dir, "no-such-file"),
      });
      assert.equal(missing.data.class, "setup_failed");
      assert.equal((await worker.ask("shutdown")).type, "bye");
      assert.equal((await within(10_000, worker.exited, "after bye")).code, 0);
    } finally {
      worker.close();
      worker.child.kill();
    }
  });
});

describe("started without versus", () => {
  it("says it must be run by versus and exits with status 2", async () => {
    const env = { ...process.env };
    delete env.VERSUS_WORKER_FDS;
    const child = spawn(process.execPath, [CONFORMANCE], {
      stdio: ["ignore", "pipe", "pipe"],
      env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text) => (stderr += text));
    const code = await within(
      10_000,
      new Promise((resolve) => child.on("close", resolve)),
      "without VERSUS_WORKER_FDS",
    );
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assert.match(stderr, /versus/);
    assert.match(stderr, /VERSUS_WORKER_FDS/);
  });
});

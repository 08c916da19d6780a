import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { LIBRARY_NAME, VERSION, Worker } from "../src/index.js";
import { toBytes } from "../src/worker.js";

const EMPTY_SHA256 =
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

function sha256(bytes) {
  return createHash("sha256").update(bytes).digest("hex");
}

// Sends one request (the envelope is built here) and returns the response.
async function request(worker, type, data = {}, id = 1) {
  const { message } = await worker.handle(JSON.stringify({ type, id, data }));
  return message;
}

async function setUp(worker, operation, more = {}) {
  const message = await request(worker, "setup", {
    operation,
    params: {},
    payload: null,
    input: null,
    ...more,
  });
  assert.equal(message.type, "ready", JSON.stringify(message));
}

function assertError(message, errorClass) {
  assert.equal(message.type, "error", JSON.stringify(message));
  assert.equal(message.data.class, errorClass, message.data.message);
  assert.equal(typeof message.data.message, "string");
}

describe("registration", () => {
  it("lists operations in registration order in hello", () => {
    const worker = new Worker()
      .operation("b", () => "b")
      .operation("a", () => "a");
    const hello = worker.hello();
    assert.equal(hello.type, "hello");
    assert.equal(hello.id, 0);
    assert.deepEqual(hello.data, {
      protocol: 1,
      language: "node",
      runtime: `Node.js ${process.versions.node}`,
      library: `${LIBRARY_NAME} ${VERSION}`,
      operations: ["b", "a"],
    });
  });

  it("reports the version of package.json", async () => {
    const { readFile } = await import("node:fs/promises");
    const pkg = JSON.parse(
      await readFile(new URL("../package.json", import.meta.url), "utf8"),
    );
    assert.equal(VERSION, pkg.version);
  });

  it("rejects duplicates, bad names and hooks that are not functions", () => {
    const worker = new Worker().operation("a", () => "a");
    assert.throws(() => worker.operation("a", () => "a"), /already/);
    assert.throws(() => worker.operation("", () => ""), TypeError);
    assert.throws(() => worker.operation(1, () => ""), TypeError);
    assert.throws(() => worker.operation("b", "not a function"), TypeError);
    assert.throws(
      () => worker.operation("c", () => "", { setup: 1 }),
      TypeError,
    );
    assert.throws(
      () => worker.operation("d", () => "", { teardown: "x" }),
      TypeError,
    );
  });

  it("refuses registrations once serving has started", async () => {
    const worker = new Worker().operation("a", () => "a");
    await worker.serve(lines([]), () => {});
    assert.throws(() => worker.operation("b", () => "b"), /before run/);
  });
});

describe("setup", () => {
  it("passes params, payload and input to the setup hook", async () => {
    let seen;
    const worker = new Worker().operation("op", () => "", {
      setup: (context) => {
        seen = context;
      },
    });
    await setUp(worker, "op", {
      params: { size: "1KB", level: 9, armor: false },
      payload: "/p",
      input: "/i",
      colour: "blue",
    });
    assert.deepEqual(seen, {
      operation: "op",
      params: { size: "1KB", level: 9, armor: false },
      payload: "/p",
      input: "/i",
    });
  });

  it("gives the operation the state setup returned, also when async", async () => {
    const worker = new Worker().operation("op", (state) => state.bytes, {
      setup: async () => ({ bytes: new Uint8Array([1, 2, 3]) }),
    });
    await setUp(worker, "op");
    const output = await request(worker, "verify");
    assert.deepEqual(output.data, {
      sha256: sha256(new Uint8Array([1, 2, 3])),
      length: 3,
    });
  });

  it("answers unknown_operation for an unregistered operation", async () => {
    const worker = new Worker().operation("noop", () => "");
    assertError(
      await request(worker, "setup", { operation: "nope", params: {} }),
      "unknown_operation",
    );
    await setUp(worker, "noop");
  });

  it("answers setup_failed when the hook throws or rejects", async () => {
    const worker = new Worker()
      .operation("throws", () => "", {
        setup: () => {
          throw new Error("no");
        },
      })
      .operation("rejects", () => "", {
        setup: async () => Promise.reject(new Error("no")),
      })
      .operation("throws_string", () => "", {
        setup: () => {
          throw "a string";
        },
      });
    for (const name of ["throws", "rejects", "throws_string"]) {
      assertError(
        await request(worker, "setup", { operation: name }),
        "setup_failed",
      );
      // A failed setup leaves nothing set up.
      assertError(
        await request(worker, "run", { iterations: 1 }),
        "bad_request",
      );
    }
  });

  it("tears the previous cell down when a new setup comes first", async () => {
    const events = [];
    const worker = new Worker()
      .operation("a", () => "a", {
        setup: () => "state of a",
        teardown: (state) => events.push(`teardown ${state}`),
      })
      .operation("b", () => "b");
    await setUp(worker, "a");
    await setUp(worker, "b");
    assert.deepEqual(events, ["teardown state of a"]);
    const output = await request(worker, "verify");
    assert.equal(output.data.sha256, sha256("b"));
  });
});

describe("run", () => {
  it("calls the operation exactly `iterations` times and times them", async () => {
    let calls = 0;
    const worker = new Worker().operation("count", () => {
      calls++;
      return "";
    });
    await setUp(worker, "count");
    const result = await request(worker, "run", { iterations: 1000 }, 42);
    assert.equal(result.type, "result");
    assert.equal(result.id, 42);
    assert.equal(calls, 1000);
    assert.equal(result.data.iterations, 1000);
    assert.ok(Number.isSafeInteger(result.data.elapsed_ns));
    assert.ok(result.data.elapsed_ns >= 0);
  });

  it("reports gc_count as a count, or leaves it out when asked", async () => {
    const worker = new Worker().operation("alloc", () => new Array(64));
    await setUp(worker, "alloc");
    const counted = await request(worker, "run", { iterations: 100 });
    assert.ok(Number.isSafeInteger(counted.data.gc_count));
    assert.ok(counted.data.gc_count >= 0);
    assert.equal("alloc_bytes" in counted.data, false);

    const sent = [];
    await new Worker()
      .operation("alloc", () => new Array(64))
      .serve(
        lines([
          JSON.stringify({
            type: "setup",
            id: 1,
            data: { operation: "alloc" },
          }),
          JSON.stringify({ type: "run", id: 2, data: { iterations: 10 } }),
        ]),
        (text) => sent.push(JSON.parse(text)),
        { gcCount: false },
      );
    const uncounted = sent.find((message) => message.id === 2);
    assert.equal(uncounted.type, "result");
    assert.equal("gc_count" in uncounted.data, false);
  });

  it("answers bad_request before any setup", async () => {
    const worker = new Worker().operation("noop", () => "");
    assertError(await request(worker, "run", { iterations: 1 }), "bad_request");
  });

  it("answers bad_request for iterations that are not integers >= 1", async () => {
    const worker = new Worker().operation("noop", () => "");
    await setUp(worker, "noop");
    for (const iterations of [0, -3, 2.5, "10", null]) {
      assertError(await request(worker, "run", { iterations }), "bad_request");
    }
    assertError(await request(worker, "run", {}), "bad_request");
  });

  it("answers operation_failed when the operation throws, and keeps serving", async () => {
    let calls = 0;
    const worker = new Worker().operation("third_fails", () => {
      if (++calls === 3) throw new Error("third call");
      return "";
    });
    await setUp(worker, "third_fails");
    const failed = await request(worker, "run", { iterations: 5 });
    assertError(failed, "operation_failed");
    assert.match(failed.data.message, /third call/);
    assert.equal(
      (await request(worker, "run", { iterations: 1 })).type,
      "result",
    );
  });

  it("answers operation_failed for an operation that returns a Promise", async () => {
    const worker = new Worker().operation("async", async () => "late");
    await setUp(worker, "async");
    assertError(
      await request(worker, "run", { iterations: 2 }),
      "operation_failed",
    );
    assertError(await request(worker, "verify"), "operation_failed");
  });
});

describe("verify", () => {
  const cases = [
    ["a Buffer", () => Buffer.from("hello"), Buffer.from("hello")],
    ["a string, as UTF-8", () => "héllo ✓", Buffer.from("héllo ✓", "utf8")],
    ["an empty string", () => "", Buffer.alloc(0)],
    ["undefined, as no bytes", () => undefined, Buffer.alloc(0)],
    ["null, as no bytes", () => null, Buffer.alloc(0)],
    [
      "an ArrayBuffer",
      () => new Uint8Array([9, 8, 7]).buffer,
      Buffer.from([9, 8, 7]),
    ],
    [
      "a subarray (only its own bytes)",
      () => new Uint8Array([0, 1, 2, 3, 4]).subarray(1, 3),
      Buffer.from([1, 2]),
    ],
    [
      "a Float64Array, as its bytes",
      () => new Float64Array([1.5]),
      Buffer.from(new Float64Array([1.5]).buffer),
    ],
    [
      "a DataView",
      () => new DataView(new Uint8Array([5, 6, 7, 8]).buffer, 1, 2),
      Buffer.from([6, 7]),
    ],
  ];
  for (const [what, fn, expected] of cases) {
    it(`reports sha256 and length of ${what}`, async () => {
      const worker = new Worker().operation("op", fn);
      await setUp(worker, "op");
      const output = await request(worker, "verify", {}, 5);
      assert.equal(output.type, "output");
      assert.equal(output.id, 5);
      assert.deepEqual(output.data, {
        sha256: sha256(expected),
        length: expected.length,
      });
    });
  }

  it("reports the SHA-256 of nothing for an empty result", async () => {
    const worker = new Worker().operation("noop", () => new Uint8Array(0));
    await setUp(worker, "noop");
    assert.deepEqual((await request(worker, "verify")).data, {
      sha256: EMPTY_SHA256,
      length: 0,
    });
  });

  it("calls the operation once", async () => {
    let calls = 0;
    const worker = new Worker().operation("op", () => String(++calls));
    await setUp(worker, "op");
    await request(worker, "verify");
    assert.equal(calls, 1);
  });

  it("answers operation_failed for a result that is not bytes", async () => {
    for (const value of [42, {}, [1, 2], true]) {
      const worker = new Worker().operation("op", () => value);
      await setUp(worker, "op");
      assertError(await request(worker, "verify"), "operation_failed");
    }
  });

  it("answers operation_failed when the operation throws", async () => {
    const worker = new Worker().operation("fails", () => {
      throw new TypeError("bad");
    });
    await setUp(worker, "fails");
    const failed = await request(worker, "verify");
    assertError(failed, "operation_failed");
    assert.match(failed.data.message, /TypeError: bad/);
  });

  it("answers bad_request before any setup", async () => {
    const worker = new Worker().operation("noop", () => "");
    assertError(await request(worker, "verify"), "bad_request");
  });

  it("converts every supported type without copying views", () => {
    const bytes = new Uint8Array([1, 2, 3]);
    assert.equal(toBytes(bytes).buffer, bytes.buffer);
    assert.equal(toBytes(new SharedArrayBuffer(4)).length, 4);
  });
});

describe("teardown and shutdown", () => {
  it("runs the teardown hook with the state and context, then forgets the cell", async () => {
    const seen = [];
    const worker = new Worker().operation("op", () => "", {
      setup: () => "the state",
      teardown: async (state, context) => seen.push([state, context.operation]),
    });
    await setUp(worker, "op");
    const done = await request(worker, "teardown", {}, 8);
    assert.deepEqual(done, { type: "done", id: 8, data: {} });
    assert.deepEqual(seen, [["the state", "op"]]);
    assertError(await request(worker, "run", { iterations: 1 }), "bad_request");
  });

  it("answers done when nothing is set up", async () => {
    const worker = new Worker();
    assert.equal((await request(worker, "teardown")).type, "done");
  });

  it("answers operation_failed when the teardown hook throws, and forgets the cell", async () => {
    const worker = new Worker().operation("op", () => "", {
      teardown: () => {
        throw new Error("leak");
      },
    });
    await setUp(worker, "op");
    assertError(await request(worker, "teardown"), "operation_failed");
    assertError(await request(worker, "run", { iterations: 1 }), "bad_request");
  });

  it("answers shutdown with bye and exit, tearing down first", async () => {
    const seen = [];
    const worker = new Worker().operation("op", () => "", {
      teardown: () => seen.push("teardown"),
    });
    await setUp(worker, "op");
    const { message, exit } = await worker.handle(
      '{"type":"shutdown","id":3,"data":{}}',
    );
    assert.deepEqual(message, { type: "bye", id: 3, data: {} });
    assert.equal(exit, true);
    assert.deepEqual(seen, ["teardown"]);
  });
});

describe("requests", () => {
  it("answers lines that are not JSON with bad_request and id 0", async () => {
    const worker = new Worker();
    const { message, exit } = await worker.handle("this is not json");
    assertError(message, "bad_request");
    assert.equal(message.id, 0);
    assert.equal(exit, false);
  });

  it("answers an unknown type with bad_request, echoing its id", async () => {
    const worker = new Worker();
    const message = await request(worker, "dance", {}, 12);
    assertError(message, "bad_request");
    assert.equal(message.id, 12);
  });

  it("treats hello from the core as an unknown request", async () => {
    assertError(await request(new Worker(), "hello"), "bad_request");
  });

  it("echoes the id of every response, errors included", async () => {
    const worker = new Worker().operation("noop", () => "");
    const ids = [];
    for (const [id, type, data] of [
      [41, "setup", { operation: "noop" }],
      [42, "run", { iterations: 1 }],
      [43, "verify", {}],
      [44, "run", { iterations: 0 }],
      [45, "teardown", {}],
    ]) {
      ids.push((await request(worker, type, data, id)).id);
    }
    assert.deepEqual(ids, [41, 42, 43, 44, 45]);
  });

  it("ignores unknown fields at the top level and in data", async () => {
    const worker = new Worker().operation("noop", () => "");
    const ready = await worker.handle(
      JSON.stringify({
        type: "setup",
        id: 1,
        future: true,
        data: { operation: "noop", params: {}, colour: "blue" },
      }),
    );
    assert.equal(ready.message.type, "ready");
    const result = await request(worker, "run", { iterations: 3, hint: "x" });
    assert.equal(result.type, "result");
    assert.equal(result.data.iterations, 3);
  });

  it("maps failures inside the library to internal", async () => {
    // A result whose `then` getter throws breaks the library's own check.
    const hostile = {
      get then() {
        throw new Error("hostile");
      },
    };
    const worker = new Worker().operation("op", () => hostile);
    await setUp(worker, "op");
    assertError(await request(worker, "verify"), "internal");
  });
});

// An async iterable over `items`, like the request lines of a stream.
async function* lines(items) {
  yield* items;
}

describe("serve", () => {
  it("sends hello first, answers each line and stops after bye", async () => {
    const sent = [];
    let torn = 0;
    const worker = new Worker().operation("noop", () => "", {
      teardown: () => torn++,
    });
    const status = await worker.serve(
      lines([
        '{"type":"setup","id":1,"data":{"operation":"noop"}}',
        '{"type":"run","id":2,"data":{"iterations":2}}',
        '{"type":"shutdown","id":3,"data":{}}',
        '{"type":"run","id":4,"data":{"iterations":2}}',
      ]),
      (text) => sent.push(text),
    );
    assert.equal(status, 0);
    assert.ok(sent.every((text) => text.endsWith("\n")));
    assert.deepEqual(
      sent.map((text) => JSON.parse(text).type),
      ["hello", "ready", "result", "bye"],
    );
    assert.equal(torn, 1);
  });

  it("tears down and returns 0 at the end of input", async () => {
    let torn = 0;
    const worker = new Worker().operation("noop", () => "", {
      teardown: () => torn++,
    });
    const sent = [];
    const status = await worker.serve(
      lines(['{"type":"setup","id":1,"data":{"operation":"noop"}}']),
      (text) => sent.push(JSON.parse(text).type),
    );
    assert.equal(status, 0);
    assert.deepEqual(sent, ["hello", "ready"]);
    assert.equal(torn, 1);
  });
});

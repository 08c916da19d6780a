import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ErrorClass,
  PROTOCOL_VERSION,
  ProtocolError,
  encode,
  errorMessage,
  idOf,
  parseRequest,
  parseRun,
  parseSetup,
} from "../src/protocol.js";

function assertBadRequest(fn) {
  assert.throws(fn, (err) => {
    assert.ok(err instanceof ProtocolError);
    assert.equal(err.errorClass, ErrorClass.BAD_REQUEST);
    return true;
  });
}

describe("encode", () => {
  it("writes one JSON line with the envelope", () => {
    const line = encode("result", 7, { iterations: 3, elapsed_ns: 120 });
    assert.ok(line.endsWith("\n"));
    assert.equal(line.indexOf("\n"), line.length - 1);
    assert.deepEqual(JSON.parse(line), {
      type: "result",
      id: 7,
      data: { iterations: 3, elapsed_ns: 120 },
    });
  });

  it("escapes newlines inside strings, so a message stays one line", () => {
    const line = encode("error", 1, { class: "internal", message: "a\nb" });
    assert.equal(line.split("\n").length, 2);
    assert.equal(JSON.parse(line).data.message, "a\nb");
  });

  it("builds error messages with a class and a message", () => {
    assert.deepEqual(errorMessage(4, ErrorClass.SETUP_FAILED, "boom"), {
      type: "error",
      id: 4,
      data: { class: "setup_failed", message: "boom" },
    });
  });
});

describe("error classes", () => {
  it("are the closed set of protocol version 1", () => {
    assert.equal(PROTOCOL_VERSION, 1);
    assert.deepEqual(Object.values(ErrorClass).sort(), [
      "bad_request",
      "internal",
      "operation_failed",
      "setup_failed",
      "unknown_operation",
      "unsupported_version",
    ]);
    assert.ok(Object.isFrozen(ErrorClass));
  });
});

describe("parseRequest", () => {
  it("reads type, id and data", () => {
    assert.deepEqual(
      parseRequest('{"type":"run","id":7,"data":{"iterations":1000}}'),
      { type: "run", id: 7, data: { iterations: 1000 } },
    );
  });

  it("ignores unknown fields at the top level and keeps data as sent", () => {
    const request = parseRequest(
      '{"type":"setup","id":1,"future":true,"data":{"operation":"noop","colour":"blue"}}',
    );
    assert.equal(request.type, "setup");
    assert.equal(request.id, 1);
    assert.equal(request.data.operation, "noop");
  });

  it("reads a missing or null data as an empty object", () => {
    assert.deepEqual(parseRequest('{"type":"verify","id":2}').data, {});
    assert.deepEqual(
      parseRequest('{"type":"verify","id":2,"data":null}').data,
      {},
    );
  });

  it("accepts a line with surrounding whitespace", () => {
    assert.equal(parseRequest('  {"type":"verify","id":3}  ').id, 3);
  });

  for (const [what, line] of [
    ["not JSON", "this is not json"],
    ["empty", ""],
    ["an array", "[1,2]"],
    ["a string", '"setup"'],
    ["null", "null"],
    ["without type", '{"id":1,"data":{}}'],
    ["with a numeric type", '{"type":3,"id":1}'],
    ["without id", '{"type":"verify","data":{}}'],
    ["with a fractional id", '{"type":"verify","id":1.5}'],
    ["with a string id", '{"type":"verify","id":"1"}'],
    ["with an array data", '{"type":"verify","id":1,"data":[]}'],
    ["with a string data", '{"type":"verify","id":1,"data":"x"}'],
  ]) {
    it(`rejects a request that is ${what} as bad_request`, () => {
      assertBadRequest(() => parseRequest(line));
    });
  }

  it("finds the id of a broken request when it has one", () => {
    assert.equal(idOf('{"id":9,"type":5}'), 9);
    assert.equal(idOf('{"type":"run"}'), 0);
    assert.equal(idOf("not json"), 0);
    assert.equal(idOf('{"id":"9"}'), 0);
    assert.equal(idOf("null"), 0);
  });
});

describe("parseSetup", () => {
  it("reads operation, params, payload and input", () => {
    assert.deepEqual(
      parseSetup({
        operation: "echo",
        params: { size: "1KB", level: 3, armor: true },
        payload: "/tmp/p",
        input: "/tmp/i",
        colour: "blue",
      }),
      {
        operation: "echo",
        params: { size: "1KB", level: 3, armor: true },
        payload: "/tmp/p",
        input: "/tmp/i",
      },
    );
  });

  it("reads absent params as {} and absent or null paths as null", () => {
    assert.deepEqual(parseSetup({ operation: "noop", input: null }), {
      operation: "noop",
      params: {},
      payload: null,
      input: null,
    });
  });

  for (const [what, data] of [
    ["no operation", { params: {} }],
    ["a numeric operation", { operation: 1 }],
    ["array params", { operation: "a", params: [] }],
    ["string params", { operation: "a", params: "x=1" }],
    ["a numeric payload", { operation: "a", payload: 5 }],
    ["an object input", { operation: "a", input: {} }],
  ]) {
    it(`rejects a setup with ${what} as bad_request`, () => {
      assertBadRequest(() => parseSetup(data));
    });
  }
});

describe("parseRun", () => {
  it("reads iterations and ignores unknown fields", () => {
    assert.deepEqual(parseRun({ iterations: 3, hint: "ignored" }), {
      iterations: 3,
    });
  });

  for (const iterations of [undefined, 0, -1, 1.5, "3", null, 2 ** 53]) {
    it(`rejects iterations ${JSON.stringify(iterations)} as bad_request`, () => {
      assertBadRequest(() => parseRun({ iterations }));
    });
  }
});

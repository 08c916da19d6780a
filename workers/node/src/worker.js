// A worker: the registered operations and the state of the cell being run,
// answering one request at a time. It sees requests as lines and answers with
// message objects, so tests drive it without processes; transport.js connects
// it to the file descriptors the core hands over.

import { createHash } from "node:crypto";
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
} from "./protocol.js";
import { canCountGc, clearSink, lastResult, measure } from "./measure.js";
import { serveProcess } from "./transport.js";

/** This library's version (package.json), reported in `hello`. */
export const VERSION = "0.1.0";

/** Name of this library as reported in `hello`, next to its version. */
export const LIBRARY_NAME = "versus-worker-node";

const EMPTY = new Uint8Array(0);

function describe(err) {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

function isThenable(value) {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof value.then === "function"
  );
}

function typeName(value) {
  if (value === null) return "null";
  if (typeof value === "object") return value.constructor?.name ?? "object";
  return typeof value;
}

/**
 * The bytes an operation returned: a string is UTF-8 encoded; a Uint8Array,
 * Buffer, other typed array, DataView or (Shared)ArrayBuffer is taken as its
 * bytes; undefined and null (an operation that returns nothing) are empty.
 * Throws operation_failed for anything else.
 */
export function toBytes(value) {
  if (value === undefined || value === null) return EMPTY;
  if (typeof value === "string") return Buffer.from(value, "utf8");
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }
  if (
    value instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer === "function" &&
      value instanceof SharedArrayBuffer)
  ) {
    return new Uint8Array(value);
  }
  throw new ProtocolError(
    ErrorClass.OPERATION_FAILED,
    `operation returned ${typeName(value)}; expected bytes ` +
      "(Uint8Array, Buffer, ArrayBuffer, typed array, DataView) or a string",
  );
}

function promiseReturned(name) {
  return new ProtocolError(
    ErrorClass.OPERATION_FAILED,
    `operation ${name} returned a Promise; operations must be synchronous ` +
      "(do asynchronous preparation in setup)",
  );
}

export class Worker {
  /** @type {Map<string, {fn: Function, setup?: Function, teardown?: Function}>} */
  #operations = new Map();
  /** The cell set up now: {name, op, state, context}, or null. */
  #cell = null;
  #started = false;
  #countGc = true;

  /**
   * Registers operation `name`. `fn(state)` is what is timed; `state` is what
   * `options.setup(context)` returned (undefined without a setup hook).
   * `options.teardown(state, context)` runs on `teardown`.
   */
  operation(name, fn, options = {}) {
    if (this.#started) {
      throw new Error(`operation ${name}: register operations before run()`);
    }
    if (typeof name !== "string" || name === "") {
      throw new TypeError("operation name must be a non-empty string");
    }
    if (typeof fn !== "function") {
      throw new TypeError(`operation ${name}: fn must be a function`);
    }
    const { setup, teardown } = options ?? {};
    for (const [hook, value] of [
      ["setup", setup],
      ["teardown", teardown],
    ]) {
      if (value !== undefined && typeof value !== "function") {
        throw new TypeError(`operation ${name}: ${hook} must be a function`);
      }
    }
    if (this.#operations.has(name)) {
      throw new Error(`operation ${name} is already registered`);
    }
    this.#operations.set(name, { fn, setup, teardown });
    return this;
  }

  /** Names of the registered operations, in registration order. */
  get operations() {
    return [...this.#operations.keys()];
  }

  /** The `hello` message this worker opens the conversation with. */
  hello() {
    return {
      type: "hello",
      id: 0,
      data: {
        protocol: PROTOCOL_VERSION,
        language: "node",
        runtime: `Node.js ${process.versions.node}`,
        library: `${LIBRARY_NAME} ${VERSION}`,
        operations: this.operations,
      },
    };
  }

  /**
   * Answers one request line. Resolves to `{message, exit}`: the response
   * message object, and whether the worker must now exit (after `bye`).
   * Never rejects: every failure becomes an `error` message.
   */
  async handle(line) {
    let id = 0;
    try {
      let request;
      try {
        request = parseRequest(line);
      } catch (err) {
        id = idOf(line);
        throw err;
      }
      id = request.id;
      const { type, data } = await this.#dispatch(request);
      return { message: { type, id, data }, exit: type === "bye" };
    } catch (err) {
      const message =
        err instanceof ProtocolError
          ? errorMessage(id, err.errorClass, err.message)
          : errorMessage(id, ErrorClass.INTERNAL, describe(err));
      return { message, exit: false };
    }
  }

  async #dispatch({ type, data }) {
    switch (type) {
      case "setup":
        await this.#setup(parseSetup(data));
        return { type: "ready", data: {} };
      case "run":
        return { type: "result", data: this.#run(parseRun(data)) };
      case "verify":
        return { type: "output", data: this.#verify() };
      case "teardown":
        await this.#teardown();
        return { type: "done", data: {} };
      case "shutdown":
        await this.#shutdown();
        return { type: "bye", data: {} };
      default:
        throw new ProtocolError(
          ErrorClass.BAD_REQUEST,
          `unknown request type ${JSON.stringify(type)}`,
        );
    }
  }

  async #setup(context) {
    const op = this.#operations.get(context.operation);
    if (op === undefined) {
      throw new ProtocolError(
        ErrorClass.UNKNOWN_OPERATION,
        `no operation ${JSON.stringify(context.operation)} is registered ` +
          `(registered: ${this.operations.join(", ") || "none"})`,
      );
    }
    // A setup replaces the cell before it, even if the core sent no teardown.
    await this.#forget("setup");
    let state;
    try {
      state = op.setup === undefined ? undefined : await op.setup(context);
    } catch (err) {
      throw new ProtocolError(
        ErrorClass.SETUP_FAILED,
        `setup of ${context.operation} failed: ${describe(err)}`,
      );
    }
    this.#cell = { name: context.operation, op, state, context };
  }

  #current(type) {
    if (this.#cell === null) {
      throw new ProtocolError(
        ErrorClass.BAD_REQUEST,
        `${type} before a successful setup`,
      );
    }
    return this.#cell;
  }

  #run({ iterations }) {
    const { name, op, state } = this.#current("run");
    let timing;
    try {
      timing = measure(op.fn, state, iterations, this.#countGc);
    } catch (err) {
      throw new ProtocolError(
        ErrorClass.OPERATION_FAILED,
        `operation ${name} failed: ${describe(err)}`,
      );
    }
    if (isThenable(lastResult())) throw promiseReturned(name);
    const result = { iterations, elapsed_ns: timing.elapsedNs };
    if (timing.gcCount !== undefined) result.gc_count = timing.gcCount;
    return result;
  }

  #verify() {
    const { name, op, state } = this.#current("verify");
    let value;
    try {
      value = op.fn(state);
    } catch (err) {
      throw new ProtocolError(
        ErrorClass.OPERATION_FAILED,
        `operation ${name} failed: ${describe(err)}`,
      );
    }
    if (isThenable(value)) throw promiseReturned(name);
    const bytes = toBytes(value);
    return {
      sha256: createHash("sha256").update(bytes).digest("hex"),
      length: bytes.byteLength,
    };
  }

  async #teardown() {
    await this.#forget("teardown");
  }

  async #shutdown() {
    // Best effort: the worker is going away, so a failing teardown hook must
    // not keep it from saying bye.
    try {
      await this.#forget("shutdown");
    } catch (err) {
      process.stderr.write(`versus-worker: ${err.message}\n`);
    }
  }

  // Runs the teardown hook of the current cell, if any, and forgets it (also
  // when the hook fails). `why` names the request that caused it.
  async #forget(why) {
    const cell = this.#cell;
    if (cell === null) return;
    this.#cell = null;
    clearSink();
    if (cell.op.teardown === undefined) return;
    try {
      await cell.op.teardown(cell.state, cell.context);
    } catch (err) {
      const message = `teardown of ${cell.name} failed: ${describe(err)}`;
      if (why === "setup") {
        // The new cell is not at fault; the log keeps the old one's failure.
        process.stderr.write(`versus-worker: ${message}\n`);
        return;
      }
      throw new ProtocolError(ErrorClass.OPERATION_FAILED, message);
    }
  }

  /**
   * Serves a whole conversation: sends `hello`, then answers each line of
   * `lines` through `send(text)` (one encoded message per call). Resolves to
   * the exit status: 0 after `shutdown` or at the end of `lines`.
   *
   * @param {AsyncIterable<string>} lines
   * @param {(text: string) => void} send
   * @param {{gcCount?: boolean}} [options]
   */
  async serve(lines, send, options = {}) {
    this.#started = true;
    this.#countGc = (options.gcCount ?? true) && canCountGc;
    const hello = this.hello();
    send(encode(hello.type, hello.id, hello.data));
    for await (const line of lines) {
      const { message, exit } = await this.handle(line);
      send(encode(message.type, message.id, message.data));
      if (exit) return 0;
    }
    // End of input: the core is gone; leave as after shutdown.
    await this.#shutdown();
    return 0;
  }

  /**
   * Serves this worker over the file descriptors given by versus
   * (VERSUS_WORKER_FDS) until shutdown or the end of input, then exits the
   * process. Without VERSUS_WORKER_FDS it prints why and exits with status 2.
   *
   * @param {{gcCount?: boolean}} [options]
   */
  run(options) {
    return serveProcess(this, options);
  }
}

// The wire format of docs/worker-protocol.md (version 1), as pure functions:
// one JSON object per line, `{type, id, data}`, unknown fields ignored at
// every level. Nothing here touches a file descriptor, so the codec is tested
// on its own.

/** Protocol version this library speaks (sent in `hello`). */
export const PROTOCOL_VERSION = 1;

/**
 * The closed set of error classes of protocol version 1. The core maps them
 * to cell outcomes and never matches on the message.
 */
export const ErrorClass = Object.freeze({
  UNKNOWN_OPERATION: "unknown_operation",
  SETUP_FAILED: "setup_failed",
  OPERATION_FAILED: "operation_failed",
  BAD_REQUEST: "bad_request",
  UNSUPPORTED_VERSION: "unsupported_version",
  INTERNAL: "internal",
});

/** Request types the core sends, in the order of a conversation. */
export const REQUEST_TYPES = Object.freeze([
  "setup",
  "run",
  "verify",
  "teardown",
  "shutdown",
]);

/**
 * An error the worker answers with an `error` message of class `errorClass`.
 * Thrown by the parsers below and by the dispatcher.
 */
export class ProtocolError extends Error {
  /**
   * @param {string} errorClass one of ErrorClass
   * @param {string} message for people
   */
  constructor(errorClass, message) {
    super(message);
    this.name = "ProtocolError";
    this.errorClass = errorClass;
  }
}

/** Encodes one message as a line of JSON terminated by "\n". */
export function encode(type, id, data) {
  return JSON.stringify({ type, id, data }) + "\n";
}

/** The `error` message answering request `id`. */
export function errorMessage(id, errorClass, message) {
  return { type: "error", id, data: { class: errorClass, message } };
}

function badRequest(message) {
  return new ProtocolError(ErrorClass.BAD_REQUEST, message);
}

function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses one request line into `{type, id, data}`. Unknown fields are
 * ignored; a missing `data` reads as `{}` (requests such as `verify` carry no
 * fields). Throws a bad_request ProtocolError for a line that is not a JSON
 * object, a missing or non-string `type`, a missing or non-integer `id`, or a
 * `data` that is not an object. The `type` itself is checked by the
 * dispatcher, so that an unknown type can still be answered with its id.
 */
export function parseRequest(line) {
  let message;
  try {
    message = JSON.parse(line);
  } catch (err) {
    throw badRequest(`request is not JSON: ${err.message}`);
  }
  if (!isPlainObject(message)) {
    throw badRequest("request is not a JSON object");
  }
  const { type, id } = message;
  if (!Number.isSafeInteger(id)) {
    throw badRequest("request has no integer id");
  }
  if (typeof type !== "string") {
    throw badRequest("request has no string type");
  }
  const data = message.data ?? {};
  if (!isPlainObject(data)) {
    throw badRequest(`data of ${type} is not an object`);
  }
  return { type, id, data };
}

/**
 * Best-effort id of a line that failed to parse, so an error can still echo
 * it; 0 (the id of `hello`) when there is none.
 */
export function idOf(line) {
  try {
    const id = JSON.parse(line)?.id;
    return Number.isSafeInteger(id) ? id : 0;
  } catch {
    return 0;
  }
}

function optionalPath(data, field) {
  const value = data[field] ?? null;
  if (value !== null && typeof value !== "string") {
    throw badRequest(`setup field ${field} must be a string or null`);
  }
  return value;
}

/**
 * Fields of a `setup` request: `operation` (required string), `params`
 * (object, absent reads as {}), `payload` and `input` (string or null, absent
 * reads as null).
 */
export function parseSetup(data) {
  const { operation } = data;
  if (typeof operation !== "string") {
    throw badRequest("setup needs an operation name (string)");
  }
  const params = data.params ?? {};
  if (!isPlainObject(params)) {
    throw badRequest("setup field params must be an object");
  }
  return {
    operation,
    params,
    payload: optionalPath(data, "payload"),
    input: optionalPath(data, "input"),
  };
}

/** Fields of a `run` request: `iterations`, an integer >= 1. */
export function parseRun(data) {
  const { iterations } = data;
  if (!Number.isSafeInteger(iterations) || iterations < 1) {
    throw badRequest("run needs iterations, an integer >= 1");
  }
  return { iterations };
}

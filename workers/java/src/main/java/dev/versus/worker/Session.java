package dev.versus.worker;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The worker's side of one conversation, without any I/O: turns each request line into exactly one
 * response line and keeps the state of the operation that is set up. {@link Worker} feeds it lines;
 * tests can too.
 */
final class Session {
  /** A response line (no trailing newline) and whether the worker should now exit. */
  record Reply(String line, boolean shutdown) {}

  /** One response before it is encoded: its type and data. */
  private record Response(String type, Map<String, Object> data) {
    static Response empty(String type) {
      return new Response(type, new LinkedHashMap<>());
    }
  }

  private final Map<String, Registration> operations;
  private final Counters counters;
  private final Blackhole sink = new Blackhole();

  /** The operation that is set up, or null; {@link #state} is its setup hook's result. */
  private Registration current;

  private Object state;

  Session(Map<String, Registration> operations, Counters counters) {
    this.operations = operations;
    this.counters = counters;
  }

  /** The handshake, sent unprompted as the first message. */
  String hello() {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("protocol", (long) Worker.PROTOCOL_VERSION);
    data.put("language", Worker.LANGUAGE);
    data.put("runtime", Worker.runtimeDescription());
    data.put("library", Worker.LIBRARY_NAME + " " + Worker.LIBRARY_VERSION);
    data.put("operations", new ArrayList<Object>(operations.keySet()));
    return encode("hello", 0, data);
  }

  /** Answers one request line. Never throws: every failure is an {@code error} reply. */
  Reply handle(String line) {
    long id = 0;
    try {
      Map<String, Object> message = parseObject(line);
      id = idOf(message);
      if (!(message.get("type") instanceof String type)) {
        throw new ProtocolException(ErrorClass.BAD_REQUEST, "message has no string field 'type'");
      }
      Map<String, Object> data = dataOf(message);
      Response response =
          switch (type) {
            case "setup" -> setup(data);
            case "run" -> run(data);
            case "verify" -> verify();
            case "teardown" -> teardown();
            case "shutdown" -> shutdown();
            default ->
                throw new ProtocolException(
                    ErrorClass.BAD_REQUEST, "unknown message type '" + type + "'");
          };
      return new Reply(encode(response.type, id, response.data), type.equals("shutdown"));
    } catch (ProtocolException e) {
      return new Reply(error(id, e.errorClass, e.getMessage()), false);
    } catch (RuntimeException | Error e) {
      return new Reply(error(id, ErrorClass.INTERNAL, describe(e)), false);
    }
  }

  /** Runs the teardown hook of whatever is set up, for shutdown or end of input. */
  void close() {
    release();
  }

  private static Map<String, Object> parseObject(String line) throws ProtocolException {
    Object parsed;
    try {
      parsed = Json.parse(line);
    } catch (Json.ParseException e) {
      throw new ProtocolException(ErrorClass.BAD_REQUEST, "not JSON: " + e.getMessage());
    }
    if (!(parsed instanceof Map)) {
      throw new ProtocolException(ErrorClass.BAD_REQUEST, "a message must be a JSON object");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> message = (Map<String, Object>) parsed;
    return message;
  }

  /** The request's id, or 0 when it has none: the reply still goes out. */
  private static long idOf(Map<String, Object> message) {
    return message.get("id") instanceof Long id ? id : 0;
  }

  private static Map<String, Object> dataOf(Map<String, Object> message) throws ProtocolException {
    Object data = message.get("data");
    if (data == null) {
      return Map.of();
    }
    if (!(data instanceof Map)) {
      throw new ProtocolException(ErrorClass.BAD_REQUEST, "field 'data' is not an object");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> map = (Map<String, Object>) data;
    return map;
  }

  private Response setup(Map<String, Object> data) throws ProtocolException {
    String name = requireString(data, "operation");
    Map<String, Object> params = optionalObject(data, "params");
    Path payload = optionalPath(data, "payload");
    Path input = optionalPath(data, "input");

    // Whatever was set up before is gone once a new setup arrives, whatever its outcome.
    release();

    Registration registration = operations.get(name);
    if (registration == null) {
      throw new ProtocolException(
          ErrorClass.UNKNOWN_OPERATION,
          "no operation named '" + name + "'; this worker has " + operations.keySet());
    }
    Object newState = null;
    if (registration.setup() != null) {
      try {
        newState = registration.setup().setup(new SetupContext(name, params, payload, input));
      } catch (Throwable t) {
        report("setup of '" + name + "' failed", t);
        throw new ProtocolException(ErrorClass.SETUP_FAILED, describe(t), t);
      }
    }
    current = registration;
    state = newState;
    return Response.empty("ready");
  }

  private Response run(Map<String, Object> data) throws ProtocolException {
    long iterations = requireLong(data, "iterations");
    if (iterations < 1) {
      throw new ProtocolException(
          ErrorClass.BAD_REQUEST, "'iterations' must be at least 1, not " + iterations);
    }
    Registration registration = requireSetUp("run");
    boolean countAlloc = counters.hasAllocatedBytes();
    boolean countGc = counters.hasGcCount();

    // The counters are read outside the clock readings, in the opposite order after the loop,
    // so each window contains the loop and as little else as possible.
    long gcBefore = countGc ? counters.gcCount() : 0;
    long allocBefore = countAlloc ? counters.allocatedBytes() : 0;
    long elapsedNs;
    try {
      elapsedNs = timeCalls(registration.operation(), state, iterations, sink);
    } catch (Throwable t) {
      report("operation '" + registration.name() + "' failed in run", t);
      throw new ProtocolException(ErrorClass.OPERATION_FAILED, describe(t), t);
    }
    long allocAfter = countAlloc ? counters.allocatedBytes() : 0;
    long gcAfter = countGc ? counters.gcCount() : 0;

    Map<String, Object> result = new LinkedHashMap<>();
    result.put("iterations", iterations);
    result.put("elapsed_ns", elapsedNs);
    if (countAlloc) {
      result.put("alloc_bytes", Math.max(0, allocAfter - allocBefore));
    }
    if (countGc) {
      result.put("gc_count", Math.max(0, gcAfter - gcBefore));
    }
    return new Response("result", result);
  }

  /**
   * The measured region: two readings of the monotonic clock around {@code iterations} calls, each
   * result kept alive through the {@link Blackhole}. No allocation, logging or JSON happens in
   * here.
   *
   * @return nanoseconds between the two clock readings
   */
  static long timeCalls(Operation<Object> operation, Object state, long iterations, Blackhole sink)
      throws Exception {
    long start = System.nanoTime();
    for (long i = 0; i < iterations; i++) {
      Object result = operation.call(state);
      if (i == sink.trap) {
        sink.kept = result;
      }
    }
    return System.nanoTime() - start;
  }

  private Response verify() throws ProtocolException {
    Registration registration = requireSetUp("verify");
    byte[] bytes;
    try {
      bytes = bytesOf(registration.operation().call(state));
    } catch (Throwable t) {
      report("operation '" + registration.name() + "' failed in verify", t);
      throw new ProtocolException(ErrorClass.OPERATION_FAILED, describe(t), t);
    }
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("sha256", sha256Hex(bytes));
    output.put("length", (long) bytes.length);
    return new Response("output", output);
  }

  private Response teardown() throws ProtocolException {
    String name = current == null ? null : current.name();
    Throwable failure = release();
    if (failure != null) {
      throw new ProtocolException(
          ErrorClass.OPERATION_FAILED,
          "teardown of '" + name + "' failed: " + describe(failure),
          failure);
    }
    return Response.empty("done");
  }

  private Response shutdown() {
    release();
    return Response.empty("bye");
  }

  /**
   * Runs the teardown hook, if an operation is set up, and forgets its state either way.
   *
   * @return what the hook threw (already reported on stderr), or null
   */
  private Throwable release() {
    Registration registration = current;
    Object oldState = state;
    current = null;
    state = null;
    sink.clear();
    if (registration == null || registration.teardown() == null) {
      return null;
    }
    try {
      registration.teardown().teardown(oldState);
      return null;
    } catch (Throwable t) {
      report("teardown of '" + registration.name() + "' failed", t);
      return t;
    }
  }

  private Registration requireSetUp(String request) throws ProtocolException {
    if (current == null) {
      throw new ProtocolException(
          ErrorClass.BAD_REQUEST, "'" + request + "' before a successful 'setup'");
    }
    return current;
  }

  /** The bytes an operation returned: byte[], String (UTF-8), ByteBuffer or null (no bytes). */
  static byte[] bytesOf(Object result) {
    if (result == null) {
      return new byte[0];
    }
    if (result instanceof byte[] bytes) {
      return bytes;
    }
    if (result instanceof String s) {
      return s.getBytes(StandardCharsets.UTF_8);
    }
    if (result instanceof ByteBuffer buffer) {
      ByteBuffer view = buffer.duplicate();
      byte[] bytes = new byte[view.remaining()];
      view.get(bytes);
      return bytes;
    }
    throw new IllegalArgumentException(
        "the operation returned a "
            + result.getClass().getName()
            + "; it must return byte[], String or ByteBuffer");
  }

  static String sha256Hex(byte[] bytes) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      StringBuilder hex = new StringBuilder(64);
      for (byte b : digest) {
        hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      // Every Java platform must provide SHA-256.
      throw new IllegalStateException(e);
    }
  }

  private static String requireString(Map<String, Object> data, String key)
      throws ProtocolException {
    Object value = data.get(key);
    if (!(value instanceof String s)) {
      throw new ProtocolException(
          ErrorClass.BAD_REQUEST, "missing or non-string field '" + key + "'");
    }
    return s;
  }

  private static long requireLong(Map<String, Object> data, String key) throws ProtocolException {
    Object value = data.get(key);
    if (!(value instanceof Long n)) {
      throw new ProtocolException(
          ErrorClass.BAD_REQUEST, "missing or non-integer field '" + key + "'");
    }
    return n;
  }

  private static Map<String, Object> optionalObject(Map<String, Object> data, String key)
      throws ProtocolException {
    Object value = data.get(key);
    if (value == null) {
      return Map.of();
    }
    if (!(value instanceof Map)) {
      throw new ProtocolException(ErrorClass.BAD_REQUEST, "field '" + key + "' is not an object");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> map = (Map<String, Object>) value;
    return map;
  }

  private static Path optionalPath(Map<String, Object> data, String key) throws ProtocolException {
    Object value = data.get(key);
    if (value == null) {
      return null;
    }
    if (!(value instanceof String s)) {
      throw new ProtocolException(
          ErrorClass.BAD_REQUEST, "field '" + key + "' is neither a string nor null");
    }
    try {
      return Path.of(s);
    } catch (InvalidPathException e) {
      throw new ProtocolException(ErrorClass.BAD_REQUEST, "field '" + key + "': " + e.getMessage());
    }
  }

  static String error(long id, ErrorClass errorClass, String message) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("class", errorClass.wire);
    data.put("message", message == null ? errorClass.wire : message);
    return encode("error", id, data);
  }

  static String encode(String type, long id, Map<String, Object> data) {
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("type", type);
    envelope.put("id", id);
    envelope.put("data", data);
    return Json.write(envelope);
  }

  private static String describe(Throwable t) {
    String message = t.getMessage();
    String name = t.getClass().getName();
    return message == null ? name : name + ": " + message;
  }

  /** A note for people reading the worker's log; stderr is never the protocol channel. */
  private static void report(String what, Throwable t) {
    System.err.println("versus-worker: " + what + ":");
    t.printStackTrace();
  }
}

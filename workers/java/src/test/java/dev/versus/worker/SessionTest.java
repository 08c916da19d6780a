package dev.versus.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The protocol, one request line at a time, without I/O. */
class SessionTest {
  private static final String EMPTY_SHA256 =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  private final List<String> events = new ArrayList<>();
  private final AtomicLong calls = new AtomicLong();
  private SetupContext lastContext;
  private Session session;
  private boolean lastWasShutdown;

  @TempDir Path dir;

  @BeforeEach
  void start() {
    session = worker().session(Counters.detect());
  }

  private Worker worker() {
    return Worker.builder()
        .operation("echo", (byte[] input) -> input, SetupContext::readInput)
        .operation("noop", () -> new byte[0])
        .operation(
            "count",
            (String label) -> {
              calls.incrementAndGet();
              return label;
            },
            ctx -> {
              lastContext = ctx;
              events.add("setup count");
              return ctx.stringParam("label", "counted");
            },
            label -> events.add("teardown count " + label))
        .operation("text", () -> "héllo")
        .operation("buffer", () -> ByteBuffer.wrap(new byte[] {9, 1, 2, 3}, 1, 3))
        .operation("null", () -> null)
        .operation("wrong_type", () -> 42)
        .operation(
            "fails",
            () -> {
              throw new IllegalStateException("always");
            })
        .operation(
            "bad_setup",
            state -> "never",
            ctx -> {
              throw new java.io.IOException("no such file");
            })
        .operation(
            "bad_teardown",
            state -> "x",
            ctx -> "state",
            state -> {
              throw new IllegalStateException("teardown broke");
            })
        .operation("alloc", () -> new byte[1000])
        .build();
  }

  /** Sends one line and returns the decoded reply. */
  private Map<String, Object> send(String line) throws Exception {
    Session.Reply reply = session.handle(line);
    lastWasShutdown = reply.shutdown();
    assertFalse(reply.line().contains("\n"), "one line per message: " + reply.line());
    @SuppressWarnings("unchecked")
    Map<String, Object> message = (Map<String, Object>) Json.parse(reply.line());
    return message;
  }

  private Map<String, Object> send(String type, long id, Map<String, Object> data)
      throws Exception {
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("type", type);
    message.put("id", id);
    message.put("data", data);
    return send(Json.write(message));
  }

  private Map<String, Object> setup(String operation) throws Exception {
    return setup(operation, Map.of(), null);
  }

  private Map<String, Object> setup(String operation, Map<String, Object> params, Path input)
      throws Exception {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("operation", operation);
    data.put("params", params);
    data.put("payload", input == null ? null : input.toString());
    data.put("input", input == null ? null : input.toString());
    return send("setup", 1, data);
  }

  private Map<String, Object> run(long iterations) throws Exception {
    return send("run", 2, Map.of("iterations", iterations));
  }

  private Map<String, Object> verify() throws Exception {
    return send("verify", 3, Map.of());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> data(Map<String, Object> message) {
    return (Map<String, Object>) message.get("data");
  }

  private static void assertType(String type, Map<String, Object> message) {
    assertEquals(type, message.get("type"), () -> "reply was " + message);
  }

  private static void assertError(String errorClass, Map<String, Object> message) {
    assertType("error", message);
    assertEquals(errorClass, data(message).get("class"), () -> "reply was " + message);
    assertTrue(data(message).get("message") instanceof String, "an error has a message");
  }

  @Test
  void helloNamesProtocolLanguageRuntimeLibraryAndOperations() throws Exception {
    @SuppressWarnings("unchecked")
    Map<String, Object> hello = (Map<String, Object>) Json.parse(session.hello());
    assertType("hello", hello);
    assertEquals(0L, hello.get("id"));
    Map<String, Object> data = data(hello);
    assertEquals(1L, data.get("protocol"));
    assertEquals("java", data.get("language"));
    assertTrue(
        ((String) data.get("runtime")).contains(System.getProperty("java.version")),
        "runtime names the Java version: " + data.get("runtime"));
    assertEquals("versus-worker-java " + Worker.LIBRARY_VERSION, data.get("library"));
    assertEquals(worker().operations(), data.get("operations"));
  }

  @Test
  void fullCycleEchoesIdsAndReportsTheInput() throws Exception {
    Path input = Files.write(dir.resolve("payload.bin"), "hello versus".getBytes());
    Map<String, Object> ready = setup("echo", Map.of(), input);
    assertType("ready", ready);
    assertEquals(1L, ready.get("id"));
    assertEquals(Map.of(), data(ready));

    Map<String, Object> result = run(10);
    assertType("result", result);
    assertEquals(2L, result.get("id"));
    assertEquals(10L, data(result).get("iterations"));
    assertTrue((Long) data(result).get("elapsed_ns") >= 0);

    Map<String, Object> output = verify();
    assertType("output", output);
    assertEquals(3L, output.get("id"));
    assertEquals(Session.sha256Hex("hello versus".getBytes()), data(output).get("sha256"));
    assertEquals(12L, data(output).get("length"));

    assertType("done", send("teardown", 4, Map.of()));
    Map<String, Object> bye = send("shutdown", 5, Map.of());
    assertType("bye", bye);
    assertEquals(5L, bye.get("id"));
    assertTrue(lastWasShutdown);
  }

  @Test
  void sha256IsLowercaseHexOfTheBytes() {
    assertEquals(EMPTY_SHA256, Session.sha256Hex(new byte[0]));
    assertEquals(
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        Session.sha256Hex("abc".getBytes(StandardCharsets.US_ASCII)));
  }

  @Test
  void runCallsTheOperationExactlyIterationsTimes() throws Exception {
    assertType("ready", setup("count"));
    run(1);
    run(1000);
    assertEquals(1001, calls.get());
    verify();
    assertEquals(1002, calls.get());
  }

  @Test
  void setupHookGetsParamsPayloadAndInput() throws Exception {
    Path input = Files.write(dir.resolve("in.txt"), new byte[] {1, 2, 3});
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("operation", "count");
    data.put("params", Map.of("label", "L", "size", 1024L, "fast", true, "ratio", 0.5));
    data.put("payload", dir.resolve("payload").toString());
    data.put("input", input.toString());
    assertType("ready", send("setup", 9, data));
    assertEquals("count", lastContext.operation());
    assertEquals("L", lastContext.stringParam("label", "?"));
    assertEquals(1024L, lastContext.longParam("size", 0));
    assertEquals(7L, lastContext.longParam("absent", 7));
    assertTrue(lastContext.booleanParam("fast", false));
    assertEquals(0.5, lastContext.doubleParam("ratio", 0));
    assertEquals(dir.resolve("payload"), lastContext.payload());
    assertEquals(input, lastContext.input());
    assertEquals(3, lastContext.readInput().length);
    assertEquals(1L, data(verify()).get("length"), "the operation got the setup hook's state");
  }

  @Test
  void setupHookSeesNullPathsAndEmptyParamsWhenAbsent() throws Exception {
    assertType("ready", send("{\"type\":\"setup\",\"id\":1,\"data\":{\"operation\":\"count\"}}"));
    assertNull(lastContext.payload());
    assertNull(lastContext.input());
    assertTrue(lastContext.params().isEmpty());
  }

  @Test
  void verifyEncodesStringsAsUtf8AndReadsBuffersAndNull() throws Exception {
    setup("text");
    byte[] utf8 = "héllo".getBytes(StandardCharsets.UTF_8);
    assertEquals(6L, data(verify()).get("length"));
    assertEquals(Session.sha256Hex(utf8), data(verify()).get("sha256"));

    setup("buffer");
    assertEquals(3L, data(verify()).get("length"));
    assertEquals(Session.sha256Hex(new byte[] {1, 2, 3}), data(verify()).get("sha256"));
    assertEquals(3L, data(verify()).get("length"), "verify does not consume the buffer");

    setup("null");
    assertEquals(Map.of("sha256", EMPTY_SHA256, "length", 0L), data(verify()));

    setup("noop");
    assertEquals(Map.of("sha256", EMPTY_SHA256, "length", 0L), data(verify()));
  }

  @Test
  void ignoresUnknownFieldsAtEveryLevel() throws Exception {
    Map<String, Object> ready =
        send(
            "{\"type\":\"setup\",\"id\":12,\"future\":{\"x\":[1,2]},\"data\":{\"operation\":"
                + "\"noop\",\"params\":{},\"payload\":null,\"input\":null,\"colour\":\"blue\"}}");
    assertType("ready", ready);
    assertEquals(12L, ready.get("id"));
    Map<String, Object> result =
        send("{\"type\":\"run\",\"id\":13,\"data\":{\"iterations\":3,\"hint\":\"ignored\"}}");
    assertType("result", result);
    assertEquals(3L, data(result).get("iterations"));
  }

  @Test
  void dataMayBeOmittedWhereNothingIsNeeded() throws Exception {
    setup("noop");
    assertType("output", send("{\"type\":\"verify\",\"id\":1}"));
    assertType("done", send("{\"type\":\"teardown\",\"id\":2,\"data\":null}"));
    assertType("bye", send("{\"type\":\"shutdown\",\"id\":3}"));
  }

  @Test
  void unknownOperationIsItsOwnClassAndTheWorkerKeepsServing() throws Exception {
    assertError("unknown_operation", setup("no_such_operation"));
    assertType("ready", setup("noop"));
  }

  @Test
  void failingSetupHookIsSetupFailedAndLeavesNothingSetUp() throws Exception {
    assertError("setup_failed", setup("bad_setup"));
    assertError("bad_request", run(1));
  }

  @Test
  void failingOperationIsOperationFailedInRunAndVerify() throws Exception {
    assertType("ready", setup("fails"));
    assertError("operation_failed", run(2));
    assertError("operation_failed", verify());
    assertType("done", send("teardown", 4, Map.of()));
  }

  @Test
  void verifyOfAnUnsupportedReturnTypeIsOperationFailed() throws Exception {
    setup("wrong_type");
    Map<String, Object> error = verify();
    assertError("operation_failed", error);
    assertTrue(((String) data(error).get("message")).contains("java.lang.Integer"));
  }

  @Test
  void failingTeardownHookIsReportedAndTheStateIsForgotten() throws Exception {
    setup("bad_teardown");
    assertError("operation_failed", send("teardown", 4, Map.of()));
    assertError("bad_request", run(1));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "this is not json",
        "",
        "[1,2]",
        "\"run\"",
        "{\"id\":1,\"data\":{}}",
        "{\"type\":7,\"id\":1}",
        "{\"type\":\"dance\",\"id\":1,\"data\":{}}",
        "{\"type\":\"hello\",\"id\":1,\"data\":{}}",
        "{\"type\":\"run\",\"id\":1,\"data\":{\"iterations\":1}}",
        "{\"type\":\"verify\",\"id\":1,\"data\":{}}",
        "{\"type\":\"setup\",\"id\":1,\"data\":[]}",
        "{\"type\":\"setup\",\"id\":1,\"data\":{}}",
        "{\"type\":\"setup\",\"id\":1,\"data\":{\"operation\":5}}",
        "{\"type\":\"setup\",\"id\":1,\"data\":{\"operation\":\"noop\",\"params\":[]}}",
        "{\"type\":\"setup\",\"id\":1,\"data\":{\"operation\":\"noop\",\"input\":3}}",
      })
  void malformedRequestsAreBadRequests(String line) throws Exception {
    assertError("bad_request", send(line));
    assertType("ready", setup("noop"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{}",
        "{\"iterations\":0}",
        "{\"iterations\":-5}",
        "{\"iterations\":\"10\"}",
        "{\"iterations\":1.5}",
      })
  void runNeedsAPositiveIntegerIterationCount(String data) throws Exception {
    setup("noop");
    assertError("bad_request", send("{\"type\":\"run\",\"id\":1,\"data\":" + data + "}"));
    assertType("result", run(1));
  }

  @Test
  void errorRepliesCarryTheRequestId() throws Exception {
    Map<String, Object> error = send("{\"type\":\"dance\",\"id\":77,\"data\":{}}");
    assertError("bad_request", error);
    assertEquals(77L, error.get("id"));
    assertEquals(78L, send("{\"id\":78,\"data\":{}}").get("id"), "no type, but an id");
    assertEquals(0L, send("not json").get("id"), "an unparseable line has no id to copy");
  }

  @Test
  void anotherSetupTearsDownThePreviousOperation() throws Exception {
    setup("count", Map.of("label", "first"), null);
    setup("noop");
    assertEquals(List.of("setup count", "teardown count first"), events);
  }

  @Test
  void teardownWithNothingSetUpIsHarmless() throws Exception {
    assertType("done", send("teardown", 1, Map.of()));
  }

  @Test
  void shutdownAndCloseRunTheTeardownHook() throws Exception {
    setup("count", Map.of("label", "a"), null);
    assertType("bye", send("shutdown", 1, Map.of()));
    assertTrue(lastWasShutdown);
    assertEquals(List.of("setup count", "teardown count a"), events);

    setup("count", Map.of("label", "b"), null);
    session.close();
    assertEquals("teardown count b", events.get(events.size() - 1));
  }

  @Test
  void countersAreReportedWhenTheRuntimeHasThem() throws Exception {
    Counters counters = Counters.detect();
    setup("noop");
    Map<String, Object> data = data(run(5));
    assertEquals(counters.hasAllocatedBytes(), data.containsKey("alloc_bytes"));
    assertEquals(counters.hasGcCount(), data.containsKey("gc_count"));
    // HotSpot, which runs these tests, has both.
    assertTrue(counters.hasAllocatedBytes() && counters.hasGcCount());
  }

  @Test
  void countersAreOmittedWhenTheRuntimeHasNone() throws Exception {
    session = worker().session(Counters.none());
    setup("noop");
    assertEquals(List.of("iterations", "elapsed_ns"), new ArrayList<>(data(run(5)).keySet()));
  }

  @Test
  void allocationsInTheLoopAreCountedAndNotOptimisedAway() throws Exception {
    // Enough calls for the JIT to compile the loop: an allocation it removed would show here.
    setup("alloc");
    long iterations = 200_000;
    for (int round = 0; round < 3; round++) {
      Map<String, Object> data = data(run(iterations));
      long allocBytes = (Long) data.get("alloc_bytes");
      assertTrue(
          allocBytes >= iterations * 1000,
          "round " + round + ": " + allocBytes + " bytes for " + iterations + " arrays of 1000");
      assertTrue((Long) data.get("gc_count") >= 0);
    }
  }

  @Test
  void anAllocationFreeOperationReportsZeroBytesOnceWarm() throws Exception {
    setup("count");
    run(10_000);
    assertEquals(0L, data(run(10_000)).get("alloc_bytes"));
  }

  @Test
  void theTimedLoopHandsResultsToTheBlackhole() throws Exception {
    Blackhole sink = new Blackhole();
    sink.trap = 3;
    long[] counter = {0};
    Session.timeCalls(state -> "call " + counter[0]++, null, 10, sink);
    assertEquals("call 3", sink.kept);
    sink.clear();
    assertNull(sink.kept);
  }

  @Test
  void bytesOfConvertsTheSupportedReturnTypes() {
    assertEquals(0, Session.bytesOf(null).length);
    assertEquals(2, Session.bytesOf("é").length);
    ByteBuffer buffer = ByteBuffer.wrap(new byte[] {1, 2, 3, 4});
    buffer.position(1);
    assertEquals(3, Session.bytesOf(buffer).length);
    assertEquals(1, buffer.position(), "the caller's buffer is untouched");
  }
}

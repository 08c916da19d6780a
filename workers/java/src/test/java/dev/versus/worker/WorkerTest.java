package dev.versus.worker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The builder, the line framing and whole conversations through {@link Worker#serve}. */
class WorkerTest {
  @Test
  void builderKeepsRegistrationOrder() {
    Worker worker =
        Worker.builder()
            .operation("b", () -> "b")
            .operation("a", s -> "a", ctx -> null)
            .operation("c", s -> "c", ctx -> null, s -> {})
            .build();
    assertEquals(List.of("b", "a", "c"), worker.operations());
  }

  @Test
  void builderRefusesDuplicateAndEmptyNames() {
    Worker.Builder builder = Worker.builder().operation("x", () -> "x");
    assertThrows(IllegalArgumentException.class, () -> builder.operation("x", () -> "y"));
    assertThrows(IllegalArgumentException.class, () -> builder.operation("", () -> "y"));
    assertThrows(NullPointerException.class, () -> builder.operation("z", null, ctx -> null));
  }

  @Test
  void servesAWholeConversationAndStopsAtShutdown() throws Exception {
    String requests =
        String.join(
            "\n",
            "{\"type\":\"setup\",\"id\":1,\"data\":{\"operation\":\"hi\",\"params\":{},"
                + "\"payload\":null,\"input\":null}}",
            "{\"type\":\"run\",\"id\":2,\"data\":{\"iterations\":100}}",
            "{\"type\":\"verify\",\"id\":3,\"data\":{}}",
            "{\"type\":\"teardown\",\"id\":4,\"data\":{}}",
            "{\"type\":\"shutdown\",\"id\":5,\"data\":{}}",
            "{\"type\":\"verify\",\"id\":6,\"data\":{}}",
            "");
    Worker worker = Worker.builder().operation("hi", () -> "hi").build();
    List<Map<String, Object>> replies = serve(worker, requests);
    assertEquals(
        List.of("hello", "ready", "result", "output", "done", "bye"),
        types(replies),
        "nothing is read after shutdown");
    for (int i = 0; i < replies.size(); i++) {
      assertEquals((long) i, replies.get(i).get("id"));
    }
  }

  @Test
  void endOfInputEndsTheConversationAndTearsDown() throws Exception {
    List<String> events = new ArrayList<>();
    Worker worker =
        Worker.builder()
            .operation("op", s -> "x", ctx -> "state", s -> events.add("teardown " + s))
            .build();
    String requests =
        "{\"type\":\"setup\",\"id\":1,\"data\":{\"operation\":\"op\"}}\n"
            // The last line may lack its newline.
            + "{\"type\":\"run\",\"id\":2,\"data\":{\"iterations\":1}}";
    assertEquals(List.of("hello", "ready", "result"), types(serve(worker, requests)));
    assertEquals(List.of("teardown state"), events);
  }

  @Test
  void everyLineGetsExactlyOneReplyEvenBlankOrBroken() throws Exception {
    List<Map<String, Object>> replies = serve("\n{oops\r\n[]\n");
    assertEquals(List.of("hello", "error", "error", "error"), types(replies));
  }

  @Test
  void responsesAreUtf8Lines() throws Exception {
    Worker worker = Worker.builder().operation("é☃", () -> "x").build();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    worker.serve(new ByteArrayInputStream(new byte[0]), out);
    byte[] bytes = out.toByteArray();
    assertEquals('\n', bytes[bytes.length - 1]);
    assertTrue(new String(bytes, StandardCharsets.UTF_8).contains("\"operations\":[\"é☃\"]"));
  }

  @Test
  void lineReaderSplitsOnNewlinesAndDropsOverlongLines() throws Exception {
    byte[] input = "short\n0123456789abc\n\nlast".getBytes(StandardCharsets.UTF_8);
    Worker.LineReader reader = new Worker.LineReader(new ByteArrayInputStream(input), 10);
    assertEquals("short", reader.next());
    assertFalse(reader.lastWasTooLong());
    assertEquals("", reader.next());
    assertTrue(reader.lastWasTooLong());
    assertEquals("", reader.next());
    assertFalse(reader.lastWasTooLong());
    assertEquals("last", reader.next());
    assertNull(reader.next());
  }

  @Test
  void overlongRequestIsABadRequest() throws Exception {
    String huge = "{\"type\":\"run\",\"pad\":\"" + "x".repeat(Worker.MAX_LINE_BYTES) + "\"}\n";
    List<Map<String, Object>> replies = serve(huge + "{\"type\":\"shutdown\",\"id\":9}\n");
    assertEquals(List.of("hello", "error", "bye"), types(replies));
    assertEquals("bad_request", data(replies.get(1)).get("class"));
  }

  @Test
  void parsesTheFdVariable() {
    assertArrayEquals(new int[] {3, 4}, Worker.parseFds("3,4"));
    assertArrayEquals(new int[] {5, 6}, Worker.parseFds(" 5 , 6 "));
    assertNull(Worker.parseFds("3"));
    assertNull(Worker.parseFds("3,4,5"));
    assertNull(Worker.parseFds("a,b"));
    assertNull(Worker.parseFds("-1,4"));
  }

  @Test
  void runtimeDescriptionNamesTheJavaVersion() {
    String runtime = Worker.runtimeDescription();
    assertTrue(runtime.contains(" " + System.getProperty("java.version") + " "), runtime);
    assertFalse(runtime.contains("Runtime Environment"), runtime);
  }

  @Test
  void libraryVersionMatchesThePom() throws Exception {
    String pom = Files.readString(Path.of("pom.xml"));
    Matcher m =
        Pattern.compile("<artifactId>versus-worker</artifactId>\\s*<version>([^<]+)").matcher(pom);
    assertTrue(m.find(), "pom.xml has the project version");
    assertEquals(m.group(1), Worker.LIBRARY_VERSION);
  }

  @Test
  void conformanceWorkerRegistersTheProtocolsOperations() {
    assertEquals(
        List.of("echo", "noop", "spin", "noisy", "fails", "bad_setup"),
        ConformanceWorker.build().operations());
  }

  private static List<Map<String, Object>> serve(String requests) throws Exception {
    return serve(ConformanceWorker.build(), requests);
  }

  private static List<Map<String, Object>> serve(Worker worker, String requests) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    worker.serve(new ByteArrayInputStream(requests.getBytes(StandardCharsets.UTF_8)), out);
    List<Map<String, Object>> replies = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      @SuppressWarnings("unchecked")
      Map<String, Object> message = (Map<String, Object>) Json.parse(line);
      replies.add(message);
    }
    return replies;
  }

  private static List<Object> types(List<Map<String, Object>> replies) {
    return replies.stream().map(r -> r.get("type")).toList();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> data(Map<String, Object> message) {
    return (Map<String, Object>) message.get("data");
  }
}

package dev.versus.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.versus.worker.examples.Sha256Worker;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real worker processes, started the way versus starts them: requests on fd 3 and responses on fd 4
 * (OS pipes, moved there by bash), {@code VERSUS_WORKER_FDS=3,4}, stdout and stderr to files.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProcessTest {
  @TempDir Path dir;

  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void killLeftovers() {
    started.forEach(Process::destroyForcibly);
  }

  /** A worker process and its two protocol pipes. */
  private final class WorkerProcess {
    final Process process;
    final OutputStream requests;
    final BufferedReader responses;
    final Path stdout = dir.resolve("stdout.log");
    final Path stderr = dir.resolve("stderr.log");
    long nextId = 1;

    WorkerProcess(Class<?> mainClass) throws Exception {
      ProcessBuilder builder =
          new ProcessBuilder(
              "bash",
              "-c",
              // Our stdin and stdout pipes become the worker's fds 3 and 4.
              "exec \"$@\" 3<&0 4>&1 0</dev/null 1>\"$WORKER_STDOUT\"",
              "bash",
              javaBinary(),
              "-cp",
              classpath(),
              mainClass.getName());
      builder.environment().put("VERSUS_WORKER_FDS", "3,4");
      builder.environment().put("VERSUS_PROTOCOL", "1");
      builder.environment().put("WORKER_STDOUT", stdout.toString());
      builder.redirectError(stderr.toFile());
      process = builder.start();
      started.add(process);
      requests = process.getOutputStream();
      responses =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    Map<String, Object> read() throws Exception {
      String line = responses.readLine();
      if (line == null) {
        throw new AssertionError("the worker closed fd 4; stderr: " + Files.readString(stderr));
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> message = (Map<String, Object>) Json.parse(line);
      return message;
    }

    /** Sends a request (its id set here) and returns the reply, checking the id came back. */
    Map<String, Object> request(String type, String data) throws Exception {
      long id = nextId++;
      String line = "{\"type\":\"" + type + "\",\"id\":" + id + ",\"data\":" + data + "}\n";
      requests.write(line.getBytes(StandardCharsets.UTF_8));
      requests.flush();
      Map<String, Object> reply = read();
      assertEquals(id, reply.get("id"), () -> "reply " + reply);
      return reply;
    }

    int awaitExit() throws Exception {
      assertTrue(process.waitFor(10, TimeUnit.SECONDS), "the worker exits within 10 s");
      return process.exitValue();
    }
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** The compiled library (target/classes): the worker needs nothing else. */
  private static String classpath() throws Exception {
    return Path.of(
            ConformanceWorker.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .toString();
  }

  private static String setupData(String operation, Path input) {
    String path = input == null ? "null" : Json.write(input.toString());
    return "{\"operation\":\""
        + operation
        + "\",\"params\":{},\"payload\":"
        + path
        + ",\"input\":"
        + path
        + "}";
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> data(Map<String, Object> message) {
    return (Map<String, Object>) message.get("data");
  }

  private static String hex(byte[] bytes) {
    StringBuilder out = new StringBuilder();
    for (byte b : bytes) {
      out.append(String.format("%02x", b));
    }
    return out.toString();
  }

  @Test
  void conversationOverFds3And4WithTheCodeUnderTestPrintingFreely() throws Exception {
    byte[] payload = "a payload\nwith two lines\n".getBytes(StandardCharsets.UTF_8);
    Path input = Files.write(dir.resolve("payload.txt"), payload);
    WorkerProcess worker = new WorkerProcess(ConformanceWorker.class);

    Map<String, Object> hello = worker.read();
    assertEquals("hello", hello.get("type"));
    assertEquals(0L, hello.get("id"));
    assertEquals(1L, data(hello).get("protocol"));

    assertEquals("ready", worker.request("setup", setupData("echo", input)).get("type"));
    Map<String, Object> result = worker.request("run", "{\"iterations\":10}");
    assertEquals("result", result.get("type"));
    assertEquals(10L, data(result).get("iterations"));
    assertTrue(data(result).containsKey("alloc_bytes"));
    assertTrue(data(result).containsKey("gc_count"));
    Map<String, Object> output = worker.request("verify", "{}");
    assertEquals(
        hex(MessageDigest.getInstance("SHA-256").digest(payload)), data(output).get("sha256"));
    assertEquals((long) payload.length, data(output).get("length"));
    assertEquals("done", worker.request("teardown", "{}").get("type"));

    assertEquals("ready", worker.request("setup", setupData("noisy", null)).get("type"));
    assertEquals("result", worker.request("run", "{\"iterations\":3}").get("type"));
    assertEquals(5L, data(worker.request("verify", "{}")).get("length"));

    assertEquals("ready", worker.request("setup", setupData("fails", null)).get("type"));
    Map<String, Object> failed = worker.request("run", "{\"iterations\":1}");
    assertEquals("operation_failed", data(failed).get("class"));

    assertEquals("bye", worker.request("shutdown", "{}").get("type"));
    assertEquals(0, worker.awaitExit());
    // noisy ran 3 times in run and once in verify; its output never reached fd 4.
    assertEquals(
        4, Files.readAllLines(worker.stdout).stream().filter(l -> l.contains("noisy")).count());
    assertTrue(Files.readString(worker.stderr).contains("noisy: a line on stderr"));
  }

  @Test
  void exitsWhenTheRequestChannelCloses() throws Exception {
    WorkerProcess worker = new WorkerProcess(ConformanceWorker.class);
    assertEquals("hello", worker.read().get("type"));
    worker.requests.close();
    assertEquals(0, worker.awaitExit());
  }

  @Test
  void exitsWithStatus2WhenNotStartedByVersus() throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(javaBinary(), "-cp", classpath(), ConformanceWorker.class.getName());
    builder.environment().remove("VERSUS_WORKER_FDS");
    builder.redirectErrorStream(true);
    Process process = builder.start();
    started.add(process);
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(10, TimeUnit.SECONDS));
    assertEquals(Worker.EXIT_NOT_UNDER_VERSUS, process.exitValue());
    assertTrue(output.contains("must be started by versus"), output);
  }

  @Test
  void sha256ExampleReturnsTheRawDigestOfItsInput() throws Exception {
    byte[] payload = new byte[100_000];
    for (int i = 0; i < payload.length; i++) {
      payload[i] = (byte) (i * 31);
    }
    Path input = Files.write(dir.resolve("payload.bin"), payload);
    WorkerProcess worker = new WorkerProcess(Sha256Worker.class);
    assertEquals(List.of("sha256"), data(worker.read()).get("operations"));
    assertEquals("ready", worker.request("setup", setupData("sha256", input)).get("type"));
    assertEquals(100L, data(worker.request("run", "{\"iterations\":100}")).get("iterations"));
    Map<String, Object> output = data(worker.request("verify", "{}"));
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(payload);
    assertEquals(32L, output.get("length"));
    assertEquals(hex(MessageDigest.getInstance("SHA-256").digest(digest)), output.get("sha256"));
    assertEquals("bye", worker.request("shutdown", "{}").get("type"));
    assertEquals(0, worker.awaitExit());
  }

  @Test
  void sha256ExampleWithoutAnInputIsSetupFailed() throws Exception {
    WorkerProcess worker = new WorkerProcess(Sha256Worker.class);
    worker.read();
    Map<String, Object> reply = worker.request("setup", setupData("sha256", null));
    assertEquals("error", reply.get("type"));
    assertEquals("setup_failed", data(reply).get("class"));
    worker.requests.close();
    worker.awaitExit();
  }
}

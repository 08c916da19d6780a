package dev.versus.worker;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * A versus worker: a process that registers named operations and runs them when the versus core
 * asks, over the worker protocol (version 1, docs/worker-protocol.md in the versus repository).
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *   Worker.builder()
 *       .operation("sha256", data -> sha256(data), ctx -> ctx.readInput())
 *       .run();
 * }
 * }</pre>
 *
 * <p>The core owns sampling, batch sizes and statistics; the worker only times {@code iterations}
 * calls between two readings of {@link System#nanoTime()} and reports the bytes the current thread
 * allocated and the garbage collections that ran meanwhile. Requests arrive on the file descriptor
 * pair named by {@code VERSUS_WORKER_FDS}; stdout and stderr are left to the code under test.
 */
public final class Worker {
  /** The protocol version this library speaks. */
  public static final int PROTOCOL_VERSION = 1;

  /** The language reported in the handshake. */
  public static final String LANGUAGE = "java";

  /** The library's name, reported with {@link #LIBRARY_VERSION} in the handshake. */
  public static final String LIBRARY_NAME = "versus-worker-java";

  /** The library's version; equal to the Maven project version. */
  public static final String LIBRARY_VERSION = "0.1.0";

  /** Exit status when started without {@code VERSUS_WORKER_FDS}, i.e. not by versus. */
  public static final int EXIT_NOT_UNDER_VERSUS = 2;

  /** Exit status when the protocol channel fails (for example, the core went away mid-write). */
  public static final int EXIT_CHANNEL_FAILED = 1;

  /** Request lines longer than this are discarded and answered with {@code bad_request}. */
  static final int MAX_LINE_BYTES = 16 << 20;

  private final Map<String, Registration> operations;

  private Worker(Map<String, Registration> operations) {
    this.operations = Collections.unmodifiableMap(new LinkedHashMap<>(operations));
  }

  /** Starts describing a worker. */
  public static Builder builder() {
    return new Builder();
  }

  /** The registered operation names, in registration order. */
  public List<String> operations() {
    return new ArrayList<>(operations.keySet());
  }

  /**
   * Serves the versus core on the descriptors named by {@code VERSUS_WORKER_FDS} and exits the
   * process: status 0 after {@code shutdown} or when the request channel closes, {@value
   * #EXIT_NOT_UNDER_VERSUS} with a message on stderr when the variable is missing (the program was
   * not started by versus), {@value #EXIT_CHANNEL_FAILED} if the channel fails.
   */
  public void run() {
    String fds = System.getenv("VERSUS_WORKER_FDS");
    if (fds == null || fds.isBlank()) {
      System.err.println(
          "This is a versus worker (versus-worker-java "
              + LIBRARY_VERSION
              + "): it must be started by versus, which passes it the protocol channel"
              + " (VERSUS_WORKER_FDS is not set).");
      exit(EXIT_NOT_UNDER_VERSUS);
      return;
    }
    int[] pair = parseFds(fds);
    if (pair == null) {
      System.err.println(
          "versus-worker: VERSUS_WORKER_FDS must be 'R,W' (two descriptor numbers), not '"
              + fds
              + "'.");
      exit(EXIT_NOT_UNDER_VERSUS);
      return;
    }
    int status = 0;
    try (InputStream requests = new FileInputStream(descriptorPath(pair[0]));
        OutputStream responses = new FileOutputStream(descriptorPath(pair[1]))) {
      serve(requests, responses);
    } catch (IOException e) {
      System.err.println("versus-worker: the protocol channel failed: " + e);
      status = EXIT_CHANNEL_FAILED;
    }
    exit(status);
  }

  /**
   * Holds one conversation: sends {@code hello} on {@code responses}, then answers each request
   * line from {@code requests} until {@code shutdown} (answered with {@code bye}) or end of input.
   * The teardown hook of an operation still set up at the end is run. Does not close the streams.
   *
   * @throws IOException if reading or writing fails
   */
  public void serve(InputStream requests, OutputStream responses) throws IOException {
    Session session = session(Counters.detect());
    LineReader lines = new LineReader(requests, MAX_LINE_BYTES);
    send(responses, session.hello());
    try {
      while (true) {
        String line = lines.next();
        if (line == null) {
          return;
        }
        Session.Reply reply =
            lines.lastWasTooLong()
                ? new Session.Reply(
                    Session.error(
                        0,
                        ErrorClass.BAD_REQUEST,
                        "request line longer than " + MAX_LINE_BYTES + " bytes"),
                    false)
                : session.handle(line);
        send(responses, reply.line());
        if (reply.shutdown()) {
          return;
        }
      }
    } finally {
      session.close();
    }
  }

  /** A conversation with this worker's operations, without I/O. */
  Session session(Counters counters) {
    return new Session(operations, counters);
  }

  private static void send(OutputStream out, String line) throws IOException {
    // One write per message, so a response is never interleaved or left half-written.
    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** Parses {@code "R,W"}; null when malformed. */
  static int[] parseFds(String value) {
    String[] parts = value.split(",");
    if (parts.length != 2) {
      return null;
    }
    try {
      int read = Integer.parseInt(parts[0].trim());
      int write = Integer.parseInt(parts[1].trim());
      return read >= 0 && write >= 0 ? new int[] {read, write} : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Java cannot adopt a raw descriptor number, but Linux lets a process reopen its own. */
  private static String descriptorPath(int fd) {
    String proc = "/proc/self/fd/" + fd;
    return new File(proc).exists() ? proc : "/dev/fd/" + fd;
  }

  private static void exit(int status) {
    System.out.flush();
    System.err.flush();
    System.exit(status);
  }

  /**
   * The runtime for the handshake, e.g. {@code OpenJDK 17.0.15 (Debian; OpenJDK 64-Bit Server VM)}:
   * implementation, version, vendor and virtual machine.
   */
  static String runtimeDescription() {
    String name = System.getProperty("java.runtime.name", "Java");
    if (name.endsWith(" Runtime Environment")) {
      name = name.substring(0, name.length() - " Runtime Environment".length());
    }
    return name
        + " "
        + System.getProperty("java.version", "unknown")
        + " ("
        + System.getProperty("java.vendor", "unknown vendor")
        + "; "
        + System.getProperty("java.vm.name", "unknown VM")
        + ")";
  }

  /** Describes a worker's operations; {@link #run()} or {@link #build()} finishes it. */
  public static final class Builder {
    private final Map<String, Registration> operations = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Registers an operation that needs no setup: {@code body} is called for every iteration.
     *
     * @throws IllegalArgumentException if the name is empty or already registered
     */
    public Builder operation(String name, Callable<?> body) {
      if (body == null) {
        throw new NullPointerException("operation '" + name + "' has no body");
      }
      return add(Registration.of(name, state -> body.call(), null, null));
    }

    /**
     * Registers an operation with a setup hook: {@code setup} runs (untimed) on each {@code setup}
     * request and its result is passed to every call of {@code operation}.
     *
     * @throws IllegalArgumentException if the name is empty or already registered
     */
    public <S> Builder operation(String name, Operation<S> operation, Setup<S> setup) {
      return operation(name, operation, setup, null);
    }

    /**
     * Registers an operation with a setup hook and a teardown hook, which receives the state when
     * the core sends {@code teardown}, sets up something else, or shuts the worker down.
     *
     * @param setup may be null (the state is then null)
     * @param teardown may be null
     * @throws IllegalArgumentException if the name is empty or already registered
     */
    public <S> Builder operation(
        String name, Operation<S> operation, Setup<S> setup, Teardown<S> teardown) {
      if (operation == null) {
        throw new NullPointerException("operation '" + name + "' has no body");
      }
      return add(Registration.of(name, operation, setup, teardown));
    }

    private Builder add(Registration registration) {
      String name = registration.name();
      if (name == null || name.isEmpty()) {
        throw new IllegalArgumentException("an operation needs a non-empty name");
      }
      if (operations.containsKey(name)) {
        throw new IllegalArgumentException("operation '" + name + "' is registered twice");
      }
      operations.put(name, registration);
      return this;
    }

    /** The worker with the operations registered so far. */
    public Worker build() {
      return new Worker(operations);
    }

    /** Shorthand for {@code build().run()}: serves versus, then exits the process. */
    public void run() {
      build().run();
    }
  }

  /**
   * Splits a byte stream into UTF-8 lines at {@code '\n'} (a final line without one still counts).
   * A line longer than the limit is consumed and dropped, and flagged by {@link #lastWasTooLong()}.
   */
  static final class LineReader {
    private final InputStream in;
    private final int maxBytes;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private boolean tooLong;

    LineReader(InputStream in, int maxBytes) {
      this.in = in instanceof BufferedInputStream ? in : new BufferedInputStream(in);
      this.maxBytes = maxBytes;
    }

    /** The next line without its terminator, or null at end of input. */
    String next() throws IOException {
      buffer.reset();
      tooLong = false;
      boolean any = false;
      int b;
      while ((b = in.read()) != -1) {
        any = true;
        if (b == '\n') {
          break;
        }
        if (buffer.size() < maxBytes) {
          buffer.write(b);
        } else {
          tooLong = true;
        }
      }
      if (!any) {
        return null;
      }
      return tooLong ? "" : buffer.toString(StandardCharsets.UTF_8);
    }

    boolean lastWasTooLong() {
      return tooLong;
    }
  }
}

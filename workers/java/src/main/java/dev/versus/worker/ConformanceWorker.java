package dev.versus.worker;

import java.nio.charset.StandardCharsets;

/**
 * The conformance program: registers the operations that {@code versus conformance} expects
 * (docs/worker-protocol.md, section Conformance). Run it from the built jar:
 *
 * <pre>
 * versus conformance -- java -cp target/versus-worker-0.1.0.jar dev.versus.worker.ConformanceWorker
 * </pre>
 */
public final class ConformanceWorker {
  private static final byte[] EMPTY = new byte[0];
  private static final byte[] SPIN = "spin".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NOISY = "noisy".getBytes(StandardCharsets.US_ASCII);

  private ConformanceWorker() {}

  public static void main(String[] args) {
    build().run();
  }

  /** The conformance worker, for tests that drive it in-process. */
  static Worker build() {
    return Worker.builder()
        .operation("echo", input -> input, SetupContext::readInput)
        .operation("noop", () -> EMPTY)
        .operation(
            "spin",
            spinNs -> {
              spin(spinNs);
              return SPIN;
            },
            ctx -> ctx.longParam("micros", 100) * 1_000)
        .operation(
            "noisy",
            () -> {
              System.out.println("noisy: a line on stdout");
              System.err.println("noisy: a line on stderr");
              return NOISY;
            })
        .operation(
            "fails",
            () -> {
              throw new IllegalStateException("fails fails on every call");
            })
        .operation(
            "bad_setup",
            state -> EMPTY,
            ctx -> {
              throw new IllegalStateException("bad_setup's setup hook always fails");
            })
        .build();
  }

  /** Busy-waits (no sleeping) for {@code durationNs} nanoseconds of the monotonic clock. */
  private static void spin(long durationNs) {
    long start = System.nanoTime();
    while (System.nanoTime() - start < durationNs) {
      Thread.onSpinWait();
    }
  }
}

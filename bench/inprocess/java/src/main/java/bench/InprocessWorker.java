package bench;

import dev.versus.worker.Worker;

/**
 * The versus side of bench/inprocess.sh for Java: serves sha256_1mb and noop ({@link Ops}) over the
 * worker protocol. The setup hook builds the 1 MB buffer, untimed.
 */
public final class InprocessWorker {
  private InprocessWorker() {}

  public static void main(String[] args) {
    Worker.builder()
        .operation("sha256_1mb", (byte[] data) -> Ops.sha256(data), ctx -> Ops.data())
        .operation("noop", () -> Ops.noop())
        .run();
  }
}

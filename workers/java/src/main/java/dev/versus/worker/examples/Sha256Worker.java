package dev.versus.worker.examples;

import dev.versus.worker.Worker;
import java.security.MessageDigest;

/**
 * The Java side of examples/sha256: operation {@code sha256} returns the raw 32-byte SHA-256 digest
 * of the input file, which its setup hook reads into memory (untimed). Run it from the built jar:
 *
 * <pre>
 * java -cp target/versus-worker-0.1.0.jar dev.versus.worker.examples.Sha256Worker
 * </pre>
 */
public final class Sha256Worker {
  private Sha256Worker() {}

  public static void main(String[] args) {
    Worker.builder()
        .operation(
            "sha256",
            (byte[] data) -> MessageDigest.getInstance("SHA-256").digest(data),
            ctx -> ctx.readInput())
        .run();
  }
}

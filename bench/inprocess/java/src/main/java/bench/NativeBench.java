package bench;

import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The native side: JMH, average time per call, on the same functions as the worker. Iteration
 * counts and times come from the command line (bench/inprocess.sh).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class NativeBench {
  private byte[] data;

  @Setup
  public void setup() throws NoSuchAlgorithmException {
    data = Ops.data();
    String hex = HexFormat.of().formatHex(Ops.sha256(data));
    if (!hex.equals("34596c4573adf4f29b28ef2c79c997eeb28dcf482ce9370047b727b0396a798c")) {
      throw new IllegalStateException("digest of the 1 MB buffer is " + hex);
    }
  }

  @Benchmark
  public byte[] sha256_1mb() throws NoSuchAlgorithmException {
    return Ops.sha256(data);
  }

  @Benchmark
  public byte[] noop() {
    return Ops.noop();
  }
}

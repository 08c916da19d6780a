package bench;

import java.security.MessageDigest;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;

@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HashBench {
    @Param({"64", "1024"})
    public int size;
    private byte[] data;

    @Setup
    public void setup() { data = new byte[size]; }

    @Benchmark
    public byte[] sha256() throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(data);
    }
}

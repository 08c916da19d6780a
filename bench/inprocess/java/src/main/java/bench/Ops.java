package bench;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The two functions both harnesses time: JMH (NativeBench) and versus (InprocessWorker). */
public final class Ops {
  private Ops() {}

  /** 1 MB: 10^6 bytes, versus's {@code 1MB}. */
  public static final int SIZE = 1_000_000;

  private static final byte[] EMPTY = new byte[0];

  /** The deterministic 1 MB input: byte i is i*31 mod 256, the same in every language. */
  public static byte[] data() {
    byte[] data = new byte[SIZE];
    for (int i = 0; i < SIZE; i++) {
      data[i] = (byte) (i * 31 % 256);
    }
    return data;
  }

  /** SHA-256 of data with the standard library (java.security.MessageDigest): 32 raw bytes. */
  public static byte[] sha256(byte[] data) throws NoSuchAlgorithmException {
    return MessageDigest.getInstance("SHA-256").digest(data);
  }

  /** The empty operation: returns an empty byte string. */
  public static byte[] noop() {
    return EMPTY;
  }
}

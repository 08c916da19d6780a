package dev.versus.examples.aesgcm;

import dev.versus.worker.SetupContext;
import dev.versus.worker.Worker;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.CipherInputStream;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * AES-128-GCM ("AES/GCM/NoPadding", XML Encryption 1.1 {@code aes128-gcm}) through one JCE
 * provider, as a versus worker.
 *
 * <p>Usage: {@code java -cp ... AesGcmWorker sun|bc [--dir DIR]} (started by versus), or {@code
 * AesGcmWorker selftest} (by hand: checks that both providers agree, prints the result and exits).
 *
 * <p>{@code sun} is the JDK's own SunJCE provider, reached by name; {@code bc} is a {@link
 * BouncyCastleProvider} object passed to {@link Cipher#getInstance(String, Provider)} and never
 * added to {@link Security}, so neither implementation can pick up the other's classes through the
 * provider list. One process serves one provider.
 *
 * <p>Operations (each returns bytes that versus checks on every cell):
 *
 * <ul>
 *   <li>{@code encrypt}: plaintext (the payload) to ciphertext || 16-byte tag. With the fixed key
 *       and nonce below the result is fully determined, so SunJCE and Bouncy Castle must return
 *       identical bytes ({@code same_output}).
 *   <li>{@code decrypt}: that ciphertext || tag (made by the same provider in the untimed setup)
 *       back to the plaintext, tag verified ({@code roundtrip}: equal to the payload).
 *   <li>{@code encrypt-stream}, {@code decrypt-stream}: the same through a {@link
 *       CipherInputStream} read to its end, the code path of WSS4J's {@code AttachmentUtils} that
 *       the original comparison measured. OpenJDK before 21 allocates, on every 512-byte read of an
 *       AEAD decryption, a buffer the size of everything read so far (JDK-8298249), so SunJCE's
 *       streaming decryption there grows with the square of the size.
 *   <li>{@code read-file}, {@code encrypt-file}, {@code decrypt-file}: the original comparison's
 *       own steps, file to file through the streams (see {@link FilePath}); their files go into the
 *       folder given with {@code --dir}.
 * </ul>
 *
 * <p>Each call does what one message costs an application such as WSS4J: {@code
 * Cipher.getInstance}, {@code init} with the key and nonce, then the data: one {@code doFinal(in,
 * 0, len, out, 0)}, or the stream read into the output array. The output array is allocated in
 * setup, so the allocation of a 100 MB result is not timed, only the cipher.
 *
 * <p>Setup also warms the JIT up (untimed; see {@link #warmUp}): without it SunJCE's large-buffer
 * path runs for the first few hundred calls in code that does not use the AES-NI and carry-less
 * multiply intrinsics, 10 to 100 times slower than in a JVM that has served traffic, and a fresh
 * JVM per cell with a few calls of 100 MB never gets there.
 *
 * <p>The key and the nonce are constants. Reusing a GCM nonce with the same key is catastrophic in
 * real use (it leaks the XOR of plaintexts and lets an attacker forge tags); it is acceptable here
 * only because this is a benchmark whose outputs must be reproducible across providers and runs.
 * SunJCE refuses to encrypt twice with the same key and nonce on one {@code Cipher} object, which
 * is one more reason every call gets a fresh {@code Cipher}, as an application would.
 */
public final class AesGcmWorker {
  static final String TRANSFORMATION = "AES/GCM/NoPadding";
  static final int TAG_BITS = 128;

  /** Benchmark-only constants: a 128-bit key and a 96-bit nonce, derived from fixed labels. */
  static final byte[] KEY = Arrays.copyOf(sha256("versus aes-gcm-java key"), 16);

  static final byte[] NONCE = Arrays.copyOf(sha256("versus aes-gcm-java nonce"), 12);

  private AesGcmWorker() {}

  /** How one call pushes the data through the cipher. */
  enum Api {
    ONESHOT,
    STREAM
  }

  /** What setup prepares: the input in memory and an output array of the exact result size. */
  static final class State {
    final Provider provider;
    final SecretKeySpec key;
    final int mode;
    final Api api;
    final byte[] input;
    final byte[] output;

    State(Provider provider, int mode, Api api, byte[] input, int outputLength) {
      this.provider = provider;
      this.key = new SecretKeySpec(KEY, "AES");
      this.mode = mode;
      this.api = api;
      this.input = input;
      this.output = new byte[outputLength];
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].equals("selftest")) {
      System.exit(selftest() ? 0 : 1);
    }
    if (args.length == 2 && args[1].equals("--version")) {
      // One line for the report: the provider's version, and the JDK it runs on.
      Provider p = provider(args[0]);
      System.out.println(
          p.getName()
              + " "
              + versionOf(p)
              + " on "
              + System.getProperty("java.vm.name")
              + " "
              + System.getProperty("java.runtime.version")
              + " ("
              + System.getProperty("java.vendor")
              + ")");
      return;
    }
    boolean withDir = args.length == 3 && args[1].equals("--dir");
    if (args.length != 1 && !withDir) {
      System.err.println(
          "usage: AesGcmWorker sun|bc [--dir DIR] | AesGcmWorker sun|bc --version"
              + " | AesGcmWorker selftest");
      System.exit(2);
    }
    Provider provider = provider(args[0]);
    // Where the file operations write their files (the suite passes its {tmp}).
    Path dir =
        withDir ? Path.of(args[2]) : Path.of(System.getProperty("java.io.tmpdir"), "aes-gcm-java");
    Worker.builder()
        .operation(
            "encrypt",
            AesGcmWorker::run,
            ctx -> setup(ctx, provider, Cipher.ENCRYPT_MODE, Api.ONESHOT))
        .operation(
            "decrypt",
            AesGcmWorker::run,
            ctx -> setup(ctx, provider, Cipher.DECRYPT_MODE, Api.ONESHOT))
        .operation(
            "encrypt-stream",
            AesGcmWorker::run,
            ctx -> setup(ctx, provider, Cipher.ENCRYPT_MODE, Api.STREAM))
        .operation(
            "decrypt-stream",
            AesGcmWorker::run,
            ctx -> setup(ctx, provider, Cipher.DECRYPT_MODE, Api.STREAM))
        .operation("read-file", FilePath::read, FilePath::setupRead)
        .operation(
            "encrypt-file",
            FilePath::call,
            ctx -> FilePath.setup(ctx, provider, Cipher.ENCRYPT_MODE, dir),
            FilePath::teardown)
        .operation(
            "decrypt-file",
            FilePath::call,
            ctx -> FilePath.setup(ctx, provider, Cipher.DECRYPT_MODE, dir),
            FilePath::teardown)
        .run();
  }

  /**
   * The provider's version as its jar names it where that says more: Bouncy Castle's {@code
   * getVersionStr()} is a number, so 1.70 reports itself as "1.7"; its jar's manifest says
   * "1.70.0". SunJCE's version is the JDK's, as it reports it.
   */
  static String versionOf(Provider p) {
    Package pkg = p.getClass().getPackage();
    String jar = pkg == null ? null : pkg.getImplementationVersion();
    if (!p.getName().equals("BC") || jar == null || jar.isEmpty()) {
      return p.getVersionStr();
    }
    return jar;
  }

  /** The provider an implementation name stands for. */
  static Provider provider(String name) {
    switch (name) {
      case "sun":
        Provider sun = Security.getProvider("SunJCE");
        if (sun == null) {
          throw new IllegalStateException("this JDK has no SunJCE provider");
        }
        return sun;
      case "bc":
        // Deliberately not Security.addProvider: the object is passed to Cipher.getInstance.
        return new BouncyCastleProvider();
      default:
        throw new IllegalArgumentException("unknown provider '" + name + "' (expected sun or bc)");
    }
  }

  static State setup(SetupContext ctx, Provider provider, int mode, Api api) throws Exception {
    byte[] payload = ctx.readInput();
    warmUp(provider, mode, api);
    if (mode == Cipher.ENCRYPT_MODE) {
      State s = new State(provider, mode, api, payload, payload.length + TAG_BITS / 8);
      check(s);
      return s;
    }
    // Decrypt: the ciphertext is made here, untimed, by the same provider.
    byte[] ciphertext = newCipher(provider, Cipher.ENCRYPT_MODE).doFinal(payload);
    State s = new State(provider, mode, api, ciphertext, payload.length);
    check(s);
    if (!Arrays.equals(s.output, payload)) {
      throw new IllegalStateException("decryption did not restore the payload");
    }
    return s;
  }

  /** The warm-up schedule: see {@link #warmUp}. */
  static final int WARM_CALLS = 1000;

  static final int WARM_SMALL = 65_600;
  static final int WARM_LARGE = 1_100_000;
  static final int WARM_LARGE_EVERY = 40;

  /**
   * Brings the JIT to its steady state for this provider and direction before anything is
   * measured: {@value #WARM_CALLS} calls on {@value #WARM_SMALL} bytes, then {@value #WARM_CALLS}
   * more with a one-shot call on {@value #WARM_LARGE} bytes after every {@value
   * #WARM_LARGE_EVERY}th (for the stream operations the small calls go through the stream).
   * Every provider gets the same calls.
   *
   * <p>Why: SunJCE's GCM (JDK 17 and 25) cuts the data into six interleaved CTR/GHASH segments
   * from 64 KiB on and into 1 MiB pieces above 1 MiB, and the JIT only replaces its Java loops
   * with the AES-NI and carry-less multiply intrinsics once the methods that call them are
   * compiled by C2, which takes thousands of calls of them, and a branch first taken after that
   * (a call over 1 MiB after only small ones) sends the code back to the interpreter. A call on
   * 100 MB makes a handful of those calls, so a fresh JVM that only ever sees large messages runs
   * them for hundreds of calls at 15-50 MB/s instead of about 2.5 GB/s. Measured on the 2-core
   * test machine: 10 MB took 200-900 ms per call after no warm-up, after small calls only, or
   * after a few hundred large ones; after this schedule (about 1.5 s) 3-6 ms, and 100 MB 35-50
   * ms, from the first call, on both JDKs. Bouncy Castle is plain Java and steady after its first
   * call, so the schedule only costs it time.
   */
  static void warmUp(Provider provider, int mode, Api api) throws Exception {
    State small = warmState(provider, mode, api, WARM_SMALL);
    State large = warmState(provider, mode, Api.ONESHOT, WARM_LARGE);
    for (int i = 0; i < WARM_CALLS; i++) {
      run(small);
    }
    for (int i = 0; i < WARM_CALLS; i++) {
      run(small);
      if (i % WARM_LARGE_EVERY == WARM_LARGE_EVERY - 1) {
        run(large);
      }
    }
  }

  private static State warmState(Provider provider, int mode, Api api, int size) throws Exception {
    byte[] plain = new byte[size];
    new java.util.Random(size).nextBytes(plain);
    if (mode == Cipher.ENCRYPT_MODE) {
      return new State(provider, mode, api, plain, size + TAG_BITS / 8);
    }
    byte[] ciphertext = newCipher(provider, Cipher.ENCRYPT_MODE).doFinal(plain);
    return new State(provider, mode, api, ciphertext, size);
  }

  /** One call, timed by the worker library: a fresh Cipher, init, all the data. */
  static byte[] run(State s) throws Exception {
    Cipher cipher = newCipher(s.provider, s.mode, s.key);
    int n =
        s.api == Api.ONESHOT
            ? oneshot(cipher, s.input, s.output)
            : stream(cipher, s.input, s.output);
    if (n != s.output.length) {
      throw new IllegalStateException(
          "the cipher produced " + n + " bytes, expected " + s.output.length);
    }
    return s.output;
  }

  static int oneshot(Cipher cipher, byte[] in, byte[] out) throws GeneralSecurityException {
    return cipher.doFinal(in, 0, in.length, out, 0);
  }

  /** Reads a CipherInputStream over {@code in} to its end, into {@code out}. */
  static int stream(Cipher cipher, byte[] in, byte[] out) throws IOException {
    int pos = 0;
    try (InputStream cis = new CipherInputStream(new ByteArrayInputStream(in), cipher)) {
      while (pos < out.length) {
        int n = cis.read(out, pos, out.length - pos);
        if (n < 0) {
          return pos;
        }
        pos += n;
      }
      if (cis.read() >= 0) {
        throw new IllegalStateException("the stream gave more than " + out.length + " bytes");
      }
      return pos;
    }
  }

  /** Runs one call in setup, so a broken provider or a failed tag is a setup error. */
  private static void check(State s) throws Exception {
    run(s);
    String name = newCipher(s.provider, s.mode, s.key).getProvider().getName();
    if (!name.equals(s.provider.getName())) {
      throw new IllegalStateException("asked for " + s.provider.getName() + ", got " + name);
    }
  }

  static Cipher newCipher(Provider provider, int mode) throws GeneralSecurityException {
    return newCipher(provider, mode, new SecretKeySpec(KEY, "AES"));
  }

  static Cipher newCipher(Provider provider, int mode, SecretKeySpec key)
      throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance(TRANSFORMATION, provider);
    cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, NONCE));
    return cipher;
  }

  /**
   * Outside versus: both providers, both APIs, a few sizes; the ciphertexts must be identical and
   * decrypt to the plaintext. Prints the providers' names and versions.
   */
  static boolean selftest() throws Exception {
    Provider sun = provider("sun");
    Provider bc = provider("bc");
    System.out.println(
        System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    System.out.println("sun: " + sun.getName() + " " + sun.getVersionStr());
    System.out.println("bc:  " + bc.getName() + " " + bc.getVersionStr());
    System.out.println("BC installed globally: " + (Security.getProvider("BC") != null));
    boolean ok = true;
    for (int size : new int[] {0, 1, 15, 16, 17, 4096, 100_000, 1_000_003}) {
      byte[] plain = new byte[size];
      new java.util.Random(size).nextBytes(plain);
      byte[] reference = null;
      for (Provider p : new Provider[] {sun, bc}) {
        for (Api api : Api.values()) {
          State enc = new State(p, Cipher.ENCRYPT_MODE, api, plain, size + TAG_BITS / 8);
          byte[] ct = run(enc).clone();
          if (reference == null) {
            reference = ct;
          }
          State dec = new State(p, Cipher.DECRYPT_MODE, api, reference, size);
          byte[] pt = run(dec);
          boolean same = Arrays.equals(ct, reference);
          boolean back = Arrays.equals(pt, plain);
          ok &= same && back;
          if (!same || !back || size == 1_000_003) {
            System.out.printf(
                "size %d %s %s: ciphertext %s, decrypts %s, sha256 %s%n",
                size,
                p.getName(),
                api.name().toLowerCase(),
                same ? "identical" : "DIFFERENT",
                back ? "ok" : "WRONG",
                HexFormat.of().formatHex(sha256(ct)).substring(0, 16));
          }
        }
      }
    }
    System.out.println(ok ? "selftest ok" : "selftest FAILED");
    return ok;
  }

  static byte[] sha256(String label) {
    return sha256(label.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}

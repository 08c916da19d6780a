package dev.versus.examples.aesgcm;

import dev.versus.worker.SetupContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.Provider;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.CipherInputStream;

/**
 * Seed 002's own code path, file to file: the payload is read from its file, encrypted through a
 * {@link CipherInputStream} into a file, and that file decrypted through a stream into another
 * file, as WSS4J's {@code AttachmentUtils} sets up its attachment streams and as the original
 * comparison timed them. Every timed call opens the files, streams all the data through the
 * cipher with {@link InputStream#transferTo} (8 KiB reads) and closes them; nothing is synced to
 * the disk (the original did not sync either), so the written data may still sit in the page
 * cache when the call returns. The input file is opened unbuffered ({@link Files#newInputStream}),
 * as an attachment's source stream may be, so every read the cipher stream makes of it is one
 * read system call: 512 bytes at a time through the {@code CipherInputStream} of JDK 17 and 21,
 * 8 KiB through JDK 25's (JDK-8330108).
 *
 * <ul>
 *   <li>{@code read-file}: the original's read-only step ("read file without any action except
 *       counting bytes"): the payload file read to its end in 8 KiB reads, the byte count
 *       returned. It is the floor under the two others and the same for every provider.
 *   <li>{@code encrypt-file}: payload file, through the cipher, into an output file.
 *   <li>{@code decrypt-file}: a ciphertext file (written by the same provider in the untimed
 *       setup) through the cipher into an output file.
 * </ul>
 *
 * <p>What a call returns: a read-only memory map of its output file, made after the file is
 * closed. Mapping costs one system call and reads nothing; versus's verify request reads the
 * mapped bytes (from the page cache) to check them, so the digest of every checked output is
 * taken from the file itself, not from a copy in memory. The map of the previous call is never
 * read again after the next call rewrites the file.
 *
 * <p>Setup (untimed) also compares digests, as the original's last step did: the decrypted file
 * must have the payload's SHA-256.
 */
final class FilePath {
  /** What a cell's calls work on: the files and the provider. */
  static final class State {
    final Provider provider;
    final int mode;
    final Path input;
    final Path output;

    State(Provider provider, int mode, Path input, Path output) {
      this.provider = provider;
      this.mode = mode;
      this.input = input;
      this.output = output;
    }
  }

  private FilePath() {}

  /** {@code read-file}: the payload file itself; no cipher. */
  static Path setupRead(SetupContext ctx) throws IOException {
    Path payload = requireInput(ctx);
    countBytes(payload);
    return payload;
  }

  static String read(Path payload) throws IOException {
    return Long.toString(countBytes(payload));
  }

  /**
   * {@code encrypt-file} or {@code decrypt-file}: output files go into {@code dir} (the suite's
   * {@code {tmp}}), one per cell, deleted at teardown. Decryption reads a ciphertext file written
   * here with the same provider.
   */
  static State setup(SetupContext ctx, Provider provider, int mode, Path dir) throws Exception {
    Path payload = requireInput(ctx);
    AesGcmWorker.warmUp(provider, mode, AesGcmWorker.Api.STREAM);
    Files.createDirectories(dir);
    Path input = payload;
    if (mode == Cipher.DECRYPT_MODE) {
      input = Files.createTempFile(dir, "aes-gcm-", ".ct");
      call(new State(provider, Cipher.ENCRYPT_MODE, payload, input));
    }
    State s = new State(provider, mode, input, Files.createTempFile(dir, "aes-gcm-", ".out"));
    call(s);
    if (mode == Cipher.DECRYPT_MODE && !Arrays.equals(sha256(s.output), sha256(payload))) {
      throw new IllegalStateException("the decrypted file's digest differs from the payload's");
    }
    return s;
  }

  static void teardown(State s) throws IOException {
    Files.deleteIfExists(s.output);
    if (s.mode == Cipher.DECRYPT_MODE) {
      Files.deleteIfExists(s.input);
    }
  }

  /** One timed call: a fresh Cipher, the input file through a CipherInputStream into the output. */
  static ByteBuffer call(State s) throws Exception {
    Cipher cipher = AesGcmWorker.newCipher(s.provider, s.mode);
    try (InputStream in = new CipherInputStream(Files.newInputStream(s.input), cipher);
        OutputStream out = Files.newOutputStream(s.output)) {
      in.transferTo(out);
    }
    try (FileChannel ch = FileChannel.open(s.output, StandardOpenOption.READ)) {
      return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
    }
  }

  private static Path requireInput(SetupContext ctx) throws IOException {
    Path input = ctx.input();
    if (input == null) {
      throw new IOException("operation '" + ctx.operation() + "' needs the payload file");
    }
    return input;
  }

  private static long countBytes(Path file) throws IOException {
    byte[] buffer = new byte[8192];
    long total = 0;
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        total += n;
      }
    }
    return total;
  }

  private static byte[] sha256(Path file) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        md.update(buffer, 0, n);
      }
    }
    return md.digest();
  }
}

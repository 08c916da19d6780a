package dev.versus.examples.opentdf;

import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import dev.versus.worker.SetupContext;
import dev.versus.worker.Worker;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.opentdf.platform.sdk.Config;
import io.opentdf.platform.sdk.KASClient;
import io.opentdf.platform.sdk.SDK;
import io.opentdf.platform.sdk.TDF;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The OpenTDF Java SDK ({@code io.opentdf.platform:sdk}) as a versus worker, for
 * examples/opentdf.
 *
 * <p>Usage: {@code java -cp ... OpenTdfWorker --kas-url URL --state DIR} (started by versus), or
 * {@code OpenTdfWorker --version}.
 *
 * <p>Operations, each returning bytes versus checks:
 *
 * <ul>
 *   <li>{@code encrypt}: {@link TDF#createTDF} of the payload to the KAS public key given directly
 *       (KID {@code r1}, {@code rsa:2048}, autoconfigure off, no attribute service). Setup checks
 *       once that the SDK decrypts its own output through the KAS.
 *   <li>{@code decrypt}: {@link TDF#loadTDF} of a TDF made in setup, with the SDK's own {@link
 *       KASClient}: a gRPC rewrap to the suite's KAS on every call. Returns the plaintext.
 *   <li>{@code decrypt-local}: the same with {@link LocalKas}, a user-supplied {@link SDK.KAS} that
 *       unwraps the data key with the KAS private key file: no network.
 *   <li>{@code decrypt-go-tdf}: {@code decrypt} on the Go SDK's TDF of the same payload, written
 *       by the payload generator beside the payload: the cross-SDK check.
 *   <li>{@code decrypt-go-tdf-local}: the same with {@link LocalKas}: no network.
 * </ul>
 *
 * <p>One {@link KASClient} per worker process (its gRPC channel and session key are made once, as
 * an application would); each decrypt makes one rewrap call.
 */
public final class OpenTdfWorker {
  static final String KID = "r1";
  static final String ALGORITHM = "rsa:2048";
  static final String GO_TDF_SUFFIX = ".go-sdk.tdf";

  private final Config.KASInfo kasInfo;
  private final SDK.KAS networkKas;
  private final SDK.KAS localKas;

  /** State of one cell: the input and the plaintext it must give back (or null). */
  record Cell(byte[] in, byte[] plain) {}

  OpenTdfWorker(String kasUrl, Path state) throws Exception {
    String publicPem = Files.readString(state.resolve("kas-public.pem"), StandardCharsets.US_ASCII);
    kasInfo = new Config.KASInfo();
    kasInfo.URL = kasUrl;
    kasInfo.PublicKey = publicPem;
    kasInfo.KID = KID;
    kasInfo.Algorithm = ALGORITHM;
    kasInfo.Default = true;
    // The SDK signs each rewrap request with this key; without an identity
    // provider the KAS does not check it (README.md).
    RSAKey dpop = new RSAKeyGenerator(2048).keyUse(com.nimbusds.jose.jwk.KeyUse.SIGNATURE).generate();
    networkKas = new KASClient(OpenTdfWorker::plaintextChannel, dpop);
    localKas = new LocalKas(kasInfo, state.resolve("kas-private.pem"));
  }

  /** A plaintext (h2c) gRPC channel to the KAS URL's host and port. */
  static ManagedChannel plaintextChannel(String url) {
    URI uri = URI.create(url.contains("://") ? url : "http://" + url);
    int port = uri.getPort() != -1 ? uri.getPort() : 80;
    return ManagedChannelBuilder.forAddress(uri.getHost(), port).usePlaintext().build();
  }

  byte[] encrypt(byte[] plain) throws Exception {
    Config.TDFConfig config =
        Config.newTDFConfig(Config.withAutoconfigure(false), Config.withKasInformation(kasInfo));
    ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length + 4096);
    new TDF().createTDF(new ByteArrayInputStream(plain), out, config, networkKas, null);
    return out.toByteArray();
  }

  static byte[] decrypt(byte[] tdf, SDK.KAS kas, int expectedSize) throws Exception {
    TDF.Reader reader = new TDF().loadTDF(new ByteArrayChannel(tdf), kas);
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(expectedSize, 32));
    reader.readPayload(out);
    return out.toByteArray();
  }

  Cell setupEncrypt(SetupContext ctx) throws Exception {
    byte[] plain = ctx.readInput();
    byte[] back = decrypt(encrypt(plain), networkKas, plain.length);
    if (!Arrays.equals(back, plain)) {
      throw new IllegalStateException("decrypting this SDK's own TDF did not give the payload back");
    }
    return new Cell(plain, null);
  }

  Cell setupDecrypt(SetupContext ctx) throws Exception {
    byte[] plain = ctx.readInput();
    return new Cell(encrypt(plain), plain);
  }

  Cell setupGoTdf(SetupContext ctx) throws Exception {
    Path tdf = Path.of(ctx.payload().toString() + GO_TDF_SUFFIX);
    return new Cell(Files.readAllBytes(tdf), ctx.readInput());
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].equals("--version")) {
      System.out.println(version());
      return;
    }
    String kasUrl = null;
    Path state = null;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--kas-url" -> kasUrl = args[i + 1];
        case "--state" -> state = Path.of(args[i + 1]);
        default -> usage("unknown argument " + args[i]);
      }
    }
    if (state == null) {
      usage("--state is required");
    }
    if (kasUrl == null) {
      kasUrl = Files.readString(state.resolve("kas-url")).trim();
    }
    OpenTdfWorker w = new OpenTdfWorker(kasUrl, state);
    Worker.builder()
        .operation("encrypt", (Cell c) -> w.encrypt(c.in()), w::setupEncrypt)
        .operation("decrypt", (Cell c) -> decrypt(c.in(), w.networkKas, c.plain().length), w::setupDecrypt)
        .operation(
            "decrypt-local", (Cell c) -> decrypt(c.in(), w.localKas, c.plain().length), w::setupDecrypt)
        .operation(
            "decrypt-go-tdf", (Cell c) -> decrypt(c.in(), w.networkKas, c.plain().length), w::setupGoTdf)
        .operation(
            "decrypt-go-tdf-local",
            (Cell c) -> decrypt(c.in(), w.localKas, c.plain().length),
            w::setupGoTdf)
        .run();
  }

  static void usage(String why) {
    System.err.println("OpenTdfWorker: " + why);
    System.err.println("usage: OpenTdfWorker --kas-url URL --state DIR | --version");
    System.exit(2);
  }

  /** The SDK's version from its jar manifest, and the JVM's. */
  static String version() {
    String sdk = TDF.class.getPackage().getImplementationVersion();
    return "io.opentdf.platform:sdk "
        + (sdk != null ? sdk : "0.7.3")
        + " on "
        + System.getProperty("java.vm.name")
        + " "
        + System.getProperty("java.runtime.version");
  }
}

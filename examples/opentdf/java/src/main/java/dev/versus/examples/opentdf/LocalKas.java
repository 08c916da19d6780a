package dev.versus.examples.opentdf;

import io.opentdf.platform.sdk.Config;
import io.opentdf.platform.sdk.KASKeyCache;
import io.opentdf.platform.sdk.Manifest;
import io.opentdf.platform.sdk.SDK;
import io.opentdf.platform.sdk.nanotdf.NanoTDFType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;

/**
 * A user-supplied {@link SDK.KAS} for the {@code decrypt-local} operation: it unwraps the data key
 * in-process with the KAS private key (RSA-OAEP, SHA-1, as TDF 4.x wraps it), read from the
 * file the suite's KAS wrote, so no network call is made. This is what the seed report's WASM
 * hosts did ("local RSA unwrap, no KAS"); it skips everything the KAS does besides the unwrap.
 */
final class LocalKas implements SDK.KAS {
  private final Config.KASInfo info;
  private final PrivateKey key;
  private final KASKeyCache cache = new KASKeyCache();

  LocalKas(Config.KASInfo info, Path privatePem) throws Exception {
    this.info = info;
    String pem = Files.readString(privatePem, StandardCharsets.US_ASCII);
    String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    this.key =
        KeyFactory.getInstance("RSA")
            .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
  }

  @Override
  public byte[] unwrap(Manifest.KeyAccess keyAccess, String policy) {
    try {
      Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPPadding");
      rsa.init(
          Cipher.DECRYPT_MODE,
          key,
          new OAEPParameterSpec("SHA-1", "MGF1", MGF1ParameterSpec.SHA1, PSource.PSpecified.DEFAULT));
      return rsa.doFinal(Base64.getDecoder().decode(keyAccess.wrappedKey));
    } catch (Exception e) {
      throw new IllegalStateException("local unwrap failed: " + e, e);
    }
  }

  @Override
  public Config.KASInfo getPublicKey(Config.KASInfo kasInfo) {
    return info;
  }

  @Override
  public Config.KASInfo getECPublicKey(Config.KASInfo kasInfo, NanoTDFType.ECCurve curve) {
    throw new UnsupportedOperationException("this benchmark has no EC key");
  }

  @Override
  public byte[] unwrapNanoTDF(NanoTDFType.ECCurve curve, String header, String kasURL) {
    throw new UnsupportedOperationException("this benchmark does not use NanoTDF");
  }

  @Override
  public KASKeyCache getKeyCache() {
    return cache;
  }

  @Override
  public void close() {}
}

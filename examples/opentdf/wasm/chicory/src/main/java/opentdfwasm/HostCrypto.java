// The host side of the module's "crypto" imports, with the JDK's providers
// (SunJCE for AES-GCM and HMAC, SunRsaSign/SunJCE for RSA-OAEP). Chicory's
// memory is read and written by copy (readBytes / write). Parsed RSA keys are
// cached by their PEM text, as in the other hosts.
package opentdfwasm;

import com.dylibso.chicory.runtime.HostFunction;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Memory;
import com.dylibso.chicory.runtime.WasmFunctionHandle;
import com.dylibso.chicory.wasm.types.FunctionType;
import com.dylibso.chicory.wasm.types.ValType;
import java.nio.charset.StandardCharsets;
import java.security.Key;
import java.security.KeyFactory;
import java.security.SecureRandom;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

final class HostCrypto {
  private static final long HOST_ERROR = 0xFFFFFFFFL;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, Key> keys = new HashMap<>();
  private String lastError = "";

  /** A host function body: returns a byte count or throws. */
  private interface Body {
    long apply(Memory m, int[] a) throws Exception;
  }

  private HostFunction fn(String name, int params, Body body) {
    ValType[] in = new ValType[params];
    Arrays.fill(in, ValType.I32);
    WasmFunctionHandle handle =
        (Instance instance, long... args) -> {
          int[] a = new int[args.length];
          for (int i = 0; i < args.length; i++) a[i] = (int) args[i];
          try {
            return new long[] {body.apply(instance.memory(), a)};
          } catch (Exception e) {
            lastError = String.valueOf(e);
            return new long[] {HOST_ERROR};
          }
        };
    return new HostFunction("crypto", name, FunctionType.of(in, new ValType[] {ValType.I32}), handle);
  }

  HostFunction[] functions() {
    return new HostFunction[] {
      fn("random_bytes", 2, (m, a) -> {
        byte[] b = new byte[a[1]];
        random.nextBytes(b);
        m.write(a[0], b);
        return a[1];
      }),
      fn("aes_gcm_encrypt", 5, (m, a) -> {
        byte[] nonce = new byte[12];
        random.nextBytes(nonce);
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(m.readBytes(a[0], a[1]), "AES"), new GCMParameterSpec(128, nonce));
        byte[] ctTag = c.doFinal(m.readBytes(a[2], a[3]));
        m.write(a[4], nonce);
        m.write(a[4] + 12, ctTag);
        return a[3] + 28L;
      }),
      fn("aes_gcm_decrypt", 5, (m, a) -> {
        if (a[3] < 28) throw new IllegalArgumentException("ciphertext shorter than nonce and tag");
        byte[] sealed = m.readBytes(a[2], a[3]);
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(m.readBytes(a[0], a[1]), "AES"), new GCMParameterSpec(128, sealed, 0, 12));
        byte[] pt = c.doFinal(sealed, 12, sealed.length - 12);
        m.write(a[4], pt);
        return pt.length;
      }),
      fn("hmac_sha256", 5, (m, a) -> {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(m.readBytes(a[0], a[1]), "HmacSHA256"));
        m.write(a[4], mac.doFinal(m.readBytes(a[2], a[3])));
        return 32;
      }),
      fn("rsa_oaep_sha1_encrypt", 6, (m, a) -> rsa(m, a, Cipher.ENCRYPT_MODE)),
      fn("rsa_oaep_sha1_decrypt", 6, (m, a) -> rsa(m, a, Cipher.DECRYPT_MODE)),
      fn("get_last_error", 2, (m, a) -> {
        byte[] msg = lastError.getBytes(StandardCharsets.UTF_8);
        lastError = "";
        int n = Math.min(msg.length, a[1]);
        m.write(a[0], msg, 0, n);
        return n;
      }),
    };
  }

  private long rsa(Memory m, int[] a, int mode) throws Exception {
    String pem = new String(m.readBytes(a[0], a[1]), StandardCharsets.US_ASCII);
    Key key = keys.get(pem);
    if (key == null) {
      key = parsePem(pem, mode == Cipher.ENCRYPT_MODE);
      keys.put(pem, key);
    }
    Cipher c = Cipher.getInstance("RSA/ECB/OAEPWithSHA-1AndMGF1Padding");
    c.init(mode, key);
    byte[] out = c.doFinal(m.readBytes(a[2], a[3]));
    if (out.length > a[5]) throw new IllegalArgumentException("RSA output buffer too small");
    m.write(a[4], out);
    return out.length;
  }

  /** SPKI "PUBLIC KEY" or PKCS#8 "PRIVATE KEY" PEM, as the KAS writes them. */
  private static Key parsePem(String pem, boolean isPublic) throws Exception {
    String b64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    byte[] der = Base64.getDecoder().decode(b64);
    KeyFactory kf = KeyFactory.getInstance("RSA");
    return isPublic ? kf.generatePublic(new X509EncodedKeySpec(der)) : kf.generatePrivate(new PKCS8EncodedKeySpec(der));
  }
}

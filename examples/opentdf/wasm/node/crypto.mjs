// The host side of the module's "crypto" imports, with node:crypto (OpenSSL).
// Buffers are views of the module's memory, made afresh on every call since
// a memory growth replaces memory.buffer. node:crypto cannot encrypt into a
// given buffer, so each AES-GCM call copies its output into the module.
// Parsed RSA keys are cached by their PEM text, as in the other hosts.

import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHmac,
  createPrivateKey,
  createPublicKey,
  privateDecrypt,
  publicEncrypt,
  randomFillSync,
} from "node:crypto";

const HOST_ERROR = 0xffffffff;

export function cryptoImports(getMemory) {
  let lastError = "";
  const keys = new Map();
  const bytes = (p, n) => Buffer.from(getMemory().buffer, p, n);
  // Each import returns its byte count, or HOST_ERROR with the message kept.
  const guard =
    (fn) =>
    (...args) => {
      try {
        return fn(...args);
      } catch (e) {
        lastError = String(e?.message ?? e);
        return HOST_ERROR;
      }
    };
  const key = (pem, make) => {
    const text = pem.toString("latin1");
    let k = keys.get(text);
    if (!k) keys.set(text, (k = make(text)));
    return k;
  };
  const oaep = (k) => ({ key: k, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha1" });

  return {
    random_bytes: guard((out, n) => {
      randomFillSync(bytes(out, n));
      return n;
    }),
    aes_gcm_encrypt: guard((keyP, keyN, ptP, ptN, outP) => {
      const nonce = randomFillSync(bytes(outP, 12));
      const c = createCipheriv("aes-256-gcm", bytes(keyP, keyN), nonce);
      const ct = c.update(bytes(ptP, ptN));
      c.final();
      const out = bytes(outP, ptN + 28);
      ct.copy(out, 12);
      c.getAuthTag().copy(out, 12 + ptN);
      return ptN + 28;
    }),
    aes_gcm_decrypt: guard((keyP, keyN, ctP, ctN, outP) => {
      if (ctN < 28) throw new Error("ciphertext shorter than nonce and tag");
      const ct = bytes(ctP, ctN);
      const d = createDecipheriv("aes-256-gcm", bytes(keyP, keyN), ct.subarray(0, 12));
      d.setAuthTag(ct.subarray(ctN - 16));
      const pt = d.update(ct.subarray(12, ctN - 16));
      d.final();
      pt.copy(bytes(outP, ctN - 28));
      return ctN - 28;
    }),
    hmac_sha256: guard((keyP, keyN, dataP, dataN, outP) => {
      createHmac("sha256", bytes(keyP, keyN)).update(bytes(dataP, dataN)).digest().copy(bytes(outP, 32));
      return 32;
    }),
    rsa_oaep_sha1_encrypt: guard((pemP, pemN, ptP, ptN, outP, outCap) => {
      const k = key(bytes(pemP, pemN), createPublicKey);
      const ct = publicEncrypt(oaep(k), bytes(ptP, ptN));
      if (ct.length > outCap) throw new Error("RSA output buffer too small");
      ct.copy(bytes(outP, ct.length));
      return ct.length;
    }),
    rsa_oaep_sha1_decrypt: guard((pemP, pemN, ctP, ctN, outP, outCap) => {
      const k = key(bytes(pemP, pemN), createPrivateKey);
      const pt = privateDecrypt(oaep(k), bytes(ctP, ctN));
      if (pt.length > outCap) throw new Error("RSA output buffer too small");
      pt.copy(bytes(outP, pt.length));
      return pt.length;
    }),
    get_last_error: (outP, outCap) => {
      const msg = Buffer.from(lastError).subarray(0, outCap);
      lastError = "";
      msg.copy(bytes(outP, msg.length));
      return msg.length;
    },
  };
}

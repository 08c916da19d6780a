// One instance of tdfcore.wasm under node:wasi and the calling convention of
// its exports (../core/exports.go): copy the input in with malloc, call,
// copy the result out, free. The key PEMs and KAS URL are copied into the
// module once. The module is a reactor: wasi.initialize runs _initialize.

import { readFileSync } from "node:fs";
import { WASI } from "node:wasi";
import { cryptoImports } from "./crypto.mjs";

export async function loadModule(cfg) {
  const wasi = new WASI({ version: "preview1", args: [], env: {}, returnOnExit: true, stdout: 2, stderr: 2 });
  let memory;
  const imports = {
    wasi_snapshot_preview1: wasi.wasiImport,
    crypto: cryptoImports(() => memory),
  };
  const { instance } = await WebAssembly.instantiate(readFileSync(cfg.modulePath), imports);
  memory = instance.exports.memory;
  wasi.initialize(instance);
  const x = instance.exports;

  const copyIn = (data) => {
    const p = x.malloc(data.length) >>> 0;
    new Uint8Array(memory.buffer, p, data.length).set(data);
    return [p, data.length];
  };
  const result = (n) => {
    n >>>= 0;
    if (n === 0xffffffff) {
      const msg = Buffer.from(memory.buffer, x.error_ptr() >>> 0, x.error_len() >>> 0).toString();
      throw new Error(msg);
    }
    const out = Buffer.from(new Uint8Array(memory.buffer, x.result_ptr() >>> 0, n)); // a copy
    x.result_free();
    return out;
  };
  const enc = (s) => Buffer.from(s ?? "");
  const pub = copyIn(cfg.publicPEM ?? Buffer.alloc(0));
  const priv = copyIn(cfg.privatePEM ?? Buffer.alloc(0));
  const url = copyIn(enc(cfg.kasURL));
  const kid = copyIn(enc(cfg.kid));

  return {
    encrypt(plaintext) {
      const [p, n] = copyIn(plaintext);
      try {
        return result(x.tdf_encrypt(...pub, ...url, ...kid, p, n, cfg.segmentSize, cfg.legacy ? 1 : 0));
      } finally {
        x.free(p);
      }
    },
    decrypt(tdf) {
      if (!cfg.privatePEM) throw new Error("no private key given (--private)");
      const [p, n] = copyIn(tdf);
      try {
        return result(x.tdf_decrypt(p, n, ...priv));
      } finally {
        x.free(p);
      }
    },
    // The manifest of a TDF, and decryption with a payload key obtained
    // elsewhere (a KAS rewrap): the two halves of a decrypt through the KAS.
    manifest(tdf) {
      const [p, n] = copyIn(tdf);
      try {
        return result(x.tdf_manifest(p, n));
      } finally {
        x.free(p);
      }
    },
    decryptWithKey(tdf, key) {
      const [p, n] = copyIn(tdf);
      const [k, kn] = copyIn(key);
      try {
        return result(x.tdf_decrypt_key(p, n, k, kn));
      } finally {
        x.free(p);
        x.free(k);
      }
    },
  };
}

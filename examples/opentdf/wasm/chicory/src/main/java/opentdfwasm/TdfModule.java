// One instance of tdfcore.wasm in Chicory, interpreted or compiled to JVM
// bytecode at load time, and the calling convention of its exports
// (../../../../../core/exports.go): copy the input in with malloc, call,
// copy the result out, free. The key PEMs and KAS URL are copied in once.
package opentdfwasm;

import com.dylibso.chicory.compiler.MachineFactoryCompiler;
import com.dylibso.chicory.runtime.ExportFunction;
import com.dylibso.chicory.runtime.ImportValues;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.wasi.WasiOptions;
import com.dylibso.chicory.wasi.WasiPreview1;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

final class TdfModule {
  static final class Config {
    Path module;
    String mode = "compiler";
    byte[] publicPem = new byte[0];
    byte[] privatePem = new byte[0];
    String kasUrl = "";
    String kid = "r1";
    int segmentSize = 2 << 20;
    boolean legacy = true;
  }

  private final Config cfg;
  private final Instance instance;
  private final ExportFunction malloc, free, encrypt, decrypt, resultPtr, resultFree, errorPtr, errorLen;
  private final long[] pub, priv, url, kid;

  TdfModule(Config cfg) {
    this.cfg = cfg;
    WasmModule module = Parser.parse(cfg.module);
    WasiPreview1 wasi =
        WasiPreview1.builder()
            .withOptions(WasiOptions.builder().withStdout(System.err).withStderr(System.err).build())
            .build();
    ImportValues imports =
        ImportValues.builder().addFunction(wasi.toHostFunctions()).addFunction(new HostCrypto().functions()).build();
    Instance.Builder b = Instance.builder(module).withImportValues(imports).withStart(false);
    switch (cfg.mode) {
      case "compiler" -> b.withMachineFactory(MachineFactoryCompiler.compile(module));
      case "interp" -> {} // Chicory's default machine is the interpreter
      default -> throw new IllegalArgumentException("--mode must be interp or compiler");
    }
    instance = b.build();
    instance.export("_initialize").apply(); // a reactor: start the Go runtime
    malloc = instance.export("malloc");
    free = instance.export("free");
    encrypt = instance.export("tdf_encrypt");
    decrypt = instance.export("tdf_decrypt");
    resultPtr = instance.export("result_ptr");
    resultFree = instance.export("result_free");
    errorPtr = instance.export("error_ptr");
    errorLen = instance.export("error_len");
    pub = copyIn(cfg.publicPem);
    priv = copyIn(cfg.privatePem);
    url = copyIn(cfg.kasUrl.getBytes(StandardCharsets.UTF_8));
    kid = copyIn(cfg.kid.getBytes(StandardCharsets.UTF_8));
  }

  private long[] copyIn(byte[] data) {
    long p = malloc.apply(data.length)[0] & 0xFFFFFFFFL;
    instance.memory().write((int) p, data);
    return new long[] {p, data.length};
  }

  private byte[] result(long n) {
    n &= 0xFFFFFFFFL;
    if (n == 0xFFFFFFFFL) {
      int p = (int) errorPtr.apply()[0];
      int len = (int) errorLen.apply()[0];
      throw new IllegalStateException(instance.memory().readString(p, len));
    }
    byte[] out = instance.memory().readBytes((int) resultPtr.apply()[0], (int) n);
    resultFree.apply();
    return out;
  }

  byte[] encrypt(byte[] plaintext) {
    long[] in = copyIn(plaintext);
    try {
      return result(encrypt.apply(pub[0], pub[1], url[0], url[1], kid[0], kid[1], in[0], in[1], cfg.segmentSize, cfg.legacy ? 1 : 0)[0]);
    } finally {
      free.apply(in[0]);
    }
  }

  byte[] decrypt(byte[] tdf) {
    if (cfg.privatePem.length == 0) throw new IllegalStateException("no private key given (--private)");
    long[] in = copyIn(tdf);
    try {
      return result(decrypt.apply(in[0], in[1], priv[0], priv[1])[0]);
    } finally {
      free.apply(in[0]);
    }
  }
}

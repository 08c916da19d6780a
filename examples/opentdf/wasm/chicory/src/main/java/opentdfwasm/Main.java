// Chicory host for tdfcore.wasm: a versus worker (operations `encrypt`,
// `decrypt-local` and `decrypt-go-tdf-local`), or, with
// `encrypt|decrypt IN OUT [IN OUT ...]`, a one-shot command used by
// check.sh. Same flags as the wazero and Node hosts, plus --mode
// interp|compiler (Chicory's interpreter, or its compiler to JVM bytecode):
//
//   java -jar chicory-host.jar --mode compiler --module tdfcore.wasm --state KAS_STATE [flags] [encrypt|decrypt IN OUT ...]
//
// Key files are read when the first cell is set up, so the worker may start
// before the KAS has written them.
package opentdfwasm;

import dev.versus.worker.SetupContext;
import dev.versus.worker.Worker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

public final class Main {
  private String state, publicPath, privatePath, kasUrl;
  private final TdfModule.Config cfg = new TdfModule.Config();
  private TdfModule module;

  public static void main(String[] args) throws Exception {
    new Main().start(args);
  }

  private void start(String[] args) throws Exception {
    List<String> positional = new ArrayList<>();
    boolean version = false;
    cfg.module = Path.of("tdfcore.wasm");
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--module" -> cfg.module = Path.of(args[++i]);
        case "--mode" -> cfg.mode = args[++i];
        case "--state" -> state = args[++i];
        case "--public" -> publicPath = args[++i];
        case "--private" -> privatePath = args[++i];
        case "--kas-url" -> kasUrl = args[++i];
        case "--kid" -> cfg.kid = args[++i];
        case "--segment-size" -> cfg.segmentSize = Integer.parseInt(args[++i]);
        case "--tdf-version" -> {
          String v = args[++i];
          if (!v.equals("4.2.2") && !v.equals("4.3.0")) usage("--tdf-version must be 4.2.2 or 4.3.0");
          cfg.legacy = v.equals("4.2.2");
        }
        case "--version" -> version = true;
        default -> {
          if (a.startsWith("--")) usage("unknown flag " + a);
          positional.add(a);
        }
      }
    }
    if (version) {
      System.out.println(versionLine());
      return;
    }
    if (positional.isEmpty()) {
      serve();
      return;
    }
    if (positional.size() < 3 || positional.size() % 2 != 1 || !List.of("encrypt", "decrypt").contains(positional.get(0))) {
      usage("usage: [flags] encrypt|decrypt IN OUT [IN OUT ...]");
    }
    TdfModule m = module();
    for (int i = 1; i < positional.size(); i += 2) {
      byte[] in = Files.readAllBytes(Path.of(positional.get(i)));
      byte[] out = positional.get(0).equals("encrypt") ? m.encrypt(in) : m.decrypt(in);
      Files.write(Path.of(positional.get(i + 1)), out);
    }
  }

  private static void usage(String msg) {
    System.err.println("chicory-host: " + msg);
    System.exit(2);
  }

  private TdfModule module() throws IOException {
    if (module == null) {
      Path st = state == null ? null : Path.of(state);
      String pub = publicPath != null ? publicPath : st == null ? null : st.resolve("kas-public.pem").toString();
      String priv = privatePath != null ? privatePath : st == null ? null : st.resolve("kas-private.pem").toString();
      if (pub != null) cfg.publicPem = Files.readAllBytes(Path.of(pub));
      if (priv != null) cfg.privatePem = Files.readAllBytes(Path.of(priv));
      if (kasUrl != null) cfg.kasUrl = kasUrl;
      else if (st != null) cfg.kasUrl = Files.readString(st.resolve("kas-url")).trim();
      module = new TdfModule(cfg);
    }
    return module;
  }

  /** State of one cell: the module and the bytes the operation works on. */
  private record Cell(TdfModule m, byte[] data) {}

  // decrypt-local decrypts its input when that is a TDF; given plaintext (the
  // payload), setup first encrypts it with the module, untimed, since a
  // worker operation cannot chain on another's output.
  private void serve() {
    Worker.builder()
        .operation("encrypt", (Cell c) -> c.m().encrypt(c.data()), (SetupContext ctx) -> new Cell(module(), ctx.readInput()))
        .operation(
            "decrypt-local",
            (Cell c) -> c.m().decrypt(c.data()),
            (SetupContext ctx) -> {
              byte[] in = ctx.readInput();
              boolean zip = in.length >= 4 && in[0] == 'P' && in[1] == 'K' && in[2] == 3 && in[3] == 4;
              return new Cell(module(), zip ? in : module().encrypt(in));
            })
        // The Go SDK's TDF of the payload, written beside it by the suite's
        // payload generator (../go/payload.go): the module reading another
        // writer's TDF.
        .operation(
            "decrypt-go-tdf-local",
            (Cell c) -> c.m().decrypt(c.data()),
            (SetupContext ctx) -> new Cell(module(), Files.readAllBytes(Path.of(ctx.payload() + ".go-sdk.tdf"))))
        .run();
  }

  private String versionLine() {
    String chicory = "unknown";
    try (InputStream in = Main.class.getResourceAsStream("/META-INF/maven/com.dylibso.chicory/runtime/pom.properties")) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        chicory = p.getProperty("version");
      }
    } catch (IOException e) {
      // leave "unknown"
    }
    String size;
    try {
      size = Files.size(cfg.module) + " bytes";
    } catch (IOException e) {
      size = "missing";
    }
    String machine = cfg.mode.equals("interp") ? "interpreter" : "compiler";
    return "Chicory " + chicory + " (" + machine + "), JDK " + System.getProperty("java.runtime.version")
        + "; module " + cfg.module + " (" + size + ")";
  }
}

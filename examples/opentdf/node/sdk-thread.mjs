// The helper thread of the TypeScript worker (worker.mjs): it owns the
// @opentdf/client Client and runs its asynchronous encrypt and decrypt.
// versus's Node worker library times synchronous calls only, so worker.mjs
// posts each call here and blocks (Atomics.wait) until this thread has
// posted the result and raised the flag; the result's buffer is transferred,
// not copied. See worker.mjs for what that adds to each call.
//
// @opentdf/client 1.3.0 is written for browsers: its entry point assigns
// window.TDF and a dependency (streamsaver) reads document at import, so
// minimal globals are set before it is imported. Encryption is offline (the KAS public key is
// given); decryption posts the rewrap to the KAS's REST path
// (KAS URL + /v2/rewrap) with the older single-object request body.
import { parentPort, workerData } from "node:worker_threads";
import { readFileSync } from "node:fs";

// With window and document both defined, axios believes it runs in a
// browser and reads window.location; it still sends through Node's http
// (there is no XMLHttpRequest here).
globalThis.window ??= globalThis;
globalThis.document ??= { documentElement: { style: {} }, createElement: () => ({}), getElementById: () => null };
globalThis.location ??= { href: "http://localhost/", origin: "http://localhost", protocol: "http:" };

// The package exports the client class as TDF3Client (Client is a namespace).
const { TDF3Client: Client } = await import("@opentdf/client");

const { kasUrl, state, signal, port } = workerData;
const flag = new Int32Array(signal);

/** No identity provider: requests go out as built (the KAS does not check credentials). */
const authProvider = {
  async updateClientPublicKey() {},
  async withCreds(req) {
    return req;
  },
};

const client = new Client({
  kasEndpoint: kasUrl,
  allowedKases: [kasUrl],
  kasPublicKey: readFileSync(`${state}/kas-public.pem`, "utf8"),
  authProvider,
  dpopEnabled: false,
});

function source(bytes) {
  return new ReadableStream({
    pull(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

async function encrypt(plain) {
  const stream = await client.encrypt({ offline: true, source: source(plain) });
  return new Uint8Array(await stream.toBuffer());
}

async function decrypt(tdf) {
  const stream = await client.decrypt({ source: { type: "buffer", location: tdf } });
  return new Uint8Array(await stream.toBuffer());
}

const same = (a, b) => a.length === b.length && Buffer.from(a).equals(Buffer.from(b));

// One cell's state, made by "setup" and used by every "run".
let cell = null;

async function handle(msg) {
  switch (msg.cmd) {
    case "setup": {
      const plain = new Uint8Array(readFileSync(msg.input));
      if (msg.operation === "encrypt") {
        // Check once that this client reads its own TDF back.
        if (!same(await decrypt(await encrypt(plain)), plain)) {
          throw new Error("decrypting this client's own TDF did not give the payload back");
        }
        cell = { run: () => encrypt(plain) };
      } else if (msg.operation === "decrypt") {
        const tdf = await encrypt(plain);
        cell = { run: () => decrypt(tdf) };
      } else if (msg.operation === "decrypt-go-tdf") {
        const tdf = new Uint8Array(readFileSync(`${msg.payload}.go-sdk.tdf`));
        cell = { run: () => decrypt(tdf) };
      } else {
        throw new Error(`unknown operation ${msg.operation}`);
      }
      return new Uint8Array(0);
    }
    case "run":
      return cell.run();
    case "teardown":
      cell = null;
      return new Uint8Array(0);
    default:
      throw new Error(`unknown command ${msg.cmd}`);
  }
}

port.on("message", async (msg) => {
  let reply;
  let transfer = [];
  try {
    const result = await handle(msg);
    reply = { result };
    transfer = [result.buffer];
  } catch (e) {
    reply = { error: String(e?.stack ?? e) };
  }
  port.postMessage(reply, transfer);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
parentPort.postMessage("ready");

// The OpenTDF TypeScript client (@opentdf/client) as a versus worker, for
// examples/opentdf.
//
//   node worker.mjs --kas-url URL --state DIR     (started by versus)
//   node worker.mjs --version
//
// Operations: encrypt (offline, to the KAS public key from DIR), decrypt
// (REST rewrap through the KAS), decrypt-go-tdf (the Go SDK's TDF of the
// payload; the cross-SDK check). The client offers no way to supply one's
// own key-access client, so there is no decrypt-local here.
//
// The client is asynchronous and versus's Node worker library times only
// synchronous calls, so each call is handed to a helper thread
// (sdk-thread.mjs) and this thread blocks until the result comes back: one
// postMessage, one Atomics.wait/notify and one receiveMessageOnPort per
// call, some tens of microseconds, against the client's milliseconds. The
// result's buffer is transferred, not copied.
import { MessageChannel, Worker, receiveMessageOnPort } from "node:worker_threads";
import { readFileSync } from "node:fs";
import { operation, run } from "versus-worker";

const args = process.argv.slice(2);
const here = new URL(".", import.meta.url);

if (args[0] === "--version") {
  const pkg = JSON.parse(readFileSync(new URL("node_modules/@opentdf/client/package.json", here), "utf8"));
  console.log(`@opentdf/client ${pkg.version} on Node.js ${process.version}`);
  process.exit(0);
}

const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const state = opt("--state");
if (!state) {
  console.error("worker.mjs: --state DIR is required (the KAS's state folder)");
  process.exit(2);
}
const kasUrl = opt("--kas-url") ?? readFileSync(`${state}/kas-url`, "utf8").trim();

const signal = new SharedArrayBuffer(4);
const flag = new Int32Array(signal);
const { port1, port2 } = new MessageChannel();
const thread = new Worker(new URL("sdk-thread.mjs", here), {
  workerData: { kasUrl, state, signal, port: port2 },
  transferList: [port2],
});
await new Promise((resolve, reject) => {
  thread.once("message", resolve);
  thread.once("error", reject);
});
thread.unref();

/** Runs one command on the helper thread and waits for its answer. */
function call(msg) {
  Atomics.store(flag, 0, 0);
  port1.postMessage(msg);
  Atomics.wait(flag, 0, 0);
  const reply = receiveMessageOnPort(port1)?.message;
  if (!reply) throw new Error("the client thread gave no answer");
  if (reply.error) throw new Error(reply.error);
  return reply.result;
}

const RUN = { cmd: "run" };
for (const name of ["encrypt", "decrypt", "decrypt-go-tdf"]) {
  operation(name, () => call(RUN), {
    setup: (ctx) => call({ cmd: "setup", operation: ctx.operation, input: ctx.input, payload: ctx.payload }),
    teardown: () => call({ cmd: "teardown" }),
  });
}

run();

// The helper thread of rewrap.mjs: posts each rewrap request with fetch and
// raises the flag the main thread waits on once the answer (status and body
// text) is on the port. See rewrap.mjs for why the call is split this way.
import { parentPort, workerData } from "node:worker_threads";

const { signal, port } = workerData;

port.on("message", async ({ url, body }) => {
  let reply;
  try {
    const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    reply = { status: res.status, text: await res.text() };
  } catch (e) {
    reply = { error: `KAS rewrap: ${e?.cause?.message ?? e?.message ?? e}` };
  }
  port.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
parentPort.postMessage("ready");

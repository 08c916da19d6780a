// versus-worker: a thin library that turns a Node.js program into a versus
// worker (docs/worker-protocol.md). Register operations, then call run():
//
//   import { operation, run } from "versus-worker";
//   operation("sha256", (data) => createHash("sha256").update(data).digest(), {
//     setup: ({ input }) => readFileSync(input),
//   });
//   run();

import { Worker } from "./worker.js";

export { ErrorClass, PROTOCOL_VERSION } from "./protocol.js";
export { LIBRARY_NAME, VERSION, Worker } from "./worker.js";

/** The worker that operation() and run() use. */
export const defaultWorker = new Worker();

/** Registers an operation on the default worker (see Worker.operation). */
export function operation(name, fn, options) {
  defaultWorker.operation(name, fn, options);
}

/**
 * Serves the default worker over the file descriptors given by versus, until
 * shutdown or the end of input, then exits the process.
 */
export function run(options) {
  return defaultWorker.run(options);
}

// The conformance program of versus-worker: registers the operations that
// `versus conformance` expects (docs/worker-protocol.md, "Conformance").
//
//   versus conformance -- node workers/node/conformance-worker.mjs

import { readFileSync } from "node:fs";
import { operation, run } from "versus-worker";

const EMPTY = new Uint8Array(0);
const SPIN = Buffer.from("spin");
const NOISY = Buffer.from("noisy");

// echo: setup reads the input into memory; the operation returns those bytes.
operation("echo", (data) => data, {
  setup: ({ input }) => readFileSync(input),
});

// noop: returns an empty byte string.
operation("noop", () => EMPTY);

// spin: busy-waits params.micros microseconds (default 100) per call.
operation(
  "spin",
  (ms) => {
    const deadline = performance.now() + ms;
    while (performance.now() < deadline);
    return SPIN;
  },
  { setup: ({ params }) => Number(params.micros ?? 100) / 1000 },
);

// noisy: writes a line to stdout and to stderr on every call.
operation("noisy", () => {
  process.stdout.write("noisy: a line on stdout\n");
  process.stderr.write("noisy: a line on stderr\n");
  return NOISY;
});

// fails: raises on every call.
operation("fails", () => {
  throw new Error("fails always fails");
});

// bad_setup: its setup hook raises.
operation("bad_setup", () => EMPTY, {
  setup: () => {
    throw new Error("bad_setup always fails in setup");
  },
});

run();

// SHA-256 of the input with Node's standard library (node:crypto), for the
// examples/sha256 comparison across languages.
//
// setup (not timed) reads the whole input into memory; the operation returns
// the raw 32-byte digest of those bytes.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { operation, run } from "versus-worker";

operation("sha256", (data) => createHash("sha256").update(data).digest(), {
  setup: ({ input }) => readFileSync(input),
});

run();

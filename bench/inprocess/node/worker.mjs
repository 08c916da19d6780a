// The versus side of bench/inprocess.sh for Node.js: serves sha256_1mb and
// noop (ops.mjs) over the worker protocol. The setup hook builds the 1 MB
// buffer, untimed.

import { operation, run } from "versus-worker";
import { makeData, noop, sha256 } from "./ops.mjs";

operation("sha256_1mb", sha256, { setup: () => makeData() });
operation("noop", noop);

run();

// The native side: mitata with its default settings times the same two
// functions (do_not_optimize is mitata's black box for the result). Prints
// mitata's own report, and writes each benchmark's statistics (ns per call)
// as JSON to the file named by the first argument, if any.
//
//   node native.mjs [stats.json]

import { writeFileSync } from "node:fs";
import { bench, do_not_optimize, run } from "mitata";
import { makeData, noop, sha256 } from "./ops.mjs";

const data = makeData();
const hex = sha256(data).toString("hex");
if (hex !== "34596c4573adf4f29b28ef2c79c997eeb28dcf482ce9370047b727b0396a798c") {
  throw new Error(`digest of the 1 MB buffer is ${hex}`);
}

bench("sha256_1mb", () => do_not_optimize(sha256(data)));
bench("noop", () => do_not_optimize(noop()));

const { benchmarks } = await run({ colors: false });
const stats = {};
for (const trial of benchmarks) {
  for (const r of trial.runs) {
    const { avg, min, max, p25, p50, p75, p99, ticks } = r.stats;
    stats[r.name] = { avg, min, max, p25, p50, p75, p99, ticks, samples: r.stats.samples.length };
  }
}
if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify(stats, null, 2) + "\n");

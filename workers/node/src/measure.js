// The timed region. Everything the library does per batch happens outside the
// two clock readings; between them there is only the loop, which stores each
// result into a module-level sink so V8 cannot drop the call as dead code.

import v8 from "node:v8";

// process.hrtime.bigint reads the monotonic clock in integer nanoseconds.
const now = process.hrtime.bigint;

// The black box: a property of a module-level object, written on every call
// and read after the loop (lastResult), which V8 cannot prove unobservable.
// A property and not a module-level `let`: V8 stores into a module binding
// through its cell with extra checks, about 8 ns a call on Node 20, while a
// property store costs about 1 ns (measured while writing this), and the
// floor of an empty operation is what a user compares against other harnesses.
const sink = { value: undefined };

// GCProfiler (node:v8, since Node 18.15/19.6) records every garbage collection
// of this thread from V8's GC callbacks, synchronously, so the count belongs
// to exactly this batch. These two callback kinds are phases of a collection
// that is also reported as MarkSweepCompact, not collections of their own.
const NOT_COLLECTIONS = new Set(["IncrementalMarking", "ProcessWeakCallbacks"]);

/** True when this runtime can count garbage collections per batch. */
export const canCountGc = typeof v8.GCProfiler === "function";

function loop(fn, state, iterations) {
  const start = now();
  const box = sink;
  for (let i = 0; i < iterations; i++) {
    box.value = fn(state);
  }
  const end = now();
  return end - start;
}

/** Number of collections in the statistics of GCProfiler.stop(). */
export function countCollections(statistics) {
  let count = 0;
  for (const event of statistics) {
    if (!NOT_COLLECTIONS.has(event.gcType)) count++;
  }
  return count;
}

/**
 * Calls `fn(state)` `iterations` times between two readings of the monotonic
 * clock. Returns `{elapsedNs, gcCount}`: `elapsedNs` in integer nanoseconds;
 * `gcCount` the garbage collections during the batch, or undefined when not
 * counted. An exception from `fn` propagates.
 *
 * @param {(state: unknown) => unknown} fn
 * @param {unknown} state
 * @param {number} iterations integer >= 1
 * @param {boolean} countGc
 */
export function measure(fn, state, iterations, countGc) {
  const profiler = countGc && canCountGc ? new v8.GCProfiler() : undefined;
  profiler?.start();
  let elapsed;
  let statistics;
  try {
    elapsed = loop(fn, state, iterations);
  } finally {
    statistics = profiler?.stop().statistics;
  }
  return {
    elapsedNs: Number(elapsed),
    gcCount:
      statistics === undefined ? undefined : countCollections(statistics),
  };
}

/** The result of the last call in the last batch (reading the sink). */
export function lastResult() {
  return sink.value;
}

/** Drops the last result, so a torn-down operation's output can be freed. */
export function clearSink() {
  sink.value = undefined;
}

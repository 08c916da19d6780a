import assert from "node:assert/strict";
import { describe, it } from "node:test";
import v8 from "node:v8";
import vm from "node:vm";
import {
  canCountGc,
  clearSink,
  countCollections,
  lastResult,
  measure,
} from "../src/measure.js";

// A function that forces a full garbage collection (as --expose-gc would).
v8.setFlagsFromString("--expose-gc");
const forceGc = vm.runInNewContext("gc");

describe("measure", () => {
  it("calls fn(state) exactly `iterations` times", () => {
    const seen = [];
    const state = { name: "state" };
    const timing = measure((s) => seen.push(s), state, 17, false);
    assert.equal(seen.length, 17);
    assert.ok(seen.every((s) => s === state));
    assert.ok(Number.isSafeInteger(timing.elapsedNs) && timing.elapsedNs >= 0);
    assert.equal(timing.gcCount, undefined);
  });

  it("keeps the last result in the sink until cleared", () => {
    let n = 0;
    measure(() => ++n, undefined, 5, false);
    assert.equal(lastResult(), 5);
    clearSink();
    assert.equal(lastResult(), undefined);
  });

  it("propagates an exception from fn, and measures again afterwards", () => {
    assert.throws(
      () =>
        measure(
          () => {
            throw new RangeError("inside");
          },
          undefined,
          3,
          true,
        ),
      RangeError,
    );
    const timing = measure(() => 1, undefined, 3, true);
    if (canCountGc) assert.ok(Number.isSafeInteger(timing.gcCount));
  });

  it(
    "counts garbage collections inside the batch",
    { skip: !canCountGc },
    () => {
      const timing = measure(() => forceGc(), undefined, 3, true);
      assert.ok(timing.gcCount >= 3, `gc_count ${timing.gcCount}`);
    },
  );

  it("does not count collection phases as collections", () => {
    assert.equal(
      countCollections([
        { gcType: "Scavenge" },
        { gcType: "IncrementalMarking" },
        { gcType: "MarkSweepCompact" },
        { gcType: "ProcessWeakCallbacks" },
        { gcType: "Unknown" },
      ]),
      3,
    );
    assert.equal(countCollections([]), 0);
  });
});

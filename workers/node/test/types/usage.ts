// Compiled (never run) by `tsc -p tsconfig.json`: the public types accept the
// documented usage and reject misuse.

import {
  ErrorClass,
  PROTOCOL_VERSION,
  Worker,
  operation,
  run,
  type ErrorClassName,
  type SetupContext,
} from "versus-worker";

declare function readBytes(path: string): Uint8Array;

// State flows from setup to the operation and teardown. TypeScript infers it
// from an annotated parameter: the operation's, or the setup hook's context.
operation("echo", (data: Uint8Array) => data, {
  setup: ({ input }) => readBytes(input ?? ""),
  teardown: (data, context) => {
    void data.byteLength;
    void context.params;
  },
});
operation("noop", () => {});
operation("text", () => "a string is UTF-8 encoded");
operation("buffer", () => new ArrayBuffer(8));
operation("view", () => new DataView(new ArrayBuffer(4)));
operation("spin", (micros) => String(micros + 1), {
  setup: async ({ params }: SetupContext) => Number(params.micros ?? 100),
});

// @ts-expect-error an operation returns bytes or a string, not a number
operation("number", () => 42);
operation("wrong_state", (s: string) => s, {
  // @ts-expect-error setup must return the state the operation takes
  setup: () => 1,
});

const worker = new Worker().operation("a", () => "a");
const names: string[] = worker.operations;
const version: 1 = PROTOCOL_VERSION;
const failed: ErrorClassName = ErrorClass.OPERATION_FAILED;
void names;
void version;
void failed;

const exits: Promise<never> = run({ gcCount: false });
void exits;

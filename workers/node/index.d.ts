// Types of versus-worker (hand-written; the package ships plain ESM JavaScript).

/** A matrix parameter value of a cell. */
export type ParamValue = string | number | boolean;

/** The cell's matrix parameters: name to value. */
export type Params = Readonly<Record<string, ParamValue>>;

/** What a setup hook (and a teardown hook) is told about the cell. */
export interface SetupContext {
  /** The name of the operation being set up. */
  readonly operation: string;
  /** The cell's matrix parameters. */
  readonly params: Params;
  /** Path of the payload file, or null when the cell has none. */
  readonly payload: string | null;
  /** Path of the operation's input (the payload, or an earlier operation's output), or null. */
  readonly input: string | null;
}

/**
 * What an operation returns: bytes, or a string (encoded as UTF-8). `verify`
 * reports the SHA-256 and length of these bytes; undefined and null count as
 * no bytes.
 */
export type Output =
  | Uint8Array
  | ArrayBufferView
  | ArrayBuffer
  | SharedArrayBuffer
  | string
  | null
  | undefined
  | void;

/**
 * The timed code: called `iterations` times per `run` with the state the
 * setup hook returned. Must be synchronous; a thrown error is reported as
 * `operation_failed`.
 */
export type OperationFn<State> = (state: State) => Output;

/** Hooks of an operation; neither is timed. */
export interface OperationOptions<State> {
  /**
   * Prepares the state the operation uses (for example, reads `input` into
   * memory). May be async. A thrown error or rejection is `setup_failed`.
   */
  setup?: (context: SetupContext) => State | Promise<State>;
  /** Releases the state on `teardown` (also on shutdown and before the next setup). May be async. */
  teardown?: (state: State, context: SetupContext) => void | Promise<void>;
}

/** Options of run(). */
export interface RunOptions {
  /**
   * Report `gc_count` (garbage collections during each batch, counted with
   * node:v8's GCProfiler). Default true.
   */
  gcCount?: boolean;
}

/** The closed set of error classes of protocol version 1. */
export declare const ErrorClass: Readonly<{
  UNKNOWN_OPERATION: "unknown_operation";
  SETUP_FAILED: "setup_failed";
  OPERATION_FAILED: "operation_failed";
  BAD_REQUEST: "bad_request";
  UNSUPPORTED_VERSION: "unsupported_version";
  INTERNAL: "internal";
}>;

/** A value of ErrorClass. */
export type ErrorClassName = (typeof ErrorClass)[keyof typeof ErrorClass];

/** The worker protocol version this library speaks. */
export declare const PROTOCOL_VERSION: 1;

/** This library's version. */
export declare const VERSION: string;

/** This library's name as reported in `hello` ("versus-worker-node"). */
export declare const LIBRARY_NAME: string;

/** A protocol message: `{type, id, data}`. */
export interface Message {
  type: string;
  id: number;
  data: Record<string, unknown>;
}

/** A set of operations and the state of the cell being run. */
export declare class Worker {
  /**
   * Registers operation `name`. Throws if the name is taken, the arguments
   * are not functions, or run() has started.
   */
  operation<State = undefined>(
    name: string,
    fn: OperationFn<State>,
    options?: OperationOptions<State>,
  ): this;
  /** Names of the registered operations, in registration order. */
  readonly operations: string[];
  /** The `hello` message the worker opens the conversation with. */
  hello(): Message;
  /** Answers one request line; never rejects (failures become `error` messages). */
  handle(line: string): Promise<{ message: Message; exit: boolean }>;
  /**
   * Serves a conversation over `lines`, sending each encoded message (one
   * JSON line) through `send`. Resolves to the exit status.
   */
  serve(
    lines: AsyncIterable<string>,
    send: (text: string) => void,
    options?: RunOptions,
  ): Promise<number>;
  /** Serves over the file descriptors given by versus, then exits the process. */
  run(options?: RunOptions): Promise<never>;
}

/** The worker that operation() and run() use. */
export declare const defaultWorker: Worker;

/**
 * Registers operation `name` on the default worker. TypeScript infers the
 * state type from an annotated parameter: annotate the operation's parameter
 * (`(data: Buffer) => ...`) or the setup hook's (`(ctx: SetupContext) => ...`).
 *
 * @example
 * operation("sha256", (data: Buffer) => createHash("sha256").update(data).digest(), {
 *   setup: ({ input }) => readFileSync(input!),
 * });
 */
export declare function operation<State = undefined>(
  name: string,
  fn: OperationFn<State>,
  options?: OperationOptions<State>,
): void;

/**
 * Serves the default worker over the file descriptors given by versus
 * (VERSUS_WORKER_FDS) until `shutdown` or the end of input, then exits the
 * process. Without VERSUS_WORKER_FDS it prints why and exits with status 2.
 */
export declare function run(options?: RunOptions): Promise<never>;

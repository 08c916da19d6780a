package dev.versus.worker;

/** The closed set of error classes of protocol version 1; the core never matches messages. */
enum ErrorClass {
  /** {@code setup} names an operation that is not registered. */
  UNKNOWN_OPERATION("unknown_operation"),
  /** The setup hook threw. */
  SETUP_FAILED("setup_failed"),
  /** The operation threw during {@code run} or {@code verify} (or the teardown hook threw). */
  OPERATION_FAILED("operation_failed"),
  /** Unparseable line, unknown type, missing or ill-typed field, {@code run} before setup. */
  BAD_REQUEST("bad_request"),
  /** Reserved for version negotiation. */
  UNSUPPORTED_VERSION("unsupported_version"),
  /** Anything else going wrong inside the library. */
  INTERNAL("internal");

  /** The name on the wire. */
  final String wire;

  ErrorClass(String wire) {
    this.wire = wire;
  }
}

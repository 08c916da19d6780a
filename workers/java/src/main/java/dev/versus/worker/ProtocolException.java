package dev.versus.worker;

/** A request that is answered with an {@code error} message of the given class. */
final class ProtocolException extends Exception {
  private static final long serialVersionUID = 1L;

  final ErrorClass errorClass;

  ProtocolException(ErrorClass errorClass, String message) {
    super(message);
    this.errorClass = errorClass;
  }

  ProtocolException(ErrorClass errorClass, String message, Throwable cause) {
    super(message, cause);
    this.errorClass = errorClass;
  }
}

package dev.versus.worker;

/**
 * The code being measured: called {@code iterations} times per {@code run} request and once per
 * {@code verify} request.
 *
 * <p>It returns the bytes it produced, as a {@code byte[]}, a {@link String} (encoded as UTF-8) or
 * a {@link java.nio.ByteBuffer} (its remaining bytes); {@code null} counts as no bytes. During
 * {@code run} the result is only kept alive in a black-box sink so that the JIT cannot remove the
 * call; {@code verify} reports its SHA-256 and length.
 *
 * @param <S> the state built by the operation's {@link Setup} hook
 */
@FunctionalInterface
public interface Operation<S> {
  /**
   * Runs the operation once. Anything thrown ends the current request with the {@code
   * operation_failed} error class.
   */
  Object call(S state) throws Exception;
}

package dev.versus.worker;

/**
 * An operation's setup hook, run (untimed) when the core sends {@code setup}: reads the input,
 * builds keys, and returns the state that every call of the operation receives.
 *
 * @param <S> the state type
 */
@FunctionalInterface
public interface Setup<S> {
  /**
   * Builds the operation's state. Anything thrown answers the request with the {@code setup_failed}
   * error class.
   */
  S setup(SetupContext context) throws Exception;
}

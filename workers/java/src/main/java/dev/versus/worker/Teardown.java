package dev.versus.worker;

/**
 * An operation's teardown hook, run when the core sends {@code teardown} (or sets up another
 * operation, or shuts the worker down): releases what {@link Setup} acquired.
 *
 * @param <S> the state type
 */
@FunctionalInterface
public interface Teardown<S> {
  void teardown(S state) throws Exception;
}

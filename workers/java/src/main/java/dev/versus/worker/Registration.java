package dev.versus.worker;

/**
 * One registered operation with its optional hooks. The state type is erased to {@code Object}
 * here; it stays consistent because only this registration's setup produces the state its operation
 * and teardown receive.
 */
record Registration(
    String name, Setup<Object> setup, Operation<Object> operation, Teardown<Object> teardown) {

  @SuppressWarnings("unchecked")
  static <S> Registration of(
      String name, Operation<S> operation, Setup<S> setup, Teardown<S> teardown) {
    return new Registration(
        name, (Setup<Object>) setup, (Operation<Object>) operation, (Teardown<Object>) teardown);
  }
}

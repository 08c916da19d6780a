package dev.versus.worker;

/**
 * Keeps an operation's results "used" so that the JIT cannot drop the calls that produce them,
 * without allocating and for about one load and one compare per call (the idea of JMH's {@code
 * Blackhole}).
 *
 * <p>The timed loop stores the result of call {@code i} into {@link #kept} when {@code i} equals
 * {@link #trap}. The trap is volatile, so the JIT must re-read it on every iteration and cannot
 * prove the store unreachable; every result may be stored, so every call must really happen and its
 * result must really be built. The trap is negative and loop indexes are not, so the store never
 * happens in practice. A volatile store of every result would also work, but would add a memory
 * fence to every iteration.
 */
final class Blackhole {
  /** The loop index whose result is stored; never matched (indexes are at least 0). */
  volatile long trap = -1;

  /** Where a trapped result goes; read by nothing, but the JIT cannot know that. */
  Object kept;

  /** Drops the reference to a kept result, so it can be collected after a teardown. */
  void clear() {
    kept = null;
  }
}

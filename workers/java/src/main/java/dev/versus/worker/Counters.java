package dev.versus.worker;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * The runtime's cheap allocation and garbage-collection counters, where it has them.
 *
 * <p>Allocated bytes come from {@code
 * com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes} (HotSpot: bytes allocated by the
 * current thread, read from its TLAB bookkeeping without a safepoint). The GC count is the sum of
 * {@link GarbageCollectorMXBean#getCollectionCount()} over the collectors that report one. A
 * counter the runtime does not offer is reported as absent.
 */
final class Counters {
  /** Null when the runtime cannot count the current thread's allocations. */
  private final com.sun.management.ThreadMXBean threads;

  /** The collectors with a defined count; empty when none has. */
  private final GarbageCollectorMXBean[] collectors;

  private Counters(com.sun.management.ThreadMXBean threads, GarbageCollectorMXBean[] collectors) {
    this.threads = threads;
    this.collectors = collectors;
  }

  /** Finds what this runtime offers. Never throws. */
  static Counters detect() {
    return new Counters(allocationCounter(), collectorsWithCounts());
  }

  /** A runtime with no counters, for tests. */
  static Counters none() {
    return new Counters(null, new GarbageCollectorMXBean[0]);
  }

  private static com.sun.management.ThreadMXBean allocationCounter() {
    try {
      ThreadMXBean bean = ManagementFactory.getThreadMXBean();
      if (!(bean instanceof com.sun.management.ThreadMXBean)) {
        return null;
      }
      com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
      if (!threads.isThreadAllocatedMemorySupported()) {
        return null;
      }
      if (!threads.isThreadAllocatedMemoryEnabled()) {
        threads.setThreadAllocatedMemoryEnabled(true);
      }
      // Some runtimes declare support and then answer -1.
      return threads.getCurrentThreadAllocatedBytes() >= 0 ? threads : null;
    } catch (LinkageError | RuntimeException e) {
      // No jdk.management module, or a runtime that refuses: no counter.
      return null;
    }
  }

  private static GarbageCollectorMXBean[] collectorsWithCounts() {
    try {
      List<GarbageCollectorMXBean> beans = ManagementFactory.getGarbageCollectorMXBeans();
      return beans.stream()
          .filter(b -> b.getCollectionCount() >= 0)
          .toArray(GarbageCollectorMXBean[]::new);
    } catch (LinkageError | RuntimeException e) {
      return new GarbageCollectorMXBean[0];
    }
  }

  boolean hasAllocatedBytes() {
    return threads != null;
  }

  /** Bytes the current thread has allocated so far; only when {@link #hasAllocatedBytes()}. */
  long allocatedBytes() {
    return threads.getCurrentThreadAllocatedBytes();
  }

  boolean hasGcCount() {
    return collectors.length > 0;
  }

  /** Collections so far, summed over every collector; only when {@link #hasGcCount()}. */
  long gcCount() {
    long total = 0;
    for (GarbageCollectorMXBean collector : collectors) {
      total += Math.max(0, collector.getCollectionCount());
    }
    return total;
  }
}

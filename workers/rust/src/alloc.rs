//! The opt-in allocation counter behind `alloc_bytes`.
//!
//! Rust has no garbage collector (so no `gc_count`) and no built-in
//! allocation counter. A program that wants `alloc_bytes` installs
//! [`CountingAllocator`] as its global allocator; it forwards to the system
//! allocator and adds each allocation's size to one relaxed atomic counter.
//! Without it the counter stays at zero and `alloc_bytes` is omitted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes handed out by [`CountingAllocator`] since the process started.
static ALLOCATED_BYTES: AtomicU64 = AtomicU64::new(0);

/// A global allocator that counts the bytes it allocates, so that `result`
/// messages carry `alloc_bytes`. Install it in the worker program:
///
/// ```no_run
/// #[global_allocator]
/// static ALLOCATOR: versus_worker::CountingAllocator = versus_worker::CountingAllocator;
/// ```
///
/// It counts the size of every allocation and of every reallocation's new
/// block (a grown `Vec` counts its new capacity), across all threads;
/// freeing is not subtracted. The cost is one relaxed atomic add per
/// allocation, which the measured time includes.
#[derive(Debug, Clone, Copy, Default)]
pub struct CountingAllocator;

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees hold; the counter has no effect on
// the memory handed out.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded from the caller's contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded from the caller's contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded from the caller's contract.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: forwarded from the caller's contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

fn count(bytes: usize) {
    ALLOCATED_BYTES.fetch_add(bytes as u64, Ordering::Relaxed);
}

/// Bytes allocated so far, or `None` when [`CountingAllocator`] is not the
/// global allocator. A process that has reached the worker loop has always
/// allocated (the registered operations live on the heap), so a counter
/// still at zero means nothing is counting.
#[inline]
pub(crate) fn allocated_bytes() -> Option<u64> {
    match ALLOCATED_BYTES.load(Ordering::Relaxed) {
        0 => None,
        bytes => Some(bytes),
    }
}

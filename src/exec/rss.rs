//! versus's own peak resident memory, which is the floor under every child's
//! `max_rss` (see `RunRecord::rss_floor`): reading it, and lowering it again
//! after a burst of work.

use crate::base::units::Bytes;

/// The peak resident memory of this process's own memory image (VmHWM),
/// read from /proc. Unlike `getrusage`, it leaves out what the process held
/// before its own exec, which for the spawn helper is versus's whole size.
/// Costs a read of /proc per call, so only the helper uses it.
pub(super) fn own_image_peak() -> Option<Bytes> {
    image_peak("self")
}

/// The same for another process (`pid`): its peak since it started, or since
/// its peak was last reset through `/proc/<pid>/clear_refs`.
pub(crate) fn image_peak(pid: &str) -> Option<Bytes> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(Bytes(kb * 1024))
}

/// This process's own peak resident memory so far (getrusage: at least the
/// peak of its memory image, and possibly more, which only makes the floor
/// under a child's figure more cautious).
pub(super) fn own_peak() -> Bytes {
    // SAFETY: getrusage writes into the struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    Bytes(ru.ru_maxrss.max(0) as u64 * 1024)
}

/// Lowers this process's recorded peak resident memory to what it holds now
/// (Linux: `/proc/self/clear_refs`), so a burst of work such as generating a
/// payload does not raise the floor under every later run's `max_rss`.
/// Best effort: where it is not possible the floor stays higher and is still
/// recorded as such.
pub(crate) fn reset_own_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

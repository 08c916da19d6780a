//! The CPU beyond its brand string. "Intel(R) Xeon(R) Processor" names a
//! dozen generations; the family, model and stepping name one, the
//! microcode says which fixes it runs, and a handful of flags (AES-NI,
//! AVX-512, SHA extensions) decide how fast crypto, hashing and vector code
//! can run on it at all. Read from `/proc/cpuinfo` and cpufreq where the
//! kernel exposes them; parsing is separate from reading so that tests feed
//! it text.

use crate::results::CpuDetails;

/// The flags that change how fast the code suites measure can run, in the
/// order reports list them: x86 (`flags`) and Arm (`Features`) names.
pub(super) const NOTABLE_FLAGS: &[&str] = &[
    "sse4_2",
    "avx",
    "avx2",
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512_vnni",
    "aes",
    "vaes",
    "pclmulqdq",
    "vpclmulqdq",
    "sha_ni",
    "bmi2",
    "adx",
    "gfni",
    "asimd",
    "pmull",
    "sha1",
    "sha2",
    "sha3",
    "sha512",
    "sve",
    "sve2",
    "crc32",
    "atomics",
];

/// The value of `key` in a `/proc/cpuinfo` block ("key\t: value").
fn field<'t>(block: &'t str, key: &str) -> Option<&'t str> {
    block.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == key).then(|| v.trim()).filter(|v| !v.is_empty())
    })
}

/// The details in `cpuinfo` (the text of `/proc/cpuinfo`); frequencies
/// from cpufreq are the caller's (`with_frequencies`).
pub(super) fn parse(cpuinfo: &str) -> CpuDetails {
    let blocks: Vec<&str> = cpuinfo
        .split("\n\n")
        .filter(|b| field(b, "processor").is_some())
        .collect();
    let first = blocks.first().copied().unwrap_or(cpuinfo);
    let own = |key: &str| field(first, key).map(str::to_string);
    let either = |a: &str, b: &str| own(a).or_else(|| own(b));
    let all: Vec<&str> = field(first, "flags")
        .or_else(|| field(first, "Features"))
        .map(|f| f.split_whitespace().collect())
        .unwrap_or_default();
    let distinct = |keys: &[&str]| {
        let mut seen: Vec<String> = blocks
            .iter()
            .map(|b| {
                keys.iter()
                    .map(|k| field(b, k))
                    .collect::<Option<Vec<_>>>()
                    .map(|v| v.join("/"))
            })
            .collect::<Option<Vec<_>>>()?;
        seen.sort_unstable();
        seen.dedup();
        (!seen.is_empty()).then_some(seen.len())
    };
    CpuDetails {
        vendor: either("vendor_id", "CPU implementer"),
        family: either("cpu family", "CPU architecture"),
        model: either("model", "CPU part"),
        stepping: either("stepping", "CPU revision"),
        microcode: own("microcode"),
        cache: own("cache size"),
        flags: NOTABLE_FLAGS
            .iter()
            .filter(|f| all.contains(f))
            .map(|f| f.to_string())
            .collect(),
        flag_count: all.len(),
        virtual_machine: all.contains(&"hypervisor"),
        logical_cpus: blocks.len(),
        physical_cores: distinct(&["physical id", "core id"]),
        sockets: distinct(&["physical id"]),
        frequency_mhz: own("cpu MHz").and_then(|m| m.parse().ok()),
        max_frequency_mhz: None,
    }
}

/// cpufreq's figures (kHz, as the files hold them) where it has them.
pub(super) fn with_frequencies(mut d: CpuDetails, current_khz: Option<&str>, max_khz: Option<&str>) -> CpuDetails {
    let mhz = |t: Option<&str>| t.and_then(|t| t.trim().parse::<f64>().ok()).map(|khz| khz / 1000.0);
    d.frequency_mhz = mhz(current_khz).or(d.frequency_mhz);
    d.max_frequency_mhz = mhz(max_khz);
    d
}

/// This machine's CPU details.
pub(super) fn read() -> Option<CpuDetails> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let freq = |f: &str| std::fs::read_to_string(format!("/sys/devices/system/cpu/cpu0/cpufreq/{f}")).ok();
    Some(with_frequencies(
        parse(&text),
        freq("scaling_cur_freq").as_deref(),
        freq("cpuinfo_max_freq").as_deref(),
    ))
}

/// "AuthenticAMD family 26 model 2 stepping 1, microcode 0x1000065".
pub(crate) fn identity(d: &CpuDetails) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(v) = &d.vendor {
        parts.push(v.clone());
    }
    for (name, value) in [("family", &d.family), ("model", &d.model), ("stepping", &d.stepping)] {
        if let Some(v) = value {
            parts.push(format!("{name} {v}"));
        }
    }
    let mut out = parts.join(" ");
    if let Some(m) = &d.microcode {
        out.push_str(&format!(", microcode {m}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_VCPUS: &str = "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 106\nmodel name\t: Intel(R) Xeon(R) Processor\nstepping\t: 6\nmicrocode\t: 0xffffffff\ncpu MHz\t\t: 2800.000\ncache size\t: 55296 KB\nphysical id\t: 0\ncore id\t\t: 0\nflags\t\t: fpu sse4_2 aes avx avx2 avx512f sha_ni hypervisor\n\nprocessor\t: 1\nvendor_id\t: GenuineIntel\nphysical id\t: 0\ncore id\t\t: 1\nflags\t\t: fpu sse4_2 aes avx avx2 avx512f sha_ni hypervisor\n\n";

    #[test]
    fn an_x86_block_gives_its_identity_flags_and_topology() {
        let d = parse(TWO_VCPUS);
        assert_eq!(
            identity(&d),
            "GenuineIntel family 6 model 106 stepping 6, microcode 0xffffffff"
        );
        assert_eq!(d.flags, ["sse4_2", "avx", "avx2", "avx512f", "aes", "sha_ni"]);
        assert_eq!((d.flag_count, d.virtual_machine), (8, true));
        assert_eq!((d.logical_cpus, d.physical_cores, d.sockets), (2, Some(2), Some(1)));
        assert_eq!(d.frequency_mhz, Some(2800.0));
        let d = with_frequencies(d, Some("3400000\n"), Some("3900000"));
        assert_eq!((d.frequency_mhz, d.max_frequency_mhz), (Some(3400.0), Some(3900.0)));
    }

    #[test]
    fn an_arm_block_reads_its_own_names() {
        let arm = "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd aes pmull sha1 sha2 crc32 atomics\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\n";
        let d = parse(arm);
        assert_eq!(identity(&d), "0x41 family 8 model 0xd0c stepping 1");
        assert_eq!(d.flags, ["aes", "asimd", "pmull", "sha1", "sha2", "crc32", "atomics"]);
        assert_eq!((d.logical_cpus, d.physical_cores), (1, None));
        assert!(!d.virtual_machine);
        assert_eq!(parse(""), CpuDetails::default());
    }
}

//! The record of the run in words: which code ran (the commits of versus
//! and of the suite), on what CPU beyond its brand string, under what load
//! (sampled through the run, and other processes' share of the CPU), and
//! which of the suite's implementations ran — the title says so when
//! `--only` ran a few. Every report prints these; formatting only.

use crate::results::Results;
use crate::results::RunLoad;

/// Implementations with cells, in report order.
pub(crate) fn ran(results: &Results) -> Vec<String> {
    results.implementations_that_ran()
}

/// The suite's implementations that did not run (`--only`), in suite order:
/// from the suite's own list, or in older files the environment's.
pub(crate) fn not_run(results: &Results) -> Vec<String> {
    let ran = ran(results);
    let ran: std::collections::HashSet<&String> = ran.iter().collect();
    let listed: Vec<String> = if results.suite.implementations.is_empty() {
        results.environment.implementations.keys().cloned().collect()
    } else {
        results.suite.implementations.clone()
    };
    listed.into_iter().filter(|n| !ran.contains(n)).collect()
}

/// The report's title: the suite's name, and which implementations ran
/// when not all did: "… — 3 of 9 implementations: a, b and c".
pub(crate) fn title(results: &Results) -> String {
    let name = &results.suite.name;
    let missing = not_run(results);
    if missing.is_empty() {
        return name.clone();
    }
    let ran = ran(results);
    format!(
        "{name} — {} of {} implementations: {}",
        ran.len(),
        ran.len() + missing.len(),
        crate::base::text::and_list(&ran)
    )
}

/// "min 0.52, median 1.10, max 2.34 over 120 readings (every 2 s)".
pub(crate) fn load_text(l: &RunLoad) -> String {
    match (l.load_min, l.load_median, l.load_max) {
        (Some(lo), Some(mid), Some(hi)) => format!(
            "min {lo:.2}, median {mid:.2}, max {hi:.2} over {} readings (every {} s)",
            l.samples, l.every_s
        ),
        _ => "not readable".into(),
    }
}

/// "12% of the machine (0.24 of 2 CPUs); versus and its children 85%; steal 0%".
pub(crate) fn share_text(l: &RunLoad) -> Option<String> {
    let others = l.others_share?;
    let mut out = format!("{:.0}% of the machine's CPU time", others * 100.0);
    if let Some(cpus) = l.others_cpus() {
        out.push_str(&format!(" ({cpus:.2} of {} CPUs)", l.cpus.unwrap_or(0)));
    }
    if let Some(own) = l.own_share {
        out.push_str(&format!("; versus and its children {:.0}%", own * 100.0));
    }
    if let Some(steal) = l.steal_share.filter(|s| *s > 0.0) {
        out.push_str(&format!("; stolen by the hypervisor {:.0}%", steal * 100.0));
    }
    if l.contended() {
        out.push_str(" (see the warnings)");
    }
    Some(out)
}

/// "2 physical cores, 1 socket, 2 logical CPUs; 2596 MHz (max 3700 MHz)".
fn topology_text(d: &crate::results::CpuDetails) -> String {
    let mut parts = Vec::new();
    if let Some(c) = d.physical_cores {
        parts.push(format!("{c} physical cores"));
    }
    if let Some(s) = d.sockets {
        parts.push(format!("{s} socket{}", if s == 1 { "" } else { "s" }));
    }
    parts.push(format!("{} logical CPUs", d.logical_cpus));
    let mut out = parts.join(", ");
    if let Some(f) = d.frequency_mhz {
        out.push_str(&format!("; {f:.0} MHz"));
        if let Some(m) = d.max_frequency_mhz {
            out.push_str(&format!(" (max {m:.0} MHz)"));
        }
    }
    if d.virtual_machine {
        out.push_str("; a virtual machine (hypervisor flag)");
    }
    out
}

/// The record's rows for the environment table, after the machine's own.
pub(crate) fn rows(results: &Results) -> Vec<(&'static str, String)> {
    let e = &results.environment;
    let mut out = vec![(
        "versus commit",
        e.versus_commit
            .as_ref()
            .map_or("unknown (not built from a git checkout)".into(), |g| g.describe()),
    )];
    if results.suite.file.is_some() {
        out.push((
            "Suite commit",
            results.suite.git.as_ref().map_or(
                "unknown (not in a git repository, or recorded before versus asked)".into(),
                |g| g.describe(),
            ),
        ));
    }
    if let Some(d) = &e.cpu {
        out.push(("CPU identity", crate::environment::cpu_identity(d)));
        out.push(("CPU topology", topology_text(d)));
        let cache = d.cache.as_ref().map_or(String::new(), |c| format!("; cache {c}"));
        out.push((
            "CPU flags",
            format!("{} (of {} listed){cache}", d.flags.join(" "), d.flag_count),
        ));
    }
    match &e.load {
        Some(l) => {
            out.push(("Load average during the run", load_text(l)));
            if let Some(s) = share_text(l) {
                out.push(("Other processes' CPU", s));
            }
        }
        None => out.push(("Load average during the run", "not recorded".into())),
    }
    out
}

/// The record in a few lines for the terminal's end-of-run text.
pub(crate) fn terminal_lines(results: &Results) -> Vec<String> {
    let e = &results.environment;
    let commit = |g: &Option<crate::results::GitState>| {
        g.as_ref()
            .map_or("commit not recorded".into(), |g| format!("commit {}", g.describe()))
    };
    let mut line = format!("versus {} ({})", e.versus_version, commit(&e.versus_commit));
    if results.suite.file.is_some() {
        line.push_str(&format!("; suite at {}", commit(&results.suite.git)));
    }
    let mut out = vec![line];
    let identity = e
        .cpu
        .as_ref()
        .map(crate::environment::cpu_identity)
        .filter(|i| !i.is_empty());
    out.push(match identity {
        Some(i) => format!("{} × {} ({i})", e.cores, e.cpu_model),
        None => format!("{} × {}", e.cores, e.cpu_model),
    });
    if let Some(l) = &e.load {
        let mut text = format!("load {}", load_text(l));
        if let Some(s) = share_text(l) {
            text.push_str(&format!("; others took {s}"));
        }
        out.push(text);
    }
    let missing = not_run(results);
    if !missing.is_empty() {
        out.push(format!("not run: {}", crate::base::text::and_list(&missing)));
    }
    out
}

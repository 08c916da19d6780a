//! The committed seed reports read as their readers would: each hand-made
//! original's headline question in hand, the answer's figures must be in
//! the first 40 lines of the report (committed, and as this versus renders
//! it). Each expected figure is read from the report's own results.json —
//! the judge's ratio of that comparison, as the document gives it — never
//! typed here. The report's main body (before its appendix, the author's
//! notes aside) stays within three times the original's words, and the
//! largest terminal report within 300 lines at 100 columns.

use std::fs;
use std::path::{Path, PathBuf};

use versus::report::formats::{markdown, terminal};
use versus::results::{self, Results};

/// What the first screen holds: the measure of "answers first".
const FIRST_SCREEN: usize = 40;

/// One question: these implementations against `against` for `operation` where the parameters are `at`.
struct Question {
    report: &'static str,
    operation: &'static str,
    at: &'static [(&'static str, &'static str)],
    implementations: &'static [&'static str],
    against: &'static str,
}

/// The originals' headline questions (the seeds in ../shared/seeds), and two of our own.
const QUESTIONS: &[Question] = &[
    // How much slower are Java and TypeScript than Go at 100 MiB encrypt?
    Question {
        report: "opentdf",
        operation: "encrypt",
        at: &[("size", "100MiB")],
        implementations: &["java-sdk-jdk17", "java-sdk-jdk25", "ts-sdk"],
        against: "go-sdk",
    },
    // rage against age at 100 MB decrypt, both armourings.
    Question {
        report: "age",
        operation: "decrypt",
        at: &[("size", "100MB"), ("armor", "false")],
        implementations: &["rage"],
        against: "age",
    },
    Question {
        report: "age",
        operation: "decrypt",
        at: &[("size", "100MB"), ("armor", "true")],
        implementations: &["rage"],
        against: "age",
    },
    // Bouncy Castle against SunJCE on JDK 17 at 10 MB (decrypting a file).
    Question {
        report: "aes-gcm-java-file",
        operation: "decrypt-file",
        at: &[("size", "10MB"), ("jdk", "17")],
        implementations: &["sun", "bc"],
        against: "bc170",
    },
    // TypeScript against Rust on what the original timed: the raw parse, the
    // raw process and the cold start, at its largest message count.
    Question {
        report: "acp-codec",
        operation: "parse",
        at: &[("messages", "10000")],
        implementations: &["node"],
        against: "rust",
    },
    Question {
        report: "acp-codec",
        operation: "process_raw",
        at: &[("messages", "10000")],
        implementations: &["node"],
        against: "rust",
    },
    Question {
        report: "acp-codec",
        operation: "cold_start",
        at: &[("messages", "10000")],
        implementations: &["node"],
        against: "rust",
    },
    // Our own: each language's SHA-256 against the fastest at the largest
    // payload, and rage's key unwrap against age's for each kind of key.
    Question {
        report: "sha256",
        operation: "sha256",
        at: &[("size", "100MB")],
        implementations: &["python", "node", "go", "java-jdk17", "java-jdk25"],
        against: "rust",
    },
    Question {
        report: "age-keys",
        operation: "unwrap",
        at: &[("kind", "scrypt")],
        implementations: &["rust", "js"],
        against: "go",
    },
];

/// bip32's question, the WASM builds against utxo-lib, asks it of every operation.
const BIP32_OPERATIONS: &[&str] = &[
    "from_xprv",
    "from_xpub",
    "from_seed",
    "derive_path_xprv",
    "derive_path_xpub",
    "neutered",
    "derive0",
    "vectors",
];

/// The originals' words (`wc -w` of each seed report).
const ORIGINAL_WORDS: &[(&str, usize)] = &[
    ("opentdf", 1_162),
    ("age", 781),
    ("aes-gcm-java-file", 1_226),
    ("acp-codec", 1_363),
    ("bip32", 791),
];

fn results_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results")
}

/// The report's results, analysed as this versus analyses them.
fn document(report: &str) -> Results {
    let mut r = results::read(&results_dir().join(report).join("results.json")).unwrap();
    versus::analysis::reanalyze(&mut r);
    r
}

fn notes(report: &str) -> Option<String> {
    fs::read_to_string(results_dir().join(format!("{report}.notes.md"))).ok()
}

/// The ways a report may print the figure that answers `implementation`
/// against `against` in a group: the judge's ratio as a factor slower or
/// faster, or the ratio itself where there is no verdict or it is "the same".
fn figure(r: &Results, operation: &str, at: &[(&str, &str)], implementation: &str, against: &str) -> Vec<String> {
    let c = r
        .comparisons
        .iter()
        .find(|c| {
            c.operation == operation
                && c.implementation == implementation
                && c.baseline == against
                && at
                    .iter()
                    .all(|(k, v)| c.params.get(*k).is_some_and(|p| p.to_string() == *v))
        })
        .unwrap_or_else(|| panic!("no comparison of {implementation} against {against} in {operation} {at:?}"));
    let (ratio, inverse) = (
        versus::base::units::three_digits(c.ratio),
        versus::base::units::three_digits(1.0 / c.ratio),
    );
    let factor = if c.ratio >= 1.0 { &ratio } else { &inverse };
    vec![
        format!("{implementation} {factor}x"),
        format!("{implementation} unknown ({ratio}x"),
        format!("{implementation} the same ({ratio}x"),
    ]
}

fn first_screen(text: &str) -> String {
    text.lines().take(FIRST_SCREEN).collect::<Vec<_>>().join("\n")
}

/// A question as (report, operation, parameter values, implementations, reference).
type Asked = (
    &'static str,
    &'static str,
    Vec<(&'static str, &'static str)>,
    Vec<&'static str>,
    &'static str,
);

/// Each question against the committed report and against the report as rendered now.
#[test]
fn each_question_is_answered_on_the_first_screen() {
    let mut asked: Vec<Asked> = QUESTIONS
        .iter()
        .map(|q| {
            (
                q.report,
                q.operation,
                q.at.to_vec(),
                q.implementations.to_vec(),
                q.against,
            )
        })
        .collect();
    for op in BIP32_OPERATIONS {
        asked.push((
            "bip32",
            op,
            vec![],
            vec!["rust-wasm-o3", "rust-wasm-oz", "rust-bindgen"],
            "utxolib",
        ));
    }
    for (report, operation, at, implementations, against) in asked {
        let r = document(report);
        let rendered = markdown::render_with_charts(&r, &[], notes(report).as_deref());
        let committed = fs::read_to_string(results_dir().join(format!("{report}.md"))).unwrap();
        for imp in implementations {
            let want = figure(&r, operation, &at, imp, against);
            for (which, text) in [("rendered", &rendered), ("committed", &committed)] {
                let screen = first_screen(text);
                assert!(
                    want.iter().any(|w| screen.contains(w)),
                    "{report} ({which}): none of {want:?} ({operation} {at:?}) is in the first {FIRST_SCREEN} lines:\n{screen}"
                );
            }
        }
    }
}

/// Words before the appendix, the author's notes left out.
fn main_body_words(markdown: &str) -> usize {
    let main = markdown.split("\n## Appendix\n").next().unwrap_or("");
    let mut words = 0;
    let mut in_notes = false;
    for line in main.lines() {
        if line.starts_with("## ") {
            in_notes = line == "## Notes";
        }
        if !in_notes {
            words += line.split_whitespace().count();
        }
    }
    words
}

#[test]
fn the_main_body_stays_within_three_times_the_original() {
    for (report, original) in ORIGINAL_WORDS {
        let r = document(report);
        let text = markdown::render_with_charts(&r, &[], notes(report).as_deref());
        let words = main_body_words(&text);
        assert!(
            words <= 3 * original,
            "{report}: {words} words before the appendix, over 3 × {original}"
        );
        assert!(text.contains("\n## Appendix\n"), "{report}: no appendix");
    }
}

#[test]
fn the_largest_terminal_report_fits_300_lines() {
    for (report, _) in ORIGINAL_WORDS {
        let r = document(report);
        let text = terminal::summary_with(&r, false, terminal::Layout::plain(100));
        let lines = text.lines().count();
        assert!(lines <= 300, "{report}: {lines} lines at 100 columns");
    }
}

/// The headline versus picks stays bounded, whatever the suite's size: it
/// fits the first screen of the nine-implementation opentdf suite.
#[test]
fn the_picked_headline_is_bounded() {
    for (report, _) in ORIGINAL_WORDS {
        let r = document(report);
        assert!(!r.headline.is_empty(), "{report}: no headline");
        assert!(r.headline.len() <= versus::analysis::DERIVED, "{report}");
    }
    let r = document("opentdf");
    let text = markdown::render_with_charts(&r, &[], None);
    let screen = first_screen(&text);
    assert!(screen.contains("## Headline"));
    // The first compact table starts on the first screen too.
    assert!(screen.contains("| size | go-sdk |"), "{screen}");
}

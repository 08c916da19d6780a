//! Property tests of versus's readers of untrusted input, run in CI (the
//! coverage-guided fuzzers behind `bench/fuzz.sh` go further, for longer):
//! whatever the input, an error or a value, never a panic.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::Value;
use versus::report::formats::{html, markdown, terminal};

fn fixture(name: &str) -> Value {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/results")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every number in a JSON document, as JSON pointers.
fn number_pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Number(_) => out.push(at),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| number_pointers(x, format!("{at}/{i}"), out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| number_pointers(x, format!("{at}/{k}"), out)),
        _ => {}
    }
}

/// What `report` and `diff` do with a results document the reader accepted.
fn use_results(text: &str) {
    let Ok(mut r) = versus::results::from_text(text) else {
        return;
    };
    html::render(&r, None).unwrap();
    let _ = markdown::render(&r);
    let _ = terminal::summary(&r);
    versus::analysis::analyze(&mut r, &[]);
    let d = versus::history::runs::diff(&r, &r, versus::base::metric::Metric::Wall, &Default::default());
    let _ = versus::history::runs::table(&d, 0.01);
}

fn extreme_number() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(-1.0),
        Just(f64::MIN_POSITIVE),
        Just(5e-324),
        Just(1e300),
        Just(f64::MAX),
        any::<f64>().prop_filter("JSON has no NaN or infinity", |x| x.is_finite()),
    ]
}

proptest! {
    // A fixed seed: the same cases every run, so the test cannot pass or fail by chance.
    #![proptest_config(ProptestConfig {
        cases: 64,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x7e57_5eed),
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_number_changed_in_a_results_file_is_an_error_or_a_report(pick in any::<prop::sample::Index>(), value in extreme_number()) {
        let mut doc = fixture("sha256.json");
        let mut pointers = Vec::new();
        number_pointers(&doc, String::new(), &mut pointers);
        let p = pick.get(&pointers);
        *doc.pointer_mut(p).unwrap() = serde_json::json!(value);
        use_results(&doc.to_string());
    }

    #[test]
    fn any_text_is_a_suite_or_an_error(text in "\\PC{0,400}") {
        let _ = versus::suite::parse(Path::new("p.toml"), &text);
    }

    #[test]
    fn a_valid_suite_with_one_line_replaced_is_a_suite_or_an_error(line in 0usize..40, text in "[a-z_.=\\[\\]\"{} 0-9]{0,40}") {
        let base = include_str!("../examples/quickstart.toml");
        let mut lines: Vec<&str> = base.lines().collect();
        let i = line % lines.len();
        lines[i] = &text;
        let _ = versus::suite::parse(Path::new("p.toml"), &lines.join("\n"));
    }

    #[test]
    fn any_line_from_a_worker_is_a_message_or_an_error(line in "\\PC{0,300}") {
        let _ = versus::worker::Message::decode(&line);
    }

    #[test]
    fn any_size_text_is_a_size_or_an_error(text in "[0-9.]{0,30}[ kKmMgGiIbB]{0,4}") {
        let _ = versus::base::units::parse_size(&text);
    }
}

//! Each parser on a small file its real tool wrote (tests/fixtures/formats,
//! made by scripts/ci/formats.sh's tools on this machine), and bad input:
//! a clear message naming the place, never a panic.

use std::fs;
use std::path::{Path, PathBuf};

use super::*;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/formats")
        .join(name)
}

fn read_fixture(name: &str) -> Imported {
    read(&Source {
        path: fixture(name),
        label: None,
    })
    .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn samples(b: &Bench) -> &Samples {
    match &b.figures {
        Figures::Samples(s) => s,
        Figures::Summary(_) => panic!("{} holds a summary", b.operation),
    }
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn go_bench_lines_are_samples_of_n_calls() {
    let f = read_fixture("go-bench.txt");
    assert_eq!(f.harness, Harness::GoBench);
    assert_eq!(f.cpu_model.as_deref(), Some("AMD EPYC"));
    let ops: Vec<(&str, &Vec<(String, String)>)> =
        f.benches.iter().map(|b| (b.operation.as_str(), &b.params)).collect();
    assert_eq!(ops.len(), 3);
    assert_eq!(ops[0], ("Sha256", &pairs(&[("size", "64")])));
    assert_eq!(ops[2].0, "Concat");
    let first = &f.benches[0];
    // -count 3: three lines; 524.8 ns/op over 20000 calls.
    assert_eq!(samples(first).wall_ns.iter().collect::<Vec<_>>()[0], 10_496_000);
    assert_eq!(samples(first).iterations, [20000, 20000, 20000]);
    assert_eq!(first.payload_bytes, Some(64));
    // Concat: 15 B/op.
    assert_eq!(samples(&f.benches[2]).alloc_bytes[0], 15 * 20000);
}

#[test]
fn pyperf_values_are_samples_of_its_loops() {
    let f = read_fixture("pyperf.json");
    assert_eq!(f.benches.len(), 1);
    let b = &f.benches[0];
    assert_eq!(b.operation, "timeit");
    let s = samples(b);
    // 10 runs of 2 values each; the calibration run's warm-ups are left out.
    assert_eq!(s.len(), 20);
    assert!(s.iterations.iter().all(|n| *n == 65536));
    let per_call = s.per_call_ns()[0];
    assert!((per_call - 2_912.446_716_310_524).abs() < 0.01, "{per_call}");
}

#[test]
fn pytest_benchmark_rounds_are_samples() {
    let f = read_fixture("pytest-benchmark.json");
    let b = &f.benches[0];
    assert_eq!(
        (b.operation.as_str(), &b.params),
        ("test_sha256", &pairs(&[("size", "64")]))
    );
    assert_eq!(samples(b).len(), 5);
    assert_eq!(f.benches[2].operation, "test_concat");
    assert!(samples(&f.benches[2]).iterations.iter().all(|n| *n == 100));
}

#[test]
fn pytest_benchmark_without_data_gives_its_summary() {
    let text = std::fs::read_to_string(fixture("pytest-benchmark.json")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    for b in doc["benchmarks"].as_array_mut().unwrap() {
        b["stats"].as_object_mut().unwrap().remove("data");
    }
    let f = pytest_benchmark::parse(&doc.to_string()).unwrap();
    let Figures::Summary(s) = &f.benches[0].figures else {
        panic!("samples")
    };
    assert_eq!(s.n, 5);
    assert!((s.median_ns - doc["benchmarks"][0]["stats"]["median"].as_f64().unwrap() * 1e9).abs() < 1e-6);
}

#[test]
fn google_benchmark_repetitions_are_samples_and_aggregates_left_out() {
    let f = read_fixture("google-benchmark.json");
    let names: Vec<(&str, &Vec<(String, String)>)> =
        f.benches.iter().map(|b| (b.operation.as_str(), &b.params)).collect();
    assert_eq!(names.len(), 3);
    assert_eq!(names[0], ("BM_Sum", &pairs(&[("arg", "64")])));
    assert_eq!(names[2].0, "BM_Concat");
    assert_eq!(samples(&f.benches[0]).len(), 3);
    assert_eq!(samples(&f.benches[0]).iterations[0], 937_569);
}

#[test]
fn jmh_iterations_are_samples_at_the_score() {
    let f = read_fixture("jmh.json");
    assert_eq!(f.benches.len(), 2);
    let b = &f.benches[0];
    assert_eq!(
        (b.operation.as_str(), &b.params),
        ("HashBench.sha256", &pairs(&[("size", "64")]))
    );
    let per_call = samples(b).per_call_ns();
    assert_eq!(per_call.len(), 3);
    // The score, to a part in a million.
    assert!((per_call[0] / 15_070.703_786_440_3 - 1.0).abs() < 1e-6, "{per_call:?}");
}

#[test]
fn criterion_folder_gives_groups_functions_and_values() {
    let f = read_fixture("criterion");
    let mut found: Vec<String> = f
        .benches
        .iter()
        .map(|b| format!("{} {:?} {:?} {:?}", b.operation, b.variant, b.params, b.payload_bytes))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            r#"concat None [] None"#,
            r#"sum Some("fold") [("arg", "1024")] Some(4096)"#,
            r#"sum Some("fold") [("arg", "64")] Some(256)"#,
            r#"sum Some("iter") [("arg", "1024")] Some(4096)"#,
            r#"sum Some("iter") [("arg", "64")] Some(256)"#,
        ]
    );
    assert!(f.benches.iter().all(|b| samples(b).len() == 10));
}

#[test]
fn hyperfine_commands_are_variants_across_parameter_values() {
    let f = read_fixture("hyperfine-1.20.json");
    let v: Vec<(&str, &Vec<(String, String)>)> = f
        .benches
        .iter()
        .map(|b| (b.variant.as_deref().unwrap(), &b.params))
        .collect();
    assert_eq!(v[0], ("sleep {t}", &pairs(&[("t", "0.01")])));
    assert_eq!(v[1], ("sleep 0.015", &pairs(&[("t", "0.01")])));
    assert_eq!(v[2], ("sleep {t}", &pairs(&[("t", "0.02")])));
    let s = samples(&f.benches[0]);
    assert_eq!(s.wall_ns.iter().collect::<Vec<_>>()[0], 22_449_371);
    assert_eq!(s.max_rss_bytes.len(), 3);
}

#[test]
fn bad_input_names_the_place() {
    let go = "BenchmarkX-2  100  12 ns/op\nBenchmarkY-2  ten  12 ns/op\n";
    let bad = go_bench::parse(go).unwrap_err();
    assert_eq!(bad.place.as_deref(), Some("line 2"));
    assert!(go_bench::parse("BenchmarkX  100  12\n").is_err());
    let hf = r#"{"results": [{"command": "a", "mean": 1, "min": 1, "max": 1, "times": [-1]}]}"#;
    assert_eq!(hyperfine::parse(hf).unwrap_err().place.as_deref(), Some("results[0]"));
    assert!(detect::harness("{\"results\": [").unwrap_err().place.is_some());
    assert!(detect::harness("hello\n").is_err());
    assert!(detect::harness("{\"x\": 1}").is_err());
    let jmh = r#"[{"benchmark": "a.B.c", "mode": "avgt", "primaryMetric": {"score": 1, "scoreUnit": "furlongs", "rawData": [[1]]}}]"#;
    assert!(jmh::parse(jmh).unwrap_err().message.contains("furlongs"));
    let empty = tempfile::tempdir().unwrap();
    let e = read(&Source {
        path: empty.path().to_path_buf(),
        label: None,
    })
    .unwrap_err();
    assert!(e.to_string().contains("target/criterion"), "{e}");
}

#[test]
fn sources_take_a_name_after_the_last_equals_sign() {
    assert_eq!(
        Source::parse("no-such.txt=go").unwrap(),
        Source {
            path: "no-such.txt".into(),
            label: Some("go".into())
        }
    );
    assert!(Source::parse("x.txt=").is_err());
    assert_eq!(Source::parse("dir/go.bench.txt").unwrap().stem(), "go");
}

#[test]
fn files_become_one_comparison() {
    let go = (
        Source::parse(&format!("{}=go", fixture("go-bench.txt").display())).unwrap(),
        read_fixture("go-bench.txt"),
    );
    let crit = (
        Source::parse(&format!("{}=rust", fixture("criterion").display())).unwrap(),
        read_fixture("criterion"),
    );
    let options = Options {
        renames: vec![("sum".into(), "Sha256".into())],
        ..Default::default()
    };
    let r = build(&[go, crit], &options).unwrap();
    let imps: Vec<&String> = r.environment.implementations.keys().collect();
    // criterion's functions under the file's name; its `concat` has no function.
    assert_eq!(imps, ["go", "rust", "rust/fold", "rust/iter"]);
    assert_eq!(r.suite.name, "import: go vs rust vs rust/fold vs rust/iter");
    assert!(r.cells.iter().all(|c| c.stats.is_some()));
    // Cells of separate files are compared unpaired.
    let others = r.comparisons.iter().filter(|c| c.implementation != c.baseline);
    assert!(others.clone().count() > 0 && others.into_iter().all(|c| !c.paired));
    // The same file twice under one name is refused, naming both.
    let twice = [
        (Source::parse("a.txt=go").unwrap(), read_fixture("go-bench.txt")),
        (Source::parse("b.txt=go").unwrap(), read_fixture("go-bench.txt")),
    ];
    let e = build(&twice, &Options::default()).unwrap_err().to_string();
    assert!(e.contains("b.txt") && e.contains("a.txt"), "{e}");
}

#[test]
fn summary_cells_keep_the_harness_figures_through_analysis() {
    let text = std::fs::read_to_string(fixture("pytest-benchmark.json")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["benchmarks"][0]["stats"].as_object_mut().unwrap().remove("data");
    let f = pytest_benchmark::parse(&doc.to_string()).unwrap();
    let mut r = build(&[(Source::parse("p.json=py").unwrap(), f)], &Options::default()).unwrap();
    assert!(
        r.warnings.iter().any(|w| w.kind == "imported_summary"),
        "{:?}",
        r.warnings
    );
    let median = doc["benchmarks"][0]["stats"]["median"].as_f64().unwrap() * 1e9;
    // `versus diff` analyses again: the summary stays.
    crate::analysis::analyze(&mut r, &[]);
    let s = r.cells[0].stats.as_ref().unwrap();
    assert!((s.median_ns - median).abs() < 1e-6);
}

/// A criterion folder with symbolic links back to itself and to its
/// parent (the hostile case made `versus import` walk the loop along every
/// branch): each benchmark found once, as without the links.
#[test]
fn criterion_folder_with_symlink_loops_finds_each_benchmark_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("criterion");
    let copy = |from: &Path, to: &Path| {
        fs::create_dir_all(to).unwrap();
        for f in ["benchmark.json", "sample.json"] {
            fs::copy(from.join(f), to.join(f)).unwrap();
        }
    };
    copy(&fixture("criterion/concat/new"), &root.join("concat/new"));
    copy(&fixture("criterion/sum/fold/64/new"), &root.join("sum/fold/64/new"));
    std::os::unix::fs::symlink(&root, root.join("again")).unwrap();
    std::os::unix::fs::symlink(&root, root.join("sum/fold/up")).unwrap();
    std::os::unix::fs::symlink("..", root.join("sum/parent")).unwrap();
    let f = read(&Source {
        path: root,
        label: None,
    })
    .unwrap();
    assert_eq!(
        f.benches.len(),
        2,
        "{:?}",
        f.benches.iter().map(|b| &b.operation).collect::<Vec<_>>()
    );
}

/// Figures no benchmark can have (a negative byte count, an infinite or
/// absurd rate) are refused with the line, not imported as a payload of
/// 1e300 bytes or an allocation of -5 bytes.
#[test]
fn go_figures_no_benchmark_can_have_are_refused() {
    let negative = go_bench::parse("BenchmarkX-8  100  12.0 ns/op  -5 B/op\n").unwrap_err();
    assert!(negative.message.contains("'-5 B/op' is not a figure"), "{negative:?}");
    let huge = go_bench::parse("BenchmarkX-8  100  12.0 ns/op  1e300 MB/s\n").unwrap_err();
    assert!(huge.message.contains("no payload is that large"), "{huge:?}");
    assert!(go_bench::parse("BenchmarkX-8  100  inf ns/op\n").is_err());
    assert!(go_bench::parse("BenchmarkX-8  100  12.0 ns/op  80.5 MB/s  16 B/op\n").is_ok());
}

/// The folder of versus's own files ignores itself in git: a store or an
/// unrecorded run made inside a repository is never offered for a commit.
#[test]
fn versus_own_folder_ignores_itself() {
    let dir = tempfile::tempdir().unwrap();
    let unrecorded = dir.path().join("proj/.versus/unrecorded");
    crate::history::create_folder(&unrecorded).unwrap();
    assert!(unrecorded.is_dir());
    let ignore = fs::read_to_string(dir.path().join("proj/.versus/.gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "*"), "{ignore}");
    let elsewhere = dir.path().join("data/versus");
    crate::history::create_folder(&elsewhere).unwrap();
    assert!(!elsewhere.join(".gitignore").exists());
}

//! What a new user trips on, each on the real binary in a temporary
//! folder: output checks that blame the right implementation, tables at the
//! terminal's width (in a pseudo-terminal), CPU time and range in every
//! report, shell syntax and missing programs caught before anything runs,
//! `versus report` in the terminal, `--only` without the baseline, labelled
//! matrix values, ratios beside medians of other runs, cached payload
//! commands, and colour. Assertions are on outcomes, layout and text, never
//! on timings.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn versus() -> Command {
    let mut c = Command::cargo_bin("versus").unwrap();
    c.env("VERSUS_CACHE_DIR", std::env::temp_dir().join("versus-test-cache"));
    c.env_remove("NO_COLOR");
    c.env_remove("COLUMNS");
    c
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p
}

fn results(dir: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(dir.join("results.json")).unwrap()).unwrap()
}

fn cell<'r>(r: &'r Value, imp: &str) -> &'r Value {
    r["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["implementation"] == imp)
        .unwrap_or_else(|| panic!("no cell of {imp}"))
}

fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stdout).into_owned()
}

fn stderr(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stderr).into_owned()
}

/// A suite of `printf` implementations whose outputs are given.
fn same_output_suite(outputs: &[(&str, &str)], extra: &str) -> String {
    let mut s = format!(
        "name = \"agree\"\n[settings]\nruns = 2\nwarmup = 0\n[operations.print]\nsame_output = true\n{extra}\n"
    );
    for (name, text) in outputs {
        s.push_str(&format!("[implementations.{name}]\nrun.print = \"printf '{text}'\"\n"));
    }
    s
}

#[test]
fn same_output_blames_the_odd_one_out_says_how_and_keeps_the_outputs() {
    let dir = tempfile::tempdir().unwrap();
    // The first listed prints differently; the two that agree are right.
    let suite = write(
        dir.path(),
        "three.toml",
        &same_output_suite(
            &[("pretty", "[\\\\n  1\\\\n]"), ("compact", "[1]"), ("python", "[1]")],
            "",
        ),
    );
    let out = dir.path().join("three");
    let a = versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(3);
    let r = results(&out);
    assert_eq!(cell(&r, "compact")["outcome"], "ok", "{}", stdout(&a));
    assert_eq!(cell(&r, "python")["outcome"], "ok");
    assert_eq!(cell(&r, "pretty")["outcome"], "wrong_output");
    let why = cell(&r, "pretty")["message"].as_str().unwrap();
    assert!(why.contains("compact and python agree on (2 of 3)"), "{why}");
    assert!(why.contains("7 bytes against 3; from byte 1 on:"), "{why}");
    assert!(why.contains(r#""\n  1\n]" against "1]""#), "{why}");
    let kept = out.join("differing-outputs/print");
    assert_eq!(fs::read_to_string(kept.join("pretty.out")).unwrap(), "[\n  1\n]");
    assert_eq!(fs::read_to_string(kept.join("compact.out")).unwrap(), "[1]");

    // Two that differ: versus cannot tell which is right, and says so of both.
    let suite = write(
        dir.path(),
        "two.toml",
        &same_output_suite(&[("a", "one"), ("b", "two")], ""),
    );
    let out = dir.path().join("two");
    versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(3);
    let r = results(&out);
    for imp in ["a", "b"] {
        assert_eq!(cell(&r, imp)["outcome"], "wrong_output");
        let why = cell(&r, imp)["message"].as_str().unwrap();
        assert!(why.contains("versus cannot tell which is right"), "{why}");
        // Each says how it differs from the other, though the first to fail lost its file.
        assert!(why.contains("both 3 bytes; from byte 0 on"), "{why}");
        assert!(why.contains("reference = "), "{why}");
    }

    // A named reference decides, even against a majority.
    let suite = write(
        dir.path(),
        "named.toml",
        &same_output_suite(&[("a", "one"), ("b", "two"), ("c", "two")], "reference = \"a\""),
    );
    let out = dir.path().join("named");
    versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(3);
    let r = results(&out);
    assert_eq!(cell(&r, "a")["outcome"], "ok");
    assert_eq!(cell(&r, "b")["outcome"], "wrong_output");
    assert!(
        cell(&r, "c")["message"]
            .as_str()
            .unwrap()
            .contains("a's, the suite's reference")
    );
    // A reference naming nobody, or without same_output, is an error in the suite.
    let suite = write(
        dir.path(),
        "bad.toml",
        &same_output_suite(&[("a", "x")], "reference = \"nobody\""),
    );
    let a = versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .assert()
        .code(1);
    assert!(stderr(&a).contains("no such implementation"), "{}", stderr(&a));
    let text = same_output_suite(&[("a", "x")], "reference = \"a\"").replace("same_output = true", "");
    let suite = write(dir.path(), "bad.toml", &text);
    let a = versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .assert()
        .code(1);
    assert!(stderr(&a).contains("add same_output = true"), "{}", stderr(&a));
}

/// Six implementations with names long enough that their tables cannot fit
/// in 80 columns, measured once; the results folder.
fn wide_results(dir: &Path) -> PathBuf {
    let mut s = String::from(
        "name = \"wide\"\nbaseline = \"first-implementation\"\n[settings]\nruns = 3\nwarmup = 0\n[matrix]\nsize = [\"1KB\", \"2KB\"]\n[payload]\nsize = \"{size}\"\n[operations.copy]\n",
    );
    for name in ["first", "second", "third", "fourth", "fifth", "sixth"] {
        s.push_str(&format!(
            "[implementations.{name}-implementation]\nrun.copy = \"cat {{in}}\"\n"
        ));
    }
    let suite = write(dir, "wide.toml", &s);
    let out = dir.join("wide");
    versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0);
    out
}

/// The terminal report with every operation's tables (`--verbose`) as a
/// pseudo-terminal of `columns` shows it (`script` gives versus a real tty;
/// `stty` sets its width).
fn report_in_a_terminal(results: &Path, columns: usize, env: &[(&str, &str)]) -> String {
    in_a_terminal(&format!("report --verbose {}", results.display()), columns, env)
}

/// What `versus ARGS` shows in a pseudo-terminal of `columns`.
fn in_a_terminal(args: &str, columns: usize, env: &[(&str, &str)]) -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_versus"));
    let inner = format!("stty cols {columns} rows 50; {} {args}", bin.display());
    let mut cmd = std::process::Command::new("script");
    cmd.args(["-qec", &inner, "/dev/null"])
        .env_remove("NO_COLOR")
        .env_remove("COLUMNS")
        .env("TERM", "xterm-256color");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .output()
        .expect("script (util-linux) runs a command in a pseudo-terminal");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n")
}

/// No line wider than `columns`, no figure split from its spread, no
/// implementation name split.
fn assert_laid_out(text: &str, columns: usize) {
    let plain = console::strip_ansi_codes(text);
    for line in plain.lines() {
        let w = console::measure_text_width(line);
        assert!(w <= columns, "{w} > {columns} columns: {line}\n{plain}");
        let t = line.trim();
        assert!(
            !t.ends_with('±') && !t.starts_with('±'),
            "a figure split from its spread: {line}\n{plain}"
        );
    }
    for name in ["first", "second", "third", "fourth", "fifth", "sixth"] {
        let whole = format!("{name}-implementation");
        assert!(
            plain.contains(&whole),
            "{whole} is split or missing at {columns}:\n{plain}"
        );
    }
    // Every time figure keeps its spread on its line: "<n> <unit> ± <n> <unit>".
    let figure = plain
        .lines()
        .flat_map(|l| l.split("  "))
        .filter(|c| c.contains('±'))
        .count();
    assert!(figure >= 6, "{figure} figures with their spread at {columns}:\n{plain}");
}

#[test]
fn tables_fit_the_terminal_at_80_120_and_200_columns_without_splitting_a_figure() {
    let dir = tempfile::tempdir().unwrap();
    let out = wide_results(dir.path());
    let json = out.join("results.json");
    let mut blocks = Vec::new();
    for columns in [80, 120, 200] {
        let text = report_in_a_terminal(&json, columns, &[]);
        assert_laid_out(&text, columns);
        // How many times the time table's header row is printed: once per block.
        blocks.push(text.lines().filter(|l| l.trim_start().starts_with("size")).count());
    }
    // Narrower terminals stack the tables in more blocks.
    assert!(
        blocks[0] >= blocks[1] && blocks[1] >= blocks[2] && blocks[0] > blocks[2],
        "{blocks:?}"
    );
    // Not a terminal: COLUMNS, else 100.
    let a = versus()
        .args(["report", "--verbose"])
        .arg(&json)
        .env("COLUMNS", "200")
        .assert()
        .code(0);
    assert_laid_out(&stdout(&a), 200);
    assert!(stdout(&a).lines().any(|l| l.len() > 100));
    let a = versus().args(["report", "--verbose"]).arg(&json).assert().code(0);
    assert_laid_out(&stdout(&a), 100);
    // versus diff too.
    let a = versus().arg("diff").arg(&json).arg(&json).assert().code(0);
    assert!(stdout(&a).lines().all(|l| console::measure_text_width(l) <= 100));
    // versus exec's one row per command, its widest table, at 80 columns.
    let names: String = ["first", "second", "third", "fourth", "fifth", "sixth"]
        .iter()
        .map(|n| format!("-n {n}-implementation "))
        .collect();
    let text = in_a_terminal(
        &format!("exec -q --no-history -r 2 -w 0 {names} true true true true true true"),
        80,
        &[],
    );
    assert!(text.contains("median ± σ"), "{text}");
    assert_laid_out(&text, 80);
}

#[test]
fn colour_follows_color_style_and_no_color() {
    let dir = tempfile::tempdir().unwrap();
    let out = wide_results(dir.path());
    let json = out.join("results.json");
    let esc = "\u{1b}[";
    // In a terminal: colour, unless NO_COLOR is set.
    assert!(report_in_a_terminal(&json, 120, &[]).contains(esc));
    assert!(!report_in_a_terminal(&json, 120, &[("NO_COLOR", "1")]).contains(esc));
    // Not a terminal: none, unless asked for.
    let plain = versus().arg("report").arg(&json).assert().code(0);
    assert!(!stdout(&plain).contains(esc));
    let forced = versus()
        .args(["report", "--color", "always"])
        .arg(&json)
        .assert()
        .code(0);
    assert!(stdout(&forced).contains(esc));
    // exec's hyperfine --style: color and nocolor.
    for (style, coloured) in [("color", true), ("nocolor", false), ("basic", false)] {
        let a = versus()
            .args([
                "exec",
                "--no-history",
                "-r",
                "2",
                "-w",
                "0",
                "--style",
                style,
                "true",
                "sleep 0.001",
            ])
            .assert()
            .code(0);
        assert_eq!(stdout(&a).contains(esc), coloured, "--style {style}:\n{}", stdout(&a));
    }
    let a = versus()
        .args([
            "exec",
            "--no-history",
            "-r",
            "2",
            "-w",
            "0",
            "--style",
            "color",
            "--color",
            "never",
            "true",
        ])
        .assert()
        .code(0);
    assert!(!stdout(&a).contains(esc), "an explicit --color wins");
}

#[test]
fn every_report_shows_cpu_time_and_range_and_a_sub_tick_time_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let out = wide_results(dir.path());
    // Every run's system time below the tick, as wait4 reports it: 0.
    let mut r = results(&out);
    for c in r["cells"].as_array_mut().unwrap() {
        let n = c["samples"]["wall_ns"].as_array().unwrap().len();
        c["samples"]["sys_ns"] = serde_json::json!(vec![0; n]);
        c["stats"]["median_sys_ns"] = serde_json::json!(0.0);
    }
    let json = write(dir.path(), "zero-sys.json", &r.to_string());
    let (md, html, csv) = (
        dir.path().join("r.md"),
        dir.path().join("r.html"),
        dir.path().join("r.csv"),
    );
    versus()
        .arg("report")
        .arg(&json)
        .arg("--markdown")
        .arg(&md)
        .arg("--html")
        .arg(&html)
        .arg("--csv")
        .arg(&csv)
        .assert()
        .code(0);
    let terminal = stdout(
        &versus()
            .arg("report")
            .arg("--verbose")
            .arg(&json)
            .env("COLUMNS", "200")
            .assert()
            .code(0),
    );
    for (what, text) in [
        ("terminal", terminal),
        ("markdown", fs::read_to_string(&md).unwrap().replace("&lt;", "<")),
        (
            "html",
            fs::read_to_string(&html)
                .unwrap()
                .replace("&#x2f;", "/")
                .replace("&lt;", "<"),
        ),
    ] {
        assert!(text.contains("Range, fastest … slowest run"), "{what}");
        assert!(text.contains("CPU time, median user / system"), "{what}");
        assert!(text.contains(" / < 1 tick"), "{what}:\n{text}");
        assert!(!text.contains("/ 0.00 ns"), "{what}");
    }
    let csv = fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    for column in ["min_ns", "max_ns", "median_user_ns", "median_sys_ns"] {
        assert!(header.contains(&column), "{header:?}");
    }
}

#[test]
fn shell_syntax_in_a_suite_command_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let text = "name = \"s\"\n[operations.count]\n[implementations.echo]\nrun.count = \"echo hi | wc -c\"\n";
    let suite = write(dir.path(), "s.toml", text);
    let a = versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(dir.path().join("o"))
        .assert()
        .code(1);
    let err = stderr(&a);
    assert!(err.contains("`|`") && err.contains("shell = true"), "{err}");
    assert!(!dir.path().join("o/results.json").exists());
    // With a shell it runs; quoted it is an argument.
    let suite = write(
        dir.path(),
        "s.toml",
        &text.replace("[operations", "[settings]\nshell = true\n[operations"),
    );
    versus()
        .args(["run", "-q", "--no-history", "-r", "1", "-w", "0"])
        .arg(&suite)
        .arg("--out")
        .arg(dir.path().join("o"))
        .assert()
        .code(0);
    let suite = write(
        dir.path(),
        "s.toml",
        &text.replace("echo hi | wc -c", "echo 'hi | wc -c'"),
    );
    versus()
        .args(["run", "-q", "--no-history", "-r", "1", "-w", "0"])
        .arg(&suite)
        .arg("--out")
        .arg(dir.path().join("o"))
        .assert()
        .code(0);
}

#[test]
fn every_missing_program_is_named_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "m.toml",
        "name = \"m\"\n[operations.x]\n[implementations.a]\nrun.x = \"no-such-tool-one\"\n[implementations.b]\nrun.x = \"true\"\n[implementations.c]\nrun.x = \"./no-such-tool-two\"\n",
    );
    let a = versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .assert()
        .code(1);
    let err = stderr(&a);
    assert!(err.contains("2 programs are missing"), "{err}");
    assert!(
        err.contains("'no-such-tool-one'") && err.contains("'./no-such-tool-two'"),
        "{err}"
    );
}

#[test]
fn only_without_the_baseline_compares_against_the_first_that_ran_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "o.toml",
        "name = \"o\"\nbaseline = \"a\"\n[settings]\nruns = 3\nwarmup = 0\n[operations.x]\n[implementations.a]\nrun.x = \"true\"\n[implementations.b]\nrun.x = \"true\"\n[implementations.c]\nrun.x = \"sleep 0.001\"\n",
    );
    let out = dir.path().join("o");
    let a = versus()
        .args(["run", "--no-history", "-q", "--only", "b,c"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0);
    assert!(stderr(&a).contains("ratios are against b"), "{}", stderr(&a));
    let r = results(&out);
    assert_eq!(r["suite"]["baseline"], "b");
    assert!(
        r["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["baseline"] == "b")
    );
    assert_eq!(r["comparisons"].as_array().unwrap().len(), 2);
    assert!(
        r["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["kind"] == "baseline_not_run")
    );
    // A --baseline that --only leaves out is a contradiction.
    let a = versus()
        .args(["run", "--no-history", "-q", "--only", "b,c", "--baseline", "a"])
        .arg(&suite)
        .assert()
        .code(1);
    assert!(stderr(&a).contains("--only leaves it out"), "{}", stderr(&a));
}

#[test]
fn report_without_a_file_option_prints_the_terminal_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = wide_results(dir.path());
    let a = versus().arg("report").arg(out.join("results.json")).assert().code(0);
    let text = stdout(&a);
    assert!(text.contains("== Headline =="), "{text}");
    assert!(text.contains("copy at size=1KB: first-implementation"), "{text}");
    let a = versus()
        .arg("report")
        .arg("--verbose")
        .arg(out.join("results.json"))
        .assert()
        .code(0);
    let text = stdout(&a);
    assert!(text.contains("== copy =="), "{text}");
    assert!(text.contains("Relative to first-implementation"), "{text}");
}

#[test]
fn labelled_matrix_values_name_cells_while_commands_get_the_values() {
    let dir = tempfile::tempdir().unwrap();
    let value = "[.[] | select(.x > 5)] | length";
    let suite = write(
        dir.path(),
        "l.toml",
        &format!(
            "name = \"l\"\n[settings]\nruns = 2\nwarmup = 0\n[matrix]\nfilter = {{ count = \"{value}\", names = \"keys\" }}\n\
[[override]]\nwhen = {{ filter = \"names\" }}\nruns = 3\n\
[operations.q]\n[implementations.check]\nrun.q = \"sh -c 'test \\\"$1\\\" = \\\"{value}\\\" || test \\\"$1\\\" = keys' _ {{filter}}\"\n\
[implementations.labels]\nrun.q = \"sh -c 'test \\\"$1\\\" = count || test \\\"$1\\\" = names' _ {{filter.label}}\"\n"
        ),
    );
    let out = dir.path().join("l");
    versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(0);
    let r = results(&out);
    let ids: Vec<&str> = r["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    // Commands got the values ({filter}) and the labels ({filter.label}): every cell ok.
    assert_eq!(
        ids,
        [
            "q/check/filter=count",
            "q/labels/filter=count",
            "q/check/filter=names",
            "q/labels/filter=names"
        ]
    );
    assert!(
        r["cells"].as_array().unwrap().iter().all(|c| c["outcome"] == "ok"),
        "{r}"
    );
    // The override matched the label.
    assert_eq!(r["cells"][2]["samples"]["wall_ns"].as_array().unwrap().len(), 3);
    assert_eq!(r["suite"]["labels"]["filter"]["count"], value);
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## Parameter labels"), "{md}");
    assert!(
        !md.contains("filter=[") && !md.contains("filter=\\["),
        "a value used as a heading:\n{md}"
    );
    // An override naming a value instead of its label says what it expects.
    let bad = fs::read_to_string(&suite)
        .unwrap()
        .replace("when = { filter = \"names\" }", "when = { filter = \"keys\" }");
    let suite = write(dir.path(), "l.toml", &bad);
    let a = versus()
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .assert()
        .code(1);
    assert!(stderr(&a).contains("matrix.filter's labels"), "{}", stderr(&a));
}

#[test]
fn a_ratio_over_fewer_runs_than_its_medians_says_which_medians_it_used() {
    let dir = tempfile::tempdir().unwrap();
    let out = wide_results(dir.path());
    // As --precision leaves them: one cell stopped after 2 runs, the others went on to 3.
    let mut r = results(&out);
    let c = r["cells"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["implementation"] == "second-implementation")
        .unwrap();
    for series in ["wall_ns", "user_ns", "sys_ns", "max_rss_bytes", "rss_floor_bytes"] {
        if let Some(runs) = c["samples"][series].as_array_mut() {
            runs.truncate(2);
        }
    }
    for series in ["position", "after", "gap_ns"] {
        if let Some(runs) = c["samples"]["order"][series].as_array_mut() {
            runs.truncate(2);
        }
    }
    let json = write(dir.path(), "uneven.json", &r.to_string());
    let md = dir.path().join("r.md");
    versus()
        .arg("report")
        .arg(&json)
        .arg("--markdown")
        .arg(&md)
        .assert()
        .code(0);
    let md = fs::read_to_string(&md).unwrap();
    assert!(
        md.contains("second-implementation") && md.contains("over the 2 runs they took side by side"),
        "{md}"
    );
    let terminal = stdout(&versus().arg("report").arg("--verbose").arg(&json).assert().code(0)).replace('\n', " ");
    assert!(
        terminal.contains("over the 2 runs they took side by side"),
        "{terminal}"
    );
}

#[test]
fn a_payload_command_runs_once_across_runs_and_again_when_its_script_changes() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    write(
        dir.path(),
        "gen.sh",
        "#!/bin/sh\necho run >> \"$(dirname \"$0\")/count.txt\"\nhead -c \"$1\" /dev/zero > \"$2\"\n",
    );
    let suite = write(
        dir.path(),
        "p.toml",
        "name = \"p\"\n[settings]\nruns = 1\nwarmup = 0\n[matrix]\nsize = [100, 200]\n[payload]\ncommand = \"sh gen.sh {size} {out}\"\n[operations.x]\n[implementations.cat]\nrun.x = \"cat {in}\"\n",
    );
    let runs = || {
        fs::read_to_string(dir.path().join("count.txt"))
            .unwrap_or_default()
            .lines()
            .count()
    };
    for _ in 0..2 {
        versus()
            .env("VERSUS_CACHE_DIR", &cache)
            .args(["run", "-q", "--no-history"])
            .arg(&suite)
            .arg("--out")
            .arg(dir.path().join("o"))
            .assert()
            .code(0);
    }
    assert_eq!(runs(), 2, "once per size, not once per run");
    let r = results(&dir.path().join("o"));
    assert_eq!(r["cells"][1]["payload_bytes"], 200);
    // An edited generator runs again.
    let script = fs::read_to_string(dir.path().join("gen.sh")).unwrap();
    write(dir.path(), "gen.sh", &format!("{script}# edited\n"));
    versus()
        .env("VERSUS_CACHE_DIR", &cache)
        .args(["run", "-q", "--no-history"])
        .arg(&suite)
        .arg("--out")
        .arg(dir.path().join("o"))
        .assert()
        .code(0);
    assert_eq!(runs(), 4);
}

#[test]
fn files_a_payload_command_writes_beside_its_out_move_with_the_payload() {
    // The OpenTDF example's generator writes {out} and {out}.go-sdk.tdf; the
    // implementations read {in}.go-sdk.tdf. Both with the cache and, with
    // {tmp} in the command, in the run's own folder.
    for per_run in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let tmp_word = if per_run { " {tmp}" } else { "" };
        write(
            dir.path(),
            "gen.sh",
            "#!/bin/sh\nhead -c \"$1\" /dev/zero > \"$2\"\necho side > \"$2.side\"\n",
        );
        let suite = write(
            dir.path(),
            "p.toml",
            &format!(
                "name = \"p\"\n[settings]\nruns = 1\nwarmup = 0\n[payload]\ncommand = \"sh gen.sh 100 {{out}}{tmp_word}\"\n[operations.x]\noutput = \"none\"\n[implementations.side]\nrun.x = \"cat {{in}}.side\"\n"
            ),
        );
        versus()
            .env("VERSUS_CACHE_DIR", dir.path().join("cache"))
            .args(["run", "-q", "--no-history"])
            .arg(&suite)
            .arg("--out")
            .arg(dir.path().join("o"))
            .assert()
            .code(0);
        let r = results(&dir.path().join("o"));
        assert_eq!(r["cells"][0]["outcome"], "ok", "per_run {per_run}: {}", r["cells"][0]);
    }
}

/// Where stderr is not a terminal (a CI log), each finished group is a line
/// as it finishes, not silence until the end; `-q` keeps it quiet.
#[test]
fn a_log_gets_a_line_per_finished_group() {
    let dir = tempfile::tempdir().unwrap();
    let s = write(
        dir.path(),
        "two.toml",
        "name = \"two\"\n[settings]\nruns = 2\nwarmup = 0\n[matrix]\nn = [1, 2]\n[operations.echo]\n[implementations.a]\nrun.echo = \"echo {n}\"\n[implementations.b]\nrun.echo = \"printf '{n}\\\\n'\"\n",
    );
    let a = versus()
        .current_dir(dir.path())
        .args(["run", "--no-history"])
        .arg(&s)
        .args(["--out", "out"])
        .assert()
        .code(0);
    let err = stderr(&a);
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("] group ")).collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("versus [") && lines[0].contains("group 1 done: "),
        "{err}"
    );
    assert!(
        lines[1].contains("group 2 done: ") && lines[1].ends_with("(4 runs)"),
        "{err}"
    );
    let quiet = versus()
        .current_dir(dir.path())
        .args(["run", "-q", "--no-history"])
        .arg(&s)
        .args(["--out", "out2"])
        .assert()
        .code(0);
    assert!(!stderr(&quiet).contains("] group "));
}

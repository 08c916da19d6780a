use super::*;

const BASE: &str = r#"
name = "t"
baseline = "a"
[matrix]
size = ["1KB", "2KB"]
[payload]
size = "{size}"
[operations.enc]
[operations.dec]
input = "enc"
roundtrip = true
[implementations.a]
version = "a --version"
run.enc = "a -e {in} -o {out}"
run.dec = "a -d {enc.out}"
[implementations.b]
run = { enc = "b {payload} {size}", dec = "b -d {in}" }
"#;

fn parse_str(text: &str) -> Result<Suite, SuiteError> {
    parse(Path::new("suite.toml"), text)
}

fn error(text: &str) -> String {
    parse_str(text).expect_err("should be rejected").to_string()
}

#[test]
fn a_valid_suite_is_resolved() {
    let s = parse_str(BASE).unwrap();
    assert_eq!(s.name, "t");
    assert_eq!(s.operations.len(), 2);
    assert_eq!(s.operations[1].input, Input::Operation(0));
    assert!(s.operations[1].roundtrip);
    assert_eq!(
        s.implementations.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );
    assert_eq!(s.settings.runs, DEFAULT_RUNS);
    assert!(matches!(s.payload, Some(Payload::Random { seed: 0, .. })));
}

#[test]
fn syntax_errors_name_file_line_and_column() {
    let e = error("name = \"x\"\n[operations.enc\n");
    assert!(e.starts_with("suite.toml:2:"), "{e}");
}

#[test]
fn unknown_keys_are_errors_with_a_location() {
    let e = error(&BASE.replace("[operations.enc]", "[operations.enc]\nroundtrp = true"));
    assert!(e.starts_with("suite.toml:"), "{e}");
    assert!(e.contains("roundtrp"), "{e}");
}

#[test]
fn unknown_placeholder_is_located_at_the_command() {
    let text = BASE.replace("b -d {in}", "b -d {inn}");
    let e = error(&text);
    let line = text.lines().position(|l| l.contains("{inn}")).unwrap() + 1;
    assert!(e.starts_with(&format!("suite.toml:{line}:")), "{e}");
    assert!(e.contains("{inn}"), "{e}");
}

#[test]
fn placeholders_of_later_operations_are_refused() {
    let e = error(&BASE.replace("a -e {in} -o {out}", "a -e {dec.out}"));
    assert!(e.contains("{dec.out}"), "{e}");
}

#[test]
fn missing_implementation_for_an_operation() {
    let e = error(&BASE.replace("run.dec = \"a -d {enc.out}\"", ""));
    assert!(
        e.contains("implementations.a has no command for operation 'dec'"),
        "{e}"
    );
}

#[test]
fn empty_matrix_parameter() {
    let e = error(&BASE.replace("size = [\"1KB\", \"2KB\"]", "size = []"));
    assert!(e.contains("matrix.size has no values"), "{e}");
}

#[test]
fn references_are_checked() {
    assert!(error(&BASE.replace("baseline = \"a\"", "baseline = \"zz\"")).contains("baseline"));
    assert!(error(&BASE.replace("input = \"enc\"", "input = \"nope\"")).contains("no such operation"));
    let later = BASE.replace("[operations.enc]", "[operations.enc]\ninput = \"dec\"");
    assert!(error(&later).contains("declared before"));
    let skip = format!("{BASE}\n[[override]]\nwhen = {{ size = \"1KB\" }}\nskip = [\"nobody\"]\n");
    assert!(error(&skip).contains("nobody"));
    let when = format!("{BASE}\n[[override]]\nwhen = {{ size = \"3KB\" }}\n");
    assert!(error(&when).contains("3KB"));
    assert!(
        error(&BASE.replace(
            "run.enc = \"a -e {in} -o {out}\"",
            "run.enc = \"a -e {in} -o {out}\"\nrun.zip = \"x\""
        ))
        .contains("zip")
    );
}

#[test]
fn payload_needs_exactly_one_source() {
    let e = error(&BASE.replace("size = \"{size}\"", "size = \"{size}\"\nfile = \"x.bin\""));
    assert!(e.contains("exactly one"), "{e}");
}

#[test]
fn bad_quotes_and_durations() {
    assert!(error(&BASE.replace("b -d {in}", "b -d '{in}")).contains("quotes"));
    let t = format!("{BASE}\n[settings]\ntimeout = \"soon\"\n");
    assert!(error(&t).contains("settings.timeout"));
}

#[test]
fn schema_describes_the_format() {
    let schema = json_schema();
    let props = &schema["properties"];
    for key in [
        "matrix",
        "payload",
        "operations",
        "implementations",
        "override",
        "services",
    ] {
        assert!(props.get(key).is_some(), "schema lacks {key}");
    }
}

#[test]
fn variants_expand_into_implementations_with_their_own_vars() {
    let text = BASE.replace(
        "[implementations.b]",
        "[implementations.j]\nvars = { opts = \"-q\" }\nvariants = { v17 = { java = \"/jdk17/java\" }, v25 = { java = \"/jdk25/java\" } }\nrun = { enc = \"{java} {opts} e\", dec = \"{java} d\" }\n[implementations.b]",
    );
    let text = format!("{text}\n[[override]]\nwhen = {{ size = \"1KB\" }}\nskip = [\"j\"]\n");
    let s = parse_str(&text).unwrap();
    let names: Vec<&str> = s.implementations.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["a", "j-v17", "j-v25", "b"]);
    let v25 = &s.implementations[2];
    assert!(v25.vars.contains(&("java".into(), "/jdk25/java".into())));
    assert!(v25.vars.contains(&("opts".into(), "-q".into())));
    assert_eq!(s.overrides[0].skip, ["j-v17", "j-v25"]);
    let missing = BASE.replace(
        "[implementations.b]",
        "[implementations.j]\nvariants = { v17 = { java = \"x\" }, v25 = { jre = \"y\" } }\nworker = \"{java} W\"\n[implementations.b]",
    );
    assert!(error(&missing).contains("no value for"));
}

#[test]
fn unsupported_names_a_real_operation_and_not_one_with_a_command() {
    let bad = BASE.replace(
        "run.dec = \"a -d {enc.out}\"",
        "run.dec = \"a -d {enc.out}\"\nunsupported = { sign = \"no\" }",
    );
    let e = parse(Path::new("s.toml"), &bad).unwrap_err().to_string();
    assert!(
        e.contains("implementations.a.unsupported.sign") && e.contains("no operation named"),
        "{e}"
    );
    let both = BASE.replace(
        "run.dec = \"a -d {enc.out}\"",
        "run.dec = \"a -d {enc.out}\"\nunsupported = { dec = \"no\" }",
    );
    let e = parse(Path::new("s.toml"), &both).unwrap_err().to_string();
    assert!(
        e.contains("'dec' has a run command and is listed as unsupported"),
        "{e}"
    );
    let fine = BASE.replace("run.dec = \"a -d {enc.out}\"", "unsupported = { dec = \"no decoder\" }");
    let s = parse(Path::new("s.toml"), &fine).unwrap();
    assert_eq!(s.implementations[0].unsupported, [(1, "no decoder".to_string())]);
}

#[test]
fn warmup_is_a_number_of_runs_or_auto() {
    let with = |settings: &str, over: &str| {
        format!("{BASE}\n[settings]\n{settings}\n[[override]]\nwhen = {{ size = \"2KB\" }}\n{over}\n")
    };
    let s = parse_str(&with("warmup = \"auto\"", "warmup = 3")).unwrap();
    assert_eq!(
        (s.settings.warmup, s.overrides[0].warmup),
        (Warmup::Auto, Some(Warmup::Runs(3)))
    );
    let s = parse_str(&with("warmup = 2", "warmup = \"auto\"")).unwrap();
    assert_eq!(
        (s.settings.warmup, s.overrides[0].warmup),
        (Warmup::Runs(2), Some(Warmup::Auto))
    );
    let e = error(&with("warmup = \"lots\"", ""));
    assert!(
        e.contains("settings.warmup = \"lots\": give a number of runs or \"auto\""),
        "{e}"
    );
    let e = error(&with("", "warmup = \"later\""));
    assert!(e.contains("override #1.warmup = \"later\""), "{e}");
}

#[test]
fn an_override_can_name_the_operations_it_applies_to() {
    let with = |ops: &str| format!("{BASE}\n[[override]]\nwhen = {{ size = \"2KB\" }}\n{ops}\nskip = [\"b\"]\n");
    let s = parse_str(&with("operations = [\"dec\"]")).unwrap();
    let size = |v: &str| IndexMap::from([("size".to_string(), ParamValue::Str(v.into()))]);
    let o = &s.overrides[0];
    assert_eq!(o.operations, [1]);
    assert!(o.applies(1, &size("2KB")) && !o.applies(0, &size("2KB")) && !o.applies(1, &size("1KB")));
    let all = &parse_str(&with("")).unwrap().overrides[0];
    assert!(all.operations.is_empty() && all.applies(0, &size("2KB")) && all.applies(1, &size("2KB")));
    let e = error(&with("operations = [\"decrypt\"]"));
    assert!(
        e.contains("override #1: operations: no operation named 'decrypt' (expected one of: enc, dec)"),
        "{e}"
    );
    let e = error(&with("operations = []"));
    assert!(e.contains("override #1: operations = []"), "{e}");
}

/// Two names that the runner's folders would make one ("a b" and "a_b")
/// would let one cell read the other's output: refused, naming both.
#[test]
fn names_that_would_share_a_folder_are_refused() {
    let two = "name = \"t\"\n[operations.gen]\n[implementations.\"a b\"]\nrun.gen = \"echo 1\"\n[implementations.a_b]\nrun.gen = \"echo 2\"\n";
    let e = error(two);
    assert!(e.contains("\"a b\" and \"a_b\" would share one folder (a_b)"), "{e}");
    let ops = "name = \"t\"\n[operations.\"x y\"]\n[operations.x_y]\n[implementations.a]\nrun.\"x y\" = \"true\"\nrun.x_y = \"true\"\n";
    assert!(error(ops).contains("operations \"x y\" and \"x_y\""));
    let values = "name = \"t\"\n[matrix]\nv = [\"p q\", \"p_q\"]\n[operations.gen]\n[implementations.a]\nrun.gen = \"echo {v}\"\n";
    assert!(error(values).contains("matrix.v: the values \"p q\" and \"p_q\""));
}

#[test]
fn a_stated_headline_is_checked_against_the_suite() {
    let ok = format!(
        "{BASE}\n[report]\nnotes_at = \"appendix\"\n[[report.headline]]\noperation = \"enc\"\nat = {{ size = \"1KB\" }}\nimplementations = [\"b\"]\nagainst = \"a\"\nquestion = \"How much slower is b?\"\n"
    );
    let s = parse_str(&ok).unwrap();
    assert_eq!(s.report.headline.len(), 1);
    assert_eq!(s.report.headline[0].implementations, ["b"]);
    assert_eq!(s.report.headline[0].against.as_deref(), Some("a"));
    assert_eq!(s.report.notes_at, crate::results::NotesAt::Appendix);
    let e = error(&ok.replace("operation = \"enc\"", "operation = \"zip\""));
    assert!(e.contains("report.headline[0].operation") && e.contains("zip"), "{e}");
    let e = error(&ok.replace("size = \"1KB\" }", "size = \"3KB\" }"));
    assert!(e.contains("report.headline[0].at.size") && e.contains("3KB"), "{e}");
    let e = error(&ok.replace("at = { size", "at = { level"));
    assert!(e.contains("no matrix parameter `level`"), "{e}");
    let e = error(&ok.replace("[\"b\"]", "[\"nobody\"]"));
    assert!(
        e.contains("report.headline[0].implementations") && e.contains("nobody"),
        "{e}"
    );
    let e = error(&ok.replace("against = \"a\"", "against = \"zz\""));
    assert!(e.contains("report.headline[0].against") && e.contains("zz"), "{e}");
    let e = error(&ok.replace("notes_at = \"appendix\"", "notes_at = \"footer\""));
    assert!(e.contains("footer"), "{e}");
}

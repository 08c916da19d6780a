//! The journal's unit (a group) and its recovery from torn or glued lines.

use super::*;
use crate::results::Samples;

fn cell(id: &str, implementation: &str) -> Cell {
    Cell {
        id: id.into(),
        implementation: implementation.into(),
        ..Cell::of_samples(
            id,
            Samples {
                wall_ns: vec![7].into(),
                ..Default::default()
            },
        )
    }
}

fn journal_with(dir: &Path, groups: &[&[Cell]]) -> PathBuf {
    let path = dir.join("cells.jsonl");
    let mut j = Journal::open(&path).unwrap();
    for g in groups {
        j.append_group(g).unwrap();
    }
    path
}

#[test]
fn a_group_is_one_line_and_reads_back_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = journal_with(dir.path(), &[&[cell("a", "x"), cell("b", "y")], &[cell("c", "x")]]);
    assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 2);
    let r = Journal::recover(&path).unwrap();
    assert_eq!(r.cells.keys().collect::<Vec<_>>(), ["a", "b", "c"]);
    assert!(r.set_aside.is_none());
}

/// Cuts the journal's last line `keep` bytes into it, as a crash mid-write would.
fn tear(path: &Path, keep: usize) -> Vec<u8> {
    let bytes = fs::read(path).unwrap();
    let last_start = bytes[..bytes.len() - 1].iter().rposition(|b| *b == b'\n').unwrap() + 1;
    fs::write(path, &bytes[..last_start + keep]).unwrap();
    bytes[last_start..last_start + keep].to_vec()
}

#[test]
fn a_torn_tail_is_set_aside_and_the_journal_stays_appendable() {
    let dir = tempfile::tempdir().unwrap();
    let path = journal_with(dir.path(), &[&[cell("a", "x")], &[cell("b", "x")]]);
    let fragment = tear(&path, 25);
    let r = Journal::recover(&path).unwrap();
    assert_eq!(r.cells.keys().collect::<Vec<_>>(), ["a"]);
    let torn = r.set_aside.unwrap();
    assert_eq!(r.unreadable_bytes, fragment.len() + 1);
    assert_eq!(fs::read(&torn).unwrap()[..fragment.len()], fragment[..]);
    // The next group goes on a line of its own, not glued to the fragment.
    Journal::open(&path).unwrap().append_group(&[cell("b", "x")]).unwrap();
    let again = Journal::recover(&path).unwrap();
    assert_eq!(again.cells.keys().collect::<Vec<_>>(), ["a", "b"]);
    assert!(again.set_aside.is_none());
}

#[test]
fn a_cut_inside_a_multibyte_character_is_recovered_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = journal_with(dir.path(), &[&[cell("a", "x")], &[cell("b", "été")]]);
    let text = fs::read(&path).unwrap();
    let second = text.iter().position(|b| *b == b'\n').unwrap() + 1;
    // The cut falls between the two bytes of the first 'é'.
    let e = text[second..].windows(2).position(|w| w == "é".as_bytes()).unwrap();
    tear(&path, e + 1);
    let r = Journal::recover(&path).unwrap();
    assert_eq!(r.cells.keys().collect::<Vec<_>>(), ["a"]);
    assert!(r.set_aside.is_some());
}

#[test]
fn a_fragment_glued_to_the_next_record_costs_only_that_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cells.jsonl");
    let line = |c: Cell| serde_json::to_string(&Line::Cell(Box::new(c))).unwrap();
    let (a, b, c) = (line(cell("a", "x")), line(cell("b", "x")), line(cell("c", "x")));
    // Old-format lines; the middle one is a torn fragment with the next record glued on.
    fs::write(&path, format!("{a}\n{}{b}\n{c}\n", &b[..10])).unwrap();
    let r = Journal::recover(&path).unwrap();
    assert_eq!(r.cells.keys().collect::<Vec<_>>(), ["a", "c"]);
    assert!(r.set_aside.is_some());
}

fn header(name: &str) -> Results {
    let mut r: Results = serde_json::from_str(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/results/sha256.json"))
            .unwrap(),
    )
    .unwrap();
    r.suite.name = name.into();
    r
}

#[test]
fn the_last_run_header_is_read_back_without_its_cells() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cells.jsonl");
    let mut j = Journal::open(&path).unwrap();
    j.append_run(&header("first")).unwrap();
    j.append_group(&[cell("a", "x")]).unwrap();
    j.append_run(&header("resumed")).unwrap();
    j.append_group(&[cell("b", "x")]).unwrap();
    let r = Journal::recover(&path).unwrap();
    let h = r.header.unwrap();
    assert_eq!(h.suite.name, "resumed");
    assert!(h.cells.is_empty(), "a header carries no cells");
    assert_eq!(r.cells.keys().collect::<Vec<_>>(), ["a", "b"]);
    assert!(Journal::looks_like(&path));
}

#[test]
fn a_line_of_an_unknown_type_is_skipped_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = journal_with(dir.path(), &[&[cell("a", "x")]]);
    let mut text = fs::read_to_string(&path).unwrap();
    text.push_str("{\"type\":\"later_idea\",\"data\":{\"x\":1}}\n");
    fs::write(&path, &text).unwrap();
    Journal::open(&path).unwrap().append_group(&[cell("b", "x")]).unwrap();
    let r = Journal::recover(&path).unwrap();
    assert_eq!(r.cells.keys().collect::<Vec<_>>(), ["a", "b"]);
    assert!(r.set_aside.is_none());
    assert!(fs::read_to_string(&path).unwrap().contains("later_idea"));
}

#[test]
fn reading_leaves_a_torn_tail_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = journal_with(dir.path(), &[&[cell("a", "x")], &[cell("b", "x")]]);
    let fragment = tear(&path, 25);
    let before = fs::read(&path).unwrap();
    let r = Journal::read(&path).unwrap();
    assert_eq!(r.cells.keys().collect::<Vec<_>>(), ["a"]);
    assert_eq!(r.unreadable_bytes, fragment.len() + 1);
    assert!(r.set_aside.is_none());
    assert_eq!(fs::read(&path).unwrap(), before, "read changed the journal");
    assert!(!path.with_extension("jsonl.torn").exists());
}

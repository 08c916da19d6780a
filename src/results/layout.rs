//! The layout of versus's JSON files: serde_json's pretty layout (two-space
//! indent, one member per line), except that an array whose first element
//! is a number, string, boolean or null is written on one line.
//!
//! A results file is mostly per-run figures; one number per line made a
//! 1,000-cell `results.json` 6.9 MB, a third of it indentation, and every
//! reader paid for it: parsing, the history store's compression (bzip2's
//! time grows with the text), a diff in review. With arrays on one line the
//! same file is 4.6 MB and a run's samples read as a row. Objects keep one
//! member per line, so the structure stays easy to scan and to diff.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter, PrettyFormatter, Serializer};

/// Writes `value` to `writer` in this layout (no trailing newline).
pub(crate) fn to_writer<W: Write, T: Serialize + ?Sized>(writer: W, value: &T) -> serde_json::Result<()> {
    value.serialize(&mut Serializer::with_formatter(writer, Layout::default()))
}

/// `value` in this layout, as text (no trailing newline).
pub(super) fn to_string<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::new();
    to_writer(&mut out, value)?;
    // serde_json writes only UTF-8.
    Ok(String::from_utf8(out).unwrap_or_default())
}

/// How an open array is laid out: decided by its first element.
#[derive(Clone, Copy, PartialEq)]
enum Arrangement {
    Undecided,
    OneLine,
    OnePerLine,
}

#[derive(Default)]
struct Layout {
    pretty: PrettyFormatter<'static>,
    arrays: Vec<Arrangement>,
    /// An array element is about to start (`Some(first)`), its separator not yet written.
    pending: Option<bool>,
    /// Depth of the open arrays and objects, for indenting an array's own lines.
    depth: usize,
}

impl Layout {
    /// Writes the separator of the array element that starts now; `scalar`
    /// says what it is, which settles the layout of an array at its first.
    fn settle<W: ?Sized + Write>(&mut self, w: &mut W, scalar: bool) -> io::Result<()> {
        let Some(first) = self.pending.take() else {
            return Ok(());
        };
        let arrangement = self
            .arrays
            .last_mut()
            .expect("an element is pending only inside an array");
        if *arrangement == Arrangement::Undecided {
            *arrangement = if scalar {
                Arrangement::OneLine
            } else {
                Arrangement::OnePerLine
            };
        }
        match *arrangement {
            Arrangement::OneLine if first => Ok(()),
            Arrangement::OneLine => w.write_all(b", "),
            _ => {
                w.write_all(if first { b"\n" } else { b",\n" })?;
                (0..self.depth).try_for_each(|_| w.write_all(b"  "))
            }
        }
    }
}

/// Every scalar write settles the pending separator first, then writes as
/// the pretty formatter would.
macro_rules! scalars {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {
        $(fn $name<W: ?Sized + Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> io::Result<()> {
            self.settle(w, true)?;
            self.pretty.$name(w $(, $arg)*)
        })*
    };
}

impl Formatter for Layout {
    scalars! {
        write_null();
        write_bool(v: bool);
        write_i8(v: i8);
        write_i16(v: i16);
        write_i32(v: i32);
        write_i64(v: i64);
        write_i128(v: i128);
        write_u8(v: u8);
        write_u16(v: u16);
        write_u32(v: u32);
        write_u64(v: u64);
        write_u128(v: u128);
        write_f32(v: f32);
        write_f64(v: f64);
        write_number_str(v: &str);
        begin_string();
        write_byte_array(v: &[u8]);
        write_raw_fragment(v: &str);
    }

    fn write_char_escape<W: ?Sized + Write>(&mut self, w: &mut W, escape: CharEscape) -> io::Result<()> {
        self.pretty.write_char_escape(w, escape)
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.settle(w, false)?;
        self.arrays.push(Arrangement::Undecided);
        self.depth += 1;
        self.pretty.begin_array(w)
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        if self.arrays.pop() == Some(Arrangement::OneLine) {
            // Keeps the pretty formatter's depth in step.
            self.pretty.end_array(&mut io::sink())?;
            return w.write_all(b"]");
        }
        self.pretty.end_array(w)
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, _w: &mut W, first: bool) -> io::Result<()> {
        self.pending = Some(first);
        Ok(())
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.end_array_value(w)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.settle(w, false)?;
        self.depth += 1;
        self.pretty.begin_object(w)
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        self.pretty.end_object(w)
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.pretty.begin_object_key(w, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.begin_object_value(w)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.end_object_value(w)
    }
}

#[cfg(test)]
mod tests {
    use serde::Serialize;

    use super::*;

    #[derive(Serialize)]
    struct Cell {
        id: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        runs: Option<(f64, Option<u8>, bool)>,
    }

    #[derive(Serialize)]
    struct Inner {
        k: u8,
    }

    #[derive(Serialize)]
    #[serde(untagged)]
    enum Either {
        Number(u8),
        Object(Inner),
    }

    #[derive(Serialize)]
    struct Doc {
        wall_ns: Vec<u64>,
        empty: Vec<u64>,
        names: Vec<&'static str>,
        cells: Vec<Cell>,
        nested: Vec<Vec<u8>>,
        mixed: Vec<Either>,
    }

    #[test]
    fn arrays_of_scalars_stay_on_one_line_and_objects_do_not() {
        let doc = Doc {
            wall_ns: vec![3, 1, 2],
            empty: vec![],
            names: vec!["a", "b\"c"],
            cells: vec![
                Cell {
                    id: "x",
                    runs: Some((1.5, None, true)),
                },
                Cell { id: "y", runs: None },
            ],
            nested: vec![vec![1, 2], vec![3]],
            mixed: vec![Either::Number(1), Either::Object(Inner { k: 2 })],
        };
        let text = to_string(&doc).unwrap();
        let expected = r#"{
  "wall_ns": [3, 1, 2],
  "empty": [],
  "names": ["a", "b\"c"],
  "cells": [
    {
      "id": "x",
      "runs": [1.5, null, true]
    },
    {
      "id": "y"
    }
  ],
  "nested": [
    [1, 2],
    [3]
  ],
  "mixed": [1, {
      "k": 2
    }]
}"#;
        assert_eq!(text, expected);
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, serde_json::to_value(&doc).unwrap());
    }
}

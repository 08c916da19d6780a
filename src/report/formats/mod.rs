//! The outputs: each turns the sections and tables into one format's bytes
//! (terminal, Markdown, HTML, a pull-request comment, the trend page) or
//! into another tool's file (CSV, BMF, hyperfine, pyperf, Go's benchmark
//! text, AsciiDoc, github-action-benchmark). None computes a statistic.

pub mod asciidoc;
pub mod eta;
pub mod export;
pub mod github_action;
pub mod go_bench;
pub mod html;
pub mod hyperfine;
pub mod markdown;
pub mod pr_comment;
pub mod progress;
pub mod pyperf;
pub mod terminal;

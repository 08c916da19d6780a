//! The placeholder scopes of a run, one function per context: what
//! `{tmp}`, `{impl}`, `{payload}`, `{<op>.out}` and the rest mean in a cell's
//! command, in an implementation's own commands (setup, version, artifact),
//! in the suite's setup and in a payload generator. Suite validation checks
//! the names each context may use; these give them values.

use std::path::Path;

use crate::base::params::Params;
use crate::base::placeholder::Scope;
use crate::plan::Group;
use crate::suite::Implementation;

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// The suite's own setup and teardown: `{tmp}` only.
pub(crate) fn suite_scope(tmp: &Path) -> Scope {
    Scope::new().with("tmp", path(tmp))
}

/// An implementation's own commands and files (setup, teardown, version,
/// artifact): `{tmp}`, `{impl}` and its variables.
pub(crate) fn implementation_scope(imp: &Implementation, tmp: &Path) -> Scope {
    suite_scope(tmp)
        .with("impl", imp.name.clone())
        .with_all(imp.vars.iter().map(|(k, v)| (k, v)))
}

/// Files that depend on the parameters only (payload files, expected
/// outputs): the parameters and `{tmp}`.
pub(super) fn params_scope(params: &Params, tmp: &Path) -> Scope {
    Scope::new().with_all(params.iter()).with("tmp", path(tmp))
}

/// The files a cell's command reads and writes.
pub(super) struct CellFiles<'a> {
    pub payload: Option<&'a Path>,
    pub input: Option<&'a Path>,
    pub out: &'a Path,
    pub tmp: &'a Path,
    /// `(operation, its output file)` for every earlier operation.
    pub earlier: Vec<(String, std::path::PathBuf)>,
}

/// A cell's command: parameters (and `{<param>.label}`, the label of a
/// labelled value), the group's variables (after overrides), the
/// implementation's variables, and the cell's files.
pub(super) fn cell_scope(group: &Group, imp: &Implementation, operation: &str, files: &CellFiles) -> Scope {
    let optional = |p: Option<&Path>| p.map(path).unwrap_or_default();
    Scope::new()
        .with_all(group.values.iter())
        .with_all(group.params.iter().map(|(k, label)| (format!("{k}.label"), label)))
        .with_all(group.vars.iter())
        .with_all(imp.vars.iter().map(|(k, v)| (k, v)))
        .with("payload", optional(files.payload))
        .with("in", optional(files.input))
        .with("out", path(files.out))
        .with("tmp", path(files.tmp))
        .with("impl", imp.name.clone())
        .with("op", operation)
        .with_all(files.earlier.iter().map(|(op, p)| (format!("{op}.out"), path(p))))
}

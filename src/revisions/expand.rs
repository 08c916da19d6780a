//! `--rev` turns each implementation built from a repository into one
//! column per revision, `<name>@<label>`, the way `variants` turn one into
//! `<name>-<variant>`: a copy of the implementation whose own placeholders
//! say where its checkout is (`{checkout}`) and which commit it holds
//! (`{rev}`). Implementations taken as they are (no `repo`, no `build`) do
//! not depend on the revision and stay one column. Without `--rev`, an
//! implementation with a build is the work tree as it is.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::{cache, git};
use crate::base::placeholder::Scope;
use crate::results::RevisionInfo;
use crate::suite::{Implementation, RevisionTag, Suite};

/// `--rev`: a revision, with the label its columns take (`LABEL=REV`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevArg {
    pub label: Option<String>,
    pub rev: String,
}

/// Whether `s` may name a column: letters, digits, `.`, `_`, `-`, `#`.
fn is_label(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '#'))
}

/// Parses `--rev REV` or `--rev LABEL=REV`.
pub(crate) fn parse_rev(s: &str) -> Result<RevArg, String> {
    if let Some((label, rev)) = s.split_once('=')
        && is_label(label)
    {
        if rev.is_empty() {
            return Err(format!("'{s}': no revision after '='"));
        }
        return Ok(RevArg {
            label: Some(label.to_string()),
            rev: rev.to_string(),
        });
    }
    if s.trim().is_empty() {
        return Err("an empty revision".into());
    }
    Ok(RevArg {
        label: None,
        rev: s.to_string(),
    })
}

/// Each revision's label: the one given, else the revision with every
/// character a name cannot hold made `-` (`origin/main` → `origin-main`).
/// A label given twice (`--rev A --rev A`) is numbered: `A`, `A#2`.
pub(super) fn labels(revs: &[RevArg]) -> Vec<RevisionInfo> {
    let mut out: Vec<RevisionInfo> = Vec::new();
    for r in revs {
        let base = r.label.clone().unwrap_or_else(|| {
            r.rev
                .chars()
                .map(|c| if is_label(&c.to_string()) && c != '#' { c } else { '-' })
                .collect()
        });
        let mut label = base.clone();
        let mut n = 1;
        while out.iter().any(|o| o.label == label) {
            n += 1;
            label = format!("{base}#{n}");
        }
        out.push(RevisionInfo {
            label,
            rev: r.rev.clone(),
        });
    }
    out
}

/// The build command with `{checkout}` left as written: what identifies a build.
pub(super) fn keyed_argv(imp: &Implementation, commit: &str) -> Result<Option<Vec<String>>> {
    let Some(cmd) = imp.build.as_ref().and_then(|b| b.command.as_ref()) else {
        return Ok(None);
    };
    let scope = own_scope(imp).with("checkout", "{checkout}").with("rev", commit);
    Ok(Some(scope.command(cmd).map_err(|e| anyhow::anyhow!("{e}"))?))
}

/// The implementation's own placeholders (its vars, checkout and rev included).
pub(super) fn own_scope(imp: &Implementation) -> Scope {
    Scope::new().with_all(imp.vars.iter().map(|(k, v)| (k, v)))
}

/// Replaces every implementation built from a repository by its columns
/// at `revs` (or, without revisions, points it at its work tree), and
/// renames the suite's baseline and references to the first revision's
/// column. Returns the revisions with their labels.
pub(crate) fn expand(suite: &mut Suite, revs: &[RevArg], cache_dir: &Path) -> Result<Vec<RevisionInfo>> {
    let infos = labels(revs);
    let mut tops: HashMap<PathBuf, PathBuf> = HashMap::new();
    let mut commits: HashMap<(PathBuf, String), String> = HashMap::new();
    let mut out = Vec::new();
    let mut revisioned = false;
    for mut imp in std::mem::take(&mut suite.implementations) {
        let Some(build) = imp.build.as_mut() else {
            out.push(imp);
            continue;
        };
        let top = match tops.get(&build.repo) {
            Some(t) => t.clone(),
            None => {
                let t = git::toplevel(&build.repo).with_context(|| format!("implementations.{}.repo", imp.declared))?;
                tops.insert(build.repo.clone(), t.clone());
                t
            }
        };
        build.repo = top.clone();
        if infos.is_empty() {
            let head = git::head(&top).unwrap_or_default();
            imp.vars.push(("checkout".into(), top.display().to_string()));
            imp.vars.push(("rev".into(), head));
            out.push(imp);
            continue;
        }
        if !revisioned {
            crate::base::private::trusted(cache_dir)
                .with_context(|| format!("implementations.{}: cannot cache its builds", imp.declared))?;
        }
        revisioned = true;
        for info in &infos {
            let key = (top.clone(), info.rev.clone());
            let commit = match commits.get(&key) {
                Some(c) => c.clone(),
                None => {
                    let c = git::commit_of(&top, &info.rev).with_context(|| format!("--rev {}", info.rev))?;
                    commits.insert(key, c.clone());
                    c
                }
            };
            let keyed = keyed_argv(&imp, &commit).with_context(|| format!("implementations.{}.build", imp.declared))?;
            let entry = cache::entry(cache_dir, &top, &commit, keyed.as_deref(), &imp.env);
            let mut column = imp.clone();
            column.name = format!("{}@{}", imp.name, info.label);
            column
                .vars
                .push(("checkout".into(), cache::checkout_of(&entry).display().to_string()));
            column.vars.push(("rev".into(), commit.clone()));
            column.revision = Some(RevisionTag {
                of: imp.name.clone(),
                label: info.label.clone(),
                commit,
            });
            out.push(column);
        }
    }
    if !infos.is_empty() && !revisioned {
        bail!(
            "--rev: no implementation of {} is built from a repository; give one `build = \"...\"` (and `repo`, when it is not the suite's own): see docs/suite-format.md#revisions",
            suite.path.display()
        );
    }
    suite.implementations = out;
    if let Some(dup) = duplicate(&suite.implementations) {
        bail!(
            "two implementations are named '{dup}' once the revisions are added: rename one, or label the revisions (--rev LABEL=REV)"
        );
    }
    if let Some(first) = infos.first() {
        let rename = |name: &mut String| {
            if !suite.implementations.iter().any(|i| &i.name == name) {
                *name = format!("{name}@{}", first.label);
            }
        };
        if let Some(b) = suite.baseline.as_mut() {
            rename(b);
        }
        for op in &mut suite.operations {
            if let Some(r) = op.reference.as_mut() {
                rename(r);
            }
        }
    }
    Ok(infos)
}

fn duplicate(imps: &[Implementation]) -> Option<&str> {
    imps.iter()
        .enumerate()
        .find(|(i, a)| imps[..*i].iter().any(|b| b.name == a.name))
        .map(|(_, a)| a.name.as_str())
}

/// The column `name` means: itself, or for an implementation measured at
/// revisions, its column at the first revision (`--baseline gzip`).
pub(crate) fn column_name(suite: &Suite, name: &str) -> String {
    if suite.implementations.iter().any(|i| i.name == name) {
        return name.to_string();
    }
    suite
        .implementations
        .iter()
        .find(|i| i.unrevised() == name)
        .map_or_else(|| name.to_string(), |i| i.name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(s: &str) -> RevArg {
        parse_rev(s).unwrap()
    }

    #[test]
    fn labels_are_given_or_made_from_the_revision_and_never_repeat() {
        let revs = [
            arg("main"),
            arg("origin/main"),
            arg("HEAD~3"),
            arg("main"),
            arg("new=HEAD"),
        ];
        let labels: Vec<String> = labels(&revs).into_iter().map(|i| i.label).collect();
        assert_eq!(labels, ["main", "origin-main", "HEAD-3", "main#2", "new"]);
        assert_eq!(arg("base=abc").rev, "abc");
        // '=' inside a revision that is no label stays part of it.
        assert_eq!(arg(":/fix a=b").label, None);
        assert!(parse_rev("x=").is_err() && parse_rev(" ").is_err());
    }
}

//! Writing the site: a page is written only when its bytes differ from the
//! file already there, so re-publishing after one new run rewrites only the
//! pages that run changed (and a static host or a sync sees only those);
//! reports of runs no longer among a suite's last are removed. The site's
//! own files are all it touches: only `index.html`, `suites/` and
//! `reports/` under the folder, and of those only files versus wrote (its
//! generator line in the head, `layout::MARK`): a file of the same name
//! that versus did not write is never overwritten (the publish stops,
//! naming it) and never removed.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};

use super::Page;
use super::layout::MARK;
use super::paths;

/// Whether `bytes` are a page versus wrote: its generator line within the head.
fn ours(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    head.windows(MARK.len()).any(|w| w == MARK.as_bytes())
}

/// What a publish did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Published {
    /// Pages of the site.
    pub pages: usize,
    /// Of those, written now (new or changed).
    pub written: usize,
    /// Files of pages no longer in the site, removed.
    pub removed: usize,
}

/// Writes `page` under `dir` unless the file there has the same bytes; true when written.
pub(crate) fn write_page(dir: &Path, page: &Page) -> Result<bool> {
    let path = dir.join(&page.path);
    if let Ok(old) = fs::read(&path) {
        if old == page.html.as_bytes() {
            return Ok(false);
        }
        if !ours(&old) {
            bail!(
                "{} is not a page versus wrote; versus site will not overwrite it (publish into an empty folder, or one versus site made)",
                path.display()
            );
        }
    }
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).with_context(|| format!("cannot create the folder {}", parent.display()))?;
    }
    // Written aside and renamed: a reader (or a host serving the folder) never sees half a page.
    let aside = path.with_extension("html.part");
    fs::write(&aside, &page.html).with_context(|| format!("cannot write {}", aside.display()))?;
    fs::rename(&aside, &path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(true)
}

/// Removes the site's HTML files under `dir` that are not in `keep` (site
/// paths) and that versus wrote.
pub(crate) fn remove_others(dir: &Path, keep: &HashSet<String>) -> Result<usize> {
    let mut removed = 0;
    for top in ["suites", paths::REPORTS] {
        removed += remove_under(dir, Path::new(top), keep)?;
    }
    Ok(removed)
}

fn remove_under(root: &Path, rel: &Path, keep: &HashSet<String>) -> Result<usize> {
    let Ok(entries) = fs::read_dir(root.join(rel)) else {
        return Ok(0);
    };
    let mut removed = 0;
    for entry in entries {
        let entry = entry?;
        let name = rel.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            removed += remove_under(root, &name, keep)?;
        } else if name.extension().is_some_and(|e| e == "html") {
            let site_path = name.to_string_lossy().replace('\\', "/");
            if !keep.contains(&site_path) && fs::read(root.join(&name)).is_ok_and(|b| ours(&b)) {
                fs::remove_file(root.join(&name)).with_context(|| format!("cannot remove {}", name.display()))?;
                removed += 1;
            }
        }
    }
    Ok(removed)
}

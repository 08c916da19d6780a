//! The shell every page of the site shares: its head, one small inline
//! style sheet, and a line of links back up (the index, the suite). No
//! script and nothing fetched: the page reads the same from a static host
//! and from disk. The page carries no time of its own, so the same history
//! renders the same bytes (what lets `publish` skip unchanged pages).

use crate::base::sink::html;

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#222}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}\
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}\
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\
.slower{color:#b00020}.faster{color:#006b3c}.muted{color:#666}\
nav{font-size:.9em;margin-bottom:1em}code{background:#f4f4f4;padding:0 .2em}svg{max-width:100%;height:auto}";

/// What every page versus writes carries in its head, site pages and
/// reports alike (`report.html.j2`): `publish` overwrites or removes only
/// files that have it.
pub(crate) const GENERATOR: &str = "<meta name=\"generator\" content=\"versus site\">";

/// The mark `GENERATOR` and the reports' own generator line share.
pub(crate) const MARK: &str = "<meta name=\"generator\" content=\"versus";

/// A whole page: `title` (plain text, escaped here), `crumbs` (links back
/// up, as (href, text), both plain), and `body` (markup, already escaped).
pub(crate) fn page(title: &str, crumbs: &[(String, String)], body: &str) -> String {
    let nav: Vec<String> = crumbs
        .iter()
        .map(|(href, text)| format!("<a href=\"{}\">{}</a>", html(href), html(text)))
        .collect();
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">{GENERATOR}\
<title>{}</title><style>{STYLE}</style></head><body>\n<nav>{}</nav>\n<h1>{}</h1>\n{body}\n</body></html>\n",
        html(title),
        nav.join(" › "),
        html(title)
    )
}

/// A table: header cells and rows of cells, all markup already escaped;
/// columns listed in `numeric` are right-aligned.
pub(crate) fn table(header: &[&str], rows: &[Vec<String>], numeric: &[usize]) -> String {
    let class = |k: usize| if numeric.contains(&k) { " class=\"n\"" } else { "" };
    let mut out = String::from("<table><thead><tr>");
    for (k, h) in header.iter().enumerate() {
        out.push_str(&format!("<th{}>{}</th>", class(k), html(h)));
    }
    out.push_str("</tr></thead><tbody>\n");
    for row in rows {
        out.push_str("<tr>");
        for (k, cell) in row.iter().enumerate() {
            out.push_str(&format!("<td{}>{cell}</td>", class(k)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    out
}

/// A link: `href` and `text` plain, escaped here.
pub(crate) fn a(href: &str, text: &str) -> String {
    format!("<a href=\"{}\">{}</a>", html(href), html(text))
}

/// A commit as shown: its first 12 characters, or "—".
pub(crate) fn commit(c: Option<&str>) -> String {
    c.map_or_else(|| "—".to_string(), |c| html(&c.chars().take(12).collect::<String>()))
}

/// A ratio as a signed percentage, with its direction's class.
pub(crate) fn change(ratio: f64) -> String {
    let class = if ratio > 1.0 { "slower" } else { "faster" };
    format!("<span class=\"{class}\">{:+.1}%</span>", (ratio - 1.0) * 100.0)
}

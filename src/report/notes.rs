//! The author's notes: a Markdown file given to `versus report --notes`,
//! shown after the summary of both reports. A suite's description says what
//! was meant to be measured; notes say what the author found in the figures
//! of this run (a surprise, a caveat), so the report carries its own reading.
//!
//! The HTML form is rendered with pulldown-cmark and made safe for a page
//! that must never run or fetch anything: raw HTML is shown as text, images
//! become their alt text, and links keep only http(s), fragment or relative
//! targets. The Markdown report includes the notes as prose, like the
//! suite's description (`markdown::escape_prose`).

use pulldown_cmark::{CowStr, Event, Parser, Tag, TagEnd, html};

fn safe_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    match lower.split_once(':') {
        // A scheme before any slash, '?' or '#': only the web's own.
        Some((scheme, _)) if !scheme.contains(['/', '?', '#']) => scheme == "http" || scheme == "https",
        _ => true,
    }
}

/// The notes as an HTML fragment, safe to insert into the report.
pub fn to_html(markdown: &str) -> String {
    // An image's alt text arrives as text events between its start and end,
    // so dropping those two leaves the alt text in place.
    let events = Parser::new(markdown).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => None,
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let dest_url = if safe_url(&dest_url) {
                dest_url
            } else {
                CowStr::from("#")
            };
            Some(Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }))
        }
        other => Some(other),
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_is_rendered_and_nothing_can_run_or_fetch() {
        let html = to_html(
            "**SunJCE** is faster: `35x`.\n\n<script>alert(1)</script>\n\n![chart](http://example.invalid/x.png)\n\n[ok](#summary) [bad](javascript:alert(1)) [web](https://example.invalid/)",
        );
        assert!(html.contains("<strong>SunJCE</strong>") && html.contains("<code>35x</code>"));
        assert!(!html.contains("<script>") && html.contains("&lt;script&gt;"));
        assert!(!html.contains("<img") && html.contains("chart"));
        assert!(html.contains(r##"href="#summary""##) && html.contains(r#"href="https://example.invalid/""#));
        assert!(!html.contains("javascript:"));
    }
}

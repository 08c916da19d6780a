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

/// The author's Markdown with the same rules as `to_html` applied in the
/// source: a link whose target is not safe, and every image, is replaced by
/// its text. The Markdown report includes descriptions and notes as prose, so
/// a `javascript:` link must not survive there either.
pub(crate) fn safe_markdown(markdown: &str) -> String {
    let mut cut: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut inside: Option<(std::ops::Range<usize>, String)> = None;
    for (event, range) in Parser::new(markdown).into_offset_iter() {
        match event {
            Event::Start(Tag::Image { .. }) if inside.is_none() => inside = Some((range, String::new())),
            Event::Start(Tag::Link { dest_url, .. }) if inside.is_none() && !safe_url(&dest_url) => {
                inside = Some((range, String::new()));
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, label)) = inside.as_mut() {
                    label.push_str(&t);
                }
            }
            Event::End(TagEnd::Image | TagEnd::Link) => {
                if let Some((r, label)) = inside.take_if(|(r, _)| r.end == range.end) {
                    cut.push((r, label));
                }
            }
            _ => {}
        }
    }
    let mut out = markdown.to_string();
    for (range, label) in cut.into_iter().rev() {
        out.replace_range(range, &label.replace(['[', ']', '(', ')'], ""));
    }
    out
}

/// The notes as an HTML fragment, safe to insert into the report.
pub(crate) fn to_html(markdown: &str) -> String {
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

    #[test]
    fn unsafe_links_and_images_leave_only_their_text_in_markdown() {
        let md = safe_markdown(
            "See [the run](javascript:alert(1)), ![x](data:image/png;base64,AAAA) and [docs](https://example.invalid/) or [here](#summary).",
        );
        assert!(!md.contains("javascript:") && !md.contains("data:"), "{md}");
        assert!(
            md.contains("See the run, x and [docs](https://example.invalid/) or [here](#summary)."),
            "{md}"
        );
    }
}

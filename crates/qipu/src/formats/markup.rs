//! Text made safe inside HTML and XML (SVG): the one escaping rule of every
//! page and drawing qipu writes.

/// `text` made safe inside HTML and XML text and quoted attribute values:
/// `&`, `<`, `>`, `"` and `'` written as character references, U+2028 and
/// U+2029 too (some tools take them for line ends), and the control
/// characters XML does not allow (all but tab, line feed and carriage
/// return, and U+FFFE, U+FFFF) made U+FFFD.
///
/// ```
/// use qipu::formats::markup::escape;
/// assert_eq!(escape("<b>许 & \"吕\"</b>"), "&lt;b&gt;许 &amp; &quot;吕&quot;&lt;/b&gt;");
/// assert_eq!(escape("a\u{1}b\u{2028}"), "a\u{FFFD}b&#x2028;");
/// ```
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\u{2028}' => out.push_str("&#x2028;"),
            '\u{2029}' => out.push_str("&#x2029;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c.is_control() || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

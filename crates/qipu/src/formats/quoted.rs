//! DhtmlXQ and DHJHtmlXQ blocks quoted in another format's text: what is
//! left of a text for telling its format once the parts where its own
//! format holds free text are blanked, so that a block quoted in a JSON
//! record's string, a PGN comment or a PGN tag value does not make the
//! whole file DhtmlXQ (issue 50).
//!
//! - qipu's JSON records: every line that is a record (starts with `{`)
//!   holds text only in its strings, so it is blanked whole;
//! - a web page (a text opening with markup): nothing is blanked, its
//!   blocks are its records;
//! - any other text (PGN, PGN move text without tags, plain text): brace
//!   comments `{…}` outside blocks, and in a PGN (a text with a line of
//!   tags) its lines of tags and its `;` comments to the end of the line.
//!
//! A block met outside a comment is passed over whole, to its closing tag
//! (or the end): a brace or a `;` in a genuine block's comments opens
//! nothing.

use std::borrow::Cow;

use super::pgn;

/// `text` with the parts where its own format holds free text blanked
/// (each byte a space, line ends kept), as the [module docs](self) tell;
/// borrowed when nothing is blanked.
pub(crate) fn unquoted(text: &str) -> Cow<'_, str> {
    if is_json(text) {
        return blank_json_lines(text);
    }
    if starts_with_markup(text) {
        return Cow::Borrowed(text);
    }
    blank_comments(text, pgn::has_tags(text))
}

/// A JSON text with its record lines blanked.
fn blank_json_lines(text: &str) -> Cow<'_, str> {
    let mut out = text.as_bytes().to_vec();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start_matches('\u{feff}').trim_start().starts_with('{') {
            blank(&mut out[start..start + line.len()]);
        }
        start += line.len();
    }
    into_text(out)
}

/// A text with its brace comments outside blocks blanked, and, for a PGN
/// (`pgn`), its lines of tags and `;` comments.
fn blank_comments(text: &str, pgn: bool) -> Cow<'_, str> {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut line_start = 0;
    let mut i = 0;
    while i < b.len() {
        if i == line_start {
            let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
            if pgn && pgn::is_tag_line(&text[i..end]) {
                blank(&mut out[i..end]);
                i = end;
                continue;
            }
        }
        match b[i] {
            b'\n' => {
                i += 1;
                line_start = i;
            }
            b'{' => {
                let end = memchr::memchr(b'}', &b[i..]).map_or(b.len(), |k| i + k + 1);
                blank(&mut out[i..end]);
                line_start = b[i..end].iter().rposition(|&c| c == b'\n').map_or(line_start, |k| i + k + 1);
                i = end;
            }
            b';' if pgn => {
                let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| i + k);
                blank(&mut out[i..end]);
                i = end;
            }
            b'[' => i = block_end(b, i).unwrap_or(i + 1),
            _ => i += 1,
        }
    }
    into_text(out)
}

/// Where the DhtmlXQ or DHJHtmlXQ block opening at `at` ends (after its
/// closing tag, or the end of the text), if one opens there.
fn block_end(b: &[u8], at: usize) -> Option<usize> {
    let rest = &b[at..];
    let dhj = starts_ci(rest, b"[dhjhtmlxq]");
    if !dhj && super::dhtmlxq::block_open_at(rest).is_none() {
        return None;
    }
    let closes: &[&[u8]] =
        if dhj { &[b"[/dhjhtmlxq]"] } else { &[b"[/dhtmlxq]", b"[/dhtmlxqiframe]", b"[/dhtmlxqhtml]"] };
    let end = memchr::memchr_iter(b'[', &rest[1..])
        .map(|k| k + 1)
        .find_map(|k| closes.iter().find(|c| starts_ci(&rest[k..], c)).map(|c| k + c.len()));
    Some(at + end.unwrap_or(rest.len()))
}

/// Whether `b` starts with ASCII `prefix`, ignoring ASCII case.
fn starts_ci(b: &[u8], prefix: &[u8]) -> bool {
    b.get(..prefix.len()).is_some_and(|h| h.eq_ignore_ascii_case(prefix))
}

/// Blanks `bytes`, keeping their line ends.
fn blank(bytes: &mut [u8]) {
    for c in bytes.iter_mut().filter(|c| !matches!(**c, b'\n' | b'\r')) {
        *c = b' ';
    }
}

/// Bytes blanked from a text back to text: whole characters were blanked
/// (each run starts and ends at an ASCII byte or the text's ends), so they
/// are UTF-8.
fn into_text(bytes: Vec<u8>) -> Cow<'static, str> {
    Cow::Owned(
        String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    )
}

/// Whether a text opens with markup (`<`), as web pages and XML records do.
pub(crate) fn starts_with_markup(text: &str) -> bool {
    text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']).starts_with('<')
}

/// Whether a text holds qipu's JSON records (read only with the `serde`
/// feature: without it, no text is).
pub(crate) fn is_json(text: &str) -> bool {
    #[cfg(feature = "serde")]
    {
        super::json::looks_like_json(text)
    }
    #[cfg(not(feature = "serde"))]
    {
        let _ = text;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::unquoted;

    const BLOCK: &str = "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]";

    #[test]
    fn a_quoted_block_does_not_make_a_text_dhtmlxq() {
        use crate::formats::detect::Format;
        use crate::formats::sniff::text_format;
        let block = "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]";
        assert_eq!(text_format(&format!("[Event \"x\"]\n{{see {block}}} 1. h2e2 *\n")), Format::Pgn);
        assert_eq!(text_format(&format!("{{\"tags\":[[\"Event\",\"{block}\"]]}}\n")), Format::Json);
        assert_eq!(text_format(&format!("{{intro}}\n{block}\n")), Format::Dhtmlxq);
    }

    #[test]
    fn quoted_blocks_are_blanked_and_genuine_ones_kept() {
        let pgn = format!("[Annotator \"{BLOCK}\"]\n{{see {BLOCK}}} 1. h2e2 ; {BLOCK}\n*\n");
        assert!(!unquoted(&pgn).contains("DhtmlXQ"));
        let json = format!("{{\"comment\":\"{BLOCK}\"}}\n");
        assert!(!unquoted(&json).contains("DhtmlXQ"));
        let dhj = "{x [DHJHtmlXQ][DHJHtmlXQ_1]a[/DHJHtmlXQ_1][/DHJHtmlXQ]}";
        assert!(!unquoted(dhj).contains("DHJ"));
        // A brace in a genuine block's comment opens no comment.
        let genuine = format!("[DhtmlXQ][DhtmlXQ_comment1]{{ a[/DhtmlXQ_comment1][/DhtmlXQ]\n{BLOCK}\n");
        assert_eq!(unquoted(&genuine), genuine);
        let page = format!("<html>{{ {BLOCK} }}</html>");
        assert_eq!(unquoted(&page), page);
        // PGN games followed by a block.
        let after = format!("[Event \"x\"]\n1. h2e2 *\n\n{BLOCK}\n");
        assert!(unquoted(&after).contains(BLOCK));
    }
}

//! Tags kept in the comment about the game: where a format has no field
//! for a tag (XQF has none for `Round`, DhtmlXQ none for `White`), qipu
//! writes it as a line `[Name "value"]` at the end of the game's first
//! comment, as PGN writes a tag, and reads such lines back as tags.
//!
//! The lines are the comment's last lines, after its own text and one line
//! break: `Name` letters and digits (of any script), `_` and `-`; `\` and
//! `"` in the value written `\\` and `\"`. A reader takes them only when every one of
//! the last lines is such a line, names a tag the record does not have
//! already and is not `FEN` or `Result`; else the comment is left as it is.
//! A comment whose own last line would read as a tag line gets `［` in
//! place of its `[` when written, so that it does not.

use std::borrow::Cow;

use crate::formats::written::WriteWarning;
use crate::record::Record;

/// Whether `name` can be written as a tag line: a name PGN reads.
pub(crate) fn is_name(name: &str) -> bool {
    crate::formats::pgn::write::is_tag_name(name)
}

/// Tags a reader never takes from the comment: they bear on the replay.
fn refused(name: &str) -> bool {
    name.eq_ignore_ascii_case("FEN") || name.eq_ignore_ascii_case("Result")
}

/// Whether a tag can be kept in the comment: its name is one a line holds,
/// and not one a reader refuses.
pub(crate) fn can_hold(name: &str) -> bool {
    is_name(name) && !refused(name)
}

/// Tags no writer writes as tags, each format storing them its own way:
/// the start position (`FEN`), the result, and what a PGN file says of
/// itself (`Game`, `Format`, the notation of its moves).
pub(crate) fn stored_otherwise(name: &str) -> bool {
    ["FEN", "Result", "Game", "Format"].iter().any(|t| t.eq_ignore_ascii_case(name))
}

/// The tags of `record` that a format's fields do not hold (`held`, given
/// the name and value), to be kept in the comment about the game (each
/// value on one line); a warning for each that cannot be. Tags stored
/// otherwise ([`stored_otherwise`]) and tags without a value are neither.
pub(crate) fn unheld<'a>(
    record: &'a Record,
    held: impl Fn(&str, &str) -> bool,
    format: &'static str,
    warnings: &mut Vec<WriteWarning>,
) -> Vec<(&'a str, Cow<'a, str>)> {
    let mut kept: Vec<(&str, Cow<str>)> = Vec::new();
    for (name, value) in record.tags() {
        if stored_otherwise(name) || value.trim().is_empty() || held(name, value) {
            continue;
        }
        if !can_hold(name) {
            warnings.push(WriteWarning::TagNameUnwritable { tag: name.clone(), format });
        } else if kept.iter().any(|(k, _)| k.eq_ignore_ascii_case(name)) {
            // A second tag of the name: a reader keeps one.
            warnings.push(WriteWarning::TagLeftOut { tag: name.clone(), format });
        } else {
            kept.push((name, crate::formats::clean::one_line(value)));
        }
    }
    kept
}

/// The comment about the game as it is written: `comment` (guarded so that
/// its own last line does not read as a tag), then a line per tag of
/// `tags`. `None` when there is nothing to write.
pub(crate) fn append(comment: Option<&str>, tags: &[(&str, Cow<'_, str>)]) -> Option<String> {
    let comment = comment.filter(|c| !c.is_empty()).map(guard);
    if tags.is_empty() {
        return comment;
    }
    let mut out = comment.unwrap_or_default();
    for (k, (name, value)) in tags.iter().enumerate() {
        if k > 0 || !out.is_empty() {
            out.push('\n');
        }
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        for c in value.chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push_str("\"]");
    }
    Some(out)
}

/// `comment` with the `[` of its last line made full-width when that line
/// would read as a tag line.
/// Looked at as a reader sees it: line breaks as `\n`, control characters
/// as spaces (and then so written).
fn guard(comment: &str) -> String {
    let cleaned = crate::formats::clean::lines(comment);
    let text = cleaned.trim_end();
    let start = text.rfind('\n').map_or(0, |i| i + 1);
    if parse_line(&text[start..]).is_none() {
        return comment.to_string();
    }
    let mut out = String::with_capacity(cleaned.len() + 2);
    out.push_str(&cleaned[..start]);
    out.push('［');
    out.push_str(&cleaned[start + 1..]);
    out
}

/// The name and value of a tag line, `[Name "value"]`.
fn parse_line(line: &str) -> Option<(&str, String)> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, quoted) = inner.split_once(' ')?;
    if !is_name(name) {
        return None;
    }
    let body = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('\\' | '"')) => value.push(e),
                _ => return None,
            },
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name, value))
}

/// The tag lines at the end of `comment`, for a record whose tags are
/// told by `has`: the length of the comment's own text before them (`None`
/// when the lines are all of it) and the tags; `None` when the comment does
/// not end with tag lines that may be taken.
#[allow(clippy::type_complexity)]
pub(crate) fn split(
    comment: &str,
    has: impl Fn(&str) -> bool,
) -> Option<(Option<usize>, Vec<(String, String)>)> {
    let text = comment.trim_end();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut start = text.len();
    loop {
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let Some((name, value)) = parse_line(&text[line_start..start]) else { break };
        if refused(name) || has(name) || tags.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
            return None;
        }
        tags.push((name.to_string(), value));
        start = line_start;
        if start == 0 {
            break;
        }
        // Before the line break that ends the line before.
        start -= 1;
    }
    if tags.is_empty() {
        return None;
    }
    tags.reverse();
    // `start` is the end of the text before the lines, or 0 when the lines
    // are all of the comment.
    let kept = (start > 0).then_some(start);
    Some((kept, tags))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(tags: &[(&'static str, &'static str)]) -> Vec<(&'static str, Cow<'static, str>)> {
        tags.iter().map(|&(n, v)| (n, Cow::Borrowed(v))).collect()
    }

    fn back(comment: &str) -> (Option<String>, Vec<(String, String)>) {
        match split(comment, |_| false) {
            Some((kept, tags)) => (kept.map(|n| comment[..n].to_string()), tags),
            None => (Some(comment.to_string()), Vec::new()),
        }
    }

    #[test]
    fn tags_come_back_from_the_comment() {
        let tags = [("Round", "3"), ("White", "a \"b\" \\ c"), ("Opening", "中炮对屏风马")];
        let written = append(Some("开局\n好"), &lines(&tags)).unwrap();
        assert_eq!(
            written,
            "开局\n好\n[Round \"3\"]\n[White \"a \\\"b\\\" \\\\ c\"]\n[Opening \"中炮对屏风马\"]"
        );
        let (kept, read) = back(&written);
        assert_eq!(kept.as_deref(), Some("开局\n好"));
        let read: Vec<(&str, &str)> = read.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(read, tags);
        // No comment of its own.
        let only = append(None, &lines(&tags[..1])).unwrap();
        assert_eq!(back(&only), (None, vec![("Round".to_string(), "3".to_string())]));
        // A comment ending with a line break keeps it.
        let (kept, _) = back(&append(Some("a\n"), &lines(&tags[..1])).unwrap());
        assert_eq!(kept.as_deref(), Some("a\n"));
    }

    #[test]
    fn a_comment_that_looks_like_tags_is_kept_as_it_is() {
        // Its last line guarded when written, so it is not taken.
        let comment = "看 [Round \"3\"]\n[Round \"3\"]";
        let written = append(Some(comment), &[]).unwrap();
        assert_eq!(written, "看 [Round \"3\"]\n［Round \"3\"]");
        assert_eq!(back(&written), (Some(written.clone()), Vec::new()));
        let written = append(Some(comment), &lines(&[("Elo", "1")])).unwrap();
        assert_eq!(back(&written).1, vec![("Elo".to_string(), "1".to_string())]);
        // Lines naming a tag the record has, or the start, are not taken.
        assert!(split("[Red \"a\"]", |n| n == "Red").is_none());
        assert!(split("[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w\"]", |_| false).is_none());
        assert!(split("[A \"1\"]\n[A \"2\"]", |_| false).is_none());
        assert!(split("[A \"1\" ]", |_| false).is_none());
        assert!(split("[A \"1\\x\"]", |_| false).is_none());
        assert!(split("text", |_| false).is_none());
    }
}

//! Writing a record as a 鹏飞 PFC document.

use std::fmt::Write;

use crate::formats::dhtmlxq::TAGS;
use crate::formats::tag_lines;
use crate::formats::written::WriteWarning;
use crate::record::{MoveText, NodeId, Record};

/// Why a record cannot be written as a PFC document.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The start position cannot be read (its FEN does not parse), and a
    /// document stores one.
    #[error("the start position cannot be read, and PFC stores one")]
    NoStart,
    /// A move, stored as this text, did not replay, and a document stores
    /// coordinates.
    #[error("the move {0} did not replay; PFC stores coordinates")]
    NotReplayed(String),
    /// The node of this index is not the root and holds no move.
    #[error("node {0} holds no move, and PFC stores one for each node")]
    NoMove(usize),
}

/// Writes `record`, as its replay settled it, as one PFC document in
/// UTF-8 (its declaration says so), as vschess writes them: the start FEN,
/// the result (`win`), the comment about the game and the fields on the
/// root, then the tree, each node's main continuation first and marked
/// `default="true"`.
///
/// Tags with a field (those DhtmlXQ names, the date as `create-time`, and
/// `PFC_name` as `name`) are written; other tags are kept as lines of the
/// comment about the game (docs/formats.md, "What a conversion keeps"). A
/// comment before a move is put ahead of the comment after it, and
/// annotation glyphs become the marks `!`, `?`, `!!`, `??`, `!?`, `?!` at
/// its end. Values are escaped as XML (line breaks as `&#10;`,
/// so that XML readers keep them). The tree is written with a stack, any
/// depth.
///
/// # Errors
///
/// A [`WriteError`] when the start position cannot be read or a move did
/// not replay and is stored as text.
///
/// ```
/// use qipu::formats::{pfc, pgn};
/// let record = &pgn::read("[Red \"许银川\"]\n1. 炮二平五 {中炮} 马８进７ (1... 象３进５) *")[0];
/// let text = pfc::write(record).unwrap();
/// assert!(text.contains("<n m=\"h2e2\" c=\"中炮\" default=\"true\">"), "{text}");
/// let back = pfc::read(&text).unwrap();
/// assert_eq!((back.tag("Red"), back.tree().variation_count()), (Some("许银川"), 1));
/// ```
pub fn write(record: &Record) -> Result<String, WriteError> {
    write_with_warnings(record).map(|(document, _)| document)
}

/// As [`write()`], with what PFC could not keep: tags PFC has no field
/// for are kept as lines of the comment about the game
/// (docs/formats.md, "What a conversion keeps"), and a tag that cannot be is
/// a warning.
///
/// # Errors
///
/// As [`write()`].
pub fn write_with_warnings(record: &Record) -> Result<(String, Vec<WriteWarning>), WriteError> {
    let mut warnings = Vec::new();
    let lines = tag_lines::unheld(record, |key, _| field(key).is_some(), "PFC", &mut warnings);
    let resolution = &record.replayed().resolution;
    let Some(start) = &resolution.setup else { return Err(WriteError::NoStart) };
    let tree = record.tree();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<n version=\"2\"");
    let result = record.result().map_or("*", |r| r.as_str());
    let _ = write!(out, " win=\"{result}\" m=\"{}\" c=\"", escape(&start.to_fen()));
    let about = tag_lines::append(Some(&comment_of(record, tree.root())), &lines);
    out.push_str(&escape(&about.unwrap_or_default()));
    out.push('"');
    // An element holds an attribute once: a second tag of a field's name
    // would make the document unreadable.
    let mut written: Vec<&str> = Vec::new();
    for (key, value) in record.tags() {
        let Some(name) = field(key) else { continue };
        if value.trim().is_empty() {
            continue;
        }
        if written.contains(&name) {
            warnings.push(WriteWarning::TagLeftOut { tag: key.clone(), format: "PFC" });
            continue;
        }
        written.push(name);
        let _ = write!(out, " {name}=\"{}\"", escape(value));
    }
    if tree.children(tree.root()).next().is_none() {
        out.push_str(" />\n");
        return Ok((out, warnings));
    }
    out.push_str(">\n");
    let move_of = |id: NodeId| -> Result<String, WriteError> {
        if let Some(m) = resolution.move_of(id) {
            return Ok(m.to_string());
        }
        let Some(mv) = tree.node(id).mv.as_ref() else { return Err(WriteError::NoMove(id.index())) };
        match (mv.points(), &mv.text) {
            (Some(m), _) => Ok(m.to_string()),
            (None, MoveText::Text(t)) => Err(WriteError::NotReplayed(t.to_string())),
            (None, MoveText::Coords(m)) => Ok(m.to_string()),
        }
    };
    /// What is left to write: a node (and whether it is its parent's main
    /// continuation), or the end tag of one.
    enum Step {
        Node(NodeId, bool),
        Close,
    }
    let mut steps: Vec<Step> = Vec::new();
    let push_children = |steps: &mut Vec<Step>, id: NodeId| {
        let children: Vec<NodeId> = tree.children(id).collect();
        for (k, &child) in children.iter().enumerate().rev() {
            steps.push(Step::Node(child, k == 0));
        }
    };
    push_children(&mut steps, tree.root());
    while let Some(step) = steps.pop() {
        let (id, main) = match step {
            Step::Close => {
                out.push_str("</n>");
                continue;
            }
            Step::Node(id, main) => (id, main),
        };
        let _ = write!(out, "<n m=\"{}\" c=\"{}\"", move_of(id)?, escape(&comment_of(record, id)));
        if main {
            out.push_str(" default=\"true\"");
        }
        if tree.children(id).next().is_none() {
            out.push_str(" />");
        } else {
            out.push('>');
            steps.push(Step::Close);
            push_children(&mut steps, id);
        }
    }
    out.push_str("\n</n>\n");
    Ok((out, warnings))
}

/// The attribute that holds tag `key`, if any.
fn field(key: &str) -> Option<&str> {
    if key.eq_ignore_ascii_case("Date") {
        return Some("create-time");
    }
    if let Some(name) = key.strip_prefix("PFC_") {
        let valid = name.starts_with(|c: char| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        // Attributes a reader takes as something else: the tree's, the
        // date's, and those that hold a tag of their own.
        let structure = ["version", "win", "m", "c", "default", "result", "create-time", "date"]
            .contains(&name)
            || TAGS.iter().any(|(n, _)| *n == name);
        return (valid && !structure).then_some(name);
    }
    TAGS.iter().find(|(_, tag)| tag.eq_ignore_ascii_case(key)).map(|(name, _)| *name)
}

/// The comment before the move of `id`, the one after it and its
/// annotation glyphs as marks (`!`, `?!`), one after the other.
fn comment_of(record: &Record, id: NodeId) -> String {
    record.tree().node(id).merged_comment().unwrap_or_default()
}

/// `text` as an XML attribute value: `&`, `<`, `>` and `"` escaped, line
/// breaks and tabs as character references, other control characters
/// (which XML cannot hold) left out.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let text = text.replace("\r\n", "\n");
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' | '\r' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            c if c.is_control() && (c as u32) < 0x20 => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pgn;

    #[test]
    fn a_game_with_variations_comments_and_a_start_reads_back() {
        let text = "[Event \"a & <b>\"]\n[Date \"2001.02.03\"]\n[Opening \"中炮\"]\n[Format \"x\"]\n\
                    [FEN \"3k5/9/9/9/9/9/9/9/9/4K3R b - - 0 1\"]\n[Result \"0-1\"]\n\
                    {\"start\"\nline two} 1... d9d8 2. i0i8 {check} d8d9 (2... d8d7 {x} 3. i8i7 (3. e0f0)) 3. e0f0 0-1";
        let record = &pgn::read(text)[0];
        let written = write(record).unwrap();
        assert!(written.contains("event=\"a &amp; &lt;b&gt;\""), "{written}");
        assert!(written.contains("create-time=\"2001.02.03\" open=\"中炮\""), "{written}");
        assert!(!written.contains("Format"), "{written}");
        assert!(written.contains("c=\"&quot;start&quot;&#10;line two\""), "{written}");
        let back = crate::formats::pfc::read(&written).unwrap();
        let moves = |r: &Record| {
            let text = pgn::write(r, crate::notation::Notation::Iccs);
            text.lines().filter(|l| !l.starts_with('[')).collect::<Vec<_>>().join("\n")
        };
        assert_eq!(moves(&back), moves(record));
        for tag in ["Event", "Date", "Opening", "Result", "FEN"] {
            assert_eq!(back.tag(tag), record.tag(tag), "{tag}");
        }
    }

    #[test]
    fn a_move_that_does_not_replay_is_an_error() {
        let record = &pgn::read("1. h2e2 xyz *")[0];
        assert_eq!(write(record), Err(WriteError::NotReplayed("xyz".into())));
        let empty = &pgn::read("[Event \"e\"]\n*")[0];
        assert!(write(empty).unwrap().ends_with("c=\"\" event=\"e\" />\n"));
    }

    #[test]
    fn a_deep_tree_is_written_without_recursion() {
        let mut text = String::from("[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n");
        for _ in 0..20_000 {
            text.push_str("d0d1 e9e8 d1d0 e8e9 ");
        }
        let record = &pgn::read(&text)[0];
        let written = write(record).unwrap();
        let back = crate::formats::pfc::read(&written).unwrap();
        assert_eq!(back.tree().main_line().count(), 80_000);
    }
}

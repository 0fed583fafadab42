//! Writing a record as a DhtmlXQ block.

use crate::formats::tag_lines;
use crate::formats::written::WriteWarning;
use crate::record::{GameResult, MoveText, NodeId, Record};
use crate::{Board, Piece, Square};

use super::{TAGS, find_ci, starts_with_ci};

/// Why a record cannot be written as a DhtmlXQ block.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The start position cannot be read (its FEN does not parse), and a
    /// block stores a board.
    #[error("the start position cannot be read, and DhtmlXQ stores a board")]
    NoStart,
    /// The start position holds more of this piece than `binit` has slots
    /// for.
    #[error("the start position has more {} {}s than binit holds", .0.color.name(), .0.role.name())]
    TooManyPieces(Piece),
    /// A move, stored as this text, did not replay, and a block stores
    /// points.
    #[error("the move {0} did not replay; DhtmlXQ stores points")]
    NotReplayed(String),
    /// The node of this index is not the root and holds no move (it was
    /// taken away with [`crate::record::MoveTree::node_mut`]).
    #[error("node {0} holds no move, and DhtmlXQ stores one for each node")]
    NoMove(usize),
}

/// Writes `record`, as its replay settled it, as one `[DhtmlXQ]` block.
///
/// Every move must have replayed or be stored as points. A comment before
/// a move is put ahead of the comment after it, annotation glyphs become
/// `!`, `?`, `!!`, `??`, `!?`, `?!` at the end of the comment, line breaks
/// become `||`, and a `[` that would open or close a DhtmlXQ tag becomes
/// `［` (DhtmlXQ has no escape).
///
/// # Errors
///
/// A [`WriteError`] when the start position cannot be read or does not
/// fit `binit`'s 32 slots, or when a move did not replay and is stored as
/// text.
///
/// ```
/// use qipu::record::replay::replay;
/// use qipu::formats::{dhtmlxq, pgn};
/// let record = &pgn::read("[Red \"许银川\"]\n1. 炮二平五 {中炮} 马８进７ (1... 象３进５) *")[0];
/// let block = dhtmlxq::write(record).unwrap();
/// assert!(block.contains("[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]"));
/// let back = &dhtmlxq::read(&block)[0];
/// assert_eq!(back.tree().variation_count(), 1);
/// ```
pub fn write(record: &Record) -> Result<String, WriteError> {
    write_with_warnings(record).map(|(block, _)| block)
}

/// As [`write()`], with what DhtmlXQ could not keep. Tags DhtmlXQ has no
/// tag for are kept as lines of the comment about the game
/// (docs/formats.md, "What a conversion keeps"); a `DhtmlXQ_…` tag is
/// written as that tag when it reads back the same (its name in lower
/// case, not one of a block's own tags), and is left out with a warning
/// otherwise.
///
/// # Errors
///
/// As [`write()`].
pub fn write_with_warnings(record: &Record) -> Result<(String, Vec<WriteWarning>), WriteError> {
    let mut warnings = Vec::new();
    let resolution = &record.replayed().resolution;
    use std::fmt::Write;
    let mut out = String::from("[DhtmlXQ]\n");
    let tag = |out: &mut String, name: &str, value: &str| {
        let value = crate::formats::encoding::guard_references(value);
        let _ = writeln!(out, "[DhtmlXQ_{name}]{}[/DhtmlXQ_{name}]", guard_tags(&value));
    };
    tag(
        &mut out,
        "ver",
        &crate::formats::clean::one_line(record.tag("DhtmlXQ_ver").unwrap_or("www_dpxq_com")),
    );
    for (key, value) in record.tags() {
        if key.eq_ignore_ascii_case("DhtmlXQ_ver") {
            continue;
        }
        let value = &crate::formats::clean::one_line(value);
        if let Some((name, _)) = TAGS.iter().find(|(_, k)| k.eq_ignore_ascii_case(key)) {
            tag(&mut out, name, value);
        } else if let Some(name) = own_tag(key) {
            tag(&mut out, name, value);
        }
    }
    let held = |key: &str, _: &str| {
        key.eq_ignore_ascii_case("DhtmlXQ_ver")
            || TAGS.iter().any(|(_, k)| k.eq_ignore_ascii_case(key))
            || own_tag(key).is_some()
    };
    let mut lines = Vec::new();
    for (key, value) in tag_lines::unheld(record, held, "DhtmlXQ", &mut warnings) {
        // `[DhtmlXQ_…` in a comment is made `［DhtmlXQ_…`: such a tag
        // cannot be a line either.
        if key.get(..7).is_some_and(|p| p.eq_ignore_ascii_case("DhtmlXQ")) {
            warnings.push(WriteWarning::TagNameUnwritable { tag: key.to_string(), format: "DhtmlXQ" });
        } else {
            lines.push((key, value));
        }
    }
    if let Some(result) = record.result() {
        let word = match result {
            GameResult::RedWins => "红胜",
            GameResult::BlackWins => "黑胜",
            GameResult::Draw => "和棋",
            GameResult::Unknown => "未知",
        };
        tag(&mut out, "result", word);
    }
    let Some(start) = &resolution.setup else {
        return Err(WriteError::NoStart);
    };
    if start.board != Board::start() {
        tag(&mut out, "binit", &binit(&start.board)?);
    }
    if !resolution.is_standard_start() {
        // vschess's tag: it also says who moves first when no move does, and the clocks.
        tag(&mut out, "fen", &start.to_fen());
    }
    let tree = record.tree();
    let point = |s: Square| format!("{}{}", s.file().index(), 9 - s.rank().index());
    let move_digits = |id: NodeId| -> Result<String, WriteError> {
        let m = match resolution.move_of(id) {
            Some(m) => m,
            None => {
                let Some(mv) = tree.node(id).mv.as_ref() else { return Err(WriteError::NoMove(id.index())) };
                match (mv.points(), &mv.text) {
                    (Some(m), _) => m,
                    (None, MoveText::Text(t)) => return Err(WriteError::NotReplayed(t.to_string())),
                    (None, MoveText::Coords(m)) => *m, // never: points are points
                }
            }
        };
        Ok(format!("{}{}", point(m.from), point(m.to)))
    };
    // Branches: (number, parent branch, first ply, nodes).
    let main: Vec<NodeId> = tree.main_line().collect();
    let mut branches: Vec<(usize, usize, usize, Vec<NodeId>)> = vec![(0, 0, 1, main)];
    let mut todo = vec![0usize]; // indexes into `branches` whose alternatives are still to number
    while let Some(b) = todo.pop() {
        let (number, _, first, nodes) = branches[b].clone();
        let mut found = Vec::new();
        for (i, &id) in nodes.iter().enumerate() {
            // Alternatives at a branch's own first ply hang from its parent.
            if number != 0 && i == 0 {
                continue;
            }
            let mut sibling = tree.next_sibling(id);
            while let Some(s) = sibling {
                let chain: Vec<NodeId> = std::iter::successors(Some(s), |&n| tree.main_child(n)).collect();
                found.push((first + i, chain));
                sibling = tree.next_sibling(s);
            }
        }
        // Numbered in order, so that alternatives keep their order when read.
        let from = branches.len();
        for (ply, chain) in found {
            let n = branches.len();
            branches.push((n, number, ply, chain));
        }
        todo.extend((from..branches.len()).rev());
    }
    for (number, parent, first, nodes) in &branches {
        let digits: Result<String, WriteError> = nodes.iter().map(|&id| move_digits(id)).collect();
        let digits = digits?;
        if *number == 0 {
            tag(&mut out, "movelist", &digits);
        } else {
            let name = format!("move_{parent}_{first}_{number}");
            tag(&mut out, &name, &digits);
        }
    }
    let comment = |id: NodeId| {
        let text = tree.node(id).merged_comment().unwrap_or_default();
        comment_value(&crate::formats::clean::lines(&text))
    };
    let root = tree.node(tree.root());
    let root_comment = match tag_lines::append(root.merged_comment().as_deref(), &lines) {
        Some(text) => comment_value(&crate::formats::clean::lines(&text)),
        None => String::new(),
    };
    if !root_comment.is_empty() {
        tag(&mut out, "comment0", &root_comment);
    }
    for (number, _, first, nodes) in &branches {
        for (i, &id) in nodes.iter().enumerate() {
            let c = comment(id);
            if c.is_empty() {
                continue;
            }
            let name = if *number == 0 {
                format!("comment{}", first + i)
            } else {
                format!("comment{number}_{}", first + i)
            };
            tag(&mut out, &name, &c);
        }
    }
    out.push_str("[/DhtmlXQ]\n");
    Ok((out, warnings))
}

/// The name of the DhtmlXQ tag that holds tag `key`, `DhtmlXQ_name`, when
/// a reader gives it back as `key`: `name` in lower case, not one of the
/// tags that make the block (`movelist`, `comment1`, …) nor one of those
/// that hold a PGN tag (`title` holds `Title`).
fn own_tag(key: &str) -> Option<&str> {
    let name = key.strip_prefix("DhtmlXQ_")?;
    let plain =
        !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    let structure = ["ver", "binit", "movelist", "fen", "result", "init"].contains(&name)
        || name.starts_with("move_")
        || name.starts_with("comment");
    let held = TAGS.iter().any(|(n, _)| *n == name);
    (plain && !structure && !held).then_some(name)
}

/// A comment as a DhtmlXQ value: line breaks as `||`; a `|` of the text,
/// and a `\u` that would read as an escape, written as `\u` escapes so
/// that they read back as they are.
fn comment_value(text: &str) -> String {
    let text = if text.contains('|') || text.contains("\\u") {
        text.replace("\\u", "\\u005Cu").replace('|', "\\u007C")
    } else {
        text.to_string()
    };
    text.replace('\n', "||")
}

/// `value` with each `[` that would open or close a DhtmlXQ tag made
/// full-width (`［`): DhtmlXQ has no escape, and no other `[` needs one.
fn guard_tags(value: &str) -> std::borrow::Cow<'_, str> {
    if find_ci(value, "[dhtmlxq", 0).is_none() && find_ci(value, "[/dhtmlxq", 0).is_none() {
        return value.into();
    }
    let mut out = String::with_capacity(value.len() + 8);
    for (i, c) in value.char_indices() {
        let rest = &value[i..];
        if c == '[' && (starts_with_ci(rest, "[dhtmlxq") || starts_with_ci(rest, "[/dhtmlxq")) {
            out.push('［');
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// The `binit` digits of a board: 32 points in XQF's piece order.
fn binit(board: &Board) -> Result<String, WriteError> {
    let slots = crate::formats::slots::slots_of(board).map_err(WriteError::TooManyPieces)?;
    Ok(slots
        .iter()
        .map(|s| s.map_or("99".to_string(), |s| format!("{}{}", s.file().index(), 9 - s.rank().index())))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::dhtmlxq::read;
    use crate::record::replay::replay;

    #[test]
    fn what_cannot_be_written_is_an_error() {
        let mut record = crate::formats::pgn::read("1. 炮二平五 马８进７ 2. 马九进十 *").remove(0);
        assert_eq!(write(&record), Err(WriteError::NotReplayed("马九进十".into())));
        // The move that did not replay taken away (the replay kept).
        let third = record.tree().main_line().nth(2).unwrap();
        record.tree_mut().node_mut(third).mv = None;
        assert_eq!(write(&record), Err(WriteError::NoMove(third.index())));
        let record = &crate::formats::pgn::read("[FEN \"4k4/9/9/9/9/9/9/9/RRR6/4K4 w\"]\n*")[0];
        let e = write(record).unwrap_err();
        assert_eq!(e.to_string(), "the start position has more Red rooks than binit holds");
        let record = &crate::formats::pgn::read("[FEN \"xyz\"]\n*")[0];
        assert_eq!(write(record), Err(WriteError::NoStart));
    }

    #[test]
    fn written_blocks_read_back() {
        let pgn = "[Red \"许银川\"][Event \"[甲级] [DhtmlXQ_x]\"]\n{开局}\n1. 炮二平五 {中炮\n好} 马８进７ (1... 象３进５ 2. 马二进三 (2. 兵七进一 $1)) \
                   2. 马二进三 车９平８ (2... 马２进３) 1-0";
        let record = &crate::formats::pgn::read(pgn)[0];
        let replayed = replay(record);
        let block = write(record).unwrap();
        let back = &read(&block)[0];
        assert!(back.warnings().is_empty(), "{:?}", back.warnings());
        let r2 = replay(back);
        let nodes = |r: &Record, res: &crate::record::Resolution| -> Vec<String> {
            let t = r.tree();
            t.depth_first()
                .skip(1)
                .map(|id| {
                    let place = t.children(t.node(id).parent.unwrap()).position(|c| c == id).unwrap();
                    format!("{:?} #{place} {:?}", res.move_of(id), t.node(id).comment())
                })
                .collect()
        };
        // The NAG of 兵七进一 comes back as a mark in its comment.
        let expected = nodes(record, &replayed.resolution);
        let got = nodes(back, &r2.resolution);
        assert_eq!(got.len(), expected.len());
        for (g, e) in got.iter().zip(&expected) {
            if g != e {
                assert_eq!(g.replace("Some(\"!\")", "None"), *e);
            }
        }
        assert!(got.iter().any(|l| l.ends_with("Some(\"!\")")), "{got:#?}");
        assert_eq!(back.tag("Red"), Some("许银川"));
        assert_eq!(back.tag("Event"), Some("[甲级] ［DhtmlXQ_x]"));
        assert_eq!(back.written_result(), Some(GameResult::RedWins));
        assert_eq!(back.tree().node(back.tree().root()).comment(), Some("开局"));
        let first = back.tree().main_line().next().unwrap();
        assert_eq!(back.tree().node(first).comment(), Some("中炮\n好"));
        assert_eq!(back.tree().variation_count(), 3);
    }
}

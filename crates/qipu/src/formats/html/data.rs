//! A game's data as the viewer page embeds it: one JSON object holding the
//! tags and the move tree, each move with the position after it as FEN,
//! written so that it is safe inside a `<script>` element.
//!
//! ```json
//! {"tags":[["Red","许银川"]],"result":"1-0","start":"rnbakabnr/... w - - 0 1","comment":null,
//!  "error":null,"nodes":[{"p":0,"t":"炮二平五","m":"h2e2","f":"rnbakabnr/... b - - 1 1"}]}
//! ```
//!
//! `nodes` lists the moves depth first (a move before its continuations,
//! the main continuation before the alternatives); node 0 is the start
//! position, so the first node of the list is node 1 and `p` (its parent)
//! 0. `t` is the move in the page's notation, `m` in lower-case ICCS
//! coordinates, `f` the FEN after it; `c` and `b` are the comments after
//! and before it, `a` its annotation glyphs. A move that does not replay
//! has no `m` and no `f` but `x`, why; the moves after it are left out, and
//! `k` says how many.

use crate::notation::Notation;
use crate::record::{MoveText, NodeId, Record};
use crate::{Move, Position};

/// Writes `s` as a JSON string that can stand inside an HTML `<script>`
/// element: `<`, `>` and `&` (so no `</script>` or `<!--` ever appears),
/// and U+2028 and U+2029 (line ends to JavaScript), are written as `\u`
/// escapes, as are the control characters.
pub(super) fn push_json_str(out: &mut String, s: &str) {
    use std::fmt::Write;
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if escaped_in_script(c) => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The characters a JSON string inside a `<script>` element holds as `\u`
/// escapes: `<`, `>`, `&`, U+2028, U+2029 and the control characters.
pub(super) fn escaped_in_script(c: char) -> bool {
    matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}' | '\0'..='\u{1f}' | '\u{7f}')
}

/// Writes `"key":` and the string, or nothing when there is none.
fn push_field(out: &mut String, key: &str, value: Option<&str>) {
    if let Some(v) = value {
        out.push_str(",\"");
        out.push_str(key);
        out.push_str("\":");
        push_json_str(out, v);
    }
}

/// Writes `value` as a JSON string, or `null`.
fn push_or_null(out: &mut String, value: Option<&str>) {
    match value {
        Some(v) => push_json_str(out, v),
        None => out.push_str("null"),
    }
}

/// A move in lower-case ICCS coordinates (`h2e2`).
fn coords(m: Move) -> String {
    let mut s = String::with_capacity(4);
    for sq in [m.from, m.to] {
        s.push(sq.file().char().to_ascii_lowercase());
        s.push(sq.rank().char());
    }
    s
}

/// Annotation glyphs as books print them (`!`, `?!`), others as `$N`.
fn glyphs(nags: &[u8]) -> Option<String> {
    if nags.is_empty() {
        return None;
    }
    let words: Vec<String> = nags
        .iter()
        .map(|&n| match n {
            1 => "!".to_string(),
            2 => "?".to_string(),
            3 => "!!".to_string(),
            4 => "??".to_string(),
            5 => "!?".to_string(),
            6 => "?!".to_string(),
            n => format!("${n}"),
        })
        .collect();
    Some(words.join(" "))
}

/// The game's data: one JSON object (see the module's docs), the moves
/// written in `notation`.
pub(super) fn game_json(record: &Record, notation: Notation) -> String {
    let replayed = record.replayed();
    let resolution = &replayed.resolution;
    let tree = record.tree();
    let mut out = String::with_capacity(256 + 120 * tree.len());
    out.push_str("{\"tags\":[");
    for (i, (name, value)) in record.tags().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        push_json_str(&mut out, name);
        out.push(',');
        push_json_str(&mut out, value);
        out.push(']');
    }
    out.push_str("],\"result\":");
    push_or_null(&mut out, record.result().map(|r| r.as_str()));
    out.push_str(",\"start\":");
    let start_fen = match (&resolution.start, &resolution.setup) {
        (Some(start), _) => Some(start.fen()),
        (None, Some(setup)) => Some(setup.to_fen()),
        (None, None) => None,
    };
    push_or_null(&mut out, start_fen.as_deref());
    out.push_str(",\"comment\":");
    push_or_null(&mut out, tree.node(tree.root()).comment());
    out.push_str(",\"error\":");
    let error = replayed.error.as_ref().map(ToString::to_string);
    push_or_null(&mut out, error.as_deref());
    out.push_str(",\"nodes\":[");
    if let Some(start) = &resolution.start {
        let mut first = true;
        // Depth first: (node, its parent's number in the list, its ply,
        // the position it is played in).
        let mut stack: Vec<(NodeId, usize, usize, Position)> = Vec::new();
        let push_children = |stack: &mut Vec<_>, id: NodeId, at: usize, ply: usize, pos: &Position| {
            let from = stack.len();
            stack.extend(tree.children(id).map(|c| (c, at, ply, pos.clone())));
            stack[from..].reverse();
        };
        push_children(&mut stack, tree.root(), 0, 1, start);
        let mut number = 0;
        let mut text = String::new();
        while let Some((id, parent, ply, pos)) = stack.pop() {
            number += 1;
            let node = tree.node(id);
            if first {
                first = false;
            } else {
                out.push(',');
            }
            out.push_str("{\"p\":");
            out.push_str(&parent.to_string());
            match resolution.move_of(id) {
                Some(m) => {
                    text.clear();
                    if notation.write_to(&pos, m, &mut text).is_err() {
                        // Never: a move that replayed is legal in `pos`.
                        text = coords(m);
                    }
                    let mut after = pos;
                    let _ = after.play_unchecked(m);
                    push_field(&mut out, "t", Some(&text));
                    push_field(&mut out, "m", Some(&coords(m)));
                    push_field(&mut out, "f", Some(&after.fen()));
                    push_notes(&mut out, node);
                    out.push('}');
                    push_children(&mut stack, id, number, ply + 1, &after);
                }
                None => {
                    let written = match node.mv.as_ref().map(|mv| &mv.text) {
                        Some(MoveText::Text(t)) => t.to_string(),
                        Some(MoveText::Coords(m)) => coords(*m),
                        None => String::new(),
                    };
                    let why = replayed
                        .error
                        .as_ref()
                        .filter(|e| e.ply == ply && e.text == written)
                        .map_or_else(|| "does not replay".to_string(), |e| e.message());
                    push_field(&mut out, "t", Some(&written));
                    push_field(&mut out, "x", Some(&why));
                    push_notes(&mut out, node);
                    let left_out = subtree_size(record, id) - 1;
                    if left_out > 0 {
                        out.push_str(",\"k\":");
                        out.push_str(&left_out.to_string());
                    }
                    out.push('}');
                }
            }
        }
    }
    out.push_str("]}");
    out
}

/// The comments and annotation glyphs of a node.
fn push_notes(out: &mut String, node: &crate::record::Node) {
    push_field(out, "c", node.comment());
    push_field(out, "b", node.comment_before());
    push_field(out, "a", glyphs(node.nags()).as_deref());
}

/// How many nodes `id` and those after it hold.
fn subtree_size(record: &Record, id: NodeId) -> usize {
    let tree = record.tree();
    let mut stack = vec![id];
    let mut count = 0;
    while let Some(n) = stack.pop() {
        count += 1;
        stack.extend(tree.children(n));
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pgn;
    use crate::notation::chinese::Style;

    fn json_str(s: &str) -> String {
        let mut out = String::new();
        push_json_str(&mut out, s);
        out
    }

    #[test]
    fn strings_are_safe_inside_a_script_element() {
        let hostile = "</script><!-- a & b > c \u{2028}\u{2029} \"q\" \\ \n\t\u{1}";
        let written = json_str(hostile);
        for bad in ['<', '>', '&', '\u{2028}', '\u{2029}', '\n', '\u{1}'] {
            assert!(!written.contains(bad), "{bad:?} in {written}");
        }
        assert_eq!(
            written,
            r#""\u003c/script\u003e\u003c!-- a \u0026 b \u003e c \u2028\u2029 \"q\" \\ \n\t\u0001""#
        );
    }

    #[test]
    fn each_move_holds_its_position_and_a_bad_move_ends_its_line() {
        let record = &pgn::read("1. h2e2 {中炮} h9g7 (1... b9c7 2. h0h9) 2. h0g2? *")[0];
        let json = game_json(record, Notation::Chinese(Style::Simplified));
        // Depth first: the main continuation before the alternative.
        let order: Vec<&str> =
            json.split("\"t\":\"").skip(1).map(|rest| &rest[..rest.find('"').unwrap()]).collect();
        assert_eq!(order, ["炮二平五", "马８进７", "马二进三", "马２进３", "h0h9"]);
        assert!(json.contains(r#""p":1,"t":"马２进３","m":"b9c7""#), "{json}");
        assert!(json.contains(r#"{"p":4,"t":"h0h9","x":"#), "{json}");
        assert!(json.contains(r#""t":"马二进三","m":"h0g2","f":"rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2","a":"?"}"#), "{json}");
        assert!(json.contains(r#""error":"in the variation 1... b9c7"#), "{json}");
    }
}

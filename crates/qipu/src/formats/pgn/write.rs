//! Writing records as PGN.

use crate::record::{GameResult, NodeId, Record};

/// as the full-width `｝` (a PGN comment cannot hold it).
fn braced(comment: &str) -> String {
    let text = crate::formats::clean::lines(comment).replace('}', "｝");
    let text = crate::formats::encoding::guard_references(&text).into_owned();
    let text = guard_tag_lines(&text);
    let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_whitespace());
    if edge(text.chars().next()) || edge(text.chars().next_back()) {
        format!("{{ {text} }}")
    } else {
        format!("{{{text}}}")
    }
}

/// A comment's text with the `[` of each line that would read as a line of
/// tags after an empty line (which ends a comment left open) written as
/// the full-width `［`.
fn guard_tag_lines(text: &str) -> std::borrow::Cow<'_, str> {
    // Only a comment of several lines can hold a line after an empty one
    // (empty: white space only, such as `\n    \n`).
    if !text.contains('\n') {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut after_blank = false;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if after_blank && super::is_tag_line(line) {
            out.push_str(&line.replacen('[', "［", 1));
        } else {
            out.push_str(line);
        }
        // What the reader takes for an empty line (a final `\r` is white
        // space to both).
        after_blank = super::read::is_blank(line);
    }
    out.into()
}

/// The tags qipu writes first, in this order (the xqbase order); the
/// others follow in the order they were read.
const TAG_ORDER: [&str; 15] = [
    "Game",
    "Event",
    "Round",
    "Date",
    "Site",
    "RedTeam",
    "Red",
    "BlackTeam",
    "Black",
    "Result",
    "ECCO",
    "Opening",
    "Variation",
    "FEN",
    "Format",
];

/// Writes a record as PGN with moves in `notation`, as its replay
/// ([`Record::replayed`]) settled them: tags in the xqbase order, the start
/// position as `[FEN]` when it is not the standard one, comments, NAGs and
/// variations kept. Moves that did not replay (at and after an illegal
/// move) are written as they were read.
///
/// ```
/// use qipu::formats::pgn;
/// use qipu::notation::Notation;
/// let record = &pgn::read("[Event \"x\"]\n1. h2e2 {center} h9g7 (1... b9c7) *")[0];
/// let text = pgn::write(record, Notation::Wxf);
/// assert!(text.contains("1. C2.5 {center} 1... H8+7 (1... H2+3) *"), "{text}");
/// let again = &pgn::read(&text)[0];
/// assert_eq!(again.tree().len(), record.tree().len());
/// ```
pub fn write(record: &Record, notation: crate::notation::Notation) -> String {
    let mut out = String::new();
    write_to(record, notation, &mut out);
    out
}

/// Appends the PGN of a record to `out` (see [`write()`]).
pub fn write_to(record: &Record, notation: crate::notation::Notation, out: &mut String) {
    use std::fmt::Write;
    let resolution = &record.replayed().resolution;
    let result = record.result().unwrap_or(GameResult::Unknown);
    let standard = resolution.is_standard_start();
    let value = |name: &str| -> Option<String> {
        match name {
            "Game" => Some(record.tag("Game").unwrap_or("Chinese Chess").to_string()),
            "Result" => Some(result.as_str().to_string()),
            // The placement as read, legal or not; a FEN that does not
            // parse is kept as it was written.
            "FEN" => match &resolution.setup {
                Some(setup) => (!standard || record.fen().is_some()).then(|| setup.to_fen()),
                None => record.fen().map(str::to_string),
            },
            "Format" => Some(notation.pgn_format().to_string()),
            _ => record.tag(name).map(str::to_string),
        }
    };
    for name in TAG_ORDER {
        if let Some(v) = value(name) {
            let _ = writeln!(out, "[{name} \"{}\"]", escape(&v));
        }
    }
    for (name, v) in record.tags() {
        if !TAG_ORDER.iter().any(|t| t.eq_ignore_ascii_case(name)) && is_tag_name(name) {
            let _ = writeln!(out, "[{name} \"{}\"]", escape(v));
        }
    }
    out.push('\n');
    let mut text = MovetextWriter::default();
    let tree = record.tree();
    if let Some(c) = tree.node(tree.root()).comment() {
        text.comment(c);
    }
    enum Task {
        /// The move of `id`, played from `parent` (the tree's link, not
        /// `Node::parent`, a field a caller may change) in `pos`.
        Move {
            id: NodeId,
            parent: NodeId,
            pos: Box<crate::Position>,
            force_number: bool,
        },
        /// A move that did not replay, written as read, played from
        /// `parent`.
        Raw {
            id: NodeId,
            parent: NodeId,
        },
        Open,
        Close,
    }
    let mut stack = Vec::new();
    if let Some(first) = tree.main_child(tree.root()) {
        stack.push(match &resolution.start {
            Some(start) => Task::Move {
                id: first,
                parent: tree.root(),
                pos: Box::new(start.clone()),
                force_number: true,
            },
            None => Task::Raw { id: first, parent: tree.root() },
        });
    }
    let mut word = String::new();
    while let Some(task) = stack.pop() {
        match task {
            Task::Open => text.word("("),
            Task::Close => text.word(")"),
            Task::Raw { id, parent } => {
                let node = tree.node(id);
                if let Some(c) = node.comment_before() {
                    text.comment(c);
                }
                if let Some(mv) = &node.mv {
                    match &mv.text {
                        crate::record::MoveText::Text(t) => text.word(t),
                        crate::record::MoveText::Coords(m) => text.word(&m.to_string()),
                    }
                }
                text.annotations(node);
                // As for a move replayed: its alternatives, then the line
                // goes on.
                if let Some(next) = tree.main_child(id) {
                    stack.push(Task::Raw { id: next, parent: id });
                }
                for alt in alternatives(tree, parent, id).into_iter().rev() {
                    stack.push(Task::Close);
                    stack.push(Task::Raw { id: alt, parent });
                    stack.push(Task::Open);
                }
            }
            Task::Move { id, parent, pos, force_number } => {
                let node = tree.node(id);
                let Some(m) = resolution.move_of(id) else {
                    stack.push(Task::Raw { id, parent });
                    continue;
                };
                if let Some(c) = node.comment_before() {
                    text.comment(c);
                }
                // The number and its move stay on one line: one word, built
                // in a buffer kept from move to move.
                word.clear();
                if pos.turn() == crate::Color::Red {
                    let _ = write!(word, "{}. ", pos.fullmoves());
                } else if force_number || node.comment_before().is_some() {
                    let _ = write!(word, "{}... ", pos.fullmoves());
                }
                if notation.write_to(&pos, m, &mut word).is_err() {
                    // Never: a move replayed is legal, so a piece stands on
                    // its origin. Its coordinates would do.
                    let _ = write!(word, "{m}");
                }
                text.word(&word);
                text.annotations(node);
                let alts = alternatives(tree, parent, id);
                // Alternatives are laid out before the main continuation goes on.
                let alt_tasks: Vec<Task> = alts
                    .iter()
                    .rev()
                    .flat_map(|&alt| {
                        [
                            Task::Close,
                            Task::Move { id: alt, parent, pos: pos.clone(), force_number: true },
                            Task::Open,
                        ]
                    })
                    .collect();
                if let Some(next) = tree.main_child(id) {
                    let force = !alts.is_empty() || node.comment().is_some() || !node.nags().is_empty();
                    // The position goes on with the main line: no copy.
                    let mut after = pos;
                    let _ = after.play_unchecked(m);
                    stack.push(Task::Move { id: next, parent: id, pos: after, force_number: force });
                }
                stack.extend(alt_tasks);
            }
        }
    }
    text.word(result.as_str());
    out.push_str(&text.finish());
    out.push('\n');
}

/// The alternatives to the move `id` played from `parent`, written after
/// it when it is the parent's main continuation (none otherwise: they are
/// written after the main one).
fn alternatives(tree: &crate::record::MoveTree, parent: NodeId, id: NodeId) -> Vec<NodeId> {
    if tree.main_child(parent) == Some(id) { tree.children(parent).skip(1).collect() } else { Vec::new() }
}

/// Whether `name` reads back as a tag's name: letters and digits (of any
/// script), `_` and `-`. A tag of another name is not written.
pub(crate) fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// A tag value as written between quotes: one line, `\` and `"` escaped,
/// a literal `&#` kept from reading as a character reference.
fn escape(v: &str) -> String {
    crate::formats::encoding::guard_references(&crate::formats::clean::one_line(v))
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// Lays out move-text words in lines of at most 80 columns.
#[derive(Default)]
struct MovetextWriter {
    out: String,
    line: usize,
    open_paren: bool,
}

impl MovetextWriter {
    fn word(&mut self, w: &str) {
        let width = w.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum::<usize>();
        let glue = self.open_paren || w == ")";
        if self.line > 0 && !glue {
            if self.line + 1 + width > 80 {
                self.out.push('\n');
                self.line = 0;
            } else {
                self.out.push(' ');
                self.line += 1;
            }
        }
        self.open_paren = w == "(";
        self.out.push_str(w);
        self.line += width;
    }

    fn comment(&mut self, c: &str) {
        self.word(&braced(c));
        if c.contains('\n') {
            self.line = 80; // continue on a new line
        }
    }

    fn annotations(&mut self, node: &crate::record::Node) {
        for nag in node.nags() {
            self.word(&format!("${nag}"));
        }
        if let Some(c) = node.comment() {
            self.comment(c);
        }
    }

    fn finish(self) -> String {
        self.out
    }
}

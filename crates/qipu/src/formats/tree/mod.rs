//! A game as a file stores it, read into flat parts and then told to a
//! [`Visitor`]: the readers of formats that store a tree (XQF, 象棋桥,
//! DhtmlXQ, JSON) or a line (`.mxq`, `.SG`, WXF) read into a [`Game`] and
//! walk it, building no [`Record`](crate::record::Record).
//!
//! A binary file stores its tree in its own order (XQF and CBR: pre-order,
//! a move's continuation first, then its alternatives), and what a game's
//! start is (its `FEN` tag) is known only once the first move is: so a
//! reader first reads the whole game into [`Moves`] (one `Vec` of nodes
//! linked by index, the comments in one `String`), which also finds every
//! error of the file before anything is told. [`Game::tell`] then gives the
//! events in the order of [`visit`](crate::record::visit): each move, the
//! alternatives to it as variations, then the line goes on.

use std::borrow::Cow;
use std::ops::Range;

use crate::record::{
    GameResult, MAX_MOVES, MoveTree, NodeId, Record, RecordParts, RecordedMove, Span, Visitor, Warning,
    too_many_moves,
};

/// No node: the root is never a child nor a sibling.
const NONE: u32 = 0;

/// A game read from a file, to be told to a visitor.
#[derive(Clone, Debug, Default)]
pub(crate) struct Game {
    /// Where the game starts in its source.
    pub(crate) at: Span,
    /// Tags in the order read.
    pub(crate) tags: Vec<(Cow<'static, str>, String)>,
    /// Problems met while reading.
    pub(crate) warnings: Vec<Warning>,
    /// Why the game cannot be read, if it cannot.
    pub(crate) unreadable: Option<Warning>,
    /// Where the file gives the start position (told with the `FEN` tag).
    pub(crate) start_at: Option<Span>,
    /// The result written at the end of the moves.
    pub(crate) result: Option<GameResult>,
    /// The moves.
    pub(crate) moves: Moves,
}

impl Game {
    /// A game read from byte `offset`: its place in a binary source.
    pub(crate) fn at_byte(offset: usize) -> Game {
        let at = Span { line: 0, column: u32::try_from(offset).unwrap_or(u32::MAX) };
        Game { at, ..Game::default() }
    }

    /// Adds tag `name`.
    pub(crate) fn tag(&mut self, name: impl Into<Cow<'static, str>>, value: impl Into<String>) {
        self.tags.push((name.into(), value.into()));
    }

    /// Sets tag `name` (case-insensitive), replacing its value or adding
    /// it.
    pub(crate) fn set_tag(&mut self, name: &'static str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(name)) {
            Some((_, v)) => *v = value,
            None => self.tags.push((name.into(), value)),
        }
    }

    /// Takes the tag lines at the end of the comment about the game
    /// (docs/formats.md, "What a conversion keeps") as tags: what qipu
    /// writes there for tags the format has no field for.
    pub(crate) fn take_tag_lines(&mut self) {
        let Some(comment) = self.moves.comment(0) else { return };
        let tags = &self.tags;
        let has = |name: &str| tags.iter().any(|(k, _)| k.eq_ignore_ascii_case(name));
        let Some((kept, found)) = crate::formats::tag_lines::split(comment, has) else { return };
        self.moves.cut_comment(0, kept);
        self.tags.extend(found.into_iter().map(|(k, v)| (Cow::Owned(k), v)));
    }

    /// Adds a warning at `at`.
    pub(crate) fn warn(&mut self, at: Span, message: impl Into<String>) {
        self.warnings.push(Warning { at, message: message.into() });
    }

    /// The record of the game, its nodes in the order read (a binary
    /// file's order, which [`xqf::write_preserving`] follows).
    ///
    /// [`xqf::write_preserving`]: crate::formats::xqf::write_preserving
    pub(crate) fn into_record(self) -> Record {
        let Game { at, tags, warnings, unreadable, start_at, result, moves } = self.bounded();
        let mut tree = MoveTree::with_capacity(moves.nodes.len());
        let mut ids: Vec<NodeId> = Vec::with_capacity(moves.nodes.len());
        ids.push(tree.root());
        for (i, node) in moves.nodes.iter().enumerate() {
            let id =
                if i == 0 { tree.root() } else { tree.add_child(ids[node.parent as usize], node.mv.clone()) };
            if i > 0 {
                ids.push(id);
            }
            let nags = &moves.nags[node.nags.start as usize..node.nags.end as usize];
            let (comment, before) = (moves.comment(to_u32(i)), moves.before(to_u32(i)));
            if comment.is_some() || before.is_some() || !nags.is_empty() {
                let notes = tree.node_mut(id).notes_mut();
                notes.comment = comment.map(str::to_string);
                notes.comment_before = before.map(str::to_string);
                notes.nags = nags.to_vec();
            }
        }
        let tags = tags.into_iter().map(|(name, value)| (name.into_owned(), value)).collect();
        Record::from(RecordParts { tags, tree, result, at, start_at, warnings, unreadable })
    }

    /// Hands the game to `visitor`: built, in the order read, to a visitor
    /// that [builds records](Visitor::builds_records), else as events
    /// ([`Game::tell_events`]).
    pub(crate) fn tell<V: Visitor>(self, visitor: &mut V) -> V::Output {
        let game = self.bounded();
        if visitor.builds_records() {
            return visitor.record(game.into_record());
        }
        game.tell_events(visitor)
    }

    /// The game, or when it holds more than [`MAX_MOVES`] moves the game
    /// without them, unreadable ([`too_many_moves`]).
    fn bounded(mut self) -> Game {
        if self.moves.over {
            self.moves = Moves::default();
            if self.unreadable.is_none() {
                self.unreadable = Some(Warning { at: self.at, message: too_many_moves() });
            }
        }
        self
    }

    /// Tells the game to `visitor`, in the order of a PGN text: tags
    /// (the `FEN` tag at [`Game::start_at`]), warnings, why it cannot be
    /// read, the comment about the game, the moves (each with its glyphs
    /// and comment, then the alternatives to it as variations), the result.
    /// A variation the visitor skips is not walked; a move it answers with
    /// `Break` ends the moves.
    pub(crate) fn tell_events<V: Visitor>(&self, visitor: &mut V) -> V::Output {
        visitor.begin_game(self.at);
        for (name, value) in &self.tags {
            let at =
                if name.eq_ignore_ascii_case("FEN") { self.start_at.unwrap_or_default() } else { self.at };
            visitor.tag(name, value, at);
        }
        for w in &self.warnings {
            visitor.warning(w.clone());
        }
        if let Some(why) = &self.unreadable {
            visitor.unreadable(why.clone());
        }
        self.moves.tell(visitor);
        if let Some(result) = self.result {
            visitor.result(result);
        }
        visitor.end_game()
    }
}

/// The moves of a game: a tree in one `Vec`, each node linked to its first
/// child (the main continuation) and next sibling (the next alternative),
/// with its comments as ranges of one text.
#[derive(Clone, Debug)]
pub(crate) struct Moves {
    /// The root (the start position) first.
    nodes: Vec<Node>,
    /// The comments, one after the other.
    texts: String,
    /// The annotation glyphs, one after the other.
    nags: Vec<u8>,
    /// More than [`MAX_MOVES`] moves were added: the rest were not kept,
    /// and the game is not read ([`Game::tell`]).
    over: bool,
}

/// One node of [`Moves`].
#[derive(Clone, Debug)]
struct Node {
    /// The move (for the root, a placeholder that is never told).
    mv: RecordedMove,
    parent: u32,
    first_child: u32,
    last_child: u32,
    next_sibling: u32,
    /// The comment after the move (on the root: about the game).
    comment: Option<Range<u32>>,
    /// The comment before the move.
    before: Option<Range<u32>>,
    /// The glyphs, in `nags`.
    nags: Range<u32>,
}

impl Node {
    fn new(mv: RecordedMove) -> Node {
        Node {
            mv,
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            comment: None,
            before: None,
            nags: 0..0,
        }
    }
}

impl Default for Moves {
    fn default() -> Moves {
        Moves::with_capacity(1)
    }
}

/// Where a node goes in the walk of [`Moves::tell`].
#[derive(Copy, Clone, Debug)]
enum Task {
    /// A move, and whether it is the first of a variation.
    Move(u32, bool),
    /// The end of a variation.
    Close,
}

impl Moves {
    /// No move yet, with room for `nodes` nodes (the root included).
    pub(crate) fn with_capacity(nodes: usize) -> Moves {
        let mut all = Vec::with_capacity(nodes.clamp(1, 1 << 20));
        all.push(Node::new(RecordedMove {
            text: crate::record::MoveText::Text("".into()),
            at: Span::default(),
        }));
        Moves { nodes: all, texts: String::new(), nags: Vec::new(), over: false }
    }

    /// Makes room for `nodes` more nodes (a few at most a million at a
    /// time: a file's claim is not trusted further).
    pub(crate) fn reserve(&mut self, nodes: usize) {
        self.nodes.reserve(nodes.min(1 << 20));
    }

    /// The root: the start position.
    pub(crate) fn root(&self) -> u32 {
        0
    }

    /// Adds `mv` as the last alternative played from `parent`: the first
    /// added is the main continuation. Past [`MAX_MOVES`] moves nothing is
    /// added (`parent` is given back, and nothing is noted on it any more):
    /// the game is then not read.
    pub(crate) fn add_child(&mut self, parent: u32, mv: RecordedMove) -> u32 {
        if self.over || self.nodes.len() > MAX_MOVES {
            self.over = true;
            return parent;
        }
        // Cannot overflow in practice: a node takes a few bytes of its file.
        let id = u32::try_from(self.nodes.len()).unwrap_or(u32::MAX);
        self.nodes.push(Node { parent, ..Node::new(mv) });
        let p = &mut self.nodes[parent as usize];
        let last = p.last_child;
        p.last_child = id;
        if last == NONE {
            p.first_child = id;
        } else {
            self.nodes[last as usize].next_sibling = id;
        }
        id
    }

    /// The first move of the main line.
    pub(crate) fn first_move(&self) -> Option<&RecordedMove> {
        let first = self.nodes[0].first_child;
        (first != NONE).then(|| &self.nodes[first as usize].mv)
    }

    /// The main continuation of `id`, if any.
    pub(crate) fn main_child(&self, id: u32) -> Option<u32> {
        let c = self.nodes[id as usize].first_child;
        (c != NONE).then_some(c)
    }

    fn text(&mut self, text: &str) -> Range<u32> {
        let start = self.texts.len();
        self.texts.push_str(text);
        to_u32(start)..to_u32(self.texts.len())
    }

    /// Sets the comment after the move of `id` (on the root: about the
    /// game).
    pub(crate) fn set_comment(&mut self, id: u32, text: &str) {
        if self.over {
            return;
        }
        let range = self.text(text);
        self.nodes[id as usize].comment = Some(range);
    }

    /// Adds `text` to the comment after the move of `id`, on a line of its
    /// own.
    pub(crate) fn append_comment(&mut self, id: u32, text: &str) {
        if self.over {
            return;
        }
        let Some(old) = self.nodes[id as usize].comment.clone() else {
            return self.set_comment(id, text);
        };
        let start = if old.end as usize == self.texts.len() {
            old.start
        } else {
            let kept = self.texts[old.start as usize..old.end as usize].to_string();
            let start = to_u32(self.texts.len());
            self.texts.push_str(&kept);
            start
        };
        self.texts.push('\n');
        self.texts.push_str(text);
        self.nodes[id as usize].comment = Some(start..to_u32(self.texts.len()));
    }

    /// Keeps the first `len` bytes of the comment after the move of `id`
    /// (a character boundary), or none of it.
    pub(crate) fn cut_comment(&mut self, id: u32, len: Option<usize>) {
        let node = &mut self.nodes[id as usize];
        node.comment = match (node.comment.clone(), len) {
            (Some(range), Some(len)) => Some(range.start..range.start + to_u32(len)),
            _ => None,
        };
    }

    /// The comment after the move of `id`.
    #[inline]
    pub(crate) fn comment(&self, id: u32) -> Option<&str> {
        self.nodes[id as usize].comment.clone().map(|r| &self.texts[r.start as usize..r.end as usize])
    }

    /// Sets the comment before the move of `id` (JSON records hold one).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn set_comment_before(&mut self, id: u32, text: &str) {
        if self.over {
            return;
        }
        let range = self.text(text);
        self.nodes[id as usize].before = Some(range);
    }

    /// Sets the glyphs of the move of `id` (as JSON records hold them, and
    /// a WXF remark mark).
    pub(crate) fn set_nags(&mut self, id: u32, nags: &[u8]) {
        if self.over {
            return;
        }
        let start = to_u32(self.nags.len());
        self.nags.extend_from_slice(nags);
        self.nodes[id as usize].nags = start..to_u32(self.nags.len());
    }

    /// Adds a glyph to the move of `id`, after those it has.
    pub(crate) fn add_nag(&mut self, id: u32, nag: u8) {
        if self.over {
            return;
        }
        let range = self.nodes[id as usize].nags.clone();
        if range.end as usize != self.nags.len() {
            // Not the last glyphs stored: they are copied to the end first.
            let held = self.nags[range.start as usize..range.end as usize].to_vec();
            self.set_nags(id, &held);
        }
        self.nags.push(nag);
        self.nodes[id as usize].nags.end = to_u32(self.nags.len());
    }

    #[inline]
    fn before(&self, id: u32) -> Option<&str> {
        self.nodes[id as usize].before.clone().map(|r| &self.texts[r.start as usize..r.end as usize])
    }

    /// Tells the moves to `visitor` (see [`Game::tell`]): the comment
    /// about the game, then the moves.
    fn tell<V: Visitor>(&self, visitor: &mut V) {
        if let Some(c) = self.comment(0) {
            visitor.comment(c);
        }
        let mut stack: Vec<Task> = self.main_child(0).map(|n| Task::Move(n, false)).into_iter().collect();
        // Variations begun and not ended.
        let mut open = 0usize;
        while let Some(task) = stack.pop() {
            let (id, first) = match task {
                Task::Close => {
                    visitor.end_variation();
                    open -= 1;
                    continue;
                }
                Task::Move(id, first) => {
                    if first {
                        if visitor.begin_variation().0 {
                            // Skipped: its moves, and the matching close, are not told.
                            if let Some(Task::Close) = stack.last() {
                                stack.pop();
                            }
                            continue;
                        }
                        open += 1;
                    }
                    (id, first)
                }
            };
            let node = &self.nodes[id as usize];
            if let Some(before) = self.before(id) {
                visitor.comment_before(before);
            }
            let flow = visitor.mv(&node.mv);
            for &nag in &self.nags[node.nags.start as usize..node.nags.end as usize] {
                visitor.nag(nag);
            }
            if let Some(c) = self.comment(id) {
                visitor.comment(c);
            }
            if flow.is_break() {
                break;
            }
            // What follows this move: the alternatives to it (when it is
            // its parent's main continuation, not itself one of them), then
            // its own continuation.
            if node.first_child != NONE {
                stack.push(Task::Move(node.first_child, false));
            }
            if !first {
                let from = stack.len();
                let mut alt = node.next_sibling;
                while alt != NONE {
                    stack.push(Task::Close);
                    stack.push(Task::Move(alt, true));
                    alt = self.nodes[alt as usize].next_sibling;
                }
                // Pairs pushed in order, walked in order: reversed pair by pair.
                stack[from..].reverse();
                for pair in stack[from..].chunks_exact_mut(2) {
                    pair.swap(0, 1);
                }
            }
        }
        // Variations left open by a stop are closed.
        for _ in 0..open {
            visitor.end_variation();
        }
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests;

//! The format-neutral game record: tags, start position, a move tree with
//! comments and variations, and the result.
//!
//! Moves are kept as they were read (text, or coordinates for binary
//! formats) until the replay ([`replay`], [`Record::replayed`]) resolves
//! them against the positions. The move tree is an arena of nodes linked
//! by index (first child = main line, next sibling = the alternatives), so
//! trees of any depth are built and walked without recursion.
//!
//! ```
//! use qipu::record::{MoveText, Record, RecordedMove};
//! let mut record = Record::default();
//! let tree = record.tree_mut();
//! let root = tree.root();
//! let first = tree.add_child(root, RecordedMove::text("炮二平五", 1, 4));
//! let alt = tree.add_child(root, RecordedMove::text("相三进五", 2, 4));
//! tree.add_child(first, RecordedMove::text("马８进７", 1, 9));
//! assert_eq!(record.tree().main_line().count(), 2);
//! assert_eq!(record.tree().children(root).collect::<Vec<_>>(), [first, alt]);
//! assert_eq!(record.tree().variation_count(), 1);
//! ```

use std::fmt;
use std::num::NonZeroU32;

use crate::{Move, Position, Setup};

mod build;
pub mod date;
mod edit;
pub mod eval;
pub mod lines;
#[cfg(test)]
pub(crate) use build::counting;
pub mod replay;
pub mod shape;
pub mod visit;

pub use build::RecordBuilder;
pub use eval::{EvalStyle, Evaluation, Score};
pub use replay::Replayed;
pub use visit::{Skip, Visitor};

/// The result of a game as a record states it.
///
/// ```
/// use qipu::record::GameResult;
/// assert_eq!(GameResult::parse("½-½"), Some(GameResult::Draw));
/// assert_eq!(GameResult::Draw.to_string(), "1/2-1/2");
/// let record = &qipu::formats::pgn::read("[Result \"0-1\"]\n1. h2e2 *")[0];
/// assert_eq!(record.written_result(), Some(GameResult::Unknown)); // as written after the moves
/// assert_eq!(record.tag("Result"), Some("0-1"));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    RedWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2` (also `½-½`).
    Draw,
    /// `*`: unknown or unfinished.
    Unknown,
}

impl GameResult {
    /// Reads `1-0`, `0-1`, `1/2-1/2`, `½-½` or `*`.
    pub fn parse(s: &str) -> Option<GameResult> {
        Some(match s.trim() {
            "1-0" => GameResult::RedWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "½-½" | "1/2" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }

    /// The PGN token.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A short text kept inline, without an allocation, when it fits in 22
/// bytes (every move in every notation does); longer texts go to the heap.
///
/// ```
/// use qipu::record::Word;
/// let w = Word::from("马８进７");
/// assert_eq!(&*w, "马８进７");
/// assert_eq!(Word::from("x".repeat(40).as_str()).len(), 40);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Word(WordRepr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum WordRepr {
    Inline { len: u8, bytes: [u8; 22] },
    Heap(Box<str>),
}

impl From<&str> for Word {
    #[inline]
    fn from(s: &str) -> Word {
        if s.len() <= 22 {
            Word(WordRepr::Inline { len: s.len() as u8, bytes: pack(s.as_bytes()) })
        } else {
            Word(WordRepr::Heap(s.into()))
        }
    }
}

/// `src` (at most 22 bytes) at the start of 22 zeroed bytes. The bytes
/// are gathered in two integers from a few overlapping loads and stored
/// once each: a call to `memcpy` for a few bytes costs more than the copy,
/// and so do small overlapping stores read back as one (the processor
/// cannot forward them); this runs once per move read.
#[inline]
fn pack(src: &[u8]) -> [u8; 22] {
    let n = src.len();
    let word = |at: usize| -> u64 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&src[at..at + 8]);
        u64::from_le_bytes(b)
    };
    let half = |at: usize| -> u64 {
        let mut b = [0u8; 4];
        b.copy_from_slice(&src[at..at + 4]);
        u64::from(u32::from_le_bytes(b))
    };
    // Bytes 0..16 in `lo`, 16..22 in `hi`; a byte loaded twice lands on
    // itself, so the pieces are joined with `|`.
    let (lo, hi): (u128, u64) = match n {
        0 => (0, 0),
        1..4 => {
            let b = |i: usize| u128::from(src[i]) << (8 * i);
            (b(0) | b(n / 2) | b(n - 1), 0)
        }
        4..8 => (u128::from(half(0) | half(n - 4) << (8 * (n - 4))), 0),
        8..=16 => (u128::from(word(0)) | u128::from(word(n - 8)) << (8 * (n - 8)), 0),
        _ => {
            let lo = u128::from(word(0)) | u128::from(word(8)) << 64;
            (lo, word(n - 8) >> (8 * (24 - n)))
        }
    };
    let mut out = [0u8; 22];
    out[..16].copy_from_slice(&lo.to_le_bytes());
    out[16..].copy_from_slice(&hi.to_le_bytes()[..6]);
    out
}

impl Word {
    /// The bytes of the text (UTF-8), without the check that `&str` needs.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            WordRepr::Inline { len, bytes } => &bytes[..*len as usize],
            WordRepr::Heap(s) => s.as_bytes(),
        }
    }
}

impl std::ops::Deref for Word {
    type Target = str;
    fn deref(&self) -> &str {
        match &self.0 {
            WordRepr::Inline { len, bytes } => {
                let text = &bytes[..*len as usize];
                debug_assert!(std::str::from_utf8(text).is_ok());
                // SAFETY: inline bytes are only ever made by `From<&str>`,
                // which copies exactly the `len` bytes of a `str` (whole
                // characters, valid UTF-8), and are never changed after:
                // checking them again on every read of a move cost more
                // than the rest of reading it.
                unsafe { std::str::from_utf8_unchecked(text) }
            }
            WordRepr::Heap(s) => s,
        }
    }
}

impl fmt::Debug for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

/// A move as written in the record.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveText {
    /// Text in some notation (Chinese, WXF, ICCS), resolved at replay.
    Text(Word),
    /// Coordinates, as binary formats store them.
    Coords(Move),
}

/// Where something stands in the source text: 1-based line and column
/// (in characters), or for binary formats a byte offset in `column` with
/// `line` 0.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// 1-based line (0 for binary sources).
    pub line: u32,
    /// 1-based column in characters (the byte offset for binary sources).
    pub column: u32,
}

impl fmt::Display for Span {
    /// `line 3, column 7`, or `byte 1106` for binary sources.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "byte {}", self.column)
        } else {
            write!(f, "line {}, column {}", self.line, self.column)
        }
    }
}

/// A move of the record with its source place and remark marks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RecordedMove {
    /// The move as written.
    pub text: MoveText,
    /// Where it was written.
    pub at: Span,
}

impl RecordedMove {
    /// A move written as text at `line`, `column`.
    #[inline]
    pub fn text(text: &str, line: u32, column: u32) -> RecordedMove {
        RecordedMove { text: MoveText::Text(Word::from(text)), at: Span { line, column } }
    }

    /// The move's points, when it is written as points: coordinates a
    /// binary format stored, or text in plain coordinates (`h2e2`,
    /// `H2-E2`). Formats that store points can keep such a move even when
    /// it does not replay.
    ///
    /// ```
    /// use qipu::record::RecordedMove;
    /// assert_eq!(RecordedMove::text("H2-E2", 1, 1).points().map(|m| m.to_string()), Some("h2e2".into()));
    /// assert_eq!(RecordedMove::text("炮二平五", 1, 1).points(), None);
    /// ```
    pub fn points(&self) -> Option<Move> {
        match &self.text {
            MoveText::Coords(m) => Some(*m),
            MoveText::Text(t) => crate::notation::iccs::parse_plain(t.as_bytes()).map(|m| m.0),
        }
    }
}

/// Index of a node in a [`MoveTree`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(NonZeroU32);

impl NodeId {
    /// The position of the node in the tree's arena.
    pub fn index(self) -> usize {
        self.0.get() as usize - 1
    }

    fn at(index: usize) -> NodeId {
        let n = u32::try_from(index + 1).expect("fewer than 4 billion nodes");
        NodeId(NonZeroU32::new(n).expect("index + 1 is not zero"))
    }
}

/// The comments and annotations of a node; most moves have none, so a
/// node holds them behind one pointer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// A comment written before this move (at the start of a variation);
    /// unused on the root.
    pub comment_before: Option<String>,
    /// The comment after this move; on the root, the comment before the
    /// first move (about the game or the start position).
    pub comment: Option<String>,
    /// Numeric annotation glyphs (`$1` …) and remark marks turned into
    /// them (`!` = 1, `?` = 2, `!!` = 3, `??` = 4, `!?` = 5, `?!` = 6).
    pub nags: Vec<u8>,
}

/// The most moves (main line and variations together) a game read may
/// hold: a game of more is one unreadable game, told why, so that memory
/// stays bounded whatever the input (about 100 bytes a move are held while
/// a game is read, some hundreds while its positions are written). No game
/// played comes near: the longest hold some hundreds of moves, the largest
/// opening trees some tens of thousands.
pub(crate) const MAX_MOVES: usize = 1_000_000;

/// Why a game of more than [`MAX_MOVES`] moves is not read.
pub(crate) fn too_many_moves() -> String {
    let mut count = MAX_MOVES.to_string();
    let digits = count.len();
    for at in (1..digits).rev().filter(|k| (digits - k).is_multiple_of(3)) {
        count.insert(at, ',');
    }
    format!(
        "the game holds more than {count} moves (main line and variations): not read, to keep memory bounded"
    )
}

/// The remark marks of NAGs 1 to 6, by NAG: `!` good, `?` poor, `!!` very
/// good, `??` very poor, `!?` interesting, `?!` dubious.
pub(crate) const REMARK_MARKS: [&str; 7] = ["", "!", "?", "!!", "??", "!?", "?!"];

/// One node of the move tree: the root (the start position) or a move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// The move that leads here; `None` for the root.
    pub mv: Option<RecordedMove>,
    /// The node this move is played from; `None` for the root.
    pub parent: Option<NodeId>,
    first_child: Option<NodeId>,
    last_child: Option<NodeId>,
    next_sibling: Option<NodeId>,
    notes: Option<Box<Notes>>,
    /// Taken out of the tree, with what follows it ([`MoveTree::remove`]).
    removed: bool,
}

impl Node {
    /// The comment written before this move, if any.
    pub fn comment_before(&self) -> Option<&str> {
        self.notes.as_ref()?.comment_before.as_deref()
    }

    /// The comment after this move (on the root: before the first move).
    pub fn comment(&self) -> Option<&str> {
        self.notes.as_ref()?.comment.as_deref()
    }

    /// The engine evaluation the comment after this move holds, if any
    /// ([`Evaluation::find`]).
    ///
    /// ```
    /// use qipu::record::{Evaluation, Score};
    /// let record = &qipu::formats::pgn::read("1. h2e2 {+0.38/19} h9g7 *")[0];
    /// let first = record.tree().main_line().next().unwrap();
    /// let eval = record.tree().node(first).evaluation();
    /// assert_eq!(eval, Some(Evaluation { score: Score::Centipawns(38), depth: Some(19) }));
    /// ```
    pub fn evaluation(&self) -> Option<Evaluation> {
        Evaluation::find(self.comment()?)
    }

    /// The annotation glyphs of this move.
    pub fn nags(&self) -> &[u8] {
        self.notes.as_ref().map_or(&[], |n| &n.nags)
    }

    /// Everything said about this move as one text, for formats with one
    /// comment per move: the comment before it, the comment after it and
    /// its remark marks (`REMARK_MARKS`), one per line; `None` when there
    /// is nothing.
    pub fn merged_comment(&self) -> Option<String> {
        let marks: String = self
            .nags()
            .iter()
            .filter_map(|&n| REMARK_MARKS.get(n as usize).filter(|m| !m.is_empty()))
            .copied()
            .collect();
        let parts: Vec<&str> =
            [self.comment_before(), self.comment(), (!marks.is_empty()).then_some(marks.as_str())]
                .into_iter()
                .flatten()
                .collect();
        (!parts.is_empty()).then(|| parts.join("\n"))
    }

    /// The comments and annotations, to change them.
    pub fn notes_mut(&mut self) -> &mut Notes {
        self.notes.get_or_insert_with(Box::default)
    }
}

/// The moves of a game: main line and variations to any depth.
///
/// ```
/// let record = &qipu::formats::pgn::read("1. h2e2 h9g7 (1... b9c7 2. h0g2) 2. h0g2 *")[0];
/// let tree = record.tree();
/// assert_eq!(tree.main_line().count(), 3);
/// // The alternatives to the main line's second move.
/// let second = tree.main_line().nth(1).unwrap();
/// let alternative = tree.next_sibling(second).unwrap();
/// assert_eq!(tree.node(alternative).mv.as_ref().unwrap().points().unwrap().to_string(), "b9c7");
/// assert_eq!((tree.len(), tree.variation_count()), (6, 1)); // the root and five moves
/// ```
///
/// A node taken out of the tree ([`MoveTree::remove`]) stays in the arena,
/// so that the ids of the others hold, but no walk of the tree meets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTree {
    nodes: Vec<Node>,
    /// How many nodes of the arena were taken out of the tree.
    removed: usize,
}

impl Default for MoveTree {
    fn default() -> MoveTree {
        MoveTree { nodes: vec![Node::default()], removed: 0 }
    }
}

impl MoveTree {
    /// An empty tree with room for `nodes` nodes (the root included)
    /// before it grows.
    pub fn with_capacity(nodes: usize) -> MoveTree {
        let mut tree = MoveTree { nodes: Vec::with_capacity(nodes.max(1)), removed: 0 };
        tree.nodes.push(Node::default());
        tree
    }

    /// The root: the start position, before any move.
    pub fn root(&self) -> NodeId {
        NodeId::at(0)
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// The node `id`, to change its comments or annotations.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    /// Number of nodes in the arena, the root included: every id is an
    /// index below it. Nodes taken out ([`MoveTree::remove`]) count too;
    /// `MoveTree::node_count` counts those of the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Number of nodes of the tree, the root included: [`MoveTree::len`]
    /// less the nodes taken out.
    pub(crate) fn node_count(&self) -> usize {
        self.nodes.len() - self.removed
    }

    /// Whether the tree holds no move.
    pub fn is_empty(&self) -> bool {
        self.nodes[0].first_child.is_none()
    }

    /// Adds `mv` as the last alternative played from `parent`; the first
    /// child added is the main continuation. A move added after one taken
    /// out ([`MoveTree::remove`]) is out of the tree with it.
    pub fn add_child(&mut self, parent: NodeId, mv: RecordedMove) -> NodeId {
        let id = NodeId::at(self.nodes.len());
        let removed = self.nodes[parent.index()].removed;
        self.removed += usize::from(removed);
        self.nodes.push(Node { mv: Some(mv), parent: Some(parent), removed, ..Node::default() });
        match self.nodes[parent.index()].last_child {
            Some(last) => self.nodes[last.index()].next_sibling = Some(id),
            None => self.nodes[parent.index()].first_child = Some(id),
        }
        self.nodes[parent.index()].last_child = Some(id);
        id
    }

    /// The moves played from `id`, main continuation first.
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.node(id).first_child, |c| self.node(*c).next_sibling)
    }

    /// The next alternative to the move of `id` (played from the same
    /// position), if any.
    pub fn next_sibling(&self, id: NodeId) -> Option<NodeId> {
        self.node(id).next_sibling
    }

    /// The main continuation from `id`, if any.
    pub fn main_child(&self, id: NodeId) -> Option<NodeId> {
        self.node(id).first_child
    }

    /// The main line: the first child of the root, its first child, and so
    /// on.
    pub fn main_line(&self) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.main_child(self.root()), |id| self.main_child(*id))
    }

    /// How many variations the tree holds (alternatives to a main
    /// continuation).
    pub fn variation_count(&self) -> usize {
        let alternatives = |n: &Node| n.first_child.map_or(0, |_| self.children_count(n) - 1);
        if self.removed == 0 {
            self.nodes.iter().map(alternatives).sum()
        } else {
            self.depth_first().map(|id| alternatives(self.node(id))).sum()
        }
    }

    fn children_count(&self, n: &Node) -> usize {
        std::iter::successors(n.first_child, |c| self.node(*c).next_sibling).count()
    }

    /// Every node in depth-first order (a move before its continuations,
    /// the main continuation before the alternatives), without recursion.
    pub fn depth_first(&self) -> impl Iterator<Item = NodeId> + '_ {
        let mut stack = vec![self.root()];
        std::iter::from_fn(move || {
            let id = stack.pop()?;
            let first = stack.len();
            stack.extend(self.children(id));
            stack[first..].reverse();
            Some(id)
        })
    }
}

/// What replaying a record settled, for the writers: the start placement
/// as the record gives it, the start position when that placement is a
/// legal one, and the move of every node of the tree that replayed.
///
/// A record whose start position is not legal (a puzzle with a missing
/// king, a piece on a point it can never reach) keeps its placement here:
/// writers write it as it was read, never the standard start in its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// The start placement as read: the record's FEN, or the standard start
    /// when the record gives no position. `None` when the record's position
    /// cannot be read at all (a FEN that does not parse, an unreadable
    /// record).
    pub setup: Option<Setup>,
    /// The start position: `setup`, when it is a legal position.
    pub start: Option<Position>,
    /// The move of each node, by node index (`None` for the root and for
    /// moves that did not replay).
    pub moves: Vec<Option<Move>>,
}

impl Resolution {
    /// The move of node `id`, if it replayed.
    pub fn move_of(&self, id: NodeId) -> Option<Move> {
        self.moves.get(id.index()).copied().flatten()
    }

    /// Whether the game starts from the standard start as its FEN gives it: the standard
    /// placement, Red to move, the half-move clock 0 and move 1. A start that differs in any
    /// of these is written out by the writers that can hold it.
    pub(crate) fn is_standard_start(&self) -> bool {
        self.setup.as_ref().is_some_and(|s| {
            s.board == crate::Board::start()
                && s.turn == crate::Color::Red
                && s.halfmoves == 0
                && s.fullmoves == 1
        })
    }
}

/// A problem the reader met and worked around (the record is still read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Where.
    pub at: Span,
    /// What, in words.
    pub message: String,
}

/// One game record: what was read, and its replay.
///
/// The fields are private: what changes the moves, the start position or
/// the stated result goes through a method that keeps the replay true
/// (dropped, to be done again when next asked for). A record built by a
/// reader ([`RecordBuilder`]) holds its replay from the start, so
/// [`Record::replayed`] never replays it again; a record made by hand is
/// replayed the first time it is asked.
///
/// ```
/// use qipu::formats::pgn;
/// let record = &pgn::read("[Event \"x\"]\n1. 炮二平五 马８进７ 2. 马二进三 *")[0];
/// assert_eq!(record.tag("Event"), Some("x"));
/// let replayed = record.replayed(); // replayed as it was read
/// assert!(replayed.is_valid());
/// assert_eq!(replayed.moves.len(), 3);
/// assert_eq!(record.positions().count(), 4); // the start and after each move
/// ```
#[derive(Clone, Debug, Default)]
pub struct Record {
    tags: Vec<(String, String)>,
    tree: MoveTree,
    result: Option<GameResult>,
    at: Span,
    start_at: Option<Span>,
    warnings: Vec<Warning>,
    unreadable: Option<Warning>,
    /// The replay, once done: by the builder, or when first asked for.
    replay: std::sync::OnceLock<Replayed>,
}

/// What a [`Record`] says, as plain fields: to make a record whole
/// ([`Record::from`]) or take one apart (`Record::into_parts`, in tests).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RecordParts {
    /// Tags in the order read; names as written.
    pub tags: Vec<(String, String)>,
    /// The moves.
    pub tree: MoveTree,
    /// The result written at the end of the moves, if any.
    pub result: Option<GameResult>,
    /// Where the record starts in its source.
    pub at: Span,
    /// Where the record gives its start position (the `FEN` tag, a binary
    /// header's piece slots), when it gives one.
    pub start_at: Option<Span>,
    /// Problems met while reading.
    pub warnings: Vec<Warning>,
    /// Set when the record could not be read (a broken entry of a file
    /// that holds several): where and why. The other fields hold what was
    /// read.
    pub unreadable: Option<Warning>,
}

impl From<RecordParts> for Record {
    fn from(parts: RecordParts) -> Record {
        #[cfg(test)]
        counting::count();
        let RecordParts { tags, tree, result, at, start_at, warnings, unreadable } = parts;
        Record { tags, tree, result, at, start_at, warnings, unreadable, replay: std::sync::OnceLock::new() }
    }
}

impl PartialEq for Record {
    /// Records are equal when they say the same: the replay kept with one
    /// does not count.
    fn eq(&self, other: &Record) -> bool {
        self.tags == other.tags
            && self.tree == other.tree
            && self.result == other.result
            && self.at == other.at
            && self.start_at == other.start_at
            && self.warnings == other.warnings
            && self.unreadable == other.unreadable
    }
}

impl Eq for Record {}

/// Whether a tag called `name` bears on the replay: the start position
/// (`FEN`) or the stated result (`Result`, which a final position can
/// contradict).
fn tag_bears_on_replay(name: &str) -> bool {
    name.eq_ignore_ascii_case("FEN") || name.eq_ignore_ascii_case("Result")
}

impl Record {
    /// The record's parts, the replay dropped.
    #[cfg(test)]
    pub(crate) fn into_parts(self) -> RecordParts {
        let Record { tags, tree, result, at, start_at, warnings, unreadable, replay: _ } = self;
        RecordParts { tags, tree, result, at, start_at, warnings, unreadable }
    }

    /// Tags in the order read; names as written.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The moves.
    pub fn tree(&self) -> &MoveTree {
        &self.tree
    }

    /// The Chinese script the moves were written in, as written (the main
    /// line and the variations), by `chinese::style_of`:
    /// `None` when no move tells (coordinates, WXF, or only characters both
    /// scripts write).
    ///
    /// ```
    /// use qipu::notation::chinese::Style;
    /// let games = qipu::formats::pgn::read("1. 砲二平五 馬８進７ *\n\n1. 炮二平五 马８进７ *\n\n1. h2e2 *\n");
    /// let styles: Vec<_> = games.iter().map(|g| g.chinese_style()).collect();
    /// assert_eq!(styles, [Some(Style::Traditional), Some(Style::Simplified), None]);
    /// ```
    pub fn chinese_style(&self) -> Option<crate::notation::chinese::Style> {
        let tree = &self.tree;
        crate::notation::chinese::style_of(tree.depth_first().filter_map(|id| match &tree.node(id).mv {
            Some(RecordedMove { text: MoveText::Text(word), .. }) => Some(&**word),
            _ => None,
        }))
    }

    /// The result written at the end of the moves, if any (see
    /// [`Record::result`] for the game's result).
    pub fn written_result(&self) -> Option<GameResult> {
        self.result
    }

    /// Where the record starts in its source.
    pub fn at(&self) -> Span {
        self.at
    }

    /// Where the record gives its start position (the `FEN` tag, a binary
    /// header's piece slots), when it gives one.
    pub fn start_at(&self) -> Option<Span> {
        self.start_at
    }

    /// Problems met while reading.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Set when the record could not be read (a broken entry of a file
    /// that holds several): where and why. The other parts hold what was
    /// read.
    pub fn unreadable(&self) -> Option<&Warning> {
        self.unreadable.as_ref()
    }

    /// The value of the first tag called `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` (case-insensitive), replacing its value or appending
    /// it. Setting `FEN` or `Result` drops the replay.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        if tag_bears_on_replay(name) {
            self.forget_replay();
        }
        match self.tags.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(name)) {
            Some((_, v)) => *v = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// Appends a tag `name`, after any of the same name (a reader keeps
    /// every tag it reads). Adding `FEN` or `Result` drops the replay.
    pub fn push_tag(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let name = name.into();
        if tag_bears_on_replay(&name) {
            self.forget_replay();
        }
        self.tags.push((name, value.into()));
    }

    /// Keeps the tags for which `keep` holds, in their order. Dropping
    /// `FEN` or `Result` drops the replay.
    pub fn retain_tags(&mut self, mut keep: impl FnMut(&str, &str) -> bool) {
        let mut dropped_bearing = false;
        self.tags.retain(|(name, value)| {
            let kept = keep(name, value);
            dropped_bearing |= !kept && tag_bears_on_replay(name);
            kept
        });
        if dropped_bearing {
            self.forget_replay();
        }
    }

    /// The moves, to change them; drops the replay.
    pub fn tree_mut(&mut self) -> &mut MoveTree {
        self.forget_replay();
        &mut self.tree
    }

    /// Sets the result written after the moves; drops the replay when it
    /// changes (a final position can contradict it).
    pub fn set_written_result(&mut self, result: Option<GameResult>) {
        if self.result != result {
            self.forget_replay();
            self.result = result;
        }
    }

    /// The start position's FEN, from the `FEN` tag, when it is not empty.
    pub fn fen(&self) -> Option<&str> {
        self.tag("FEN").map(str::trim).filter(|f| !f.is_empty())
    }

    /// The result: the one written after the moves, else the `Result` tag.
    pub fn result(&self) -> Option<GameResult> {
        self.result.or_else(|| self.tag("Result").and_then(GameResult::parse))
    }

    /// The replay of the record ([`replay::replay`]): the one its reader
    /// made, else done the first time it is asked for (and after a change
    /// that bears on it), and kept.
    pub fn replayed(&self) -> &Replayed {
        self.replay.get_or_init(|| replay::replay(self))
    }

    /// Whether the replay is kept with the record (asking for it costs no
    /// replay).
    pub fn has_replay(&self) -> bool {
        self.replay.get().is_some()
    }

    /// Drops the replay kept, after the record was changed.
    fn forget_replay(&mut self) {
        self.replay = std::sync::OnceLock::new();
    }

    /// The positions of the main line as replayed: the start, then the
    /// position after each move that replayed (none when the start position
    /// is not a legal one). The moves are played, not resolved again.
    pub fn positions(&self) -> impl Iterator<Item = Position> + '_ {
        let replayed = self.replayed();
        let mut pos = replayed.resolution.start.clone();
        let mut moves = replayed.moves.iter();
        let mut first = true;
        std::iter::from_fn(move || {
            if first {
                first = false;
                return pos.clone();
            }
            let p = pos.as_mut()?;
            let _ = p.play_unchecked(*moves.next()?);
            Some(p.clone())
        })
    }

    /// The plies of the main line as replayed, each with the position it
    /// is played in and the one it leads to (none when the start position
    /// is not a legal one). The moves are played, not resolved again.
    ///
    /// ```
    /// use qipu::notation::{Notation, chinese::Style};
    /// let record = &qipu::formats::pgn::read("1. h2e2 h9g7 2. h0g2 *")[0];
    /// let chinese: Vec<String> = record
    ///     .plies()
    ///     .map(|ply| Notation::Chinese(Style::Simplified).write(&ply.before, ply.mv))
    ///     .collect::<Result<_, _>>()?;
    /// assert_eq!(chinese, ["炮二平五", "马８进７", "马二进三"]);
    /// let last = record.plies().last().unwrap();
    /// assert_eq!(last.after.fen(), "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2");
    /// # Ok::<(), qipu::notation::WriteMoveError>(())
    /// ```
    pub fn plies(&self) -> impl Iterator<Item = Ply> + '_ {
        let replayed = self.replayed();
        let mut pos = replayed.resolution.start.clone();
        let mut moves = replayed.moves.iter();
        std::iter::from_fn(move || {
            let before = pos.clone()?;
            let mv = *moves.next()?;
            let p = pos.as_mut()?;
            let _ = p.play_unchecked(mv);
            Some(Ply { before, mv, after: p.clone() })
        })
    }
}

/// A ply of a main line as replayed (see [`Record::plies`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The position the move is played in.
    pub before: Position,
    /// The move.
    pub mv: Move,
    /// The position after it.
    pub after: Position,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_many_moves_as_its_docs_showed() {
        assert!(crate::record::too_many_moves().starts_with("the game holds more than 1,000,000 moves"));
    }

    #[test]
    fn parts_make_a_record_and_come_back() {
        let mut parts = RecordParts { result: Some(GameResult::Draw), ..RecordParts::default() };
        let root = parts.tree.root();
        parts.tree.add_child(root, RecordedMove::text("h2e2", 1, 1));
        let record = Record::from(parts);
        assert_eq!(record.replayed().plies, 1);
        assert_eq!(record.into_parts().result, Some(GameResult::Draw));
    }

    #[test]
    fn words_of_every_length_keep_their_bytes() {
        let text = "abcdefghijklmnopqrstuvwxyz0123456789";
        for n in 0..=text.len() {
            for start in 0..4 {
                let s = &text[start..(start + n).min(text.len())];
                let w = Word::from(s);
                assert_eq!(&*w, s);
                assert_eq!(w.as_bytes(), s.as_bytes());
                if let WordRepr::Inline { bytes, len } = &w.0 {
                    assert_eq!(*len as usize, s.len());
                    assert!(bytes[s.len()..].iter().all(|&b| b == 0), "{s:?} leaves bytes after its end");
                }
            }
        }
        assert_eq!(&*Word::from("马８进７"), "马８进７");
    }

    #[test]
    fn plies_pair_the_positions_with_their_moves() {
        let games = crate::formats::pgn::read(concat!(
            "1. h2e2 h9g7 (1... b9c7) 2. h0g2 i9h9 3. i0h0 *\n\n",
            "1. h2e2 h9g7 2. h2h9 *\n\n", // illegal at ply 3: two plies replayed
            "[FEN \"9/9/9/9/9/9/9/9/9/9 w - - 0 1\"]\n1. h2e2 *\n\n", // no kings: none
        ));
        let counts: Vec<usize> = games.iter().map(|g| g.plies().count()).collect();
        assert_eq!(counts, [5, 2, 0]);
        for game in &games {
            let positions: Vec<Position> = game.positions().collect();
            for (k, ply) in game.plies().enumerate() {
                assert_eq!(ply.before, positions[k]);
                assert_eq!(ply.after, positions[k + 1]);
                assert_eq!(ply.mv, game.replayed().moves[k]);
                let mut played = ply.before.clone();
                let _ = played.play_unchecked(ply.mv);
                assert_eq!(played, ply.after);
            }
        }
    }

    #[test]
    fn deep_trees_need_no_recursion() {
        let mut tree = MoveTree::default();
        let mut at = tree.root();
        for i in 0..200_000 {
            let node = tree.add_child(at, RecordedMove::text("h2e2", i, 1));
            tree.add_child(at, RecordedMove::text("b2e2", i, 6));
            at = node;
        }
        assert_eq!(tree.main_line().count(), 200_000);
        assert_eq!(tree.variation_count(), 200_000);
        assert_eq!(tree.depth_first().count(), 400_001);
        let copy = tree.clone();
        drop(copy);
    }

    #[test]
    fn tags_are_case_insensitive() {
        let mut r = Record::default();
        r.push_tag("Fen", " 4k4/9/9/9/9/9/9/9/9/3K5 w ");
        assert_eq!(r.fen(), Some("4k4/9/9/9/9/9/9/9/9/3K5 w"));
        r.set_tag("FEN", "");
        assert_eq!(r.fen(), None);
        assert_eq!(r.tags().len(), 1);
        r.set_tag("Result", "0-1");
        assert_eq!(r.result(), Some(GameResult::BlackWins));
        r.set_written_result(Some(GameResult::Draw));
        assert_eq!(r.result(), Some(GameResult::Draw));
    }
}

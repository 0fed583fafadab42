//! Replaying a game: every move of the main line and of every variation
//! resolved against its position and checked, the first wrong move of each
//! line reported with where and why, and the end of the main line judged.
//!
//! [`Replayer`] does it as a [`Visitor`], on a reader's events as they
//! come: no tree is built, memory grows with the main line only (one
//! history entry a ply), and the moves of a huge game are checked as they
//! are read. [`replay`] does it on a [`Record`], and also says which move
//! each node of the tree is. Both give the same [`Replayed`].
//!
//! ```
//! use qipu::formats::pgn;
//! use qipu::record::replay::{Replayer, Termination};
//! let games = pgn::read_with("[FEN \"3k5/R8/9/9/9/9/9/9/1R7/4K4 w\"]\n1. b1b9 1-0", &mut Replayer::default());
//! assert!(games[0].is_valid());
//! assert_eq!(games[0].termination, Some(Termination::Checkmate));
//! ```

use std::fmt;
use std::ops::ControlFlow;

use super::{GameResult, MoveText, NodeId, Record, RecordedMove, Resolution, Skip, Span, Visitor, Warning};
use crate::notation::{Dialect, iccs, resolve_any_in_game};
use crate::rules::Undo;
use crate::rules::judge::{RuleSet, Ruling, Verdict, Violation};
use crate::rules::{Arbiter, NATURAL_MOVE_LIMIT};
use crate::{Color, FromFenError, Move, Outcome, Position, PositionError, Setup};

/// How the main line ends, computed from the final position.
///
/// ```
/// use qipu::record::replay::Termination;
/// let record = &qipu::formats::pgn::read("[FEN \"3k5/R8/9/9/9/9/9/9/1R7/4K4 w\"]\n1. b1b9 1-0")[0];
/// assert_eq!(record.replayed().termination, Some(Termination::Checkmate));
/// assert_eq!(Termination::Checkmate.to_string(), "checkmate");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check: it loses.
    Stalemate,
    /// The natural move limit: 120 plies without a capture, as the rule set
    /// counts them.
    MoveLimit,
    /// The game ends in a repetition that neither side, or both, broke
    /// the rules in: a draw.
    Repetition,
    /// The game ends in a repetition in which a side checked perpetually
    /// (长将): it loses.
    PerpetualCheck,
    /// The game ends in a repetition in which a side chased perpetually
    /// (长捉): it loses.
    PerpetualChase,
    /// The game ends in a repetition in which a side checked and chased
    /// (一将一捉): it loses.
    CheckChase,
    /// The game ends in a repetition in which a side threatened mate
    /// perpetually (长杀, Chinese rules): it loses.
    PerpetualMateThreat,
    /// The game ends in a repetition in which a side threatened mate and
    /// checked or chased (一将一杀, Chinese rules): it loses.
    MateThreatMixed,
    /// Neither side has material left that can win.
    DeadDraw,
}

impl Termination {
    /// Every termination, in the order of the type.
    pub const ALL: [Termination; 10] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::MoveLimit,
        Termination::Repetition,
        Termination::PerpetualCheck,
        Termination::PerpetualChase,
        Termination::CheckChase,
        Termination::PerpetualMateThreat,
        Termination::MateThreatMixed,
        Termination::DeadDraw,
    ];

    /// The name used in reports and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::MoveLimit => "move-limit",
            Termination::Repetition => "repetition",
            Termination::PerpetualCheck => "perpetual-check",
            Termination::PerpetualChase => "perpetual-chase",
            Termination::CheckChase => "check-chase",
            Termination::PerpetualMateThreat => "perpetual-mate-threat",
            Termination::MateThreatMixed => "mate-threat-mixed",
            Termination::DeadDraw => "dead-draw",
        }
    }

    /// The termination of a game that ends in a repetition ruled so.
    pub(crate) fn of_ruling(ruling: &Ruling) -> Termination {
        match ruling.kind() {
            None => Termination::Repetition,
            Some(Violation::PerpetualCheck) => Termination::PerpetualCheck,
            Some(Violation::PerpetualChase) => Termination::PerpetualChase,
            Some(Violation::CheckChase) => Termination::CheckChase,
            Some(Violation::PerpetualMateThreat) => Termination::PerpetualMateThreat,
            Some(Violation::MateThreatMixed) => Termination::MateThreatMixed,
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

pub use crate::notation::MoveError;

/// What is wrong at the place a [`ReplayError`] gives.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// The record could not be read.
    #[error("unreadable: {0}")]
    Unreadable(String),
    /// The start position does not read, or is no legal position.
    #[error(transparent)]
    Start(#[from] FromFenError),
    /// A move does not replay; `over` when the game was already over.
    #[error("{error}{}", over.map(game_over).unwrap_or_default())]
    Move {
        /// Why.
        error: MoveError,
        /// The end of the game before the move, when it had ended.
        over: Option<Outcome>,
    },
}

/// ` (the game was already over: Red is checkmated)`.
fn game_over(outcome: Outcome) -> String {
    match outcome {
        Outcome::Checkmate { winner } => format!(" (the game was already over: {} is checkmated)", !winner),
        Outcome::Stalemate { winner } => format!(" (the game was already over: {} has no move)", !winner),
    }
}

/// A move that could not be replayed.
///
/// ```
/// use qipu::record::Span;
/// let record = &qipu::formats::pgn::read("1. h2e2 h9g7 (1... h9g7 2. h2e2) 2. h0g2 *")[0];
/// let e = record.replayed().error.clone().unwrap();
/// // In the variation: the cannon has already left h2.
/// assert_eq!((e.ply, e.text.as_str(), e.at), (3, "h2e2", Span { line: 1, column: 28 }));
/// assert!(e.in_variation());
/// assert_eq!(e.variation.as_ref().unwrap().ply, 2);
/// assert!(e.to_string().starts_with("in the variation 1... h9g7 (in place of ply 2): ply 3"), "{e}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The ply of the move in its line (1 = the first move of the game;
    /// in a variation, counted from the start of the game too); 0 for a
    /// bad start position or an unreadable record.
    pub ply: usize,
    /// The move as written (empty for a bad start position).
    pub text: String,
    /// Where it was written.
    pub at: Span,
    /// The variation it lies in, `None` on the main line.
    pub variation: Option<Variation>,
    /// Why.
    pub problem: Problem,
}

/// Where a variation leaves the main line: the variation, or the one it
/// lies within, is played instead of the main line's move at `ply`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// The main-line ply it replaces.
    pub ply: usize,
    /// Its first move, as written.
    pub first: String,
}

impl fmt::Display for Variation {
    /// `the variation 12... 车８进５ (in place of ply 12)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let number = self.ply.div_ceil(2);
        let dots = if self.ply % 2 == 1 { "." } else { "..." };
        write!(f, "the variation {number}{dots} {} (in place of ply {})", self.first, self.ply)
    }
}

impl ReplayError {
    /// Whether it lies in a variation rather than the main line.
    pub fn in_variation(&self) -> bool {
        self.variation.is_some()
    }

    /// Why, in words.
    pub fn message(&self) -> String {
        self.problem.to_string()
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ply == 0 {
            if self.at == Span::default() {
                return write!(f, "start position: {}", self.problem);
            }
            return write!(f, "start position ({}): {}", self.at, self.problem);
        }
        if let Some(v) = &self.variation {
            write!(f, "in {v}: ")?;
        }
        write!(f, "ply {}", self.ply)?;
        if self.at != Span::default() {
            write!(f, " ({})", self.at)?;
        }
        write!(f, ": {}: {}", self.text, self.problem)
    }
}

/// A replayed game.
///
/// ```
/// let record = &qipu::formats::pgn::read("1. h2e2 h9g7 (1... b9c7) 2. h0g2 *")[0];
/// let replayed = record.replayed();
/// assert!(replayed.is_valid() && replayed.has_start());
/// assert_eq!((replayed.plies, replayed.variation_plies), (3, 1));
/// assert_eq!(replayed.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["h2e2", "h9g7", "h0g2"]);
/// // Which move each node of the tree is, variations included.
/// let alternative = record.tree().next_sibling(record.tree().main_line().nth(1).unwrap()).unwrap();
/// assert_eq!(replayed.resolution.move_of(alternative).unwrap().to_string(), "b9c7");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// The start position, and (from [`replay`]) the move of every node
    /// that replayed.
    pub resolution: Resolution,
    /// The main-line moves that replayed, in order (left empty by a
    /// [`Replayer`] told not to keep them).
    pub moves: Vec<Move>,
    /// How many main-line moves replayed.
    pub plies: usize,
    /// Plies replayed in variations.
    pub variation_plies: usize,
    /// The first wrong move: of the main line if there is one, else of the
    /// first variation that holds one (in the order the record gives
    /// them).
    pub error: Option<ReplayError>,
    /// How the main line ends, when it was replayed to its end.
    pub termination: Option<Termination>,
    /// A result that contradicts the final position (e.g. a draw recorded
    /// after a checkmate) or the ruling the game ends in (a win recorded
    /// for the side that checked perpetually), in words.
    pub result_conflict: Option<String>,
    /// The rule set the game was judged by.
    pub rules: RuleSet,
    /// Every repetition of the main line, ruled, in order (empty unless
    /// the main line replayed to its end).
    pub rulings: Vec<Ruling>,
    /// Whether the game ends in the last of `rulings`: its final position
    /// stands within that repetition ([`Replayed::final_ruling`]).
    pub(crate) ends_in_ruling: bool,
    /// The first ply at which the natural move limit was reached, as the
    /// rule set counts.
    pub move_limit_at: Option<usize>,
    /// The first ply at which neither side had material that can win (0:
    /// the start position).
    pub dead_draw_at: Option<usize>,
    /// How the record was read otherwise than written (a diagram's side to
    /// move turned), besides the reader's own warnings.
    pub warnings: Vec<Warning>,
}

impl Replayed {
    /// Whether every move of the record replayed.
    pub fn is_valid(&self) -> bool {
        self.error.is_none()
    }

    /// The ruling the game ends in, if it ends in a repetition.
    ///
    /// ```
    /// use qipu::record::replay::Termination;
    /// let pgn = "[FEN \"3ak3C/4a2R1/9/4p3p/2r1rcR2/4C4/1n2P3P/B3B4/4A4/1c2KA3 w - - 0 1\"]\n[Result \"1-0\"]\n\
    ///            1. g5g9 f5f9 2. g9g5 f9f5 3. g5g9 f5f9 4. g9g5 f9f5 5. g5g9 1-0";
    /// let records = qipu::formats::pgn::read(pgn);
    /// let replayed = records[0].replayed();
    /// assert_eq!(replayed.termination, Some(Termination::PerpetualCheck));
    /// assert_eq!(replayed.final_ruling().unwrap().plies, [0, 4, 8]);
    /// assert!(replayed.result_conflict.as_ref().unwrap().contains("Red checks perpetually"));
    /// ```
    pub fn final_ruling(&self) -> Option<&Ruling> {
        self.rulings.last().filter(|_| self.ends_in_ruling)
    }

    /// Whether the game's start position could be set up (the record was
    /// read and its start position is legal): only then do
    /// `resolution.start` and `moves` describe the game.
    pub fn has_start(&self) -> bool {
        self.resolution.start.is_some()
    }

    /// The result the rules give the end of the main line, when it is an
    /// end: a win for the side that checkmated or stalemated, or whose
    /// opponent broke the rules in the repetition the game ends in; a draw
    /// for a repetition that neither side, or both, broke, the natural move
    /// limit, or no material left that can win. `None` when the main line
    /// did not replay to its end or its end decides nothing.
    pub(crate) fn decided_result(&self) -> Option<GameResult> {
        let win_for = |c: Color| match c {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        };
        match self.termination? {
            Termination::Checkmate | Termination::Stalemate => {
                // The side to move at the end has no move, and loses.
                let start = self.resolution.start.as_ref()?.turn();
                let to_move = if self.plies.is_multiple_of(2) { start } else { !start };
                Some(win_for(!to_move))
            }
            Termination::MoveLimit | Termination::DeadDraw | Termination::Repetition => {
                Some(GameResult::Draw)
            }
            _ => match self.final_ruling()?.verdict {
                Verdict::Loses(loser) => Some(win_for(!loser)),
                Verdict::Draw => Some(GameResult::Draw),
            },
        }
    }
}

/// Which line of a game a move or position is on: the main line, or a
/// variation named by the path of variation numbers that leads to it.
///
/// The variations that branch off one line are numbered 1, 2, 3 … in the
/// order the record gives them (wherever along the line they branch, and
/// counting those that are not replayed); a variation's path is the path
/// of the line it branches off followed by its number. It is written
/// `0` for the main line, else the numbers joined by `.`: `2` is the
/// second variation of the main line, `2.1` the first variation within
/// it. With the ply, it says where a position stands in the game tree.
/// The numbers follow the variations as the reader gives them: a record
/// read whole into a [`Record`] (a tree) gives an alternative to a
/// variation's first move as one more variation of the line above.
///
/// ```
/// use qipu::record::replay::LineId;
/// assert_eq!(LineId::MAIN.to_string(), "0");
/// assert!(LineId::MAIN.is_main());
/// assert_eq!(LineId::new(&[2, 1]).to_string(), "2.1");
/// assert_eq!(LineId::new(&[2, 1]).numbers(), [2, 1]);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LineId<'a>(&'a [u32]);

impl<'a> LineId<'a> {
    /// The main line.
    pub const MAIN: LineId<'static> = LineId(&[]);

    /// The line whose path of variation numbers is `numbers` (none: the
    /// main line).
    pub fn new(numbers: &'a [u32]) -> LineId<'a> {
        LineId(numbers)
    }

    /// The variation numbers from the main line down; empty for the main
    /// line.
    pub fn numbers(&self) -> &'a [u32] {
        self.0
    }

    /// Whether it is the main line.
    pub fn is_main(&self) -> bool {
        self.0.is_empty()
    }

    /// How deep the variation is nested: 0 for the main line, 1 for its
    /// variations.
    pub fn depth(&self) -> usize {
        self.0.len()
    }
}

/// The deepest variation (see [`LineId::depth`]) whose positions a trail
/// of every line writes. A line's id grows with its depth, so writing it
/// with each position of ever deeper variations (hostile input nests
/// thousands) would make the output grow with the square of the input;
/// real records nest a few levels.
pub const MAX_LINE_DEPTH: usize = 64;

impl fmt::Display for LineId<'_> {
    /// `0`, `2`, `2.1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some((first, rest)) = self.0.split_first() else { return f.write_str("0") };
        write!(f, "{first}")?;
        for n in rest {
            write!(f, ".{n}")?;
        }
        Ok(())
    }
}

/// What a [`Replayer`] tells as the main line is replayed: the start, and
/// each move with the positions before and after it. The methods do
/// nothing unless a follower says otherwise; `()` follows nothing.
///
/// A follower that counts captures, handed on by a
/// [`Checker`](crate::batch::Checker) with each game:
///
/// ```
/// use qipu::{Move, Position};
/// use qipu::batch::Checker;
/// use qipu::formats::pgn;
/// use qipu::record::replay::Follow;
///
/// #[derive(Default)]
/// struct Captures(usize);
///
/// impl Follow for Captures {
///     type Output = usize;
///     fn before_move(&mut self, before: &Position, m: Move) {
///         self.0 += usize::from(before.board().piece_at(m.to).is_some());
///     }
///     fn end(&mut self) -> usize {
///         std::mem::take(&mut self.0)
///     }
/// }
///
/// let games = pgn::read_with("1. h2h9 i9h9 *", &mut Checker::following(Captures::default()));
/// assert_eq!(games[0].followed, 2);
/// ```
pub trait Follow {
    /// What the follower makes of a game's main line.
    type Output;

    /// The start position is set up (legal).
    fn start(&mut self, start: &Position) {
        let _ = start;
    }

    /// A main-line move `m` is about to be played in `before`.
    fn before_move(&mut self, before: &Position, m: Move) {
        let _ = (before, m);
    }

    /// The main-line move `m` was played: `after` is the position now.
    fn after_move(&mut self, after: &Position, m: Move) {
        let _ = (after, m);
    }

    /// A variation begins, from `from` (the position before the move it
    /// is played instead of), `ply` plies into the game; `line` names it.
    /// Only variations that are replayed are told: not those of a line
    /// after its wrong move, nor their own variations. `Skip(true)` has
    /// the replay go past it: none of its moves is replayed or told, its
    /// end is not told, and a wrong move in it is not found.
    fn begin_variation(&mut self, from: &Position, ply: usize, line: LineId<'_>) -> Skip {
        let _ = (from, ply, line);
        Skip(false)
    }

    /// A move `m` of a variation is about to be played in `before`.
    fn before_variation_move(&mut self, before: &Position, m: Move) {
        let _ = (before, m);
    }

    /// A move `m` of a variation was played: `after` is the position in
    /// the variation now.
    fn variation_move(&mut self, after: &Position, m: Move) {
        let _ = (after, m);
    }

    /// A variation ended: the replay is back on `line`, in `back`, `ply`
    /// plies into the game (where the line stood before the variation).
    fn end_variation(&mut self, back: &Position, ply: usize, line: LineId<'_>) {
        let _ = (back, ply, line);
    }

    /// The comment after the move last told (of the main line or of a
    /// variation), whole (several comments in a row joined by line breaks,
    /// as [`Node::comment`](super::Node::comment) holds them): told once,
    /// when the next thing about the game comes (a move, a variation's
    /// beginning or end, the game's end), so before it. Comments before the
    /// first move of the game or of a variation, and after a variation's
    /// end, are not told.
    fn comment(&mut self, comment: &str) {
        let _ = comment;
    }

    /// Asked after each move played, of the main line or a variation:
    /// `Break` stops the game, so that no more moves are replayed or told
    /// (variations begun are ended, then [`Follow::end`] is called). The
    /// replay then says what was played up to there: a wrong move after
    /// it is not found.
    fn go_on(&mut self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// The game ends: what the follower made of it. The follower is then
    /// ready for the next game (whose start may not be told, when it is
    /// not a legal position).
    fn end(&mut self) -> Self::Output;
}

impl Follow for () {
    type Output = ();

    fn end(&mut self) {}
}

/// Two followers told the same: what a selection needs beside what a
/// command gathers. A variation is skipped, and a game stopped, only when
/// both ask for it (the one that asked is then told the rest).
///
/// ```
/// use qipu::batch::Checker;
/// use qipu::record::replay::FirstMoves;
/// let games = qipu::formats::pgn::read_with("1. h2e2 h9g7 *", &mut Checker::following((FirstMoves::new(1), FirstMoves::new(2))));
/// let (one, two) = &games[0].followed;
/// assert_eq!((one.as_ref().unwrap().1.len(), two.as_ref().unwrap().1.len()), (1, 2));
/// ```
impl<A: Follow, B: Follow> Follow for (A, B) {
    type Output = (A::Output, B::Output);

    #[inline]
    fn start(&mut self, start: &Position) {
        self.0.start(start);
        self.1.start(start);
    }

    #[inline]
    fn before_move(&mut self, before: &Position, m: Move) {
        self.0.before_move(before, m);
        self.1.before_move(before, m);
    }

    #[inline]
    fn after_move(&mut self, after: &Position, m: Move) {
        self.0.after_move(after, m);
        self.1.after_move(after, m);
    }

    #[inline]
    fn begin_variation(&mut self, from: &Position, ply: usize, line: LineId<'_>) -> Skip {
        let (a, b) = (self.0.begin_variation(from, ply, line), self.1.begin_variation(from, ply, line));
        Skip(a.0 && b.0)
    }

    #[inline]
    fn before_variation_move(&mut self, before: &Position, m: Move) {
        self.0.before_variation_move(before, m);
        self.1.before_variation_move(before, m);
    }

    #[inline]
    fn variation_move(&mut self, after: &Position, m: Move) {
        self.0.variation_move(after, m);
        self.1.variation_move(after, m);
    }

    #[inline]
    fn end_variation(&mut self, back: &Position, ply: usize, line: LineId<'_>) {
        self.0.end_variation(back, ply, line);
        self.1.end_variation(back, ply, line);
    }

    fn comment(&mut self, comment: &str) {
        self.0.comment(comment);
        self.1.comment(comment);
    }

    #[inline]
    fn go_on(&mut self) -> ControlFlow<()> {
        match (self.0.go_on(), self.1.go_on()) {
            (ControlFlow::Break(()), ControlFlow::Break(())) => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    }

    fn end(&mut self) -> Self::Output {
        (self.0.end(), self.1.end())
    }
}

/// A move as the record writes it, lent: text in some notation, or
/// coordinates.
#[derive(Copy, Clone)]
enum Written<'a> {
    /// Text, resolved against the position.
    Text(&'a str),
    /// Coordinates, as binary formats store them.
    Coords(Move),
}

impl<'a> Written<'a> {
    /// The move of a record, lent.
    #[inline]
    fn of(mv: &'a RecordedMove) -> Written<'a> {
        match &mv.text {
            MoveText::Text(t) => Written::Text(t),
            MoveText::Coords(m) => Written::Coords(*m),
        }
    }

    /// Resolves the move in `pos`.
    #[inline(always)]
    fn resolve(self, pos: &Position, dialect: &mut Dialect) -> Result<Move, MoveError> {
        match self {
            Written::Text(t) => match iccs::parse_plain(t.as_bytes()) {
                // Not `E5e3`, which may be SAN: the dialect decides.
                Some(m) if !san_shaped_coordinates(t.as_bytes()) => Ok(m.resolve(pos)?),
                _ => resolve_any_in_game(pos, t, dialect),
            },
            Written::Coords(m) => match pos.illegality(m) {
                None => Ok(m),
                Some(why) => Err(MoveError::Illegal(why)),
            },
        }
    }

    /// The move as written.
    fn written(self) -> String {
        match self {
            Written::Text(t) => t.to_string(),
            Written::Coords(m) => m.to_string(),
        }
    }
}

/// Whether coordinates (`E5e3`, `E5-e3`: text [`iccs::parse_plain`] reads)
/// may be SAN with a rank disambiguator too: an upper-case piece letter
/// that is also a file letter, then a lower-case destination file (what
/// `notation::any::san_shaped` tells of any text).
#[inline(always)]
fn san_shaped_coordinates(text: &[u8]) -> bool {
    match *text {
        [a, _, c, _] | [a, _, b'-', c, _] => {
            matches!(a, b'A' | b'B' | b'C' | b'E' | b'H') && c.is_ascii_lowercase()
        }
        _ => false,
    }
}

/// How the start of a game reads.
#[derive(Clone, Debug)]
enum Start {
    /// Not worked out yet.
    Unknown,
    /// The placement as read and the legal position it is.
    Legal(Setup),
    /// No legal position: the placement, if it could be read, and why.
    Rejected(Option<Setup>, FromFenError),
}

/// A line a variation was begun from.
#[derive(Clone, Debug)]
struct Frame {
    /// The line, as it stood.
    line: Line,
    /// How many moves [`Replayer::played`] held when the variation began.
    mark: usize,
    /// The line's last move, taken back for the variation, to play again
    /// when it ends.
    redo: Option<Move>,
}

/// One line being replayed: the main line or a variation.
#[derive(Clone, Debug, Default)]
struct Line {
    /// The last move played in this line, to take back for a variation.
    last: Option<Undo>,
    /// Plies from the start of the game to where the line stands.
    ply: usize,
    /// A move of the line did not replay: the rest of it is not replayed.
    failed: bool,
    /// Moves read after the one that failed.
    after_failure: usize,
    /// Whether this is the main line.
    main: bool,
    /// How many variations have begun from this line, replayed or not.
    variations: u32,
    /// The variation that leaves the main line, for reports (set on its
    /// first move).
    top: Option<std::sync::Arc<Variation>>,
}

/// The visitor that replays each game (see the [module docs](self)).
/// Follow the main line with a [`Follow`] (`Replayer::following`).
///
/// One replayer reads any number of games, one after the other, and needs
/// no record: the memory it holds grows with the main line only, or not at
/// all without the moves ([`Replayer::keep_moves`]).
///
/// ```
/// use qipu::record::replay::Replayer;
/// let text = "1. h2e2 h9g7 2. h0g2 *\n\n1. h2e2 h9g7 2. h2e9 *\n";
/// let games = qipu::formats::pgn::read_with(text, &mut Replayer::default().keep_moves(false));
/// assert!(games[0].is_valid() && games[0].moves.is_empty());
/// assert_eq!((games[0].plies, games[1].plies), (3, 2));
/// assert_eq!(games[1].error.as_ref().map(|e| e.ply), Some(3));
/// ```
#[derive(Debug)]
pub struct Replayer<F = ()> {
    follow: F,
    /// Keep the main line's moves in [`Replayed::moves`].
    keep_moves: bool,
    game_at: Span,
    fen: Option<(String, Span)>,
    /// A FEN tag was seen (only the first counts, empty or not).
    fen_seen: bool,
    result_tag: Option<GameResult>,
    result_tag_seen: bool,
    result: Option<GameResult>,
    unreadable: Option<Warning>,
    start: Start,
    start_warning: Option<Warning>,
    /// The start position, once set up.
    start_pos: Option<Position>,
    pos: Position,
    /// The repetitions, the move limit and the dead draw, followed.
    arbiter: Arbiter,
    moves: Vec<Move>,
    plies: usize,
    line: Line,
    /// The lines a variation was begun from, innermost last.
    frames: Vec<Frame>,
    /// The [`LineId`] of the line being replayed.
    path: Vec<u32>,
    /// How to take back the moves played in variations, in order: the
    /// position a variation leaves is found again by taking its moves back
    /// (a few bytes a move, where a saved position is hundreds a
    /// variation).
    played: Vec<Undo>,
    /// How the game's moves are written, as far as its moves have shown.
    dialect: Dialect,
    /// A SAN move of the main line read two ways (ranks from 0 or from 1)
    /// and the events held since, until a later move tells which.
    lookahead: Option<Box<Lookahead>>,
    /// A lookahead ended undecided: SAN moves read two ways are errors.
    undecided: bool,
    /// What each move given replayed as, in order (see [`replay`]).
    trace: Option<Vec<Option<Move>>>,
    main_error: Option<ReplayError>,
    variation_error: Option<ReplayError>,
    variation_plies: usize,
    any_move: bool,
    /// The move the last `mv` replayed as.
    last: Option<Move>,
    /// The follower stopped the game ([`Follow::go_on`]).
    stopped: bool,
    /// A move was just told: the comments read now are its.
    told: bool,
    /// The comment of the move last told, read so far ([`Follow::comment`]).
    comment: String,
}

impl Default for Replayer<()> {
    fn default() -> Replayer<()> {
        Replayer::following(())
    }
}

impl<F: Follow> Replayer<F> {
    /// A replayer that tells `follow` of the main line.
    pub fn following(follow: F) -> Replayer<F> {
        let pos = Position::start();
        Replayer {
            follow,
            keep_moves: true,
            game_at: Span::default(),
            fen: None,
            fen_seen: false,
            result_tag: None,
            result_tag_seen: false,
            result: None,
            unreadable: None,
            start: Start::Unknown,
            start_warning: None,
            start_pos: None,
            arbiter: Arbiter::new(RuleSet::default(), &pos),
            pos,
            moves: Vec::new(),
            plies: 0,
            line: Line { main: true, ..Line::default() },
            frames: Vec::new(),
            path: Vec::new(),
            played: Vec::new(),
            dialect: Dialect::default(),
            lookahead: None,
            undecided: false,
            trace: None,
            main_error: None,
            variation_error: None,
            variation_plies: 0,
            any_move: false,
            last: None,
            stopped: false,
            told: false,
            comment: String::new(),
        }
    }

    /// The rule set repetitions, the move limit and results are judged by
    /// (the Asian rules unless told).
    pub fn rules(mut self, rules: RuleSet) -> Replayer<F> {
        self.arbiter.set_rules(rules);
        self
    }

    /// Sets the rule set, for the games to come.
    pub(crate) fn set_rules(&mut self, rules: RuleSet) {
        self.arbiter.set_rules(rules);
    }

    /// Whether to keep the main line's moves ([`Replayed::moves`]); without
    /// them a game of any length needs only its history.
    pub fn keep_moves(mut self, keep: bool) -> Replayer<F> {
        self.keep_moves = keep;
        self
    }

    /// The follower.
    pub fn follower(&self) -> &F {
        &self.follow
    }

    /// The follower, to change it.
    pub(crate) fn follower_mut(&mut self) -> &mut F {
        &mut self.follow
    }

    /// The move the last move read replayed as, if it did.
    pub fn last_move(&self) -> Option<Move> {
        self.last
    }

    /// Where the record gives its start position: the `FEN` tag, else the
    /// game's start.
    fn start_place(&self) -> Span {
        match &self.fen {
            Some((_, at)) if *at != Span::default() => *at,
            _ => self.game_at,
        }
    }

    /// Sets up the start position, the first time it is needed. One
    /// reading is relaxed: a game without moves whose side to move could
    /// take the other general (a diagram whose side to move was stored
    /// wrong, as XQF files often store it) is read with the other side to
    /// move.
    #[inline]
    fn set_up(&mut self) {
        if matches!(self.start, Start::Unknown) {
            self.set_up_now();
        }
    }

    #[cold]
    fn set_up_now(&mut self) {
        let setup = match &self.fen {
            None => Ok(Setup::start()),
            Some((fen, _)) => Setup::from_fen(fen),
        };
        self.start = match setup {
            // The standard start, checked once for every game.
            Ok(setup) if self.fen.is_none() => {
                self.pos = Position::start();
                Start::Legal(setup)
            }
            Err(e) => Start::Rejected(None, FromFenError::Syntax(e)),
            Ok(setup) => match Position::from_setup(setup.clone()) {
                Ok(pos) => {
                    self.pos = pos;
                    Start::Legal(setup)
                }
                Err(PositionError::OppositeCheck(checked)) if !self.any_move => {
                    let turned = Setup { turn: checked, ..setup.clone() };
                    match Position::from_setup(turned.clone()) {
                        Ok(pos) => {
                            let message = format!(
                                "the record says {} is to move, but {checked} is in check (its general \
                                 could be taken): read as a diagram with {checked} to move",
                                !checked
                            );
                            self.start_warning = Some(Warning { at: self.start_place(), message });
                            self.pos = pos;
                            Start::Legal(turned)
                        }
                        Err(_) => Start::Rejected(Some(setup), PositionError::OppositeCheck(checked).into()),
                    }
                }
                Err(e) => Start::Rejected(Some(setup), e.into()),
            },
        };
        if let Start::Legal(_) = self.start {
            self.arbiter.reset(&self.pos);
            self.start_pos = Some(self.pos.clone());
            self.follow.start(&self.pos);
        }
    }

    /// Whether moves are replayed at all: the record is read and its start
    /// is legal.
    fn replaying(&self) -> bool {
        self.unreadable.is_none() && matches!(self.start, Start::Legal(_))
    }

    fn reset(&mut self) {
        self.game_at = Span::default();
        self.fen = None;
        self.fen_seen = false;
        self.result_tag = None;
        self.result_tag_seen = false;
        self.result = None;
        self.unreadable = None;
        self.start = Start::Unknown;
        self.start_warning = None;
        self.start_pos = None;
        self.moves.clear();
        self.plies = 0;
        self.line = Line { main: true, ..Line::default() };
        self.frames.clear();
        self.path.clear();
        self.played.clear();
        self.dialect = Dialect::default();
        self.lookahead = None;
        self.undecided = false;
        self.main_error = None;
        self.variation_error = None;
        self.variation_plies = 0;
        self.any_move = false;
        self.last = None;
        self.stopped = false;
        self.told = false;
        self.comment.clear();
    }

    /// Tells the follower the comment of the move last told, if it has
    /// one, now that it is whole; comments read from now on are no move's
    /// until the next move is told.
    fn end_comment(&mut self) {
        self.told = false;
        if !self.comment.is_empty() {
            self.follow.comment(&self.comment);
            self.comment.clear();
        }
    }

    /// Replays the move `mv` written at `at`: [`Visitor::mv`] and
    /// [`Visitor::move_text`].
    #[inline(always)]
    fn replay_move(&mut self, mv: Written<'_>, at: Span) -> ControlFlow<()> {
        self.last = None;
        self.end_comment();
        if self.stopped {
            return ControlFlow::Break(());
        }
        self.any_move = true;
        self.set_up();
        if !self.replaying() {
            return ControlFlow::Continue(());
        }
        if self.line.failed {
            self.line.after_failure += 1;
            return ControlFlow::Continue(());
        }
        if !self.line.main {
            return self.replay_variation_move(mv, at);
        }
        match mv.resolve(&self.pos, &mut self.dialect) {
            Ok(m) => {
                self.follow.before_move(&self.pos, m);
                let undo = self.pos.play_unchecked(m);
                self.arbiter.push(&self.pos, m);
                if self.keep_moves {
                    self.moves.push(m);
                }
                self.plies += 1;
                self.follow.after_move(&self.pos, m);
                self.played_move(m, undo)
            }
            Err(error) => {
                self.move_failed(error, mv, at);
                ControlFlow::Continue(())
            }
        }
    }

    /// [`Replayer::replay_move`] in a variation: moves read SAN with the
    /// main line's convention, and keep none of their own.
    #[inline(never)]
    fn replay_variation_move(&mut self, mv: Written<'_>, at: Span) -> ControlFlow<()> {
        if self.line.top.is_none() {
            self.line.top =
                Some(std::sync::Arc::new(Variation { ply: self.line.ply + 1, first: mv.written() }));
        }
        let mut dialect = self.dialect;
        match mv.resolve(&self.pos, &mut dialect) {
            Ok(m) => {
                self.follow.before_variation_move(&self.pos, m);
                let undo = self.pos.play_unchecked(m);
                self.played.push(undo);
                self.variation_plies += 1;
                self.follow.variation_move(&self.pos, m);
                self.played_move(m, undo)
            }
            Err(error) => {
                self.move_failed(error, mv, at);
                ControlFlow::Continue(())
            }
        }
    }

    /// What follows every move replayed, `m` undone by `undo`.
    #[inline(always)]
    fn played_move(&mut self, m: Move, undo: Undo) -> ControlFlow<()> {
        self.line.last = Some(undo);
        self.line.ply += 1;
        self.last = Some(m);
        self.told = true;
        if self.follow.go_on().is_break() {
            self.stopped = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// The move `mv` written at `at` failed with `error`: a lookahead
    /// begins, or the line's error is noted and the line stops replaying.
    #[cold]
    #[inline(never)]
    fn move_failed(&mut self, error: MoveError, mv: Written<'_>, at: Span) {
        if let Some(look) = self.san_split(&error, mv, at) {
            self.lookahead = Some(look);
            return;
        }
        let error = self.out_of_turn(mv).unwrap_or(error);
        let over = if self.line.main { self.pos.outcome() } else { None };
        let e = ReplayError {
            ply: self.line.ply + 1,
            text: mv.written(),
            at,
            variation: self.line.top.as_deref().cloned(),
            problem: Problem::Move { error, over },
        };
        if self.line.main {
            self.main_error = Some(e);
        } else if self.variation_error.is_none() {
            self.variation_error = Some(e);
        }
        self.line.failed = true;
        self.line.after_failure = 0;
    }

    /// The game's result: the one written after the moves, else the
    /// `Result` tag.
    fn stated_result(&self) -> Option<GameResult> {
        self.result.or(self.result_tag)
    }

    /// [`Replayer::replay_move`], noting what the move replayed as in the
    /// trace, when one is kept (not for a move held by a lookahead it
    /// begins).
    #[inline(always)]
    fn traced_move(&mut self, mv: Written<'_>, at: Span) -> ControlFlow<()> {
        let flow = self.replay_move(mv, at);
        if let Some(trace) = &mut self.trace
            && self.lookahead.is_none()
        {
            trace.push(self.last);
        }
        flow
    }

    /// A lookahead, when the main line's move `mv` failed with `error`
    /// because it is SAN whose ranks the game has not settled, read as a
    /// different legal move counted from 0 and from 1 (`Ch4`: h2h4 or
    /// h2h3). The game's later moves decide: the move is held with them
    /// until only one count replays.
    #[cold]
    fn san_split(&self, error: &MoveError, mv: Written<'_>, at: Span) -> Option<Box<Lookahead>> {
        let ambiguous = matches!(error, MoveError::Resolve(crate::notation::ResolveError::Ambiguous { .. }));
        let Written::Text(text) = mv else { return None };
        if !ambiguous || !self.line.main || self.undecided || self.dialect.san_base().is_some() {
            return None;
        }
        let mut lines = [None, None];
        let mut found = [None, None];
        for base in 0..2u8 {
            if let Ok(m) = resolve_any_in_game(&self.pos, text, &mut Dialect::with_san_base(base)) {
                let mut pos = self.pos.clone();
                let _ = pos.play_unchecked(m);
                lines[base as usize] = Some(pos);
                found[base as usize] = Some(m);
            }
        }
        (found[0].is_some() && found[1].is_some() && found[0] != found[1]).then(|| {
            Box::new(Lookahead {
                held: vec![Held::Move(RecordedMove::text(text, at.line, at.column))],
                lines,
                depth: 0,
            })
        })
    }

    /// The error of a first move from the standard start, Red to move,
    /// that is a legal move of Black's: it says so.
    #[cold]
    fn out_of_turn(&self, mv: Written<'_>) -> Option<MoveError> {
        let pos = &self.pos;
        if self.line.ply != 0 || pos.turn() != Color::Red || *pos.board() != crate::Board::start() {
            return None;
        }
        let setup = Setup { board: pos.board().clone(), turn: Color::Black, halfmoves: 0, fullmoves: 1 };
        let black = Position::from_setup(setup).ok()?;
        let legal = match mv {
            Written::Text(t) => resolve_any_in_game(&black, t, &mut self.dialect.clone()).is_ok(),
            Written::Coords(m) => black.illegality(m).is_none(),
        };
        legal.then_some(MoveError::FirstMoveOutOfTurn(Color::Black))
    }

    /// Holds a move read during a lookahead, and ends the lookahead once
    /// the main line replays under one count of ranks only.
    fn hold_move(&mut self, mv: impl FnOnce() -> RecordedMove) -> ControlFlow<()> {
        let Some(look) = &mut self.lookahead else { return ControlFlow::Continue(()) };
        let mv = mv();
        if look.depth == 0 {
            for (base, line) in look.lines.iter_mut().enumerate() {
                let Some(pos) = line else { continue };
                let mut dialect = Dialect::with_san_base(base as u8);
                let played = match &mv.text {
                    MoveText::Text(t) => resolve_any_in_game(pos, t, &mut dialect).ok(),
                    MoveText::Coords(m) => pos.illegality(*m).is_none().then_some(*m),
                };
                match played {
                    Some(m) => {
                        let _ = pos.play_unchecked(m);
                    }
                    None => *line = None,
                }
            }
        }
        look.held.push(Held::Move(mv));
        match &look.lines {
            [Some(_), Some(_)] => {}
            [Some(_), None] => self.release(Some(0)),
            [None, Some(_)] => self.release(Some(1)),
            [None, None] => self.release(None),
        }
        ControlFlow::Continue(())
    }

    /// Ends the lookahead: SAN ranks counted from `base` (or, `None`,
    /// left open, the move read two ways an error), and the held events
    /// replayed in order.
    #[cold]
    fn release(&mut self, base: Option<u8>) {
        let Some(look) = self.lookahead.take() else { return };
        match base {
            Some(base) => self.dialect = Dialect::with_san_base(base),
            None => self.undecided = true,
        }
        // Variations open inside a skipped one.
        let mut skipping = 0usize;
        for held in look.held {
            if skipping > 0 {
                match held {
                    Held::BeginVariation => skipping += 1,
                    Held::EndVariation => skipping -= 1,
                    Held::Move(_) => {
                        if let Some(trace) = &mut self.trace {
                            trace.push(None);
                        }
                    }
                    Held::Comment(_) | Held::CommentBefore => {}
                }
                continue;
            }
            match held {
                Held::Move(mv) => {
                    let _ = self.traced_move(Written::of(&mv), mv.at);
                }
                Held::Comment(text) => self.comment(&text),
                Held::CommentBefore => self.comment_before(""),
                Held::BeginVariation => {
                    if self.begin_variation().0 {
                        skipping = 1;
                    }
                }
                Held::EndVariation => self.end_variation(),
            }
        }
    }
}

/// The main line replayed ahead under both counts of SAN ranks, from a
/// move that reads as a different legal move under each, and what the
/// reader told meanwhile.
#[derive(Debug)]
struct Lookahead {
    /// The events held, in order, the move read two ways first.
    held: Vec<Held>,
    /// The main line's position under ranks from 0 and from 1, `None` once
    /// a move does not replay under that count.
    lines: [Option<Position>; 2],
    /// Variations open among the events held (their moves are not
    /// replayed ahead).
    depth: usize,
}

/// An event held by a [`Lookahead`].
#[derive(Debug)]
enum Held {
    Move(RecordedMove),
    Comment(String),
    CommentBefore,
    BeginVariation,
    EndVariation,
}

impl<F: Follow> Visitor for Replayer<F> {
    type Output = Replayed;

    fn begin_game(&mut self, at: Span) {
        self.game_at = at;
    }

    fn tag(&mut self, name: &str, value: &str, at: Span) {
        if name.eq_ignore_ascii_case("FEN") && !self.fen_seen {
            self.fen_seen = true;
            let fen = value.trim();
            if !fen.is_empty() {
                self.fen = Some((fen.to_string(), at));
            }
        } else if name.eq_ignore_ascii_case("Result") && !self.result_tag_seen {
            self.result_tag_seen = true;
            self.result_tag = GameResult::parse(value);
        }
    }

    fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
        if self.lookahead.is_some() {
            return self.hold_move(|| mv.clone());
        }
        self.traced_move(Written::of(mv), mv.at)
    }

    #[inline]
    fn move_text(&mut self, text: &str, at: Span) -> ControlFlow<()> {
        if self.lookahead.is_some() {
            return self.hold_move(|| RecordedMove::text(text, at.line, at.column));
        }
        self.traced_move(Written::Text(text), at)
    }

    fn comment(&mut self, text: &str) {
        if let Some(look) = &mut self.lookahead {
            look.held.push(Held::Comment(text.to_string()));
            return;
        }
        if self.told {
            if !self.comment.is_empty() {
                self.comment.push('\n');
            }
            self.comment.push_str(text);
        }
    }

    fn comment_before(&mut self, text: &str) {
        if let Some(look) = &mut self.lookahead {
            look.held.push(Held::CommentBefore);
            return;
        }
        // The next move's: not the one last told.
        let _ = text;
        self.end_comment();
    }

    fn begin_variation(&mut self) -> Skip {
        if let Some(look) = &mut self.lookahead {
            look.held.push(Held::BeginVariation);
            look.depth += 1;
            return Skip(false);
        }
        self.end_comment();
        if !self.replaying() || self.stopped {
            return Skip(true);
        }
        self.line.variations = self.line.variations.saturating_add(1);
        let number = self.line.variations;
        let parent = &self.line;
        // A variation of a line that went wrong is replayed when it is an
        // alternative to the wrong move itself, from the position before it;
        // after that, nothing of the line is.
        let undo = match (parent.failed, parent.after_failure, parent.last) {
            (true, 0, _) => None,
            (true, _, _) => return Skip(true),
            (false, _, Some(undo)) => Some(undo),
            (false, _, None) => return Skip(true),
        };
        let line = Line {
            last: None,
            ply: if undo.is_some() { parent.ply - 1 } else { parent.ply },
            failed: false,
            after_failure: 0,
            main: false,
            variations: 0,
            top: if parent.main { None } else { parent.top.clone() },
        };
        let ply = line.ply;
        if let Some(undo) = undo {
            if !parent.main {
                // The parent's last move is the last one played.
                self.played.pop();
            }
            self.pos.undo(undo);
        }
        self.path.push(number);
        if self.follow.begin_variation(&self.pos, ply, LineId(&self.path)).0 {
            // Skipped: the line stands as it stood.
            self.path.pop();
            if let Some(undo) = undo {
                let again = self.pos.play_unchecked(undo.m);
                if !self.line.main {
                    self.played.push(again);
                }
                self.line.last = Some(again);
            }
            return Skip(true);
        }
        let frame = Frame {
            mark: self.played.len(),
            redo: undo.map(|u| u.m),
            line: std::mem::replace(&mut self.line, line),
        };
        self.frames.push(frame);
        Skip(false)
    }

    fn end_variation(&mut self) {
        if let Some(look) = &mut self.lookahead {
            look.held.push(Held::EndVariation);
            look.depth = look.depth.saturating_sub(1);
            return;
        }
        self.end_comment();
        if let Some(Frame { line, mark, redo }) = self.frames.pop() {
            // The variation's moves are taken back, and the move it was an
            // alternative to played again.
            while self.played.len() > mark {
                let undo = self.played.pop().expect("more moves than the mark");
                self.pos.undo(undo);
            }
            self.line = line;
            if let Some(m) = redo {
                let undo = self.pos.play_unchecked(m);
                if !self.line.main {
                    self.played.push(undo);
                }
                self.line.last = Some(undo);
            }
            self.path.pop();
            self.follow.end_variation(&self.pos, self.line.ply, LineId(&self.path));
        }
    }

    fn result(&mut self, result: GameResult) {
        self.result = Some(result);
    }

    fn unreadable(&mut self, why: Warning) {
        if self.unreadable.is_none() {
            self.unreadable = Some(why);
        }
    }

    fn end_game(&mut self) -> Replayed {
        #[cfg(test)]
        counting::count();
        if self.lookahead.is_some() {
            // Both readings replay to the end: neither is chosen.
            self.release(None);
        }
        self.end_comment();
        // Variations left open (a stop) are closed.
        while !self.frames.is_empty() {
            self.end_variation();
        }
        let replayed = if let Some(why) = &self.unreadable {
            not_replayed(
                None,
                ReplayError {
                    ply: 0,
                    text: String::new(),
                    at: why.at,
                    variation: None,
                    problem: Problem::Unreadable(why.message.clone()),
                },
            )
        } else {
            self.set_up();
            match &self.start {
                Start::Rejected(setup, e) => not_replayed(
                    setup.clone(),
                    ReplayError {
                        ply: 0,
                        text: String::new(),
                        at: self.start_place(),
                        variation: None,
                        problem: Problem::Start(e.clone()),
                    },
                ),
                Start::Legal(setup) => {
                    let setup = setup.clone();
                    self.replayed(setup)
                }
                Start::Unknown => unreachable_start(),
            }
        };
        self.reset();
        replayed
    }
}

impl<F: Follow> Replayer<F> {
    /// The replay of a game whose start, `setup`, is legal.
    fn replayed(&mut self, setup: Setup) -> Replayed {
        let error = self.main_error.take().or(self.variation_error.take());
        let main_complete = error.as_ref().is_none_or(|e| e.in_variation());
        let rules = self.arbiter.rules();
        let (ending, result_conflict) = if main_complete {
            let outcome = self.pos.outcome();
            let conflict =
                result_conflict(self.stated_result(), outcome, &Judged::of(&self.arbiter, outcome));
            (Ending::of(&mut self.arbiter, outcome), conflict)
        } else {
            (Ending::none(), None)
        };
        Replayed {
            resolution: Resolution { setup: Some(setup), start: self.start_pos.take(), moves: Vec::new() },
            moves: std::mem::take(&mut self.moves),
            plies: self.plies,
            variation_plies: self.variation_plies,
            error,
            termination: ending.termination,
            result_conflict,
            rules,
            rulings: ending.rulings,
            ends_in_ruling: ending.ends_in_ruling,
            move_limit_at: ending.move_limit_at,
            dead_draw_at: ending.dead_draw_at,
            warnings: self.start_warning.take().into_iter().collect(),
        }
    }
}

/// `set_up` always settles the start: were it not to, the game is told as
/// one whose start could not be read.
fn unreachable_start() -> Replayed {
    not_replayed(
        None,
        ReplayError {
            ply: 0,
            text: String::new(),
            at: Span::default(),
            variation: None,
            problem: Problem::Unreadable("the start position was not set up".into()),
        },
    )
}

/// A game whose moves cannot be replayed at all, and why.
fn not_replayed(setup: Option<Setup>, error: ReplayError) -> Replayed {
    Replayed {
        resolution: Resolution { setup, start: None, moves: Vec::new() },
        moves: Vec::new(),
        plies: 0,
        variation_plies: 0,
        error: Some(error),
        termination: None,
        result_conflict: None,
        rules: RuleSet::default(),
        rulings: Vec::new(),
        ends_in_ruling: false,
        move_limit_at: None,
        dead_draw_at: None,
        warnings: Vec::new(),
    }
}

/// How a main line played from `start` with `moves` (legal ones, as a
/// replay found them) ends, as a replay by `rules` judges it: the moves are
/// played, not resolved again.
pub(super) fn ending(rules: RuleSet, start: &Position, moves: &[Move]) -> Ending {
    let mut pos = start.clone();
    let mut arbiter = Arbiter::new(rules, &pos);
    for &m in moves {
        let _ = pos.play_unchecked(m);
        arbiter.push(&pos, m);
    }
    Ending::of(&mut arbiter, pos.outcome())
}

/// How a main line ends ([`ending`]): the fields of [`Replayed`] so named.
pub(super) struct Ending {
    pub(super) termination: Option<Termination>,
    pub(super) rulings: Vec<Ruling>,
    pub(super) ends_in_ruling: bool,
    pub(super) move_limit_at: Option<usize>,
    pub(super) dead_draw_at: Option<usize>,
}

impl Ending {
    /// What `arbiter` saw of a main line replayed to its end, whose final
    /// position ends the game as `outcome` says (its rulings taken).
    fn of(arbiter: &mut Arbiter, outcome: Option<Outcome>) -> Ending {
        Ending {
            termination: Judged::of(arbiter, outcome).termination,
            ends_in_ruling: arbiter.final_ruling().is_some(),
            move_limit_at: arbiter.move_limit_at(),
            dead_draw_at: arbiter.dead_draw_at(),
            rulings: arbiter.take_rulings(),
        }
    }

    /// A main line not replayed to its end: nothing judged.
    pub(super) fn none() -> Ending {
        Ending {
            termination: None,
            rulings: Vec::new(),
            ends_in_ruling: false,
            move_limit_at: None,
            dead_draw_at: None,
        }
    }
}

/// How many games were replayed on this thread, for the tests that count
/// replays.
#[cfg(test)]
pub(crate) mod counting {
    use std::cell::Cell;

    thread_local! {
        static REPLAYS: Cell<usize> = const { Cell::new(0) };
    }

    /// One more game replayed.
    pub(super) fn count() {
        REPLAYS.with(|n| n.set(n.get() + 1));
    }

    /// The games replayed on this thread so far.
    pub(crate) fn replays() -> usize {
        REPLAYS.with(Cell::get)
    }
}

/// How a main line ends, as its arbiter saw it.
struct Judged<'a> {
    termination: Option<Termination>,
    /// The ruling the game ends in.
    ruling: Option<&'a Ruling>,
    /// The game ends just as the move limit is reached, or just as the
    /// last piece that could win is taken.
    drawn_at_end: Option<Termination>,
    rules: RuleSet,
}

impl<'a> Judged<'a> {
    fn of(arbiter: &'a Arbiter, outcome: Option<Outcome>) -> Judged<'a> {
        let ruling = arbiter.final_ruling();
        let now = arbiter.history().plies();
        let limit = arbiter.limit_count() >= NATURAL_MOVE_LIMIT;
        let dead = arbiter.dead_draw_at().is_some();
        let termination = match outcome {
            Some(Outcome::Checkmate { .. }) => Some(Termination::Checkmate),
            Some(Outcome::Stalemate { .. }) => Some(Termination::Stalemate),
            None => match ruling {
                Some(r) => Some(Termination::of_ruling(r)),
                None if limit => Some(Termination::MoveLimit),
                None if dead => Some(Termination::DeadDraw),
                None => None,
            },
        };
        let drawn_at_end = match outcome {
            Some(_) => None,
            None if arbiter.move_limit_at() == Some(now) && now > 0 => Some(Termination::MoveLimit),
            None if arbiter.dead_draw_at() == Some(now) => Some(Termination::DeadDraw),
            None => None,
        };
        Judged { termination, ruling, drawn_at_end, rules: arbiter.rules() }
    }
}

fn result_conflict(
    result: Option<GameResult>,
    outcome: Option<Outcome>,
    judged: &Judged<'_>,
) -> Option<String> {
    let result = result.filter(|&r| r != GameResult::Unknown)?;
    let win_for = |c: Color| match c {
        Color::Red => GameResult::RedWins,
        Color::Black => GameResult::BlackWins,
    };
    if let Some(outcome) = outcome {
        let expected = win_for(outcome.winner());
        return (result != expected).then(|| {
            format!(
                "result {result} contradicts the final position: {} has no legal move, so {} wins",
                !outcome.winner(),
                outcome.winner()
            )
        });
    }
    if let Some(ruling) = judged.ruling {
        return match ruling.verdict {
            Verdict::Loses(loser) if result == win_for(loser) => {
                Some(format!("result {result} contradicts the repetition ruling: {ruling}"))
            }
            Verdict::Loses(_) if result == GameResult::Draw => Some(format!(
                "result {result} contradicts the repetition ruling, in which one side alone broke the rules: {ruling}"
            )),
            _ => None,
        };
    }
    match judged.drawn_at_end {
        Some(Termination::MoveLimit) if result != GameResult::Draw => Some(format!(
            "result {result} contradicts the final position: the natural move limit is reached ({} plies without a \
             capture, {}), a draw",
            NATURAL_MOVE_LIMIT,
            judged.rules.name()
        )),
        Some(Termination::DeadDraw) if result != GameResult::Draw => Some(format!(
            "result {result} contradicts the final position: neither side has material left that can win, a draw"
        )),
        _ => None,
    }
}

/// Replays `record`: every move of it, and which move each node of its
/// tree is ([`Resolution::move_of`]).
///
/// ```
/// use qipu::formats::pgn;
/// use qipu::record::replay::replay;
/// let record = &pgn::read("1. 炮二平五 马８进７\n2. 马二进四 *")[0];
/// let replayed = replay(record);
/// let e = replayed.error.unwrap();
/// assert_eq!((e.ply, e.text.as_str()), (3, "马二进四"));
/// assert!(e.to_string().contains("horse leg"));
/// ```
pub fn replay(record: &Record) -> Replayed {
    let mut moves = vec![None; record.tree.len()];
    let mut replayer = Replayer { trace: Some(Vec::new()), ..Replayer::default() };
    // A move's replay may wait for later moves (SAN read two ways): what
    // each move replayed as is read from the trace once the game is done.
    let mut ids = Vec::new();
    let mut replayed = record.walk(&mut replayer, |_, id: NodeId| ids.push(id));
    for (id, m) in ids.into_iter().zip(replayer.trace.take().unwrap_or_default()) {
        moves[id.index()] = m;
    }
    if replayed.has_start() {
        replayed.resolution.moves = moves;
    } else {
        replayed.resolution.moves = vec![None; record.tree.len()];
    }
    replayed
}

/// The start position of `record` and the first `plies` moves of its
/// main line, as far as they replay; `None` when the record is unreadable
/// or its start position is not a legal one.
pub fn opening(record: &Record, plies: usize) -> Option<(Position, Vec<Move>)> {
    let replayed = record.replayed();
    let start = replayed.resolution.start.clone()?;
    Some((start, replayed.moves.iter().take(plies).copied().collect()))
}

/// Follows the main line for its opening: the start position and the
/// first moves, as [`opening`] gives them of a record.
///
/// ```
/// use qipu::batch::Checker;
/// use qipu::formats::pgn;
/// use qipu::record::replay::FirstMoves;
/// let games = pgn::read_with("1. h2e2 h9g7 2. h0g2 *", &mut Checker::following(FirstMoves::new(2)));
/// let (start, moves) = games[0].followed.clone().unwrap();
/// assert_eq!((start, moves.len()), (qipu::Position::start(), 2));
/// ```
#[derive(Clone, Debug)]
pub struct FirstMoves {
    plies: usize,
    start: Option<Position>,
    moves: Vec<Move>,
}

impl FirstMoves {
    /// Keeps the first `plies` moves.
    pub fn new(plies: usize) -> FirstMoves {
        FirstMoves { plies, start: None, moves: Vec::new() }
    }
}

impl Follow for FirstMoves {
    /// The start position and the first moves; `None` when the start is
    /// no legal position.
    type Output = Option<(Position, Vec<Move>)>;

    fn start(&mut self, start: &Position) {
        self.start = Some(start.clone());
        self.moves.clear();
    }

    fn before_move(&mut self, _: &Position, m: Move) {
        if self.moves.len() < self.plies {
            self.moves.push(m);
        }
    }

    fn end(&mut self) -> Self::Output {
        let start = self.start.take()?;
        Some((start, std::mem::take(&mut self.moves)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pgn;
    use crate::record::Span;

    /// Tells each move and each comment a follower is told, in order.
    #[derive(Default)]
    struct Comments(Vec<String>);

    impl Follow for Comments {
        type Output = Vec<String>;
        fn after_move(&mut self, _: &Position, m: Move) {
            self.0.push(m.to_string());
        }
        fn variation_move(&mut self, _: &Position, m: Move) {
            self.0.push(format!("({m})"));
        }
        fn comment(&mut self, comment: &str) {
            self.0.push(format!("{{{comment}}}"));
        }
        fn end(&mut self) -> Vec<String> {
            std::mem::take(&mut self.0)
        }
    }

    #[test]
    fn decided_result_as_its_docs_showed() {
        use crate::record::GameResult;
        let records = crate::formats::pgn::read("1. h2e2 h9g7 *");
        assert_eq!(records[0].replayed().decided_result(), None); // not over
        // The rook mates: the general's neighbours are his own horses, and
        // the horse on c7 guards e8.
        let mate = "[FEN \"3nkn3/R8/2N6/9/9/9/9/9/9/3K5 w - - 0 1\"]\n1. a8e8 0-1";
        let records = crate::formats::pgn::read(mate);
        assert_eq!(records[0].replayed().decided_result(), Some(GameResult::RedWins));
    }

    #[test]
    fn followers_are_told_each_moves_comment_whole() {
        let text = "{game} 1. h2e2 {a} {b} ({before} 1. b2e2 {c}) {after the variation} \
                    1... h9g7 2. h0g2 {d} 2... i9h9 {e} *";
        let mut replayer = Replayer::following(Comments::default());
        let games = pgn::read_with(text, &mut replayer);
        assert!(games[0].is_valid());
        let told = replayer.follower_mut().end();
        assert_eq!(told, ["h2e2", "{a\nb}", "(b2e2)", "{c}", "h9g7", "h0g2", "{d}", "i9h9", "{e}"]);
    }

    fn replay_text(text: &str) -> Replayed {
        replay(&pgn::read(text)[0])
    }

    #[test]
    fn a_valid_game_in_three_notations() {
        let r = replay_text("1. 炮二平五 H8+7 3. h0g2 *");
        assert!(r.is_valid(), "{:?}", r.error);
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.termination, None);
    }

    #[test]
    fn the_first_wrong_move_is_reported_with_reason_and_place() {
        let r = replay_text("1. 炮二平五 马８进７\n2. 马二进四 *");
        let e = r.error.unwrap();
        assert_eq!((e.ply, e.text.as_str(), e.at), (3, "马二进四", Span { line: 2, column: 4 }));
        assert!(e.message().contains("horse leg"), "{}", e.message());
        assert_eq!(r.moves.len(), 2);
        let e = replay_text("1. 车一进九").error.unwrap();
        assert!(
            e.message().contains("path is blocked") || e.message().contains("illegal"),
            "{}",
            e.message()
        );
        // SAN with ranks 0-9 (h2h5) or 1-10 (h2h4): both legal, so ambiguous.
        let e = replay_text("1. Ch5").error.unwrap();
        assert!(e.message().contains("ambiguous"), "{}", e.message());
        let e = replay_text("1. Ca5").error.unwrap();
        assert!(e.message().contains("no Red cannon"), "{}", e.message());
        let e = replay_text("1. Zz9").error.unwrap();
        assert!(e.message().contains("not a Chinese, WXF, ICCS or SAN move"), "{}", e.message());
    }

    #[test]
    fn variations_are_replayed_from_their_own_position() {
        let r = replay_text("1. h2e2 h9g7 (1... b9c7 2. h0g2 (2. b0c2)) 2. h0g2 *");
        assert!(r.is_valid(), "{:?}", r.error);
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.variation_plies, 3);
        let r = replay_text("1. h2e2 h9g7 (1... h9g7 2. h2e2) 2. h0g2 *");
        let e = r.error.unwrap();
        assert!(e.in_variation() && e.ply == 3, "{e:?}");
        // A wrong move deep in a variation names where it leaves the main line.
        let r = replay_text("1. h2e2 h9g7 2. h0g2 (2. b0c2 b9c7 (2... i9i8 3. i0i1 i8i8)) 2... b9c7 *");
        let e = r.error.unwrap();
        assert_eq!(e.variation, Some(Variation { ply: 3, first: "b0c2".into() }));
        assert_eq!(
            e.to_string(),
            "in the variation 2. b0c2 (in place of ply 3): ply 6 (line 1, column 55): i8i8: illegal: i8 holds a Black rook of the moving side"
        );
    }

    #[test]
    fn a_variation_leaves_the_position_it_began_from() {
        // Each variation moves the pieces the line goes on with, and the
        // lines go on from where they were: the moves taken back, the one
        // replaced played again, at every depth.
        let text = "1. h2e2 h9g7 (1... b9c7 2. h0g2 (2. b2b6 (2. b2b4 c9e7) c9e7 3. b6b5) 2... a9a8) \
                    2. h0g2 (2. b2b4 (2. b2b6 c6c5) g6g5) 2... b9c7 3. b2b6 *";
        let r = replay_text(text);
        assert!(r.is_valid(), "{:?}", r.error);
        assert_eq!(r.moves.len(), 5);
        assert_eq!(r.variation_plies, 12);
        let mut pos = Position::start();
        for m in ["h2e2", "h9g7", "h0g2", "b9c7", "b2b6"] {
            let m = crate::notation::iccs::parse_plain(m.as_bytes()).unwrap().0;
            pos.play_unchecked(m);
        }
        let record = pgn::read(text).remove(0);
        assert_eq!(record.positions().last().map(|p| p.fen()), Some(pos.fen()));
        // Thousands of variations left open are closed at the end of the
        // game, and the main line was where it stood.
        let open = "(1... b9c7 ".repeat(10_000);
        let r = replay_text(&format!("1. h2e2 h9g7 {open}*"));
        assert!(r.is_valid(), "{:?}", r.error);
        assert_eq!((r.moves.len(), r.variation_plies), (2, 10_000));
    }

    #[test]
    fn termination_and_result_conflicts() {
        let mate = "[FEN \"3k5/R8/9/9/9/9/9/9/1R7/4K4 w\"]\n";
        let r = replay_text(&format!("{mate}1. b1b9 1-0"));
        assert_eq!(r.termination, Some(Termination::Checkmate));
        assert_eq!(r.result_conflict, None);
        let r = replay_text(&format!("{mate}1. b1b9 1/2-1/2"));
        assert!(r.result_conflict.unwrap().contains("Red wins"));
        let r = replay_text("[FEN \"3k5/4P4/4P4/9/9/9/9/9/9/3K5 w\"]\n1. d0e0 1-0");
        assert_eq!(r.termination, None); // e0 faces nothing: e8/e7 pawns stand between
        let r = replay_text("[FEN \"bad\"]\n1. h2e2");
        assert_eq!(r.error.unwrap().ply, 0);
    }

    #[test]
    fn two_moves_of_one_side_in_a_row_are_said_so() {
        let r = replay(
            &crate::formats::json::read(
                r#"{"tags":[],"fen":null,"result":null,"comment":null,"nodes":[{"id":1,"parent":0,"move":"h2e2","text":"h2e2"},{"id":2,"parent":1,"move":"b2b5","text":"b2b5"}]}"#,
            )[0],
        );
        let e = r.error.unwrap();
        assert_eq!(e.message(), "the Red cannon moves, but it is Black's turn: two Red moves in a row");
    }

    /// Tells what a follower hears of the variations: `(line, ply, fen)`
    /// where each begins and ends, and each variation move.
    #[derive(Default)]
    struct Lines(Vec<String>);

    impl Follow for Lines {
        type Output = Vec<String>;

        fn begin_variation(&mut self, from: &Position, ply: usize, line: LineId<'_>) -> Skip {
            self.0.push(format!("begin {line} {ply} {}", from.fen()));
            Skip(false)
        }

        fn before_variation_move(&mut self, before: &Position, m: Move) {
            assert!(before.is_legal(m));
        }

        fn variation_move(&mut self, _: &Position, m: Move) {
            self.0.push(format!("move {m}"));
        }

        fn end_variation(&mut self, back: &Position, ply: usize, line: LineId<'_>) {
            self.0.push(format!("end {line} {ply} {}", back.fen()));
        }

        fn end(&mut self) -> Vec<String> {
            std::mem::take(&mut self.0)
        }
    }

    #[test]
    fn followers_are_told_where_each_variation_begins_and_ends() {
        let fen_after = |moves: &[&str]| {
            let mut pos = Position::start();
            for m in moves {
                pos.play_unchecked(m.parse().unwrap());
            }
            pos.fen()
        };
        let (after_1, after_2) = (fen_after(&["h2e2"]), fen_after(&["h2e2", "h9g7"]));
        let after_b9c7 = fen_after(&["h2e2", "b9c7"]);
        // The second variation is left open: it is closed at the end.
        let text = "1. h2e2 h9g7 (1... b9c7 2. h0g2 (2. b0c2)) (1... c9e7 *";
        let mut checker = crate::batch::Checker::following(Lines::default());
        let heard = pgn::read_with(text, &mut checker).remove(0).followed;
        assert_eq!(
            heard,
            [
                format!("begin 1 1 {after_1}"),
                "move b9c7".into(),
                "move h0g2".into(),
                format!("begin 1.1 2 {after_b9c7}"),
                "move b0c2".into(),
                format!("end 1 3 {}", fen_after(&["h2e2", "b9c7", "h0g2"])),
                format!("end 0 2 {after_2}"),
                format!("begin 2 1 {after_1}"),
                "move c9e7".into(),
                format!("end 0 2 {after_2}"),
            ]
        );
    }

    /// Skips the variations `skip` says, and stops after `stop` moves
    /// played: what it was told, in order.
    struct Choosy {
        skip: fn(&LineId<'_>) -> bool,
        stop: usize,
        played: usize,
        heard: Vec<String>,
    }

    impl Follow for Choosy {
        type Output = Vec<String>;

        fn after_move(&mut self, _: &Position, m: Move) {
            self.played += 1;
            self.heard.push(m.to_string());
        }

        fn variation_move(&mut self, _: &Position, m: Move) {
            self.played += 1;
            self.heard.push(format!("({m})"));
        }

        fn begin_variation(&mut self, _: &Position, _: usize, line: LineId<'_>) -> Skip {
            Skip((self.skip)(&line))
        }

        fn go_on(&mut self) -> ControlFlow<()> {
            if self.played >= self.stop { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        }

        fn end(&mut self) -> Vec<String> {
            self.played = 0;
            std::mem::take(&mut self.heard)
        }
    }

    fn choosy(text: &str, skip: fn(&LineId<'_>) -> bool, stop: usize) -> (Vec<String>, Replayed) {
        let follow = Choosy { skip, stop, played: 0, heard: Vec::new() };
        let mut game = pgn::read_with(text, &mut crate::batch::Checker::following(follow)).remove(0);
        (std::mem::take(&mut game.followed), *game.replayed)
    }

    /// The replay of a follower that asks for nothing.
    fn plain(text: &str) -> Replayed {
        *pgn::read_with(text, &mut crate::batch::Checker::default()).remove(0).replayed
    }

    #[test]
    fn a_follower_skips_variations_and_stops_games() {
        // The variation's second move is wrong (no cannon on h2 after h2e2).
        let text = "1. h2e2 h9g7 (1... b9c7 2. h2h9) 2. h0g2 i9h9 3. i0h0 *";
        let all = |_: &LineId<'_>| false;
        let none = |_: &LineId<'_>| true;
        let (heard, replayed) = choosy(text, all, usize::MAX);
        assert_eq!(heard, ["h2e2", "h9g7", "(b9c7)", "h0g2", "i9h9", "i0h0"]);
        assert!(replayed.error.as_ref().is_some_and(|e| e.variation.is_some()), "{replayed:?}");
        // Skipped: the variation is not replayed, its error not found, and
        // the main line goes on from where it stood.
        let (heard, replayed) = choosy(text, none, usize::MAX);
        assert_eq!(heard, ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]);
        assert!(replayed.is_valid());
        assert_eq!((replayed.plies, replayed.variation_plies), (5, 0));
        assert_eq!(replayed, plain("1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 *"));
        // Stopped after two moves: nothing more is played, and a wrong move
        // after the stop is not found.
        let (heard, replayed) = choosy("1. h2e2 h9g7 2. h2h9 *", all, 2);
        assert_eq!(heard, ["h2e2", "h9g7"]);
        assert!(replayed.is_valid());
        assert_eq!(replayed.plies, 2);
        // Stopped inside a variation: the variation is ended, the main line
        // not played on.
        let (heard, replayed) = choosy(text, all, 3);
        assert_eq!(heard, ["h2e2", "h9g7", "(b9c7)"]);
        assert_eq!(replayed.plies, 2);
        // A follower that asks for nothing changes no verdict.
        assert_eq!(choosy(text, all, usize::MAX).1, plain(text));
    }

    #[test]
    fn a_skipped_variation_inside_a_variation_leaves_it_where_it_stood() {
        let text = "1. h2e2 h9g7 (1... b9c7 2. h0g2 (2. b0c2 b9a7) i9i8 3. i0h0) 2. h0g2 *";
        let nested = |line: &LineId<'_>| line.to_string().contains('.');
        let (heard, replayed) = choosy(text, nested, usize::MAX);
        assert_eq!(heard, ["h2e2", "h9g7", "(b9c7)", "(h0g2)", "(i9i8)", "(i0h0)", "h0g2"]);
        assert!(replayed.is_valid(), "{replayed:?}");
        assert_eq!(replayed.variation_plies, 4);
    }

    #[test]
    fn moves_after_the_end_are_explained() {
        let mate = "[FEN \"3k5/R8/9/9/9/9/9/9/1R7/4K4 w\"]\n";
        let e = replay_text(&format!("{mate}1. b1b9 d9d8")).error.unwrap();
        assert!(e.message().contains("already over"), "{}", e.message());
    }

    #[test]
    fn a_first_move_of_black_from_the_standard_start_is_out_of_turn() {
        // (Chinese and WXF moves are written as the mover sees the board:
        // Black's 炮８平５ is Red's 炮八平五 too.)
        for first in ["h7e7", "H7-E7", "h9g7"] {
            let e = replay_text(&format!("1. {first} h2e2 *")).error.unwrap();
            assert_eq!(e.ply, 1, "{first}");
            assert!(
                e.message().contains("Black moves first from the standard start; Red moves first"),
                "{first}: {}",
                e.message()
            );
        }
        // Said by the FEN: Black moves first.
        let fen = "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b\"]\n";
        assert!(replay_text(&format!("{fen}1. h7e7 h2e2 *")).is_valid());
        // Not a move of Black's either: the error as before.
        let e = replay_text("1. h7h1 *").error.unwrap();
        assert!(!e.message().contains("moves first"), "{}", e.message());
        // Later plies are not the first move.
        let e = replay_text("1. h2e2 h9g7 2. h7e7 *").error.unwrap();
        assert!(!e.message().contains("moves first"), "{}", e.message());
    }
}

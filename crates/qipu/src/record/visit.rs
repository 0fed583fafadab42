//! Reading a game as events, as pgn-reader reads chess: every reader of
//! every format calls a [`Visitor`] for each part of a game in the order a
//! PGN text writes it, and the visitor makes of them what it needs. Building
//! a [`Record`] is one visitor
//! ([`RecordBuilder`](super::RecordBuilder)); replaying, counting or
//! writing a trail are others, and need no tree: they can skip variations
//! or stop a game early.
//!
//! The calls of one game:
//!
//! ```text
//! begin_game
//!   tag*                       (the FEN tag gives the start position)
//!   (warning | unreadable)*    (whenever the reader meets a problem)
//!   comment*                   (about the game, before the first move)
//!   { mv  nag*  comment*
//!     ( begin_variation  [comment*]  mv ...  end_variation )* }*
//!   result?
//! end_game
//! ```
//!
//! A variation is an alternative to the move just played: it is played from
//! the position before it, and the line goes on after `end_variation` from
//! the position after it. Variations nest. A comment right after
//! `begin_variation` is said before the variation's first move.
//!
//! ```
//! use std::ops::ControlFlow;
//! use qipu::record::{RecordedMove, Span, Visitor, Skip};
//!
//! /// Counts the moves of the main line, skipping every variation.
//! #[derive(Default)]
//! struct MainLine(usize);
//!
//! impl Visitor for MainLine {
//!     type Output = usize;
//!     fn mv(&mut self, _: &RecordedMove) -> ControlFlow<()> {
//!         self.0 += 1;
//!         ControlFlow::Continue(())
//!     }
//!     fn begin_variation(&mut self) -> Skip {
//!         Skip(true)
//!     }
//!     fn end_game(&mut self) -> usize {
//!         std::mem::take(&mut self.0)
//!     }
//! }
//!
//! let games = qipu::formats::pgn::read_with("1. h2e2 h9g7 (1... b9c7 2. h0g2) 2. h0g2 *", &mut MainLine::default());
//! assert_eq!(games, [3]);
//! ```

use std::ops::ControlFlow;

use super::{GameResult, Record, RecordedMove, Span, Warning};

/// Whether to skip a variation: `Skip(true)` has the reader go past it
/// without calling the visitor for anything in it (see the [module
/// docs](self) for a visitor that skips every variation).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[must_use]
pub struct Skip(pub bool);

/// What a reader calls for each part of a game; see the [module
/// docs](self) for the order. Every method but [`Visitor::end_game`] does
/// nothing unless the visitor says otherwise.
///
/// Every reader takes a visitor: [`pgn::read_with`] for PGN text,
/// [`formats::read_with`] for the bytes of any format,
/// [`read_stream_with`] for any source read a piece at a time, and
/// [`Batch::run`] for many inputs. A visitor that gives each game's
/// players and the number of comments, and stops reading moves after the
/// tenth:
///
/// ```
/// use std::ops::ControlFlow;
/// use qipu::record::{RecordedMove, Span, Visitor};
///
/// #[derive(Default)]
/// struct Players {
///     red: String,
///     black: String,
///     moves: usize,
///     comments: usize,
/// }
///
/// impl Visitor for Players {
///     type Output = (String, String, usize);
///     fn tag(&mut self, name: &str, value: &str, _: Span) {
///         match name {
///             "Red" => self.red = value.to_string(),
///             "Black" => self.black = value.to_string(),
///             _ => {}
///         }
///     }
///     fn mv(&mut self, _: &RecordedMove) -> ControlFlow<()> {
///         self.moves += 1;
///         if self.moves < 10 { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
///     }
///     fn comment(&mut self, _: &str) {
///         self.comments += 1;
///     }
///     fn end_game(&mut self) -> (String, String, usize) {
///         let Players { red, black, comments, .. } = std::mem::take(self);
///         (red, black, comments)
///     }
/// }
///
/// let text = "[Red \"胡荣华\"]\n[Black \"杨官璘\"]\n1. 炮二平五 {中炮} 马８进７ {屏风马} *\n";
/// let games = qipu::formats::read_with(text.as_bytes(), None, &mut Players::default(), |g| assert_eq!(g.2, 2));
/// assert_eq!(games.unwrap().format.name(), "pgn");
/// let games = qipu::formats::pgn::read_with(text, &mut Players::default());
/// assert_eq!(games, [("胡荣华".to_string(), "杨官璘".to_string(), 2)]);
/// ```
///
/// [`pgn::read_with`]: crate::formats::pgn::read_with
/// [`formats::read_with`]: crate::formats::read_with
/// [`read_stream_with`]: crate::formats::stream::read_stream_with
/// [`Batch::run`]: crate::batch::Batch::run
pub trait Visitor {
    /// What a game gives the visitor's user.
    type Output;

    /// A game begins, at `at` in its source.
    fn begin_game(&mut self, at: Span) {
        let _ = at;
    }

    /// A tag, where it was written.
    fn tag(&mut self, name: &str, value: &str, at: Span) {
        let _ = (name, value, at);
    }

    /// A move as written. `Break` skips the rest of the game's moves (the
    /// reader still reads to the end of the game, and calls
    /// [`Visitor::result`] and [`Visitor::end_game`]).
    fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
        let _ = mv;
        ControlFlow::Continue(())
    }

    /// A move written as text (`h2e2`, `炮二平五`) at `at`, the text lent
    /// rather than copied into a [`RecordedMove`]: text readers (PGN) call
    /// this in place of [`Visitor::mv`]. By default it makes the
    /// [`RecordedMove`] and calls [`Visitor::mv`]; a visitor that needs no
    /// copy of the text answers it here, the same as `mv` would.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use qipu::record::{MoveText, RecordedMove, Span, Visitor};
    ///
    /// #[derive(Default)]
    /// struct Texts(Vec<String>);
    ///
    /// impl Visitor for Texts {
    ///     type Output = Vec<String>;
    ///     fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
    ///         if let MoveText::Text(t) = &mv.text {
    ///             self.0.push(t.to_string());
    ///         }
    ///         ControlFlow::Continue(())
    ///     }
    ///     fn end_game(&mut self) -> Vec<String> {
    ///         std::mem::take(&mut self.0)
    ///     }
    /// }
    ///
    /// let mut texts = Texts::default();
    /// let _ = texts.move_text("h2e2", Span { line: 1, column: 4 }); // told to `mv`
    /// assert_eq!(texts.end_game(), ["h2e2"]);
    /// ```
    #[inline]
    fn move_text(&mut self, text: &str, at: Span) -> ControlFlow<()> {
        self.mv(&RecordedMove::text(text, at.line, at.column))
    }

    /// An annotation glyph (`$1`, or a remark mark `!?` read as one) of the
    /// move just read.
    fn nag(&mut self, nag: u8) {
        let _ = nag;
    }

    /// A comment: after the move just read, or, before the first move,
    /// about the game.
    fn comment(&mut self, text: &str) {
        let _ = text;
    }

    /// A comment that a record keeps before a move (other than right after
    /// `begin_variation`, where [`Visitor::comment`] says the same): only
    /// records built by other means than a reader give these.
    fn comment_before(&mut self, text: &str) {
        self.comment(text);
    }

    /// A variation begins: an alternative to the move just read.
    fn begin_variation(&mut self) -> Skip {
        Skip(false)
    }

    /// The variation ends.
    fn end_variation(&mut self) {}

    /// The result written after the moves.
    fn result(&mut self, result: GameResult) {
        let _ = result;
    }

    /// A problem the reader met and worked around.
    fn warning(&mut self, warning: Warning) {
        let _ = warning;
    }

    /// The game cannot be read, and why (what was read of it is still
    /// given).
    fn unreadable(&mut self, why: Warning) {
        let _ = why;
    }

    /// The game ends: what the visitor makes of it. The visitor is then
    /// ready for the next game.
    fn end_game(&mut self) -> Self::Output;

    /// Whether the visitor builds records, as
    /// [`RecordBuilder`](super::RecordBuilder) does. A reader that holds a
    /// whole game before telling it (a binary file's tree, a DhtmlXQ block,
    /// a JSON line) then hands it over built ([`Visitor::record`]), its
    /// moves in the order the file stores them, which writers keep (JSON
    /// node numbers, XQF node records); other visitors are told its events
    /// and no record is built.
    fn builds_records(&self) -> bool {
        false
    }

    /// A whole game, built: by a reader that holds whole games for a
    /// visitor that [builds records](Visitor::builds_records) (no reader
    /// builds one for any other visitor). By default its events are visited
    /// ([`Record::visit`]); a visitor that builds records
    /// ([`RecordBuilder`](super::RecordBuilder)) takes it as it is.
    fn record(&mut self, record: Record) -> Self::Output
    where
        Self: Sized,
    {
        record.visit(self)
    }
}

/// A visitor lent out: readers that take a visitor by value take a `&mut`
/// one too.
impl<V: Visitor> Visitor for &mut V {
    type Output = V::Output;

    #[inline]
    fn begin_game(&mut self, at: Span) {
        (**self).begin_game(at)
    }

    #[inline]
    fn tag(&mut self, name: &str, value: &str, at: Span) {
        (**self).tag(name, value, at)
    }

    #[inline]
    fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
        (**self).mv(mv)
    }

    #[inline]
    fn move_text(&mut self, text: &str, at: Span) -> ControlFlow<()> {
        (**self).move_text(text, at)
    }

    #[inline]
    fn nag(&mut self, nag: u8) {
        (**self).nag(nag)
    }

    #[inline]
    fn comment(&mut self, text: &str) {
        (**self).comment(text)
    }

    #[inline]
    fn comment_before(&mut self, text: &str) {
        (**self).comment_before(text)
    }

    #[inline]
    fn begin_variation(&mut self) -> Skip {
        (**self).begin_variation()
    }

    #[inline]
    fn end_variation(&mut self) {
        (**self).end_variation()
    }

    #[inline]
    fn result(&mut self, result: GameResult) {
        (**self).result(result)
    }

    #[inline]
    fn warning(&mut self, warning: Warning) {
        (**self).warning(warning)
    }

    #[inline]
    fn unreadable(&mut self, why: Warning) {
        (**self).unreadable(why)
    }

    #[inline]
    fn end_game(&mut self) -> V::Output {
        (**self).end_game()
    }

    #[inline]
    fn builds_records(&self) -> bool {
        (**self).builds_records()
    }

    #[inline]
    fn record(&mut self, record: Record) -> V::Output {
        (**self).record(record)
    }
}

/// A visitor whose output is another's, made into something else as each
/// game ends (like [`Iterator::map`]): a record built and written at once,
/// on the thread that read it.
///
/// ```
/// use qipu::formats::pgn;
/// use qipu::record::{RecordBuilder, visit::Map};
/// let mut lengths = Map::new(RecordBuilder::default(), |record: qipu::record::Record| record.tree().main_line().count());
/// assert_eq!(pgn::read_with("1. h2e2 h9g7 2. h0g2 *", &mut lengths), vec![3]);
/// ```
#[derive(Clone, Debug)]
pub struct Map<V, F> {
    inner: V,
    f: F,
}

impl<V, F> Map<V, F> {
    /// `inner`, its output made into `f`'s.
    pub fn new(inner: V, f: F) -> Map<V, F> {
        Map { inner, f }
    }
}

impl<V: Visitor, R, F: FnMut(V::Output) -> R> Visitor for Map<V, F> {
    type Output = R;

    fn begin_game(&mut self, at: Span) {
        self.inner.begin_game(at)
    }

    fn tag(&mut self, name: &str, value: &str, at: Span) {
        self.inner.tag(name, value, at)
    }

    fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
        self.inner.mv(mv)
    }

    fn move_text(&mut self, text: &str, at: Span) -> ControlFlow<()> {
        self.inner.move_text(text, at)
    }

    fn nag(&mut self, nag: u8) {
        self.inner.nag(nag)
    }

    fn comment(&mut self, text: &str) {
        self.inner.comment(text)
    }

    fn comment_before(&mut self, text: &str) {
        self.inner.comment_before(text)
    }

    fn begin_variation(&mut self) -> Skip {
        self.inner.begin_variation()
    }

    fn end_variation(&mut self) {
        self.inner.end_variation()
    }

    fn result(&mut self, result: GameResult) {
        self.inner.result(result)
    }

    fn warning(&mut self, warning: Warning) {
        self.inner.warning(warning)
    }

    fn unreadable(&mut self, why: Warning) {
        self.inner.unreadable(why)
    }

    fn end_game(&mut self) -> R {
        (self.f)(self.inner.end_game())
    }

    fn builds_records(&self) -> bool {
        self.inner.builds_records()
    }

    fn record(&mut self, record: Record) -> R {
        (self.f)(self.inner.record(record))
    }
}

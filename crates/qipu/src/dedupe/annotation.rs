//! How annotated a game is: its comments, variations and tags, counted as
//! it is read, around any visitor.

use std::ops::ControlFlow;

use crate::record::{GameResult, RecordedMove, Skip, Span, Visitor, Warning};

/// A visitor that hands every event on to `inner` and counts the game's
/// comments, variations and tags: each game gives what `inner` makes of it
/// and the count (saturating).
///
/// ```
/// use qipu::batch::Checker;
/// use qipu::dedupe::Annotations;
/// let text = "[Red \"a\"]\n[Black \"b\"]\n1. h2e2 {中炮} h9g7 (1... b9c7) *";
/// let games = qipu::formats::pgn::read_with(text, &mut Annotations::new(Checker::default()));
/// assert_eq!(games[0].1, 4);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Annotations<V> {
    inner: V,
    count: u32,
}

impl<V> Annotations<V> {
    /// Counts around `inner`.
    pub fn new(inner: V) -> Annotations<V> {
        Annotations { inner, count: 0 }
    }

    fn add(&mut self) {
        self.count = self.count.saturating_add(1);
    }
}

impl<V: Visitor> Visitor for Annotations<V> {
    type Output = (V::Output, u32);

    fn begin_game(&mut self, at: Span) {
        self.count = 0;
        self.inner.begin_game(at);
    }

    fn tag(&mut self, name: &str, value: &str, at: Span) {
        self.add();
        self.inner.tag(name, value, at);
    }

    fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
        self.inner.mv(mv)
    }

    fn move_text(&mut self, text: &str, at: Span) -> ControlFlow<()> {
        self.inner.move_text(text, at)
    }

    fn nag(&mut self, nag: u8) {
        self.inner.nag(nag);
    }

    fn comment(&mut self, text: &str) {
        self.add();
        self.inner.comment(text);
    }

    fn comment_before(&mut self, text: &str) {
        self.add();
        self.inner.comment_before(text);
    }

    fn begin_variation(&mut self) -> Skip {
        self.add();
        self.inner.begin_variation()
    }

    fn end_variation(&mut self) {
        self.inner.end_variation();
    }

    fn result(&mut self, result: GameResult) {
        self.inner.result(result);
    }

    fn warning(&mut self, warning: Warning) {
        self.inner.warning(warning);
    }

    fn unreadable(&mut self, why: Warning) {
        self.inner.unreadable(why);
    }

    fn end_game(&mut self) -> (V::Output, u32) {
        let count = std::mem::take(&mut self.count);
        (self.inner.end_game(), count)
    }
}

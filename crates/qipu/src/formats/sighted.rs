//! Whether what a text reading gives is a game at all: a text of no known
//! format can read as move text by chance, and a reading none of whose
//! games has tags, a first move that reads as a move, or a result holds
//! no record.

use crate::notation;
use crate::record::{MoveText, Record, RecordedMove, Span, Visitor, Warning};

/// Whether a record read from text is a game: it has tags, or its first
/// move reads as a move in some notation.
pub(crate) fn looks_like_a_game(record: &Record) -> bool {
    if !record.tags().is_empty() {
        return true;
    }
    let Some(first) = record.tree().main_line().next() else { return record.written_result().is_some() };
    match record.tree().node(first).mv.as_ref().map(|mv| &mv.text) {
        Some(MoveText::Text(t)) => notation::is_move_text(t),
        Some(MoveText::Coords(_)) => true,
        None => false,
    }
}

/// A visitor that also tells whether each game looks like a game (as
/// [`looks_like_a_game`] says of a record): it has tags, or its first move
/// reads as a move, or, without moves, a result.
#[derive(Debug)]
pub(crate) struct Sighted<V> {
    inner: V,
    tags: bool,
    first_move: Option<bool>,
    result: bool,
}

impl<V: Visitor> Sighted<V> {
    pub(crate) fn new(inner: V) -> Sighted<V> {
        Sighted { inner, tags: false, first_move: None, result: false }
    }
}

impl<V: Visitor> Visitor for Sighted<V> {
    type Output = (V::Output, bool);

    fn begin_game(&mut self, at: Span) {
        self.inner.begin_game(at)
    }

    fn tag(&mut self, name: &str, value: &str, at: Span) {
        self.tags = true;
        self.inner.tag(name, value, at)
    }

    fn mv(&mut self, mv: &RecordedMove) -> std::ops::ControlFlow<()> {
        if self.first_move.is_none() {
            self.first_move = Some(match &mv.text {
                MoveText::Text(t) => notation::is_move_text(t),
                MoveText::Coords(_) => true,
            });
        }
        self.inner.mv(mv)
    }

    fn move_text(&mut self, text: &str, at: Span) -> std::ops::ControlFlow<()> {
        if self.first_move.is_none() {
            self.first_move = Some(notation::is_move_text(text));
        }
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

    fn begin_variation(&mut self) -> crate::record::Skip {
        self.inner.begin_variation()
    }

    fn end_variation(&mut self) {
        self.inner.end_variation()
    }

    fn result(&mut self, result: crate::record::GameResult) {
        self.result = true;
        self.inner.result(result)
    }

    fn warning(&mut self, warning: Warning) {
        self.inner.warning(warning)
    }

    fn unreadable(&mut self, why: Warning) {
        self.inner.unreadable(why)
    }

    fn builds_records(&self) -> bool {
        self.inner.builds_records()
    }

    fn record(&mut self, record: Record) -> (V::Output, bool) {
        let looks = looks_like_a_game(&record);
        (self.inner.record(record), looks)
    }

    fn end_game(&mut self) -> (V::Output, bool) {
        let looks = self.tags || self.first_move.unwrap_or(self.result);
        self.tags = false;
        self.first_move = None;
        self.result = false;
        (self.inner.end_game(), looks)
    }
}

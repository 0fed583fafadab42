//! A visitor that writes down what a reader tells, for tests: the events
//! of each game, which [`rebuild`] builds into a record again with
//! [`RecordBuilder`], so that a reader's events can be checked against
//! the records it reads.

use std::ops::ControlFlow;

use crate::record::{GameResult, Record, RecordBuilder, RecordedMove, Skip, Span, Visitor, Warning};

/// One event a reader told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Told {
    Begin(Span),
    Tag(String, String, Span),
    Move(RecordedMove),
    Nag(u8),
    Comment(String),
    CommentBefore(String),
    BeginVariation,
    EndVariation,
    Result(GameResult),
    Warning(Warning),
    Unreadable(Warning),
}

/// Writes down every event of each game; can stop a game's moves after
/// some, and skip every variation.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    told: Vec<Told>,
    moves: usize,
    /// Answer `Break` to this move of each game (counted from 1).
    stop_at: Option<usize>,
    /// Skip every variation.
    skip_variations: bool,
}

impl Recorder {
    /// A recorder that stops each game's moves at its `n`th move.
    pub(crate) fn stopping_at(n: usize) -> Recorder {
        Recorder { stop_at: Some(n), ..Recorder::default() }
    }

    /// A recorder that skips every variation.
    pub(crate) fn skipping() -> Recorder {
        Recorder { skip_variations: true, ..Recorder::default() }
    }
}

impl Visitor for Recorder {
    type Output = Vec<Told>;

    fn begin_game(&mut self, at: Span) {
        self.told.push(Told::Begin(at));
    }

    fn tag(&mut self, name: &str, value: &str, at: Span) {
        self.told.push(Told::Tag(name.into(), value.into(), at));
    }

    fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
        self.told.push(Told::Move(mv.clone()));
        self.moves += 1;
        if self.stop_at.is_some_and(|stop| self.moves >= stop) {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn nag(&mut self, nag: u8) {
        self.told.push(Told::Nag(nag));
    }

    fn comment(&mut self, text: &str) {
        self.told.push(Told::Comment(text.into()));
    }

    fn comment_before(&mut self, text: &str) {
        self.told.push(Told::CommentBefore(text.into()));
    }

    fn begin_variation(&mut self) -> Skip {
        if self.skip_variations {
            return Skip(true);
        }
        self.told.push(Told::BeginVariation);
        Skip(false)
    }

    fn end_variation(&mut self) {
        self.told.push(Told::EndVariation);
    }

    fn result(&mut self, result: GameResult) {
        self.told.push(Told::Result(result));
    }

    fn warning(&mut self, warning: Warning) {
        self.told.push(Told::Warning(warning));
    }

    fn unreadable(&mut self, why: Warning) {
        self.told.push(Told::Unreadable(why));
    }

    fn end_game(&mut self) -> Vec<Told> {
        self.moves = 0;
        std::mem::take(&mut self.told)
    }
}

/// The record [`RecordBuilder`] builds of one game's events.
pub(crate) fn rebuild(told: &[Told]) -> Record {
    let mut builder = RecordBuilder::default();
    for event in told {
        match event {
            Told::Begin(at) => builder.begin_game(*at),
            Told::Tag(name, value, at) => builder.tag(name, value, *at),
            Told::Move(mv) => {
                let _ = builder.mv(mv);
            }
            Told::Nag(nag) => builder.nag(*nag),
            Told::Comment(text) => builder.comment(text),
            Told::CommentBefore(text) => builder.comment_before(text),
            Told::BeginVariation => {
                let _ = builder.begin_variation();
            }
            Told::EndVariation => builder.end_variation(),
            Told::Result(result) => builder.result(*result),
            Told::Warning(w) => builder.warning(w.clone()),
            Told::Unreadable(w) => builder.unreadable(w.clone()),
        }
    }
    builder.end_game()
}

//! Problem lines: how every text report tells a problem ([`ProblemLine`]).

use std::fmt;

use super::check::Status;
use super::report::{ErrorReport, Report};
use crate::record::replay::ReplayError;
use crate::record::{Span, Warning};

/// How grave a problem is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    /// A game or input that fails: illegal, unreadable, not written.
    Error,
    /// Something read or written all the same: a relaxed reading, a result
    /// the final position contradicts, an input that holds no record.
    Warning,
    /// Nothing wrong with the record, but worth telling: a forbidden
    /// repetition the game passes through.
    Note,
}

impl Severity {
    /// `error` or `warning`, as the line writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// One problem as every text report tells it: one line, in the form
/// compilers use (editors and `grep` can jump to them):
///
/// ```text
/// SOURCE[:LINE:COLUMN | @OFFSET]: error|warning|note: [game N[, ply P: MOVE | , start position]: ]REASON
/// ```
///
/// `LINE:COLUMN` (1-based, the column in characters) is given for text
/// formats, `@OFFSET` (a byte offset) for binary ones, and neither when the
/// place is not known. `error` is a game or input that fails (illegal,
/// unreadable, not written); `warning` is a relaxed reading, a stated result
/// the final position contradicts, or an input that holds no record; `note`
/// a forbidden repetition the game passes through (a ruling a side loses
/// by, which no result conflict tells of already).
///
/// ```
/// use qipu::batch::ProblemLine;
/// use qipu::record::Span;
/// let e = &qipu::formats::pgn::read("1. h2e2 h9g7 2. h2e2 *")[0].replayed().error.clone().unwrap();
/// let line = ProblemLine::replay("a.pgn", 0, e, "");
/// assert_eq!(line.to_string(), "a.pgn:1:17: error: game 1, ply 3: h2e2: no Red piece on h2");
/// let w = ProblemLine::warning("a.xqf", Some(Span { line: 0, column: 1106 }), Some(0), "a comment cut short");
/// assert_eq!(w.to_string(), "a.xqf@1106: warning: game 1: a comment cut short");
/// ```
///
/// Its `Display` is the line, without a newline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemLine {
    /// The input's name, as reports show it.
    pub source: String,
    /// Where in the input: a line and column, a byte offset (line 0), or
    /// not known.
    pub at: Option<Span>,
    /// How grave.
    pub severity: Severity,
    /// The game's number in its input, from 0 (`None`: the whole input).
    pub game: Option<usize>,
    /// The ply and the move as written, or `None`; ply 0 is the start
    /// position.
    pub ply: Option<(usize, String)>,
    /// Why, in words.
    pub reason: String,
}

impl ProblemLine {
    /// An error of the whole input (`reason` says what), at no place.
    pub fn input_error(source: &str, reason: impl fmt::Display) -> ProblemLine {
        ProblemLine::new(source, None, Severity::Error, None, reason.to_string())
    }

    /// An input that cannot be read at all: `SOURCE: error: unreadable: WHY`.
    pub fn unreadable_input(source: &str, why: impl fmt::Display) -> ProblemLine {
        ProblemLine::input_error(source, format!("unreadable: {why}"))
    }

    /// An input found in a folder that holds no record:
    /// `SOURCE: warning: holds no record: WHY`.
    pub fn no_record(source: &str, why: impl fmt::Display) -> ProblemLine {
        ProblemLine::new(source, None, Severity::Warning, None, format!("holds no record: {why}"))
    }

    /// Game `index` (from 0) that could not be read, and why:
    /// `SOURCE:L:C: error: game N: unreadable: WHY`.
    pub fn unreadable_game(source: &str, index: usize, why: &Warning) -> ProblemLine {
        let reason = format!("unreadable: {}", why.message);
        ProblemLine::new(source, place(why.at), Severity::Error, Some(index), reason)
    }

    /// The move of game `index` (from 0) that does not replay, or its
    /// start position that is not a legal one, with `note` after the
    /// reason (` (the trail stops there)`; may be empty).
    pub fn replay(source: &str, index: usize, e: &ReplayError, note: &str) -> ProblemLine {
        let reason = match &e.variation {
            Some(v) => format!("in {v}: {}{note}", e.message()),
            None => format!("{}{note}", e.message()),
        };
        let ply = Some((e.ply, e.text.clone()));
        ProblemLine::new(source, place(e.at), Severity::Error, Some(index), reason).with_ply(ply)
    }

    /// The error of game `index` (from 0) as a [`Report`] gives it:
    /// unreadable, or a move that does not replay.
    pub fn reported(source: &str, index: usize, e: &ErrorReport, unreadable: bool) -> ProblemLine {
        let at = match (e.line, e.offset) {
            (0, Some(offset)) => Some(Span { line: 0, column: offset }),
            (0, None) => None,
            (line, _) => Some(Span { line, column: e.column }),
        };
        if unreadable {
            // The message says `unreadable: ` already.
            return ProblemLine::new(source, at, Severity::Error, Some(index), e.message.clone());
        }
        ProblemLine::new(source, at, Severity::Error, Some(index), e.message.clone())
            .with_ply(Some((e.ply, e.mv.clone())))
    }

    /// A warning, of game `index` (from 0) or of the whole input, at a place
    /// or not.
    pub fn warning(
        source: &str,
        at: Option<Span>,
        game: Option<usize>,
        reason: impl fmt::Display,
    ) -> ProblemLine {
        ProblemLine::new(source, at.and_then(place), Severity::Warning, game, reason.to_string())
    }

    /// An error of game `index` (from 0) at no place: `not written: WHY` …
    pub fn game_error(source: &str, index: usize, reason: impl fmt::Display) -> ProblemLine {
        ProblemLine::new(source, None, Severity::Error, Some(index), reason.to_string())
    }

    /// A note on game `index` (from 0) at no place: `SOURCE: note: game N:
    /// REASON` (a result `convert --fix-results` set).
    pub fn game_note(source: &str, index: usize, reason: impl fmt::Display) -> ProblemLine {
        ProblemLine::new(source, None, Severity::Note, Some(index), reason.to_string())
    }

    /// A note on a whole input: `SOURCE: note: REASON` (a file named
    /// twice, read once).
    pub(crate) fn input_note(source: &str, reason: impl fmt::Display) -> ProblemLine {
        ProblemLine::new(source, None, Severity::Note, None, reason.to_string())
    }

    /// A forbidden repetition game `index` (from 0) passes through:
    /// `SOURCE: note: game N: forbidden repetition: EXPLANATION`.
    pub(crate) fn ruling_note(source: &str, index: usize, explanation: &str) -> ProblemLine {
        let reason = format!("forbidden repetition: {explanation}");
        ProblemLine::new(source, None, Severity::Note, Some(index), reason)
    }

    /// Every problem of a [`Report`], in the order a text report gives
    /// them: the error, then the result conflict, then the warnings, then
    /// a note for each forbidden repetition not told already.
    pub fn of_report(r: &Report) -> Vec<ProblemLine> {
        let mut lines = Vec::new();
        if let Some(e) = &r.error {
            if r.whole_input && r.status.is_none() {
                lines.push(ProblemLine::no_record(&r.shown, &e.message));
            } else if r.whole_input {
                lines.push(ProblemLine::unreadable_input(&r.shown, &e.message));
            } else {
                let unreadable = r.status == Some(Status::Unreadable);
                lines.push(ProblemLine::reported(&r.shown, r.index, e, unreadable));
            }
        }
        if let Some(c) = &r.result_conflict {
            lines.push(ProblemLine::warning(&r.shown, None, Some(r.index), c));
        }
        for w in &r.warnings_read {
            lines.push(ProblemLine::warning(&r.shown, Some(w.at), Some(r.index), &w.message));
        }
        for ruling in r.forbidden_rulings() {
            lines.push(ProblemLine::ruling_note(&r.shown, r.index, &ruling.explanation));
        }
        lines
    }

    fn new(
        source: &str,
        at: Option<Span>,
        severity: Severity,
        game: Option<usize>,
        reason: String,
    ) -> ProblemLine {
        ProblemLine { source: source.to_string(), at, severity, game, ply: None, reason }
    }

    fn with_ply(self, ply: Option<(usize, String)>) -> ProblemLine {
        ProblemLine { ply, ..self }
    }
}

/// A place worth telling: none for the empty span (the place is not known).
fn place(at: Span) -> Option<Span> {
    (at != Span::default()).then_some(at)
}

impl fmt::Display for ProblemLine {
    /// `SOURCE[:LINE:COLUMN|@OFFSET]: SEVERITY: [game N[, ply P: MOVE|, start position]: ]REASON`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)?;
        match self.at {
            Some(Span { line: 0, column }) => write!(f, "@{column}")?,
            Some(Span { line, column }) => write!(f, ":{line}:{column}")?,
            None => {}
        }
        write!(f, ": {}: ", self.severity.as_str())?;
        if let Some(index) = self.game {
            write!(f, "game {}", index + 1)?;
            match &self.ply {
                Some((0, _)) => f.write_str(", start position")?,
                Some((ply, text)) => write!(f, ", ply {ply}: {text}")?,
                None => {}
            }
            f.write_str(": ")?;
        }
        f.write_str(&self.reason)
    }
}

//! The report of one game (or of an input that gives none), as `qipu
//! validate --format json` writes it and the Python package returns it:
//! where it comes from, its status, how far it replays, and where and why
//! it fails.

#[cfg(feature = "serde")]
use serde::Serialize;

use super::{Checked, Meta, Status};
use crate::record::Warning;
use crate::record::replay::ReplayError;

/// The report of one game.
///
/// ```
/// use qipu::batch::{Checker, Meta, Report, Status};
/// let checked = &qipu::formats::pgn::read_with("1. h2e2 h9g7 2. h0f1 *", &mut Checker::default())[0];
/// let meta = Meta { source: "a.pgn".into(), json_source: "a.pgn".into(), source_escaped: false, format: "pgn", encoding: Some("utf-8") };
/// let report = Report::game(&meta, 0, checked);
/// assert_eq!((report.status, report.plies), (Some(Status::Illegal), 2));
/// let error = report.error.unwrap();
/// assert_eq!((error.ply, error.mv.as_str(), error.line, error.column), (3, "h0f1", 1, 17));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Report {
    /// The input's name, exact when it is UTF-8.
    pub source: String,
    /// Present, and true, when `source` is escaped: the name is not UTF-8,
    /// and each byte that is not is written `\xHH` (a backslash `\\`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub source_escaped: bool,
    /// The name as text reports print it.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub shown: String,
    /// The game's number in its input, from 0.
    pub index: usize,
    /// The game's status; `None` (`no-record`) for an input that holds no
    /// record.
    #[cfg_attr(feature = "serde", serde(serialize_with = "status_text"))]
    pub status: Option<Status>,
    /// The input's format.
    pub format: &'static str,
    /// The input's text encoding, for text formats.
    pub encoding: Option<&'static str>,
    /// Main-line plies that replayed.
    pub plies: usize,
    /// Variation plies that replayed.
    pub variation_plies: usize,
    /// The result the game states.
    pub result: Option<&'static str>,
    /// How the main line ends, by its final position.
    pub termination: Option<&'static str>,
    /// Where and why the game fails.
    pub error: Option<ErrorReport>,
    /// The problems the reader and the replay worked around, each
    /// `place: message`.
    pub warnings: Vec<String>,
    /// The stated result the final position contradicts, in words.
    pub result_conflict: Option<String>,
    /// The same problems as `warnings`, each with its place apart (for
    /// text reports: see [`super::ProblemLine`]).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub warnings_read: Vec<Warning>,
    /// The whole input is unreadable (not one record of it).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub whole_input: bool,
    /// The replay error as a text report tells it, for a game that was
    /// read.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub told: Option<String>,
}

/// Where and why a game fails.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct ErrorReport {
    /// The ply of the move that fails (0: the start position).
    pub ply: usize,
    /// The move as written.
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub mv: String,
    /// 1-based line, or 0 in a binary file.
    pub line: u32,
    /// 1-based column in characters, or the byte offset in a binary file.
    pub column: u32,
    /// The byte offset, in a binary file (`None` for text).
    pub offset: Option<u32>,
    /// Why, in words (`in VARIATION: ` first when the move is in one).
    pub message: String,
}

impl ErrorReport {
    /// The error of a game replayed, `unreadable` or not, whose start
    /// position's place is known or not.
    pub fn of(e: &ReplayError, unreadable: bool, start_at_known: bool) -> ErrorReport {
        ErrorReport {
            ply: e.ply,
            mv: e.text.clone(),
            line: e.at.line,
            column: e.at.column,
            offset: (e.at.line == 0 && (e.ply > 0 || unreadable || start_at_known)).then_some(e.at.column),
            message: match &e.variation {
                Some(v) => format!("in {v}: {}", e.message()),
                None => e.message(),
            },
        }
    }

    /// An input that cannot be read at all, and why.
    pub fn whole_input(message: String) -> ErrorReport {
        ErrorReport { ply: 0, mv: String::new(), line: 0, column: 0, offset: None, message }
    }
}

impl Report {
    /// The report of game `index` of an input, as checked.
    pub fn game(meta: &Meta, index: usize, checked: &Checked) -> Report {
        let replayed = &checked.replayed;
        let unreadable = checked.unreadable.is_some();
        let error =
            replayed.error.as_ref().map(|e| ErrorReport::of(e, unreadable, checked.start_at.is_some()));
        Report {
            source: meta.json_source.clone(),
            source_escaped: meta.source_escaped,
            shown: meta.source.clone(),
            index,
            status: Some(checked.status),
            format: meta.format,
            encoding: meta.encoding,
            plies: replayed.plies,
            variation_plies: replayed.variation_plies,
            result: checked.result.map(|r| r.as_str()),
            termination: replayed.termination.map(|t| t.as_str()),
            error,
            warnings: checked.warnings.iter().map(|w| format!("{}: {}", w.at, w.message)).collect(),
            result_conflict: replayed.result_conflict.clone(),
            warnings_read: checked.warnings.clone(),
            whole_input: false,
            told: replayed.error.as_ref().filter(|_| !unreadable).map(|e| e.to_string()),
        }
    }

    /// The report of an input that gives no game, and why: `unreadable`,
    /// or (`status` `None`) `no-record` for one found in a folder that
    /// holds no record.
    pub fn input(meta: &Meta, message: String, status: Option<Status>) -> Report {
        Report {
            source: meta.json_source.clone(),
            source_escaped: meta.source_escaped,
            shown: meta.source.clone(),
            index: 0,
            status,
            format: meta.format,
            encoding: meta.encoding,
            plies: 0,
            variation_plies: 0,
            result: None,
            termination: None,
            error: Some(ErrorReport::whole_input(message)),
            warnings: Vec::new(),
            result_conflict: None,
            warnings_read: Vec::new(),
            whole_input: true,
            told: None,
        }
    }

    /// The status as JSON writes it: `ok`, `illegal`, `unreadable`, or
    /// `no-record`.
    pub fn status_text(&self) -> &'static str {
        status_name(self.status)
    }
}

/// A status as JSON writes it; `None` is `no-record`.
fn status_name(status: Option<Status>) -> &'static str {
    status.map_or("no-record", Status::as_str)
}

/// A status as JSON output writes it.
#[cfg(feature = "serde")]
fn status_text<S: serde::Serializer>(status: &Option<Status>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(status_name(*status))
}

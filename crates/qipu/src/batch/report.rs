//! The report of one game (or of an input that gives none), as `qipu
//! validate --format json` writes it and the Python package returns it:
//! where it comes from, its status, how far it replays, and where and why
//! it fails.

#[cfg(feature = "serde")]
use serde::Serialize;

use super::{Checked, Meta, Status};
use crate::Color;
use crate::record::Warning;
use crate::record::replay::{ReplayError, Replayed};
use crate::rules::judge::{Conduct, Ruling, Verdict};

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
    /// The stated result the final position, or the repetition ruling the
    /// game ends in, contradicts, in words.
    pub result_conflict: Option<String>,
    /// The rule book the game was judged by: `asian` or `chinese` (`None`
    /// for an input that gives no game).
    pub rules: Option<&'static str>,
    /// Every repetition of the main line, ruled, in order (empty unless
    /// the main line replayed to its end).
    pub rulings: Vec<RulingReport>,
    /// The index in `rulings` of the one the game ends in, if it ends in a
    /// repetition.
    pub final_ruling: Option<usize>,
    /// The first ply at which the natural move limit was reached.
    pub move_limit_at: Option<usize>,
    /// The first ply at which neither side had material left that can win
    /// (0: the start position).
    pub dead_draw_at: Option<usize>,
    /// The same problems as `warnings`, each with its place apart (for
    /// text reports: see [`super::ProblemLine`]).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) warnings_read: Vec<Warning>,
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
        let (rulings, final_ruling) = RulingReport::of_replayed(replayed);
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
            rules: Some(replayed.rules.as_str()),
            rulings,
            final_ruling,
            move_limit_at: replayed.move_limit_at,
            dead_draw_at: replayed.dead_draw_at,
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
            rules: None,
            rulings: Vec::new(),
            final_ruling: None,
            move_limit_at: None,
            dead_draw_at: None,
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

    /// The rulings the game passes through that a side loses by (a
    /// forbidden repetition: the verdict is no draw), but the one a result
    /// conflict tells of already: what a text report notes.
    pub(crate) fn forbidden_rulings(&self) -> impl Iterator<Item = &RulingReport> {
        let told = self.final_ruling.filter(|_| self.result_conflict.is_some());
        self.rulings
            .iter()
            .enumerate()
            .filter(move |&(k, r)| r.verdict != "draw" && Some(k) != told)
            .map(|(_, r)| r)
    }
}

/// A repetition ruled ([`Ruling`]), as reports give it.
///
/// ```
/// use qipu::batch::{Checker, Meta, Report};
/// let pgn = "[FEN \"3ak3C/4a2R1/9/4p3p/2r1rcR2/4C4/1n2P3P/B3B4/4A4/1c2KA3 w - - 0 1\"]\n\
///            1. g5g9 f5f9 2. g9g5 f9f5 3. g5g9 f5f9 4. g9g5 f9f5 5. g5g9 0-1";
/// let checked = &qipu::formats::pgn::read_with(pgn, &mut Checker::default())[0];
/// let meta = Meta { source: "a.pgn".into(), json_source: "a.pgn".into(), source_escaped: false, format: "pgn", encoding: None };
/// let report = Report::game(&meta, 0, checked);
/// let ruling = &report.rulings[0];
/// assert_eq!((ruling.plies, ruling.verdict, ruling.kind), ([0, 4, 8], "red-loses", Some("perpetual-check")));
/// assert_eq!((ruling.red.checks, ruling.black.idle), (4, 4));
/// assert_eq!(report.final_ruling, Some(0));
/// assert!(ruling.explanation.starts_with("Red checks perpetually"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct RulingReport {
    /// The plies (0: the start) of the position's first, second and third
    /// occurrences: the cycle judged runs from the first to the third.
    pub plies: [usize; 3],
    /// The last ply of the repetition (the third occurrence, or later when
    /// the cycle went on to the same verdict).
    pub end: usize,
    /// `draw`, `red-loses` or `black-loses`.
    pub verdict: &'static str,
    /// The loser's forbidden conduct (`perpetual-check`, `perpetual-chase`,
    /// `check-chase`, `perpetual-mate-threat`, `mate-threat-mixed`); `None`
    /// for a draw.
    pub kind: Option<&'static str>,
    /// What Red did in the cycle.
    pub red: ConductReport,
    /// What Black did in the cycle.
    pub black: ConductReport,
    /// The ruling in words.
    pub explanation: String,
}

/// What one side did in a repeated cycle ([`Conduct`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct ConductReport {
    /// Its moves in the cycle.
    pub moves: usize,
    /// Moves that gave check.
    pub checks: usize,
    /// Moves that chased (and gave no check).
    pub chases: usize,
    /// Moves that threatened mate in one (Chinese rules only).
    pub mate_threats: usize,
    /// Moves that did none of these.
    pub idle: usize,
    /// Its forbidden conduct, if every move was forcing.
    pub violation: Option<&'static str>,
    /// The chases of the piece chased throughout, one a chasing move.
    pub chased: Vec<ChaseReport>,
}

/// One chase: at `ply`, the `chaser` standing on `from` threatens the
/// `target` on `at`; pieces as FEN letters (upper case Red).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct ChaseReport {
    /// The ply of the chasing move.
    pub ply: usize,
    /// The chasing piece (`R`, `n` …).
    pub chaser: char,
    /// Where it stands after the move (`g9`).
    pub from: String,
    /// The piece chased.
    pub target: char,
    /// Where it stands.
    pub at: String,
}

impl RulingReport {
    /// The report of `ruling`.
    pub fn of(ruling: &Ruling) -> RulingReport {
        RulingReport {
            plies: ruling.plies,
            end: ruling.end,
            verdict: match ruling.verdict {
                Verdict::Draw => "draw",
                Verdict::Loses(Color::Red) => "red-loses",
                Verdict::Loses(Color::Black) => "black-loses",
            },
            kind: ruling.kind().map(|v| v.as_str()),
            red: ConductReport::of(ruling.side(Color::Red)),
            black: ConductReport::of(ruling.side(Color::Black)),
            explanation: ruling.to_string(),
        }
    }

    /// The rulings of a replay, and the index of the one it ends in.
    pub(crate) fn of_replayed(replayed: &Replayed) -> (Vec<RulingReport>, Option<usize>) {
        let rulings = replayed.rulings.iter().map(RulingReport::of).collect();
        (rulings, replayed.final_ruling().map(|_| replayed.rulings.len() - 1))
    }
}

impl ConductReport {
    fn of(c: &Conduct) -> ConductReport {
        ConductReport {
            moves: c.moves,
            checks: c.checks,
            chases: c.chases,
            mate_threats: c.mate_threats,
            idle: c.idle(),
            violation: c.violation.map(|v| v.as_str()),
            chased: c
                .chased
                .iter()
                .map(|ch| ChaseReport {
                    ply: ch.ply,
                    chaser: ch.chaser.char(),
                    from: ch.from.to_string(),
                    target: ch.target.char(),
                    at: ch.at.to_string(),
                })
                .collect(),
        }
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

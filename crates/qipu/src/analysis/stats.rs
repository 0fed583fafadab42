//! Collection statistics: what each game contributes ([`GameFacts`]) and
//! their sum over a collection ([`Stats`]), in a form for people and for
//! JSON.
//!
//! ```
//! use qipu::analysis::stats::{GameFacts, Stats};
//! use qipu::formats::pgn;
//! let mut stats = Stats::default();
//! for record in pgn::read("[Red \"许银川\"]\n1. 炮二平五 马８进７ 2. 马二进三 1-0\n\n[Red \"吕钦\"]\n1. 相三进五 *") {
//!     stats.add(&GameFacts::of(&record, "pgn", Some("utf-8")));
//! }
//! assert_eq!(stats.games, 2);
//! assert_eq!(stats.first_moves_red[0].0, "炮二平五");
//! assert_eq!(stats.median_plies(), Some(2.0));
//! ```

use std::collections::{BTreeMap, HashMap};

#[cfg(feature = "serde")]
use serde::Serialize;

use super::ecco::{Ecco, OpeningReader};
use crate::batch::{Checked, Checker, Status};
use crate::notation::{Notation, chinese};
use crate::record::date::PartialDate;
use crate::record::replay::Follow;
use crate::record::{Evaluation, GameResult, Record};
use crate::rules::judge::{Ruling, Verdict};
use crate::{Board, Color, Move, Position, Role, Square};

/// What one game contributes to the statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFacts {
    /// Format and encoding it was read from.
    pub format: String,
    /// Text encoding, for text formats.
    pub encoding: Option<String>,
    /// Valid, illegal or unreadable.
    pub status: Status,
    /// The result the record states.
    pub result: Option<GameResult>,
    /// How the main line ends, computed.
    pub termination: Option<&'static str>,
    /// Main-line plies replayed.
    pub plies: usize,
    /// Red's first move and Black's first move (Chinese notation), when the
    /// game starts from the standard position.
    pub opening: (Option<String>, Option<String>),
    /// The ECCO code of the opening (from the moves before the first wrong
    /// one), when the game starts from the standard position.
    pub ecco: Option<Ecco>,
    /// Pieces captured in the main line, by kind (`Role::index`).
    pub captures: [u32; 7],
    /// Red's material minus Black's at the end of the main line.
    pub material: f64,
    /// The Red and Black players.
    pub players: Vec<String>,
    /// The event.
    pub event: Option<String>,
    /// The year the `Date` tag gives (read as [`PartialDate::read`] reads
    /// it), if it gives one.
    pub year: Option<u16>,
    /// Whether the record holds a comment.
    pub has_comments: bool,
    /// Whether the record holds a variation.
    pub has_variations: bool,
    /// What the engine analysis tags of the game say (`RedACPL`, …), when
    /// one of them reads.
    pub annotation: Option<Annotation>,
    /// Main-line moves whose comment holds an engine evaluation.
    pub evaluations: usize,
    /// The game's repetition rulings, each by its key in
    /// [`RulingCounts::by_kind`] (`perpetual-check by Red`, `draw`).
    pub rulings: Vec<String>,
    /// The game ends in the last of its rulings.
    pub(crate) ends_in_ruling: bool,
    /// The natural move limit was reached in the main line.
    pub(crate) move_limit: bool,
    /// The main line reached a position neither side can win (or started
    /// in one).
    pub(crate) dead_draw: bool,
}

/// The key a ruling is counted by: its kind and the side that loses
/// (`perpetual-check by Red`), or `draw`.
fn ruling_key(ruling: &Ruling) -> String {
    match (ruling.verdict, ruling.kind()) {
        (Verdict::Loses(loser), Some(kind)) => format!("{kind} by {loser}"),
        (Verdict::Loses(loser), None) => format!("{loser} loses"),
        (Verdict::Draw, _) => "draw".to_string(),
    }
}

impl GameFacts {
    /// A game that could not be read at all (an unreadable file counts as
    /// one).
    pub fn unreadable(format: &str) -> GameFacts {
        GameFacts {
            format: format.to_string(),
            encoding: None,
            status: Status::Unreadable,
            result: None,
            termination: None,
            plies: 0,
            opening: (None, None),
            ecco: None,
            captures: [0; 7],
            material: 0.0,
            players: Vec::new(),
            event: None,
            year: None,
            has_comments: false,
            has_variations: false,
            annotation: None,
            evaluations: 0,
            rulings: Vec::new(),
            ends_in_ruling: false,
            move_limit: false,
            dead_draw: false,
        }
    }

    /// The facts of `record`, read from `format` (and `encoding`).
    pub fn of(record: &Record, format: &str, encoding: Option<&str>) -> GameFacts {
        let mut checker = Checker::following(MainLine::default()).keep_tags(&ANNOTATION_TAGS);
        GameFacts::of_checked(&record.visit(&mut checker), format, encoding)
    }

    /// The facts of a game checked as it was read, read from `format` (and
    /// `encoding`); its engine analysis from the tags the checker kept
    /// (keep [`ANNOTATION_TAGS`]).
    pub fn of_checked(checked: &Checked<LineFacts>, format: &str, encoding: Option<&str>) -> GameFacts {
        let replayed = &checked.replayed;
        let line = &checked.followed;
        // The final board: after the moves that replayed, or the placement
        // as read when the start is no legal position (no move replayed).
        let end = line.end.as_ref().or(replayed.resolution.setup.as_ref().map(|s| &s.board));
        let named = |tag: &Option<String>| tag.as_ref().filter(|t| !t.trim().is_empty()).cloned();
        GameFacts {
            format: format.to_string(),
            encoding: encoding.map(String::from),
            status: checked.status,
            result: checked.result,
            termination: replayed.termination.map(|t| t.as_str()),
            plies: replayed.plies,
            opening: line.opening.clone(),
            ecco: line.ecco,
            captures: line.captures,
            material: end.map_or(0.0, material),
            players: [&checked.red, &checked.black].into_iter().filter_map(named).collect(),
            event: named(&checked.event),
            year: checked.date.as_deref().and_then(PartialDate::read).map(|d| d.year),
            has_comments: checked.has_comments,
            has_variations: checked.has_variations,
            annotation: Annotation::from_tags(checked.tags.iter().map(|(n, v)| (n.as_str(), v.as_str()))),
            evaluations: line.evaluations,
            rulings: replayed.rulings.iter().map(ruling_key).collect(),
            ends_in_ruling: replayed.final_ruling().is_some(),
            move_limit: replayed.move_limit_at.is_some(),
            dead_draw: replayed.dead_draw_at.is_some(),
        }
    }
}

/// The tags of a game's engine analysis, as `qipu analyse` writes them:
/// the engine and its limit, then each side's average centipawn loss,
/// accuracy (per cent) and counts of inaccuracies, mistakes and blunders.
pub const ANNOTATION_TAGS: [&str; 11] = [
    "Annotator",
    "RedACPL",
    "BlackACPL",
    "RedAccuracy",
    "BlackAccuracy",
    "RedInaccuracies",
    "RedMistakes",
    "RedBlunders",
    "BlackInaccuracies",
    "BlackMistakes",
    "BlackBlunders",
];

/// What the engine analysis tags of a game say of one side; each `None`
/// when its tag is missing or does not read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideAnalysis {
    /// Average centipawn loss (`RedACPL`), a whole number.
    pub acpl: Option<u32>,
    /// Accuracy in per cent, 0 to 100 (`RedAccuracy`: `87.5`).
    pub accuracy: Option<f64>,
    /// Inaccuracies (`RedInaccuracies`).
    pub inaccuracies: Option<u32>,
    /// Mistakes (`RedMistakes`).
    pub mistakes: Option<u32>,
    /// Blunders (`RedBlunders`).
    pub blunders: Option<u32>,
}

/// What the engine analysis tags of a game ([`ANNOTATION_TAGS`]) say.
///
/// ```
/// use qipu::analysis::stats::Annotation;
/// let tags = [("Annotator", "Pikafish 2024, 1 s"), ("RedACPL", "23"), ("BlackAccuracy", "87.5"), ("BlackBlunders", "x")];
/// let annotation = Annotation::from_tags(tags).unwrap();
/// assert_eq!(annotation.annotator.as_deref(), Some("Pikafish 2024, 1 s"));
/// assert_eq!((annotation.red.acpl, annotation.black.accuracy), (Some(23), Some(87.5)));
/// assert_eq!(annotation.black.blunders, None); // does not read: ignored
/// assert_eq!(Annotation::from_tags([("Annotator", "王嘉良")]), None); // no engine figures
/// // The record's own annotator kept before the engine:
/// let both = Annotation::from_tags([("Annotator", "王嘉良; Pikafish (1 s)"), ("RedACPL", "9")]).unwrap();
/// assert_eq!(both.annotator.as_deref(), Some("Pikafish (1 s)"));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Annotation {
    /// The engine and its limit (`Annotator`), when given.
    pub annotator: Option<String>,
    /// Red's figures.
    pub red: SideAnalysis,
    /// Black's figures.
    pub black: SideAnalysis,
}

impl Annotation {
    /// The analysis the tags `(name, value)` give (names in any case, the
    /// first of each name counts); `None` when none of the ten figures
    /// reads (an `Annotator` alone may be a person's name).
    pub fn from_tags<'a>(tags: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<Annotation> {
        let mut annotation = Annotation::default();
        let mut figures = false;
        let whole = |v: &str| v.trim().parse::<u32>().ok();
        for (name, value) in tags {
            let (side, field) = if let Some(field) = strip_prefix_ignore_case(name, "Red") {
                (&mut annotation.red, field)
            } else if let Some(field) = strip_prefix_ignore_case(name, "Black") {
                (&mut annotation.black, field)
            } else {
                if name.eq_ignore_ascii_case("Annotator") && annotation.annotator.is_none() {
                    let value = value.trim();
                    annotation.annotator = (!value.is_empty()).then(|| value.to_string());
                }
                continue;
            };
            let slot_u32 = |slot: &mut Option<u32>| {
                if slot.is_none() {
                    *slot = whole(value);
                }
                slot.is_some()
            };
            let read = match field.to_ascii_lowercase().as_str() {
                "acpl" => slot_u32(&mut side.acpl),
                "inaccuracies" => slot_u32(&mut side.inaccuracies),
                "mistakes" => slot_u32(&mut side.mistakes),
                "blunders" => slot_u32(&mut side.blunders),
                "accuracy" => {
                    if side.accuracy.is_none() {
                        side.accuracy =
                            value.trim().parse::<f64>().ok().filter(|a| (0.0..=100.0).contains(a));
                    }
                    side.accuracy.is_some()
                }
                _ => false,
            };
            figures |= read;
        }
        // A record's own annotator comes first, the engine last.
        if let Some(a) = &mut annotation.annotator
            && let Some((_, engine)) = a.rsplit_once(ANNOTATOR_SEPARATOR)
        {
            *a = engine.trim().to_string();
        }
        figures.then_some(annotation)
    }
}

/// Between a record's own `Annotator` (a person) and the engine and limit
/// that `analyse` adds after it: `王嘉良; Pikafish (1 s)`.
pub(crate) const ANNOTATOR_SEPARATOR: &str = "; ";

/// `text` without `prefix` (ASCII letters, in any case), if it starts with it.
fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &text[prefix.len()..])
}

/// One side's engine analysis summed over the annotated games of a
/// collection.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideTotals {
    /// Sum of the average centipawn losses given, and the games that give one.
    pub(crate) acpl_sum: u64,
    /// Games that give the average centipawn loss.
    pub(crate) acpl_games: usize,
    /// Sum of the accuracies given.
    pub(crate) accuracy_sum: f64,
    /// Games that give the accuracy.
    pub(crate) accuracy_games: usize,
    /// Inaccuracies, in all.
    pub inaccuracies: u64,
    /// Mistakes, in all.
    pub mistakes: u64,
    /// Blunders, in all.
    pub blunders: u64,
}

impl SideTotals {
    /// Adds one game's figures.
    pub fn add(&mut self, side: &SideAnalysis) {
        if let Some(acpl) = side.acpl {
            self.acpl_sum += u64::from(acpl);
            self.acpl_games += 1;
        }
        if let Some(accuracy) = side.accuracy {
            self.accuracy_sum += accuracy;
            self.accuracy_games += 1;
        }
        self.inaccuracies += u64::from(side.inaccuracies.unwrap_or(0));
        self.mistakes += u64::from(side.mistakes.unwrap_or(0));
        self.blunders += u64::from(side.blunders.unwrap_or(0));
    }

    /// The mean of the average centipawn losses given, if any.
    pub fn mean_acpl(&self) -> Option<f64> {
        (self.acpl_games > 0).then(|| self.acpl_sum as f64 / self.acpl_games as f64)
    }

    /// The mean of the accuracies given, if any.
    pub fn mean_accuracy(&self) -> Option<f64> {
        (self.accuracy_games > 0).then(|| self.accuracy_sum / self.accuracy_games as f64)
    }
}

/// What [`MainLine`] gathers of a game's main line for the statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineFacts {
    /// Red's first move and Black's first move (Chinese notation), when the
    /// game starts from the standard position.
    pub opening: (Option<String>, Option<String>),
    /// The ECCO code of the opening, when the game starts from the
    /// standard position.
    pub ecco: Option<Ecco>,
    /// Pieces captured, by kind (`Role::index`).
    pub captures: [u32; 7],
    /// The board after the last move that replayed; `None` when the start
    /// is no legal position.
    pub end: Option<Board>,
    /// Moves whose comment holds an engine evaluation.
    pub evaluations: usize,
}

/// Follows a game's main line as it is replayed, for [`GameFacts`]: the
/// first moves, the ECCO code, the captures, the final board and the
/// moves with an evaluation in their comment.
#[derive(Clone, Debug, Default)]
pub struct MainLine {
    facts: LineFacts,
    standard: bool,
    ply: usize,
    opening: OpeningReader,
    /// The last move told is of the main line.
    on_main_line: bool,
}

impl Follow for MainLine {
    type Output = LineFacts;

    fn start(&mut self, start: &Position) {
        self.standard = start.turn() == Color::Red && *start.board() == Board::start();
        self.ply = 0;
        self.facts.end = Some(start.board().clone());
        self.opening.start(start);
    }

    fn before_move(&mut self, before: &Position, m: Move) {
        self.opening.before_move(before, m);
        if self.standard && self.ply < 2 {
            // A move replayed is legal: a piece stands on its origin.
            let text = Notation::Chinese(chinese::Style::Simplified).write(before, m).ok();
            if self.ply == 0 { self.facts.opening.0 = text } else { self.facts.opening.1 = text }
        }
        if let Some(p) = before.board().piece_at(m.to) {
            self.facts.captures[p.role.index()] += 1;
        }
        self.ply += 1;
    }

    fn after_move(&mut self, after: &Position, _: Move) {
        if let Some(end) = &mut self.facts.end {
            end.clone_from(after.board());
        }
        self.on_main_line = true;
    }

    fn variation_move(&mut self, _: &Position, _: Move) {
        self.on_main_line = false;
    }

    fn comment(&mut self, comment: &str) {
        if self.on_main_line && Evaluation::find(comment).is_some() {
            self.facts.evaluations += 1;
        }
    }

    fn end(&mut self) -> LineFacts {
        self.standard = false;
        self.on_main_line = false;
        self.facts.ecco = self.opening.end().map(|name| name.ecco);
        std::mem::take(&mut self.facts)
    }
}

/// The value of a piece on `square` by the rules text: rook 9, cannon 4.5,
/// horse 4, elephant and advisor 2, pawn 1 before the river, 2 across it,
/// 1 on the last rank; the king is not counted.
pub(crate) fn piece_value(role: Role, color: Color, square: Square) -> f64 {
    match role {
        Role::Rook => 9.0,
        Role::Cannon => 4.5,
        Role::Horse => 4.0,
        Role::Elephant | Role::Advisor => 2.0,
        Role::King => 0.0,
        Role::Pawn => {
            // Ranks from the pawn's own side: 0..4 before the river.
            let rank = match color {
                Color::Red => square.rank().index(),
                Color::Black => 9 - square.rank().index(),
            };
            match rank {
                0..=4 => 1.0,
                9 => 1.0,
                _ => 2.0,
            }
        }
    }
}

/// Red's material minus Black's.
pub fn material(board: &Board) -> f64 {
    board
        .pieces()
        .map(|(s, p)| {
            let v = piece_value(p.role, p.color, s);
            if p.color == Color::Red { v } else { -v }
        })
        .sum()
}

/// Counts and score of one first move.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct MoveScore {
    /// Games that began with it.
    pub games: usize,
    /// Of those, games won or lost (draws are counted apart).
    pub decided: usize,
    /// Of those, games drawn.
    pub draws: usize,
    /// Points of the side that played it (win 1, draw ½), over the games
    /// with a result (decided and drawn).
    pub points: f64,
}

impl MoveScore {
    /// The score of the side that played the move over the games with a
    /// result (a win 1, a draw ½), when there are some.
    pub fn score(&self) -> Option<f64> {
        let with_result = self.decided + self.draws;
        (with_result > 0).then(|| self.points / with_result as f64)
    }
}

/// Games by the result they state: Red wins, draws, Black wins, and
/// unknown (`*`, or none stated).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub(crate) struct ResultCounts {
    /// Games Red won (`1-0`).
    pub red_wins: usize,
    /// Games drawn (`1/2-1/2`).
    pub draws: usize,
    /// Games Black won (`0-1`).
    pub black_wins: usize,
    /// Games whose result is unknown.
    pub unknown: usize,
}

impl ResultCounts {
    /// Counts a game that states `result`.
    pub fn add(&mut self, result: Option<GameResult>) {
        match result {
            Some(GameResult::RedWins) => self.red_wins += 1,
            Some(GameResult::Draw) => self.draws += 1,
            Some(GameResult::BlackWins) => self.black_wins += 1,
            _ => self.unknown += 1,
        }
    }

    /// All the games counted.
    pub fn total(&self) -> usize {
        self.red_wins + self.draws + self.black_wins + self.unknown
    }
}

/// The statistics of a collection.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Stats {
    /// Games counted.
    pub games: usize,
    /// Games by format and encoding (`pgn utf-8`, `xqf`).
    pub by_format: BTreeMap<String, usize>,
    /// Games by status: valid, illegal, unreadable.
    pub by_status: BTreeMap<String, usize>,
    /// Games by stated result (`1-0`, `0-1`, `1/2-1/2`, `*`, `none`).
    pub by_result: BTreeMap<String, usize>,
    /// Stated result against computed termination (`1-0 / checkmate`).
    pub result_vs_termination: BTreeMap<String, usize>,
    /// Main-line plies of every game, in input order (for the
    /// distribution, mean and median).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub plies: Vec<u32>,
    /// Red's first moves, most played first, with counts and Red's score.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ranked"))]
    pub first_moves_red: Vec<(String, MoveScore)>,
    /// Black's first moves, with counts and Black's score.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ranked"))]
    pub first_moves_black: Vec<(String, MoveScore)>,
    /// Pieces captured in main lines, by kind.
    pub captures: BTreeMap<String, u64>,
    /// Sum of the end-of-main-line material balances (Red minus Black).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) material_sum: f64,
    /// End-of-main-line material balance, by range.
    pub material_balance: BTreeMap<String, usize>,
    /// Games per player.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub players: HashMap<String, usize>,
    /// Games per event.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub events: HashMap<String, usize>,
    /// Games with at least one comment.
    pub with_comments: usize,
    /// Games with at least one variation.
    pub with_variations: usize,
    /// Games by the year of their `Date` tag, with their results.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) by_year: BTreeMap<u16, ResultCounts>,
    /// The games whose `Date` tag gives no year (or that have none), with
    /// their results.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) undated: ResultCounts,
    /// Games by ECCO code (games from the standard start position).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub by_ecco: BTreeMap<&'static str, usize>,
    /// Games with engine analysis tags ([`GameFacts::annotation`]).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub annotated: usize,
    /// Red's engine analysis over the annotated games.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub red_analysis: SideTotals,
    /// Black's engine analysis over the annotated games.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub black_analysis: SideTotals,
    /// Annotated games per `Annotator` (the engine and its limit).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub annotators: HashMap<String, usize>,
    /// Main-line moves whose comment holds an engine evaluation.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub evaluated_moves: usize,
    /// The repetition rulings, the natural move limit and the dead draws
    /// of the main lines.
    pub repetition_rulings: RulingCounts,
}

/// The repetitions ruled in a collection's main lines, with the games that
/// reach the natural move limit or a dead draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct RulingCounts {
    /// Rulings by kind and loser (`perpetual-check by Red`,
    /// `perpetual-chase by Black` …; `draw`).
    pub by_kind: BTreeMap<String, usize>,
    /// Rulings in all.
    pub rulings: usize,
    /// Games with at least one ruling.
    pub games_with_rulings: usize,
    /// Games whose final position stands in a repetition ruled.
    pub games_ending_in_ruling: usize,
    /// Games that pass through a forbidden repetition: a ruling a side
    /// loses by.
    pub games_with_forbidden_repetition: usize,
    /// Games whose main line reaches the natural move limit.
    pub move_limit_reached: usize,
    /// Games whose main line reaches a position neither side can win.
    pub dead_draws: usize,
}

impl RulingCounts {
    /// Counts a game's rulings.
    fn add(&mut self, g: &GameFacts) {
        for key in &g.rulings {
            *self.by_kind.entry(key.clone()).or_default() += 1;
        }
        self.rulings += g.rulings.len();
        self.games_with_rulings += usize::from(!g.rulings.is_empty());
        self.games_ending_in_ruling += usize::from(g.ends_in_ruling);
        self.games_with_forbidden_repetition += usize::from(g.rulings.iter().any(|k| k != "draw"));
        self.move_limit_reached += usize::from(g.move_limit);
        self.dead_draws += usize::from(g.dead_draw);
    }
}

#[cfg(feature = "serde")]
fn ranked<S: serde::Serializer>(moves: &[(String, MoveScore)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    #[derive(Serialize)]
    struct Row<'a> {
        #[cfg_attr(feature = "serde", serde(rename = "move"))]
        mv: &'a str,
        games: usize,
        decided: usize,
        draws: usize,
        score: Option<f64>,
    }
    let mut seq = s.serialize_seq(Some(moves.len()))?;
    for (mv, m) in moves {
        let score = m.score();
        seq.serialize_element(&Row { mv, games: m.games, decided: m.decided, draws: m.draws, score })?;
    }
    seq.end()
}

/// Ranges of the material balance, from Red's side.
const BALANCE: [(f64, &str); 5] = [
    (9.0, "Red +9 or more"),
    (3.0, "Red +3 to +9"),
    (-3.0, "even (within 3)"),
    (-9.0, "Black +3 to +9"),
    (f64::MIN, "Black +9 or more"),
];

impl Stats {
    /// The statistics as `qipu stats --format json` writes them: the
    /// counts, with the first moves cut to the `top` most played, and the
    /// means, median, length distribution, top players and top events.
    #[cfg(feature = "serde")]
    pub fn to_json(&self, top: usize) -> serde_json::Value {
        let mut value = serde_json::to_value(self).expect("statistics serialize");
        let map = value.as_object_mut().expect("an object");
        for key in ["first_moves_red", "first_moves_black"] {
            if let Some(list) = map.get_mut(key).and_then(|v| v.as_array_mut()) {
                list.truncate(top);
            }
        }
        let pairs = |list: Vec<(String, usize)>| -> serde_json::Value {
            list.into_iter().map(|(name, games)| serde_json::json!({"name": name, "games": games})).collect()
        };
        map.insert("mean_plies".into(), serde_json::json!(self.mean_plies()));
        map.insert("median_plies".into(), serde_json::json!(self.median_plies()));
        let lengths: serde_json::Map<String, serde_json::Value> =
            self.length_distribution().into_iter().map(|(k, v)| (k, v.into())).collect();
        map.insert("plies_distribution".into(), lengths.into());
        map.insert("mean_material_balance".into(), serde_json::json!(self.mean_material()));
        map.insert("top_players".into(), pairs(self.top_players(top)));
        map.insert("top_events".into(), pairs(self.top_events(top)));
        let years: serde_json::Map<String, serde_json::Value> =
            self.by_year.iter().map(|(year, counts)| (year.to_string(), serde_json::json!(counts))).collect();
        map.insert("results_by_year".into(), years.into());
        map.insert("results_undated".into(), serde_json::json!(self.undated));
        map.insert("by_ecco".into(), serde_json::json!(self.by_ecco));
        let families: Vec<serde_json::Value> = self
            .ecco_families()
            .into_iter()
            .map(|(letter, name, games)| serde_json::json!({"family": letter.to_string(), "name": name, "games": games}))
            .collect();
        map.insert("ecco_families".into(), families.into());
        map.insert("ecco_unclassified".into(), self.ecco_unclassified().into());
        let codes: Vec<serde_json::Value> = self
            .top_ecco(top)
            .into_iter()
            .map(|(code, name, games)| serde_json::json!({"code": code, "name": name, "games": games}))
            .collect();
        map.insert("top_ecco".into(), codes.into());
        if self.has_analysis() {
            let side = |t: &SideTotals| {
                serde_json::json!({
                    "mean_acpl": t.mean_acpl(),
                    "mean_accuracy": t.mean_accuracy(),
                    "inaccuracies": t.inaccuracies,
                    "mistakes": t.mistakes,
                    "blunders": t.blunders,
                })
            };
            let analysis = serde_json::json!({
                "games": self.annotated,
                "evaluated_moves": self.evaluated_moves,
                "red": side(&self.red_analysis),
                "black": side(&self.black_analysis),
                "annotators": pairs(self.top_annotators(top)),
            });
            map.insert("engine_analysis".into(), analysis);
        }
        value
    }

    /// Whether any game has engine analysis tags or a main-line move with
    /// an evaluation in its comment: else the statistics say nothing of
    /// engine analysis.
    pub fn has_analysis(&self) -> bool {
        self.annotated > 0 || self.evaluated_moves > 0
    }

    /// The `n` annotators of the most annotated games (ties by name).
    pub fn top_annotators(&self, n: usize) -> Vec<(String, usize)> {
        top(&self.annotators, n)
    }

    /// Adds one game.
    pub fn add(&mut self, g: &GameFacts) {
        self.games += 1;
        let format = match &g.encoding {
            Some(e) => format!("{} {e}", g.format),
            None => g.format.clone(),
        };
        *self.by_format.entry(format).or_default() += 1;
        *self.by_status.entry(g.status.as_str().to_string()).or_default() += 1;
        let result = g.result.map_or("none", |r| r.as_str());
        *self.by_result.entry(result.to_string()).or_default() += 1;
        if g.status != Status::Unreadable {
            let key = format!("{result} / {}", g.termination.unwrap_or("none"));
            *self.result_vs_termination.entry(key).or_default() += 1;
            self.repetition_rulings.add(g);
            self.plies.push(g.plies as u32);
            for (i, n) in g.captures.iter().enumerate() {
                if *n > 0 {
                    *self.captures.entry(Role::ALL[i].name().to_string()).or_default() += *n as u64;
                }
            }
            self.material_sum += g.material;
            let range = BALANCE.iter().find(|(floor, _)| g.material >= *floor).map_or("", |(_, n)| n);
            *self.material_balance.entry(range.to_string()).or_default() += 1;
        }
        let points = |for_red: bool| match g.result {
            Some(GameResult::RedWins) => Some(if for_red { 1.0 } else { 0.0 }),
            Some(GameResult::BlackWins) => Some(if for_red { 0.0 } else { 1.0 }),
            Some(GameResult::Draw) => Some(0.5),
            _ => None,
        };
        for (mv, list, for_red) in [
            (&g.opening.0, &mut self.first_moves_red, true),
            (&g.opening.1, &mut self.first_moves_black, false),
        ] {
            let Some(mv) = mv else { continue };
            let entry = match list.iter().position(|(m, _)| m == mv) {
                Some(i) => &mut list[i].1,
                None => {
                    list.push((mv.clone(), MoveScore::default()));
                    &mut list.last_mut().expect("just pushed").1
                }
            };
            entry.games += 1;
            match points(for_red) {
                Some(p) if g.result == Some(GameResult::Draw) => {
                    entry.draws += 1;
                    entry.points += p;
                }
                Some(p) => {
                    entry.decided += 1;
                    entry.points += p;
                }
                None => {}
            }
        }
        for p in &g.players {
            *self.players.entry(p.clone()).or_default() += 1;
        }
        if let Some(e) = &g.event {
            *self.events.entry(e.clone()).or_default() += 1;
        }
        self.with_comments += g.has_comments as usize;
        self.with_variations += g.has_variations as usize;
        match g.year {
            Some(year) => self.by_year.entry(year).or_default().add(g.result),
            None => self.undated.add(g.result),
        }
        if let Some(ecco) = g.ecco {
            *self.by_ecco.entry(ecco.code).or_default() += 1;
        }
        if let Some(annotation) = &g.annotation {
            self.annotated += 1;
            self.red_analysis.add(&annotation.red);
            self.black_analysis.add(&annotation.black);
            if let Some(name) = &annotation.annotator {
                *self.annotators.entry(name.clone()).or_default() += 1;
            }
        }
        self.evaluated_moves += g.evaluations;
    }

    /// Orders the first moves, most played first (then by name), once all
    /// games are in.
    pub fn finish(&mut self) {
        for list in [&mut self.first_moves_red, &mut self.first_moves_black] {
            list.sort_by(|a, b| b.1.games.cmp(&a.1.games).then_with(|| a.0.cmp(&b.0)));
        }
    }

    /// Mean main-line length in plies.
    pub fn mean_plies(&self) -> Option<f64> {
        (!self.plies.is_empty())
            .then(|| self.plies.iter().map(|&p| p as f64).sum::<f64>() / self.plies.len() as f64)
    }

    /// Median main-line length in plies.
    pub fn median_plies(&self) -> Option<f64> {
        if self.plies.is_empty() {
            return None;
        }
        let mut sorted = self.plies.clone();
        sorted.sort_unstable();
        let n = sorted.len();
        Some(if n % 2 == 1 { sorted[n / 2] as f64 } else { (sorted[n / 2 - 1] + sorted[n / 2]) as f64 / 2.0 })
    }

    /// Main-line lengths by range of plies: 0, 1-20, 21-40, ... 181-200, over 200.
    pub fn length_distribution(&self) -> Vec<(String, usize)> {
        let mut buckets = vec![0usize; 12];
        for &p in &self.plies {
            let i = match p {
                0 => 0,
                1..=200 => 1 + (p as usize - 1) / 20,
                _ => 11,
            };
            buckets[i] += 1;
        }
        buckets
            .into_iter()
            .enumerate()
            .map(|(i, n)| {
                let name = match i {
                    0 => "0".to_string(),
                    11 => "over 200".to_string(),
                    _ => format!("{}-{}", (i - 1) * 20 + 1, i * 20),
                };
                (name, n)
            })
            .collect()
    }

    /// Mean end-of-main-line material balance (Red minus Black).
    pub fn mean_material(&self) -> Option<f64> {
        (!self.plies.is_empty()).then(|| self.material_sum / self.plies.len() as f64)
    }

    /// The `n` players with the most games (ties by name).
    pub fn top_players(&self, n: usize) -> Vec<(String, usize)> {
        top(&self.players, n)
    }

    /// The `n` events with the most games (ties by name).
    pub fn top_events(&self, n: usize) -> Vec<(String, usize)> {
        top(&self.events, n)
    }

    /// The games of each ECCO family (`FAMILIES`):
    /// its letter, its name and the games whose code opens with it.
    pub fn ecco_families(&self) -> Vec<(char, &'static str, usize)> {
        super::ecco::FAMILIES
            .iter()
            .map(|&(letter, name, _)| {
                let games =
                    self.by_ecco.iter().filter(|(code, _)| code.starts_with(letter)).map(|(_, n)| n).sum();
                (letter, name, games)
            })
            .collect()
    }

    /// The games without an ECCO code: from another start position, or
    /// unreadable.
    pub fn ecco_unclassified(&self) -> usize {
        self.games - self.by_ecco.values().sum::<usize>()
    }

    /// The `n` ECCO codes with the most games (ties by code): the code, its
    /// published name and its games.
    pub fn top_ecco(&self, n: usize) -> Vec<(&'static str, &'static str, usize)> {
        let mut all: Vec<(&'static str, &'static str, usize)> = self
            .by_ecco
            .iter()
            .map(|(&code, &games)| (code, super::ecco::name_of(code).unwrap_or(""), games))
            .collect();
        all.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(b.0)));
        all.truncate(n);
        all
    }
}

fn top(counts: &HashMap<String, usize>, n: usize) -> Vec<(String, usize)> {
    let mut all: Vec<(String, usize)> = counts.iter().map(|(k, v)| (k.clone(), *v)).collect();
    all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    all.truncate(n);
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pgn;

    #[test]
    fn pawn_values_follow_the_river() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(piece_value(Role::Pawn, Color::Red, sq("e3")), 1.0);
        assert_eq!(piece_value(Role::Pawn, Color::Red, sq("e5")), 2.0);
        assert_eq!(piece_value(Role::Pawn, Color::Red, sq("e9")), 1.0);
        assert_eq!(piece_value(Role::Pawn, Color::Black, sq("e6")), 1.0);
        assert_eq!(piece_value(Role::Pawn, Color::Black, sq("e4")), 2.0);
        assert_eq!(piece_value(Role::Pawn, Color::Black, sq("e0")), 1.0);
        // The start position is even: 2×9 + 2×4.5 + 2×4 + 4×2 + 5×1 = 48 each.
        assert_eq!(material(&Board::start()), 0.0);
    }

    #[test]
    fn a_small_collection() {
        let text = "[Red \"许银川\"][Black \"吕钦\"][Event \"全国赛\"]\n1. 炮二平五 马８进７ 2. 炮五进四 车９平８ 1-0\n\n\
                    [Red \"许银川\"][Black \"胡荣华\"][Event \"全国赛\"]\n1. 炮二平五 {中炮} 马８进７ (1... 炮８平５) 1/2-1/2\n\n\
                    [Red \"吕钦\"]\n1. 相三进五 *\n\n\
                    [FEN \"3k5/R8/9/9/9/9/9/9/1R7/4K4 w\"]\n1. b1b9 1-0\n";
        let mut stats = Stats::default();
        for record in pgn::read(text) {
            stats.add(&GameFacts::of(&record, "pgn", Some("utf-8")));
        }
        stats.finish();
        assert_eq!(stats.games, 4);
        assert_eq!(stats.by_format["pgn utf-8"], 4);
        assert_eq!(stats.by_result["1-0"], 2);
        assert_eq!(stats.result_vs_termination["1-0 / checkmate"], 1);
        assert_eq!(stats.plies, [4, 2, 1, 1]);
        assert_eq!(stats.median_plies(), Some(1.5));
        let (mv, score) = &stats.first_moves_red[0];
        assert_eq!(
            (mv.as_str(), score.games, score.decided, score.draws, score.points),
            ("炮二平五", 2, 1, 1, 1.5)
        );
        assert_eq!(score.score(), Some(0.75));
        assert_eq!(stats.first_moves_black[0].0, "马８进７");
        assert_eq!(stats.captures["pawn"], 1); // 炮五进四 takes the e6 pawn
        // Ties are ordered by name.
        assert_eq!(stats.top_players(2), [("吕钦".to_string(), 2), ("许银川".to_string(), 2)]);
        assert_eq!(stats.top_events(1), [("全国赛".to_string(), 2)]);
        assert_eq!((stats.with_comments, stats.with_variations), (1, 1));
        // The mate position: Red has two rooks (18) against nothing.
        assert_eq!(stats.material_balance["Red +9 or more"], 1);
        assert_eq!(stats.material_balance["even (within 3)"], 3);
    }

    #[test]
    fn years_and_openings() {
        let text = "[Date \"1990.05.12\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0\n\n\
                    [Date \"1990年\"]\n1. 相三进五 1/2-1/2\n\n\
                    [Date \"????.??.??\"]\n1. 兵七进一 0-1\n\n\
                    [Date \"96-12-18\"]\n[FEN \"3k5/R8/9/9/9/9/9/9/1R7/4K4 w\"]\n1. b1b9 *\n";
        let mut stats = Stats::default();
        for record in pgn::read(text) {
            stats.add(&GameFacts::of(&record, "pgn", Some("utf-8")));
        }
        stats.add(&GameFacts::unreadable("xqf"));
        let year = |y: u16| stats.by_year[&y];
        assert_eq!(year(1990), ResultCounts { red_wins: 1, draws: 1, black_wins: 0, unknown: 0 });
        assert_eq!(year(1996), ResultCounts { unknown: 1, ..ResultCounts::default() });
        assert_eq!(stats.undated, ResultCounts { black_wins: 1, unknown: 1, ..ResultCounts::default() });
        // The game from another start has no code, nor the unreadable one.
        assert_eq!(stats.by_ecco.values().sum::<usize>(), 3);
        assert_eq!(stats.by_ecco.get("B05"), Some(&1)); // as classify names it
        assert_eq!(stats.ecco_unclassified(), 2);
        let families: Vec<usize> = stats.ecco_families().iter().map(|f| f.2).collect();
        assert_eq!(families, [1, 1, 0, 0, 1]); // 相三进五 A, 中炮 B, 兵七进一 E
        assert_eq!(stats.top_ecco(1)[0].2, 1);
    }

    #[test]
    fn engine_analysis_tags_and_evaluated_moves() {
        let text = "[Annotator \"Pikafish, 1 s\"][RedACPL \"23\"][BlackACPL \"41\"][RedAccuracy \"91.2\"]\
                    [BlackAccuracy \"84.0\"][RedInaccuracies \"2\"][RedMistakes \"1\"][RedBlunders \"0\"]\
                    [BlackInaccuracies \"3\"][BlackMistakes \"2\"][BlackBlunders \"1\"]\n\
                    1. 炮二平五 {+0.38/18} 马８进７ {好棋} {+0.40/18} (1... 马２进３ {+0.50/18}) 2. 马二进三 1-0\n\n\
                    [Annotator \"Pikafish, 1 s\"][redacpl \"30\"][BlackACPL \"x\"][RedAccuracy \"88.0\"]\
                    [BlackAccuracy \"105\"][RedBlunders \"2\"][BlackMistakes \"-1\"]\n1. 相三进五 {[%eval 0.10,18]} 0-1\n\n\
                    [Annotator \"王嘉良\"]\n1. 兵七进一 {好棋} *\n";
        let facts: Vec<GameFacts> = pgn::read(text).iter().map(|r| GameFacts::of(r, "pgn", None)).collect();
        assert_eq!(facts.iter().map(|f| f.evaluations).collect::<Vec<_>>(), [2, 1, 0]);
        let first = facts[0].annotation.as_ref().unwrap();
        assert_eq!(
            first.red,
            SideAnalysis {
                acpl: Some(23),
                accuracy: Some(91.2),
                inaccuracies: Some(2),
                mistakes: Some(1),
                blunders: Some(0)
            }
        );
        // Tags that do not read are left out; a person as annotator is no analysis.
        let second = facts[1].annotation.as_ref().unwrap();
        assert_eq!((second.red.acpl, second.black.acpl, second.black.accuracy), (Some(30), None, None));
        assert_eq!(second.black.mistakes, None);
        assert_eq!(facts[2].annotation, None);
        let mut stats = Stats::default();
        for f in &facts {
            stats.add(f);
        }
        assert!(stats.has_analysis());
        assert_eq!((stats.annotated, stats.evaluated_moves), (2, 3));
        assert_eq!(stats.red_analysis.mean_acpl(), Some(26.5));
        assert_eq!(stats.black_analysis.mean_acpl(), Some(41.0));
        assert!((stats.red_analysis.mean_accuracy().unwrap() - 89.6).abs() < 1e-9);
        assert_eq!(stats.black_analysis.mean_accuracy(), Some(84.0));
        let r = &stats.red_analysis;
        assert_eq!((r.inaccuracies, r.mistakes, r.blunders), (2, 1, 2));
        assert_eq!(stats.top_annotators(5), [("Pikafish, 1 s".to_string(), 2)]);
        #[cfg(feature = "serde")]
        {
            let json = stats.to_json(5);
            assert_eq!(json["engine_analysis"]["red"]["mean_acpl"], 26.5);
            assert_eq!(json["engine_analysis"]["black"]["blunders"], 1);
            assert_eq!(json["engine_analysis"]["evaluated_moves"], 3);
        }
        // Without analysis, nothing is said of it.
        let mut plain = Stats::default();
        plain.add(&facts[2]);
        assert!(!plain.has_analysis());
        #[cfg(feature = "serde")]
        assert!(plain.to_json(5).get("engine_analysis").is_none());
    }
}

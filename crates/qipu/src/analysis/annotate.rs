//! A game annotated from an engine's searches of its main line: each
//! move's evaluation added to its comment, inaccuracies, mistakes and
//! blunders marked by what they cost in expected score, the engine's better
//! line added as a variation where a move is a mistake or worse, and each
//! player's average centipawn loss and accuracy.
//!
//! What a move costs is measured as lichess measures it: the score becomes
//! winning chances `2 / (1 + e^(-0.00368208 × cp)) - 1` (from -1 to 1), and
//! the loss is the best move's chances less the chances after the move
//! played, for the player who moved. A loss of 0.1 is an inaccuracy (`?!`),
//! 0.2 a mistake (`?`), 0.3 a blunder (`??`) (see [`Thresholds`]). A move's
//! accuracy is `103.1668 × e^(-0.04354 × Δ) - 3.1669` percent, Δ the loss
//! in win percent (chances × 50); a player's accuracy is the mean of their
//! moves'. Centipawn losses count scores clamped to ±1000 (a mate counts as
//! 1000).

use super::stats::{ANNOTATOR_SEPARATOR, Annotation};
use crate::record::eval::{EvalStyle, Evaluation, Score};
use crate::record::{MoveText, Record, RecordedMove, Span};
use crate::{Color, Move, Position};

/// One line of an engine's answer: its score for the side to move, the
/// depth, and its moves (those that are legal, in order, from the
/// position searched).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The score, for the side to move.
    pub score: Score,
    /// The depth reached.
    pub depth: u32,
    /// The principal variation: the best move first (may be empty when the
    /// engine gave a score and no move).
    pub pv: Vec<Move>,
}

/// An engine's answer for a position: its lines, best first (one unless
/// more were asked for).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// The lines, best first; never empty.
    pub lines: Vec<Line>,
}

impl Search {
    /// The best line.
    pub fn best(&self) -> &Line {
        &self.lines[0]
    }
}

/// The losses in winning chances (0 to 2) from which a move is an
/// inaccuracy, a mistake, a blunder.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Thresholds {
    /// `?!` from this loss (0.1).
    pub inaccuracy: f64,
    /// `?` from this loss (0.2).
    pub mistake: f64,
    /// `??` from this loss (0.3).
    pub blunder: f64,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds { inaccuracy: 0.1, mistake: 0.2, blunder: 0.3 }
    }
}

/// What a move is judged to be.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    /// An inaccuracy: `?!`, NAG 6.
    Inaccuracy,
    /// A mistake: `?`, NAG 2.
    Mistake,
    /// A blunder: `??`, NAG 4.
    Blunder,
}

impl Judgement {
    /// Its annotation glyph.
    pub(crate) fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// How a game is annotated.
#[derive(Clone, Debug, PartialEq)]
pub struct AnnotateOptions {
    /// How evaluations are written into comments.
    pub style: EvalStyle,
    /// Where inaccuracies, mistakes and blunders start.
    pub thresholds: Thresholds,
    /// Add the engine's lines as variations where a move is a mistake or
    /// worse.
    pub variations: bool,
    /// The `Annotator` tag (the engine and its limit), when set.
    pub annotator: Option<String>,
}

impl Default for AnnotateOptions {
    fn default() -> AnnotateOptions {
        AnnotateOptions {
            style: EvalStyle::Plain,
            thresholds: Thresholds::default(),
            variations: true,
            annotator: None,
        }
    }
}

/// One player's moves as judged.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideReport {
    /// Moves judged (both the position before and after were searched).
    pub moves: u32,
    /// Sum of centipawn losses.
    pub cp_loss: u64,
    /// Sum of move accuracies (percent).
    pub(crate) accuracy_sum: f64,
    /// Inaccuracies.
    pub inaccuracies: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Blunders.
    pub blunders: u32,
}

impl SideReport {
    /// Average centipawn loss, rounded; `None` when no move was judged.
    pub fn acpl(&self) -> Option<u64> {
        (self.moves > 0).then(|| (self.cp_loss + u64::from(self.moves) / 2) / u64::from(self.moves))
    }

    /// Mean accuracy (percent, one decimal); `None` when no move was judged.
    pub fn accuracy(&self) -> Option<f64> {
        (self.moves > 0).then(|| (self.accuracy_sum / f64::from(self.moves) * 10.0).round() / 10.0)
    }
}

/// One move as judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// Its ply (from 1).
    pub ply: usize,
    /// The move.
    pub mv: Move,
    /// Its evaluation as written into its comment (from Red's side), when
    /// the position after it was searched.
    pub evaluation: Option<Evaluation>,
    /// Centipawns lost against the best move, when judged.
    pub cp_loss: Option<u32>,
    /// Winning chances lost (0 to 2), when judged.
    pub loss: Option<f64>,
    /// What it is judged to be, if anything.
    pub judgement: Option<Judgement>,
}

/// What annotating a game found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameReport {
    /// Red's moves.
    pub red: SideReport,
    /// Black's moves.
    pub black: SideReport,
    /// Every main-line move that replayed.
    pub moves: Vec<MoveReport>,
}

impl GameReport {
    /// The report of `side`.
    pub fn side(&self, side: Color) -> &SideReport {
        match side {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }

    fn side_mut(&mut self, side: Color) -> &mut SideReport {
        match side {
            Color::Red => &mut self.red,
            Color::Black => &mut self.black,
        }
    }
}

/// Centipawns clamped to ±1000, a mate as 1000.
fn clamped_cp(score: Score) -> i32 {
    match score {
        Score::Centipawns(c) => c.clamp(-1000, 1000),
        Score::Mate(n) if n > 0 => 1000,
        Score::Mate(_) => -1000,
    }
}

/// Winning chances, -1 to 1, of a score.
pub(crate) fn winning_chances(score: Score) -> f64 {
    match score {
        Score::Centipawns(c) => 2.0 / (1.0 + (-0.003_682_08 * f64::from(c)).exp()) - 1.0,
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => -1.0,
    }
}

/// A move's accuracy in percent from the win percent it loses.
fn move_accuracy(win_percent_lost: f64) -> f64 {
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * win_percent_lost.max(0.0)).exp()
        - 3.166_924_740_191_411)
        .clamp(0.0, 100.0)
}

/// `score` for `side` as Red sees it.
fn for_red(score: Score, side: Color) -> Score {
    if side == Color::Red { score } else { score.negated() }
}

/// Appends `text` to a comment: after what is there, never in its place.
fn append(comment: &mut Option<String>, text: &str) {
    match comment {
        Some(c) if !c.trim().is_empty() => {
            c.push(' ');
            c.push_str(text);
        }
        _ => *comment = Some(text.to_string()),
    }
}

/// Annotates `record` from `searches`, one per position of its main line
/// as replayed (the start, then after each move; `None` where a position
/// was not searched): evaluations into comments, NAGs where the record has
/// no remark of its own, the engine's lines as variations after mistakes,
/// and the players' figures as tags (`Annotator`, `RedACPL`,
/// `RedAccuracy`, `RedInaccuracies`, `RedMistakes`, `RedBlunders`, and the
/// same for Black, for a side with a judged move).
///
/// ```
/// use qipu::analysis::annotate::{annotate, AnnotateOptions, Line, Search};
/// use qipu::record::eval::Score;
/// let mut record = qipu::formats::pgn::read("1. h2e2 h9g7 *").remove(0);
/// let line = |cp, pv: &str| Some(Search { lines: vec![Line {
///     score: Score::Centipawns(cp), depth: 10, pv: vec![pv.parse().unwrap()] }] });
/// // Red to move +0.30; after h2e2 Black to move -0.25; after h9g7 Red to move +0.40.
/// let searches = [line(30, "h2e2"), line(-25, "h9g7"), line(40, "h0g2")];
/// let report = annotate(&mut record, &searches, &AnnotateOptions::default());
/// let comments: Vec<_> = record.tree().main_line().map(|n| record.tree().node(n).comment().unwrap().to_string()).collect();
/// assert_eq!(comments, ["+0.25/10", "+0.40/10"]);
/// assert_eq!(report.red.acpl(), Some(0));
/// assert_eq!(record.tag("BlackACPL"), Some("0"));
/// ```
pub fn annotate(record: &mut Record, searches: &[Option<Search>], options: &AnnotateOptions) -> GameReport {
    let positions: Vec<Position> = record.positions().collect();
    let moves = record.replayed().moves.clone();
    let nodes: Vec<_> = record.tree().main_line().take(moves.len()).collect();
    let mut report = GameReport::default();
    let search = |k: usize| searches.get(k).and_then(Option::as_ref);
    for (i, (&mv, &node)) in moves.iter().zip(&nodes).enumerate() {
        let ply = i + 1;
        let (before, after) = (&positions[i], &positions[ply]);
        let mover = before.turn();
        let over = after.legal_moves().is_empty();
        let mut entry = MoveReport { ply, mv, evaluation: None, cp_loss: None, loss: None, judgement: None };
        // The evaluation of the position the move leads to.
        if !over && let Some(s) = search(ply) {
            let best = s.best();
            let evaluation = Evaluation { score: for_red(best.score, after.turn()), depth: Some(best.depth) };
            append(
                &mut record.tree_mut().node_mut(node).notes_mut().comment,
                &evaluation.write(options.style),
            );
            entry.evaluation = Some(evaluation);
        }
        // The move judged against the best one.
        let played = if over { Some(Score::Mate(1)) } else { search(ply).map(|s| s.best().score.negated()) };
        if let (Some(best), Some(played)) = (search(i), played) {
            let best_line = best.best();
            let is_best = best_line.pv.first() == Some(&mv);
            // The move the engine would play costs nothing, whatever the
            // second search says.
            let best_score = if is_best { played } else { best_line.score };
            let cp_loss = (clamped_cp(best_score) - clamped_cp(played)).max(0) as u32;
            let loss = (winning_chances(best_score) - winning_chances(played)).max(0.0);
            let t = options.thresholds;
            let judgement = if loss >= t.blunder {
                Some(Judgement::Blunder)
            } else if loss >= t.mistake {
                Some(Judgement::Mistake)
            } else if loss >= t.inaccuracy {
                Some(Judgement::Inaccuracy)
            } else {
                None
            };
            let side = report.side_mut(mover);
            side.moves += 1;
            side.cp_loss += u64::from(cp_loss);
            side.accuracy_sum += move_accuracy(loss * 50.0);
            match judgement {
                Some(Judgement::Inaccuracy) => side.inaccuracies += 1,
                Some(Judgement::Mistake) => side.mistakes += 1,
                Some(Judgement::Blunder) => side.blunders += 1,
                None => {}
            }
            if let Some(j) = judgement {
                let notes = record.tree_mut().node_mut(node).notes_mut();
                if !notes.nags.iter().any(|n| (1..=6).contains(n)) {
                    notes.nags.push(j.nag());
                }
                if options.variations && j >= Judgement::Mistake {
                    add_lines(record, node, before, mv, best, options.style);
                }
            }
            entry.cp_loss = Some(cp_loss);
            entry.loss = Some(loss);
            entry.judgement = judgement;
        }
        report.moves.push(entry);
    }
    set_tags(record, &report, options);
    report
}

/// Adds the engine's lines from `before` (those not starting with the
/// move played) as variations of the move `node`, after the record's own;
/// the first move of each carries the line's evaluation.
fn add_lines(
    record: &mut Record,
    node: crate::record::NodeId,
    before: &Position,
    played: Move,
    search: &Search,
    style: EvalStyle,
) {
    let Some(parent) = record.tree().node(node).parent else { return };
    for line in &search.lines {
        if line.pv.is_empty() || line.pv[0] == played {
            continue;
        }
        let tree = record.tree_mut();
        let mut at = parent;
        for (k, &m) in line.pv.iter().enumerate() {
            at = tree.add_child(at, RecordedMove { text: MoveText::Coords(m), at: Span::default() });
            if k == 0 {
                let evaluation =
                    Evaluation { score: for_red(line.score, before.turn()), depth: Some(line.depth) };
                tree.node_mut(at).notes_mut().comment = Some(evaluation.write(style));
            }
        }
    }
}

/// The record's own `Annotator` (a person who commented the game), kept
/// when an engine's is added: the whole tag, or, for a game analysed
/// before (its tags give engine figures), what comes before the engine.
fn own_annotator(record: &Record) -> Option<&str> {
    let tag = record.tag("Annotator")?.trim();
    let tags = record.tags().iter().map(|(n, v)| (n.as_str(), v.as_str()));
    let own = if Annotation::from_tags(tags).is_some() {
        tag.rsplit_once(ANNOTATOR_SEPARATOR)?.0.trim()
    } else {
        tag
    };
    (!own.is_empty()).then_some(own)
}

/// The players' figures as tags, for a side with a judged move.
fn set_tags(record: &mut Record, report: &GameReport, options: &AnnotateOptions) {
    if let Some(engine) = &options.annotator {
        let value = match own_annotator(record) {
            Some(own) if own != engine.as_str() => format!("{own}{ANNOTATOR_SEPARATOR}{engine}"),
            _ => engine.clone(),
        };
        record.set_tag("Annotator", value);
    }
    for (side, name) in [(Color::Red, "Red"), (Color::Black, "Black")] {
        let s = report.side(side);
        let (Some(acpl), Some(accuracy)) = (s.acpl(), s.accuracy()) else { continue };
        record.set_tag(&format!("{name}ACPL"), acpl.to_string());
        record.set_tag(&format!("{name}Accuracy"), format!("{accuracy:.1}"));
        record.set_tag(&format!("{name}Inaccuracies"), s.inaccuracies.to_string());
        record.set_tag(&format!("{name}Mistakes"), s.mistakes.to_string());
        record.set_tag(&format!("{name}Blunders"), s.blunders.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(cp: i32, pv: &[&str]) -> Option<Search> {
        let pv = pv.iter().map(|m| m.parse().unwrap()).collect();
        Some(Search { lines: vec![Line { score: Score::Centipawns(cp), depth: 10, pv }] })
    }

    fn comments(record: &Record) -> Vec<Option<String>> {
        let tree = record.tree();
        tree.main_line().map(|n| tree.node(n).comment().map(str::to_string)).collect()
    }

    #[test]
    fn a_blunder_is_marked_and_the_better_line_added_after_the_records_own() {
        let mut record = crate::formats::pgn::read("1. h2e2 {good} h9g7 (1... b7e7) 2. h0g2 *").remove(0);
        // Black's h9g7 lets Red go from -0.25 (Black's view) to +3.00.
        let searches =
            [line(30, &["h2e2"]), line(-25, &["b9c7", "h0g2"]), line(300, &["h0g2"]), line(-280, &[])];
        let report = annotate(&mut record, &searches, &AnnotateOptions::default());
        assert_eq!(
            comments(&record),
            [Some("good +0.25/10".into()), Some("+3.00/10".into()), Some("+2.80/10".into())]
        );
        let tree = record.tree();
        let second = tree.main_line().nth(1).unwrap();
        assert_eq!(tree.node(second).nags(), [4]);
        // The record's variation first, then the engine's, its first move
        // with the line's evaluation.
        let own = tree.next_sibling(second).unwrap();
        let engine = tree.next_sibling(own).unwrap();
        assert_eq!(tree.node(engine).mv.as_ref().unwrap().points().unwrap().to_string(), "b9c7");
        assert_eq!(tree.node(engine).comment(), Some("+0.25/10"));
        assert_eq!(tree.children(engine).count(), 1);
        assert_eq!(report.black.blunders, 1);
        assert_eq!(report.moves[1].judgement, Some(Judgement::Blunder));
        assert_eq!(report.black.acpl(), Some(275));
        assert_eq!(record.tag("BlackBlunders"), Some("1"));
        assert_eq!(record.tag("RedBlunders"), Some("0"));
        // The record still replays, the new line with it.
        assert!(record.replayed().is_valid());
        assert_eq!(record.tree().variation_count(), 2);
    }

    #[test]
    fn a_move_with_a_remark_keeps_it_and_the_thresholds_decide() {
        let mut record = crate::formats::pgn::read("1. h2e2 h9g7 $1 2. h0g2 *").remove(0);
        let searches = [line(30, &["h2e2"]), line(-25, &["b9c7"]), line(100, &["h0g2"]), line(-90, &[])];
        let options = AnnotateOptions { variations: false, ..AnnotateOptions::default() };
        let report = annotate(&mut record.clone(), &searches, &options);
        // -0.25 to -1.00 for Black: a loss of about 0.13 in chances.
        let loss = report.moves[1].loss.unwrap();
        assert!((0.1..0.2).contains(&loss), "{loss}");
        assert_eq!(report.moves[1].judgement, Some(Judgement::Inaccuracy));
        let strict = AnnotateOptions {
            thresholds: Thresholds { inaccuracy: 0.2, mistake: 0.3, blunder: 0.4 },
            ..options.clone()
        };
        assert_eq!(annotate(&mut record.clone(), &searches, &strict).moves[1].judgement, None);
        annotate(&mut record, &searches, &options);
        let second = record.tree().main_line().nth(1).unwrap();
        assert_eq!(record.tree().node(second).nags(), [1]);
        assert_eq!(record.tree().variation_count(), 0);
    }

    #[test]
    fn a_mating_move_is_a_win_and_gets_no_evaluation() {
        let mut record =
            crate::formats::pgn::read("[FEN \"4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1\"]\n1. b0b9 *").remove(0);
        assert!(record.positions().last().unwrap().legal_moves().is_empty());
        // The engine prefers another move; the mate played costs nothing.
        let other = Line { score: Score::Mate(1), depth: 5, pv: vec!["a8a9".parse().unwrap()] };
        let searches = [Some(Search { lines: vec![other] }), None];
        let report = annotate(&mut record, &searches, &AnnotateOptions::default());
        assert_eq!(comments(&record), [None]);
        assert_eq!(
            (report.red.moves, report.moves[0].cp_loss, report.moves[0].judgement),
            (1, Some(0), None)
        );
        assert_eq!(record.tag("RedACPL"), Some("0"));
        assert_eq!(record.tag("BlackACPL"), None);
    }

    #[test]
    fn the_tags_written_are_those_stats_reads() {
        let mut record = crate::formats::pgn::read("1. h2e2 h9g7 *").remove(0);
        let searches = [line(30, &["h2e2"]), line(-25, &["h9g7"]), line(20, &[])];
        let options = AnnotateOptions { annotator: Some("E (depth 7)".into()), ..AnnotateOptions::default() };
        annotate(&mut record, &searches, &options);
        let names: Vec<&str> = record.tags().iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names.len(), crate::analysis::stats::ANNOTATION_TAGS.len());
        for name in names {
            assert!(crate::analysis::stats::ANNOTATION_TAGS.contains(&name), "{name}");
        }
        let read = crate::analysis::stats::Annotation::from_tags(
            record.tags().iter().map(|(n, v)| (n.as_str(), v.as_str())),
        )
        .unwrap();
        assert_eq!((read.red.acpl, read.black.blunders), (Some(0), Some(0)));
    }

    #[test]
    fn the_records_own_annotator_is_kept_before_the_engine() {
        let analyse = |record: &mut Record, engine: &str| {
            let searches = [line(30, &["h2e2"]), line(-25, &["h9g7"]), line(20, &[])];
            let options = AnnotateOptions { annotator: Some(engine.into()), ..AnnotateOptions::default() };
            annotate(record, &searches, &options);
            let tags = record.tags().iter().map(|(n, v)| (n.as_str(), v.as_str()));
            (record.tag("Annotator").map(str::to_string), Annotation::from_tags(tags).unwrap().annotator)
        };
        let mut record = crate::formats::pgn::read("[Annotator \"王嘉良\"]\n1. h2e2 h9g7 *").remove(0);
        let engine = |e: &str| Some(e.to_string());
        assert_eq!(analyse(&mut record, "E (1 s)"), (engine("王嘉良; E (1 s)"), engine("E (1 s)")));
        // Analysed again: the person stays, the engine is replaced.
        assert_eq!(analyse(&mut record, "F (2 s)"), (engine("王嘉良; F (2 s)"), engine("F (2 s)")));
        // A game an engine alone annotated: its name is replaced.
        let mut record = crate::formats::pgn::read("1. h2e2 h9g7 *").remove(0);
        assert_eq!(analyse(&mut record, "E (1 s)"), (engine("E (1 s)"), engine("E (1 s)")));
        assert_eq!(analyse(&mut record, "F (2 s)"), (engine("F (2 s)"), engine("F (2 s)")));
    }

    #[test]
    fn positions_not_searched_leave_moves_alone() {
        let mut record = crate::formats::pgn::read("1. h2e2 h9g7 2. h0g2 *").remove(0);
        let report = annotate(&mut record, &[None, line(-20, &[]), None, None], &AnnotateOptions::default());
        assert_eq!(comments(&record), [Some("+0.20/10".into()), None, None]);
        assert_eq!((report.red.moves, report.black.moves), (0, 0));
        assert_eq!(record.tag("RedACPL"), None);
        assert!(record.tag("Annotator").is_none());
        assert!((winning_chances(Score::Centipawns(0))).abs() < 1e-12);
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
    }
}

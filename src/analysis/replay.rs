//! Replaying a record: every move of the main line and of every variation
//! resolved against its position and checked, the first wrong move of each
//! line reported with where and why, and the end of the main line judged.

use std::fmt;

use crate::notation::{chinese, iccs, san, wxf};
use crate::record::{GameResult, MoveText, NodeId, Record, Resolution, Span, Warning};
use crate::{Color, FromFenError, History, Move, Outcome, Position, PositionError, Setup};

/// How the main line ends, computed from the final position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check: it loses.
    Stalemate,
    /// 120 plies without a capture.
    MoveLimit,
    /// The final position stands for the third time.
    Repetition,
}

impl Termination {
    /// The name used in reports and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::MoveLimit => "move-limit",
            Termination::Repetition => "repetition",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A move that could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The ply of the move in its line (1 = the first move of the game;
    /// in a variation, counted from the start of the game too); 0 for a
    /// bad start position.
    pub ply: usize,
    /// The move as written (empty for a bad start position).
    pub text: String,
    /// Where it was written.
    pub at: Span,
    /// The variation it lies in, `None` on the main line.
    pub variation: Option<Variation>,
    /// Why, in words.
    pub message: String,
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
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ply == 0 {
            if self.at == Span::default() {
                return write!(f, "start position: {}", self.message);
            }
            return write!(f, "start position ({}): {}", self.at, self.message);
        }
        if let Some(v) = &self.variation {
            write!(f, "in {v}: ")?;
        }
        write!(f, "ply {}", self.ply)?;
        if self.at != Span::default() {
            write!(f, " ({})", self.at)?;
        }
        write!(f, ": {}: {}", self.text, self.message)
    }
}

/// A replayed game.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The start position and the move of every node that replayed.
    pub resolution: Resolution,
    /// The main-line moves that replayed, in order.
    pub moves: Vec<Move>,
    /// The position after those moves; `None` when the start position is
    /// not a legal one.
    pub end: Option<Position>,
    /// Plies replayed in variations.
    pub variation_plies: usize,
    /// The first wrong move: of the main line if there is one, else of the
    /// first variation that holds one.
    pub error: Option<ReplayError>,
    /// How the main line ends, when it was replayed to its end.
    pub termination: Option<Termination>,
    /// A result that contradicts the final position (e.g. a draw recorded
    /// after a checkmate), in words.
    pub result_conflict: Option<String>,
    /// How the record was read otherwise than written (a diagram's side to
    /// move turned), besides the reader's own warnings in the record.
    pub warnings: Vec<Warning>,
}

impl Replayed {
    /// Whether every move of the record replayed.
    pub fn is_valid(&self) -> bool {
        self.error.is_none()
    }

    /// Whether the game's start position could be set up (the record was
    /// read and its start position is legal): only then do
    /// `resolution.start` and `moves` describe the game.
    pub fn has_start(&self) -> bool {
        self.resolution.start.is_some()
    }
}

/// Resolves one written move in `pos`: ICCS, then WXF, then Chinese, then
/// WinBoard SAN, whichever reads it.
pub fn resolve(pos: &Position, text: &str) -> Result<Move, String> {
    resolve_in_game(pos, text, &mut None)
}

/// Like [`resolve`], keeping the rank convention of SAN moves (0…9 or
/// 1…10) from one move of a game to the next in `san_base`.
pub fn resolve_in_game(pos: &Position, text: &str, san_base: &mut Option<u8>) -> Result<Move, String> {
    // Text that opens with a Chinese character can only be Chinese notation:
    // try it first, sparing the other readers' failures.
    if text.chars().next().is_some_and(is_cjk)
        && let Ok(d) = chinese::parse(text)
    {
        return d.resolve(pos).map_err(|e| e.to_string());
    }
    if let Ok(m) = iccs::parse(text) {
        return m.resolve(pos).map_err(|e| e.to_string());
    }
    if let Ok(d) = wxf::parse(text) {
        return d.resolve(pos).map_err(|e| e.to_string());
    }
    match chinese::parse(text) {
        Ok(d) => d.resolve(pos).map_err(|e| e.to_string()),
        Err(_) if let Ok(m) = san::parse(text) => match m.resolve_ranked(pos, *san_base) {
            Ok((m, base)) => {
                *san_base = base;
                Ok(m)
            }
            Err(e) => Err(e.to_string()),
        },
        Err(e) if text.is_ascii() => Err(format!("not a Chinese, WXF, ICCS or SAN move ({})", e.reason)),
        Err(e) => Err(e.reason),
    }
}

/// A CJK ideograph (not a full-width Latin letter or digit, which ICCS and
/// WXF moves may be written in).
fn is_cjk(c: char) -> bool {
    ('\u{2E80}'..'\u{FF00}').contains(&c)
}

fn resolve_node(
    record: &Record,
    id: NodeId,
    pos: &Position,
    san_base: &mut Option<u8>,
) -> Result<Move, (String, Span, String)> {
    let mv = record.tree.node(id).mv.as_ref().expect("a move node");
    match &mv.text {
        MoveText::Text(t) => match iccs::parse_plain(t.as_bytes()) {
            Some(m) => m.resolve(pos).map_err(|e| e.to_string()),
            None => resolve_in_game(pos, t, san_base),
        }
        .map_err(|e| (t.to_string(), mv.at, e)),
        MoveText::Coords(m) => match pos.illegality(*m) {
            None => Ok(*m),
            Some(why) => Err((m.to_string(), mv.at, why.to_string())),
        },
    }
}

/// The move of node `id` as written.
fn written(record: &Record, id: NodeId) -> String {
    match record.tree.node(id).mv.as_ref().map(|mv| &mv.text) {
        Some(MoveText::Text(t)) => t.to_string(),
        Some(MoveText::Coords(m)) => m.to_string(),
        None => String::new(),
    }
}

/// The start position of `record` and the first `plies` moves of its
/// main line, as far as they replay; `None` when the record is unreadable
/// or its start position is not a legal one. Cheaper than [`replay`] when
/// only an opening matters.
pub fn opening(record: &Record, plies: usize) -> Option<(Position, Vec<Move>)> {
    if record.unreadable.is_some() {
        return None;
    }
    let start = match record.fen() {
        None => Position::start(),
        Some(fen) => Position::from_fen(fen).ok()?,
    };
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(plies);
    let mut san_base = None;
    for id in record.tree.main_line().take(plies) {
        let Ok(m) = resolve_node(record, id, &pos, &mut san_base) else { break };
        let _ = pos.play_unchecked(m);
        moves.push(m);
    }
    Some((start, moves))
}

/// Replays `record`.
pub fn replay(record: &Record) -> Replayed {
    if let Some(why) = &record.unreadable {
        return not_replayed(record, None, why.at, format!("unreadable: {}", why.message));
    }
    let (setup, start, warning) = match start_of(record) {
        Start::Legal(setup, start, warning) => (setup, start, warning),
        Start::Rejected(setup, message) => return not_replayed(record, setup, start_place(record), message),
    };
    let tree = &record.tree;
    let mut resolved = vec![None; tree.len()];
    let mut pos = start.clone();
    let mut history = History::with_capacity(&pos, tree.len());
    let mut moves = Vec::with_capacity(tree.len());
    let mut error = None;
    // Positions before each main-line move, for the variations branching there.
    let mut branch_points: Vec<(NodeId, Position, usize)> = Vec::new();
    let mut node = tree.root();
    let mut san_base = None;
    while let Some(next) = tree.main_child(node) {
        if tree.children(node).nth(1).is_some() {
            branch_points.push((node, pos.clone(), moves.len()));
        }
        match resolve_node(record, next, &pos, &mut san_base) {
            Ok(m) => {
                let _ = pos.play_unchecked(m);
                history.push(&pos);
                moves.push(m);
                resolved[next.index()] = Some(m);
                node = next;
            }
            Err((text, at, message)) => {
                let message = match pos.outcome() {
                    Some(Outcome::Checkmate { winner }) => {
                        format!("{message} (the game was already over: {} is checkmated)", !winner)
                    }
                    Some(Outcome::Stalemate { winner }) => {
                        format!("{message} (the game was already over: {} has no move)", !winner)
                    }
                    None => message,
                };
                error = Some(ReplayError { ply: moves.len() + 1, text, at, variation: None, message });
                break;
            }
        }
    }
    let mut variation_plies = 0;
    let mut variation_error = None;
    // Each variation is walked depth first on one position, moves played
    // going down and taken back coming up: no position is copied per move.
    // `Enter` carries the variation that leaves the main line, for reports.
    // (its first move, and the main-line ply it is played instead of).
    enum Step {
        Enter(NodeId, usize, (NodeId, usize)),
        Leave(crate::rules::Undo),
    }
    for (at_node, mut pos, ply) in branch_points {
        let mut stack: Vec<Step> =
            tree.children(at_node).skip(1).map(|c| Step::Enter(c, ply, (c, ply + 1))).collect();
        stack.reverse();
        while let Some(step) = stack.pop() {
            let (id, ply, top) = match step {
                Step::Leave(undo) => {
                    pos.undo(undo);
                    continue;
                }
                Step::Enter(id, ply, top) => (id, ply, top),
            };
            let mut base = san_base;
            match resolve_node(record, id, &pos, &mut base) {
                Ok(m) => {
                    let undo = pos.play_unchecked(m);
                    variation_plies += 1;
                    resolved[id.index()] = Some(m);
                    stack.push(Step::Leave(undo));
                    let first = stack.len();
                    stack.extend(tree.children(id).map(|c| Step::Enter(c, ply + 1, top)));
                    stack[first..].reverse();
                }
                Err((text, at, message)) => {
                    if variation_error.is_none() {
                        let variation = Some(Variation { ply: top.1, first: written(record, top.0) });
                        variation_error = Some(ReplayError { ply: ply + 1, text, at, variation, message });
                    }
                }
            }
        }
    }
    let error = error.or(variation_error);
    let main_complete = error.as_ref().is_none_or(|e| e.in_variation());
    let (termination, result_conflict) = if main_complete {
        let outcome = pos.outcome();
        (termination(&pos, outcome, &history), result_conflict(record.result(), outcome))
    } else {
        (None, None)
    };
    Replayed {
        resolution: Resolution { setup: Some(setup), start: Some(start), moves: resolved },
        moves,
        end: Some(pos),
        variation_plies,
        error,
        termination,
        result_conflict,
        warnings: warning.into_iter().collect(),
    }
}

/// Where the record gives its start position: the `FEN` tag, the header's
/// piece slots; else where the record starts.
fn start_place(record: &Record) -> Span {
    record.start_at.unwrap_or(record.at)
}

/// How the start of a record reads (a value on the stack for a moment:
/// the size of its variants does not matter).
#[allow(clippy::large_enum_variant)]
enum Start {
    /// The placement as read and the legal position it is, with a warning
    /// when it was read otherwise than written.
    Legal(Setup, Position, Option<Warning>),
    /// No legal position: the placement, if it could be read, and why.
    Rejected(Option<Setup>, String),
}

/// The start of `record`.
///
/// One reading is relaxed: a record without moves whose side to move could
/// take the other general (a diagram whose side to move was stored wrong, as
/// XQF files often store it) is read with the other side to move.
fn start_of(record: &Record) -> Start {
    let Some(fen) = record.fen() else { return Start::Legal(Setup::start(), Position::start(), None) };
    let setup = match Setup::from_fen(fen) {
        Ok(setup) => setup,
        Err(e) => return Start::Rejected(None, FromFenError::Syntax(e).to_string()),
    };
    let invalid =
        |setup: Setup, e: PositionError| Start::Rejected(Some(setup), FromFenError::Position(e).to_string());
    match Position::from_setup(setup.clone()) {
        Ok(pos) => Start::Legal(setup, pos, None),
        Err(PositionError::OppositeCheck(checked)) if record.tree.is_empty() => {
            let turned = Setup { turn: checked, ..setup.clone() };
            match Position::from_setup(turned.clone()) {
                Ok(pos) => {
                    let message = format!(
                        "the record says {} is to move, but {checked} is in check (its general \
                         could be taken): read as a diagram with {checked} to move",
                        !checked
                    );
                    Start::Legal(turned, pos, Some(Warning { at: start_place(record), message }))
                }
                Err(_) => invalid(setup, PositionError::OppositeCheck(checked)),
            }
        }
        Err(e) => invalid(setup, e),
    }
}

/// A record whose moves cannot be replayed at all, and why.
fn not_replayed(record: &Record, setup: Option<Setup>, at: Span, message: String) -> Replayed {
    Replayed {
        resolution: Resolution { setup, start: None, moves: vec![None; record.tree.len()] },
        moves: Vec::new(),
        end: None,
        variation_plies: 0,
        error: Some(ReplayError { ply: 0, text: String::new(), at, variation: None, message }),
        termination: None,
        result_conflict: None,
        warnings: Vec::new(),
    }
}

fn termination(pos: &Position, outcome: Option<Outcome>, history: &History) -> Option<Termination> {
    match outcome {
        Some(Outcome::Checkmate { .. }) => Some(Termination::Checkmate),
        Some(Outcome::Stalemate { .. }) => Some(Termination::Stalemate),
        None if history.repetition().is_some() => Some(Termination::Repetition),
        None if pos.is_natural_limit() => Some(Termination::MoveLimit),
        None => None,
    }
}

fn result_conflict(result: Option<GameResult>, outcome: Option<Outcome>) -> Option<String> {
    let outcome = outcome?;
    let expected = match outcome.winner() {
        Color::Red => GameResult::RedWins,
        Color::Black => GameResult::BlackWins,
    };
    match result {
        Some(r) if r != expected && r != GameResult::Unknown => Some(format!(
            "result {r} contradicts the final position: {} has no legal move, so {} wins",
            !outcome.winner(),
            outcome.winner()
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pgn;

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
        assert!(e.message.contains("horse leg"), "{}", e.message);
        assert_eq!(r.moves.len(), 2);
        let e = replay_text("1. 车一进九").error.unwrap();
        assert!(e.message.contains("path is blocked") || e.message.contains("illegal"), "{}", e.message);
        // SAN with ranks 0-9 (h2h5) or 1-10 (h2h4): both legal, so ambiguous.
        let e = replay_text("1. Ch5").error.unwrap();
        assert!(e.message.contains("ambiguous"), "{}", e.message);
        let e = replay_text("1. Ca5").error.unwrap();
        assert!(e.message.contains("no Red cannon"), "{}", e.message);
        let e = replay_text("1. Zz9").error.unwrap();
        assert!(e.message.contains("not a Chinese, WXF, ICCS or SAN move"), "{}", e.message);
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
        assert_eq!(e.message, "the Red cannon moves, but it is Black's turn: two Red moves in a row");
    }

    #[test]
    fn moves_after_the_end_are_explained() {
        let mate = "[FEN \"3k5/R8/9/9/9/9/9/9/1R7/4K4 w\"]\n";
        let e = replay_text(&format!("{mate}1. b1b9 d9d8")).error.unwrap();
        assert!(e.message.contains("already over"), "{}", e.message);
    }
}

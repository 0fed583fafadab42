//! The FEN trail of a game: the position after every ply of its main line
//! or, when asked, of every line (each named by its [`LineId`]), with the
//! move that led there in a notation chosen.
//!
//! A [`Trail`] is a [`Follow`]er: it is told each move as the game is
//! replayed and hands each position, as a [`Step`], to a [`TrailSink`]
//! that keeps what it needs of it (the `qipu fen` command writes its lines
//! straight from the steps; [`Positions`] keeps each as a
//! [`TrailPosition`]). The FEN of each position is kept up to date rank by
//! rank ([`RankTexts`]): only the ranks a move touches are written anew.
//!
//! Ply 0, the start as the record gives it (legal or not), is not followed
//! (a game whose start is no legal position is not replayed): it is the
//! step [`start_step`] makes of the game's [`Setup`].
//!
//! ```
//! use qipu::analysis::trail::{Positions, Trail};
//! use qipu::batch::Checker;
//! use qipu::notation::Notation;
//! let trail = Trail::new(Notation::Iccs, Positions::default());
//! let games = qipu::formats::pgn::read_with("1. h2e2 h9g7 *", &mut Checker::following(trail));
//! let traced = &games[0].followed;
//! assert_eq!(traced.positions.len(), 2);
//! assert_eq!(traced.positions[0].mv.as_deref(), Some("H2-E2"));
//! assert_eq!(traced.positions[1].fen, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
//! ```

use std::fmt::Write as _;

use crate::analysis::ecco::OpeningReader;
use crate::fen::RankTexts;
use crate::notation::Notation;
use crate::record::replay::{Follow, LineId, MAX_LINE_DEPTH};
use crate::record::{Evaluation, Skip};
use crate::{Color, Move, Position, Setup};

/// One position of a trail, as a [`TrailSink`] is given it.
#[derive(Debug)]
pub struct Step<'a> {
    /// The line the position is on ([`LineId`]'s text: `0` the main
    /// line), when every line is followed; `None` otherwise.
    pub line: Option<&'a str>,
    /// Plies from the start of the game (0 for the start).
    pub ply: usize,
    /// The move that led here, in the trail's notation; `None` at ply 0.
    pub mv: Option<&'a str>,
    /// The FEN text of each rank of the board.
    pub ranks: &'a RankTexts,
    /// The side to move.
    pub turn: Color,
    /// The halfmove clock.
    pub halfmoves: u32,
    /// The fullmove number.
    pub fullmoves: u32,
    /// Whether the side to move is in check: `None` when not known (the
    /// setup as read, which [`start_step`] gives).
    pub check: Option<bool>,
    /// The move that led here took a piece (false at ply 0).
    pub capture: bool,
}

impl Step<'_> {
    /// Appends the position's FEN (with its clocks) to `out`.
    pub fn write_fen(&self, out: &mut Vec<u8>) {
        self.ranks.write_bytes(self.turn, self.halfmoves, self.fullmoves, out);
    }

    /// The position's FEN, with its clocks.
    pub fn fen(&self) -> String {
        let mut fen = String::with_capacity(100);
        self.ranks.write(self.turn, self.halfmoves, self.fullmoves, &mut fen);
        fen
    }
}

/// What is done with the positions of a trail.
pub trait TrailSink {
    /// What the sink makes of a game.
    type Output;

    /// The game starts, legal, at `step` (ply 0, no move): told before
    /// its positions. Only sinks that need the start of a replayed game
    /// see it here ([`start_step`] gives the setup as read, legal or
    /// not, outside the trail).
    fn start(&mut self, step: &Step<'_>) {
        let _ = step;
    }

    /// One more position of the game, in the order of the game's lines.
    fn position(&mut self, step: &Step<'_>);

    /// The comment of the move that led to the last position given holds
    /// `eval` ([`Evaluation::find`]): told after that position, before the
    /// next.
    fn evaluation(&mut self, eval: Evaluation) {
        let _ = eval;
    }

    /// The game ends: what was made of it. The sink is then ready for the
    /// next game.
    fn end(&mut self) -> Self::Output;
}

/// What a [`Trail`] makes of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Traced<T> {
    /// What the sink made of the game's positions.
    pub positions: T,
    /// With `Trail::with_ecco`, the ECCO code of the game's opening
    /// (`None` for a game from another start).
    pub ecco: Option<&'static str>,
    /// Variations nested deeper than [`MAX_LINE_DEPTH`] were left out.
    pub too_deep: bool,
}

/// Follows a game's main line (and with `Trail::all_lines` its
/// variations), handing each position after a move to its sink. See the
/// [module](self).
#[derive(Clone, Debug)]
pub struct Trail<S> {
    notation: Notation,
    all_lines: bool,
    sink: S,
    /// The ranks of the board as FEN text: only those a move touches are
    /// written anew. `None` between games.
    ranks: Option<RankTexts>,
    /// The line being followed, as written ([`LineId`]'s text).
    line: String,
    ply: usize,
    mv: String,
    /// The move written in `mv` takes a piece.
    capture: bool,
    /// Names the opening, for [`Traced::ecco`].
    opening: Option<OpeningReader>,
    /// The line followed is nested deeper than [`MAX_LINE_DEPTH`]: its
    /// positions are not given.
    deep: bool,
    /// Some were not, in this game.
    too_deep: bool,
    /// The last move told gave its position to the sink.
    given: bool,
}

impl<S: TrailSink> Trail<S> {
    /// The trail of the main line, moves in `notation`, positions given
    /// to `sink`.
    pub fn new(notation: Notation, sink: S) -> Trail<S> {
        Trail {
            notation,
            all_lines: false,
            sink,
            ranks: None,
            line: String::with_capacity(16),
            ply: 0,
            mv: String::with_capacity(16),
            capture: false,
            opening: None,
            deep: false,
            too_deep: false,
            given: false,
        }
    }

    /// Follows every line when `all` (each step then names its line), not
    /// only the main line.
    #[cfg(any(test, feature = "serde"))]
    pub(crate) fn all_lines(mut self, all: bool) -> Trail<S> {
        self.all_lines = all;
        self
    }

    /// Names each game's opening by ECCO when `ecco` ([`Traced::ecco`]).
    #[cfg(any(test, feature = "serde"))]
    pub(crate) fn with_ecco(mut self, ecco: bool) -> Trail<S> {
        self.opening = ecco.then(OpeningReader::default);
        self
    }

    /// The move `m` about to be played in `before`, in the notation asked for.
    fn write_move(&mut self, before: &Position, m: Move) {
        self.capture = before.board().piece_at(m.to).is_some();
        self.mv.clear();
        if self.notation.write_to(before, m, &mut self.mv).is_err() {
            // Never: a move replayed is legal, so a piece stands on its origin.
            self.mv = m.to_string();
        }
    }

    /// The position `pos` that the move `m` led to.
    fn give_position(&mut self, pos: &Position, m: Move) {
        self.given = false;
        let Some(ranks) = &mut self.ranks else { return };
        self.ply += 1;
        if self.deep {
            return;
        }
        ranks.update(pos.board(), m);
        let step = Step {
            line: self.all_lines.then_some(self.line.as_str()),
            ply: self.ply,
            mv: Some(&self.mv),
            ranks,
            turn: pos.turn(),
            halfmoves: pos.halfmoves(),
            fullmoves: pos.fullmoves(),
            check: Some(pos.is_check()),
            capture: self.capture,
        };
        self.sink.position(&step);
        self.given = true;
    }

    /// Goes on from `pos`, `ply` plies into the game, on `line`.
    fn go_to(&mut self, pos: &Position, ply: usize, line: LineId<'_>) {
        if !self.all_lines || self.ranks.is_none() {
            return;
        }
        self.ply = ply;
        self.deep = line.depth() > MAX_LINE_DEPTH;
        if self.deep {
            self.too_deep = true;
            return;
        }
        self.ranks = Some(RankTexts::new(pos.board()));
        self.line.clear();
        let _ = write!(self.line, "{line}");
    }
}

impl<S: TrailSink> Follow for Trail<S> {
    type Output = Traced<S::Output>;

    fn start(&mut self, start: &Position) {
        self.ply = 0;
        self.line.clear();
        self.line.push('0');
        let ranks = RankTexts::new(start.board());
        self.sink.start(&Step {
            line: self.all_lines.then_some(self.line.as_str()),
            ply: 0,
            mv: None,
            ranks: &ranks,
            turn: start.turn(),
            halfmoves: start.halfmoves(),
            fullmoves: start.fullmoves(),
            check: Some(start.is_check()),
            capture: false,
        });
        self.ranks = Some(ranks);
        if let Some(opening) = &mut self.opening {
            opening.start(start);
        }
    }

    fn before_move(&mut self, before: &Position, m: Move) {
        if let Some(opening) = &mut self.opening {
            opening.before_move(before, m);
        }
        self.write_move(before, m);
    }

    fn after_move(&mut self, pos: &Position, m: Move) {
        self.give_position(pos, m);
    }

    fn begin_variation(&mut self, from: &Position, ply: usize, line: LineId<'_>) -> Skip {
        self.go_to(from, ply, line);
        Skip(false)
    }

    fn before_variation_move(&mut self, before: &Position, m: Move) {
        if self.all_lines {
            self.write_move(before, m);
        }
    }

    fn variation_move(&mut self, after: &Position, m: Move) {
        if self.all_lines {
            self.give_position(after, m);
        } else {
            self.given = false;
        }
    }

    fn comment(&mut self, comment: &str) {
        if self.given
            && let Some(eval) = Evaluation::find(comment)
        {
            self.sink.evaluation(eval);
        }
    }

    fn end_variation(&mut self, back: &Position, ply: usize, line: LineId<'_>) {
        self.go_to(back, ply, line);
    }

    fn end(&mut self) -> Traced<S::Output> {
        self.ranks = None;
        self.deep = false;
        self.given = false;
        let ecco = self.opening.as_mut().and_then(|o| o.end()).map(|name| name.ecco.code);
        Traced { positions: self.sink.end(), ecco, too_deep: std::mem::take(&mut self.too_deep) }
    }
}

/// Hands `sink` the step of ply 0: the placement, side and clocks of
/// `setup` as read, legal or not (on line `0` when `all_lines`).
///
/// ```
/// use qipu::analysis::trail::{Positions, TrailSink, start_step};
/// let setup = qipu::Setup::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 b - - 3 9").unwrap();
/// let mut positions = Positions::default();
/// start_step(&setup, false, &mut positions);
/// let first = &positions.end()[0];
/// assert_eq!((first.ply, first.mv.as_deref()), (0, None));
/// assert_eq!(first.fen, "4k4/9/9/9/9/9/9/9/9/4K4 b - - 3 9");
/// ```
pub fn start_step<S: TrailSink>(setup: &Setup, all_lines: bool, sink: &mut S) {
    let ranks = RankTexts::new(&setup.board);
    sink.position(&Step {
        line: all_lines.then_some("0"),
        ply: 0,
        mv: None,
        ranks: &ranks,
        turn: setup.turn,
        halfmoves: setup.halfmoves,
        fullmoves: setup.fullmoves,
        check: None,
        capture: false,
    });
}

/// A position of a trail, as [`Positions`] keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrailPosition {
    /// The line ([`Step::line`]), when every line is followed.
    pub line: Option<String>,
    /// Plies from the start of the game.
    pub ply: usize,
    /// The move that led here, in the trail's notation (`None` at ply 0).
    pub mv: Option<String>,
    /// The FEN, with its clocks.
    pub fen: String,
    /// The side to move.
    pub turn: Color,
    /// The evaluation the comment of the move that led here holds
    /// ([`TrailSink::evaluation`]).
    pub eval: Option<Evaluation>,
}

/// A [`TrailSink`] keeping every position of a game as a
/// [`TrailPosition`].
#[derive(Clone, Debug, Default)]
pub struct Positions {
    positions: Vec<TrailPosition>,
}

impl TrailSink for Positions {
    type Output = Vec<TrailPosition>;

    fn position(&mut self, step: &Step<'_>) {
        self.positions.push(TrailPosition {
            line: step.line.map(str::to_string),
            ply: step.ply,
            mv: step.mv.map(str::to_string),
            fen: step.fen(),
            turn: step.turn,
            eval: None,
        });
    }

    fn evaluation(&mut self, eval: Evaluation) {
        if let Some(last) = self.positions.last_mut() {
            last.eval = Some(eval);
        }
    }

    fn end(&mut self) -> Vec<TrailPosition> {
        std::mem::take(&mut self.positions)
    }
}

/// The side to move as the FEN trail's JSON and CSV lines, the tables and
/// Python's columns name it: `red` or `black`.
pub fn side_name(turn: Color) -> &'static str {
    match turn {
        Color::Red => "red",
        Color::Black => "black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::Checker;
    use crate::formats::pgn;

    /// A game of `plies` legal random moves (few choices each).
    fn random_line(plies: usize, seed: u64) -> Vec<Move> {
        let mut state = seed | 1;
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for _ in 0..plies {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[(state % legal.len() as u64) as usize];
            let _ = pos.play_unchecked(m);
            moves.push(m);
        }
        moves
    }

    #[test]
    fn each_fen_is_the_position_of_replaying_the_prefix() {
        for seed in 1..20 {
            let moves = random_line(80, seed);
            let text: String = moves.iter().map(|m| format!("{m} ")).collect::<String>() + "*";
            for notation in [Notation::Uci, Notation::Wxf] {
                let trail = Trail::new(notation, Positions::default());
                let games = pgn::read_with(&text, &mut Checker::following(trail));
                let traced = &games[0].followed;
                assert_eq!(traced.positions.len(), moves.len(), "seed {seed}");
                let mut pos = Position::start();
                for (k, (p, &m)) in traced.positions.iter().zip(&moves).enumerate() {
                    let written = notation.write(&pos, m).unwrap();
                    let _ = pos.play_unchecked(m);
                    assert_eq!(p.fen, pos.fen(), "seed {seed}, ply {}", k + 1);
                    assert_eq!(p.ply, k + 1);
                    assert_eq!(p.mv.as_deref(), Some(written.as_str()));
                    assert_eq!(p.turn, pos.turn());
                    assert_eq!(p.line, None);
                }
                assert!(!traced.too_deep);
                assert_eq!(traced.ecco, None, "not asked for");
            }
        }
    }

    #[test]
    fn variations_are_followed_only_when_asked_each_from_its_own_position() {
        let text = "1. h2e2 (1. b2e2 h9g7 (1... b9c7)) h9g7 2. h0g2 *";
        for all in [false, true] {
            let trail = Trail::new(Notation::Uci, Positions::default()).all_lines(all).with_ecco(true);
            let games = pgn::read_with(text, &mut Checker::following(trail));
            let traced = &games[0].followed;
            let got: Vec<(Option<&str>, usize, &str)> = traced
                .positions
                .iter()
                .map(|p| (p.line.as_deref(), p.ply, p.mv.as_deref().unwrap()))
                .collect();
            if all {
                let expected = [
                    (Some("0"), 1, "h2e2"),
                    (Some("1"), 1, "b2e2"),
                    (Some("1"), 2, "h9g7"),
                    (Some("1.1"), 2, "b9c7"),
                    (Some("0"), 2, "h9g7"),
                    (Some("0"), 3, "h0g2"),
                ];
                assert_eq!(got, expected);
                let mut pos = Position::start();
                for m in ["b2e2", "b9c7"] {
                    let _ = pos.play_unchecked(m.parse().unwrap());
                }
                assert_eq!(traced.positions[3].fen, pos.fen());
            } else {
                assert_eq!(got, [(None, 1, "h2e2"), (None, 2, "h9g7"), (None, 3, "h0g2")]);
            }
            assert!(traced.ecco.is_some());
        }
    }

    /// Keeps `(ply, move, check, capture)` of each step, the start's too.
    #[derive(Default)]
    struct Flags(Vec<(usize, Option<String>, Option<bool>, bool)>);

    impl TrailSink for Flags {
        type Output = Vec<(usize, Option<String>, Option<bool>, bool)>;

        fn start(&mut self, step: &Step<'_>) {
            self.position(step);
        }

        fn position(&mut self, step: &Step<'_>) {
            self.0.push((step.ply, step.mv.map(str::to_string), step.check, step.capture));
        }

        fn end(&mut self) -> Self::Output {
            std::mem::take(&mut self.0)
        }
    }

    #[test]
    fn steps_tell_the_start_check_and_capture() {
        // 2. e1e6 takes the pawn, 3. e6f6 checks.
        let text = "[FEN \"4k4/9/9/4p4/9/9/9/9/4R4/3K5 b - - 0 1\"]\n\n1... e9f9 2. e1e6 f9f8 3. e6f6 *";
        let trail = Trail::new(Notation::Uci, Flags::default());
        let games = pgn::read_with(text, &mut Checker::following(trail));
        let mv = |m: &str| Some(m.to_string());
        assert_eq!(
            games[0].followed.positions,
            [
                (0, None, Some(false), false),
                (1, mv("e9f9"), Some(false), false),
                (2, mv("e1e6"), Some(false), true),
                (3, mv("f9f8"), Some(false), false),
                (4, mv("e6f6"), Some(true), false),
            ]
        );
        // In check at the start.
        let text = "[FEN \"5k3/9/9/9/9/9/9/9/5R3/3K5 b - - 0 1\"]\n\n1... f9e9 *";
        let trail = Trail::new(Notation::Uci, Flags::default());
        let games = pgn::read_with(text, &mut Checker::following(trail));
        assert_eq!(
            games[0].followed.positions,
            [(0, None, Some(true), false), (1, mv("f9e9"), Some(false), false)]
        );
    }

    #[test]
    fn positions_carry_the_evaluations_of_the_comments_of_their_moves() {
        let text = "{+9.99} 1. h2e2 {+0.38/19} (1. b2e2 {#-3}) h9g7 {好棋} {[%eval -0.20,18]} \
                    2. h0g2 {中局} (2. c3c4 {+1.00}) 2... i9h9 *";
        for all in [false, true] {
            let trail = Trail::new(Notation::Uci, Positions::default()).all_lines(all);
            let games = pgn::read_with(text, &mut Checker::following(trail));
            let got: Vec<(&str, Option<String>)> = games[0]
                .followed
                .positions
                .iter()
                .map(|p| (p.mv.as_deref().unwrap(), p.eval.map(|e| e.to_string())))
                .collect();
            let some = |s: &str| Some(s.to_string());
            let mut expected = vec![("h2e2", some("+0.38/19"))];
            if all {
                expected.push(("b2e2", some("#-3")));
            }
            expected.extend([("h9g7", some("-0.20/18")), ("h0g2", None)]);
            if all {
                expected.push(("c3c4", some("+1.00")));
            }
            expected.push(("i9h9", None));
            assert_eq!(got, expected, "all lines: {all}");
        }
    }
}

//! `qipu.Position`: a position from a FEN, its legal moves, moves played
//! in any notation and taken back, as python-chess's `chess.Board` does.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use qipu::notation::{MoveError, ResolveError, resolve_any};
use qipu::{History, Move, Outcome};

use crate::errors::raise;
use crate::kwargs;
use crate::names::{side, value_error};

/// A position, with the moves played to reach it from the one it was made
/// from (`move_stack`), so that they can be taken back (`pop`) and
/// repetitions seen.
#[pyclass(module = "qipu")]
#[derive(Clone)]
pub struct Position {
    pos: qipu::Position,
    /// Each move played, with the position it was played in.
    stack: Vec<(qipu::Position, Move)>,
}

impl Position {
    /// A Python `Position` of a qipu one.
    pub fn of(pos: qipu::Position) -> Position {
        Position { pos, stack: Vec::new() }
    }

    /// The position `moves` (legal ones) lead to from `start`, with them as
    /// its move stack.
    pub fn played(start: qipu::Position, moves: &[Move]) -> Position {
        let mut position = Position::of(start);
        for &m in moves {
            let before = position.pos.clone();
            position.pos.play_unchecked(m);
            position.stack.push((before, m));
        }
        position
    }

    /// The qipu position.
    pub fn inner(&self) -> &qipu::Position {
        &self.pos
    }

    /// `text`, a move in any notation, resolved here; else the exception
    /// `push` raises (`IllegalMoveError`, `AmbiguousMoveError` or
    /// `InvalidMoveError`).
    pub fn parse_move(&self, py: Python<'_>, text: &str) -> PyResult<Move> {
        resolve_any(&self.pos, text).map_err(|e| {
            let message = format!("{text}: {e}");
            let fen = self.pos.fen();
            let class = match &e {
                MoveError::NotAMove(_) | MoveError::NotChinese(_) => "InvalidMoveError",
                MoveError::Resolve(ResolveError::Ambiguous { .. }) => "AmbiguousMoveError",
                _ => "IllegalMoveError",
            };
            raise(
                py,
                class,
                &message,
                kwargs!(py, "move" => text, "fen" => fen, "ply" => self.stack.len() + 1),
            )
        })
    }
}

#[pymethods]
impl Position {
    /// The position of `fen` (the standard start when `None`).
    #[new]
    #[pyo3(signature = (fen = None))]
    fn new(py: Python<'_>, fen: Option<&str>) -> PyResult<Position> {
        match fen {
            None => Ok(Position::of(qipu::Position::start())),
            Some(text) => qipu::Position::from_fen(text)
                .map(Position::of)
                .map_err(|e| raise(py, "FenError", &format!("{text:?}: {e}"), kwargs!(py, "fen" => text))),
        }
    }

    /// The FEN of the position, with its clocks.
    fn fen(&self) -> String {
        self.pos.fen()
    }

    /// The side to move: `"red"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        side(self.pos.turn())
    }

    /// Every legal move, in `notation` (`uci` by default: `h2e2`).
    #[pyo3(signature = (notation = "uci"))]
    fn legal_moves(&self, notation: &str) -> PyResult<Vec<String>> {
        let n = crate::names::notation(notation)?;
        let moves = self.pos.legal_moves();
        moves.iter().map(|&m| n.write(&self.pos, m).map_err(value_error)).collect()
    }

    /// Whether `move` (in any notation) is a legal move here.
    fn is_legal(&self, r#move: &str) -> bool {
        resolve_any(&self.pos, r#move).is_ok()
    }

    /// Plays `move`, written in any notation (`h2e2`, `H2-E2`, `C2.5`,
    /// `炮二平五`); returns it in UCI coordinates. Raises
    /// `IllegalMoveError`, `AmbiguousMoveError` or `InvalidMoveError`.
    fn push(&mut self, py: Python<'_>, r#move: &str) -> PyResult<String> {
        let m = self.parse_move(py, r#move)?;
        let before = self.pos.clone();
        self.pos.play_unchecked(m);
        self.stack.push((before, m));
        Ok(m.to_string())
    }

    /// Takes the last move back; returns it in UCI coordinates. Raises
    /// `IndexError` when no move was played.
    fn pop(&mut self) -> PyResult<String> {
        let (before, m) = self
            .stack
            .pop()
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("pop from an empty move stack"))?;
        self.pos = before;
        Ok(m.to_string())
    }

    /// The moves played since the position was made, in UCI coordinates.
    #[getter]
    fn move_stack(&self) -> Vec<String> {
        self.stack.iter().map(|(_, m)| m.to_string()).collect()
    }

    /// `move` (in any notation) written in `notation`: `move_to("h2e2",
    /// "chinese")` is `炮二平五`.
    fn move_to(&self, py: Python<'_>, r#move: &str, notation: &str) -> PyResult<String> {
        let n = crate::names::notation(notation)?;
        let m = self.parse_move(py, r#move)?;
        n.write(&self.pos, m).map_err(value_error)
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.pos.is_checkmate()
    }

    /// Whether the side to move has no move and is not in check (it loses).
    fn is_stalemate(&self) -> bool {
        self.pos.is_stalemate()
    }

    /// Whether this position has stood `count` times (3 by default) since
    /// the position the `Position` was made from.
    #[pyo3(signature = (count = 3))]
    fn is_repetition(&self, count: usize) -> bool {
        let Some((first, _)) = self.stack.first() else { return count <= 1 };
        let mut history = History::with_capacity(first, self.stack.len());
        for (i, (before, _)) in self.stack.iter().enumerate().skip(1) {
            history.push(before, self.stack[i - 1].1);
        }
        let last = self.stack.last().expect("a move played").1;
        history.push(&self.pos, last);
        history.repetition_of(count).is_some()
    }

    /// How the game ends here: `None` while it goes on, else a dict with
    /// `termination` (`"checkmate"` or `"stalemate"`; in Xiangqi the
    /// stalemated side loses too) and `winner` (`"red"` or `"black"`).
    fn outcome<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyDict>> {
        self.pos.outcome().map(|o| {
            let termination = match o {
                Outcome::Checkmate { .. } => "checkmate",
                Outcome::Stalemate { .. } => "stalemate",
            };
            kwargs!(py, "termination" => termination, "winner" => side(o.winner()))
        })
    }

    /// The piece on `square` (`"e0"`): a FEN letter (`K` a Red king, `k`
    /// a Black one), or `None` when the point is empty.
    fn piece_at(&self, square: &str) -> PyResult<Option<String>> {
        let sq: qipu::Square = square.parse().map_err(|_| {
            pyo3::exceptions::PyValueError::new_err(format!(
                "{square:?}: a square is a file a-i and a rank 0-9"
            ))
        })?;
        Ok(self.pos.board().piece_at(sq).map(|p| p.char().to_string()))
    }

    /// A copy, with its move stack.
    fn copy(&self) -> Position {
        self.clone()
    }

    fn __copy__(&self) -> Position {
        self.clone()
    }

    fn __eq__(&self, other: &Position) -> bool {
        self.pos == other.pos
    }

    fn __hash__(&self) -> u64 {
        self.pos.hash()
    }

    fn __str__(&self) -> String {
        self.pos.fen()
    }

    fn __repr__(&self) -> String {
        format!("Position({:?})", self.pos.fen())
    }

    /// The board as a standalone SVG drawing (qipu's diagram): `size`
    /// pixels wide, seen from Black's side when `flip`; the last move of
    /// `move_stack`, when one was played, marked.
    #[pyo3(signature = (size = 450, flip = false))]
    fn svg(&self, size: u32, flip: bool) -> String {
        drawing(&self.pos, self.stack.last().map(|(_, m)| *m), size, flip)
    }

    /// The drawing notebooks (Jupyter, IPython) show: [`Position::svg`] at
    /// its default size.
    fn _repr_svg_(&self) -> String {
        self.svg(450, false)
    }
}

/// The SVG diagram of `pos`, `last` marked, `size` pixels wide (at least
/// 1), flipped or not.
pub fn drawing(pos: &qipu::Position, last: Option<Move>, size: u32, flip: bool) -> String {
    let style = qipu::diagram::svg::SvgStyle { size: size.max(1), flip };
    qipu::diagram::svg::svg(pos, last, &style)
}

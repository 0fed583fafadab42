//! `qipu.Node`: a node of a game's move tree (the start, or a move with
//! its comments and the moves played after it), to walk the tree and
//! change it as python-chess's `GameNode` does.
//!
//! A node is its game and the node's id: it reads the game each time, so
//! it always tells of the game as it is. A change goes through
//! [`Game::change`], which checks the game again.

use std::hash::{Hash, Hasher};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use qipu::record::{MoveText, NodeId, Record, RecordedMove, Span};
use qipu::{Move, Position};

use crate::game::Game;
use crate::names::value_error;

/// A node of a game's move tree.
#[pyclass(module = "qipu", frozen)]
pub struct Node {
    game: Py<Game>,
    id: NodeId,
}

impl Node {
    /// Node `id` of `game`.
    pub fn new(game: Py<Game>, id: NodeId) -> Node {
        Node { game, id }
    }

    /// Another node of the same game.
    fn at(&self, py: Python<'_>, id: NodeId) -> Node {
        Node::new(self.game.clone_ref(py), id)
    }

    /// `read` of the game's record, when the node is still in its tree.
    fn read<R>(&self, py: Python<'_>, read: impl FnOnce(&Record) -> PyResult<R>) -> PyResult<R> {
        let game = self.game.bind(py).try_borrow()?;
        let record = game.record();
        if !record.tree().contains(self.id) {
            return Err(PyValueError::new_err("the node was removed from its game"));
        }
        read(record)
    }

    /// Changes the game's record with `change` (see [`Game::change`]).
    fn change<R>(&self, py: Python<'_>, change: impl FnOnce(&mut Record, NodeId) -> R) -> PyResult<R> {
        let mut game = self.game.bind(py).try_borrow_mut()?;
        if !game.record().tree().contains(self.id) {
            return Err(PyValueError::new_err("the node was removed from its game"));
        }
        let id = self.id;
        game.change(|record| change(record, id))
    }

    /// The node's children, main continuation first.
    fn children(&self, py: Python<'_>) -> PyResult<Vec<NodeId>> {
        self.read(py, |record| Ok(record.tree().children(self.id).collect()))
    }

    /// The node's move as replayed, `None` for the root or a move that did
    /// not replay.
    fn resolved(&self, py: Python<'_>) -> PyResult<Option<Move>> {
        self.read(py, |record| Ok(record.replayed().resolution.move_of(self.id)))
    }

    /// Adds `text` (a move in any notation) after this node, or finds it
    /// there already; `main` makes it the main continuation.
    fn add(&self, py: Python<'_>, text: &str, main: bool) -> PyResult<Node> {
        let (m, found, first) = self.read(py, |record| {
            let position = position_after(record, self.id)?;
            let m = position.parse_move(py, text)?;
            let resolution = &record.replayed().resolution;
            let tree = record.tree();
            let found = tree.children(self.id).find(|&c| resolution.move_of(c) == Some(m));
            Ok((m, found, tree.main_child(self.id)))
        })?;
        let child = match found {
            Some(child) if !main || first == Some(child) => child,
            Some(child) => {
                self.change(py, |record, _| record.tree_mut().promote_to_main(child))?;
                child
            }
            None => self.change(py, |record, id| {
                let tree = record.tree_mut();
                let child =
                    tree.add_child(id, RecordedMove { text: MoveText::Coords(m), at: Span::default() });
                if main {
                    tree.promote_to_main(child);
                }
                child
            })?,
        };
        Ok(self.at(py, child))
    }
}

/// The moves from the start to node `id`, with the start position; `None`
/// when the start is no legal position or a move on the way did not
/// replay.
fn line_to(record: &Record, id: NodeId) -> Option<(Position, Vec<Move>)> {
    let tree = record.tree();
    let resolution = &record.replayed().resolution;
    let start = resolution.start.clone()?;
    let mut moves = Vec::new();
    let mut at = id;
    while at != tree.root() {
        moves.push(resolution.move_of(at)?);
        at = tree.node(at).parent?;
    }
    moves.reverse();
    Some((start, moves))
}

/// The position after node `id`'s move, with the moves that lead to it;
/// else a `ValueError`.
fn position_after(record: &Record, id: NodeId) -> PyResult<crate::position::Position> {
    let (start, moves) = line_to(record, id).ok_or_else(|| {
        PyValueError::new_err(
            "the position of this node is not known: the start position, or a move on the way to it, is not legal",
        )
    })?;
    Ok(crate::position::Position::played(start, &moves))
}

#[pymethods]
impl Node {
    /// The game the node belongs to.
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<Game> {
        self.game.clone_ref(py)
    }

    /// The move that leads here in coordinates (`h2e2`, as
    /// `Position.push` gives it); `None` for the root, and for a move that
    /// did not replay (see `written`).
    #[getter(r#move)]
    fn mv(&self, py: Python<'_>) -> PyResult<Option<String>> {
        Ok(self.resolved(py)?.map(|m| m.to_string()))
    }

    /// The move as the record holds it (as read, or in coordinates for a
    /// move added in Python); `None` for the root.
    #[getter]
    fn written(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.read(py, |record| {
            Ok(record.tree().node(self.id).mv.as_ref().map(|mv| match &mv.text {
                MoveText::Text(word) => word.to_string(),
                MoveText::Coords(m) => m.to_string(),
            }))
        })
    }

    /// The move in `notation` (`iccs`, `uci`, `chinese`,
    /// `chinese-traditional`, `wxf`); `None` for the root. Raises
    /// `ValueError` for a move that did not replay.
    fn move_as(&self, py: Python<'_>, notation: &str) -> PyResult<Option<String>> {
        let n = crate::names::notation(notation)?;
        self.read(py, |record| {
            let Some(parent) = record.tree().node(self.id).parent else { return Ok(None) };
            let before = position_after(record, parent)?;
            let m = record.replayed().resolution.move_of(self.id).ok_or_else(|| {
                PyValueError::new_err("the move of this node is not legal: it has no notation")
            })?;
            n.write(before.inner(), m).map(Some).map_err(value_error)
        })
    }

    /// How many moves lead here from the start (0 for the root).
    #[getter]
    fn ply(&self, py: Python<'_>) -> PyResult<usize> {
        self.read(py, |record| {
            let tree = record.tree();
            Ok(std::iter::successors(tree.node(self.id).parent, |&p| tree.node(p).parent).count())
        })
    }

    /// The node this move is played from; `None` for the root.
    #[getter]
    fn parent(&self, py: Python<'_>) -> PyResult<Option<Node>> {
        let parent = self.read(py, |record| Ok(record.tree().node(self.id).parent))?;
        Ok(parent.map(|p| self.at(py, p)))
    }

    /// The moves played from here, main continuation first.
    #[getter]
    fn variations(&self, py: Python<'_>) -> PyResult<Vec<Node>> {
        Ok(self.children(py)?.into_iter().map(|c| self.at(py, c)).collect())
    }

    /// The main continuation, or `None` at the end of a line.
    fn next(&self, py: Python<'_>) -> PyResult<Option<Node>> {
        Ok(self.children(py)?.first().map(|&c| self.at(py, c)))
    }

    /// The last node of the line that goes on from here by main
    /// continuations (this node when none follows).
    fn end(&self, py: Python<'_>) -> PyResult<Node> {
        let last = self.read(py, |record| {
            let tree = record.tree();
            Ok(std::iter::successors(Some(self.id), |&n| tree.main_child(n)).last().unwrap_or(self.id))
        })?;
        Ok(self.at(py, last))
    }

    /// Whether no move is played from here.
    fn is_end(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.children(py)?.is_empty())
    }

    /// Whether the node is on the game's main line (the root is).
    fn is_main_line(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |record| {
            let tree = record.tree();
            let mut at = self.id;
            while let Some(parent) = tree.node(at).parent {
                if tree.main_child(parent) != Some(at) {
                    return Ok(false);
                }
                at = parent;
            }
            Ok(true)
        })
    }

    /// Whether the node is its parent's main continuation (the root is).
    fn is_main_variation(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |record| {
            let tree = record.tree();
            Ok(tree.node(self.id).parent.is_none_or(|p| tree.main_child(p) == Some(self.id)))
        })
    }

    /// The comment after the move (on the root: the comment about the game,
    /// before the first move), or `None`.
    #[getter]
    fn comment(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.read(py, |record| Ok(record.tree().node(self.id).comment().map(str::to_string)))
    }

    /// Sets the comment after the move; `None` or `""` takes it away.
    #[setter]
    fn set_comment(&self, py: Python<'_>, comment: Option<String>) -> PyResult<()> {
        self.change(py, |record, id| record.tree_mut().set_comment(id, comment.as_deref()))
    }

    /// The comment written before the move (at the start of a variation),
    /// or `None`.
    #[getter]
    fn comment_before(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.read(py, |record| Ok(record.tree().node(self.id).comment_before().map(str::to_string)))
    }

    /// The move's annotation glyphs (`$1` …; `!` is 1, `?` 2, `!!` 3, `??`
    /// 4, `!?` 5, `?!` 6).
    #[getter]
    fn nags(&self, py: Python<'_>) -> PyResult<Vec<u8>> {
        self.read(py, |record| Ok(record.tree().node(self.id).nags().to_vec()))
    }

    /// Sets the move's annotation glyphs.
    #[setter]
    fn set_nags(&self, py: Python<'_>, nags: Option<Vec<u8>>) -> PyResult<()> {
        self.change(py, |record, id| {
            record.tree_mut().node_mut(id).notes_mut().nags = nags.unwrap_or_default()
        })
    }

    /// The position after the move (the start position at the root), as a
    /// `Position` whose move stack holds the moves from the start. Raises
    /// `ValueError` when it is not known (a move on the way did not
    /// replay).
    #[getter]
    fn position(&self, py: Python<'_>) -> PyResult<crate::position::Position> {
        self.read(py, |record| position_after(record, self.id))
    }

    /// The FEN of the position after the move.
    fn fen(&self, py: Python<'_>) -> PyResult<String> {
        self.read(py, |record| Ok(position_after(record, self.id)?.inner().fen()))
    }

    /// Plays `move` (any notation: `h2e2`, `H2-E2`, `C2.5`, `炮二平五`) from
    /// here as the last alternative, and returns its node; a move played
    /// from here already is not added again (its node is returned). Raises
    /// `IllegalMoveError`, `AmbiguousMoveError` or `InvalidMoveError`, the
    /// game unchanged.
    fn add_variation(&self, py: Python<'_>, r#move: &str) -> PyResult<Node> {
        self.add(py, r#move, false)
    }

    /// As `add_variation`, the move made the main continuation.
    fn add_main_variation(&self, py: Python<'_>, r#move: &str) -> PyResult<Node> {
        self.add(py, r#move, true)
    }

    /// Makes this move its parent's main continuation.
    fn promote_to_main(&self, py: Python<'_>) -> PyResult<()> {
        self.change(py, |record, id| {
            record.tree_mut().promote_to_main(id);
        })
    }

    /// Moves this move one place up among its parent's continuations.
    fn promote(&self, py: Python<'_>) -> PyResult<()> {
        self.change(py, |record, id| {
            record.tree_mut().promote(id);
        })
    }

    /// Moves this move one place down among its parent's continuations.
    fn demote(&self, py: Python<'_>) -> PyResult<()> {
        self.change(py, |record, id| {
            record.tree_mut().demote(id);
        })
    }

    /// Takes this move, and every move after it, out of the game. Raises
    /// `ValueError` for the root.
    fn remove(&self, py: Python<'_>) -> PyResult<()> {
        if self.read(py, |record| Ok(record.tree().root() == self.id))? {
            return Err(PyValueError::new_err("the root cannot be removed"));
        }
        self.change(py, |record, id| {
            record.tree_mut().remove(id);
        })
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Node>().is_ok_and(|o| {
            let o = o.get();
            o.game.as_ptr() == self.game.as_ptr() && o.id == self.id
        })
    }

    fn __hash__(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.game.as_ptr() as usize, self.id).hash(&mut h);
        h.finish()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match (self.ply(py), self.written(py)) {
            (Ok(ply), Ok(Some(mv))) => format!("<Node ply {ply} {mv}>"),
            (Ok(_), Ok(None)) => "<Node root>".to_string(),
            _ => "<Node removed>".to_string(),
        }
    }
}

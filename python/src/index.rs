//! A position index from Python: `qipu.build_index` makes or updates one
//! (what `qipu index build` does), `qipu.Index` opens one for questions
//! (`qipu search`, `qipu explore`). Builds and scans release the GIL.

use std::io;
use std::path::{Path, PathBuf};

use pyo3::exceptions::{
    PyFileExistsError, PyFileNotFoundError, PyOSError, PyPermissionError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use qipu::batch::Input;
use qipu::index::{BuildSummary, Builder, GameInfo, Hit, IndexOptions, Pieces, Plan, Scan, Tally};
use qipu::select::{Imbalance, MaterialPattern, PassEvent};
use qipu::{Color, Move};

use crate::batch::Run;
use crate::errors::raise;
use crate::kwargs;

/// An error of the index `path` as the `OSError` Python raises for its
/// kind (a wrong use, such as another `merge_mirrors` than the index was
/// made with, as `ValueError`), named with the path.
fn os_error(path: &Path, e: io::Error) -> PyErr {
    let text = e.to_string();
    let shown = path.display().to_string();
    let message = if text.starts_with(&shown) { text } else { format!("{shown}: {text}") };
    match e.kind() {
        io::ErrorKind::InvalidInput => PyValueError::new_err(message),
        io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        io::ErrorKind::AlreadyExists => PyFileExistsError::new_err(message),
        io::ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// Makes a position index of the selected games of `paths` in the folder
/// `out` (`NAME.qidx`), or brings it up to date, as `qipu index build`
/// does; returns the build's counts.
#[pyfunction]
#[pyo3(signature = (paths, out, *, merge_mirrors = false, all_lines = false, jobs = None, encoding = None, **select))]
#[allow(clippy::too_many_arguments)]
pub fn build_index<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    out: PathBuf,
    merge_mirrors: bool,
    all_lines: bool,
    jobs: Option<usize>,
    encoding: Option<&str>,
    select: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let Run { inputs, batch, chooser } = Run::new(paths, jobs, encoding, select)?;
    if let Some(input) =
        inputs.iter().find(|i| matches!(i, Input::Bytes { .. } | Input::Stdin | Input::KeptStdin { .. }))
    {
        return Err(PyTypeError::new_err(format!(
            "build_index reads files (paths): {} is none",
            input.json_name().0
        )));
    }
    let mut chooser = chooser.into_inner();
    let dir = out.clone();
    let built = py.detach(move || -> io::Result<BuildSummary> {
        let options = IndexOptions { mirror: merge_mirrors, all_lines };
        let mut builder = Builder::open_with(&dir, options)?;
        // Inputs the index holds as they are now are not read.
        let mut read = Vec::new();
        for input in inputs {
            let plan = match input.path() {
                Some(path) => builder.plan(&input.json_name().0, path),
                None => Ok(Plan::Read),
            };
            // An input that cannot be opened is told by the pass.
            if !matches!(plan, Ok(Plan::Unchanged)) {
                read.push(input);
            }
        }
        let selection = chooser.selection().clone();
        let follower = builder.follower();
        chooser.pass(
            &batch,
            &read,
            || selection.checker_keeping_all(follower.clone()),
            |meta, event| {
                builder.start_source(&meta.json_source, None)?;
                if let PassEvent::Game { index, game, selected: true } = event {
                    builder.add(index, &game)?;
                }
                Ok::<(), io::Error>(())
            },
        )?;
        builder.finish()
    });
    let summary = built.map_err(|e| os_error(&out, e))?;
    let dict = PyDict::new(py);
    dict.set_item("games", summary.games)?;
    dict.set_item("positions", summary.positions)?;
    dict.set_item("without_positions", summary.without_positions)?;
    dict.set_item("inputs_read", summary.inputs_read)?;
    dict.set_item("inputs_unchanged", summary.inputs_unchanged)?;
    dict.set_item("inputs_replaced", summary.inputs_replaced)?;
    dict.set_item("total_games", summary.total_games)?;
    dict.set_item("total_positions", summary.total_positions)?;
    dict.set_item("variations", summary.variations)?;
    dict.set_item("variation_positions", summary.variation_positions)?;
    dict.set_item("variations_left_out", summary.variations_left_out)?;
    dict.set_item("total_variations", summary.total_variations)?;
    Ok(dict)
}

/// A position index (a folder `NAME.qidx` made by `build_index` or `qipu
/// index build`) open for questions.
#[pyclass(module = "qipu", frozen)]
pub struct Index {
    inner: qipu::index::Index,
}

/// What a hit is told as: the game's record, the ply, the move played
/// next, and its tags when asked.
struct Row {
    game: GameInfo,
    ply: u32,
    next: Option<String>,
    tags: Option<Vec<(String, String)>>,
}

/// The rows of `hits` (the moves of a game read once for its hits in a
/// row; its tags when `tags`).
fn rows(index: &qipu::index::Index, hits: &[Hit], tags: bool) -> io::Result<Vec<Row>> {
    let mut rows = Vec::with_capacity(hits.len());
    let mut moves: Option<((usize, usize, u32), Vec<Move>)> = None;
    for hit in hits {
        let of = (hit.segment, hit.game, hit.line);
        if moves.as_ref().is_none_or(|(game, _)| *game != of) {
            moves = Some((of, index.moves(hit)?));
        }
        let next = moves.as_ref().and_then(|(_, m)| m.get(hit.ply as usize)).map(Move::to_string);
        rows.push(Row {
            game: index.game(hit),
            ply: hit.ply,
            next,
            tags: if tags { Some(index.tags(hit)?) } else { None },
        });
    }
    Ok(rows)
}

/// The hits' rows as a list of dicts (the objects `qipu search --format
/// json` writes, with `tags` only when asked).
fn hit_list<'py>(py: Python<'py>, rows: Vec<Row>, all_lines: bool) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    let mut source: Option<(String, Bound<'py, PyString>)> = None;
    for row in rows {
        // One string object for the hits of a source in a row.
        if source.as_ref().is_none_or(|(name, _)| *name != row.game.source) {
            let text = PyString::new(py, &row.game.source);
            source = Some((row.game.source.clone(), text));
        }
        let dict = PyDict::new(py);
        dict.set_item("source", &source.as_ref().expect("set").1)?;
        dict.set_item("index", row.game.index)?;
        dict.set_item("ply", row.ply)?;
        dict.set_item("next", row.next)?;
        dict.set_item("result", row.game.result.as_str())?;
        dict.set_item("valid", row.game.valid)?;
        dict.set_item("year", row.game.year)?;
        dict.set_item("red_elo", row.game.elo[0])?;
        dict.set_item("black_elo", row.game.elo[1])?;
        dict.set_item("termination", row.game.termination.map(|t| t.as_str()))?;
        if all_lines {
            dict.set_item("line", row.game.line)?;
        }
        if let Some(tags) = row.tags {
            let t = PyDict::new(py);
            for (name, value) in tags {
                t.set_item(name, value)?;
            }
            dict.set_item("tags", t)?;
        }
        list.append(dict)?;
    }
    Ok(list)
}

/// A side by name (`"red"` or `"black"`).
fn side_of(name: &str) -> PyResult<Color> {
    match name.to_ascii_lowercase().as_str() {
        "red" | "w" => Ok(Color::Red),
        "black" | "b" => Ok(Color::Black),
        _ => Err(PyValueError::new_err(format!("side={name:?}: expected \"red\" or \"black\""))),
    }
}

/// The moves of `sequence=`: one text (moves apart by spaces) or a list of
/// texts, each in coordinates (`h2e2`, `H2-E2`).
fn sequence_of(value: &Bound<'_, PyAny>) -> PyResult<Vec<Move>> {
    let words: Vec<String> = if let Ok(text) = value.extract::<String>() {
        text.split_whitespace().map(str::to_string).collect()
    } else {
        value
            .try_iter()
            .and_then(|items| items.map(|item| item?.extract::<String>()).collect())
            .map_err(|_| PyTypeError::new_err("sequence: expected a text or a list of texts"))?
    };
    words
        .iter()
        .map(|word| {
            word.replace('-', "").parse::<Move>().map_err(|_| {
                PyValueError::new_err(format!("sequence: {word:?} is not a move in coordinates (h2e2)"))
            })
        })
        .collect()
}

/// A tally as `qipu explore --format json` writes it.
fn tally_dict<'py>(py: Python<'py>, t: &Tally) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("games", t.games)?;
    dict.set_item("red_wins", t.red_wins)?;
    dict.set_item("draws", t.draws)?;
    dict.set_item("black_wins", t.black_wins)?;
    dict.set_item("red_score", t.red_score())?;
    dict.set_item("mean_year", t.mean_year())?;
    Ok(dict)
}

#[pymethods]
impl Index {
    /// Opens the index `path` (a folder `NAME.qidx`).
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Index> {
        let inner = py.detach(|| qipu::index::Index::open(&path)).map_err(|e| os_error(&path, e))?;
        Ok(Index { inner })
    }

    /// The folder of the index.
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.path().to_path_buf()
    }

    /// The games the index holds.
    #[getter]
    fn games(&self) -> u64 {
        self.inner.games()
    }

    /// The positions the index holds.
    #[getter]
    fn positions(&self) -> u64 {
        self.inner.positions()
    }

    /// Whether a position and its left–right mirror are kept together
    /// (the index was built with `merge_mirrors`).
    #[getter]
    fn mirror(&self) -> bool {
        self.inner.mirror()
    }

    /// The inputs the index holds, each as `(name, games)`.
    fn sources(&self) -> Vec<(String, u64)> {
        self.inner.sources().map(|(name, games)| (name.to_string(), games)).collect()
    }

    /// The positions of the games that reach the position of `fen`, every
    /// time they reach it: a FEN with its side to move, or without (then
    /// `side`, or either side); `startpos` is the standard start.
    #[pyo3(signature = (fen, *, side = None, mirror = false, tags = false))]
    fn find<'py>(
        &self,
        py: Python<'py>,
        fen: &str,
        side: Option<&str>,
        mirror: bool,
        tags: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let text = fen.trim();
        let (board, turn) = if text == "startpos" {
            (qipu::Position::start().board().clone(), Some(Color::Red))
        } else {
            let setup = qipu::Setup::from_fen(text).map_err(|e| {
                raise(py, "FenError", &format!("{text:?}: invalid FEN: {e}"), kwargs!(py, "fen" => text))
            })?;
            let side = side.map(side_of).transpose()?;
            (setup.board, text.split_whitespace().nth(1).map(|_| setup.turn).or(side))
        };
        let index = &self.inner;
        let found = py.detach(|| {
            let hits = index.find(&board, turn, mirror)?;
            rows(index, &hits, tags)
        });
        hit_list(py, found.map_err(|e| os_error(index.path(), e))?, index.all_lines())
    }

    /// The first position of each game where every criterion holds:
    /// `pieces` (pieces on points, `"C@e2 n@g7"`), `material` (`"RCP* vs
    /// RA"`), `imbalance` (what one side has more, kind by kind: `"R vs
    /// HC"`), `side` to move, `sequence` (moves played from there in a row,
    /// `"h2e2 h9g7"`); with `mirror`, their left–right mirror too. Every
    /// game is replayed, on `jobs` threads.
    #[pyo3(signature = (*, pieces = None, material = None, imbalance = None, side = None, sequence = None, mirror = false, jobs = None, tags = false))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &self,
        py: Python<'py>,
        pieces: Option<&str>,
        material: Option<&str>,
        imbalance: Option<&str>,
        side: Option<&str>,
        sequence: Option<&Bound<'py, PyAny>>,
        mirror: bool,
        jobs: Option<usize>,
        tags: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let pieces = pieces
            .map(|p| p.parse::<Pieces>().map_err(|e| PyValueError::new_err(format!("pieces={p:?}: {e}"))))
            .transpose()?;
        let material = material
            .map(|m| {
                m.parse::<MaterialPattern>()
                    .map_err(|e| PyValueError::new_err(format!("material={m:?}: {e}")))
            })
            .transpose()?;
        let imbalance = imbalance
            .map(|m| {
                m.parse::<Imbalance>().map_err(|e| PyValueError::new_err(format!("imbalance={m:?}: {e}")))
            })
            .transpose()?;
        let sequence = sequence.map(sequence_of).transpose()?.unwrap_or_default();
        if pieces.is_none() && material.is_none() && imbalance.is_none() && sequence.is_empty() {
            return Err(PyValueError::new_err(
                "search needs a question: pieces, material, imbalance or sequence",
            ));
        }
        let turn = side.map(side_of).transpose()?;
        let scan = Scan { pieces, material, imbalance, turn, sequence, mirror };
        let jobs = crate::names::jobs(jobs)?;
        let index = &self.inner;
        let found = py.detach(|| {
            let hits = index.scan(&scan, jobs)?;
            rows(index, &hits, tags)
        });
        hit_list(py, found.map_err(|e| os_error(index.path(), e))?, index.all_lines())
    }

    /// The moves played from the position of `fen` (`startpos`: the
    /// standard start) in the index's games: the object `qipu explore
    /// --format json` writes, moves written in `notation`.
    #[pyo3(signature = (fen = "startpos", *, mirror = false, notation = "iccs"))]
    fn explore<'py>(
        &self,
        py: Python<'py>,
        fen: &str,
        mirror: bool,
        notation: &str,
    ) -> PyResult<Bound<'py, PyDict>> {
        let notation = crate::names::notation(notation)?;
        let text = fen.trim();
        let pos = if text == "startpos" {
            qipu::Position::start()
        } else {
            qipu::Position::from_fen(text)
                .map_err(|e| raise(py, "FenError", &format!("{text:?}: {e}"), kwargs!(py, "fen" => text)))?
        };
        let index = &self.inner;
        let found = py.detach(|| {
            let explored = index.explore(pos.board(), pos.turn(), mirror)?;
            let mut best = Vec::with_capacity(explored.moves.len());
            for c in &explored.moves {
                best.push((index.game(&c.best), index.tags(&c.best)?));
            }
            Ok::<_, io::Error>((explored, best))
        });
        let (explored, best) = found.map_err(|e| os_error(index.path(), e))?;
        let moves = PyList::empty(py);
        for (c, (game, tags)) in explored.moves.iter().zip(best) {
            let tag = |n: &str| tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(n)).map(|(_, v)| v.clone());
            let value = tally_dict(py, &c.tally)?;
            value.set_item("move", notation.write(&pos, c.mv).unwrap_or_else(|_| c.mv.to_string()))?;
            value.set_item("iccs", c.mv.to_string())?;
            let b = PyDict::new(py);
            b.set_item("source", game.source)?;
            b.set_item("index", game.index)?;
            b.set_item("ply", c.best.ply)?;
            b.set_item("red", tag("Red"))?;
            b.set_item("black", tag("Black"))?;
            b.set_item("event", tag("Event"))?;
            b.set_item("date", tag("Date"))?;
            b.set_item("result", game.result.as_str())?;
            value.set_item("best", b)?;
            moves.append(value)?;
        }
        let value = tally_dict(py, &explored.total)?;
        value.set_item("fen", pos.fen())?;
        value.set_item("ended", explored.ended.games)?;
        value.set_item("moves", moves)?;
        Ok(value)
    }

    fn __repr__(&self) -> String {
        format!(
            "<qipu.Index {:?}: {} games, {} positions>",
            self.inner.path().display().to_string(),
            self.inner.games(),
            self.inner.positions()
        )
    }
}

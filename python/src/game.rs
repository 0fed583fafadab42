//! `qipu.Game`: one game as read, its replay, its report, and its moves
//! and positions in any notation, written in any format.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use qipu::analysis::ecco;
use qipu::batch::{Checked, Checker, ErrorReport, Meta, Report, Status};
use qipu::formats::{dhtmlxq, json, pgn, uci, xqf};
use qipu::record::{GameResult, MoveText, NodeId, Record};
use qipu::rules::judge::RuleSet;

use crate::errors::raise;
use crate::kwargs;
use crate::names::value_error;
use crate::tree::Node;

/// One game: its tags, moves, comments and variations as read, and what
/// its replay found. A game can be changed (its tags, result and move tree,
/// through its nodes: see [`crate::tree`]); each change checks it again.
///
/// Not frozen: a change borrows the game mutably, so pyo3's borrow flag
/// keeps readers and writers apart (a clash raises, it never races).
#[pyclass(module = "qipu")]
pub struct Game {
    record: Record,
    meta: Arc<Meta>,
    index: usize,
    /// The report `qipu validate` gives of it.
    report: Report,
    /// The rule book it is judged by, again after each change.
    rules: RuleSet,
}

impl Game {
    /// Game `index` of the input `meta` tells of, as checked (see
    /// [`check`]).
    pub fn new((record, checked): (Record, Checked), meta: Arc<Meta>, index: usize) -> Game {
        let report = Report::game(&meta, index, &checked);
        let rules = checked.replayed.rules;
        Game { record, meta, index, report, rules }
    }

    /// The one game an input that cannot be read counts as.
    pub fn unreadable(meta: Arc<Meta>, why: String) -> Game {
        let report = Report::input(&meta, why, Some(Status::Unreadable));
        Game { record: Record::default(), meta, index: 0, report, rules: RuleSet::default() }
    }

    /// The record, as read and changed since.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Changes the record with `change`, then checks it again, so that the
    /// report, the moves and every writer tell of the game as changed.
    /// Raises `ValueError` for a game that could not be read.
    pub fn change<R>(&mut self, change: impl FnOnce(&mut Record) -> R) -> PyResult<R> {
        if self.status() == Status::Unreadable || self.report.whole_input {
            return Err(PyValueError::new_err(format!(
                "{}: game {}: a game that could not be read cannot be changed",
                self.meta.source,
                self.index + 1
            )));
        }
        let out = change(&mut self.record);
        let (record, checked) = check_by(std::mem::take(&mut self.record), self.rules);
        self.report = Report::game(&self.meta, self.index, &checked);
        self.record = record;
        Ok(out)
    }

    /// The report of the game, as `qipu validate --format json` gives it.
    pub fn report(&self) -> &Report {
        &self.report
    }

    fn status(&self) -> Status {
        self.report().status.unwrap_or(Status::Unreadable)
    }

    /// The game's error as an exception, when it has one.
    fn exception(&self, py: Python<'_>) -> Option<PyErr> {
        let report = self.report();
        let e = report.error.as_ref()?;
        let class = match self.status() {
            Status::Valid => return None,
            Status::Illegal => "IllegalMoveError",
            Status::Unreadable => "UnreadableError",
        };
        let message = match &report.told {
            Some(told) => format!("{}: game {}: {told}", report.shown, self.index + 1),
            None if report.whole_input => format!("{}: {}", report.shown, e.message),
            None => format!("{}: game {}: {}", report.shown, self.index + 1, e.message),
        };
        Some(raise(py, class, &message, error_fields(py, e, &report.source, self.index)))
    }

    /// The position after the last main-line move that replays, and that
    /// move; `None` when the game has no legal position.
    fn final_position(&self) -> Option<(qipu::Position, Option<qipu::Move>)> {
        if self.status() == Status::Unreadable {
            return None;
        }
        let last = self.record.replayed().moves.last().copied();
        self.record.positions().last().map(|pos| (pos, last))
    }

    /// The nodes of the main line.
    fn main_line(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.record.tree().main_line()
    }
}

/// A record with its check: what `qipu validate` makes of it, from the
/// replay the record keeps (no second replay). Done where the record is
/// read (on the reading threads, not Python's).
///
/// Judged by `rules`: by other rules than the replay the record keeps (the
/// Asian), its events are checked again.
pub fn check_by(record: Record, rules: RuleSet) -> (Record, Checked) {
    let checked = if record.replayed().rules == rules {
        Checked::of_record(&record, &[], ())
    } else {
        record.visit(&mut Checker::default().rules(rules))
    };
    (record, checked)
}

/// The attributes of an error: where and why, with the game's place.
fn error_fields<'py>(py: Python<'py>, e: &ErrorReport, source: &str, index: usize) -> Bound<'py, PyDict> {
    kwargs!(py,
        "source" => source, "index" => index, "ply" => e.ply, "move" => e.mv.as_str(),
        "line" => e.line, "column" => e.column, "offset" => e.offset,
    )
}

/// The name a game made in Python goes by, for its source.
const MADE: &str = "<new>";

#[pymethods]
impl Game {
    /// An empty game: from `fen` (the standard start when `None`), with
    /// `tags` (a dict, in its order), judged by `rules`. Raises `FenError`
    /// for a FEN that is no position.
    #[new]
    #[pyo3(signature = (fen = None, tags = None, rules = "asian"))]
    fn create(
        py: Python<'_>,
        fen: Option<&str>,
        tags: Option<&Bound<'_, PyDict>>,
        rules: &str,
    ) -> PyResult<Game> {
        let rules = crate::names::rules(rules)?;
        let mut record = Record::default();
        for (name, value) in tags.into_iter().flat_map(|t| t.iter()) {
            record.set_tag(&name.extract::<String>()?, value.extract::<String>()?);
        }
        if let Some(text) = fen {
            qipu::Position::from_fen(text)
                .map_err(|e| raise(py, "FenError", &format!("{text:?}: {e}"), kwargs!(py, "fen" => text)))?;
            record.set_tag("FEN", text.trim());
        }
        let meta = Meta {
            source: MADE.to_string(),
            json_source: MADE.to_string(),
            source_escaped: false,
            format: "none",
            encoding: None,
        };
        Ok(Game::new(check_by(record, rules), Arc::new(meta), 0))
    }

    /// The start of the move tree: a `Node` with no move.
    #[getter]
    fn root(slf: &Bound<'_, Self>) -> PyResult<Node> {
        let root = slf.try_borrow()?.record.tree().root();
        Ok(Node::new(slf.clone().unbind(), root))
    }

    /// The nodes of the main line, the first move's first (the root left
    /// out).
    fn mainline(slf: &Bound<'_, Self>) -> PyResult<Vec<Node>> {
        let ids: Vec<NodeId> = slf.try_borrow()?.main_line().collect();
        Ok(ids.into_iter().map(|id| Node::new(slf.clone().unbind(), id)).collect())
    }

    /// The last node of the main line (the root when it has no move).
    fn end(slf: &Bound<'_, Self>) -> PyResult<Node> {
        let game = slf.try_borrow()?;
        let last = game.main_line().last().unwrap_or(game.record.tree().root());
        drop(game);
        Ok(Node::new(slf.clone().unbind(), last))
    }

    /// Sets tag `name` (any case: a tag of that name is replaced, else one
    /// is added) to `value`; `None` takes the tag away. Setting `FEN`
    /// changes the start position (the moves are replayed from it).
    #[pyo3(signature = (name, value))]
    fn set_tag(&mut self, name: &str, value: Option<String>) -> PyResult<()> {
        self.change(|record| match value {
            Some(value) => record.set_tag(name, value),
            None => record.retain_tags(|n, _| !n.eq_ignore_ascii_case(name)),
        })
    }
    /// The file the game was read from (`"<bytes>"` for bytes): its name
    /// exact when it is UTF-8, as JSON reports give it.
    #[getter]
    #[allow(clippy::misnamed_getters)]
    fn source(&self) -> &str {
        &self.meta.json_source
    }

    /// The game's number in its file, from 0.
    #[getter]
    fn index(&self) -> usize {
        self.index
    }

    /// The file's format: `pgn`, `xqf`, `dhtmlxq`, `cbr`, …; `none` for a
    /// game made with `Game()`.
    #[getter]
    fn format(&self) -> &'static str {
        self.meta.format
    }

    /// The file's text encoding (`utf-8`, `gbk`, `big5`, …), for text
    /// formats.
    #[getter]
    fn encoding(&self) -> Option<&'static str> {
        self.meta.encoding
    }

    /// The tags, in the order read (the first of two with one name).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let tags = PyDict::new(py);
        for (name, value) in self.record.tags() {
            if !tags.contains(name)? {
                tags.set_item(name, value)?;
            }
        }
        Ok(tags)
    }

    /// The value of tag `name` (any case), or `default`.
    #[pyo3(signature = (name, default = None))]
    fn tag(&self, name: &str, default: Option<String>) -> Option<String> {
        self.record.tag(name).map(str::to_string).or(default)
    }

    /// The start position's FEN: the position the game replays from, else
    /// the FEN as written (when it is no legal position), else `None`.
    #[getter]
    fn start_fen(&self) -> Option<String> {
        if self.report().whole_input {
            return None;
        }
        let resolution = &self.record.replayed().resolution;
        match (&resolution.start, &resolution.setup) {
            (Some(start), _) => Some(start.fen()),
            (None, Some(setup)) => {
                let mut fen = String::new();
                qipu::fen::write_fen(&setup.board, setup.turn, setup.halfmoves, setup.fullmoves, &mut fen);
                Some(fen)
            }
            (None, None) => self.record.fen().map(str::to_string),
        }
    }

    /// The result the game states (`1-0`, `0-1`, `1/2-1/2`, `*`), or `None`.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.record.result().map(|r| r.as_str())
    }

    /// Sets the result (`1-0`, `0-1`, `1/2-1/2`, `*`; `None`: none stated),
    /// after the moves and in the `Result` tag.
    #[setter]
    fn set_result(&mut self, result: Option<String>) -> PyResult<()> {
        let result = match result.as_deref() {
            None => None,
            Some(text) => Some(GameResult::parse(text).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "result {text:?}: expected \"1-0\", \"0-1\", \"1/2-1/2\" or \"*\""
                ))
            })?),
        };
        self.change(|record| {
            record.set_written_result(result);
            match result {
                Some(r) => record.set_tag("Result", r.as_str()),
                None => record.retain_tags(|n, _| !n.eq_ignore_ascii_case("Result")),
            }
        })
    }

    /// `"valid"`, `"illegal"` (a move or the start position is no legal
    /// one) or `"unreadable"`.
    #[getter(status)]
    fn status_name(&self) -> &'static str {
        match self.status() {
            Status::Valid => "valid",
            Status::Illegal => "illegal",
            Status::Unreadable => "unreadable",
        }
    }

    /// Where and why the game is wrong (`GameError`), or `None`.
    #[getter]
    fn error(&self) -> Option<GameError> {
        let report = self.report();
        report.error.clone().map(|e| GameError { e, source: report.source.clone(), index: self.index })
    }

    /// Raises the game's error (`IllegalMoveError`, `UnreadableError`),
    /// if it has one.
    fn check(&self, py: Python<'_>) -> PyResult<()> {
        self.exception(py).map_or(Ok(()), Err)
    }

    /// Main-line plies that replay.
    #[getter]
    fn plies(&self) -> usize {
        self.report().plies
    }

    /// Variation plies that replay.
    #[getter]
    fn variation_plies(&self) -> usize {
        self.report().variation_plies
    }

    /// How the main line ends by its final position and the repetition it
    /// ends in (`checkmate`, `stalemate`, `move-limit`, `repetition`,
    /// `perpetual-check`, `perpetual-chase`, `check-chase`,
    /// `perpetual-mate-threat`, `mate-threat-mixed`, `dead-draw`), or
    /// `None`.
    #[getter]
    fn termination(&self) -> Option<&'static str> {
        self.report().termination
    }

    /// The rule book the game was judged by: `asian` or `chinese`.
    #[getter]
    fn rules(&self) -> Option<&'static str> {
        self.report().rules
    }

    /// Every repetition of the main line, ruled, in order: dicts with the
    /// keys of `qipu validate --format json`'s `rulings`.
    #[getter]
    fn rulings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for r in &self.report().rulings {
            list.append(crate::batch::ruling_dict(py, r)?)?;
        }
        Ok(list)
    }

    /// The ruling the game ends in (a dict as in `rulings`), or `None`.
    #[getter]
    fn ruling<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let report = self.report();
        report.final_ruling.map(|k| crate::batch::ruling_dict(py, &report.rulings[k])).transpose()
    }

    /// The problems the reader and the replay worked around, in words.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.report().warnings.clone()
    }

    /// The report `qipu validate --format json` gives of the game, as a
    /// dict.
    fn report_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(crate::batch::report_dict(py, self.report())?.into_any())
    }

    /// The main-line moves that replay, in `notation` (`iccs` by default:
    /// `H2-E2`; or `uci`, `chinese`, `chinese-traditional`, `wxf`).
    #[pyo3(signature = (notation = "iccs"))]
    fn moves(&self, notation: &str) -> PyResult<Vec<String>> {
        let n = crate::names::notation(notation)?;
        self.record.plies().map(|ply| n.write(&ply.before, ply.mv).map_err(value_error)).collect()
    }

    /// The main-line moves as written in the record (those after a wrong
    /// one too).
    fn moves_as_written(&self) -> Vec<String> {
        self.main_line().map(|id| written(&self.record, id)).collect()
    }

    /// The FEN of the start position and of the position after each
    /// main-line move that replays.
    fn fens(&self) -> Vec<String> {
        self.record.positions().map(|p| p.fen()).collect()
    }

    /// The variations, each a dict: `ply` (of its first move), `depth` (1
    /// for a variation of the main line, 2 for one of a variation, …),
    /// `moves` (as written) and `uci` (each move in UCI coordinates, or
    /// `None` from the first that does not replay).
    #[getter]
    fn variations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let tree = self.record.tree();
        let resolution = &self.record.replayed().resolution;
        let list = PyList::empty(py);
        // (node, ply of its move, depth); the main line first.
        let mut stack = vec![(tree.root(), 0usize, 0usize)];
        while let Some((id, ply, depth)) = stack.pop() {
            // The line from `id` on, through main children; each other child
            // starts a variation, walked after.
            let mut node = Some(id);
            let mut line = Vec::new();
            let (mut p, mut first) = (ply, true);
            while let Some(n) = node {
                if !first || n != tree.root() {
                    line.push(n);
                }
                first = false;
                let mut children = tree.children(n);
                node = children.next();
                let alternatives: Vec<NodeId> = children.collect();
                for alt in alternatives.into_iter().rev() {
                    stack.push((alt, p + 1, depth + 1));
                }
                p += 1;
            }
            if depth == 0 {
                continue;
            }
            let moves: Vec<String> = line.iter().map(|&n| written(&self.record, n)).collect();
            let points: Vec<Option<String>> =
                line.iter().map(|&n| resolution.move_of(n).map(|m| m.to_string())).collect();
            list.append(kwargs!(py, "ply" => ply, "depth" => depth, "moves" => moves, "uci" => points))?;
        }
        Ok(list)
    }

    /// The comments, each a dict: `ply` (of the move it follows; 0
    /// before the first), `in_variation` and `text`.
    #[getter]
    fn comments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let tree = self.record.tree();
        let list = PyList::empty(py);
        let mut stack = vec![(tree.root(), 0usize, false)];
        while let Some((id, ply, in_variation)) = stack.pop() {
            if let Some(text) = tree.node(id).merged_comment() {
                list.append(kwargs!(py, "ply" => ply, "in_variation" => in_variation, "text" => text))?;
            }
            let children: Vec<NodeId> = tree.children(id).collect();
            for (k, &child) in children.iter().enumerate().rev() {
                stack.push((child, ply + 1, in_variation || k > 0));
            }
        }
        Ok(list)
    }

    /// The engine evaluation of each main-line move as written (one per
    /// move of `moves_as_written()`): `None`, or the evaluation its
    /// comment holds as a dict from Red's side, `{"cp": 38, "depth": 19}`
    /// or `{"mate": -3}` (no `depth` key when the depth is not given).
    #[getter]
    fn evaluations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for id in self.main_line() {
            let Some(eval) = self.record.tree().node(id).evaluation() else {
                list.append(py.None())?;
                continue;
            };
            // The fields of the JSON object qipu writes for it.
            let dict = PyDict::new(py);
            for (key, value) in eval.json_fields() {
                dict.set_item(key, value)?;
            }
            list.append(dict)?;
        }
        Ok(list)
    }

    /// The ECCO opening of a game from the standard start, by its moves: a
    /// dict of `code`, `name`, `opening`, `variation`; else `None`.
    #[getter]
    fn ecco<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyDict>> {
        let e = ecco::classify_record(&self.record)?;
        Some(
            kwargs!(py, "code" => e.code, "name" => e.name, "opening" => e.opening, "variation" => e.variation),
        )
    }

    /// The game as PGN, moves in `notation` (`chinese` by default).
    #[pyo3(signature = (notation = "chinese"))]
    fn to_pgn(&self, notation: &str) -> PyResult<String> {
        Ok(pgn::write(&self.record, crate::names::notation(notation)?))
    }

    /// The game as one line of qipu's JSON.
    fn to_json(&self) -> String {
        json::write(&self.record)
    }

    /// The game as a DhtmlXQ block.
    fn to_dhtmlxq(&self) -> PyResult<String> {
        dhtmlxq::write(&self.record).map_err(value_error)
    }

    /// The game as the bytes of an XQF file, version 10 (or 18).
    #[pyo3(signature = (version = 10))]
    fn to_xqf<'py>(&self, py: Python<'py>, version: u8) -> PyResult<Bound<'py, PyBytes>> {
        let version = match version {
            10 => xqf::Version::V10,
            18 => xqf::Version::V18,
            _ => return Err(PyValueError::new_err("XQF version 10 or 18")),
        };
        let bytes = xqf::write(&self.record, version).map_err(value_error)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Writes the game to the file `path` as `format`: `pgn` (UTF-8, moves
    /// in `notation`), `xqf` (version 10), `json` (one line) or `dhtmlxq`;
    /// by default the one the path's extension names (`.pgn`, `.xqf`,
    /// `.json`, `.dhtml`).
    #[pyo3(signature = (path, format = None, notation = "chinese"))]
    fn write(&self, path: std::path::PathBuf, format: Option<&str>, notation: &str) -> PyResult<()> {
        let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        let format = format.map(str::to_ascii_lowercase).or(extension).unwrap_or_default();
        let bytes = match format.as_str() {
            "pgn" => self.to_pgn(notation)?.into_bytes(),
            "xqf" => xqf::write(&self.record, xqf::Version::V10).map_err(value_error)?,
            "json" => format!("{}\n", self.to_json()).into_bytes(),
            "dhtml" | "dhtmlxq" => format!("{}\n", self.to_dhtmlxq()?).into_bytes(),
            other => {
                return Err(PyValueError::new_err(format!(
                    "format {other:?}: expected \"pgn\", \"xqf\", \"json\" or \"dhtmlxq\""
                )));
            }
        };
        Ok(std::fs::write(&path, bytes)?)
    }

    /// The main line as a UCI position line (`position startpos moves …`).
    fn to_uci(&self) -> PyResult<String> {
        uci::write(&self.record).map_err(value_error)
    }

    /// The game's final position (after the last main-line move that
    /// replays), as `Position.svg` draws it, the last move marked. Raises
    /// `ValueError` for a game with no legal position to draw (unreadable,
    /// or a start that is no legal position).
    #[pyo3(signature = (size = 450, flip = false))]
    fn svg(&self, size: u32, flip: bool) -> PyResult<String> {
        let (pos, last) = self.final_position().ok_or_else(|| {
            PyValueError::new_err(format!(
                "{}: game {}: no legal position to draw",
                self.meta.source,
                self.index + 1
            ))
        })?;
        Ok(crate::position::drawing(&pos, last, size, flip))
    }

    /// The drawing notebooks show: the final position (see [`Game::svg`]);
    /// `None` (no drawing) for a game with no legal position.
    fn _repr_svg_(&self) -> Option<String> {
        let (pos, last) = self.final_position()?;
        Some(crate::position::drawing(&pos, last, 450, false))
    }

    fn __repr__(&self) -> String {
        let name = |tag| self.record.tag(tag).unwrap_or("?").to_string();
        format!(
            "<Game {} #{} {} vs {} {} plies, {}>",
            self.meta.source,
            self.index,
            name("Red"),
            name("Black"),
            self.plies(),
            self.status_name()
        )
    }
}

/// The move of node `id` as written.
fn written(record: &Record, id: NodeId) -> String {
    match record.tree().node(id).mv.as_ref().map(|m| &m.text) {
        Some(MoveText::Text(word)) => word.to_string(),
        Some(MoveText::Coords(m)) => m.to_string(),
        None => String::new(),
    }
}

/// Where and why a game is wrong: the fields of the CLI's reports.
#[pyclass(module = "qipu", frozen)]
pub struct GameError {
    e: ErrorReport,
    source: String,
    index: usize,
}

#[pymethods]
impl GameError {
    /// The file.
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }
    /// The game's number in the file, from 0.
    #[getter]
    fn index(&self) -> usize {
        self.index
    }
    /// The ply of the move (1 for the first; 0: the start position).
    #[getter]
    fn ply(&self) -> usize {
        self.e.ply
    }
    /// The move as written.
    #[getter(r#move)]
    fn mv(&self) -> &str {
        &self.e.mv
    }
    /// The line (from 1), or 0 in a binary file.
    #[getter]
    fn line(&self) -> u32 {
        self.e.line
    }
    /// The column (from 1, in characters), or the byte offset in a binary
    /// file.
    #[getter]
    fn column(&self) -> u32 {
        self.e.column
    }
    /// The byte offset in a binary file, or `None`.
    #[getter]
    fn offset(&self) -> Option<u32> {
        self.e.offset
    }
    /// Why, in words.
    #[getter]
    fn message(&self) -> &str {
        &self.e.message
    }
    fn __str__(&self) -> String {
        self.e.message.clone()
    }
    fn __repr__(&self) -> String {
        format!(
            "GameError(ply={}, move={:?}, line={}, column={}, message={:?})",
            self.e.ply, self.e.mv, self.e.line, self.e.column, self.e.message
        )
    }
}

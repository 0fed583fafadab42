//! The batch functions: many files read and replayed in Rust, on several
//! threads, with the GIL released; each returns plain Python values (the
//! objects the `qipu` command writes as JSON).

use std::path::{Path, PathBuf};

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use qipu::Color;
use qipu::analysis::fen_lines::side_name;
use qipu::analysis::stats::{ANNOTATION_TAGS, GameFacts, MainLine, Stats};
use qipu::analysis::trail::start_step;
use qipu::batch::{Batch, ConductReport, Input, Report, RulingReport, Status};
use qipu::formats::encoding::Encoding;
use qipu::formats::write::{Unmappable, WriteFormat, WriteOptions};
use qipu::formats::{self, xqf};
use qipu::output::{
    Destination, DestinationError, InputFiles, Refused, SplitKey, SplitRule, Stream, WrittenGame,
};
use qipu::record::GameResult;
use qipu::select::Judged;
use qipu::table::{Fens, Table};

use crate::names;
use crate::select::{Chooser, Taken};

/// The inputs, batch and selection of a batch function's arguments.
pub(crate) struct Run {
    pub(crate) inputs: Vec<Input>,
    pub(crate) batch: Batch,
    pub(crate) chooser: Chooser,
}

impl Run {
    pub(crate) fn new(
        paths: &Bound<'_, PyAny>,
        jobs: Option<usize>,
        encoding: Option<&str>,
        select: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Run> {
        let shard = crate::inputs::take_shard(select)?;
        let inputs = crate::inputs::inputs(paths)?;
        let inputs = match shard {
            Some(shard) => shard.of(inputs),
            None => inputs,
        };
        let batch = Batch::new().threads(names::jobs(jobs)?).encoding(names::encoding(encoding)?);
        let chooser = Chooser::new(select)?;
        Ok(Run { inputs, batch, chooser })
    }
}

/// Replays every game of `paths` (files, or folders searched recursively)
/// and returns the report of each selected game: the objects `qipu
/// validate --format json` writes, in input order.
#[pyfunction]
#[pyo3(signature = (paths, *, jobs = None, encoding = None, **select))]
pub fn validate<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    jobs: Option<usize>,
    encoding: Option<&str>,
    select: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let Run { inputs, batch, mut chooser } = Run::new(paths, jobs, encoding, select)?;
    let reports = py.detach(move || {
        let selection = chooser.selection();
        let mut reports = Vec::new();
        let _ = chooser.pass(
            &batch,
            &inputs,
            || selection.checker(()),
            |meta, taken| {
                reports.push(match taken {
                    Taken::Game { index, game } => Report::game(meta, index, &game),
                    Taken::Unreadable(why) => Report::input(meta, why.to_string(), Some(Status::Unreadable)),
                    Taken::NoRecord(why) => Report::input(meta, why.to_string(), None),
                });
                Ok(())
            },
        );
        reports
    });
    let list = PyList::empty(py);
    for r in &reports {
        list.append(report_dict(py, r)?)?;
    }
    Ok(list.into_any())
}

/// The statistics of the selected games of `paths`: the object `qipu
/// stats --format json --top TOP` writes.
#[pyfunction]
#[pyo3(signature = (paths, *, top = 10, jobs = None, encoding = None, **select))]
pub fn stats<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    top: usize,
    jobs: Option<usize>,
    encoding: Option<&str>,
    select: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let Run { inputs, batch, mut chooser } = Run::new(paths, jobs, encoding, select)?;
    let value = py.detach(move || {
        let selection = chooser.selection();
        let mut stats = Stats::default();
        let _ = chooser.pass(
            &batch,
            &inputs,
            || selection.checker_keeping(MainLine::default(), &ANNOTATION_TAGS),
            |meta, taken| {
                match taken {
                    Taken::Game { game, .. } => {
                        stats.add(&GameFacts::of_checked(&game, meta.format, meta.encoding))
                    }
                    Taken::Unreadable(_) => stats.add(&GameFacts::unreadable(meta.format)),
                    Taken::NoRecord(_) => {}
                }
                Ok(())
            },
        );
        stats.finish();
        stats.to_json(top)
    });
    // One object: read back through Python's json module.
    py.import("json")?.call_method1("loads", (value.to_string(),))
}

/// The FEN trail as columns: one entry in each for every position. The
/// values many rows share (the source, the side, the result) are kept
/// once, and given to Python as one object each.
#[derive(Default)]
struct Columns {
    /// The sources, each once; `source` holds an index into it.
    sources: Vec<String>,
    source: Vec<u32>,
    index: Vec<usize>,
    ply: Vec<usize>,
    mv: Vec<Option<String>>,
    /// The move played from the position: the next row's `mv`, `None` at
    /// a game's last position.
    next: Vec<Option<String>>,
    fen: Vec<String>,
    red: Vec<bool>,
    result: Vec<GameResult>,
}

/// Every result, in the order [`Columns::into_dict`] names them.
const RESULTS: [GameResult; 4] =
    [GameResult::RedWins, GameResult::BlackWins, GameResult::Draw, GameResult::Unknown];

impl Columns {
    /// Adds the position `fen` of game `index` of `source`, `ply` plies in,
    /// reached by `mv` and left by `next`, with `red` to move or not.
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        (source, index, result): (&str, usize, GameResult),
        ply: usize,
        mv: Option<String>,
        next: Option<String>,
        fen: String,
        red: bool,
    ) {
        if self.sources.last().is_none_or(|last| last != source) {
            self.sources.push(source.to_string());
        }
        self.source.push(u32::try_from(self.sources.len() - 1).unwrap_or(u32::MAX));
        self.index.push(index);
        self.ply.push(ply);
        self.mv.push(mv);
        self.next.push(next);
        self.fen.push(fen);
        self.red.push(red);
        self.result.push(result);
    }

    /// The columns as a dict of Python lists.
    fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        // A list of `names[k]` for each `k`: one object, many references.
        let shared = |names: &[&str], of: &mut dyn Iterator<Item = usize>| -> PyResult<Bound<'_, PyList>> {
            let names: Vec<_> = names.iter().map(|n| PyString::new(py, n)).collect();
            let list = PyList::empty(py);
            for k in of {
                list.append(&names[k])?;
            }
            Ok(list)
        };
        let sources: Vec<&str> = self.sources.iter().map(String::as_str).collect();
        let result_names = RESULTS.map(GameResult::as_str);
        let dict = PyDict::new(py);
        dict.set_item("source", shared(&sources, &mut self.source.iter().map(|&k| k as usize))?)?;
        dict.set_item("index", PyList::new(py, self.index)?)?;
        dict.set_item("ply", PyList::new(py, self.ply)?)?;
        dict.set_item("move", PyList::new(py, self.mv)?)?;
        dict.set_item("next_move", PyList::new(py, self.next)?)?;
        dict.set_item("fen", PyList::new(py, self.fen)?)?;
        // Named as `qipu fen` names them.
        let sides = [side_name(Color::Black), side_name(Color::Red)];
        dict.set_item("side", shared(&sides, &mut self.red.iter().map(|&red| usize::from(red)))?)?;
        let mut result_of =
            self.result.iter().map(|r| RESULTS.iter().position(|known| known == r).unwrap_or(3));
        dict.set_item("result", shared(&result_names, &mut result_of)?)?;
        Ok(dict)
    }
}

/// The position after every ply of the main line of every selected game
/// of `paths` (ply 0: the start as read), as a dict of equal-length lists:
/// `source`, `index`, `ply`, `move` (`None` at ply 0), `next_move` (the
/// move played from the position, in the same notation; `None` at the
/// game's last position), `fen`, `side`, `result` — the fields of `qipu
/// fen --format json`, and `next_move`. Built on the follower of
/// `read_arrow(positions=True)`'s table: the same rows, the moves' text
/// kept besides.
#[pyfunction]
#[pyo3(signature = (paths, *, notation = "iccs", jobs = None, encoding = None, **select))]
pub fn fen_columns<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    notation: &str,
    jobs: Option<usize>,
    encoding: Option<&str>,
    select: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let notation = names::notation(notation)?;
    let Run { inputs, batch, mut chooser } = Run::new(paths, jobs, encoding, select)?;
    let columns = py.detach(move || {
        let selection = chooser.selection();
        let mut columns = Columns::default();
        // The follower of `read_arrow(positions=True)`'s table, keeping
        // the moves' text in `notation` besides.
        let follower = Table::Positions.follower().moves_in(notation);
        let _ = chooser.pass(
            &batch,
            &inputs,
            || selection.checker(follower.clone()),
            |meta, taken| {
                let Taken::Game { index, game } = taken else { return Ok(()) };
                // Ply 0 is the placement as read, legal or not; the moves follow
                // from the position when it is a legal one.
                if let Some(setup) = &game.replayed.resolution.setup {
                    let result = game.result.unwrap_or(GameResult::Unknown);
                    let game_of = (meta.json_source.as_str(), index, result);
                    let mut first = Fens::default();
                    start_step(setup, false, &mut first);
                    let empty = Fens::default();
                    let after = game.followed.positions.as_ref().unwrap_or(&empty);
                    let text = |mv: Option<&str>| mv.map(str::to_string);
                    // Ply 0 the start, ply `k` the position after move `k`;
                    // the move from each is the next one's move, none from the last.
                    for ply in 0..=after.len() {
                        let (fen, turn) = match ply.checked_sub(1) {
                            None => (first.fen(0), first.turn(0)),
                            Some(k) => (after.fen(k), after.turn(k)),
                        };
                        let mv = ply.checked_sub(1).and_then(|k| after.move_text(k));
                        let next = after.move_text(ply);
                        columns.push(game_of, ply, text(mv), text(next), fen.to_string(), turn == Color::Red);
                    }
                }
                Ok(())
            },
        );
        columns
    });
    columns.into_dict(py)
}

/// Writes every selected game of `paths` as `qipu convert --to TO -o
/// OUTPUT` does: into the file `output` (`pgn` with moves in `notation`,
/// `json`, `dhtmlxq` or `uci`, in `output_encoding`: `utf-8`, `gbk` or
/// `big5`; `cbl`: one library; `html`: one viewer page), or a file per
/// game into the folder `output` (`xqf`, version `xqf_version` 10 or 18;
/// `cbr`; `pfc`), named as the command names them, in the folders that
/// mirror where the inputs were found. A text target can be split: every
/// `split` games (`OUTPUT-0001.EXT`, …) or by `split_by` (`ecco`,
/// `event`, `result`, `red`, `black`, `year`, `source`: `OUTPUT-VALUE.EXT`);
/// and with `rejected`, the games left out and the illegal games go into
/// that file instead. Games that cannot be read are not written; a game
/// with a wrong move is, its moves from there on as written. Each file is
/// written whole or not at all, never over one of the inputs, and over
/// another file only with `force`. Returns the counts: `games`, `valid`,
/// `illegal`, `unreadable`, `written`, `rejected` (games written into
/// `rejected`), `not_written` (why each game that could not be written
/// was not), `warnings` (what the format could not keep of a game
/// written: a tag without a field, a name cut) and `files` (the files of
/// a split, in the order started).
#[pyfunction]
#[pyo3(signature = (paths, *, to, output, notation = "chinese", output_encoding = "utf-8", set_ecco = false, xqf_version = 10, force = false, split = None, split_by = None, rejected = None, jobs = None, encoding = None, **select))]
#[allow(clippy::too_many_arguments)]
pub fn convert<'py>(
    py: Python<'py>,
    paths: &Bound<'py, PyAny>,
    to: &str,
    output: PathBuf,
    notation: &str,
    output_encoding: &str,
    set_ecco: bool,
    xqf_version: u8,
    force: bool,
    split: Option<usize>,
    split_by: Option<&str>,
    rejected: Option<PathBuf>,
    jobs: Option<usize>,
    encoding: Option<&str>,
    select: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let format = match to {
        "pgn" => WriteFormat::Pgn,
        "json" => WriteFormat::Json,
        "dhtmlxq" => WriteFormat::Dhtmlxq,
        "uci" => WriteFormat::Uci,
        "xqf" => WriteFormat::Xqf,
        "cbr" | "cbl" => WriteFormat::Cbr,
        "pfc" => WriteFormat::Pfc,
        "html" => WriteFormat::Html,
        _ => {
            return Err(PyValueError::new_err(format!(
                "to={to:?}: expected pgn, json, dhtmlxq, uci, xqf, cbr, pfc, cbl or html"
            )));
        }
    };
    let text =
        matches!(format, WriteFormat::Pgn | WriteFormat::Json | WriteFormat::Dhtmlxq | WriteFormat::Uci);
    if !text && (split.is_some() || split_by.is_some()) {
        return Err(PyValueError::new_err(format!(
            "to={to:?}: split and split_by are for pgn, json, dhtmlxq and uci"
        )));
    }
    if !text && rejected.is_some() {
        return Err(PyValueError::new_err(format!("to={to:?}: rejected is for pgn, json, dhtmlxq and uci")));
    }
    let split = match (split, split_by) {
        (Some(_), Some(_)) => return Err(PyValueError::new_err("give split or split_by, not both")),
        (Some(0), _) => return Err(PyValueError::new_err("split must be at least 1")),
        (Some(n), None) => Some((SplitRule::Every(n), None)),
        (None, Some(key)) => {
            let key = split_key(key)?;
            Some((key.split(), Some(key)))
        }
        (None, None) => None,
    };
    let xqf_version = match xqf_version {
        10 => xqf::Version::V10,
        18 => xqf::Version::V18,
        _ if format == WriteFormat::Xqf => return Err(PyValueError::new_err("xqf_version: 10 or 18")),
        _ => xqf::Version::V10,
    };
    let encoding_out = match names::encoding(Some(output_encoding))? {
        Some(e @ (Encoding::Utf8 | Encoding::Gb18030 | Encoding::Big5)) => e,
        _ => return Err(PyValueError::new_err("output_encoding must be utf-8, gbk or big5")),
    };
    if matches!(format, WriteFormat::Pfc | WriteFormat::Html) && encoding_out != Encoding::Utf8 {
        return Err(PyValueError::new_err(format!("to={to:?} writes utf-8 only: leave out output_encoding")));
    }
    let notation = names::notation(notation)?;
    let options = match to {
        // As the command: a library's games are CBR records of the defaults.
        "cbl" => WriteOptions::new(WriteFormat::Cbr),
        _ => WriteOptions {
            format,
            // The command writes the files of a game in simplified Chinese.
            notation: if text { notation } else { WriteOptions::new(format).notation },
            xqf_version,
            encoding: encoding_out,
            unmappable: Unmappable::Error,
        },
    };
    let shard = crate::inputs::take_shard(select)?;
    let (inputs, within) = crate::inputs::sharded(crate::inputs::inputs_within(paths)?, shard);
    let batch = Batch::new().threads(names::jobs(jobs)?).encoding(names::encoding(encoding)?);
    let mut chooser = Chooser::new(select)?;
    let input_files = InputFiles::of(&inputs);
    if rejected.as_deref().is_some_and(|r| r == output) {
        return Err(PyValueError::new_err("rejected needs a file of its own"));
    }
    let folder = matches!(to, "xqf" | "cbr" | "pfc");
    if folder && std::fs::metadata(&output).is_ok_and(|m| !m.is_dir()) {
        return Err(PyOSError::new_err(format!(
            "{}: to={to:?} writes a file per game into a folder: this is no folder",
            output.display()
        )));
    }
    let ext = to.to_string();
    let key = split.and_then(|(_, key)| key);
    let html = format == WriteFormat::Html;
    let counts = py.detach(move || -> std::io::Result<Counts> {
        // Made here: a destination that writes into a stream is not sent
        // between threads.
        let refused = |path: &Path, e: std::io::Error| std::io::Error::new(e.kind(), told(path, &e));
        let mut rejected = match &rejected {
            Some(path) => Some(Destination::file(path, force, &input_files).map_err(|e| refused(path, e))?),
            None => None,
        };
        let mut dest = match (ext.as_str(), split) {
            ("xqf" | "cbr" | "pfc", _) => Destination::folder(&output, &ext, force, input_files.clone())
                .map_err(|e| refused(&output, e))?
                .mirroring(&inputs, &within),
            ("cbl", _) => {
                Destination::library(&output, force, input_files.clone()).map_err(|e| refused(&output, e))?
            }
            ("html", _) => Destination::page(
                Stream::create(&output, force, &input_files).map_err(|e| refused(&output, e))?,
            ),
            (_, Some((how, _))) => Destination::split(&output, how, force, input_files.clone())
                .map_err(|e| std::io::Error::other(e.to_string()))?,
            _ => Destination::file(&output, force, &input_files).map_err(|e| refused(&output, e))?,
        };
        let selection = chooser.selection();
        let mut counts = Counts::default();
        let make = || {
            qipu::record::visit::Map::new(
                qipu::record::RecordBuilder::default(),
                |mut record: qipu::record::Record| {
                    let judged = selection.judge_record(&record);
                    let status = Status::of(record.unreadable().is_some(), record.replayed());
                    let shape = qipu::record::shape::Shape::default();
                    qipu::analysis::prepare::prepare(&mut record, &shape, set_ecco);
                    let made = (status != Status::Unreadable).then(|| {
                        if html {
                            let game = formats::html::game(&record, notation);
                            let bytes = game.data.into_bytes();
                            (Ok(formats::write::Written { bytes, warnings: Vec::new() }), Some(game.label))
                        } else {
                            let title = record.tag("Title").map(str::to_string);
                            (formats::write::write_with_warnings(&record, &options), title)
                        }
                    });
                    let value = key.and_then(|k| k.value(&record));
                    Judged { matches: judged.matches, key: judged.key, game: (status, made, value) }
                },
            )
        };
        chooser.pass_all(&batch, &inputs, make, |meta, taken, selected| {
            let (index, (status, made, value)) = match taken {
                Taken::Game { index, game } => (index, game),
                Taken::Unreadable(_) => {
                    counts.count(Status::Unreadable);
                    return Ok(());
                }
                Taken::NoRecord(_) => return Ok(()),
            };
            if selected {
                counts.count(status);
            }
            // An unreadable record is never written as a game.
            let Some((bytes, title)) = made else { return Ok(()) };
            // With `rejected`, the games left out and the illegal ones go there.
            let to_rejected = !selected || (rejected.is_some() && status == Status::Illegal);
            if to_rejected && rejected.is_none() {
                return Ok(());
            }
            let written = match bytes {
                Ok(written) => written,
                Err(why) => {
                    if selected {
                        let why = format!("{}: game {}: not written: {why}", meta.source, index + 1);
                        counts.not_written.push(why);
                    }
                    return Ok(());
                }
            };
            for w in &written.warnings {
                counts.warnings.push(format!("{}: game {}: {w}", meta.source, index + 1));
            }
            let game = WrittenGame {
                title: title.as_deref(),
                value: value.as_deref(),
                ..WrittenGame::new(&written.bytes, &meta.source, index)
            };
            let into = match &mut rejected {
                Some(r) if to_rejected => r,
                _ => &mut dest,
            };
            match into.write(game) {
                Ok(()) if to_rejected => counts.rejected += 1,
                // A library's or a page's games are written with it, at the end.
                Ok(()) if into.collects() => {}
                Ok(()) => counts.written += 1,
                Err(DestinationError::File { path, source }) => counts.not_written.push(told(&path, &source)),
                Err(e) => return Err(io_error(e)),
            }
            Ok(())
        })?;
        let collected = dest.collected();
        let mut warnings = Vec::new();
        let finished = dest
            .finish_telling(|path, w| warnings.push(format!("{}: {w}", path.display())))
            .map_err(io_error)?;
        counts.warnings.extend(warnings);
        counts.written += collected;
        counts.files = finished.files;
        if let Some(r) = rejected {
            r.finish().map_err(io_error)?;
        }
        Ok(counts)
    });
    let counts = counts.map_err(|e| PyOSError::new_err(e.to_string()))?;
    let dict = PyDict::new(py);
    dict.set_item("games", counts.valid + counts.illegal + counts.unreadable)?;
    dict.set_item("valid", counts.valid)?;
    dict.set_item("illegal", counts.illegal)?;
    dict.set_item("unreadable", counts.unreadable)?;
    dict.set_item("written", counts.written)?;
    dict.set_item("rejected", counts.rejected)?;
    dict.set_item("not_written", counts.not_written)?;
    dict.set_item("warnings", counts.warnings)?;
    let files: Vec<String> = counts.files.iter().map(|f| f.display().to_string()).collect();
    dict.set_item("files", files)?;
    Ok(dict)
}

/// A `split_by` key by its name, as `--split-by` names them.
fn split_key(name: &str) -> PyResult<SplitKey> {
    Ok(match name {
        "ecco" => SplitKey::Ecco,
        "event" => SplitKey::Event,
        "result" => SplitKey::Result,
        "red" => SplitKey::Red,
        "black" => SplitKey::Black,
        "year" => SplitKey::Year,
        "source" => SplitKey::Source,
        _ => {
            return Err(PyValueError::new_err(format!(
                "split_by={name:?}: expected ecco, event, result, red, black, year or source"
            )));
        }
    })
}

/// An error of a destination as an I/O error, in the binding's words
/// (see [`told`]).
fn io_error(e: DestinationError) -> std::io::Error {
    match e {
        DestinationError::Output(e) => e,
        DestinationError::File { path, source } => std::io::Error::new(source.kind(), told(&path, &source)),
        e => std::io::Error::other(e.to_string()),
    }
}

/// What `convert` did.
#[derive(Default)]
struct Counts {
    valid: usize,
    illegal: usize,
    unreadable: usize,
    written: usize,
    /// Games written into the file of `rejected`.
    rejected: usize,
    not_written: Vec<String>,
    /// What the format could not keep of each game written, told.
    warnings: Vec<String>,
    /// The files of a split.
    files: Vec<PathBuf>,
}

impl Counts {
    fn count(&mut self, status: Status) {
        match status {
            Status::Valid => self.valid += 1,
            Status::Illegal => self.illegal += 1,
            Status::Unreadable => self.unreadable += 1,
        }
    }
}

/// An output error in the binding's words: an existing file names
/// `force=True`, an input is called one of the inputs.
fn told(path: &Path, e: &std::io::Error) -> String {
    match Refused::of(e) {
        Some(Refused::Exists) => format!("{}: exists: give force=True to write over it", path.display()),
        Some(Refused::Input) => format!("{}: is one of the inputs: not written over", path.display()),
        _ => format!("{}: {e}", path.display()),
    }
}

/// A report as the dict `qipu validate --format json` writes for it (the
/// fields of [`Report`]'s JSON, in its order: the tests compare the two),
/// built with the field names interned, which is several times quicker
/// than reading the JSON back.
pub fn report_dict<'py>(py: Python<'py>, r: &Report) -> PyResult<Bound<'py, PyDict>> {
    use pyo3::intern;
    let d = PyDict::new(py);
    d.set_item(intern!(py, "source"), &r.source)?;
    if r.source_escaped {
        d.set_item(intern!(py, "source_escaped"), true)?;
    }
    d.set_item(intern!(py, "index"), r.index)?;
    d.set_item(intern!(py, "status"), r.status_text())?;
    d.set_item(intern!(py, "format"), r.format)?;
    d.set_item(intern!(py, "encoding"), r.encoding)?;
    d.set_item(intern!(py, "plies"), r.plies)?;
    d.set_item(intern!(py, "variation_plies"), r.variation_plies)?;
    d.set_item(intern!(py, "result"), r.result)?;
    d.set_item(intern!(py, "termination"), r.termination)?;
    let error = match &r.error {
        None => None,
        Some(e) => {
            let ed = PyDict::new(py);
            ed.set_item(intern!(py, "ply"), e.ply)?;
            ed.set_item(intern!(py, "move"), &e.mv)?;
            ed.set_item(intern!(py, "line"), e.line)?;
            ed.set_item(intern!(py, "column"), e.column)?;
            ed.set_item(intern!(py, "offset"), e.offset)?;
            ed.set_item(intern!(py, "message"), &e.message)?;
            Some(ed)
        }
    };
    d.set_item(intern!(py, "error"), error)?;
    d.set_item(intern!(py, "warnings"), &r.warnings)?;
    d.set_item(intern!(py, "result_conflict"), &r.result_conflict)?;
    d.set_item(intern!(py, "rules"), r.rules)?;
    let rulings = PyList::empty(py);
    for ruling in &r.rulings {
        rulings.append(ruling_dict(py, ruling)?)?;
    }
    d.set_item(intern!(py, "rulings"), rulings)?;
    d.set_item(intern!(py, "final_ruling"), r.final_ruling)?;
    d.set_item(intern!(py, "move_limit_at"), r.move_limit_at)?;
    d.set_item(intern!(py, "dead_draw_at"), r.dead_draw_at)?;
    Ok(d)
}

/// A ruling as the dict `qipu validate --format json` writes in
/// `rulings` (the fields of [`RulingReport`]'s JSON, in its order).
pub fn ruling_dict<'py>(py: Python<'py>, r: &RulingReport) -> PyResult<Bound<'py, PyDict>> {
    use pyo3::intern;
    let side = |c: &ConductReport| -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item(intern!(py, "moves"), c.moves)?;
        d.set_item(intern!(py, "checks"), c.checks)?;
        d.set_item(intern!(py, "chases"), c.chases)?;
        d.set_item(intern!(py, "mate_threats"), c.mate_threats)?;
        d.set_item(intern!(py, "idle"), c.idle)?;
        d.set_item(intern!(py, "violation"), c.violation)?;
        let chased = PyList::empty(py);
        for ch in &c.chased {
            let cd = PyDict::new(py);
            cd.set_item(intern!(py, "ply"), ch.ply)?;
            cd.set_item(intern!(py, "chaser"), ch.chaser.to_string())?;
            cd.set_item(intern!(py, "from"), &ch.from)?;
            cd.set_item(intern!(py, "target"), ch.target.to_string())?;
            cd.set_item(intern!(py, "at"), &ch.at)?;
            chased.append(cd)?;
        }
        d.set_item(intern!(py, "chased"), chased)?;
        Ok(d)
    };
    let d = PyDict::new(py);
    d.set_item(intern!(py, "plies"), r.plies.to_vec())?;
    d.set_item(intern!(py, "end"), r.end)?;
    d.set_item(intern!(py, "verdict"), r.verdict)?;
    d.set_item(intern!(py, "kind"), r.kind)?;
    d.set_item(intern!(py, "red"), side(&r.red)?)?;
    d.set_item(intern!(py, "black"), side(&r.black)?)?;
    d.set_item(intern!(py, "explanation"), &r.explanation)?;
    Ok(d)
}

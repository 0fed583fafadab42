//! `qipu.read`: the games of files, folders, bytes or file objects, as an iterator that
//! streams: the files are read on other threads, a few chunks ahead of
//! the games taken, so memory does not grow with the input.

use std::sync::Mutex;

use pyo3::prelude::*;
use qipu::batch::{Batch, Games, Item};
use qipu::record::RecordBuilder;
use qipu::record::visit::Map;

use crate::game::{self, Game};
use crate::names;

/// The games of a `qipu.read` call, in input order: a loop over
/// [`Games`], which reads large inputs on other threads a few chunks
/// ahead of the game taken.
#[pyclass(module = "qipu")]
pub struct Reader {
    /// `None` once closed.
    games: Option<Mutex<Games<(qipu::record::Record, qipu::batch::Checked)>>>,
}

#[pymethods]
impl Reader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> Option<Game> {
        loop {
            let games = self.games.as_ref()?;
            // A game read already is taken at once; waiting for the
            // readers lets other Python threads run.
            let at_hand = games.lock().ok()?.next_read();
            match at_hand.or_else(|| py.detach(|| games.lock().ok()?.next())) {
                Some(Item::Game { meta, index, game }) => return Some(Game::new(game, meta, index)),
                Some(Item::Unreadable { meta, reason }) => {
                    return Some(Game::unreadable(meta, reason.to_string()));
                }
                // A file met in a folder that holds no record is no game.
                Some(Item::NoRecord { .. } | Item::Done(_)) => {}
                None => self.games = None,
            }
        }
    }

    /// Stops reading: the games not yet taken are dropped.
    fn close(&mut self) {
        self.games = None;
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(&mut self, _kind: &Bound<'_, PyAny>, _value: &Bound<'_, PyAny>, _trace: &Bound<'_, PyAny>) {
        self.close();
    }
}

/// The games of `source`: a path (file or folder, searched recursively),
/// the bytes of a file, a file object, or a list of these (see
/// [`crate::inputs`]); text in `encoding` (detected when `None`), read on
/// `jobs` threads (every core when `None`).
///
/// Inputs of at most 1 MB in all (one game file, a few) are read at the
/// call, on this thread with the GIL released: a loop that reads a file a
/// call starts no thread per file. Larger inputs stream from other threads
/// (see [`Games`]).
#[pyfunction]
#[pyo3(signature = (source, encoding = None, jobs = None, rules = "asian"))]
pub fn read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    encoding: Option<&str>,
    jobs: Option<usize>,
    rules: &str,
) -> PyResult<Reader> {
    let rules = names::rules(rules)?;
    let encoding = names::encoding(encoding)?;
    let threads = names::jobs(jobs)?;
    let inputs = crate::inputs::inputs(source)?;
    let batch = Batch::new().threads(threads).encoding(encoding);
    let make = move || Map::new(RecordBuilder::default(), move |record| game::check_by(record, rules));
    let games = py.detach(|| Games::new(batch, inputs, make));
    Ok(Reader { games: Some(Mutex::new(games)) })
}

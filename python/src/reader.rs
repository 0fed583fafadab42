//! `qipu.read`: the games of files, folders, bytes or file objects, as an iterator that
//! streams: the files are read on other threads, a few chunks ahead of
//! the games taken, so memory does not grow with the input.

use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use qipu::batch::{self, Batch, Event, Meta};
use qipu::formats::encoding::Encoding;
use qipu::record::RecordBuilder;
use qipu::record::visit::Map;
use qipu::rules::judge::RuleSet;

use crate::game::{self, Game};
use crate::names;

/// Runs of games read but not yet taken, at most: what the readers run
/// ahead by (a run is the games of a file, or of a chunk of a large one).
const AHEAD: usize = 4;

/// What the reading threads send: a run of games, in order (sent a run at
/// a time, the handing over costs little beside the reading).
type Sent = Vec<Game>;

/// The games of a `qipu.read` call, in input order.
#[pyclass(module = "qipu")]
pub struct Reader {
    games: Option<Mutex<Receiver<Sent>>>,
    /// The run being taken, its next game last.
    taken: Vec<Game>,
}

impl Reader {
    /// The games of runs read already.
    fn read(runs: Vec<Sent>) -> Reader {
        let mut taken: Vec<Game> = runs.into_iter().flatten().collect();
        taken.reverse();
        Reader { games: None, taken }
    }

    /// The games of runs the reading threads send.
    fn streaming(games: Receiver<Sent>) -> Reader {
        Reader { games: Some(Mutex::new(games)), taken: Vec::new() }
    }
}

#[pymethods]
impl Reader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> Option<Game> {
        while self.taken.is_empty() {
            let games = self.games.as_ref()?;
            // Waiting for the readers lets other Python threads run.
            match py.detach(|| games.lock().ok()?.recv().ok()) {
                Some(mut run) => {
                    run.reverse();
                    self.taken = run;
                }
                None => self.games = None,
            }
        }
        self.taken.pop()
    }

    /// Stops reading: the games not yet taken are dropped.
    fn close(&mut self) {
        self.games = None;
        self.taken.clear();
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
/// Inputs of at most [`AT_ONCE`] bytes in all (one game file, a few) are
/// read at the call, on this thread with the GIL released: a loop that
/// reads a file a call starts no thread per file. Larger inputs stream
/// from other threads.
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
    if small(&inputs) {
        let runs = py.detach(|| {
            let mut runs = Vec::new();
            read_inputs(&inputs, encoding, rules, 1, &mut |run| {
                runs.push(run);
                Ok(())
            });
            runs
        });
        return Ok(Reader::read(runs));
    }
    let (mut send, games) = channel();
    std::thread::spawn(move || read_inputs(&inputs, encoding, rules, threads, &mut send));
    Ok(Reader::streaming(games))
}

/// Bytes of files read at the call, at most.
const AT_ONCE: u64 = 1 << 20;

/// Whether `inputs` are files or bytes (not standard input, not archive
/// members) of at most [`AT_ONCE`] bytes in all.
fn small(inputs: &[batch::Input]) -> bool {
    let mut total = 0u64;
    for input in inputs {
        match input {
            batch::Input::File { len: Some(len), .. } => total = total.saturating_add(*len),
            batch::Input::Bytes { bytes, .. } => total = total.saturating_add(bytes.len() as u64),
            batch::Input::Problem { .. } => {}
            _ => return false,
        }
    }
    total <= AT_ONCE
}

/// Where the reading threads send their runs, and where the iterator takes
/// them from.
fn channel() -> (impl FnMut(Sent) -> Result<(), ()> + Send + 'static, Receiver<Sent>) {
    let (send, games) = sync_channel::<Sent>(AHEAD);
    (move |run| send.send(run).map_err(|_| ()), games)
}

/// Reads the games of files, sending each; stops when the reader is gone.
fn read_inputs(
    inputs: &[batch::Input],
    encoding: Option<Encoding>,
    rules: RuleSet,
    threads: usize,
    send: &mut impl FnMut(Sent) -> Result<(), ()>,
) {
    let mut meta: Option<Arc<Meta>> = None;
    let _ = Batch::new().threads(threads).encoding(encoding).run(
        inputs,
        || Map::new(RecordBuilder::default(), move |record| game::check_by(record, rules)),
        |m, event| {
            let shared = match &meta {
                Some(known) if **known == *m => known.clone(),
                _ => meta.insert(Arc::new(m.clone())).clone(),
            };
            match event {
                Event::Games { first, games } => {
                    let run = games
                        .into_iter()
                        .enumerate()
                        .map(|(k, read)| Game::new(read, shared.clone(), first + k));
                    send(run.collect())?;
                }
                Event::Unreadable(why) => send(vec![Game::unreadable(shared, why.to_string())])?,
                // A file met in a folder that holds no record is no game.
                Event::NoRecord(_) | Event::Done => {}
            }
            Ok::<(), ()>(())
        },
    );
}

//! `qipu.read`: the games of files, folders or bytes, as an iterator that
//! streams: the files are read on other threads, a few chunks ahead of
//! the games taken, so memory does not grow with the input.

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use qipu::batch::{self, Batch, Event, Meta};
use qipu::formats::encoding::Encoding;
use qipu::record::RecordBuilder;
use qipu::record::visit::Map;

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
/// a list of paths, or the bytes of a file; text in `encoding` (detected
/// when `None`), read on `jobs` threads (every core when `None`).
#[pyfunction]
#[pyo3(signature = (source, encoding = None, jobs = None))]
pub fn read(source: &Bound<'_, PyAny>, encoding: Option<&str>, jobs: Option<usize>) -> PyResult<Reader> {
    let encoding = names::encoding(encoding)?;
    let threads = names::jobs(jobs)?;
    let (send, games) = sync_channel(AHEAD);
    if let Ok(bytes) = source.cast::<PyBytes>() {
        let bytes = bytes.as_bytes().to_vec();
        std::thread::spawn(move || read_bytes(&bytes, encoding, &send));
    } else {
        let paths = names::paths(source)?;
        let inputs = batch::expand(&paths).inputs;
        std::thread::spawn(move || read_inputs(&inputs, encoding, threads, &send));
    }
    Ok(Reader { games: Some(Mutex::new(games)), taken: Vec::new() })
}

/// Reads the games of files, sending each; stops when the reader is gone.
fn read_inputs(inputs: &[batch::Input], encoding: Option<Encoding>, threads: usize, send: &SyncSender<Sent>) {
    let mut meta: Option<Arc<Meta>> = None;
    let _ = Batch::new().threads(threads).encoding(encoding).run(
        inputs,
        || Map::new(RecordBuilder::default(), game::check),
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
                    send.send(run.collect()).map_err(|_| ())?;
                }
                Event::Unreadable(why) => {
                    send.send(vec![Game::unreadable(shared, why.to_string())]).map_err(|_| ())?
                }
                // A file met in a folder that holds no record is no game.
                Event::NoRecord(_) | Event::Done => {}
            }
            Ok::<(), ()>(())
        },
    );
}

/// Reads the games of the bytes of a file.
fn read_bytes(bytes: &[u8], encoding: Option<Encoding>, send: &SyncSender<Sent>) {
    let mut meta = Meta {
        source: "<bytes>".into(),
        json_source: "<bytes>".into(),
        source_escaped: false,
        format: "unknown",
        encoding: None,
    };
    // The format is known once the bytes are read: the records wait.
    let mut records = Vec::new();
    let mut visitor = Map::new(RecordBuilder::default(), game::check);
    match qipu::formats::read_with(bytes, encoding, &mut visitor, |r| records.push(r)) {
        Ok(read) => {
            meta.format = read.format.name();
            meta.encoding = read.encoding.map(Encoding::name);
            let meta = Arc::new(meta);
            let mut games =
                records.into_iter().enumerate().map(|(index, read)| Game::new(read, meta.clone(), index));
            loop {
                let run: Vec<Game> = games.by_ref().take(1000).collect();
                if run.is_empty() || send.send(run).is_err() {
                    return;
                }
            }
        }
        Err(e) => {
            meta.format = e.format.name();
            let _ = send.send(vec![Game::unreadable(Arc::new(meta), e.reason.to_string())]);
        }
    }
}

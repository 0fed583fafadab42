//! Engines searching games in parallel: each game given to the first free
//! engine, its main line searched position by position (from the cache
//! when it has the position), annotated, and handed back in the order the
//! games were given.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use super::session::{Engine, EngineConfig, Search};
use super::{EngineError, protocol::Protocol};
use crate::Position;
use crate::analysis::annotate::{self, AnnotateOptions, GameReport};
use crate::record::Record;

/// Where searches are kept between positions, games and runs (the SQLite
/// `cache` with the `obs` feature).
pub trait SearchStore: Send + Sync {
    /// The search kept for a position key (a FEN's placement and side), if
    /// any; an error is a miss.
    fn get(&self, position: &str, engine: &str, setup: &str) -> Option<Search>;
    /// Keeps a search; whether it could.
    fn put(&self, position: &str, engine: &str, setup: &str, search: &Search) -> bool;
    /// The lookups and stores that failed so far (none for a store that
    /// cannot fail).
    fn trouble(&self) -> StoreTrouble {
        StoreTrouble::default()
    }
}

/// The lookups and stores of a [`SearchStore`] that failed in a run, for
/// its summary: a cache locked by another program or broken on disk costs
/// searches again, and says so.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoreTrouble {
    /// Lookups that failed (each a miss: the position searched).
    pub failed_lookups: usize,
    /// Searches that could not be kept.
    pub failed_stores: usize,
    /// Why the first failure failed.
    pub first_error: Option<String>,
    /// Whether the run stopped using the store after failures in a row.
    pub given_up: bool,
}

impl StoreTrouble {
    /// Whether anything failed.
    pub fn any(&self) -> bool {
        self.failed_lookups + self.failed_stores > 0
    }
}

/// What a pool runs.
#[derive(Clone, Debug)]
pub struct PoolConfig {
    /// How each engine is started and searches.
    pub engine: EngineConfig,
    /// How many engines search at once (at least 1).
    pub engines: usize,
    /// How games are annotated.
    pub annotate: AnnotateOptions,
    /// The plies (from 1) whose moves are judged: positions outside (and
    /// not needed to judge a move inside) are not searched. `None`: all.
    pub plies: Option<RangeInclusive<usize>>,
}

/// How many positions were searched, taken from the cache, or failed.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Searched by an engine.
    pub searched: u64,
    /// Answered by the cache.
    pub cached: u64,
    /// Given up on after a second try.
    pub failed: u64,
    /// Engines started again after a failure.
    pub restarts: u64,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.searched += o.searched;
        self.cached += o.cached;
        self.failed += o.failed;
        self.restarts += o.restarts;
    }
}

/// A position given up on: its ply (0 = the start) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchFailure {
    /// The position's ply: 0 for the start, n after the n-th move.
    pub ply: usize,
    /// The first try's error, and the second's.
    pub errors: Vec<EngineError>,
    /// Whether the position was answered in the end (by the second try).
    pub recovered: bool,
}

/// A game back from the pool.
#[derive(Debug)]
pub struct Analysed {
    /// The game, annotated (as given when the analysis was interrupted).
    pub record: Record,
    /// What annotating it found.
    pub report: GameReport,
    /// The search of each main-line position (the start, then after each
    /// move), `None` where none was made or it failed.
    pub searches: Vec<Option<Search>>,
    /// The positions searched, cached and failed.
    pub counts: Counts,
    /// The tries that failed, recovered or not.
    pub failures: Vec<SearchFailure>,
    /// False when the run was stopped before the game was done: it is not
    /// annotated.
    pub complete: bool,
}

/// The key of a position in a [`SearchStore`]: its FEN's placement and
/// side to move.
pub(crate) fn position_key(fen: &str) -> String {
    fen.split_ascii_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

struct Job<T> {
    seq: u64,
    tag: T,
    record: Record,
}

/// Engines searching games in parallel, games handed back in the order
/// given.
///
/// ```no_run
/// use qipu::engine::{EngineConfig, Pool, PoolConfig, protocol::Limit};
/// let config = PoolConfig {
///     engine: EngineConfig::new(vec!["pikafish".into()], Limit::Depth(10)),
///     engines: 2,
///     annotate: Default::default(),
///     plies: None,
/// };
/// let stop = Default::default();
/// let mut pool = Pool::start(config, None, stop)?;
/// for (k, record) in qipu::formats::pgn::read("1. h2e2 h9g7 *\n\n1. b2e2 *").into_iter().enumerate() {
///     pool.submit(k, record, |k, game| println!("game {k}: {:?}", game.report.red.acpl()));
/// }
/// pool.finish(|k, game| println!("game {k}: {:?}", game.report.red.acpl()));
/// # Ok::<(), qipu::engine::EngineError>(())
/// ```
pub struct Pool<T> {
    jobs: Option<Sender<Job<T>>>,
    results: Receiver<(u64, T, Analysed)>,
    workers: Vec<JoinHandle<()>>,
    waiting: BTreeMap<u64, (T, Analysed)>,
    next_in: u64,
    next_out: u64,
    most_in_flight: u64,
    name: String,
    protocol: Protocol,
}

impl<T> std::fmt::Debug for Pool<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("engine", &self.name)
            .field("engines", &self.workers.len())
            .finish_non_exhaustive()
    }
}

impl<T: Send + 'static> Pool<T> {
    /// Starts the engines: one at once (which tells the protocol and the
    /// engine's name, and fails the pool when it cannot start), the others
    /// when their first game comes. Games are tagged `Annotator` with the
    /// engine's name and limit unless the options name one. `stop` ends the work: each engine stops
    /// after its current search and hands back its game unannotated.
    pub fn start(
        mut config: PoolConfig,
        store: Option<Arc<dyn SearchStore>>,
        stop: Arc<AtomicBool>,
    ) -> Result<Pool<T>, EngineError> {
        let first = Engine::start(&config.engine)?;
        config.engine.protocol = Some(first.protocol());
        let name = first.name().to_string();
        let protocol = first.protocol();
        if protocol == Protocol::Ucci && config.engine.multipv > 1 {
            return Err(EngineError::Handshake(format!(
                "{name} speaks UCCI, which has no multi-line search"
            )));
        }
        if config.annotate.annotator.is_none() {
            config.annotate.annotator = Some(format!("{name} ({})", config.engine.limit));
        }
        let engines = config.engines.max(1);
        let config = Arc::new(config);
        let (jobs, job_queue) = mpsc::channel::<Job<T>>();
        let job_queue = Arc::new(Mutex::new(job_queue));
        let (done, results) = mpsc::channel();
        let mut first = Some(first);
        let mut workers = Vec::new();
        for k in 0..engines {
            let mut worker = Worker {
                engine: first.take(),
                config: config.clone(),
                store: store.clone(),
                stop: stop.clone(),
                name: name.clone(),
                setup: config.engine.setup(),
            };
            let (queue, done) = (job_queue.clone(), done.clone());
            let handle = thread::Builder::new()
                .name(format!("qipu-engine-{k}"))
                .spawn(move || {
                    loop {
                        let job = {
                            let queue = queue.lock().unwrap_or_else(|e| e.into_inner());
                            queue.recv()
                        };
                        let Ok(Job { seq, tag, record }) = job else { break };
                        let analysed = worker.analyse(record);
                        if done.send((seq, tag, analysed)).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| EngineError::Start { command: "a thread".into(), reason: e.to_string() })?;
            workers.push(handle);
        }
        Ok(Pool {
            jobs: Some(jobs),
            results,
            workers,
            waiting: BTreeMap::new(),
            next_in: 0,
            next_out: 0,
            most_in_flight: 4 * engines as u64,
            name,
            protocol,
        })
    }

    /// The protocol the engines speak.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// Gives a game to the engines; hands the games that are done, in the
    /// order given, to `done`. Waits while too many games are under way.
    pub fn submit(&mut self, tag: T, record: Record, mut done: impl FnMut(T, Analysed)) {
        while self.next_in - self.next_out >= self.most_in_flight {
            match self.results.recv() {
                Ok(r) => self.take(r, &mut done),
                Err(_) => break,
            }
        }
        while let Ok(r) = self.results.try_recv() {
            self.take(r, &mut done);
        }
        let seq = self.next_in;
        self.next_in += 1;
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(Job { seq, tag, record });
        }
    }

    /// Waits for every game given and hands each to `done`, in order; the
    /// engines end.
    pub fn finish(mut self, mut done: impl FnMut(T, Analysed)) {
        self.jobs = None;
        while self.next_out < self.next_in {
            match self.results.recv() {
                Ok(r) => self.take(r, &mut done),
                Err(_) => break,
            }
        }
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }

    fn take(&mut self, (seq, tag, analysed): (u64, T, Analysed), done: &mut impl FnMut(T, Analysed)) {
        self.waiting.insert(seq, (tag, analysed));
        while let Some((tag, analysed)) = self.waiting.remove(&self.next_out) {
            self.next_out += 1;
            done(tag, analysed);
        }
    }
}

impl<T> Drop for Pool<T> {
    fn drop(&mut self) {
        self.jobs = None;
        // Workers end at their next job; their engines go with them.
    }
}

/// One engine's thread: its engine (started when needed) and how it
/// searches.
struct Worker {
    engine: Option<Engine>,
    config: Arc<PoolConfig>,
    store: Option<Arc<dyn SearchStore>>,
    stop: Arc<AtomicBool>,
    name: String,
    setup: String,
}

impl Worker {
    /// Searches the main line of `record` and annotates it.
    fn analyse(&mut self, mut record: Record) -> Analysed {
        let positions: Vec<Position> = record.positions().collect();
        let mut counts = Counts::default();
        let mut failures = Vec::new();
        let mut searches = Vec::with_capacity(positions.len());
        let mut new_game = true;
        for (ply, position) in positions.iter().enumerate() {
            if self.stop.load(Ordering::Relaxed) {
                return Analysed {
                    record,
                    report: GameReport::default(),
                    searches,
                    counts,
                    failures,
                    complete: false,
                };
            }
            // The position before a move judged, or after one.
            let wanted = match &self.config.plies {
                None => true,
                Some(r) => r.contains(&(ply + 1)) || r.contains(&ply),
            };
            if !wanted || position.legal_moves().is_empty() {
                searches.push(None);
                continue;
            }
            let key = position_key(&position.fen());
            if let Some(found) = self.store.as_ref().and_then(|s| s.get(&key, &self.name, &self.setup)) {
                counts.cached += 1;
                searches.push(Some(found));
                continue;
            }
            let mut errors = Vec::new();
            let mut answer = None;
            for _ in 0..2 {
                match self.search(position, &mut new_game) {
                    Ok(s) => {
                        answer = Some(s);
                        break;
                    }
                    Err(e) => {
                        errors.push(e);
                        // Started again for the next try.
                        self.engine = None;
                        counts.restarts += 1;
                    }
                }
            }
            match &answer {
                Some(s) => {
                    counts.searched += 1;
                    if let Some(store) = &self.store {
                        store.put(&key, &self.name, &self.setup, s);
                    }
                }
                None => counts.failed += 1,
            }
            if !errors.is_empty() {
                failures.push(SearchFailure { ply, errors, recovered: answer.is_some() });
            }
            searches.push(answer);
        }
        let report = annotate::annotate(&mut record, &searches, &self.config.annotate);
        Analysed { record, report, searches, counts, failures, complete: true }
    }

    /// One try: the engine started if it is not running, told of a new
    /// game if this is the game's first search, then the search.
    fn search(&mut self, position: &Position, new_game: &mut bool) -> Result<Search, EngineError> {
        if self.engine.is_none() {
            self.engine = Some(Engine::start(&self.config.engine)?);
            *new_game = true;
        }
        let engine = self.engine.as_mut().expect("started above");
        if *new_game {
            engine.new_game()?;
            *new_game = false;
        }
        engine.search(position)
    }
}

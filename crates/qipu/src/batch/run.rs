//! Running a visitor over every game of a batch's inputs, on several
//! threads, with what it makes of each game handed on in input order.
//!
//! The inputs are cut into jobs: a group of small files, read whole; a
//! large input's chunks (see [`stream`]), or the whole of it when its
//! format is not read in pieces. Jobs run side by side, at most a few more
//! than there are threads at once; what each gives is handed to the sink
//! in input order. The calling thread opens the inputs, cuts them into
//! chunks and feeds the sink; with one thread it does the jobs too.

use crate::formats::encoding::Encoding;
use crate::formats::stream::{self, Chunk, Split};
use crate::formats::{self, Unreadable, UnreadableReason, detect};
use crate::record::Visitor;

use super::input::Input;

/// What is known of an input besides its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    /// The input's name in text reports (escaped: see [`super::escaped_name`]).
    pub source: String,
    /// The input's name for JSON: exact when it is UTF-8, else escaped.
    pub json_source: String,
    /// Whether `json_source` is escaped (the name is not UTF-8).
    pub source_escaped: bool,
    /// The format found (`"unknown"` before the input is read).
    pub format: &'static str,
    /// The text encoding, for text formats.
    pub encoding: Option<&'static str>,
}

impl Meta {
    /// What is known of `input` before it is read.
    pub fn of(input: &Input) -> Meta {
        let (json_source, source_escaped) = input.json_name();
        Meta { source: input.name(), json_source, source_escaped, format: "unknown", encoding: None }
    }

    fn read(&mut self, read: formats::Read) {
        self.format = read.format.name();
        self.encoding = read.encoding.map(Encoding::name);
    }
}

/// What the sink is told of an input, in input order: its games (in one or
/// more runs), or why it gives none, then that it is done.
///
/// ```
/// use qipu::batch::{self, Batch, Event};
/// use qipu::record::replay::Replayer;
/// let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn");
/// let inputs = batch::expand(&[pgn.into(), "no/such.pgn".into()]).inputs;
/// let mut told = Vec::new();
/// Batch::new().threads(1).run(&inputs, Replayer::default, |meta, event| {
///     told.push(match event {
///         Event::Games { first, games } => format!("{} games from {first}", games.len()),
///         Event::Unreadable(why) => format!("{}: {why}", meta.source),
///         Event::NoRecord(why) => format!("{}: holds no record: {why}", meta.source),
///         Event::Done => "done".into(),
///     });
///     Ok::<(), ()>(())
/// }).unwrap();
/// // A file over 1 MB is read in chunks: its games come in several runs.
/// assert_eq!(told, ["1391 games from 0", "done", "no/such.pgn: no such file or directory", "done"]);
/// // Why, typed: a path that does not exist.
/// use qipu::formats::UnreadableReason;
/// assert!(matches!(&inputs[1], batch::Input::Problem { reason: UnreadableReason::NotFound, .. }));
/// ```
#[derive(Debug)]
pub enum Event<R> {
    /// What the visitor made of some of the input's games, in order; the
    /// first is game `first` of the input (counted from 0).
    Games {
        /// The index in the input of the first game.
        first: usize,
        /// What the visitor made of each game.
        games: Vec<R>,
    },
    /// No more game can be read from the input, and why.
    Unreadable(UnreadableReason),
    /// The input was found while walking a folder and holds no record at
    /// all (prose, an empty file, an image), and why: not a game, not a
    /// problem.
    NoRecord(UnreadableReason),
    /// The input is finished.
    Done,
}

/// A batch's settings: threads and text encoding (see the [module
/// docs](super)).
///
/// Any visitor does: here a [`RecordBuilder`] for each job, and each
/// record written as PGN in WXF notation as it comes, in input order.
///
/// ```
/// use qipu::batch::{self, Batch, Event};
/// use qipu::formats::pgn;
/// use qipu::notation::Notation;
/// use qipu::record::RecordBuilder;
/// let inputs = batch::expand(&[concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pgn").into()]).inputs;
/// let mut out = String::new();
/// Batch::new().threads(2).run(&inputs, RecordBuilder::default, |_, event| {
///     if let Event::Games { games, .. } = event {
///         for record in &games {
///             out.push_str(&pgn::write(record, Notation::Wxf));
///         }
///     }
///     Ok::<(), std::fmt::Error>(())
/// })?;
/// assert_eq!(out.matches("[Format \"WXF\"]").count(), 1391);
/// # Ok::<(), std::fmt::Error>(())
/// ```
///
/// [`RecordBuilder`]: crate::record::RecordBuilder
#[derive(Clone, Debug)]
pub struct Batch {
    threads: usize,
    encoding: Option<Encoding>,
}

impl Default for Batch {
    fn default() -> Batch {
        Batch::new()
    }
}

/// Files up to this size are read whole, several in one job; larger ones,
/// and inputs that are not regular files, are read a chunk at a time.
const SMALL_FILE: u64 = 1 << 20;

/// A job of small files holds at most this many files...
const GROUP_FILES: usize = 256;

/// ...and this many bytes (unless one file is larger).
const GROUP_BYTES: u64 = 1 << 20;

/// The cores this program may use (what the system says at the first call,
/// then kept: asking costs a few system calls, reading the control group's
/// quota, which a program running a batch a file would pay each time); at
/// least one.
///
/// ```
/// assert!(qipu::batch::cores() >= 1);
/// ```
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

impl Batch {
    /// A batch on every core (one thread without the `parallel` feature),
    /// detecting the encoding of each text.
    pub fn new() -> Batch {
        #[cfg(feature = "parallel")]
        let threads = cores();
        #[cfg(not(feature = "parallel"))]
        let threads = 1;
        Batch { threads, encoding: None }
    }

    /// Runs on `threads` threads (at least one; one without the `parallel`
    /// feature).
    pub fn threads(mut self, threads: usize) -> Batch {
        self.threads = threads.max(1);
        self
    }

    /// Reads text in `encoding` instead of detecting it.
    pub fn encoding(mut self, encoding: Option<Encoding>) -> Batch {
        self.encoding = encoding;
        self
    }

    /// Reads every game of `inputs` with a visitor from `make` (one for
    /// each job) and hands what it makes of each to `sink`, in input order,
    /// with the input's [`Meta`]. An error of the sink (a closed output, an
    /// interruption) stops the batch: the jobs under way end, no other
    /// starts, and the error is returned.
    ///
    /// # Errors
    ///
    /// The first error `sink` returns: the batch stops at it.
    pub fn run<V, E>(
        &self,
        inputs: &[Input],
        make: impl Fn() -> V + Sync,
        sink: impl FnMut(&Meta, Event<V::Output>) -> Result<(), E>,
    ) -> Result<(), E>
    where
        V: Visitor,
        V::Output: Send,
    {
        self.run_in_pieces(inputs, make, sink, || Ok(()))
    }

    /// [`run`](Batch::run), calling `piece_end` after the events of each
    /// piece of work (a group of small whole inputs, or a chunk of a large
    /// one): where a consumer hands events on, it hands a piece's events
    /// together, and never holds one back waiting for the next piece.
    pub(crate) fn run_in_pieces<V, E>(
        &self,
        inputs: &[Input],
        make: impl Fn() -> V + Sync,
        mut sink: impl FnMut(&Meta, Event<V::Output>) -> Result<(), E>,
        mut piece_end: impl FnMut() -> Result<(), E>,
    ) -> Result<(), E>
    where
        V: Visitor,
        V::Output: Send,
    {
        let mut order = Order { sink: &mut sink, stream: None };
        let mut take = |piece| {
            order.take(piece)?;
            piece_end()
        };
        let encoding = self.encoding;
        #[cfg(feature = "parallel")]
        if self.threads > 1 {
            return in_parallel(self.threads, |submit| produce(inputs, encoding, &make, submit), take);
        }
        produce(inputs, encoding, &make, &mut |task| take(task.run()))
    }
}

/// What a job gives, or a mark the producer puts between jobs.
enum Piece<R> {
    /// Whole inputs: each with its games, and why it gives no more (none,
    /// or only those before its data is cut short).
    Inputs(Vec<(Meta, Vec<R>, Option<Stop>)>),
    /// A chunked input begins; whether it may hold no record without
    /// being unreadable (see [`may_hold_no_record`]).
    Begin(Meta, detect::Format, bool),
    /// Games of the chunked input, and the first of them that looks like
    /// a game (see [`formats::read_with`] on texts that hold none).
    Chunk(Vec<R>, Option<usize>),
    /// The chunked input ends, cut short when it is `Some`.
    End(Option<Stop>),
}

/// Why an input gives no more game: unreadable, or holding no record.
#[derive(Debug)]
struct Stop {
    reason: UnreadableReason,
    no_record: bool,
    format: Option<&'static str>,
}

impl Stop {
    /// `input` stops for `reason`: a file found while walking a folder
    /// that holds no record (prose, an image) is not a game; one named on
    /// the command line, or named like a record (`.pgn`, `.xqf`), is
    /// unreadable.
    fn new(input: &Input, reason: UnreadableReason, holds_no_record: bool) -> Stop {
        Stop { reason, no_record: holds_no_record && may_hold_no_record(input), format: None }
    }

    fn of(input: &Input, e: Unreadable) -> Stop {
        Stop { format: Some(e.format.name()), ..Stop::new(input, e.reason, e.holds_no_record) }
    }

    fn event<R>(self) -> Event<R> {
        if self.no_record { Event::NoRecord(self.reason) } else { Event::Unreadable(self.reason) }
    }
}

/// Whether `input` may hold no record without being unreadable: it was
/// found while walking a folder and is not named like a record.
fn may_hold_no_record(input: &Input) -> bool {
    input.found() && !input.named_like_record()
}

/// Work for a thread, or a piece ready at once.
enum Task<'a, R> {
    Ready(Piece<R>),
    Job(Box<dyn FnOnce() -> Piece<R> + Send + 'a>),
}

impl<R> Task<'_, R> {
    fn run(self) -> Piece<R> {
        match self {
            Task::Ready(piece) => piece,
            Task::Job(job) => job(),
        }
    }
}

/// Cuts `inputs` into tasks, in order.
fn produce<'a, V, E>(
    inputs: &'a [Input],
    encoding: Option<Encoding>,
    make: &'a (impl Fn() -> V + Sync),
    submit: &mut dyn FnMut(Task<'a, V::Output>) -> Result<(), E>,
) -> Result<(), E>
where
    V: Visitor,
    V::Output: Send,
{
    let mut i = 0;
    while i < inputs.len() {
        let group = small_files(&inputs[i..]);
        if group > 0 {
            let files = &inputs[i..i + group];
            submit(Task::Job(Box::new(move || {
                let mut visitor = make();
                // One buffer for the bytes of every file of the job.
                let mut bytes = Vec::new();
                Piece::Inputs(
                    files.iter().map(|input| read_whole(input, encoding, &mut visitor, &mut bytes)).collect(),
                )
            })))?;
            i += group;
            continue;
        }
        let input = &inputs[i];
        i += 1;
        let stop = |meta: Meta, stop: Stop| Task::Ready(Piece::Inputs(vec![(meta, Vec::new(), Some(stop))]));
        let mut meta = Meta::of(input);
        let source = match input {
            Input::Problem { reason, .. } => {
                submit(stop(meta, Stop::new(input, reason.clone(), false)))?;
                continue;
            }
            Input::Skipped { reason, .. } => {
                submit(stop(meta, Stop::new(input, reason.clone(), true)))?;
                continue;
            }
            Input::Member(member) if let Some((reason, no_record)) = member.problem() => {
                submit(stop(meta, Stop::new(input, reason.clone(), no_record)))?;
                continue;
            }
            _ => match input.open() {
                Ok(source) => source,
                Err(e) => {
                    submit(stop(meta, Stop::new(input, UnreadableReason::cannot_read(&e), false)))?;
                    continue;
                }
            },
        };
        match stream::split(source, encoding) {
            Err(e) => {
                let stop = Stop::of(input, e);
                meta.format = stop.format.unwrap_or(meta.format);
                submit(Task::Ready(Piece::Inputs(vec![(meta, Vec::new(), Some(stop))])))?;
            }
            Ok(Split::Whole(whole)) => submit(Task::Job(Box::new(move || {
                let mut visitor = make();
                Piece::Inputs(vec![gather(input, meta, &mut visitor, |v, games| {
                    whole.read_with(v, |game| games.push(game))
                })])
            })))?,
            Ok(Split::Chunks(chunks)) => {
                meta.format = chunks.format().name();
                meta.encoding = chunks.encoding().map(Encoding::name);
                submit(Task::Ready(Piece::Begin(meta, chunks.format(), may_hold_no_record(input))))?;
                let mut end = None;
                for chunk in chunks {
                    match chunk {
                        Ok(chunk) => submit(Task::Job(Box::new(move || read_chunk(&chunk, make))))?,
                        Err(e) => {
                            end = Some(Stop::of(input, e));
                            break;
                        }
                    }
                }
                submit(Task::Ready(Piece::End(end)))?;
            }
        }
    }
    Ok(())
}

/// How many inputs from the first are small regular files, to read whole
/// in one job.
fn small_files(inputs: &[Input]) -> usize {
    let mut bytes = 0;
    let mut n = 0;
    for input in inputs.iter().take(GROUP_FILES) {
        // The size the walk saw (a file that grew since is read in pieces:
        // see `read_whole`), else the size now; a member's declared size.
        let len = match input {
            Input::File { path, len, .. } => {
                len.or_else(|| std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.len()))
            }
            Input::Member(member) => member.size(),
            Input::Bytes { bytes, .. } => Some(bytes.len() as u64),
            _ => None,
        };
        let Some(len) = len else { break };
        if len > SMALL_FILE || (n > 0 && bytes + len > GROUP_BYTES) {
            break;
        }
        bytes += len;
        n += 1;
    }
    n
}

/// Reads a whole input with `visitor`, its bytes in `bytes`.
fn read_whole<V: Visitor>(
    input: &Input,
    encoding: Option<Encoding>,
    visitor: &mut V,
    bytes: &mut Vec<u8>,
) -> (Meta, Vec<V::Output>, Option<Stop>) {
    let meta = Meta::of(input);
    match read_small(input, bytes) {
        Ok(true) => {}
        // Grown past the limit since it was looked at: read in pieces.
        Ok(false) => return read_streamed(input, meta, encoding, visitor),
        Err(e) => {
            return (meta, Vec::new(), Some(Stop::new(input, UnreadableReason::cannot_read(&e), false)));
        }
    }
    gather(input, meta, visitor, |v, games| formats::read_with(bytes, encoding, v, |game| games.push(game)))
}

/// The games `read` reads of a whole input with `visitor`.
fn gather<V: Visitor>(
    input: &Input,
    mut meta: Meta,
    visitor: &mut V,
    read: impl FnOnce(&mut V, &mut Vec<V::Output>) -> Result<formats::Read, formats::Unreadable>,
) -> (Meta, Vec<V::Output>, Option<Stop>) {
    let mut games = Vec::new();
    match read(visitor, &mut games) {
        Ok(read) => {
            meta.read(read);
            (meta, games, None)
        }
        Err(e) => {
            meta.format = e.format.name();
            (meta, Vec::new(), Some(Stop::of(input, e)))
        }
    }
}

/// The games of an input read a piece at a time, all on this thread.
fn read_streamed<V: Visitor>(
    input: &Input,
    mut meta: Meta,
    encoding: Option<Encoding>,
    visitor: &mut V,
) -> (Meta, Vec<V::Output>, Option<Stop>) {
    let source = match input.open() {
        Ok(source) => source,
        Err(e) => {
            return (meta, Vec::new(), Some(Stop::new(input, UnreadableReason::cannot_read(&e), false)));
        }
    };
    let mut games = Vec::new();
    match stream::read_stream_with(source, encoding, visitor, |game| games.push(game)) {
        Ok(read) => {
            meta.read(read);
            (meta, games, None)
        }
        // The games before an error are kept: those before a cut.
        Err(e) => {
            if games.is_empty() {
                meta.format = e.format.name();
            }
            (meta, games, Some(Stop::of(input, e)))
        }
    }
}

/// Reads a regular file of at most [`SMALL_FILE`] bytes into `bytes`
/// (emptied first); `false` when it has grown larger, or its data is cut
/// short (read in pieces then, which keeps the games before the cut).
fn read_small(input: &Input, bytes: &mut Vec<u8>) -> std::io::Result<bool> {
    use std::io::Read;
    bytes.clear();
    if let Input::File { path, len, .. } = input {
        // Straight into the buffer, which has room for the size the walk
        // saw: no reader between, no copy. Gzip data is read again below,
        // inflated.
        let mut file = std::fs::File::open(path)?;
        bytes.reserve(len.unwrap_or(0).min(SMALL_FILE) as usize + 1);
        file.by_ref().take(SMALL_FILE + 1).read_to_end(bytes)?;
        if !super::gunzip::starts_like_gzip(bytes) {
            return Ok(bytes.len() as u64 <= SMALL_FILE);
        }
        bytes.clear();
    }
    let mut file = input.open()?;
    match file.by_ref().take(SMALL_FILE + 1).read_to_end(bytes) {
        // Cut short: read in pieces, which reads the games before the cut.
        Err(e) if stream::CutShort::of(&e).is_some() => Ok(false),
        read => read.map(|_| bytes.len() as u64 <= SMALL_FILE),
    }
}

/// The games of a chunk.
fn read_chunk<V: Visitor>(chunk: &Chunk, make: &impl Fn() -> V) -> Piece<V::Output> {
    let mut visitor = make();
    let mut games = Vec::new();
    let mut first_game = None;
    chunk.read_with(&mut visitor, |game, looks| {
        if looks && first_game.is_none() {
            first_game = Some(games.len());
        }
        games.push(game);
    });
    Piece::Chunk(games, first_game)
}

/// The pieces, in order, made into events for the sink.
struct Order<'s, R, S> {
    sink: &'s mut S,
    /// The chunked input being read: its meta, the games held until one
    /// looks like a game, and how many games were handed on.
    stream: Option<Stream<R>>,
}

/// A chunked input being read.
struct Stream<R> {
    meta: Meta,
    /// Whether it may hold no record without being unreadable.
    may_hold_no_record: bool,
    format: detect::Format,
    /// The games held until one looks like a game.
    held: formats::Held<R>,
    /// How many games were handed on.
    first: usize,
}

impl<R, E, S: FnMut(&Meta, Event<R>) -> Result<(), E>> Order<'_, R, S> {
    fn take(&mut self, piece: Piece<R>) -> Result<(), E> {
        match piece {
            Piece::Inputs(inputs) => {
                for (meta, games, stop) in inputs {
                    if !games.is_empty() {
                        (self.sink)(&meta, Event::Games { first: 0, games })?;
                    }
                    if let Some(stop) = stop {
                        (self.sink)(&meta, stop.event())?;
                    }
                    (self.sink)(&meta, Event::Done)?;
                }
            }
            Piece::Begin(meta, format, may_hold_no_record) => {
                self.stream = Some(Stream {
                    meta,
                    may_hold_no_record,
                    format,
                    held: formats::Held::default(),
                    first: 0,
                })
            }
            Piece::Chunk(games, first_game) => {
                let stream = self.stream.as_mut().expect("a chunk comes after its input begins");
                // Games are held until one looks like a game: a text of
                // which none does holds no record.
                let games = stream.held.take_chunk(games, first_game);
                if !games.is_empty() {
                    let n = games.len();
                    (self.sink)(&stream.meta, Event::Games { first: stream.first, games })?;
                    stream.first += n;
                }
            }
            Piece::End(stop) => {
                let Stream { meta, may_hold_no_record, held, format, .. } =
                    self.stream.take().expect("an input ends after it begins");
                let unreadable = match held.end() {
                    _ if stop.is_some() => None,
                    None => Some(stream::no_game(format)),
                    Some(false) => Some(formats::not_a_game(format)),
                    Some(true) => None,
                };
                let stop = stop.or(unreadable.map(|e| Stop {
                    no_record: e.holds_no_record && may_hold_no_record,
                    reason: e.reason,
                    format: None,
                }));
                if let Some(stop) = stop {
                    (self.sink)(&meta, stop.event())?;
                }
                (self.sink)(&meta, Event::Done)?;
            }
        }
        Ok(())
    }
}

/// The pool of `threads` threads: made on the first batch that asks for
/// that many and kept for the next ones (a program that runs a batch a
/// file, as a Python loop over `qipu.read(path)` does, pays for starting
/// threads once, not per batch). `None` when no thread can be started.
#[cfg(feature = "parallel")]
fn pool(threads: usize) -> Option<std::sync::Arc<rayon::ThreadPool>> {
    use std::sync::{Arc, Mutex, OnceLock};
    /// The pools made so far, by their number of threads.
    type Pools = Vec<(usize, Arc<rayon::ThreadPool>)>;
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    let mut pools = POOLS.get_or_init(Mutex::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, pool)) = pools.iter().find(|(n, _)| *n == threads) {
        return Some(pool.clone());
    }
    let pool = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok()?);
    pools.push((threads, pool.clone()));
    Some(pool)
}

/// Runs the tasks `produce` submits on `threads` threads, at most a few
/// more than the threads at once, and hands what they give to `take` in
/// the order they were submitted.
#[cfg(feature = "parallel")]
fn in_parallel<'a, R: Send + 'a, E>(
    threads: usize,
    produce: impl FnOnce(&mut dyn FnMut(Task<'a, R>) -> Result<(), E>) -> Result<(), E>,
    mut take: impl FnMut(Piece<R>) -> Result<(), E>,
) -> Result<(), E> {
    let Some(pool) = pool(threads) else {
        // No threads to be had: the work is done here.
        return produce(&mut |task| take(task.run()));
    };
    let window = threads + 2;
    pool.in_place_scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel::<(usize, std::thread::Result<Piece<R>>)>();
        // Pieces from `next_out` on, in order, as they come.
        let mut waiting: std::collections::VecDeque<Option<Piece<R>>> = Default::default();
        let mut next_out = 0;
        let mut flush = |waiting: &mut std::collections::VecDeque<Option<Piece<R>>>,
                         next_out: &mut usize|
         -> Result<(), E> {
            while let Some(Some(_)) = waiting.front() {
                let piece = waiting.pop_front().flatten().expect("a piece");
                *next_out += 1;
                take(piece)?;
            }
            Ok(())
        };
        let mut result = produce(&mut |task| {
            while waiting.len() >= window {
                let (k, piece) = rx.recv().expect("a job under way sends what it gives");
                waiting[k - next_out] = Some(piece.unwrap_or_else(|p| std::panic::resume_unwind(p)));
                flush(&mut waiting, &mut next_out)?;
            }
            let k = next_out + waiting.len();
            match task {
                Task::Ready(piece) => waiting.push_back(Some(piece)),
                Task::Job(job) => {
                    waiting.push_back(None);
                    let tx = tx.clone();
                    scope.spawn(move |_| {
                        // The receiver is gone when the batch stopped early.
                        let piece = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                        let _ = tx.send((k, piece));
                    });
                }
            }
            flush(&mut waiting, &mut next_out)
        });
        while result.is_ok() && !waiting.is_empty() {
            let (k, piece) = rx.recv().expect("a job under way sends what it gives");
            waiting[k - next_out] = Some(piece.unwrap_or_else(|p| std::panic::resume_unwind(p)));
            result = flush(&mut waiting, &mut next_out);
        }
        result
    })
}

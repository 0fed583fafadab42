//! Reading the inputs of a batch command into records, a batch at a time.

use super::Failure;
use super::input::Input;
use qipu::formats::{self, encoding::Encoding};
use qipu::record::Record;

/// Games read and replayed per batch: enough to keep every core busy, few
/// enough that a batch's records (about 6 KB a game) are still in cache
/// when they are replayed. 128 measured fastest on one and on two threads
/// (against 256, 512 and 1024).
const BATCH: usize = 128;

/// What is known of an input besides its records.
#[derive(Debug, Clone)]
pub struct Meta {
    /// The input's name in text reports (escaped: see `input::escaped_name`).
    pub source: String,
    /// The input's name for JSON: exact when it is UTF-8, else escaped.
    pub json_source: String,
    /// Whether `json_source` is escaped (the name is not UTF-8).
    pub source_escaped: bool,
    /// The format detected (`"unknown"` when the input could not be read).
    pub format: &'static str,
    /// The text encoding, for text formats.
    pub encoding: Option<&'static str>,
}

impl Meta {
    /// What is known of `input` before it is read.
    fn of(input: &Input) -> Meta {
        let (json_source, source_escaped) = input.json_name();
        Meta { source: input.name(), json_source, source_escaped, format: "unknown", encoding: None }
    }
}

/// Files up to this size are read whole, many at a time in parallel;
/// larger ones are streamed in batches.
const SMALL_FILE: u64 = 1 << 20;

/// Files are taken this many at a time: each is read whole when it is
/// small, on the pool, and streamed in batches in its turn when not.
const FILE_RUN: usize = 256;

/// What a command is told about one input, in input order.
#[derive(Debug)]
pub enum Event<R> {
    /// The results of some of its records, in order.
    Results(Vec<R>),
    /// Nothing can be read from it, and why.
    Unreadable(String),
    /// It was found while walking a folder and holds no record at all
    /// (prose, an empty file, a pipe), and why: not a game, not a problem.
    NoRecord(String),
    /// It is finished.
    Done,
}

/// Where a command's results go, in input order.
type Sink<'a, R> = dyn FnMut(&Meta, Event<R>) -> Result<(), Failure> + 'a;

/// Runs `work` on every record of every input (with the record's index in
/// its input) and hands the results to `sink` in input order. Work runs on
/// the pool: across many small files at once, and across the batches of a
/// large file. An error of `sink` (such as a closed output) stops it all
/// and is returned.
pub fn each_input<R: Send>(
    inputs: &[Input],
    encoding: Option<Encoding>,
    pool: &rayon::ThreadPool,
    work: impl Fn(&Meta, usize, &Record) -> R + Sync + Send,
    mut sink: impl FnMut(&Meta, Event<R>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let one_thread = pool.current_num_threads() == 1;
    let stream = |input: &Input, sink: &mut Sink<'_, R>| {
        let read = each_batch(input, encoding, one_thread, |meta, first, records| {
            let results = super::map_in_order(pool, &records, |k, record| work(meta, first + k, record));
            sink(meta, Event::Results(results))
        })?;
        match read {
            Ok(meta) => sink(&meta, Event::Done),
            Err((meta, problem)) => {
                sink(&meta, problem.event(input))?;
                sink(&meta, Event::Done)
            }
        }
    };
    let mut i = 0;
    while i < inputs.len() {
        // A run of files: the small ones are read whole, side by side; each
        // large one is streamed in its turn.
        let run =
            inputs[i..].iter().take(FILE_RUN).take_while(|input| matches!(input, Input::File { .. })).count();
        if run == 0 {
            stream(&inputs[i], &mut sink)?;
            i += 1;
            continue;
        }
        let read = super::map_in_order(pool, &inputs[i..i + run], |_, input| whole(input, encoding, &work));
        for (input, read) in inputs[i..i + run].iter().zip(read) {
            match read {
                Some((meta, Ok(results))) => {
                    sink(&meta, Event::Results(results))?;
                    sink(&meta, Event::Done)?;
                }
                Some((meta, Err(problem))) => {
                    sink(&meta, problem.event(input))?;
                    sink(&meta, Event::Done)?;
                }
                None => stream(input, &mut sink)?,
            }
        }
        i += run;
    }
    Ok(())
}

/// Why an input gives no record.
#[derive(Debug)]
struct Problem {
    reason: String,
    holds_no_record: bool,
}

impl Problem {
    fn cannot_read(e: &std::io::Error) -> Problem {
        Problem { reason: format!("cannot read: {e}"), holds_no_record: false }
    }

    /// The event of `input` giving no record: a file found while walking a
    /// folder that holds no record (prose, an image) is not a game; one
    /// named on the command line, or named like a record (`.pgn`, `.xqf`),
    /// is unreadable.
    fn event<R>(self, input: &Input) -> Event<R> {
        let record_name = input.path().is_some_and(formats::detect::has_record_extension);
        if self.holds_no_record && input.found() && !record_name {
            Event::NoRecord(self.reason)
        } else {
            Event::Unreadable(self.reason)
        }
    }
}

impl From<formats::Unreadable> for Problem {
    fn from(e: formats::Unreadable) -> Problem {
        Problem { reason: e.reason, holds_no_record: e.holds_no_record }
    }
}

/// Reads a whole input and runs `work` on its records; `None` when it is
/// a file larger than [`SMALL_FILE`], to be streamed instead.
fn whole<R>(
    input: &Input,
    encoding: Option<Encoding>,
    work: &(impl Fn(&Meta, usize, &Record) -> R + Sync),
) -> Option<(Meta, Result<Vec<R>, Problem>)> {
    let mut meta = Meta::of(input);
    let read = match input {
        Input::File { path, .. } => read_small(path),
        _ => return None,
    };
    let bytes = match read {
        Ok(Some(b)) => b,
        Ok(None) => return None,
        Err(e) => return Some((meta, Err(Problem::cannot_read(&e)))),
    };
    match formats::read(&bytes, encoding) {
        Ok(parsed) => {
            meta.format = parsed.format.name();
            meta.encoding = parsed.encoding.map(Encoding::name);
            let results = parsed.records.iter().enumerate().map(|(k, r)| work(&meta, k, r)).collect();
            Some((meta, Ok(results)))
        }
        Err(e) => {
            meta.format = e.format.name();
            Some((meta, Err(e.into())))
        }
    }
}

/// The bytes of a regular file of at most [`SMALL_FILE`] bytes; `None`
/// when it is larger, or not a regular file (a pipe, a device: its size
/// says nothing, and it is streamed in bounded memory instead).
fn read_small(path: &std::path::Path) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() || meta.len() > SMALL_FILE {
        return Ok(None);
    }
    let mut file = std::fs::File::open(path)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
    // A file that grew since: read no more than the limit and one byte.
    (&mut file).take(SMALL_FILE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > SMALL_FILE {
        return Ok(None);
    }
    Ok(Some(bytes))
}

/// Reads one input and hands its records to `f` in batches, with the index
/// of the batch's first game. Returns `Ok(Err(meta, reason))` when the
/// input is unreadable; an error of `f` (such as a closed output) stops
/// the reading and is returned.
fn each_batch(
    input: &Input,
    encoding: Option<Encoding>,
    one_thread: bool,
    mut f: impl FnMut(&Meta, usize, Vec<Record>) -> Result<(), Failure>,
) -> Result<Result<Meta, (Meta, Problem)>, Failure> {
    let mut meta = Meta::of(input);
    let source = match input {
        Input::Problem { reason, .. } => {
            return Ok(Err((meta, Problem { reason: reason.clone(), holds_no_record: false })));
        }
        Input::Skipped { reason, .. } => {
            return Ok(Err((meta, Problem { reason: reason.clone(), holds_no_record: true })));
        }
        _ => match input.open() {
            Ok(s) => s,
            Err(e) => return Ok(Err((meta, Problem::cannot_read(&e)))),
        },
    };
    let mut first = 0;
    let mut failure = None;
    let mut hand_on =
        |meta: &mut Meta, format: formats::detect::Format, enc: Option<Encoding>, records: Vec<Record>| {
            if failure.is_some() {
                return;
            }
            meta.format = format.name();
            meta.encoding = enc.map(Encoding::name);
            let n = records.len();
            if let Err(e) = f(meta, first, records) {
                failure = Some(e);
            }
            first += n;
        };
    // With one job, everything runs on this thread. Otherwise reading runs
    // on its own thread, a batch or two ahead of the replay. Either way a
    // large PGN text is read a piece at a time, in bounded memory.
    let read = if one_thread {
        formats::stream::read_stream(source, encoding, BATCH, |format, enc, records| {
            hand_on(&mut meta, format, enc, records)
        })
    } else {
        std::thread::scope(|scope| {
            let (tx, rx) = std::sync::mpsc::sync_channel(2);
            let reader = scope.spawn(move || {
                formats::stream::read_stream(source, encoding, BATCH, |format, enc, records| {
                    // A closed channel means the consumer stopped; drop the rest.
                    let _ = tx.send((format, enc, records));
                })
            });
            for (format, enc, records) in rx {
                hand_on(&mut meta, format, enc, records);
            }
            reader.join().expect("the reading thread does not panic")
        })
    };
    if let Some(e) = failure {
        return Err(e);
    }
    match read {
        Ok(_) => Ok(Ok(meta)),
        Err(e) => {
            meta.format = e.format.name();
            Ok(Err((meta, e.into())))
        }
    }
}

//! Reading the inputs of a batch command into records, a batch at a time.

use super::Failure;
use super::input::Input;
use crate::formats::{self, encoding::Encoding};
use crate::record::Record;

/// Games read and replayed per batch: enough to keep every core busy, few
/// enough that a batch's records (about 6 KB a game) are still in cache
/// when they are replayed. 128 measured fastest on one and on two threads
/// (against 256, 512 and 1024).
const BATCH: usize = 128;

/// What is known of an input besides its records.
#[derive(Debug, Clone)]
pub struct Meta {
    /// The input's name in reports.
    pub source: String,
    /// The format detected (`"unknown"` when the input could not be read).
    pub format: &'static str,
    /// The text encoding, for text formats.
    pub encoding: Option<&'static str>,
}

/// Files up to this size are read whole, many at a time in parallel;
/// larger ones are streamed in batches.
const SMALL_FILE: u64 = 1 << 20;

/// At most this many small files, and this many bytes of them, are in
/// flight at once.
const SMALL_RUN_FILES: usize = 256;
const SMALL_RUN_BYTES: u64 = 32 << 20;

/// What a command is told about one input, in input order.
#[derive(Debug)]
pub enum Event<R> {
    /// The results of some of its records, in order.
    Results(Vec<R>),
    /// Nothing can be read from it, and why.
    Unreadable(String),
    /// It is finished.
    Done,
}

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
    let mut i = 0;
    while i < inputs.len() {
        let run = small_run(&inputs[i..]);
        if run > 0 {
            let whole =
                super::map_in_order(pool, &inputs[i..i + run], |_, input| whole(input, encoding, &work));
            for (meta, results) in whole {
                match results {
                    Ok(results) => sink(&meta, Event::Results(results))?,
                    Err(reason) => sink(&meta, Event::Unreadable(reason))?,
                }
                sink(&meta, Event::Done)?;
            }
            i += run;
            continue;
        }
        let read = each_batch(&inputs[i], encoding, |meta, first, records| {
            let results = super::map_in_order(pool, &records, |k, record| work(meta, first + k, record));
            sink(meta, Event::Results(results))
        })?;
        match read {
            Ok(meta) => sink(&meta, Event::Done)?,
            Err((meta, reason)) => {
                sink(&meta, Event::Unreadable(reason))?;
                sink(&meta, Event::Done)?;
            }
        }
        i += 1;
    }
    Ok(())
}

/// How many of the first inputs are small files, to be read whole.
fn small_run(inputs: &[Input]) -> usize {
    let mut bytes = 0;
    let mut n = 0;
    for input in inputs.iter().take(SMALL_RUN_FILES) {
        let Input::File(path) = input else { break };
        match std::fs::metadata(path) {
            Ok(m) if m.len() <= SMALL_FILE && bytes + m.len() <= SMALL_RUN_BYTES => bytes += m.len(),
            // Unreadable metadata: the file is reported when it is read.
            Err(_) => {}
            Ok(_) => break,
        }
        n += 1;
    }
    n
}

/// Reads a whole input and runs `work` on its records.
fn whole<R>(
    input: &Input,
    encoding: Option<Encoding>,
    work: &(impl Fn(&Meta, usize, &Record) -> R + Sync),
) -> (Meta, Result<Vec<R>, String>) {
    let mut meta = Meta { source: input.name(), format: "unknown", encoding: None };
    let bytes = match input.read() {
        Ok(b) => b,
        Err(e) => return (meta, Err(format!("cannot read: {e}"))),
    };
    match formats::read(&bytes, encoding) {
        Ok(parsed) => {
            meta.format = parsed.format.name();
            meta.encoding = parsed.encoding.map(Encoding::name);
            let results = parsed.records.iter().enumerate().map(|(k, r)| work(&meta, k, r)).collect();
            (meta, Ok(results))
        }
        Err(e) => {
            meta.format = e.format.name();
            (meta, Err(e.reason))
        }
    }
}

/// Reads one input and hands its records to `f` in batches, with the index
/// of the batch's first game. Returns `Ok(Err(meta, reason))` when the
/// input is unreadable; an error of `f` (such as a closed output) stops
/// the reading and is returned.
fn each_batch(
    input: &Input,
    encoding: Option<Encoding>,
    mut f: impl FnMut(&Meta, usize, Vec<Record>) -> Result<(), Failure>,
) -> Result<Result<Meta, (Meta, String)>, Failure> {
    let mut meta = Meta { source: input.name(), format: "unknown", encoding: None };
    let source = match input.open() {
        Ok(s) => s,
        Err(e) => return Ok(Err((meta, format!("cannot read: {e}")))),
    };
    let mut first = 0;
    let mut failure = None;
    // Reading runs on its own thread, a batch or two ahead of the replay;
    // a large PGN text is read a piece at a time, in bounded memory.
    let read = std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel(2);
        let reader = scope.spawn(move || {
            formats::stream::read_stream(source, encoding, BATCH, |format, enc, records| {
                // A closed channel means the consumer stopped; drop the rest.
                let _ = tx.send((format, enc, records));
            })
        });
        for (format, enc, records) in rx {
            if failure.is_some() {
                continue;
            }
            meta.format = format.name();
            meta.encoding = enc.map(Encoding::name);
            let n = records.len();
            if let Err(e) = f(&meta, first, records) {
                failure = Some(e);
            }
            first += n;
        }
        reader.join().expect("the reading thread does not panic")
    });
    if let Some(e) = failure {
        return Err(e);
    }
    match read {
        Ok(_) => Ok(Ok(meta)),
        Err(e) => {
            meta.format = e.format.name();
            Ok(Err((meta, e.reason)))
        }
    }
}

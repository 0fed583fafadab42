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

/// Reads one input and hands its records to `f` in batches, with the index
/// of the batch's first game. Returns `Ok(Err(meta, reason))` when the
/// input is unreadable; an error of `f` (such as a closed output) stops
/// the reading and is returned.
pub fn each_batch(
    input: &Input,
    encoding: Option<Encoding>,
    mut f: impl FnMut(&Meta, usize, Vec<Record>) -> Result<(), Failure>,
) -> Result<Result<(), (Meta, String)>, Failure> {
    let mut meta = Meta { source: input.name(), format: "unknown", encoding: None };
    let bytes = match input.read() {
        Ok(b) => b,
        Err(e) => return Ok(Err((meta, format!("cannot read: {e}")))),
    };
    let mut first = 0;
    let mut failure = None;
    // Reading runs on its own thread, a batch or two ahead of the replay.
    let read = std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel(2);
        let reader = scope.spawn(move || {
            formats::read_in_batches(&bytes, encoding, BATCH, |format, enc, records| {
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
        Ok(_) => Ok(Ok(())),
        Err(e) => {
            meta.format = e.format.name();
            Ok(Err((meta, e.reason)))
        }
    }
}

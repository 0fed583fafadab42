//! Reading the inputs of a batch command into records.

use super::input::Input;
use crate::formats::{self, encoding::Encoding};
use crate::record::Record;

/// The records of one input, or why there are none.
#[derive(Debug)]
pub struct Loaded {
    /// The input's name in reports.
    pub source: String,
    /// The format detected (`"unknown"` when the input could not be read).
    pub format: &'static str,
    /// The text encoding, for text formats.
    pub encoding: Option<&'static str>,
    /// The records, or why the input is unreadable.
    pub records: Result<Vec<Record>, String>,
}

/// Reads and parses one input.
pub fn load(input: &Input, encoding: Option<Encoding>) -> Loaded {
    let source = input.name();
    let bytes = match input.read() {
        Ok(b) => b,
        Err(e) => {
            return Loaded {
                source,
                format: "unknown",
                encoding: None,
                records: Err(format!("cannot read: {e}")),
            };
        }
    };
    match formats::read(&bytes, encoding) {
        Err(e) => Loaded { source, format: e.format.name(), encoding: None, records: Err(e.reason) },
        Ok(p) if p.records.is_empty() => Loaded {
            source,
            format: p.format.name(),
            encoding: p.encoding.map(Encoding::name),
            records: Err("no game found".into()),
        },
        Ok(p) => Loaded {
            source,
            format: p.format.name(),
            encoding: p.encoding.map(Encoding::name),
            records: Ok(p.records),
        },
    }
}

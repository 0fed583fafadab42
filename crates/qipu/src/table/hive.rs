//! Hive-style partitions of a table: a folder `key=value` for each value
//! of a column (`year=1990`), as DuckDB's and Polars' readers find them.
//!
//! ```
//! use qipu::table::hive::{Partition, folder};
//! assert_eq!(folder(Partition::Year, Some("1990")), "year=1990");
//! assert_eq!(folder(Partition::Event, Some("a/b: 1=1")), "event=a%2Fb%3A 1%3D1");
//! assert_eq!(folder(Partition::Event, None), "event=__HIVE_DEFAULT_PARTITION__");
//! ```

use crate::batch::{Checked, Meta};
use crate::record::date::PartialDate;

/// The folder name of a null (or empty) value, as Hive and its readers
/// write it.
pub const DEFAULT_PARTITION: &str = "__HIVE_DEFAULT_PARTITION__";

/// The most bytes of a value in a folder's name: within the 255 bytes of
/// a name, with room for the key and a hash.
const MAX_VALUE: usize = 200;

/// The column a table is partitioned by.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Partition {
    /// The input's name (`source`).
    Source,
    /// The year of the `Date` tag (`year`).
    Year,
    /// The `Event` tag (`event`).
    Event,
}

impl Partition {
    /// The column's name, the key of its folders.
    pub fn key(self) -> &'static str {
        match self {
            Partition::Source => "source",
            Partition::Year => "year",
            Partition::Event => "event",
        }
    }

    /// The value of a game (read with every tag kept) for this partition.
    pub fn value<T>(self, meta: &Meta, game: &Checked<T>) -> Option<String> {
        match self {
            Partition::Source => Some(meta.json_source.clone()),
            Partition::Year => game.tag("Date").and_then(PartialDate::read).map(|d| d.year.to_string()),
            Partition::Event => game.tag("Event").map(str::to_string),
        }
    }
}

/// The folder of `value` for `partition`: `key=value`, the value escaped
/// as Hive escapes it (`%` and two hex digits for each byte of a control
/// character and of `"#%'*/:=?\{[]^<>|`), [`DEFAULT_PARTITION`] for none
/// or an empty one. A value longer than 200 bytes escaped is cut there and
/// ends in `~` and a hash of the whole value, so that two values never
/// share a folder.
pub fn folder(partition: Partition, value: Option<&str>) -> String {
    let mut name = String::with_capacity(32);
    name.push_str(partition.key());
    name.push('=');
    match value.filter(|v| !v.is_empty()) {
        None => name.push_str(DEFAULT_PARTITION),
        Some(value) => {
            let escaped = escape(value);
            if escaped.len() <= MAX_VALUE {
                name.push_str(&escaped);
            } else {
                // Not within a character, nor within a `%XX`.
                let bytes = escaped.as_bytes();
                let mut cut = MAX_VALUE;
                while !escaped.is_char_boundary(cut) || bytes[cut - 1] == b'%' || bytes[cut - 2] == b'%' {
                    cut -= 1;
                }
                name.push_str(&escaped[..cut]);
                name.push('~');
                name.push_str(&format!("{:016x}", hash(value)));
            }
        }
    }
    name
}

/// `value` with the bytes Hive escapes in a folder's name written `%XX`.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        let escaped = c.is_control() || "\"#%'*/:=?\\{[]^<>|".contains(c);
        if escaped {
            let mut bytes = [0; 4];
            for b in c.encode_utf8(&mut bytes).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A 64-bit FNV-1a hash of `text`.
fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_escaped_and_long_ones_cut_apart() {
        assert_eq!(folder(Partition::Source, Some("a\\b.pgn")), "source=a%5Cb.pgn");
        assert_eq!(folder(Partition::Source, Some("象棋/x.pgn")), "source=象棋%2Fx.pgn");
        assert_eq!(folder(Partition::Event, Some("")), "event=__HIVE_DEFAULT_PARTITION__");
        assert_eq!(folder(Partition::Event, Some("\n")), "event=%0A");
        let (a, b) = ("/".repeat(300), format!("{}x", "/".repeat(299)));
        let (fa, fb) = (folder(Partition::Event, Some(&a)), folder(Partition::Event, Some(&b)));
        assert_ne!(fa, fb);
        assert!(fa.len() < 255 && fb.len() < 255, "{fa}");
        assert!(!fa.contains('/'));
        let long = "象".repeat(100);
        assert!(folder(Partition::Event, Some(&long)).len() < 255);
    }
}

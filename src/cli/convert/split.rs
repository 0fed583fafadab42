//! `qipu convert --split N` and `--split-by KEY`: the games written into
//! several files named after `-o NAME.EXT`: `NAME-0001.EXT`, `NAME-0002.EXT`,
//! … (N games each), or `NAME-VALUE.EXT` (one per value of the key, made
//! safe for every file system). Games go to their file in input order;
//! values that give the same name (the same but for case, cut alike, with
//! characters replaced alike) share a file, named after the first seen.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::cli::Failure;
use crate::cli::output::{InputFiles, OutputError, Parts, safe_value, told_parts};
use qipu::record::{GameResult, Record};

/// What `--split-by` makes one file per value of.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SplitKey {
    /// The ECCO tag (with --set-ecco, the code computed from the moves).
    Ecco,
    /// The Event tag.
    Event,
    /// The result: 1-0, 0-1, draw or unknown.
    Result,
    /// The Red tag (Red's player).
    Red,
    /// The Black tag (Black's player).
    Black,
    /// The first four-digit year of the Date tag.
    Year,
    /// The input file's name without its extension.
    Source,
}

/// The most bytes of a value in a file name: room to spare in the 255 bytes
/// of a name, and short enough to read.
const MAX_VALUE: usize = 100;

/// The fewest digits of a part's number.
const DIGITS: usize = 4;

/// A game's value for `key`, from its tags and result; `None` for a value
/// it lacks (written to `NAME-unknown.EXT`) and for [`SplitKey::Source`],
/// which the input gives.
pub fn value(key: SplitKey, record: &Record) -> Option<String> {
    let tag = |name: &str| record.tag(name).map(str::to_string);
    match key {
        SplitKey::Ecco => tag("ECCO"),
        SplitKey::Event => tag("Event"),
        SplitKey::Red => tag("Red"),
        SplitKey::Black => tag("Black"),
        SplitKey::Result => match record.result()? {
            GameResult::RedWins => Some("1-0".into()),
            GameResult::BlackWins => Some("0-1".into()),
            GameResult::Draw => Some("draw".into()),
            GameResult::Unknown => None,
        },
        SplitKey::Year => record.tag("Date").and_then(year),
        SplitKey::Source => None,
    }
}

/// The year of a date as records write it (see
/// [`qipu::select::PartialDate::read`], which `--date` uses too).
fn year(date: &str) -> Option<String> {
    qipu::select::PartialDate::read(date).map(|d| d.year.to_string())
}

/// The stem of an input's name (`games` for `dir/games.pgn`).
fn source_stem(source: &str) -> String {
    Path::new(source).file_stem().map_or_else(|| source.to_string(), |s| s.to_string_lossy().into_owned())
}

/// How games are shared out among the files.
enum How {
    /// `n` games a file; how many the last file holds.
    Every { n: usize, in_last: usize },
    /// A file per value of `key`, by its name folded to lower case.
    By { key: SplitKey, files: HashMap<String, usize> },
}

/// The files of `--split` or `--split-by`, being written.
pub struct Split {
    parts: Parts,
    how: How,
}

impl Split {
    /// The split asked for, if any, into files named after `output`.
    pub fn new(
        every: Option<usize>,
        by: Option<SplitKey>,
        output: Option<&Path>,
        force: bool,
        inputs: &[qipu::batch::Input],
    ) -> Result<Option<Split>, Failure> {
        let how = match (every, by) {
            (None, None) => return Ok(None),
            (Some(0), _) => return Err(Failure::usage("--split must be at least 1")),
            (Some(n), _) => How::Every { n, in_last: 0 },
            (None, Some(key)) => How::By { key, files: HashMap::new() },
        };
        let Some(output) = output else {
            return Err(Failure::usage("--split and --split-by write files: give -o NAME.EXT"));
        };
        if output.as_os_str() == "-" {
            return Err(Failure::usage("--split and --split-by write files: give -o NAME.EXT, not -"));
        }
        let usage = |why: &str| Failure::usage(format!("{}: {why}", output.display()));
        let parts = Parts::new(output, force, InputFiles::of(inputs)).map_err(|e| match e {
            OutputError::NotAFile { .. } => {
                usage("--split and --split-by write files named after -o NAME.EXT; this is not a file name")
            }
            OutputError::NoFileName { .. } => usage("--split and --split-by need -o NAME.EXT, a file name"),
            e => failed(&e),
        })?;
        if parts.label_room(MAX_VALUE) < 16 {
            return Err(Failure::usage(format!("{}: too long a name to add values to", output.display())));
        }
        Ok(Some(Split { parts, how }))
    }

    /// Whether games need their tag value ([`value`]) for this split.
    pub fn by(&self) -> Option<SplitKey> {
        match self.how {
            How::By { key, .. } => Some(key),
            How::Every { .. } => None,
        }
    }

    /// Writes a game's bytes into its file: the next of `--split`, or that
    /// of its `value` (for [`SplitKey::Source`], the stem of `source`).
    pub fn write(&mut self, value: Option<&str>, source: &str, bytes: &[u8]) -> Result<(), Failure> {
        let k = match &mut self.how {
            How::Every { n, in_last } => {
                if self.parts.is_empty() || *in_last == *n {
                    *in_last = 0;
                    let label = format!("{:0DIGITS$}", self.parts.len() + 1);
                    self.parts.add(label).map_err(|e| failed(&e))?;
                }
                *in_last += 1;
                self.parts.len() - 1
            }
            How::By { key, files } => {
                let stem;
                let value = match key {
                    SplitKey::Source => {
                        stem = source_stem(source);
                        Some(stem.as_str())
                    }
                    _ => value,
                };
                let label = safe_value(value, self.parts.label_room(MAX_VALUE));
                let folded = label.to_lowercase();
                match files.get(&folded) {
                    Some(&k) => k,
                    None => {
                        let k = self.parts.add(label).map_err(|e| failed(&e))?;
                        files.insert(folded, k);
                        k
                    }
                }
            }
        };
        self.parts.write(k, bytes).map_err(|e| failed(&e))
    }

    /// Completes the files and names them; returns them in order. Parts
    /// are numbered with four digits, or as many as the last needs, so that
    /// the names sort in order.
    pub fn finish(mut self) -> Result<Vec<PathBuf>, Failure> {
        if let How::Every { .. } = self.how {
            let width = self.parts.len().to_string().len().max(DIGITS);
            if width > DIGITS {
                for k in 0..self.parts.len() {
                    self.parts.relabel(k, format!("{:0width$}", k + 1));
                }
            }
        }
        self.parts.finish().map_err(|e| failed(&e))
    }
}

/// An error of the split's files, a usage error (exit code 2).
fn failed(e: &OutputError) -> Failure {
    Failure::usage(told_parts(e))
}

/// The line that tells the files written: `N file(s) written: FIRST … LAST`
/// (the names sorted).
pub fn told(files: &[PathBuf]) -> String {
    let mut names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    names.sort();
    match names.as_slice() {
        [] => "0 files written".to_string(),
        [one] => format!("1 file written: {one}"),
        [first, .., last] => format!("{} files written: {first} … {last}", names.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_are_read_as_selection_reads_dates() {
        assert_eq!(year("1990.05.12").as_deref(), Some("1990"));
        assert_eq!(year("12/05/1990").as_deref(), Some("1990"));
        assert_eq!(year("19900512").as_deref(), Some("1990"));
        assert_eq!(year("1990年5月").as_deref(), Some("1990"));
        assert_eq!(year("５月 2001").as_deref(), Some("2001"));
        assert_eq!(year("96-12-18").as_deref(), Some("1996"));
        assert_eq!(year("????.??.??"), None);
    }

    #[test]
    fn values_come_from_tags_and_the_result() {
        let mut record = Record::default();
        record.set_tag("Red", "许银川");
        record.set_tag("Date", "2004.10.01");
        record.set_tag("Result", "1/2-1/2");
        assert_eq!(value(SplitKey::Red, &record).as_deref(), Some("许银川"));
        assert_eq!(value(SplitKey::Black, &record), None);
        assert_eq!(value(SplitKey::Year, &record).as_deref(), Some("2004"));
        assert_eq!(value(SplitKey::Result, &record).as_deref(), Some("draw"));
        record.set_tag("Result", "*");
        assert_eq!(value(SplitKey::Result, &record), None);
        assert_eq!(source_stem("dir/games.pgn"), "games");
    }
}

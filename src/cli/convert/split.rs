//! `qipu convert --split N` and `--split-by KEY`: the games written into
//! several files named after `-o NAME.EXT`: `NAME-0001.EXT`, `NAME-0002.EXT`,
//! … (N games each), or `NAME-VALUE.EXT` (one per value of the key, made
//! safe for every file system), as [`qipu::output::Destination::split`]
//! writes them.

use std::path::{Path, PathBuf};

use crate::cli::Failure;
use crate::cli::output::{InputFiles, OutputError, told_parts};
use qipu::output::{Destination, SplitRule};

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

impl SplitKey {
    /// The library's key ([`qipu::output::SplitKey::value`] gives a game's
    /// value).
    pub fn key(self) -> qipu::output::SplitKey {
        use qipu::output::SplitKey as Key;
        match self {
            SplitKey::Ecco => Key::Ecco,
            SplitKey::Event => Key::Event,
            SplitKey::Result => Key::Result,
            SplitKey::Red => Key::Red,
            SplitKey::Black => Key::Black,
            SplitKey::Year => Key::Year,
            SplitKey::Source => Key::Source,
        }
    }
}

/// The split asked for, if any, into files named after `output`.
pub fn destination<'a>(
    every: Option<usize>,
    by: Option<SplitKey>,
    output: Option<&Path>,
    force: bool,
    inputs: &[qipu::batch::Input],
) -> Result<Option<Destination<'a>>, Failure> {
    let how = match (every, by) {
        (None, None) => return Ok(None),
        (Some(0), _) => return Err(Failure::usage("--split must be at least 1")),
        (Some(n), _) => SplitRule::Every(n),
        (None, Some(key)) => key.key().split(),
    };
    let Some(output) = output else {
        return Err(Failure::usage("--split and --split-by write files: give -o NAME.EXT"));
    };
    if output.as_os_str() == "-" {
        return Err(Failure::usage("--split and --split-by write files: give -o NAME.EXT, not -"));
    }
    let usage = |why: &str| Failure::usage(format!("{}: {why}", output.display()));
    let split = Destination::split(output, how, force, InputFiles::of(inputs)).map_err(|e| match e {
        OutputError::NotAFile { .. } => {
            usage("--split and --split-by write files named after -o NAME.EXT; this is not a file name")
        }
        OutputError::NoFileName { .. } => usage("--split and --split-by need -o NAME.EXT, a file name"),
        e => failed(&e),
    })?;
    Ok(Some(split))
}

/// An error of the split's files, a usage error (exit code 2).
pub fn failed(e: &OutputError) -> Failure {
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

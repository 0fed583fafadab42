//! `qipu convert PATH... --to xqf -o DIR`: one XQF file per game, named
//! after its title (or `source-N.xqf`), never over an existing file unless
//! `--force`, never over an input.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::Failure;
use super::progress::{Outcome, Tally};
use qipu::batch::{Event, Input};
use qipu::formats::xqf;
use qipu::record::replay::ReplayError;
use qipu::record::visit::Map;
use qipu::record::{Record, RecordBuilder, Warning};

/// One game made into an XQF file, or why it could not be.
struct Converted {
    bytes: Result<Vec<u8>, String>,
    /// The file name without extension from the title, if it has one.
    title: Option<String>,
    /// How the game replayed.
    error: Option<ReplayError>,
    unreadable: Option<Warning>,
}

/// Writes every game of `inputs` as an XQF file of `version` into `dir`.
/// Returns the tally of the games, and of those not written.
pub fn run(
    inputs: &[Input],
    args: &super::convert::Args,
    dir: &Path,
    version: xqf::Version,
) -> Result<Tally, Failure> {
    std::fs::create_dir_all(dir).map_err(|e| Failure::usage(format!("{}: {e}", dir.display())))?;
    let input_files: HashSet<PathBuf> =
        inputs.iter().filter_map(|i| std::fs::canonicalize(i.path()?).ok()).collect();
    let batch = super::batch(args.jobs, args.encoding)?;
    let mut used: HashSet<String> = HashSet::new();
    let mut tally = Tally::new(inputs.len());
    let shape = args.shape.shape();
    let write = |record: Record| {
        let (record, error) = super::convert::prepare(record, &shape, args.ecco);
        Converted {
            bytes: xqf::write(&record, version).map_err(|e| e.to_string()),
            title: record.tag("Title").map(file_name).filter(|t| !t.is_empty()),
            error,
            unreadable: record.unreadable,
        }
    };
    batch.run(
        inputs,
        || Map::new(RecordBuilder::default(), write),
        |meta, event| {
            match event {
                Event::Games { first, games } => {
                    tally.batch(games.len());
                    for (k, c) in games.into_iter().enumerate() {
                        let index = first + k;
                        let note = " (written with the moves as stored)";
                        tally.game(Outcome::of(
                            &meta.source,
                            index,
                            c.unreadable.as_ref(),
                            c.error.as_ref(),
                            note,
                        ));
                        // An unreadable record is never written as a game.
                        if c.unreadable.is_some() {
                            continue;
                        }
                        let bytes = match c.bytes {
                            Ok(b) => b,
                            Err(e) => {
                                tally.not_written(&format!(
                                    "{}: game {}: not written: {e}",
                                    meta.source,
                                    index + 1
                                ));
                                continue;
                            }
                        };
                        let stem = c.title.unwrap_or_else(|| {
                            let source = Path::new(&meta.source)
                                .file_stem()
                                .map_or("game".into(), |s| s.to_string_lossy());
                            format!("{}-{}", file_name(&source), index + 1)
                        });
                        // A second game of the same name in this run gets a number.
                        let mut name = format!("{stem}.xqf");
                        let mut n = 2;
                        while used.contains(&name) {
                            name = format!("{stem}-{n}.xqf");
                            n += 1;
                        }
                        used.insert(name.clone());
                        let path = dir.join(&name);
                        if let Err(e) = write_new(&path, &bytes, args.force, &input_files) {
                            tally.not_written(&format!("{}: {e}", path.display()));
                        }
                    }
                }
                Event::Unreadable(reason) => tally.unreadable(&meta.source, &reason),
                Event::NoRecord(reason) => tally.no_record(&meta.source, &reason),
                Event::Done => tally.input_done(),
            }
            Ok::<(), Failure>(())
        },
    )?;
    tally.finish();
    Ok(tally)
}

/// Writes `bytes` to `path`: a new file, or with `force` over an existing
/// one that is not an input; complete or not at all.
fn write_new(path: &Path, bytes: &[u8], force: bool, inputs: &HashSet<PathBuf>) -> std::io::Result<()> {
    use std::io::Write;
    if force && std::fs::canonicalize(path).is_ok_and(|p| inputs.contains(&p)) {
        return Err(std::io::Error::other("is an input file; not written"));
    }
    let mut file = super::output::OutputFile::create(path, force)?;
    file.write_all(bytes)?;
    file.commit()
}

/// A file name from a title: no path separators, control characters or
/// characters Windows forbids; at most 80 characters, and at most
/// [`MAX_STEM`] bytes, cut on a character boundary, so that the name with
/// its number and extension fits any file system (255 bytes a name).
fn file_name(title: &str) -> String {
    let mut name = String::new();
    for c in title.trim().chars().take(80) {
        let c = if c.is_control() || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|') {
            '_'
        } else {
            c
        };
        if name.len() + c.len_utf8() > MAX_STEM {
            break;
        }
        name.push(c);
    }
    name.trim_matches(['.', ' ']).to_string()
}

/// The most bytes of a file name's stem: 255 (the name limit of the usual
/// file systems) less room for `-NNNNNNNNNN.xqf`.
const MAX_STEM: usize = 255 - 16;

#[cfg(test)]
mod tests {
    use super::{MAX_STEM, file_name};

    #[test]
    fn titles_make_safe_file_names() {
        assert_eq!(file_name("许银川 vs 吕钦 1/2"), "许银川 vs 吕钦 1_2");
        assert_eq!(file_name("../../etc/passwd"), "_.._etc_passwd");
        assert_eq!(file_name(" . "), "");
        assert_eq!(file_name(&"长".repeat(100)).chars().count(), 79, "239 bytes at most");
        assert!(file_name(&"😀".repeat(100)).len() <= MAX_STEM);
    }
}

//! `qipu convert PATH... --to xqf -o DIR`: one XQF file per game, named
//! after its title (or `source-N.xqf`), never over an existing file unless
//! `--force`, never over an input.

use std::path::Path;

use super::Failure;
use super::output::InputFiles;
use super::progress::{Outcome, Tally};
use qipu::batch::{Event, Input};
use qipu::formats::xqf;
use qipu::record::replay::ReplayError;
use qipu::record::visit::Map;
use qipu::record::{Record, RecordBuilder, Warning};

/// One game made into an XQF file, or why it could not be.
struct Converted {
    bytes: Result<Vec<u8>, String>,
    /// The `Title` tag, for the file's name.
    title: Option<String>,
    /// How the game replayed.
    error: Option<ReplayError>,
    unreadable: Option<Warning>,
    /// The game matches the selection.
    matches: bool,
    /// Its main line's key, for --dedupe.
    key: Option<qipu::dedupe::Key>,
}

/// Writes every game of `inputs` as an XQF file of `version` into `dir`.
/// Returns the tally of the games, and of those not written, and the
/// selection's part of the summary line.
pub fn run(
    inputs: &mut [Input],
    args: &super::convert::Args,
    dir: &Path,
    version: xqf::Version,
) -> Result<(Tally, String), Failure> {
    std::fs::create_dir_all(dir).map_err(|e| Failure::usage(format!("{}: {e}", dir.display())))?;
    let input_files = InputFiles::of(inputs);
    let batch = super::batch(args.jobs, args.encoding)?;
    let mut names = xqf::FileNames::default();
    let mut tally = Tally::new(inputs.len());
    let mut chooser = super::select::Chooser::new(&args.select)?;
    chooser.plan(inputs, &batch)?;
    let selection = chooser.selection().clone();
    let shape = args.shape.shape();
    let write = |record: Record| {
        // Judged as read, before shaping.
        let judged = selection.judge_record(&record);
        let (record, error) = super::convert::prepare(record, &shape, args.set_ecco);
        Converted {
            bytes: xqf::write(&record, version).map_err(|e| e.to_string()),
            title: record.tag("Title").map(str::to_string),
            error,
            unreadable: record.unreadable,
            matches: judged.matches,
            key: judged.key,
        }
    };
    let run = batch.run(
        inputs,
        || Map::new(RecordBuilder::default(), write),
        |meta, event| {
            match event {
                Event::Games { first, games } => {
                    tally.batch(games.len());
                    for (k, c) in games.into_iter().enumerate() {
                        let index = first + k;
                        let note = " (written with the moves as stored)";
                        let selected = chooser.take(index, c.matches, c.key.as_ref());
                        tally.game_as(
                            Outcome::of(&meta.source, index, c.unreadable.as_ref(), c.error.as_ref(), note),
                            selected,
                        );
                        // An unreadable record is never written as a game.
                        if c.unreadable.is_some() || !selected {
                            chooser.go_on()?;
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
                        let name = names.name(c.title.as_deref(), &meta.source, index);
                        let path = dir.join(&name);
                        match write_new(&path, &bytes, args.force, &input_files) {
                            Ok(()) => tally.wrote(),
                            Err(e) => tally.not_written(&format!("{}: {e}", path.display())),
                        }
                        chooser.go_on()?;
                    }
                }
                Event::Unreadable(reason) => {
                    let selected = chooser.take_unreadable();
                    tally.unreadable_as(&meta.source, &reason, selected);
                    chooser.go_on()?;
                }
                Event::NoRecord(reason) => tally.no_record_as(&meta.source, &reason, !chooser.active()),
                Event::Done => tally.input_done(),
            }
            Ok::<(), Failure>(())
        },
    );
    super::select::finished(run)?;
    tally.finish();
    Ok((tally, chooser.summary()))
}

/// Writes `bytes` to `path`: a new file, or with `force` over an existing
/// one that is not an input; complete or not at all.
fn write_new(path: &Path, bytes: &[u8], force: bool, inputs: &InputFiles) -> std::io::Result<()> {
    use std::io::Write;
    inputs.refuse(path)?;
    let mut file = super::output::OutputFile::create(path, force)?;
    file.write_all(bytes)?;
    file.commit()
}

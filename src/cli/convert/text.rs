//! `qipu convert PATH... --to pgn|json|dhtmlxq|uci`: the games written as text, into one
//! output or the files of a split.

use std::io::Write;

use super::args::{Args, Prepared, fixed_summary, lines_summary, prepare, tell_fixed, told};
use super::split;
use crate::cli::output::{Sink, room};
use crate::cli::progress::{Outcome, Tally};
use crate::cli::{ChineseStyle, Failure};
use qipu::analysis::prepare::ResultFix;
use qipu::batch::ProblemLine;
use qipu::formats::write::WriteError;
use qipu::formats::{self, encoding::Encoding};
use qipu::output::{Destination, DestinationError, WrittenGame};
use qipu::record::replay::ReplayError;
use qipu::record::shape;
use qipu::record::visit::Map;
use qipu::record::{Record, RecordBuilder, Warning};
use qipu::select::{Judged, PassEvent};

/// Converts every game of `inputs` into text; problems go to standard
/// error.
pub(super) fn run(
    inputs: &mut [qipu::batch::Input],
    args: &Args,
    stdout: &mut impl Write,
) -> Result<i32, Failure> {
    if !matches!(args.write.output_encoding, Encoding::Utf8 | Encoding::Gb18030 | Encoding::Big5) {
        return Err(Failure::usage("--output-encoding must be utf-8, gbk or big5"));
    }
    let output = args.write.output.as_deref();
    let mut rejected_stdout = std::io::sink();
    let mut rejected = match args.write.rejected.as_deref() {
        Some(p) if p.as_os_str() == "-" || Some(p) == output => {
            return Err(Failure::usage("--rejected needs a file of its own"));
        }
        Some(p) => {
            let sink = Sink::open(Some(p), args.write.force, inputs, &mut rejected_stdout)?;
            Some(Destination::one(sink.into_stream()))
        }
        None => None,
    };
    let mut out =
        match split::destination(args.write.split, args.write.split_by, output, args.write.force, inputs)? {
            Some(split) => split,
            None => Destination::one(Sink::open(output, args.write.force, inputs, stdout)?.into_stream()),
        };
    let split_by = args.write.split_by.map(split::SplitKey::key).filter(|_| out.split_rule().is_some());
    let mut chooser = crate::cli::select::Chooser::new(&args.select)?.within(args.only.clone())?;
    let selection = chooser.selection().clone();
    let batch = args.read.batch()?;
    chooser.plan(inputs, &batch)?;
    let default = match args.write.output_encoding {
        Encoding::Big5 => ChineseStyle::Traditional,
        _ => ChineseStyle::Simplified,
    };
    let mut tally = Tally::new(inputs.len());
    let render = |record: &Record| {
        let options = args.write_options(args.notation_for(record, default));
        formats::write::write_with_warnings(record, &options)
    };
    let shape = args.shape.shape();
    // Each game is written where it is read, and only the bytes kept;
    // with --source-tag, the shaped record is kept and written in input
    // order, where the game's number in its input is known.
    let write = |record: Record| {
        // Judged as read, before shaping.
        let judged = selection.judge_record(&record);
        if args.write.variations_as_games {
            // Split, shaped and written where the game's place is known,
            // a line at a time.
            let error = record.replayed().error.clone();
            let unreadable = record.unreadable().cloned();
            let written = Written::Lines(Box::new(record));
            let game = Converted { written, error, unreadable, value: None, fixed: None };
            return Judged { matches: judged.matches, key: judged.key, game };
        }
        let Prepared { record, error, fixed } = prepare(record, &shape, args);
        let unreadable = record.unreadable().cloned();
        let value = split_by.and_then(|key| key.value(&record));
        let written = if args.shape.source_tag {
            Written::Later(Box::new(record))
        } else {
            Written::Now(render(&record))
        };
        let game = Converted { written, error, unreadable, value, fixed };
        Judged { matches: judged.matches, key: judged.key, game }
    };
    let make = || Map::new(RecordBuilder::default(), write);
    let mut fixed = 0;
    let mut variations = 0;
    chooser.pass(&batch, inputs, &mut tally, make, |meta, event, tally| {
        let PassEvent::Game { index, game, selected } = event else { return Ok(()) };
        // With --rejected, an illegal game goes there (with
        // --variations-as-games, each line with a move that does not replay).
        let to_rejected = !selected || (rejected.is_some() && game.error.is_some());
        let note = match &game.written {
            Written::Lines(_) if rejected.is_some() => {
                " (each line with a move that does not replay written to the rejected games)"
            }
            _ if to_rejected && rejected.is_some() => " (written to the rejected games)",
            _ => " (moves from there on are kept as written)",
        };
        let outcome = Outcome::of(&meta.source, index, game.unreadable.as_ref(), game.error.as_ref(), note);
        tally.game_as(outcome, selected);
        // An unreadable record is never written as a game.
        if game.unreadable.is_some() {
            return Ok(());
        }
        let rejecting = rejected.is_some();
        // Writes one game (a line of one), telling its result set.
        let mut put = |tally: &mut Tally,
                       bytes: Result<formats::write::Written, WriteError>,
                       value: Option<&str>,
                       to_rejected: bool,
                       line: Option<&str>,
                       fix: Option<&ResultFix>|
         -> Result<bool, Failure> {
            if selected {
                tell_fixed(tally, &mut fixed, &meta.source, index, line, fix);
            }
            let mut wrote = false;
            match bytes {
                Ok(written) => {
                    let bytes = &written.bytes;
                    let game = WrittenGame { value, ..WrittenGame::new(bytes, &meta.source, index) };
                    match &mut rejected {
                        Some(r) if to_rejected => r.write(game).map_err(failed)?,
                        None if to_rejected => return Ok(false),
                        _ if tally.writing_stopped() => tally.skip_write(),
                        _ => match out.write(game) {
                            Ok(()) => {
                                tally.wrote();
                                wrote = true;
                            }
                            Err(DestinationError::Output(e)) if room::no_room(&e) => {
                                let line = crate::cli::error_line(format!("cannot write output: {e}"));
                                tally.write_failed(&line, &e);
                            }
                            Err(e) => return Err(failed(e)),
                        },
                    }
                    for w in &written.warnings {
                        tally.lost(&meta.source, Some(index), w);
                    }
                }
                Err(why) if selected => {
                    let why = match line {
                        Some(id) => format!("line {id}: not written: {}", told(&why)),
                        None => format!("not written: {}", told(&why)),
                    };
                    tally.not_written(&ProblemLine::game_error(&meta.source, index, why).to_string());
                }
                Err(_) => {}
            }
            Ok(wrote)
        };
        match game.written {
            Written::Now(bytes) => {
                put(tally, bytes, game.value.as_deref(), to_rejected, None, game.fixed.as_ref())?;
            }
            Written::Later(mut record) => {
                shape::add_source(&mut record, &meta.source, index);
                put(tally, render(&record), game.value.as_deref(), to_rejected, None, game.fixed.as_ref())?;
            }
            // Nothing of a game left out goes anywhere without --rejected.
            Written::Lines(_) if !selected && !rejecting => {}
            Written::Lines(record) => {
                for line in record.lines() {
                    let id = (!line.is_main()).then(|| line.id());
                    let Prepared { mut record, error, fixed: fix } = prepare(line.record, &shape, args);
                    if args.shape.source_tag {
                        shape::add_source(&mut record, &meta.source, index);
                    }
                    let value = split_by.and_then(|key| key.value(&record));
                    let to_rejected = !selected || (rejecting && error.is_some());
                    let bytes = render(&record);
                    let wrote =
                        put(tally, bytes, value.as_deref(), to_rejected, id.as_deref(), fix.as_ref())?;
                    variations += usize::from(wrote && id.is_some());
                }
            }
        }
        Ok(())
    })?;
    // Writing stopped (no room left): an output file is removed, not
    // completed, and none of its games is written; standard output is
    // left as far as it got.
    let files = if tally.writing_stopped() {
        if out.is_file() {
            tally.none_kept();
        }
        None
    } else {
        let split = out.split_rule().is_some();
        let finished = out.finish().map_err(failed)?;
        split.then_some(finished.files)
    };
    if let Some(r) = rejected {
        r.finish().map_err(failed)?;
    }
    eprintln!(
        "{}{}{}; {}",
        tally.summary(),
        chooser.summary(),
        fixed_summary(args, fixed),
        tally.written_summary_noting(&lines_summary(args, variations))
    );
    if let Some(files) = files {
        crate::cli::quiet::info!("{}", split::told(&files));
    }
    Ok(tally.code())
}

/// A failure to write a game or complete the output, as the command tells
/// it: a write error of the one output as [`Failure::from`] tells it, a
/// file's as a usage error naming the file, a split's as [`split::failed`].
fn failed(e: DestinationError) -> Failure {
    match e {
        DestinationError::Output(e) => e.into(),
        DestinationError::File { path, source } => {
            Failure::usage(format!("{}: {}", path.display(), crate::cli::output::told(&source)))
        }
        DestinationError::Parts(e) => split::failed(&e),
    }
}

/// A game written, or why it could not be, and how it replayed as read.
#[derive(Debug)]
struct Converted {
    written: Written,
    error: Option<ReplayError>,
    unreadable: Option<Warning>,
    /// Its `--split-by` value, when it has one.
    value: Option<String>,
    /// The result `--fix-results` set.
    fixed: Option<ResultFix>,
}

/// A game's bytes (or why it cannot be written), or the record to write
/// once its place in its input is known: shaped (`Later`), or as read, to
/// be split into its lines (`Lines`, `--variations-as-games`).
#[derive(Debug)]
enum Written {
    Now(Result<formats::write::Written, WriteError>),
    Later(Box<Record>),
    Lines(Box<Record>),
}

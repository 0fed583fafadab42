//! `qipu convert PATH... --to pgn|json|dhtmlxq|uci`: the games written as text, into one
//! output or the files of a split.

use std::io::Write;
use std::path::PathBuf;

use super::args::{Args, Prepared, fixed_summary, prepare, tell_fixed, told};
use super::split::{self, Split};
use crate::cli::output::Sink;
use crate::cli::progress::{Outcome, Tally};
use crate::cli::{ChineseStyle, Failure};
use qipu::analysis::prepare::ResultFix;
use qipu::batch::ProblemLine;
use qipu::formats::write::WriteError;
use qipu::formats::{self, encoding::Encoding};
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
    if !matches!(args.output_encoding, Encoding::Utf8 | Encoding::Gb18030 | Encoding::Big5) {
        return Err(Failure::usage("--output-encoding must be utf-8, gbk or big5"));
    }
    let output = args.output.as_deref();
    let mut rejected_stdout = std::io::sink();
    let mut rejected = match args.rejected.as_deref() {
        Some(p) if p.as_os_str() == "-" || Some(p) == output => {
            return Err(Failure::usage("--rejected needs a file of its own"));
        }
        Some(p) => Some(Sink::open(Some(p), args.force, inputs, &mut rejected_stdout)?),
        None => None,
    };
    let mut out = match Split::new(args.split, args.split_by, output, args.force, inputs)? {
        Some(split) => Dest::Split(split),
        None => Dest::One(Sink::open(output, args.force, inputs, stdout)?),
    };
    let split_by = match &out {
        Dest::Split(split) => split.by(),
        Dest::One(_) => None,
    };
    let mut chooser = crate::cli::select::Chooser::new(&args.select)?;
    let selection = chooser.selection().clone();
    let batch = args.read.batch()?;
    chooser.plan(inputs, &batch)?;
    let default = match args.output_encoding {
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
        let Prepared { record, error, fixed } = prepare(record, &shape, args);
        let unreadable = record.unreadable().cloned();
        let value = split_by.and_then(|key| split::value(key, &record));
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
    chooser.pass(&batch, inputs, &mut tally, make, |meta, event, tally| {
        let PassEvent::Game { index, game, selected } = event else { return Ok(()) };
        // With --rejected, an illegal game goes there.
        let to_rejected = !selected || (rejected.is_some() && game.error.is_some());
        let note = if to_rejected && rejected.is_some() {
            " (written to the rejected games)"
        } else {
            " (moves from there on are kept as written)"
        };
        let outcome = Outcome::of(&meta.source, index, game.unreadable.as_ref(), game.error.as_ref(), note);
        tally.game_as(outcome, selected);
        // An unreadable record is never written as a game.
        if game.unreadable.is_some() {
            return Ok(());
        }
        if selected {
            tell_fixed(tally, &mut fixed, &meta.source, index, game.fixed.as_ref());
        }
        let bytes = match game.written {
            Written::Now(bytes) => bytes,
            Written::Later(mut record) => {
                shape::add_source(&mut record, &meta.source, index);
                render(&record)
            }
        };
        match bytes {
            Ok(written) => {
                let bytes = &written.bytes;
                match &mut rejected {
                    Some(r) if to_rejected => r.write_all(bytes)?,
                    None if to_rejected => return Ok(()),
                    _ => {
                        out.write(game.value.as_deref(), &meta.source, bytes)?;
                        tally.wrote();
                    }
                }
                for w in &written.warnings {
                    tally.lost(&meta.source, Some(index), w);
                }
            }
            Err(why) if selected => tally.not_written(
                &ProblemLine::game_error(&meta.source, index, format!("not written: {}", told(&why)))
                    .to_string(),
            ),
            Err(_) => {}
        }
        Ok(())
    })?;
    let files = out.finish()?;
    if let Some(r) = rejected {
        r.commit()?;
    }
    eprintln!(
        "{}{}{}; {}",
        tally.summary(),
        chooser.summary(),
        fixed_summary(args, fixed),
        tally.written_summary()
    );
    if let Some(files) = files {
        crate::cli::quiet::info!("{}", split::told(&files));
    }
    Ok(tally.code())
}

/// Where converted games go: one output, or the files of a split.
enum Dest<'a> {
    One(Sink<'a>),
    Split(Split),
}

impl Dest<'_> {
    /// Writes a game's bytes (its `--split-by` value, from `source`).
    fn write(&mut self, value: Option<&str>, source: &str, bytes: &[u8]) -> Result<(), Failure> {
        match self {
            Dest::One(sink) => Ok(sink.write_all(bytes)?),
            Dest::Split(split) => split.write(value, source, bytes),
        }
    }

    /// Completes the output; returns the files of a split.
    fn finish(self) -> Result<Option<Vec<PathBuf>>, Failure> {
        match self {
            Dest::One(sink) => sink.commit().map(|()| None),
            Dest::Split(split) => split.finish().map(Some),
        }
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
/// once its place in its input is known.
#[derive(Debug)]
enum Written {
    Now(Result<formats::write::Written, WriteError>),
    Later(Box<Record>),
}

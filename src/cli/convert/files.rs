//! `qipu convert PATH... --to xqf|cbr|pfc -o DIR`: one file per game, named
//! after its title (or `source-N.EXT`), in the folders of DIR that mirror
//! those the inputs were found in ([`qipu::output::names::folder_of`]),
//! never over an existing file unless `--force`, never over an input; `--to cbl -o FILE`: every game in one
//! library; and `--to html [-o FILE]`: every game in one viewer page. A
//! library and a page are written when the batch is done.

use std::path::{Path, PathBuf};

use super::args::{Args, Prepared, fixed_summary, prepare, tell_fixed, told as told_why};
use crate::cli::output::{InputFiles, Sink, file_error, told};
use crate::cli::progress::{Outcome, Tally};
use crate::cli::{ChineseStyle, Failure};
use qipu::analysis::prepare::ResultFix;
use qipu::batch::{Input, ProblemLine};
use qipu::formats::write::{WriteError, WriteFormat, WriteOptions, Written};
use qipu::formats::{self, html};
use qipu::output::{Destination, DestinationError, Refused, WrittenGame};
use qipu::record::replay::ReplayError;
use qipu::record::visit::Map;
use qipu::record::{Record, RecordBuilder, Warning};
use qipu::select::{Judged, PassEvent};

/// What the report of an illegal game written as a file adds.
const STORED: &str = " (written with the moves as stored)";

/// A game made into bytes, with its name: the file's name (its `Title`
/// tag) or its name in a viewer page.
type Render<'a> = dyn Fn(&Record) -> (Result<Written, WriteError>, Option<String>) + Sync + 'a;

/// Each game as a file of `options`' format, named by its `Title` tag.
fn as_file(
    options: &WriteOptions,
) -> impl Fn(&Record) -> (Result<Written, WriteError>, Option<String>) + Sync + '_ {
    |record| (formats::write::write_with_warnings(record, options), record.tag("Title").map(str::to_string))
}

/// One game made into a file, or why it could not be; or with
/// `--variations-as-games`, the game as read, to be split into its lines
/// where its place is known.
struct Converted {
    made: Made,
    /// How the game replayed (as read).
    error: Option<ReplayError>,
    unreadable: Option<Warning>,
}

/// A game made into a file, or the game to split.
enum Made {
    One {
        bytes: Result<Written, WriteError>,
        /// Its name: the `Title` tag, for the file's name, or its name in a
        /// page.
        title: Option<String>,
        /// The result `--fix-results` set.
        fixed: Option<ResultFix>,
    },
    Lines(Box<Record>),
}

/// Writes every game of `inputs` made into bytes by `render` into `dest`;
/// the writer's warnings go to standard error, naming the game, and an
/// illegal game's report ends with `note`. Returns the
/// tally of the games, and of those not written, and the selection's part
/// of the summary line.
fn run(
    inputs: &mut [Input],
    args: &Args,
    dest: &mut Destination,
    render: &Render,
    note: &str,
) -> Result<Done, Failure> {
    let batch = args.read.batch()?;
    let mut tally = Tally::new(inputs.len());
    let mut chooser = crate::cli::select::Chooser::new(&args.select)?.within(args.only.clone())?;
    chooser.plan(inputs, &batch)?;
    let selection = chooser.selection().clone();
    let shape = args.shape.shape();
    let write = |record: Record| {
        // Judged as read, before shaping.
        let judged = selection.judge_record(&record);
        let game = if args.write.variations_as_games {
            let error = record.replayed().error.clone();
            let unreadable = record.unreadable().cloned();
            Converted { made: Made::Lines(Box::new(record)), error, unreadable }
        } else {
            let Prepared { record, error, fixed } = prepare(record, &shape, args);
            let (bytes, title) = render(&record);
            let made = Made::One { bytes, title, fixed };
            Converted { made, error, unreadable: record.unreadable().cloned() }
        };
        Judged { matches: judged.matches, key: judged.key, game }
    };
    let make = || Map::new(RecordBuilder::default(), write);
    let mut fixed = 0;
    let mut variations = 0;
    chooser.pass(&batch, inputs, &mut tally, make, |meta, event, tally| {
        let PassEvent::Game { index, game: c, selected } = event else { return Ok(()) };
        // A game the format cannot hold is told so next: not "written".
        let note = match &c.made {
            Made::One { bytes: Err(_), .. } => "",
            _ => note,
        };
        let outcome = Outcome::of(&meta.source, index, c.unreadable.as_ref(), c.error.as_ref(), note);
        tally.game_as(outcome, selected);
        // An unreadable record is never written as a game.
        if c.unreadable.is_some() || !selected {
            return Ok(());
        }
        // Writes one game (a line of one, `line` its id).
        let mut put = |tally: &mut Tally,
                       bytes: Result<Written, WriteError>,
                       title: Option<String>,
                       line: Option<&str>,
                       fix: Option<&ResultFix>| {
            tell_fixed(tally, &mut fixed, &meta.source, index, line, fix);
            if tally.writing_stopped() {
                tally.skip_write();
                return false;
            }
            let bytes = match bytes {
                Ok(written) => {
                    for w in &written.warnings {
                        tally.lost(&meta.source, Some(index), w);
                    }
                    written.bytes
                }
                Err(e) => {
                    let why = told_why(&e);
                    let why = match line {
                        Some(id) => format!("line {id}: not written: {why}"),
                        None => format!("not written: {why}"),
                    };
                    tally.not_written(&ProblemLine::game_error(&meta.source, index, why).to_string());
                    return false;
                }
            };
            let game = WrittenGame {
                title: title.as_deref(),
                line,
                ..WrittenGame::new(&bytes, &meta.source, index)
            };
            match dest.write(game) {
                Ok(()) => {
                    // A collection's games are written with it, at the end.
                    if !dest.collects() {
                        tally.wrote();
                    }
                    true
                }
                Err(DestinationError::File { path, source }) => {
                    tally.write_failed(&file_error(&path, &source), &source);
                    false
                }
                Err(e) => {
                    // A folder's or a collection's writes fail with a file's
                    // error only.
                    tally.not_written(&e.to_string());
                    false
                }
            }
        };
        match c.made {
            Made::One { bytes, title, fixed: fix } => {
                put(tally, bytes, title, None, fix.as_ref());
            }
            Made::Lines(record) => {
                for line in record.lines() {
                    let id = (!line.is_main()).then(|| line.id());
                    let Prepared { record, fixed: fix, .. } = prepare(line.record, &shape, args);
                    let (bytes, title) = render(&record);
                    let wrote = put(tally, bytes, title, id.as_deref(), fix.as_ref());
                    variations += usize::from(wrote && id.is_some());
                }
            }
        }
        Ok(())
    })?;
    let selected = chooser.summary() + &fixed_summary(args, fixed);
    Ok(Done { tally, selected, variations })
}

/// What a conversion into files did: the tally of the games, the
/// selection's part of the summary line, and how many games written are
/// variations (`--variations-as-games`).
pub(super) struct Done {
    pub(super) tally: Tally,
    pub(super) selected: String,
    pub(super) variations: usize,
}

/// Writes every game of `inputs` as one CBL library `path`, named after
/// the file's stem; the library is written whole when the batch is done.
pub(super) fn run_library(inputs: &mut [Input], args: &Args, path: &Path) -> Result<Done, Failure> {
    let mut dest =
        Destination::library(path, args.write.force, InputFiles::of(inputs)).map_err(
            |e| match Refused::of(&e) {
                Some(Refused::Exists) => {
                    Failure::usage(format!("{}: exists (write over it with --force)", path.display()))
                }
                _ => Failure::usage(format!("{}: {}", path.display(), told(&e))),
            },
        )?;
    let cbr = WriteOptions::new(WriteFormat::Cbr);
    let Done { mut tally, selected, mut variations } = run(inputs, args, &mut dest, &as_file(&cbr), STORED)?;
    let games = dest.collected();
    let finished = dest.finish_telling(|path, w| tally.lost(&path.display().to_string(), None, w));
    match finished {
        Ok(_) => (0..games).for_each(|_| tally.wrote()),
        Err(e) => {
            let (why, e) = match e {
                DestinationError::File { path, source } => (file_error(&path, &source), source),
                e => (e.to_string(), std::io::Error::other(e.to_string())),
            };
            (0..games).for_each(|_| tally.write_failed(&why, &e));
            variations = 0;
        }
    }
    Ok(Done { tally, selected, variations })
}

/// Writes a file per game of `inputs` into `dir`, in `options`' format,
/// with the extension `ext`, in the folders of `dir` that mirror where the
/// inputs were found (`within`).
pub(super) fn run_files(
    inputs: &mut [Input],
    within: &[Option<PathBuf>],
    args: &Args,
    dir: &Path,
    ext: &str,
    options: &WriteOptions,
) -> Result<Done, Failure> {
    let mut dest = Destination::folder(dir, ext, args.write.force, InputFiles::of(inputs))
        .map_err(|e| Failure::usage(format!("{}: {e}", dir.display())))?
        .mirroring(inputs, within);
    run(inputs, args, &mut dest, &as_file(options), STORED)
}

/// Writes every game of `inputs` as one viewer page, its moves in
/// the notation of --notation and --chinese, into `out` (standard output or `-o FILE`, opened before the
/// batch so that a refused file is told first); the page is written when
/// the batch is done.
pub(super) fn run_page(inputs: &mut [Input], args: &Args, out: Sink) -> Result<Done, Failure> {
    let render = |record: &Record| {
        let game = html::game(record, args.notation_for(record, ChineseStyle::Simplified));
        (Ok(Written { bytes: game.data.into_bytes(), warnings: Vec::new() }), Some(game.label))
    };
    let mut dest = Destination::page(out.into_stream());
    let Done { mut tally, selected, variations } =
        run(inputs, args, &mut dest, &render, " (shown up to there)")?;
    let games = dest.collected();
    dest.finish().map_err(|e| match e {
        DestinationError::Output(e) => Failure::from(e),
        DestinationError::File { path, source } => {
            Failure::usage(format!("{}: {}", path.display(), told(&source)))
        }
        e => Failure::usage(e.to_string()),
    })?;
    (0..games).for_each(|_| tally.wrote());
    Ok(Done { tally, selected, variations })
}

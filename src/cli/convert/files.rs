//! `qipu convert PATH... --to xqf|cbr|pfc -o DIR`: one file per game, named
//! after its title (or `source-N.EXT`), in the folders of DIR that mirror
//! those the inputs were found in ([`qipu::output::names::folder_of`]),
//! never over an existing file unless `--force`, never over an input; `--to cbl -o FILE`: every game in one
//! library; and `--to html [-o FILE]`: every game in one viewer page. A
//! library and a page are written when the batch is done.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::args::{Args, Prepared, fixed_summary, prepare, tell_fixed, told as told_why};
use crate::cli::output::{InputFiles, file_error, told, write_new};
use crate::cli::progress::{Outcome, Tally};
use crate::cli::{ChineseStyle, Failure};
use qipu::analysis::prepare::ResultFix;
use qipu::batch::{Input, ProblemLine};
use qipu::formats::write::{WriteError, WriteFormat, WriteOptions, Written};
use qipu::formats::{self, ccbridge, html};
use qipu::record::replay::ReplayError;
use qipu::record::visit::Map;
use qipu::record::{Record, RecordBuilder, Warning};
use qipu::select::{Judged, PassEvent};

/// Where the games go.
pub(super) enum Dest<'a> {
    /// One file per game in the directory, with this extension, in the
    /// folders of the inputs' places below the folders they were found in.
    Files {
        /// The directory (created if missing).
        dir: &'a Path,
        /// The extension, no dot.
        ext: &'a str,
        /// Each input's place below the folder it was found in
        /// ([`qipu::batch::Expanded::within`]), in the order of the inputs.
        within: &'a [Option<PathBuf>],
    },
    /// Every game's bytes, with its name, collected for one output.
    Collect(&'a mut Vec<(Vec<u8>, String)>),
}

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

/// The files written into each folder of `-o DIR`: the names given, by
/// the folder's path in lower case (one folder on Windows and macOS), and
/// the folders made.
#[derive(Default)]
struct Folders {
    names: HashMap<String, qipu::output::names::FileNames>,
}

/// Writes every game of `inputs` made into bytes by `render` into `dest`;
/// the writer's warnings go to standard error, naming the game, and an
/// illegal game's report ends with `note`. Returns the
/// tally of the games, and of those not written, and the selection's part
/// of the summary line.
fn run(
    inputs: &mut [Input],
    args: &Args,
    mut dest: Dest,
    render: &Render,
    note: &str,
) -> Result<Done, Failure> {
    if let Dest::Files { dir, .. } = dest {
        std::fs::create_dir_all(dir).map_err(|e| Failure::usage(format!("{}: {e}", dir.display())))?;
    }
    // The folder of -o DIR each input's files go into, by the input's name.
    let mut folder_of: HashMap<String, PathBuf> = HashMap::new();
    if let Dest::Files { within, .. } = dest {
        for (k, input) in inputs.iter().enumerate() {
            let folder = qipu::output::names::folder_of(input, within.get(k).and_then(Option::as_deref));
            if !folder.as_os_str().is_empty() {
                folder_of.entry(input.name()).or_insert(folder);
            }
        }
    }
    let input_files = InputFiles::of(inputs);
    let batch = args.read.batch()?;
    let mut folders = Folders::default();
    let mut tally = Tally::new(inputs.len());
    let mut chooser = crate::cli::select::Chooser::new(&args.select)?;
    chooser.plan(inputs, &batch)?;
    let selection = chooser.selection().clone();
    let shape = args.shape.shape();
    let write = |record: Record| {
        // Judged as read, before shaping.
        let judged = selection.judge_record(&record);
        let game = if args.variations_as_games {
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
            match &mut dest {
                Dest::Files { dir, ext, .. } => {
                    let folder = folder_of.get(&meta.source);
                    let names = folders
                        .names
                        .entry(folder.map_or_else(String::new, |f| f.to_string_lossy().to_lowercase()))
                        .or_default();
                    let name = names.name_line(title.as_deref(), &meta.source, index, line, ext);
                    let path = match folder {
                        Some(folder) => {
                            let at = dir.join(folder);
                            if let Err(e) = std::fs::create_dir_all(&at) {
                                tally.write_failed(&file_error(&at, &e), &e);
                                return false;
                            }
                            at.join(&name)
                        }
                        None => dir.join(&name),
                    };
                    match write_new(&path, &bytes, args.force, &input_files) {
                        Ok(()) => {
                            tally.wrote();
                            true
                        }
                        Err(e) => {
                            tally.write_failed(&file_error(&path, &e), &e);
                            false
                        }
                    }
                }
                Dest::Collect(games) => {
                    let title = title.unwrap_or_default();
                    let title = match line {
                        Some(id) if !title.is_empty() => format!("{title} (line {id})"),
                        _ => title,
                    };
                    games.push((bytes, title));
                    true
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
    let input_files = InputFiles::of(inputs);
    input_files.refuse(path).map_err(|e| Failure::usage(format!("{}: {}", path.display(), told(&e))))?;
    if !args.force && path.exists() {
        return Err(Failure::usage(format!("{}: exists (write over it with --force)", path.display())));
    }
    let mut games = Vec::new();
    let cbr = WriteOptions::new(WriteFormat::Cbr);
    let Done { mut tally, selected, mut variations } =
        run(inputs, args, Dest::Collect(&mut games), &as_file(&cbr), STORED)?;
    let title = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let library = ccbridge::write_library(&games, &title);
    for w in &library.warnings {
        tally.lost(&path.display().to_string(), None, w);
    }
    match write_new(path, &library.bytes, args.force, &input_files) {
        Ok(()) => (0..games.len()).for_each(|_| tally.wrote()),
        Err(e) => {
            let why = file_error(path, &e);
            (0..games.len()).for_each(|_| tally.write_failed(&why, &e));
            variations = 0;
        }
    }
    Ok(Done { tally, selected, variations })
}

/// Writes a file per game of `inputs` into `dir`, in `options`' format,
/// with the extension `ext`.
pub(super) fn run_files(
    inputs: &mut [Input],
    within: &[Option<PathBuf>],
    args: &Args,
    dir: &Path,
    ext: &str,
    options: &WriteOptions,
) -> Result<Done, Failure> {
    run(inputs, args, Dest::Files { dir, ext, within }, &as_file(options), STORED)
}

/// Writes every game of `inputs` as one viewer page, its moves in
/// the notation of --notation and --chinese, into `out` (standard output or `-o FILE`, opened before the
/// batch so that a refused file is told first); the page is written when
/// the batch is done.
pub(super) fn run_page(
    inputs: &mut [Input],
    args: &Args,
    out: &mut crate::cli::output::Sink,
) -> Result<Done, Failure> {
    let mut parts = Vec::new();
    let render = |record: &Record| {
        let game = html::game(record, args.notation_for(record, ChineseStyle::Simplified));
        (Ok(Written { bytes: game.data.into_bytes(), warnings: Vec::new() }), Some(game.label))
    };
    let Done { mut tally, selected, variations } =
        run(inputs, args, Dest::Collect(&mut parts), &render, " (shown up to there)")?;
    let games: Vec<html::Game> = parts
        .into_iter()
        .map(|(data, label)| {
            // Always UTF-8: the bytes are a string's.
            let data = String::from_utf8(data)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            html::Game { data, label }
        })
        .collect();
    let title = match args.output.as_deref().filter(|p| p.as_os_str() != "-") {
        Some(path) => path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
        None => String::new(),
    };
    let title = if games.len() == 1 { String::new() } else { title };
    std::io::Write::write_all(out, html::page(&games, &title).as_bytes())?;
    (0..games.len()).for_each(|_| tally.wrote());
    Ok(Done { tally, selected, variations })
}

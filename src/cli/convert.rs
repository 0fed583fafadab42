//! `qipu convert PATH... --to pgn|json|dhtmlxq|xqf|cbr|cbl|uci`: records rewritten in a
//! normalized form, tags, comments and variations kept (`uci`: the main
//! line only).

use std::io::Write;
use std::path::PathBuf;

use super::convert_split::{self, Split, SplitKey};
use super::output::Sink;
use super::progress::{Outcome, Tally};
use super::{ChineseStyle, Failure, MoveNotation};
use qipu::analysis::prepare;
use qipu::formats::write::{WriteError, WriteFormat, WriteOptions};
use qipu::formats::{self, encoding::Encoding};
use qipu::record::replay::ReplayError;
use qipu::record::shape::{self, Shape};
use qipu::record::visit::Map;
use qipu::record::{Record, RecordBuilder, Warning};
use qipu::select::{Judged, PassEvent};

/// Formats `qipu convert` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// PGN, moves in --notation.
    Pgn,
    /// One JSON object per game and line: tags, start FEN, result, and the move tree as a
    /// list of nodes (ICCS coordinates, the move as written, comments, NAGs).
    Json,
    /// A DhtmlXQ block ([DhtmlXQ]...[/DhtmlXQ]) per game, with variations and comments.
    Dhtmlxq,
    /// One XQF file per game in the directory given with -o, named after the game's title
    /// (or SOURCE-N.xqf); version 10 unless --xqf-version 18.
    Xqf,
    /// One 象棋桥 CBR file per game in the directory given with -o, named after the game's
    /// title (or SOURCE-N.cbr). Tags CBR has no field for, and text longer than its field, are
    /// told on standard error.
    Cbr,
    /// Every game in one 象棋桥 CBL library, the file given with -o (its name the library's
    /// title). Tags CBR has no field for, and text longer than its field, are told on standard
    /// error.
    Cbl,
    /// One UCI position line per game, main line only: `position startpos moves h2e2 ...`,
    /// or `position fen FEN moves ...` (the FEN with its clocks) from another start. Tags,
    /// comments, variations and the result are not written; a game with a move that does not
    /// replay is not written, and is named.
    Uci,
}

/// What `qipu convert` does with a character the output encoding lacks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Unmappable {
    /// The game is not written, and is named on standard error.
    Error,
    /// The character is written as `?`.
    Replace,
}

/// XQF versions `qipu convert --to xqf` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum XqfVersion {
    /// XQF 1.0: plain, read by every program that reads XQF.
    #[value(name = "10")]
    V10,
    /// XQStudio 1.63's own format: enciphered.
    #[value(name = "18")]
    V18,
}

/// Arguments of `qipu convert`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The format to write.
    #[arg(long, value_enum)]
    pub to: Target,
    /// Notation of the moves in PGN.
    #[arg(long, value_enum, default_value_t = MoveNotation::Chinese)]
    pub notation: MoveNotation,
    /// Characters for --notation chinese (default: simplified; traditional with
    /// --output-encoding big5, which has no simplified characters).
    #[arg(long, value_enum)]
    pub chinese: Option<ChineseStyle>,
    /// Write into this file instead of standard output (`-` is standard output; never one of
    /// the inputs); with --to xqf or cbr, the directory to write the files into (created if
    /// missing); with --to cbl, the library file.
    #[arg(short, long, value_name = "FILE|DIR")]
    pub output: Option<PathBuf>,
    /// XQF version to write with --to xqf.
    #[arg(long, value_enum, default_value = "10")]
    pub xqf_version: XqfVersion,
    /// Write over an existing output file (never over an input). Files are written under a
    /// temporary name and renamed when complete.
    #[arg(long)]
    pub force: bool,
    /// Write N games a file, named after -o NAME.EXT: NAME-0001.EXT, NAME-0002.EXT, … (more
    /// digits when there are more than 9999 files). Not with --to xqf.
    #[arg(long, value_name = "N", conflicts_with = "split_by")]
    pub split: Option<usize>,
    /// Write one file per value of KEY, named after -o NAME.EXT: NAME-VALUE.EXT (the value made
    /// safe for every file system; a game without one goes to NAME-unknown.EXT; values that
    /// differ only in case or in characters replaced share a file). Not with --to xqf.
    #[arg(long, value_enum, value_name = "KEY")]
    pub split_by: Option<SplitKey>,
    /// Encoding of the output: utf-8 (default), gbk or big5.
    #[arg(long, default_value = "utf-8")]
    pub output_encoding: Encoding,
    /// What to do with a character of a tag or comment that --output-encoding cannot hold:
    /// `error` (default) does not write the game and names it; `replace` writes `?` in its
    /// place.
    #[arg(long, value_enum, default_value_t = Unmappable::Error)]
    pub unmappable: Unmappable,
    /// Add or correct the [ECCO], [Opening] and [Variation] tags of games from the standard
    /// start, by their moves.
    #[arg(long)]
    pub set_ecco: bool,
    /// Write the games left out (not selected, or illegal) into this file, in the same format
    /// and with the same safety as -o (not with --to xqf).
    #[arg(long, value_name = "FILE")]
    pub rejected: Option<PathBuf>,
    #[command(flatten)]
    pub read: super::args::ReadArgs,
    /// Which games to convert.
    #[command(flatten)]
    pub select: super::select::SelectArgs,
    /// How each game is shaped before it is written.
    #[command(flatten)]
    pub shape: super::shape::ShapeArgs,
}

impl Target {
    /// The library's format for a game (CBL: each game's CBR record).
    fn format(self) -> WriteFormat {
        match self {
            Target::Pgn => WriteFormat::Pgn,
            Target::Json => WriteFormat::Json,
            Target::Dhtmlxq => WriteFormat::Dhtmlxq,
            Target::Uci => WriteFormat::Uci,
            Target::Xqf => WriteFormat::Xqf,
            Target::Cbr | Target::Cbl => WriteFormat::Cbr,
        }
    }
}

impl Args {
    /// How each game is written (PGN's moves in `notation`).
    pub(super) fn write_options(&self, notation: qipu::notation::Notation) -> WriteOptions {
        WriteOptions {
            format: self.to.format(),
            notation,
            xqf_version: match self.xqf_version {
                XqfVersion::V10 => qipu::formats::xqf::Version::V10,
                XqfVersion::V18 => qipu::formats::xqf::Version::V18,
            },
            encoding: self.output_encoding,
            unmappable: match self.unmappable {
                Unmappable::Error => formats::write::Unmappable::Error,
                Unmappable::Replace => formats::write::Unmappable::Replace,
            },
        }
    }
}

/// `--to xqf`, `cbr` (a file per game into -o DIR) and `cbl` (one library,
/// -o FILE).
fn binary(inputs: &mut [qipu::batch::Input], args: &Args) -> Result<i32, Failure> {
    use super::convert_files::{self, Dest};
    let (name, what) = match args.to {
        Target::Xqf => ("xqf", "XQF"),
        Target::Cbr => ("cbr", "CBR"),
        _ => ("cbl", "CBL"),
    };
    if args.split.is_some() || args.split_by.is_some() {
        return Err(Failure::usage(format!(
            "--to {name} writes {} already: --split and --split-by are for pgn, json and dhtmlxq",
            if args.to == Target::Cbl { "one library" } else { "a file per game" }
        )));
    }
    if args.shape.source_tag {
        return Err(Failure::usage(format!(
            "--source-tag: {what} has no place for the SourceFile and SourceGame tags; write pgn, json or dhtmlxq"
        )));
    }
    if args.rejected.is_some() {
        return Err(Failure::usage(format!(
            "--rejected is not for --to {name} (which writes {})",
            if args.to == Target::Cbl { "one library" } else { "a file per game" }
        )));
    }
    let Some(out) = args.output.as_deref().filter(|p| p.as_os_str() != "-") else {
        return Err(Failure::usage(if args.to == Target::Cbl {
            "--to cbl writes one library: give the file with -o FILE.cbl".to_string()
        } else {
            format!("--to {name} writes one file per game: give the directory with -o DIR")
        }));
    };
    let options = args.write_options(MoveNotation::Chinese.with(ChineseStyle::Simplified));
    let (tally, selected) = match args.to {
        Target::Cbl => convert_files::run_library(inputs, args, out)?,
        _ => convert_files::run(inputs, args, Dest::Files { dir: out, ext: name }, &options)?,
    };
    eprintln!("{}{selected}; {} written", tally.summary(), tally.written());
    Ok(tally.code())
}

/// Converts every game; problems go to standard error.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let mut inputs = args.read.inputs();
    if matches!(args.to, Target::Xqf | Target::Cbr | Target::Cbl) {
        return binary(&mut inputs, args);
    }
    if !matches!(args.output_encoding, Encoding::Utf8 | Encoding::Gb18030 | Encoding::Big5) {
        return Err(Failure::usage("--output-encoding must be utf-8, gbk or big5"));
    }
    let output = args.output.as_deref();
    let mut rejected_stdout = std::io::sink();
    let mut rejected = match args.rejected.as_deref() {
        Some(p) if p.as_os_str() == "-" || Some(p) == output => {
            return Err(Failure::usage("--rejected needs a file of its own"));
        }
        Some(p) => Some(Sink::open(Some(p), args.force, &inputs, &mut rejected_stdout)?),
        None => None,
    };
    let mut out = match Split::new(args.split, args.split_by, output, args.force, &inputs)? {
        Some(split) => Dest::Split(split),
        None => Dest::One(Sink::open(output, args.force, &inputs, stdout)?),
    };
    let split_by = match &out {
        Dest::Split(split) => split.by(),
        Dest::One(_) => None,
    };
    let mut chooser = super::select::Chooser::new(&args.select)?;
    let selection = chooser.selection().clone();
    let batch = args.read.batch()?;
    chooser.plan(&mut inputs, &batch)?;
    let style = args.chinese.unwrap_or(match args.output_encoding {
        Encoding::Big5 => ChineseStyle::Traditional,
        _ => ChineseStyle::Simplified,
    });
    let notation = args.notation.with(style);
    let mut tally = Tally::new(inputs.len());
    let options = args.write_options(notation);
    let render = |record: &Record| formats::write(record, &options);
    let shape = args.shape.shape();
    // Each game is written where it is read, and only the bytes kept;
    // with --source-tag, the shaped record is kept and written in input
    // order, where the game's number in its input is known.
    let write = |record: Record| {
        // Judged as read, before shaping.
        let judged = selection.judge_record(&record);
        let (record, error) = prepare(record, &shape, args.set_ecco);
        let unreadable = record.unreadable().cloned();
        let value = split_by.and_then(|key| convert_split::value(key, &record));
        let written = if args.shape.source_tag {
            Written::Later(Box::new(record))
        } else {
            Written::Now(render(&record))
        };
        let game = Converted { written, error, unreadable, value };
        Judged { matches: judged.matches, key: judged.key, game }
    };
    let make = || Map::new(RecordBuilder::default(), write);
    chooser.pass(&batch, &inputs, &mut tally, make, |meta, event, tally| {
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
        let bytes = match game.written {
            Written::Now(bytes) => bytes,
            Written::Later(mut record) => {
                shape::add_source(&mut record, &meta.source, index);
                render(&record)
            }
        };
        match bytes {
            Ok(bytes) => match &mut rejected {
                Some(r) if to_rejected => r.write_all(&bytes)?,
                None if to_rejected => {}
                _ => {
                    out.write(game.value.as_deref(), &meta.source, &bytes)?;
                    tally.wrote();
                }
            },
            Err(why) if selected => tally.not_written(&format!(
                "{}: game {}: not written: {}",
                meta.source,
                index + 1,
                told(&why)
            )),
            Err(_) => {}
        }
        Ok(())
    })?;
    let files = out.finish()?;
    if let Some(r) = rejected {
        r.commit()?;
    }
    eprintln!("{}{}; {} written", tally.summary(), chooser.summary(), tally.written());
    if let Some(files) = files {
        eprintln!("{}", convert_split::told(&files));
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
}

/// A game's bytes (or why it cannot be written), or the record to write
/// once its place in its input is known.
#[derive(Debug)]
enum Written {
    Now(Result<Vec<u8>, WriteError>),
    Later(Box<Record>),
}

/// Why a game is not written, as the reports tell it: the writer's words,
/// and for a character the encoding lacks, the flag that replaces it.
pub(super) fn told(why: &WriteError) -> String {
    match why {
        WriteError::Unmappable { .. } => format!("{why}; --unmappable replace writes '?' for it"),
        _ => why.to_string(),
    }
}

/// `record` shaped, and with `--set-ecco` its ECCO tags set by the moves it
/// keeps ([`prepare::prepare`]); and the replay error of the game as read,
/// which the reports count whatever the shaping leaves out.
pub(super) fn prepare(mut record: Record, shape: &Shape, ecco: bool) -> (Record, Option<ReplayError>) {
    let error = prepare::prepare(&mut record, shape, ecco);
    (record, error)
}

//! `qipu convert PATH... --to pgn|json|dhtmlxq|xqf`: records rewritten in a
//! normalized form, tags, comments and variations kept.

use std::io::Write;
use std::path::PathBuf;

use super::progress::{Outcome, Tally};
use super::{ChineseStyle, Failure, MoveNotation};
use qipu::analysis::ecco;
use qipu::batch::Event;
use qipu::formats::{dhtmlxq, encoding::Encoding, json, pgn};
use qipu::record::replay::ReplayError;
use qipu::record::shape::{self, Shape};
use qipu::record::visit::Map;
use qipu::record::{Record, RecordBuilder, Warning};

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
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
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
    /// the inputs); with --to xqf, the directory to write the files into (created if missing).
    #[arg(short, long, value_name = "FILE|DIR")]
    pub output: Option<PathBuf>,
    /// XQF version to write with --to xqf.
    #[arg(long, value_enum, default_value = "10")]
    pub xqf_version: XqfVersion,
    /// Write over an existing output file (never over an input). Files are written under a
    /// temporary name and renamed when complete.
    #[arg(long)]
    pub force: bool,
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
    pub ecco: bool,
    /// Read text in this encoding instead of detecting it.
    #[arg(long)]
    pub encoding: Option<Encoding>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// How each game is shaped before it is written.
    #[command(flatten)]
    pub shape: super::shape::ShapeArgs,
}

/// Converts every game; problems go to standard error.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let inputs = super::inputs(&args.paths);
    if args.to == Target::Xqf {
        if args.shape.source_tag {
            return Err(Failure::usage(
                "--source-tag: XQF has no place for the SourceFile and SourceGame tags; write pgn, json or dhtmlxq",
            ));
        }
        let Some(dir) = args.output.as_ref().filter(|p| p.as_os_str() != "-") else {
            return Err(Failure::usage("--to xqf writes one file per game: give the directory with -o DIR"));
        };
        let version = match args.xqf_version {
            XqfVersion::V10 => qipu::formats::xqf::Version::V10,
            XqfVersion::V18 => qipu::formats::xqf::Version::V18,
        };
        let tally = super::convert_xqf::run(&inputs, args, dir, version)?;
        eprintln!("{}; {} written", tally.summary(), tally.written());
        return Ok(tally.code());
    }
    // `-o -` is standard output.
    let output = args.output.as_ref().filter(|p| p.as_os_str() != "-");
    if let Some(out) = output {
        let target = std::fs::canonicalize(out).ok();
        for input in &inputs {
            if let Some(p) = input.path()
                && target.is_some()
                && std::fs::canonicalize(p).ok() == target
            {
                return Err(Failure::usage(format!("{}: will not write over an input file", out.display())));
            }
        }
    }
    if !matches!(args.output_encoding, Encoding::Utf8 | Encoding::Gb18030 | Encoding::Big5) {
        return Err(Failure::usage("--output-encoding must be utf-8, gbk or big5"));
    }
    let mut file = match output {
        Some(p) => Some(
            super::output::OutputFile::create(p, args.force)
                .map_err(|e| Failure::usage(format!("{}: {e}", p.display())))?,
        ),
        None => None,
    };
    let out: &mut dyn Write = match &mut file {
        Some(f) => f,
        None => stdout,
    };
    let batch = super::batch(args.jobs, args.encoding)?;
    let style = args.chinese.unwrap_or(match args.output_encoding {
        Encoding::Big5 => ChineseStyle::Traditional,
        _ => ChineseStyle::Simplified,
    });
    let notation = args.notation.with(style);
    let mut tally = Tally::new(inputs.len());
    let render = |record: &Record| {
        let text = match args.to {
            Target::Pgn => Ok(pgn::write(record, notation) + "\n"),
            Target::Json => Ok(json::write(record) + "\n"),
            Target::Dhtmlxq => dhtmlxq::write(record).map(|block| block + "\n").map_err(|e| e.to_string()),
            Target::Xqf => Err("XQF files are written by convert_xqf".to_string()),
        };
        text.and_then(|text| {
            encode(text, args.output_encoding, args.unmappable).map_err(|c| {
                format!(
                    "{c:?} (U+{:04X}) cannot be written in {}; --unmappable replace writes '?' for it",
                    c as u32, args.output_encoding
                )
            })
        })
    };
    let shape = args.shape.shape();
    // Each game is written where it is read, and only the bytes kept;
    // with --source-tag, the shaped record is kept and written in input
    // order, where the game's number in its input is known.
    let write = |record: Record| {
        let (record, error) = prepare(record, &shape, args.ecco);
        let unreadable = record.unreadable.clone();
        let written = if args.shape.source_tag {
            Written::Later(Box::new(record))
        } else {
            Written::Now(render(&record))
        };
        Converted { written, error, unreadable }
    };
    batch.run(
        &inputs,
        || Map::new(RecordBuilder::default(), write),
        |meta, event| {
            match event {
                Event::Games { first, games } => {
                    tally.batch(games.len());
                    for (k, game) in games.into_iter().enumerate() {
                        let index = first + k;
                        let note = " (moves from there on are kept as written)";
                        tally.game(Outcome::of(
                            &meta.source,
                            index,
                            game.unreadable.as_ref(),
                            game.error.as_ref(),
                            note,
                        ));
                        // An unreadable record is never written as a game.
                        if game.unreadable.is_some() {
                            continue;
                        }
                        let bytes = match game.written {
                            Written::Now(bytes) => bytes,
                            Written::Later(mut record) => {
                                shape::add_source(&mut record, &meta.source, index);
                                render(&record)
                            }
                        };
                        match bytes {
                            Ok(bytes) => out.write_all(&bytes)?,
                            Err(why) => tally.not_written(&format!(
                                "{}: game {}: not written: {why}",
                                meta.source,
                                index + 1
                            )),
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
    out.flush()?;
    if let (Some(file), Some(p)) = (file, output) {
        file.commit().map_err(|e| Failure::usage(format!("{}: {e}", p.display())))?;
    }
    eprintln!("{}; {} written", tally.summary(), tally.written());
    Ok(tally.code())
}

/// A game written, or why it could not be, and how it replayed as read.
#[derive(Debug)]
struct Converted {
    written: Written,
    error: Option<ReplayError>,
    unreadable: Option<Warning>,
}

/// A game's bytes (or why it cannot be written), or the record to write
/// once its place in its input is known.
#[derive(Debug)]
enum Written {
    Now(Result<Vec<u8>, String>),
    Later(Box<Record>),
}

/// `text` in `encoding`; with `Unmappable::Error`, the first character it
/// cannot hold is the error.
fn encode(text: String, encoding: Encoding, unmappable: Unmappable) -> Result<Vec<u8>, char> {
    if encoding == Encoding::Utf8 || text.is_ascii() {
        return Ok(text.into_bytes());
    }
    let text = text.as_str();
    match unmappable {
        Unmappable::Error => encoding.encode(text).map(|b| b.into_owned()),
        Unmappable::Replace => Ok(encoding.encode_replacing(text, '?').into_owned()),
    }
}

/// `record` shaped, and with `--ecco` its ECCO tags set by the moves it
/// keeps (games from another start, or that cannot be set up, keep
/// theirs), with its replay done; and the replay error of the game as read,
/// which the reports count whatever the shaping leaves out.
pub(super) fn prepare(mut record: Record, shape: &Shape, ecco: bool) -> (Record, Option<ReplayError>) {
    let error = record.replayed().error.clone();
    if !shape.is_identity() {
        shape.apply(&mut record);
    }
    if ecco {
        let replayed = record.replayed();
        let code =
            replayed.resolution.start.as_ref().and_then(|start| ecco::classify(start, &replayed.moves));
        if let Some(code) = code {
            ecco::set_tags(&mut record, code);
        }
    }
    (record, error)
}

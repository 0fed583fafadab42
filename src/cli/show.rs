//! `qipu show FEN|startpos|FILE`: a board diagram of a position, for the
//! terminal or as SVG.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::output::{OutputArgs, Sink};
use super::{Failure, color, position_arg};
use qipu::batch::{Batch, Input, ProblemLine};
use qipu::diagram::svg::{SvgStyle, svg};
use qipu::diagram::text::{TextStyle, text};
use qipu::record::visit::Map;
use qipu::record::{Record, RecordBuilder};
use qipu::select::{Judged, Options, PassEvent};
use qipu::{Move, Position};

/// Arguments of `qipu show`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position: a FEN (its fields may be separate words), `startpos`, or a record file of
    /// any format qipu reads (gzip data and zip archives too: --game counts the games of their
    /// members in order), or a folder of them (--game counts the games of its files in the
    /// order every command reads them).
    #[arg(required = true, value_name = "FEN|startpos|FILE")]
    pub position: Vec<String>,
    /// Which game of the file, counted from 1.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub game: usize,
    /// The position after this many plies of the main line (0 is the start; default: its last
    /// position).
    #[arg(long, value_name = "N")]
    pub ply: Option<usize>,
    /// A board for the terminal, or an SVG drawing.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Show the board from Black's side.
    #[arg(long)]
    pub flip: bool,
    /// The SVG drawing's width in pixels (it scales).
    #[arg(long, value_name = "PX", default_value_t = SvgStyle::default().size,
          value_parser = clap::value_parser!(u32).range(16..=20_000))]
    pub size: u32,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// What `qipu show` draws.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A board in box drawing, coloured on a terminal (see --color).
    Text,
    /// A standalone SVG drawing.
    Svg,
}

/// A position to show and the move that led to it.
struct Shown {
    position: Position,
    last_move: Option<Move>,
    /// The last position that replays was shown: the main line stops at an
    /// illegal move.
    cut: bool,
}

/// Draws the position; exit code 1 when the game holds an illegal move
/// (the board then shows the last position before it).
pub fn run(args: &Args, out: &mut dyn Write) -> Result<i32, Failure> {
    let (shown, inputs) = match file_arg(&args.position) {
        Some(path) => {
            let shown = from_file(&path, args.game, args.ply)?;
            let input = Input::File { path, found: false, len: None };
            (shown, vec![input])
        }
        None => {
            if args.ply.is_some_and(|n| n > 0) {
                return Err(Failure::usage("--ply needs a record file; a FEN has only its own position"));
            }
            let position = position_arg(&args.position).map_err(|e| match &args.position[..] {
                // One word that is neither: most likely a file name mistyped.
                [word] if !Path::new(word).exists() => {
                    Failure::usage(format!("{word}: no such file, nor a FEN ({})", e.message))
                }
                _ => e,
            })?;
            (Shown { position, last_move: None, cut: false }, Vec::new())
        }
    };
    let mut sink = Sink::open(args.output.output.as_deref(), args.output.force, &inputs, out)?;
    let drawing = match args.format {
        Format::Text => {
            let colored = !sink.is_file() && color::stdout();
            text(&shown.position, shown.last_move, &TextStyle { flip: args.flip, color: colored })
        }
        Format::Svg => svg(&shown.position, shown.last_move, &SvgStyle { size: args.size, flip: args.flip }),
    };
    sink.write_all(drawing.as_bytes())?;
    sink.commit()?;
    Ok(i32::from(shown.cut))
}

/// The file or folder the argument names, when it is one word naming one
/// (a FEN is never one).
fn file_arg(words: &[String]) -> Option<PathBuf> {
    let [word] = words else { return None };
    let path = Path::new(word);
    (word != "startpos" && (path.is_file() || path.is_dir())).then(|| path.to_path_buf())
}

/// The position after `ply` plies (default: all that replay) of the main
/// line of game `game` (from 1) of the record file `path`, read as every
/// command reads its inputs (gzip data inflated, a zip archive's members in
/// order), up to that game and no further.
fn from_file(path: &Path, game: usize, ply: Option<usize>) -> Result<Shown, Failure> {
    let name = path.display();
    let expanded = qipu::batch::expand(&[path.to_path_buf()]);
    let skip = game.checked_sub(1).ok_or_else(|| Failure::usage("--game counts from 1"))?;
    let options = Options { skip: skip as u64, limit: Some(1), ..Options::default() };
    let mut chooser = options.chooser().map_err(|e| Failure::usage(e.to_string()))?;
    let make = || Map::new(RecordBuilder::default(), |game| Judged { matches: true, key: None, game });
    let mut found: Option<(String, usize, Record)> = None;
    let mut unreadable: Option<String> = None;
    let summary = chooser.pass(&Batch::new().threads(1), &expanded.inputs, make, |meta, event| {
        match event {
            PassEvent::Game { index, game, selected: true } => {
                found = Some((meta.source.clone(), index, game))
            }
            PassEvent::Unreadable { reason, selected: true } => {
                unreadable = Some(format!("{}: unreadable: {reason}", meta.source));
            }
            _ => {}
        }
        Ok::<(), Failure>(())
    })?;
    if let Some(message) = unreadable {
        return Err(Failure { message, code: 1 });
    }
    let Some((source, index, record)) = found else {
        let count = summary.games;
        return Err(Failure::usage(format!(
            "{name}: --game {game}: the file holds {count} game(s), 1 to {count}"
        )));
    };
    let name = source;
    let game = index + 1;
    let at = format!("{name}: game {game}");
    if let Some(why) = record.unreadable() {
        return Err(Failure { message: format!("{at}: unreadable: {}", why.message), code: 1 });
    }
    let replayed = record.replayed();
    if !replayed.has_start() {
        let why = replayed
            .error
            .as_ref()
            .map_or_else(|| "no legal start position".to_string(), ToString::to_string);
        return Err(Failure { message: format!("{at}: {why}"), code: 1 });
    }
    // The first wrong move of the main line, if any: the moves before it replayed.
    let wrong = replayed.error.as_ref().filter(|e| e.variation.is_none());
    let plies = replayed.plies;
    let n = match ply {
        Some(n) if n > plies => {
            let message = match wrong {
                Some(e) => format!("{at}: --ply {n}: only {plies} plies replay; {e}"),
                None => format!("{at}: --ply {n}: the main line has {plies} plies (0 to {plies})"),
            };
            return Err(Failure::usage(message));
        }
        Some(n) => n,
        None => plies,
    };
    let cut = ply.is_none() && wrong.is_some();
    if let (true, Some(e)) = (cut, wrong) {
        let note = format!(" (showing the position after ply {plies}, the last that replays)");
        let line = ProblemLine::replay(&name, game - 1, e, &note).to_string();
        eprintln!("{}", color::problem_if(color::stderr(), &line));
    }
    let position = record
        .positions()
        .nth(n)
        .ok_or_else(|| Failure { message: format!("{at}: ply {n} did not replay"), code: 1 })?;
    let last_move = n.checked_sub(1).map(|i| replayed.moves[i]);
    Ok(Shown { position, last_move, cut })
}

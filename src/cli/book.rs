//! `qipu book build|probe`: opening books engines read (ElephantEye's
//! `BOOK.DAT`, OOBS `.obs.db3`), built from the selected games and probed
//! for a position's moves.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::args::Opened;
use super::progress::{Outcome, Tally};
use super::{Failure, OutputFormat};
use qipu::book::build::{BookBuilder, BookLine, Keying, Points, PositionKey};
use qipu::book::{eleeye, obs};
use qipu::select::PassEvent;
use qipu::{Move, Position};

/// The format of a book.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BookFormat {
    /// ElephantEye's BOOK.DAT (8-byte records; also read by XQWizard).
    Eleeye,
    /// OOBS, an SQLite database (`.obs.db3`).
    Obs,
}

/// `qipu book` and its subcommands.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The subcommands of `qipu book`.
#[derive(Debug, clap::Subcommand)]
pub enum BookCommand {
    /// Build a book from the selected games' first plies.
    ///
    /// Each game's main line is replayed; its first --depth plies give the book its positions
    /// and the moves played there. ElephantEye (BOOK.DAT): a position and its mirror image are
    /// one entry, as the engine looks them up; a move's weight is the sum, over the games that
    /// played it, of --points for a win, a draw, a loss of the side that played it (default
    /// 2,1,0; a game without a result counts as a draw), at most 65535; moves of weight 0 are
    /// left out. OOBS (.obs.db3): one row for each position (by EPD) and move, with the games
    /// won by Red (Win), drawn (Draw) and won by Black (Loss); games without a result are not
    /// counted there. Either way a move needs --min-games games. The format is taken from the
    /// name of -o (*.db3 is OOBS, anything else ElephantEye) or from --format.
    #[command(
        after_help = "Examples:\n  qipu book build collection/ -o BOOK.DAT --depth 24 --min-games 3\n  qipu book build games.pgn --result 1-0 --result 0-1 -o book.obs.db3\n  qipu book build collection/ --dedupe -o BOOK.DAT --points 3,1,-1"
    )]
    Build(Box<BuildArgs>),
    /// List a book's moves for a position, the heaviest (or most played) first.
    ///
    /// An ElephantEye book is searched as the engine searches it: the position, else its mirror
    /// image (its moves mirrored back); only legal moves are listed. An OOBS book (told by its
    /// content) lists the rows of the position's EPD with their games. The position is a FEN
    /// (quoted or not) or `startpos`.
    #[command(
        after_help = "Examples:\n  qipu book probe BOOK.DAT startpos\n  qipu book probe book.obs.db3 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b' --format json"
    )]
    Probe(ProbeArgs),
}

/// Arguments of `qipu book build`.
#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// How many plies of each game go into the book.
    #[arg(long, default_value_t = 20)]
    pub depth: usize,
    /// Leave out moves played in fewer games than this.
    #[arg(long, default_value_t = 1)]
    pub min_games: u32,
    /// The book's format (default: from the name of -o).
    #[arg(long, value_enum)]
    pub format: Option<BookFormat>,
    /// ElephantEye weights: points for a win, a draw and a loss of the side that played the
    /// move.
    #[arg(long, value_name = "W,D,L", default_value = "2,1,0", value_parser = parse_points)]
    pub points: Points,
    #[command(flatten)]
    pub batch: super::args::BatchArgs,
}

/// Arguments of `qipu book probe`.
#[derive(Debug, clap::Args)]
pub struct ProbeArgs {
    /// The book: ElephantEye's BOOK.DAT or an OOBS database.
    #[arg(value_name = "BOOK")]
    pub book: PathBuf,
    /// The position: a FEN (one or more words) or `startpos`.
    #[arg(required = true, value_name = "FEN|startpos", num_args = 1..)]
    pub position: Vec<String>,
    /// `text` (one move a line) or `json` (one object per move).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

fn parse_points(text: &str) -> Result<Points, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [win, draw, loss] = parts[..] else {
        return Err(format!("{text:?}: expected three numbers W,D,L such as 2,1,0"));
    };
    let number = |s: &str| s.parse::<i64>().ok().filter(|n| n.abs() <= 65535);
    match (number(win), number(draw), number(loss)) {
        (Some(win), Some(draw), Some(loss)) => Ok(Points { win, draw, loss }),
        _ => Err(format!("{text:?}: expected three whole numbers from -65535 to 65535")),
    }
}

/// Runs `qipu book ...`.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    match &args.command {
        BookCommand::Build(build) => run_build(build, stdout),
        BookCommand::Probe(probe) => run_probe(probe, stdout).map(|()| 0),
    }
}

/// The format of a book written to `output`.
fn format_of(asked: Option<BookFormat>, output: Option<&Path>) -> BookFormat {
    asked.unwrap_or_else(|| match output.and_then(|p| p.extension()) {
        Some(ext) if ext.eq_ignore_ascii_case("db3") => BookFormat::Obs,
        _ => BookFormat::Eleeye,
    })
}

fn run_build(args: &BuildArgs, stdout: &mut impl Write) -> Result<i32, Failure> {
    if args.depth == 0 {
        return Err(Failure::usage("--depth must be at least 1"));
    }
    if args.batch.output.output.is_none() {
        return Err(Failure::usage(
            "book build writes a binary file: give -o FILE (-o - for standard output)",
        ));
    }
    let format = format_of(args.format, args.batch.output.output.as_deref());
    let keying = match format {
        BookFormat::Eleeye => Keying::Eleeye,
        BookFormat::Obs => Keying::Epd,
    };
    let Opened { inputs, mut sink, batch, mut chooser } = args.batch.open(stdout)?;
    let mut tally = Tally::new(inputs.len());
    let mut book = BookBuilder::new();
    let selection = chooser.selection().clone();
    let depth = args.depth;
    let make = || selection.checker(BookLine::new(depth, keying));
    chooser.pass(&batch, &inputs, &mut tally, make, |meta, event, tally| {
        if let PassEvent::Game { index, game, selected } = event {
            let outcome = Outcome::checked(&meta.source, index, &game, "");
            if selected && game.unreadable.is_none() {
                book.add(game.followed, game.result);
            }
            tally.game_as(outcome, selected);
        }
        Ok(())
    })?;
    let (bytes, entries, positions) = match format {
        BookFormat::Eleeye => {
            let records = book.eleeye_records(args.points, args.min_games);
            let positions = count_runs(records.iter().map(|r| r.lock));
            (eleeye::write(&records), records.len(), positions)
        }
        BookFormat::Obs => {
            let rows = obs_rows(&book, args.min_games);
            let positions = count_runs(rows.iter().map(|r| r.epd.as_str()));
            let description = format!("built by qipu from {} game(s), {} plies", book.games(), depth);
            let bytes = obs::write(&rows, &description)
                .map_err(|e| Failure::usage(format!("cannot write the book: {e}")))?;
            (bytes, rows.len(), positions)
        }
    };
    sink.write_all(&bytes)?;
    sink.commit()?;
    eprintln!("{}{}", tally.summary(), chooser.summary());
    let name = match format {
        BookFormat::Eleeye => "ElephantEye",
        BookFormat::Obs => "OOBS",
    };
    super::quiet::info!(
        "{name} book of {} game(s), {} plies: {entries} move(s) in {positions} position(s)",
        book.games(),
        depth
    );
    Ok(tally.code())
}

/// How many runs of equal values `values` has.
fn count_runs<T: PartialEq>(values: impl Iterator<Item = T>) -> usize {
    let mut last = None;
    let mut runs = 0;
    for v in values {
        if last.as_ref() != Some(&v) {
            runs += 1;
            last = Some(v);
        }
    }
    runs
}

fn obs_rows(book: &BookBuilder, min_games: u32) -> Vec<obs::Row> {
    book.moves(min_games)
        .into_iter()
        .filter_map(|(p, m, g)| match p {
            PositionKey::Epd(epd) => Some(obs::Row {
                epd: epd.clone(),
                m,
                active: true,
                win: g.red_wins,
                draw: g.draws,
                loss: g.black_wins,
            }),
            PositionKey::Eleeye(_) => None,
        })
        .collect()
}

/// One move of a probe, as a JSON line.
#[derive(Serialize)]
struct JsonMove {
    #[serde(rename = "move")]
    mv: String,
    /// ElephantEye: the weight.
    #[serde(skip_serializing_if = "Option::is_none")]
    weight: Option<u16>,
    /// OOBS: the games won by Red, drawn, won by Black, and whether the move is active.
    #[serde(skip_serializing_if = "Option::is_none")]
    win: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    draw: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loss: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    active: Option<bool>,
}

fn run_probe(args: &ProbeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let pos = super::position_arg(&args.position)?;
    let path = &args.book;
    let named = |e: &dyn std::fmt::Display| Failure::usage(format!("{}: {e}", path.display()));
    let mut file = File::open(path).map_err(|e| named(&e))?;
    let mut magic = [0u8; 16];
    let got = read_up_to(&mut file, &mut magic).map_err(|e| named(&e))?;
    let moves: Vec<JsonMove> = if got == 16 && &magic == b"SQLite format 3\0" {
        drop(file);
        obs_probe(path, &pos).map_err(|e| named(&e))?
    } else {
        let moves = eleeye::probe(&mut file, &pos).map_err(|e| named(&e))?;
        moves
            .into_iter()
            .map(|b| JsonMove {
                mv: b.m.to_string(),
                weight: Some(b.weight),
                win: None,
                draw: None,
                loss: None,
                active: None,
            })
            .collect()
    };
    for m in &moves {
        match args.format {
            OutputFormat::Json => {
                super::write_json(&mut *out, m)?;
                writeln!(out)?;
            }
            OutputFormat::Text => match m.weight {
                Some(weight) => writeln!(out, "{} {weight}", m.mv)?,
                None => {
                    let (w, d, l) = (m.win.unwrap_or(0), m.draw.unwrap_or(0), m.loss.unwrap_or(0));
                    let inactive = if m.active == Some(false) { " (inactive)" } else { "" };
                    writeln!(out, "{} {} game(s), +{w} ={d} -{l}{inactive}", m.mv, w + d + l)?;
                }
            },
        }
    }
    if moves.is_empty() {
        let why = format!("no move for {}", pos.fen());
        let line =
            qipu::batch::ProblemLine::warning(&path.display().to_string(), None, None, why).to_string();
        eprintln!("{}", super::color::problem_if(super::color::stderr(), &line));
    }
    Ok(())
}

fn obs_probe(path: &Path, pos: &Position) -> Result<Vec<JsonMove>, obs::ObsError> {
    let mut rows = obs::probe(path, pos)?;
    rows.sort_by_key(|r| std::cmp::Reverse(u64::from(r.win) + u64::from(r.draw) + u64::from(r.loss)));
    Ok(rows
        .into_iter()
        .map(|r| JsonMove {
            mv: Move::to_string(&r.m),
            weight: None,
            win: Some(r.win),
            draw: Some(r.draw),
            loss: Some(r.loss),
            active: Some(r.active),
        })
        .collect())
}

/// Reads up to `buf.len()` bytes; how many were read.
fn read_up_to(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match file.read(&mut buf[got..])? {
            0 => break,
            n => got += n,
        }
    }
    Ok(got)
}

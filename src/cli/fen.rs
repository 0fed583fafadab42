//! `qipu fen PATH...`: the FEN trail of each game, the position after every
//! ply of the main line, or with `--all-lines` of every line (the line
//! named by its [`LineId`](qipu::record::replay::LineId)), as
//! [`qipu::analysis::trail`] follows it.
//!
//! Text, JSON, CSV or EPD, written by [`qipu::analysis::fen_lines`]. An
//! EPD line is the position's four fields then these opcodes:
//!
//! | opcode | operand |
//! |---|---|
//! | `hmvc` | the halfmove clock (standard EPD) |
//! | `fmvn` | the fullmove number (standard EPD) |
//! | `line` | with `--all-lines` only: the line (`0` = main line) |
//! | `ply` | plies from the start of the game (0 = the start position) |
//! | `move` | the move that led there, in `--notation`; none at ply 0 |
//! | `source` | the input's name, quoted |
//! | `game` | the game's number in its input, from 1 |
//! | `result` | the game's result: `1-0`, `0-1`, `1/2-1/2`, `*` for none |
//! | `ecco` | the ECCO code of the game's opening; none for a game from another start |

use std::io::Write;

use super::Failure;
use super::progress::{Outcome, Tally};
use qipu::analysis::fen_lines;
use qipu::batch::ProblemLine;
use qipu::record::GameResult;
use qipu::record::replay::MAX_LINE_DEPTH;
use qipu::select::PassEvent;

/// Output formats of `qipu fen`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FenFormat {
    /// `source game ply move fen`, tab-separated, for people and simple tools (games numbered
    /// from 1).
    Text,
    /// One JSON object per ply and line: source, index, ply, move, fen, side, result, and
    /// eval when the comment of the move holds an engine evaluation (`jsonl` is accepted too).
    #[value(alias = "jsonl")]
    Json,
    /// CSV with a header line: source,index,ply,move,fen,side,result.
    Csv,
    /// One EPD line per position: the position, then the opcodes hmvc, fmvn, ply, move,
    /// source, game, result and ecco.
    Epd,
}

impl From<FenFormat> for fen_lines::FenFormat {
    fn from(format: FenFormat) -> fen_lines::FenFormat {
        match format {
            FenFormat::Text => fen_lines::FenFormat::Text,
            FenFormat::Json => fen_lines::FenFormat::Json,
            FenFormat::Csv => fen_lines::FenFormat::Csv,
            FenFormat::Epd => fen_lines::FenFormat::Epd,
        }
    }
}

/// Arguments of `qipu fen`.
#[derive(Debug, clap::Args)]
#[command(mut_arg("notation", |a| a.help("Notation of the `move` field").default_value("iccs")))]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = FenFormat::Text)]
    pub format: FenFormat,
    /// Every line, not only the main line: the positions of every variation too, each with its
    /// line (`0` the main line, `2` the second variation of the main line, `2.1` the first
    /// variation within that one), in a `line` field before the ply.
    #[arg(long)]
    pub all_lines: bool,
    #[command(flatten)]
    pub notation: super::args::NotationArgs,
    #[command(flatten)]
    pub batch: super::args::BatchArgs,
}

/// Writes the FEN trails; problems go to standard error.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let mut inputs = args.batch.read.inputs(&[args.batch.output.output.as_deref()]);
    let mut sink = args.batch.output.open(&inputs, stdout)?;
    let out = &mut sink;
    let batch = args.batch.read.batch()?;
    let notation = args.notation.notation();
    let format: fen_lines::FenFormat = args.format.into();
    if format == fen_lines::FenFormat::Csv {
        writeln!(out, "{}", fen_lines::csv_header(args.all_lines))?;
    }
    let mut tally = Tally::new(inputs.len());
    let mut chooser = super::select::Chooser::new(&args.batch.select)?;
    chooser.plan(&mut inputs, &batch)?;
    let selection = chooser.selection().clone();
    let follower = || selection.checker(format.trail(notation, args.all_lines));
    chooser.pass(&batch, &inputs, &mut tally, follower, |meta, event, tally| {
        let PassEvent::Game { index, game, selected } = event else { return Ok(()) };
        if !selected {
            tally.game_as(Outcome::checked(&meta.source, index, &game, ""), false);
            return Ok(());
        }
        // Ply 0 is the placement as read, legal or not; the moves follow
        // from the position when it is a legal one.
        if let Some(setup) = &game.replayed.resolution.setup {
            let result = game.result.unwrap_or(GameResult::Unknown).as_str();
            let ends = fen_lines::LineEnds::new(format, meta, index, result, game.followed.ecco);
            ends.write(out, &fen_lines::start_lines(setup, format, args.all_lines))?;
            ends.write(out, &game.followed.positions)?;
        }
        if game.followed.too_deep {
            let why =
                format!("variations nested more than {MAX_LINE_DEPTH} deep: their positions are left out");
            tally.warn(&ProblemLine::warning(&meta.source, None, Some(index), why));
        }
        let in_main_line = game.replayed.error.as_ref().is_some_and(|e| !e.in_variation());
        let stops = if in_main_line { " (the trail stops there)" } else { "" };
        tally.game(Outcome::checked(&meta.source, index, &game, stops));
        Ok(())
    })?;
    sink.commit()?;
    eprintln!("{}{}", tally.summary(), chooser.summary());
    Ok(tally.code())
}

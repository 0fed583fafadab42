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
//!
//! `--format sf-plain` writes Stockfish's "plain" training text (see
//! [`qipu::analysis::fen_lines`]): main line only (`--all-lines` is a
//! usage error), moves as UCI coordinates, games without a result skipped
//! and counted on standard error; `--skip-check`, `--skip-capture`,
//! `--min-ply` and `--require-eval` choose its positions (usage errors
//! with the other formats, which write every position).

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
    /// Stockfish's "plain" training text, six lines per position a move was played from:
    /// `fen`, `move` (the move played from it, UCI coordinates: h2e2), `score` (centipawns,
    /// side to move's view; 32002 when the record gives none), `ply` (0 = start), `result`
    /// (side to move's view: 1, 0, -1), `e`. Main line only; games without a result skipped.
    SfPlain,
}

impl From<FenFormat> for fen_lines::FenFormat {
    fn from(format: FenFormat) -> fen_lines::FenFormat {
        match format {
            FenFormat::Text => fen_lines::FenFormat::Text,
            FenFormat::Json => fen_lines::FenFormat::Json,
            FenFormat::Csv => fen_lines::FenFormat::Csv,
            FenFormat::Epd => fen_lines::FenFormat::Epd,
            FenFormat::SfPlain => fen_lines::FenFormat::SfPlain,
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
    /// With --format sf-plain: leave out the positions whose side to move is in check.
    #[arg(long, help_heading = "Training data (--format sf-plain)")]
    pub skip_check: bool,
    /// With --format sf-plain: leave out the positions whose move (the one played from them)
    /// takes a piece, as Stockfish's trainers filter.
    #[arg(long, help_heading = "Training data (--format sf-plain)")]
    pub skip_capture: bool,
    /// With --format sf-plain: leave out the positions before ply N (ply 0 is the start).
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = "Training data (--format sf-plain)")]
    pub min_ply: usize,
    /// With --format sf-plain: leave out the positions the record gives no evaluation of
    /// (those whose score would be 32002).
    #[arg(long, help_heading = "Training data (--format sf-plain)")]
    pub require_eval: bool,
    #[command(flatten)]
    pub notation: super::args::NotationArgs,
    #[command(flatten)]
    pub batch: super::args::BatchArgs,
}

impl Args {
    /// The positions sf-plain keeps; a usage error when the flags do not
    /// go with the format asked for.
    fn training_filter(&self) -> Result<fen_lines::TrainingFilter, Failure> {
        let filter = fen_lines::TrainingFilter {
            skip_check: self.skip_check,
            skip_capture: self.skip_capture,
            min_ply: self.min_ply,
            require_eval: self.require_eval,
        };
        if self.format != FenFormat::SfPlain {
            let given = [
                (self.skip_check, "--skip-check"),
                (self.skip_capture, "--skip-capture"),
                (self.min_ply > 0, "--min-ply"),
                (self.require_eval, "--require-eval"),
            ];
            if let Some((_, flag)) = given.iter().find(|(on, _)| *on) {
                return Err(Failure::usage(format!(
                    "{flag} is for --format sf-plain (training data): the other formats write every position"
                )));
            }
            return Ok(filter);
        }
        if self.all_lines {
            return Err(Failure::usage(
                "--all-lines cannot be given with --format sf-plain: a training position is followed by \
                 the move played from it, on the main line",
            ));
        }
        if matches!(self.notation.notation, super::MoveNotation::Chinese | super::MoveNotation::Wxf) {
            return Err(Failure::usage(
                "--format sf-plain writes moves as UCI coordinates (h2e2): leave out --notation",
            ));
        }
        Ok(filter)
    }
}

/// Writes the FEN trails; problems go to standard error.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let filter = args.training_filter()?;
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
    let follower = || selection.checker(format.training_trail(notation, args.all_lines, filter));
    let training = format == fen_lines::FenFormat::SfPlain;
    // sf-plain: games whose result is not known give no training positions.
    let mut without_result = 0usize;
    chooser.pass(&batch, &inputs, &mut tally, follower, |meta, event, tally| {
        let PassEvent::Game { index, game, selected } = event else { return Ok(()) };
        if !selected {
            tally.game_as(Outcome::checked(&meta.source, index, &game, ""), false);
            return Ok(());
        }
        // Ply 0 is the placement as read, legal or not; the moves follow
        // from the position when it is a legal one.
        let result = game.result.unwrap_or(GameResult::Unknown);
        if training && result == GameResult::Unknown {
            without_result += 1;
        } else if let Some(setup) = &game.replayed.resolution.setup {
            let result = result.as_str();
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
    if without_result > 0 {
        let s = if without_result == 1 { "" } else { "s" };
        eprintln!("{without_result} game{s} without a result skipped (sf-plain needs the result)");
    }
    Ok(tally.code())
}

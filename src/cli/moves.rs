//! `qipu moves FEN`: the legal moves of a position.

use std::io::Write;

use super::{Failure, position_arg};
use crate::Outcome;
use crate::notation::{chinese, iccs, wxf};

/// How `qipu moves` writes each move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MoveNotation {
    /// Lower-case coordinates without hyphen: h2e2 (UCCI).
    Uci,
    /// ICCS: H2-E2.
    Iccs,
    /// Chinese: 炮二平五 (red numerals 一…九, black digits １…９).
    Chinese,
    /// WXF: C2.5.
    Wxf,
}

/// Which characters Chinese notation is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ChineseStyle {
    /// 车马炮帅 / 将, 进退平, 后.
    Simplified,
    /// 車馬砲帥 / 將, 進退平, 後.
    Traditional,
}

/// Arguments of `qipu moves`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position: a FEN (its fields may be separate words) or `startpos`.
    #[arg(required = true, value_name = "FEN|startpos")]
    pub position: Vec<String>,
    /// How to write the moves; they stay in the order of their coordinates.
    #[arg(long, value_enum, default_value_t = MoveNotation::Uci)]
    pub notation: MoveNotation,
    /// Characters for --notation chinese.
    #[arg(long, value_enum, default_value_t = ChineseStyle::Simplified)]
    pub chinese: ChineseStyle,
}

/// Prints the sorted legal moves.
pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let pos = position_arg(&args.position)?;
    let mut moves = pos.legal_moves();
    moves.sort();
    let style = match args.chinese {
        ChineseStyle::Simplified => chinese::Style::Simplified,
        ChineseStyle::Traditional => chinese::Style::Traditional,
    };
    for &m in moves.iter() {
        match args.notation {
            MoveNotation::Uci => writeln!(out, "{m}")?,
            MoveNotation::Iccs => writeln!(out, "{}", iccs::write(m, iccs::Style::Iccs))?,
            MoveNotation::Chinese => writeln!(out, "{}", chinese::write(&pos, m, style))?,
            MoveNotation::Wxf => writeln!(out, "{}", wxf::write(&pos, m))?,
        }
    }
    match pos.outcome() {
        Some(Outcome::Checkmate { winner }) => {
            eprintln!("no legal moves: {} is checkmated ({winner} wins)", !winner)
        }
        Some(Outcome::Stalemate { winner }) => {
            eprintln!("no legal moves: {} is stalemated and loses ({winner} wins)", !winner)
        }
        None => {}
    }
    Ok(())
}

//! `qipu moves FEN`: the legal moves of a position.

use std::io::Write;

use super::{Failure, position_arg};
use qipu::Outcome;

/// Arguments of `qipu moves`.
#[derive(Debug, clap::Args)]
#[command(mut_arg("notation", |a| a.help("How to write the moves; they stay in the order of their coordinates").default_value("uci")))]
pub struct Args {
    /// The position: a FEN (its fields may be separate words) or `startpos`.
    #[arg(required = true, value_name = "FEN|startpos")]
    pub position: Vec<String>,
    #[command(flatten)]
    pub notation: super::args::NotationArgs,
}

/// Prints the sorted legal moves.
pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let pos = position_arg(&args.position)?;
    let mut moves = pos.legal_moves();
    moves.sort();
    let notation = args.notation.notation();
    for &m in moves.iter() {
        // A legal move has a piece on its origin: the text is always written.
        let text = notation.write(&pos, m).unwrap_or_else(|_| m.to_string());
        writeln!(out, "{text}")?;
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

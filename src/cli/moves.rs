//! `qipu moves FEN`: the legal moves of a position.

use std::io::Write;

use super::{Failure, position_arg};
use crate::Outcome;

/// Arguments of `qipu moves`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position: a FEN (its fields may be separate words) or `startpos`.
    #[arg(required = true, value_name = "FEN|startpos")]
    pub position: Vec<String>,
}

/// Prints the sorted legal moves.
pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let pos = position_arg(&args.position)?;
    let mut moves = pos.legal_moves();
    moves.sort();
    for m in moves.iter() {
        writeln!(out, "{m}")?;
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

//! `qipu perft FEN|startpos DEPTH [--divide]`: perft node counts.

use std::io::Write;

use super::{Failure, position_arg};

/// Arguments of `qipu perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position (a FEN, its fields may be separate words, or `startpos`) followed by the
    /// depth in plies.
    #[arg(required = true, num_args = 2.., value_name = "FEN|startpos DEPTH")]
    pub words: Vec<String>,
    /// Print each legal move (sorted, lower-case ICCS) with the nodes below it, then the total.
    #[arg(long)]
    pub divide: bool,
}

/// Prints the node count (or the divided counts and the total).
pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let (depth_word, fen_words) = args.words.split_last().expect("clap requires two words");
    let depth: u32 = depth_word.parse().map_err(|_| {
        Failure::usage(format!("depth {depth_word:?} is not a number of plies (0, 1, 2, ...)"))
    })?;
    let pos = position_arg(fen_words)?;
    if args.divide {
        let split = qipu::divide(&pos, depth);
        for (m, n) in &split {
            writeln!(out, "{m} {n}")?;
        }
        let total: u64 = if depth == 0 { 1 } else { split.iter().map(|(_, n)| n).sum() };
        writeln!(out)?;
        writeln!(out, "{total}")?;
    } else {
        writeln!(out, "{}", qipu::perft(&pos, depth))?;
    }
    Ok(())
}

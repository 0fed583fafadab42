//! Validates files and whole folders on several threads with one call to
//! the batch API: every game of every input (folders searched
//! recursively, any format) is replayed by a [`Checker`], and each game's
//! status is printed in input order (problems as [`ProblemLine`]s, the
//! form every qipu report uses), then a summary.
//!
//! `cargo run --release --example parallel_validate -- [--threads N] PATH...`
//!
//! Example output:
//!
//! ```text
//! $ cargo run --release --example parallel_validate -- --threads 2 fixtures
//! fixtures/LICENSE-wukong-xiangqi: warning: holds no record: text without a game record: no line of moves
//! fixtures/README.md: warning: holds no record: text without a game record: no line of moves
//! fixtures/eleeye/keys.txt: warning: holds no record: text without a game record: no line of moves
//! fixtures/online/game1.ccm: game 1: ok, 65 plies
//! fixtures/online/game1.che: game 1: ok, 65 plies
//! ...
//! fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn: game 1391: ok, 51 plies
//! 1416 game(s): 1416 valid, 0 illegal, 0 unreadable (24 input(s), 3 holding no record)
//! ```

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use qipu::batch::{self, Batch, Checker, Event, ProblemLine, Status};

/// The tally of the summary line.
#[derive(Default)]
struct Summary {
    valid: usize,
    illegal: usize,
    unreadable: usize,
    no_record: usize,
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if args.peek().is_some_and(|a| a == "--threads") {
        args.next();
        match args.next().and_then(|n| n.parse().ok()) {
            Some(n) => threads = n,
            None => {
                eprintln!("--threads takes a number");
                return ExitCode::from(2);
            }
        }
    }
    let paths: Vec<PathBuf> = args.map(PathBuf::from).collect();
    if paths.is_empty() {
        eprintln!("usage: parallel_validate [--threads N] PATH...");
        return ExitCode::from(2);
    }

    // Files, folders (walked, each file once) and `-` for standard input.
    let expanded = batch::expand(&paths);
    let mut summary = Summary::default();
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    // One checker per job; what it makes of each game comes back in input
    // order, whatever the thread that read it.
    let run = Batch::new().threads(threads).run(&expanded.inputs, Checker::default, |meta, event| {
        match event {
            Event::Games { first, games } => {
                for (k, checked) in games.iter().enumerate() {
                    let game = first + k + 1;
                    let plies = checked.replayed.plies;
                    match (checked.status, &checked.replayed.error) {
                        (Status::Valid, _) => {
                            summary.valid += 1;
                            writeln!(out, "{}: game {game}: ok, {plies} plies", meta.source)?;
                        }
                        // Problems in the one line form every qipu report uses.
                        (Status::Illegal, Some(e)) => {
                            summary.illegal += 1;
                            writeln!(out, "{}", ProblemLine::replay(&meta.source, game - 1, e, ""))?;
                        }
                        (_, e) => {
                            summary.unreadable += 1;
                            let line = match (&checked.unreadable, e) {
                                (Some(why), _) => ProblemLine::unreadable_game(&meta.source, game - 1, why),
                                (None, Some(e)) => ProblemLine::replay(&meta.source, game - 1, e, ""),
                                (None, None) => {
                                    ProblemLine::unreadable_input(&meta.source, "no reason given")
                                }
                            };
                            writeln!(out, "{line}")?;
                        }
                    }
                }
            }
            // The whole input, or the rest of it, cannot be read.
            Event::Unreadable(why) => {
                summary.unreadable += 1;
                writeln!(out, "{}", ProblemLine::unreadable_input(&meta.source, why))?;
            }
            // Found in a folder, and no record at all (prose, an image).
            Event::NoRecord(why) => {
                summary.no_record += 1;
                writeln!(out, "{}", ProblemLine::no_record(&meta.source, why))?;
            }
            Event::Done => {}
        }
        // An error (standard output closed) stops the batch.
        Ok::<(), std::io::Error>(())
    });
    if let Err(e) = run.and_then(|()| out.flush()) {
        eprintln!("parallel_validate: {e}");
        return ExitCode::FAILURE;
    }
    drop(out);
    let Summary { valid, illegal, unreadable, no_record } = summary;
    let no_record = if no_record > 0 { format!(", {no_record} holding no record") } else { String::new() };
    println!(
        "{} game(s): {valid} valid, {illegal} illegal, {unreadable} unreadable ({} input(s){no_record})",
        valid + illegal + unreadable,
        expanded.inputs.len()
    );
    if illegal + unreadable > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

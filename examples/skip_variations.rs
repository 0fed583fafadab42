//! Replays the main line of each game, and only that: a visitor that skips
//! every variation (the reader goes past it without calling the visitor)
//! and stops reading a game's moves at the first one that does not replay,
//! or after `--plies N` plies. Prints the length of each game's main line
//! as far as it was read, and why it stopped early.
//!
//! `cargo run --release --example skip_variations -- [--plies N] FILE...`
//!
//! Example output:
//!
//! ```text
//! $ cargo run --release --example skip_variations -- --plies 60 fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn
//! fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn: game 1: 60 plies (stopped after 60)
//! fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn: game 2: 60 plies (stopped after 60)
//! ...
//! fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn: 1391 games, 79806 main-line plies, 0 illegal, 1081 stopped after 60 plies
//! $ printf '[Event "x"]\n1. 炮二平五 (1. 相三进五) 马８进７\n2. 马二进四 马２进３ *\n' > bad.pgn
//! $ cargo run --release --example skip_variations -- bad.pgn
//! bad.pgn: game 1: 2 plies, stopped: ply 3 (line 3, column 4): 马二进四: illegal: h0f1: the horse is blocked at g0 (horse leg)
//! bad.pgn: 1 games, 2 main-line plies, 1 illegal
//! ```

use std::io::Write;
use std::ops::ControlFlow;
use std::process::ExitCode;

use qipu::batch::ProblemLine;
use qipu::formats::stream::read_stream_with;
use qipu::record::replay::{Replayed, Replayer};
use qipu::record::{GameResult, RecordedMove, Skip, Span, Visitor, Warning};

/// Why a game's moves stopped being read before its end.
#[derive(Debug)]
enum Stop {
    /// After this many plies.
    Limit(usize),
    /// At a move that does not replay (the replay says where and why).
    Illegal,
}

/// What the visitor makes of a game: the replay of its main line as far
/// as it was read, and why it stopped early.
struct MainLine {
    replayed: Replayed,
    stop: Option<Stop>,
}

/// Replays the main line with a [`Replayer`] it hands the events to; the
/// variations are skipped, so the replayer never sees them.
struct MainLineOnly {
    replayer: Replayer,
    limit: usize,
    plies: usize,
    stop: Option<Stop>,
}

impl Visitor for MainLineOnly {
    type Output = MainLine;

    fn begin_game(&mut self, at: Span) {
        self.replayer.begin_game(at);
    }

    // The replayer needs the `FEN` tag (the start position).
    fn tag(&mut self, name: &str, value: &str, at: Span) {
        self.replayer.tag(name, value, at);
    }

    fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
        let _ = self.replayer.mv(mv);
        if self.replayer.last_move().is_none() {
            // It did not replay: the rest of the game's moves are not read.
            self.stop = Some(Stop::Illegal);
            return ControlFlow::Break(());
        }
        self.plies += 1;
        if self.plies == self.limit {
            self.stop = Some(Stop::Limit(self.limit));
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }

    fn result(&mut self, result: GameResult) {
        self.replayer.result(result);
    }

    fn unreadable(&mut self, why: Warning) {
        self.replayer.unreadable(why);
    }

    fn end_game(&mut self) -> MainLine {
        self.plies = 0;
        MainLine { replayed: self.replayer.end_game(), stop: self.stop.take() }
    }
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    let mut limit = usize::MAX;
    if args.peek().is_some_and(|a| a == "--plies") {
        args.next();
        match args.next().and_then(|n| n.parse().ok()) {
            Some(n) if n > 0 => limit = n,
            _ => {
                eprintln!("--plies takes a number above 0");
                return ExitCode::from(2);
            }
        }
    }
    let paths: Vec<String> = args.collect();
    if paths.is_empty() {
        eprintln!("usage: skip_variations [--plies N] FILE...");
        return ExitCode::from(2);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut failed = false;
    for path in &paths {
        let file = match std::fs::File::open(path) {
            Ok(file) => file,
            Err(e) => {
                eprintln!("{}", ProblemLine::input_error(path, format!("cannot read: {e}")));
                failed = true;
                continue;
            }
        };
        let mut visitor =
            MainLineOnly { replayer: Replayer::default().keep_moves(false), limit, plies: 0, stop: None };
        let (mut games, mut plies, mut illegal, mut limited) = (0, 0, 0, 0);
        let mut written = Ok(());
        let read = read_stream_with(file, None, &mut visitor, |game| {
            games += 1;
            plies += game.replayed.plies;
            let why = match (&game.stop, &game.replayed.error) {
                (Some(Stop::Limit(n)), _) => {
                    limited += 1;
                    format!(" (stopped after {n})")
                }
                (_, Some(e)) => {
                    illegal += 1;
                    format!(", stopped: {e}")
                }
                (Some(Stop::Illegal), None) | (None, None) => String::new(),
            };
            if written.is_ok() {
                written = writeln!(out, "{path}: game {games}: {} plies{why}", game.replayed.plies);
            }
        });
        match read {
            Ok(_) => {
                let limited = if limit < usize::MAX {
                    format!(", {limited} stopped after {limit} plies")
                } else {
                    String::new()
                };
                let summary = written.and_then(|()| {
                    writeln!(
                        out,
                        "{path}: {games} games, {plies} main-line plies, {illegal} illegal{limited}"
                    )
                });
                if summary.is_err() {
                    return ExitCode::FAILURE; // standard output is closed
                }
            }
            Err(e) => {
                eprintln!("{}", ProblemLine::unreadable_input(path, e));
                failed = true;
            }
        }
    }
    if out.flush().is_err() || failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

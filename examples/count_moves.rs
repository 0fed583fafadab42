//! Counts the games, moves, comments and variations of record files of any
//! format qipu reads, with a visitor. PGN text is read a piece at a time
//! and no record is built, so a file of any size is counted in a few
//! megabytes; JSON text is read a piece at a time too, each line into a
//! record; the other formats are read whole into records. A record is
//! handed to the visitor as its events ([`Visitor::record`]), so the
//! visitor is the same for every format.
//!
//! `cargo run --release --example count_moves -- FILE...`
//!
//! Example output:
//!
//! ```text
//! $ cargo run --release --example count_moves -- fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn
//! fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn (pgn, utf-8): 1391 games, 120357 moves, 0 comments, 0 variations
//! $ printf '[Event "测试"]\n{开局} 1. 炮二平五 {中炮} 马８进７ (1... 象３进５ {飞相局}) 2. 马二进三 车９平８ (2... 马２进３ 3. 车一平二) 3. 车一平二 马２进３ *\n' > game.pgn
//! $ qipu convert game.pgn --to xqf -o . && qipu convert game.pgn --to dhtmlxq -o game.dhtml
//! $ cargo run --release --example count_moves -- game.pgn game-1.xqf game.dhtml
//! game.pgn (pgn, utf-8): 1 games, 9 moves, 3 comments, 2 variations
//! game-1.xqf (xqf): 1 games, 9 moves, 3 comments, 2 variations
//! game.dhtml (dhtmlxq, utf-8): 1 games, 9 moves, 3 comments, 2 variations
//! total: 3 games, 27 moves, 9 comments, 6 variations
//! ```

use std::ops::ControlFlow;
use std::process::ExitCode;

use qipu::formats::stream::read_stream_with;
use qipu::record::{RecordedMove, Skip, Visitor};

/// What is counted of one game, or of many.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    games: usize,
    moves: usize,
    comments: usize,
    variations: usize,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.games += other.games;
        self.moves += other.moves;
        self.comments += other.comments;
        self.variations += other.variations;
    }
}

/// Counts each game's moves (main line and variations), comments and
/// variations as the reader calls it.
#[derive(Default)]
struct Counter(Counts);

impl Visitor for Counter {
    type Output = Counts;

    fn mv(&mut self, _: &RecordedMove) -> ControlFlow<()> {
        self.0.moves += 1;
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _: &str) {
        self.0.comments += 1;
    }

    fn begin_variation(&mut self) -> Skip {
        self.0.variations += 1;
        Skip(false) // walk into it: its moves count too
    }

    fn end_game(&mut self) -> Counts {
        Counts { games: 1, ..std::mem::take(&mut self.0) }
    }
}

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: count_moves FILE...");
        return ExitCode::from(2);
    }
    let mut total = Counts::default();
    let mut failed = false;
    for path in &paths {
        let file = match std::fs::File::open(path) {
            Ok(file) => file,
            Err(e) => {
                eprintln!("{path}: {e}");
                failed = true;
                continue;
            }
        };
        let mut counts = Counts::default();
        // `None`: the text encoding is detected.
        match read_stream_with(file, None, &mut Counter::default(), |game| counts += game) {
            Ok(read) => {
                let encoding = read.encoding.map_or(String::new(), |e| format!(", {}", e.name()));
                println!(
                    "{path} ({}{encoding}): {} games, {} moves, {} comments, {} variations",
                    read.format.name(),
                    counts.games,
                    counts.moves,
                    counts.comments,
                    counts.variations
                );
                total += counts;
            }
            Err(e) => {
                eprintln!("{path}: unreadable ({}): {e}", e.format.name());
                failed = true;
            }
        }
    }
    if paths.len() > 1 {
        println!(
            "total: {} games, {} moves, {} comments, {} variations",
            total.games, total.moves, total.comments, total.variations
        );
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

//! qipu as a library, without its command (`default-features = false`: no
//! clap, no rayon, no serde): reads the records of a file of any format,
//! replays each, and prints its players, how far its main line replays and
//! the FEN of the last position.
//!
//! `cargo run --manifest-path examples/library-only/Cargo.toml -- FILE`
//! (without a file, a game written here is read).
//!
//! Example output:
//!
//! ```text
//! $ cargo run --manifest-path examples/library-only/Cargo.toml -- fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn
//! fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn: 1391 record(s) (pgn, utf-8)
//! game 1: HU RongHua - XU TianHong: 65 plies, valid; last position 1Cb2kb2/4aN3/6n2/4p3p/2pR4c/P3c4/2P6/4B4/4A4/2BAKCr2 b - - 12 33
//! game 2: HU RongHua - XU TianHong: 63 plies, valid; last position 5kb2/1nN6/3aba3/pN1P4p/6pn1/3p5/3c2P1P/5A3/1C7/2B1KAB2 b - - 19 32
//! ...
//! $ cargo run --manifest-path examples/library-only/Cargo.toml
//! (the game written in main.rs): 1 record(s) (pgn, utf-8)
//! game 1: 许银川 - 吕钦: 6 plies, valid; last position r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4
//! ```

use std::io::Write;
use std::process::ExitCode;

use qipu::batch::ProblemLine;
use qipu::formats;

/// Read when no file is named.
const GAME: &str =
    "[Red \"许银川\"]\n[Black \"吕钦\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３ *\n";

fn main() -> ExitCode {
    let (name, bytes) = match std::env::args().nth(1) {
        Some(path) => match std::fs::read(&path) {
            Ok(bytes) => (path, bytes),
            Err(e) => {
                eprintln!("{}", ProblemLine::input_error(&path, format!("cannot read: {e}")));
                return ExitCode::FAILURE;
            }
        },
        None => ("(the game written in main.rs)".to_string(), GAME.as_bytes().to_vec()),
    };
    let parsed = match formats::read(&bytes, None) {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("{}", ProblemLine::unreadable_input(&name, e));
            return ExitCode::FAILURE;
        }
    };
    let encoding = parsed.encoding.map_or(String::new(), |e| format!(", {}", e.name()));
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{name}: {} record(s) ({}{encoding})", parsed.records.len(), parsed.format.name());
    let mut all_valid = true;
    for (i, record) in parsed.records.iter().enumerate() {
        let replayed = record.replayed();
        let status = match &replayed.error {
            None => "valid".to_string(),
            Some(e) => {
                all_valid = false;
                format!("{e}")
            }
        };
        let last = record.positions().last().map_or("none".to_string(), |pos| pos.fen());
        let line = writeln!(
            out,
            "game {}: {} - {}: {} plies, {status}; last position {last}",
            i + 1,
            record.tag("Red").unwrap_or("?"),
            record.tag("Black").unwrap_or("?"),
            replayed.plies
        );
        if line.is_err() {
            return ExitCode::FAILURE; // standard output is closed
        }
    }
    if all_valid { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

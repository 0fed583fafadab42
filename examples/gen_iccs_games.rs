//! Writes N random legal games (fixed seed) as PGN with ICCS moves, for the
//! throughput benchmark: `cargo run --release --example gen_iccs_games -- 100000 > games.pgn`.

use std::io::Write;

use qipu::Position;
use qipu::notation::iccs;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for g in 0..n {
        let mut pos = Position::start();
        let plies = 60 + (next() % 100) as usize;
        let mut text = String::new();
        for ply in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(next() % moves.len() as u64) as usize];
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            text.push_str(&iccs::write(m, iccs::Style::Iccs));
            text.push(' ');
            let _ = pos.play_unchecked(m);
        }
        writeln!(out, "[Game \"Chinese Chess\"]\n[Event \"random {g}\"]\n[Format \"ICCS\"]\n\n{text}*\n")
            .unwrap();
    }
}

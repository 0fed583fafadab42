//! Writes N random legal games (fixed seed) as PGN with ICCS moves, for the
//! throughput benchmark: `cargo run --release --example gen_iccs_games -- 100000 > games.pgn`.
//!
//! With `--uci`, the same games are written as UCI position lines instead,
//! one a line (`position startpos moves h2e2 ...`), to measure reading UCI
//! lines against reading the ICCS PGN of the same games. With `--epd`, the
//! final position of each game is written as an EPD line with `id`, `bm`
//! (the last move played), `hmvc` and `fmvn` opcodes.
//!
//! With `--copies K` (K at least 2), every K-th game is instead a copy of a
//! random one of the last 4,096 games before it, in rotation: an exact
//! copy, a truncated copy (a prefix of at least 10 plies and fewer than
//! the whole; an exact copy of a game of 10 plies or fewer), the left–right mirror (a<->i, b<->h, ...) and the same moves
//! under other tags: what `qipu duplicates --by line,final,truncated
//! --mirror` is measured on. The other games are random ones drawn as
//! without the option.

use std::collections::VecDeque;
use std::io::Write;

use qipu::notation::iccs;
use qipu::{Move, Position};

/// How many earlier games a copy may be made of.
const WINDOW: usize = 4096;

/// A xorshift generator with a fixed seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A random legal game of 60 to 159 plies (fewer if it ends).
fn random_game(rng: &mut Rng) -> Vec<Move> {
    let mut pos = Position::start();
    let plies = 60 + (rng.next() % 100) as usize;
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[(rng.next() % legal.len() as u64) as usize];
        moves.push(m);
        let _ = pos.play_unchecked(m);
    }
    moves
}

/// The movetext of `moves` in ICCS, each followed by a space.
fn movetext(moves: &[Move]) -> String {
    let mut text = String::new();
    for (ply, &m) in moves.iter().enumerate() {
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(&iccs::write(m, iccs::Style::Iccs));
        text.push(' ');
    }
    text
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let copies: Option<usize> = args
        .iter()
        .position(|a| a == "--copies")
        .and_then(|i| args.get(i + 1))
        .and_then(|k| k.parse().ok())
        .filter(|&k| k >= 2);
    let uci = args.iter().any(|a| a == "--uci");
    let epd = args.iter().any(|a| a == "--epd");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut copy_rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut recent: VecDeque<(usize, Vec<Move>)> = VecDeque::with_capacity(WINDOW);
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for g in 0..n {
        let copy_kind = copies.filter(|&k| g % k == k - 1 && !recent.is_empty()).map(|k| g / k % 4);
        let (tags, moves) = match copy_kind {
            None => {
                let moves = random_game(&mut rng);
                if copies.is_some() {
                    if recent.len() == WINDOW {
                        recent.pop_front();
                    }
                    recent.push_back((g, moves.clone()));
                }
                (format!("[Event \"random {g}\"]\n"), moves)
            }
            Some(kind) => {
                let (of, moves) = &recent[(copy_rng.next() % recent.len() as u64) as usize];
                match kind {
                    1 if moves.len() > 10 => {
                        let cut = 10 + (copy_rng.next() % (moves.len() as u64 - 10)) as usize;
                        (format!("[Event \"random {of}, cut at {cut}\"]\n"), moves[..cut].to_vec())
                    }
                    0 | 1 => (format!("[Event \"random {of}\"]\n"), moves.clone()),
                    2 => {
                        let mirrored = moves.iter().map(|m| m.flip_horizontal()).collect();
                        (format!("[Event \"random {of}, mirrored\"]\n"), mirrored)
                    }
                    _ => (
                        format!("[Event \"copy {g}\"]\n[Red \"red {g}\"]\n[Black \"black {g}\"]\n"),
                        moves.clone(),
                    ),
                }
            }
        };
        if epd {
            use qipu::formats::epd::{Operand, push_opcode, push_position};
            let mut pos = Position::start();
            for &m in &moves {
                let _ = pos.play_unchecked(m);
            }
            let mut line = String::new();
            push_position(&mut line, pos.board(), pos.turn());
            push_opcode(&mut line, "id", &[Operand::Text(&format!("random {g}"))]);
            if let Some(&last) = moves.last() {
                push_opcode(&mut line, "bm", &[Operand::Word(&iccs::write(last, iccs::Style::Uci))]);
            }
            push_opcode(&mut line, "hmvc", &[Operand::Number(0)]);
            push_opcode(&mut line, "fmvn", &[Operand::Number(moves.len() as u64 / 2 + 1)]);
            writeln!(out, "{line}").unwrap();
            continue;
        }
        if uci {
            let mut line = String::from("position startpos");
            if !moves.is_empty() {
                line.push_str(" moves");
            }
            for &m in &moves {
                line.push(' ');
                iccs::write_to(m, iccs::Style::Uci, &mut line);
            }
            writeln!(out, "{line}").unwrap();
            continue;
        }
        let text = movetext(&moves);
        writeln!(out, "[Game \"Chinese Chess\"]\n{tags}[Format \"ICCS\"]\n\n{text}*\n").unwrap();
    }
}

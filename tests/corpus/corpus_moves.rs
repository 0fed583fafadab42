//! Every move of the PGN records in `../shared/corpus/pgn` resolves.
//!
//! Until the PGN reader exists, games are cut out of the files with a
//! simple line split: tag lines, then move text without comments,
//! variations, move numbers and results. Each move is read as ICCS, WXF or
//! Chinese (whichever parses) and replayed. The test prints the counts;
//! files that hold no Chinese, WXF or ICCS moves (WinBoard SAN games, a
//! non-PGN file) are listed with the reason, not hidden.
//!
//! Skipped, with a message, when the corpus is not beside the project.

use crate::common;

use qipu::Position;
use qipu::notation::{chinese, iccs, wxf};

fn decode(bytes: &[u8]) -> String {
    qipu::formats::encoding::decode(bytes, None).text.into_owned()
}

struct Game {
    fen: Option<String>,
    moves: Vec<String>,
}

fn games(text: &str) -> Vec<Game> {
    let mut out = Vec::new();
    let mut fen = None;
    let mut movetext = String::new();
    let mut in_moves = false;
    let mut skip_footer = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') && t.ends_with(']') {
            skip_footer = false;
            if in_moves {
                out.push(Game { fen: fen.take(), moves: tokens(&movetext) });
                movetext.clear();
                in_moves = false;
            }
            if let Some(v) = t.strip_prefix("[FEN \"").and_then(|v| v.strip_suffix("\"]")) {
                fen = Some(v.to_string());
            }
        } else if !t.is_empty() && t.chars().all(|c| c == '=') {
            // xqbase's separator line: what follows it is a footer, not moves.
            if in_moves {
                out.push(Game { fen: fen.take(), moves: tokens(&movetext) });
                movetext.clear();
                in_moves = false;
            }
            skip_footer = true;
        } else if !t.is_empty() && !skip_footer {
            in_moves = true;
            movetext.push_str(t);
            movetext.push('\n');
        }
    }
    if in_moves {
        out.push(Game { fen, moves: tokens(&movetext) });
    }
    out
}

fn tokens(movetext: &str) -> Vec<String> {
    let mut clean = String::new();
    let (mut brace, mut paren) = (false, 0);
    for c in movetext.chars() {
        match c {
            '{' | '[' if !brace => brace = true,
            ']' if brace => brace = false,
            '}' if brace => brace = false,
            '(' if !brace => paren += 1,
            ')' if !brace && paren > 0 => paren -= 1,
            _ if brace || paren > 0 => {}
            _ => clean.push(c),
        }
    }
    clean
        .split_whitespace()
        .filter(|w| !["1-0", "0-1", "1/2-1/2", "*", "½-½"].contains(w) && !w.starts_with('$'))
        .map(strip_move_number)
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect()
}

/// `12.` and `12...` before a move (attached or alone) are move numbers.
fn strip_move_number(w: &str) -> &str {
    let digits = w.trim_start_matches(|c: char| c.is_ascii_digit());
    if digits.len() < w.len() && digits.starts_with('.') { digits.trim_start_matches('.') } else { w }
}

fn resolve(pos: &Position, text: &str) -> Result<qipu::Move, String> {
    if let Ok(m) = iccs::parse(text) {
        return m.resolve(pos).map_err(|e| e.to_string());
    }
    if let Ok(d) = wxf::parse(text) {
        return d.resolve(pos).map_err(|e| e.to_string());
    }
    chinese::parse(text).map_err(|e| e.to_string())?.resolve(pos).map_err(|e| e.to_string())
}

#[test]
fn every_corpus_move_resolves() {
    let Some(dir) = common::corpus("pgn") else { return };
    let paths = common::files(&dir);
    let (mut n_games, mut n_moves, mut not_pgn) = (0, 0, Vec::new());
    let mut failures = Vec::new();
    for path in &paths {
        let text = decode(&std::fs::read(path).unwrap());
        let name = path.strip_prefix(&dir).unwrap().display().to_string();
        if text.contains("[Variant \"xiangqi\"]") {
            not_pgn.push(format!("{name}: WinBoard SAN moves (read by the PGN reader)"));
            continue;
        }
        if !text.contains('[') {
            not_pgn.push(format!("{name}: not PGN (no tags)"));
            continue;
        }
        for (g, game) in games(&text).into_iter().enumerate() {
            n_games += 1;
            let fen = game.fen.as_deref().filter(|f| !f.trim().is_empty());
            let mut pos = match fen.map(Position::from_fen) {
                None => Position::start(),
                Some(Ok(p)) => p,
                Some(Err(e)) => {
                    failures.push(format!("{name} game {}: FEN: {e}", g + 1));
                    continue;
                }
            };
            for (ply, text) in game.moves.iter().enumerate() {
                match resolve(&pos, text) {
                    Ok(m) => {
                        let _ = pos.play_unchecked(m);
                        n_moves += 1;
                    }
                    Err(e) => {
                        failures.push(format!(
                            "{name} game {} ply {}: {text:?}: {e} [{}]",
                            g + 1,
                            ply + 1,
                            pos.fen()
                        ));
                        break;
                    }
                }
            }
        }
    }
    eprintln!("{} files, {n_games} games, {n_moves} moves resolved", paths.len());
    eprintln!("{} files without Chinese/WXF/ICCS moves:", not_pgn.len());
    for s in &not_pgn {
        eprintln!("  {s}");
    }
    eprintln!("{} games stopped at a move that does not resolve:", failures.len());
    for s in &failures {
        eprintln!("  {s}");
    }
    assert!(n_moves > 500_000);
    // Record errors, each confirmed with Fairy-Stockfish (pyffish 0.0.90): the
    // move is not among its legal moves either.
    let known = [
        // Black is in check from the cannon on a9; 士４進５ (d9e8) would be legal.
        "00000753.pgn game 1 ply 70: \"士６進５\"",
        // Red is already checkmated; the record goes on.
        "00000011.pgn game 1 ply 115: \"帥五進一\"",
        // Black is already checkmated; the record goes on.
        "00000048.pgn game 1 ply 72: \"將５平４\"",
    ];
    assert_eq!(failures.len(), known.len(), "unexpected failures");
    for k in known {
        assert!(
            failures.iter().any(|f| f.contains(k) && f.contains("illegal")),
            "{k} not among the failures"
        );
    }
}

//! ElephantEye and OOBS books: qipu's keys against ElephantEye's own
//! (recorded by scripts/eleeye-keys.sh), books built by `qipu book build`
//! read back, and, when the engine is built (scripts/build-eleeye.sh),
//! the engine's book moves against qipu's probe.

use crate::common::{self, qipu_process as qipu};

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use qipu::book::eleeye;
use qipu::{Move, Position};

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("book-{name}"))
}

fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// `(move, number)` pairs of a text probe.
fn probe_text(book: &Path, fen: &str) -> Vec<(String, u64)> {
    let out = run_ok(qipu().args(["book", "probe"]).arg(book).arg(fen));
    out.lines()
        .map(|l| {
            let mut words = l.split_whitespace();
            (words.next().unwrap().to_string(), words.next().unwrap().parse().unwrap())
        })
        .collect()
}

#[test]
fn keys_are_elephanteyes() {
    let text = std::fs::read_to_string("fixtures/eleeye/keys.txt").unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut words = line.splitn(3, ' ');
        let lock0 = u32::from_str_radix(words.next().unwrap(), 16).unwrap();
        let lock1 = u32::from_str_radix(words.next().unwrap(), 16).unwrap();
        let pos = Position::from_fen(words.next().unwrap()).unwrap();
        let key = eleeye::key(pos.board(), pos.turn());
        assert_eq!((key.lock0, key.lock1), (lock0, lock1), "{line}");
        checked += 1;
    }
    assert!(checked >= 40, "{checked} positions");
}

/// Three games whose first moves are known: h2e2 and its mirror b2e2 won
/// by Red, c3c4 won by Black.
const GAMES: &str = "[Result \"1-0\"]\n1. h2e2 h9g7 2. h0g2 1-0\n\n[Result \"1-0\"]\n1. b2e2 b9c7 1-0\n\n[Result \"0-1\"]\n1. c3c4 b9c7 0-1\n";

fn build(dir: &Path, out: &str, extra: &[&str]) -> PathBuf {
    let games = dir.join("games.pgn");
    std::fs::write(&games, GAMES).unwrap();
    let book = dir.join(out);
    let output =
        qipu().args(["book", "build"]).arg(&games).arg("-o").arg(&book).args(extra).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("3 game(s): 3 valid"), "{stderr}");
    book
}

#[test]
fn eleeye_book_merges_mirrors_and_reads_back() {
    let dir = scratch("eleeye");
    let book = build(&dir, "BOOK.DAT", &["--points", "1,1,1", "--depth", "3"]);
    let records = eleeye::read_all(&mut std::fs::File::open(&book).unwrap()).unwrap();
    assert!(records.windows(2).all(|w| w[0].lock <= w[1].lock), "sorted by lock");
    // The start is its own mirror: each first move counts for its mirror too.
    let mut start = probe_text(&book, "startpos");
    start.sort();
    let expect: Vec<(String, u64)> = [("b2e2", 2), ("c3c4", 1), ("g3g4", 1), ("h2e2", 2)]
        .iter()
        .map(|&(m, n)| (m.to_string(), n))
        .collect();
    assert_eq!(start, expect);
    // After h2e2 and after b2e2 (mirror images) Black's horse moves are one entry.
    let after_h2e2 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b";
    assert_eq!(probe_text(&book, after_h2e2), vec![("h9g7".to_string(), 2)]);
    let after_b2e2 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b";
    assert_eq!(probe_text(&book, after_b2e2), vec![("b9c7".to_string(), 2)]);
    // Default points 2,1,0: Black lost both, so the horse moves weigh 0 and are left out.
    let default = build(&dir, "DEFAULT.DAT", &["--depth", "3"]);
    assert!(probe_text(&default, after_h2e2).is_empty());
    let heaviest = &probe_text(&default, "startpos")[..2];
    assert!(heaviest.iter().all(|(m, w)| (m == "h2e2" || m == "b2e2") && *w == 4), "{heaviest:?}");
    // --min-games 2 leaves out the moves of one game.
    let two = build(&dir, "TWO.DAT", &["--points", "1,1,1", "--min-games", "2"]);
    let mut start = probe_text(&two, "startpos");
    start.sort();
    assert_eq!(start, vec![("b2e2".to_string(), 2), ("h2e2".to_string(), 2)]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn obs_book_reads_back_with_results() {
    let dir = scratch("obs");
    let book = build(&dir, "book.obs.db3", &[]);
    let out = run_ok(qipu().args(["book", "probe"]).arg(&book).args(["startpos", "--format", "json"]));
    let mut rows: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    rows.sort_by_key(|r| r["move"].as_str().unwrap().to_string());
    let got: Vec<(String, u64, u64, u64)> = rows
        .iter()
        .map(|r| {
            let n = |k: &str| r[k].as_u64().unwrap();
            (r["move"].as_str().unwrap().to_string(), n("win"), n("draw"), n("loss"))
        })
        .collect();
    let expect = vec![("b2e2".into(), 1, 0, 0), ("c3c4".into(), 0, 0, 1), ("h2e2".into(), 1, 0, 0)];
    assert_eq!(got, expect, "OOBS keeps positions apart from their mirrors");
    // The file is plain SQLite that other tools read: the rows by EPD.
    let rows = qipu::book::obs::probe(&book, &Position::start()).unwrap();
    assert!(rows.iter().all(|r| r.epd.starts_with("rnbakabnr/9/1c5c1/") && r.epd.ends_with(" w - -")));
    // Writing over the book needs --force; an input is never written over.
    let again =
        qipu().args(["book", "build"]).arg(dir.join("games.pgn")).arg("-o").arg(&book).output().unwrap();
    assert_eq!(again.status.code(), Some(2));
    let over = qipu()
        .args(["book", "build"])
        .arg(dir.join("games.pgn"))
        .arg("-o")
        .arg(dir.join("games.pgn"))
        .arg("--force")
        .output()
        .unwrap();
    assert_eq!(over.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(dir.join("games.pgn")).unwrap(), GAMES);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_book_is_an_error_naming_it() {
    let dir = scratch("bad");
    let bad = dir.join("BAD.DAT");
    std::fs::write(&bad, [1u8; 13]).unwrap();
    let out = qipu().args(["book", "probe"]).arg(&bad).arg("startpos").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("BAD.DAT") && err.contains("13 bytes"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The FEN placement and side of `pos` seen in a mirror (files a…i read i…a).
fn mirror_fen(pos: &Position) -> String {
    let fen = pos.fen();
    let mut fields = fen.split(' ');
    let placement: Vec<String> =
        fields.next().unwrap().split('/').map(|r| r.chars().rev().collect()).collect();
    format!("{} {}", placement.join("/"), fields.next().unwrap())
}

fn placement_fen(pos: &Position) -> String {
    pos.fen().split(' ').take(2).collect::<Vec<_>>().join(" ")
}

#[test]
fn random_games_give_the_weights_counted_by_fen() {
    use qipu::book::build::{BookBuilder, BookLine, Keying, Points};
    let mut rng = common::Rng(0x5eed_b00c);
    let depth = 10;
    let mut text = String::new();
    // Games of few legal choices (the first four moves from a short list) so that
    // positions recur across games, then random legal moves.
    let openings = ["h2e2", "b2e2", "h0g2", "b0c2", "h9g7", "b9c7", "h7e7", "b7e7"];
    let mut lines: Vec<Vec<Move>> = Vec::new();
    for _ in 0..300 {
        let mut pos = Position::start();
        let mut line = Vec::new();
        for ply in 0..depth + 4 {
            let legal = pos.legal_moves();
            let picks: Vec<Move> = if ply < 4 {
                openings.iter().map(|m| m.parse().unwrap()).filter(|&m| pos.is_legal(m)).collect()
            } else {
                legal.iter().copied().collect()
            };
            if picks.is_empty() {
                break;
            }
            let m = picks[rng.below(picks.len())];
            pos.play(m).unwrap();
            line.push(m);
        }
        let moves: Vec<String> = line.iter().map(Move::to_string).collect();
        text.push_str(&format!("{} *\n\n", moves.join(" ")));
        lines.push(line);
    }
    let games = qipu::formats::pgn::read_with(
        &text,
        &mut qipu::batch::Checker::following(BookLine::new(depth, Keying::Eleeye)),
    );
    assert_eq!(games.len(), lines.len());
    let mut builder = BookBuilder::new();
    for game in games {
        builder.add(game.followed, game.result);
    }
    let book = eleeye::write(&builder.eleeye_records(Points { win: 1, draw: 1, loss: 1 }, 1));
    // Counted independently, by FEN text: the games that played m in the position, or
    // the mirror of m in its mirror image.
    let mut count: HashMap<(String, Move), HashSet<usize>> = HashMap::new();
    let mut probes: Vec<Position> = Vec::new();
    for (g, line) in lines.iter().enumerate() {
        let mut pos = Position::start();
        for &m in line.iter().take(depth) {
            count.entry((placement_fen(&pos), m)).or_default().insert(g);
            count.entry((mirror_fen(&pos), m.flip_horizontal())).or_default().insert(g);
            probes.push(pos.clone());
            pos.play(m).unwrap();
        }
    }
    let mut shared = 0;
    for pos in probes.iter().step_by(7) {
        let got = eleeye::probe(&mut std::io::Cursor::new(&book), pos).unwrap();
        let mut expect: Vec<(Move, u16)> = count
            .iter()
            .filter(|((fen, _), _)| *fen == placement_fen(pos))
            .map(|((_, m), games)| (*m, games.len() as u16))
            .collect();
        expect.sort();
        let mut got: Vec<(Move, u16)> = got.iter().map(|b| (b.m, b.weight)).collect();
        got.sort();
        assert_eq!(got, expect, "{}", pos.fen());
        shared += usize::from(expect.iter().any(|&(_, n)| n > 1));
    }
    assert!(shared > 50, "{shared} probed positions have a move of several games");
}

/// The engine built by scripts/build-eleeye.sh, if it is there.
fn engine() -> Option<PathBuf> {
    let path = std::env::var_os("QIPU_ELEEYE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/eleeye/ELEEYE.EXE"));
    if path.is_file() {
        Some(path)
    } else {
        eprintln!("SKIPPED: ElephantEye not found at {} (run scripts/build-eleeye.sh)", path.display());
        None
    }
}

/// What the engine answers to `go` in `pos` with `book`: the book moves it
/// lists (move, weight) and the move it plays.
fn engine_book_moves(engine: &Path, book: &Path, pos: &Position) -> (Vec<(String, u64)>, String) {
    let mut child = Command::new(engine).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let script = format!(
        "ucci\nsetoption bookfiles {}\nposition fen {}\ngo depth 1\nquit\n",
        book.display(),
        pos.fen()
    );
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let mut listed = Vec::new();
    let mut best = String::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let ["info", "depth", "0", "score", w, "pv", m] = words[..] {
            listed.push((m.to_string(), w.parse().unwrap()));
        }
        if let ["bestmove", m, ..] = words[..] {
            best = m.to_string();
        }
    }
    (listed, best)
}

/// Walks `plies` positions from the start along moves the engine plays
/// from `book`, checking at each that the engine's book moves and weights
/// are qipu's probe and that the move it plays is one of them.
fn walk_with_engine(engine: &Path, book: &Path, plies: usize, tries: usize) -> usize {
    let mut pos = Position::start();
    let mut checked = 0;
    for _ in 0..plies {
        let mut ours = probe_text(book, &pos.fen());
        let mut played = Vec::new();
        for _ in 0..tries {
            let (mut listed, best) = engine_book_moves(engine, book, &pos);
            listed.sort();
            ours.sort();
            assert_eq!(listed, ours, "book moves of {}", pos.fen());
            if ours.is_empty() {
                return checked;
            }
            assert!(ours.iter().any(|(m, _)| *m == best), "{best} not in qipu's probe of {}", pos.fen());
            if ours.len() == 1 {
                assert_eq!(best, ours[0].0);
            }
            played.push(best);
        }
        checked += 1;
        let m: Move = played[0].parse().unwrap();
        pos.play(m).unwrap();
    }
    checked
}

#[test]
fn elephanteyes_own_book_probes_as_the_engine_reads_it() {
    let Some(engine) = engine() else { return };
    let book = std::fs::canonicalize(engine.with_file_name("BOOK.DAT")).unwrap();
    // The start and the positions its book moves lead to, breadth first.
    let mut queue = std::collections::VecDeque::from([Position::start()]);
    let mut checked = 0;
    while let Some(pos) = queue.pop_front().filter(|_| checked < 21) {
        let mut ours = probe_text(&book, &pos.fen());
        let (mut listed, best) = engine_book_moves(&engine, &book, &pos);
        listed.sort();
        ours.sort();
        assert_eq!(listed, ours, "book moves of {}", pos.fen());
        if ours.is_empty() {
            continue;
        }
        assert!(ours.iter().any(|(m, _)| *m == best), "{best} not in qipu's probe of {}", pos.fen());
        checked += 1;
        for (m, _) in &ours {
            let mut next = pos.clone();
            next.play(m.parse().unwrap()).unwrap();
            queue.push_back(next);
        }
    }
    assert_eq!(checked, 21, "positions with book moves checked");
}

#[test]
fn a_book_built_by_qipu_is_played_by_the_engine() {
    let Some(engine) = engine() else { return };
    let dir = scratch("engine");
    let book = dir.join("BOOK.DAT");
    run_ok(qipu().args(["book", "build", "fixtures/pgn", "--depth", "12", "-o"]).arg(&book));
    let checked = walk_with_engine(&engine, &book, 12, 4);
    assert!(checked >= 6, "{checked} positions checked");
    let _ = std::fs::remove_dir_all(&dir);
}

//! The index's answers against replaying every game: random legal games
//! sharing openings, their mirrors, another start, an illegal game.

use std::path::PathBuf;

use super::*;
use crate::batch::Checker;
use crate::{Board, Color, Move, Position};

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

/// A random legal game from `start`: one of a few openings first (so
/// that games share and transpose positions), then random moves.
fn random_game(rng: &mut Rng, start: &Position) -> Vec<Move> {
    let openings: [&[&str]; 4] =
        [&["h2e2", "h9g7"], &["b0c2", "h9g7", "h2e2"], &["h2e2", "h9g7", "b0c2"], &["c3c4"]];
    let mut pos = start.clone();
    let mut moves = Vec::new();
    if start == &Position::start() {
        for m in openings[(rng.next() % 4) as usize] {
            let m: Move = m.parse().unwrap();
            moves.push(m);
            let _ = pos.play_unchecked(m);
        }
    }
    let plies = 4 + (rng.next() % 40) as usize;
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

fn mirror_board(board: &Board) -> Board {
    board.mirrored()
}

/// The games: (start FEN or none, moves), as PGN.
fn pgn(games: &[(Option<String>, Vec<Move>)]) -> String {
    let mut text = String::new();
    for (k, (fen, moves)) in games.iter().enumerate() {
        text += &format!("[Event \"test {k}\"]\n[Date \"{}.01.02\"]\n[RedElo \"2{k:03}\"]\n", 1990 + k % 30);
        if let Some(fen) = fen {
            text += &format!("[FEN \"{fen}\"]\n");
        }
        for m in moves {
            text += &format!("{m} ");
        }
        text += "*\n\n";
    }
    text
}

/// Every (game, ply) whose position is `board` (or its mirror, with
/// `mirror`) with `turn` to move, by replaying every game.
fn brute_find(
    games: &[(Option<String>, Vec<Move>)],
    board: &Board,
    turn: Color,
    mirror: bool,
) -> Vec<(usize, u32)> {
    let mirrored = mirror_board(board);
    let mut found = Vec::new();
    for (g, (fen, moves)) in games.iter().enumerate() {
        let mut pos = fen.as_deref().map_or_else(Position::start, |f| Position::from_fen(f).unwrap());
        for ply in 0..=moves.len() {
            if pos.turn() == turn && (pos.board() == board || (mirror && pos.board() == &mirrored)) {
                found.push((g, ply as u32));
            }
            if let Some(&m) = moves.get(ply) {
                let _ = pos.play_unchecked(m);
            }
        }
    }
    found
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("qipu-index-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn build(dir: &std::path::Path, name: &str, text: &str, mirror: bool) -> BuildSummary {
    let games = crate::formats::pgn::read_with(
        text,
        &mut Checker::following(IndexFollower::new(mirror)).keep_all_tags(),
    );
    let mut builder = Builder::open(dir, mirror).unwrap();
    builder.start_source(name, None).unwrap();
    for (k, game) in games.iter().enumerate() {
        builder.add(k, game).unwrap();
    }
    builder.finish().unwrap()
}

fn collection(seed: u64, n: usize) -> Vec<(Option<String>, Vec<Move>)> {
    let mut rng = Rng(seed);
    let other = "4k4/9/9/9/9/9/9/9/4A4/3AK4 w".to_string();
    let other_start = Position::from_fen(&other).unwrap();
    let mut games: Vec<(Option<String>, Vec<Move>)> =
        (0..n).map(|_| (None, random_game(&mut rng, &Position::start()))).collect();
    // Mirrors of some games, and games from another start.
    for k in 0..n / 4 {
        let mirrored = games[k].1.iter().map(|m| m.flip_horizontal()).collect();
        games.push((None, mirrored));
    }
    for _ in 0..3 {
        games.push((Some(other.clone()), random_game(&mut rng, &other_start)));
    }
    games
}

fn hits_of(index: &Index, hits: &[Hit]) -> Vec<(usize, u32)> {
    hits.iter().map(|h| (index.game(h).index as usize, h.ply)).collect()
}

#[test]
fn lookups_agree_with_replaying_every_game() {
    let games = collection(7, 200);
    let text = pgn(&games);
    for mirror in [false, true] {
        let dir = TempDir::new(if mirror { "find-mirror" } else { "find" });
        let summary = build(&dir.0, "games.pgn", &text, mirror);
        assert_eq!(summary.games, games.len() as u64);
        let index = Index::open(&dir.0).unwrap();
        assert_eq!(index.positions(), games.iter().map(|(_, m)| m.len() as u64 + 1).sum::<u64>());
        // Every position of some games, and their mirrors (found only
        // when mirrors are merged or asked for).
        let mut checked = 0;
        for (fen, moves) in games.iter().step_by(7) {
            let mut pos = fen.as_deref().map_or_else(Position::start, |f| Position::from_fen(f).unwrap());
            for ply in 0..=moves.len() {
                for board in [pos.board().clone(), mirror_board(pos.board())] {
                    for ask_mirror in [false, true] {
                        let merged = mirror || ask_mirror;
                        let expected = brute_find(&games, &board, pos.turn(), merged);
                        let found = index.find(&board, Some(pos.turn()), ask_mirror).unwrap();
                        assert_eq!(
                            hits_of(&index, &found),
                            expected,
                            "{} mirror {mirror} asked {ask_mirror}",
                            pos.fen()
                        );
                        checked += 1;
                    }
                }
                if let Some(&m) = moves.get(ply) {
                    let _ = pos.play_unchecked(m);
                }
            }
        }
        assert!(checked > 1000, "{checked}");
        // A position no game reaches, and either side to move.
        let nowhere = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        assert!(index.find(nowhere.board(), None, true).unwrap().is_empty());
        let start = index.find(Position::start().board(), None, false).unwrap();
        assert_eq!(start.len(), games.iter().filter(|(f, _)| f.is_none()).count());
    }
}

#[test]
fn scans_agree_with_replaying_every_game() {
    let games = collection(11, 150);
    let dir = TempDir::new("scan");
    build(&dir.0, "games.pgn", &pgn(&games), false);
    let index = Index::open(&dir.0).unwrap();
    for text in ["C@e2 n@g7", "R@?4", "P@e4 !p@e6", "c@?2,?3", "K@f0", "k@?? R@?9"] {
        let pieces: Pieces = text.parse().unwrap();
        for mirror in [false, true] {
            let mirrored = pieces.mirrored();
            let expected: Vec<(usize, u32)> = games
                .iter()
                .enumerate()
                .filter_map(|(g, (fen, moves))| {
                    let mut pos =
                        fen.as_deref().map_or_else(Position::start, |f| Position::from_fen(f).unwrap());
                    for ply in 0..=moves.len() {
                        if pieces.matches(pos.board()) || (mirror && mirrored.matches(pos.board())) {
                            return Some((g, ply as u32));
                        }
                        if let Some(&m) = moves.get(ply) {
                            let _ = pos.play_unchecked(m);
                        }
                    }
                    None
                })
                .collect();
            let scan = Scan { pieces: Some(pieces.clone()), mirror, ..Scan::default() };
            for jobs in [1, 3] {
                assert_eq!(
                    hits_of(&index, &index.scan(&scan, jobs).unwrap()),
                    expected,
                    "{text} {mirror} {jobs}"
                );
            }
        }
    }
    // Material and a run of moves.
    let scan =
        Scan { material: Some("RRNNCCAABBPPPPP vs RRNCCAABBPPPPP".parse().unwrap()), ..Scan::default() };
    let first_capture_of_a_horse = index.scan(&scan, 2).unwrap();
    assert!(!first_capture_of_a_horse.is_empty());
    for hit in &first_capture_of_a_horse {
        let (fen, moves) = &games[index.game(hit).index as usize];
        assert!(fen.is_none());
        let mut pos = Position::start();
        for &m in &moves[..hit.ply as usize] {
            let _ = pos.play_unchecked(m);
        }
        let material = crate::select::Material::of(pos.board());
        assert_eq!(material.0[1][crate::Role::Horse.index()], 1);
    }
    // An imbalance: the first position of each game where Red is a horse up
    // for a cannon (or the pattern of the test), against replaying every game.
    for text in ["H vs C", "R vs HC", "- vs -", "P vs K"] {
        let imbalance: crate::select::Imbalance = text.parse().unwrap();
        let expected: Vec<(usize, u32)> = games
            .iter()
            .enumerate()
            .filter_map(|(g, (fen, moves))| {
                let mut pos = fen.as_deref().map_or_else(Position::start, |f| Position::from_fen(f).unwrap());
                for ply in 0..=moves.len() {
                    if imbalance.matches(&crate::select::Material::of(pos.board())) {
                        return Some((g, ply as u32));
                    }
                    if let Some(&m) = moves.get(ply) {
                        let _ = pos.play_unchecked(m);
                    }
                }
                None
            })
            .collect();
        let scan = Scan { imbalance: Some(imbalance), ..Scan::default() };
        assert_eq!(hits_of(&index, &index.scan(&scan, 2).unwrap()), expected, "{text}");
        if text != "R vs HC" {
            assert!(!expected.is_empty(), "{text}: the games should show it");
        }
    }
    let run: Vec<Move> = ["h9g7", "b0c2"].iter().map(|m| m.parse().unwrap()).collect();
    let hits = index.scan(&Scan { sequence: run.clone(), ..Scan::default() }, 2).unwrap();
    let expected = games.iter().filter(|(_, moves)| moves.windows(2).any(|w| w == run.as_slice())).count();
    assert_eq!(hits.len(), expected);
    assert!(expected > 0);
}

#[test]
fn a_build_reads_only_what_changed() {
    let dir = TempDir::new("update");
    let files = TempDir::new("update-files");
    std::fs::create_dir_all(&files.0).unwrap();
    let (a, b) = (files.0.join("a.pgn"), files.0.join("b.pgn"));
    let first = collection(3, 20);
    let second = collection(5, 10);
    std::fs::write(&a, pgn(&first)).unwrap();
    std::fs::write(&b, pgn(&second)).unwrap();
    let run = |paths: &[&std::path::Path]| -> BuildSummary {
        let mut builder = Builder::open(&dir.0, false).unwrap();
        for path in paths {
            let name = path.to_str().unwrap();
            if builder.plan(name, path).unwrap() == Plan::Read {
                let text = std::fs::read_to_string(path).unwrap();
                let games =
                    crate::formats::pgn::read_with(&text, &mut Checker::following(IndexFollower::new(false)));
                builder.start_source(name, None).unwrap();
                for (k, game) in games.iter().enumerate() {
                    builder.add(k, game).unwrap();
                }
            }
        }
        builder.finish().unwrap()
    };
    let summary = run(&[&a]);
    assert_eq!((summary.inputs_read, summary.total_games), (1, first.len() as u64));
    let summary = run(&[&a, &b]);
    assert_eq!((summary.inputs_read, summary.inputs_unchanged), (1, 1));
    assert_eq!(summary.total_games, (first.len() + second.len()) as u64);
    // Touched, not changed: not read again.
    std::fs::write(&a, pgn(&first)).unwrap();
    let summary = run(&[&a, &b]);
    assert_eq!((summary.inputs_read, summary.inputs_unchanged), (0, 2));
    // Changed: its games replace those held.
    std::fs::write(&a, pgn(&first[..5])).unwrap();
    let summary = run(&[&a]);
    assert_eq!((summary.inputs_read, summary.inputs_replaced), (1, 1));
    assert_eq!(summary.total_games, (5 + second.len()) as u64);
    let index = Index::open(&dir.0).unwrap();
    let start = index.find(Position::start().board(), Some(Color::Red), false).unwrap();
    // a's 5 games and b's from the standard start.
    assert_eq!(start.len(), 5 + second.len() - 3);
    // The first segment still holds a's old games; a's segment is gone
    // once nothing uses it.
    let mut names: Vec<String> =
        std::fs::read_dir(&dir.0).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert!(!names.iter().any(|n| n.contains("spill") || n.ends_with(".partial")), "{names:?}");
    // An index with mirrors apart is not updated with them merged.
    assert!(Builder::open(&dir.0, true).is_err());
}

#[test]
fn the_explorer_counts_what_replaying_counts() {
    use std::collections::BTreeMap;
    let games = collection(13, 200);
    let dir = TempDir::new("explore");
    // Results and years from the games' numbers.
    let mut text = String::new();
    for (k, (fen, moves)) in games.iter().enumerate() {
        let result = ["1-0", "0-1", "1/2-1/2", "*"][k % 4];
        text += &format!("[Date \"{}\"]\n[Result \"{result}\"]\n", 1980 + k % 40);
        if let Some(fen) = fen {
            text += &format!("[FEN \"{fen}\"]\n");
        }
        text += &moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ");
        text += &format!(" {result}\n\n");
    }
    build(&dir.0, "games.pgn", &text, false);
    let index = Index::open(&dir.0).unwrap();
    let mut pos = Position::start();
    for step in ["h2e2", "h9g7", "b0c2"] {
        for mirror in [false, true] {
            // Every time a game reaches the position: the move played next,
            // mirrored back when the game reached the mirror.
            let mirrored = mirror_board(pos.board());
            let mut expected: BTreeMap<String, (u64, u64)> = BTreeMap::new();
            let mut total = 0;
            for (k, (fen, moves)) in games.iter().enumerate() {
                let mut at = fen.as_deref().map_or_else(Position::start, |f| Position::from_fen(f).unwrap());
                for ply in 0..=moves.len() {
                    let plain = at.board() == pos.board();
                    if at.turn() == pos.turn() && (plain || (mirror && at.board() == &mirrored)) {
                        total += 1;
                        if let Some(&m) = moves.get(ply) {
                            let m = if plain { m } else { m.flip_horizontal() };
                            let entry = expected.entry(m.to_string()).or_default();
                            entry.0 += 1;
                            entry.1 += u64::from(k % 4 == 0);
                        }
                    }
                    if let Some(&m) = moves.get(ply) {
                        let _ = at.play_unchecked(m);
                    }
                }
            }
            let explored = index.explore(pos.board(), pos.turn(), mirror).unwrap();
            assert_eq!(explored.total.games, total);
            let found: BTreeMap<String, (u64, u64)> = explored
                .moves
                .iter()
                .map(|c| (c.mv.to_string(), (c.tally.games, c.tally.red_wins)))
                .collect();
            assert_eq!(found, expected, "{} mirror {mirror}", pos.fen());
            assert!(explored.moves.windows(2).all(|w| w[0].tally.games >= w[1].tally.games));
            for c in &explored.moves {
                // The best-known game plays the move (or its mirror).
                let best = index.position(&c.best).unwrap();
                let next = index.moves(&c.best).unwrap()[c.best.ply as usize];
                assert!(
                    next == c.mv || (mirror && next == c.mv.flip_horizontal() && best.board() == &mirrored)
                );
            }
        }
        let m: Move = step.parse().unwrap();
        let _ = pos.play_unchecked(m);
    }
}

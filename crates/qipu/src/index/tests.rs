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

/// A line of a generated game: its moves, and the variations played in
/// place of some of them (`(k, line)`: in place of `moves[k]`, from the
/// position before it), in order.
struct Tree {
    moves: Vec<Move>,
    variations: Vec<(usize, Tree)>,
}

/// Random legal moves from `pos`, none the first of `not`.
fn random_moves(rng: &mut Rng, pos: &Position, plies: usize, not: Option<Move>) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal: Vec<Move> =
            pos.legal_moves().iter().copied().filter(|&m| !(moves.is_empty() && Some(m) == not)).collect();
        if legal.is_empty() {
            break;
        }
        let m = legal[(rng.next() % legal.len() as u64) as usize];
        moves.push(m);
        let _ = pos.play_unchecked(m);
    }
    moves
}

/// Random variations for a line of `moves` played from `start`, nested
/// up to `depth` deep (each one's first move differs from the move it
/// replaces).
fn random_tree(rng: &mut Rng, start: &Position, moves: Vec<Move>, depth: usize) -> Tree {
    let mut variations = Vec::new();
    if depth > 0 && !moves.is_empty() {
        let count = (rng.next() % 4) as usize;
        let mut places: Vec<usize> = (0..count).map(|_| (rng.next() % moves.len() as u64) as usize).collect();
        places.sort_unstable();
        for k in places {
            let mut pos = start.clone();
            for &m in &moves[..k] {
                let _ = pos.play_unchecked(m);
            }
            let plies = 1 + (rng.next() % 8) as usize;
            let own = random_moves(rng, &pos, plies, Some(moves[k]));
            if !own.is_empty() {
                variations.push((k, random_tree(rng, &pos, own, depth - 1)));
            }
        }
    }
    Tree { moves, variations }
}

/// A line as the index numbers it: its number (0 the main line), the ply
/// it branches from, and its moves from the start of the game.
type Numbered = (u32, u32, Vec<Move>);

/// Writes `tree` (played from ply `base`, after `before`) as PGN move
/// text, numbering its variations in the order they are written.
fn write_tree(tree: &Tree, base: usize, before: &[Move], text: &mut String, lines: &mut Vec<Numbered>) {
    for (k, &m) in tree.moves.iter().enumerate() {
        let ply = base + k;
        let dots = if ply.is_multiple_of(2) { "." } else { "..." };
        *text += &format!("{}{dots} {m} ", ply / 2 + 1);
        for (_, variation) in tree.variations.iter().filter(|(at, _)| *at == k) {
            let mut path: Vec<Move> = before.to_vec();
            path.extend_from_slice(&tree.moves[..k]);
            let number = lines.len() as u32;
            lines.push((number, ply as u32, [path.as_slice(), &variation.moves].concat()));
            *text += "( ";
            write_tree(variation, ply, &path, text, lines);
            *text += ") ";
        }
    }
}

/// Games with variations nested up to three deep: their PGN and each
/// game's lines.
fn games_with_variations(seed: u64, n: usize) -> (String, Vec<Vec<Numbered>>) {
    let mut rng = Rng(seed);
    let mut text = String::new();
    let mut games = Vec::new();
    let mut deepest = 0;
    for k in 0..n {
        let moves = random_game(&mut rng, &Position::start());
        let tree = random_tree(&mut rng, &Position::start(), moves.clone(), 3);
        deepest = deepest.max(depth(&tree));
        let result = ["1-0", "0-1", "1/2-1/2", "*"][k % 4];
        text += &format!("[Event \"lines {k}\"]\n[Date \"{}\"]\n[Result \"{result}\"]\n", 1980 + k % 40);
        let mut lines = vec![(0, 0, moves)];
        write_tree(&tree, 0, &[], &mut text, &mut lines);
        text += &format!("{result}\n\n");
        games.push(lines);
    }
    assert!(n < 10 || deepest == 3, "variations nested {deepest} deep");
    (text, games)
}

/// How deep variations nest in `tree`: 0 for none.
fn depth(tree: &Tree) -> usize {
    tree.variations.iter().map(|(_, v)| 1 + depth(v)).max().unwrap_or(0)
}

fn build_all_lines(dir: &std::path::Path, text: &str, mirror: bool) -> BuildSummary {
    let games = crate::formats::pgn::read_with(
        text,
        &mut Checker::following(IndexFollower::all_lines(mirror)).keep_all_tags(),
    );
    let mut builder = Builder::open_with(dir, IndexOptions { mirror, all_lines: true }).unwrap();
    builder.start_source("lines.pgn", None).unwrap();
    for (k, game) in games.iter().enumerate() {
        assert!(game.replayed.is_valid(), "{:?}", game.replayed.error);
        builder.add(k, game).unwrap();
    }
    builder.finish().unwrap()
}

/// The positions of a line, ply by ply.
fn positions_of(path: &[Move]) -> Vec<Position> {
    let mut pos = Position::start();
    let mut positions = vec![pos.clone()];
    for &m in path {
        let _ = pos.play_unchecked(m);
        positions.push(pos.clone());
    }
    positions
}

/// Every (game, line, ply) of a line's own positions (after it branches)
/// that `matches`, by replaying every line of every game.
fn brute_lines(games: &[Vec<Numbered>], matches: impl Fn(&Position) -> bool) -> Vec<(usize, u32, u32)> {
    let mut found = Vec::new();
    for (g, lines) in games.iter().enumerate() {
        for (number, branch, path) in lines {
            let own = if *number == 0 { 0 } else { *branch as usize + 1 };
            for (ply, pos) in positions_of(path).iter().enumerate().skip(own) {
                if matches(pos) {
                    found.push((g, *number, ply as u32));
                }
            }
        }
    }
    found
}

#[test]
fn every_line_is_found_as_replaying_every_line_finds_it() {
    let (text, games) = games_with_variations(17, 60);
    let variations: usize = games.iter().map(|lines| lines.len() - 1).sum();
    assert!(variations > 60, "{variations}");
    for mirror in [false, true] {
        let dir = TempDir::new(if mirror { "lines-mirror" } else { "lines" });
        let summary = build_all_lines(&dir.0, &text, mirror);
        assert_eq!((summary.games, summary.variations), (games.len() as u64, variations as u64));
        let index = Index::open(&dir.0).unwrap();
        assert!(index.all_lines());
        assert_eq!((index.games(), index.variations()), (games.len() as u64, variations as u64));
        let own: u64 = games
            .iter()
            .flatten()
            .map(|(n, b, p)| if *n == 0 { p.len() + 1 } else { p.len() - *b as usize } as u64)
            .sum();
        assert_eq!(index.positions(), own);
        let mut checked = 0;
        for lines in games.iter().step_by(5) {
            for (_, _, path) in lines {
                for pos in positions_of(path).iter().step_by(3) {
                    for ask_mirror in [false, true] {
                        let merged = mirror || ask_mirror;
                        let mirrored = mirror_board(pos.board());
                        let expected = brute_lines(&games, |at| {
                            at.turn() == pos.turn()
                                && (at.board() == pos.board() || (merged && at.board() == &mirrored))
                        });
                        let found = index.find(pos.board(), Some(pos.turn()), ask_mirror).unwrap();
                        let found: Vec<(usize, u32, u32)> =
                            found.iter().map(|h| (index.game(h).index as usize, h.line, h.ply)).collect();
                        assert_eq!(found, expected, "{} mirror {mirror} asked {ask_mirror}", pos.fen());
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }
}

#[test]
fn hits_in_variations_replay_to_their_position() {
    let (text, games) = games_with_variations(23, 20);
    let dir = TempDir::new("lines-replay");
    build_all_lines(&dir.0, &text, false);
    let index = Index::open(&dir.0).unwrap();
    let target = positions_of(&games[3].last().unwrap().2).pop().unwrap();
    let hits = index.find(target.board(), Some(target.turn()), false).unwrap();
    assert!(!hits.is_empty());
    for hit in &hits {
        let game = index.game(hit);
        let (number, _, path) = &games[game.index as usize][hit.line as usize];
        assert_eq!((game.line, *number), (hit.line, hit.line));
        assert_eq!(index.moves(hit).unwrap(), *path);
        assert_eq!(game.plies as usize, path.len());
        assert_eq!(index.position(hit).unwrap(), positions_of(path)[hit.ply as usize]);
        // A variation's game is its main line's: tags, result, year.
        assert_eq!(index.tags(hit).unwrap()[0].1, format!("lines {}", game.index));
        assert_eq!(game.year, Some(1980 + game.index as u16 % 40));
    }
}

#[test]
fn scans_of_every_line_agree_with_replaying_every_line() {
    let (text, games) = games_with_variations(29, 80);
    let dir = TempDir::new("lines-scan");
    build_all_lines(&dir.0, &text, false);
    let index = Index::open(&dir.0).unwrap();
    let run: Vec<Move> = ["h9g7", "b0c2"].iter().map(|m| m.parse().unwrap()).collect();
    for (text, sequence) in
        [("C@e2 n@g7", vec![]), ("R@?4", vec![]), ("P@e4 !p@e6", vec![]), ("k@??", run.clone())]
    {
        let pieces: Pieces = text.parse().unwrap();
        let mut expected = Vec::new();
        for (g, lines) in games.iter().enumerate() {
            for (number, branch, path) in lines {
                let own = if *number == 0 { 0 } else { *branch as usize + 1 };
                let first = own.saturating_sub(sequence.len());
                let positions = positions_of(path);
                let hit = (first..=path.len()).find(|&ply| {
                    pieces.matches(positions[ply].board()) && path[ply..].starts_with(&sequence)
                });
                if let Some(ply) = hit {
                    expected.push((g, *number, ply as u32));
                }
            }
        }
        assert!(!expected.is_empty(), "{text}");
        let scan = Scan { pieces: Some(pieces), sequence: sequence.clone(), ..Scan::default() };
        for jobs in [1, 2] {
            let found: Vec<(usize, u32, u32)> = index
                .scan(&scan, jobs)
                .unwrap()
                .iter()
                .map(|h| (index.game(h).index as usize, h.line, h.ply))
                .collect();
            assert_eq!(found, expected, "{text}");
        }
    }
}

#[test]
fn the_explorer_counts_each_place_of_every_line_once() {
    use std::collections::{BTreeMap, BTreeSet};
    let (text, games) = games_with_variations(31, 120);
    let dir = TempDir::new("lines-explore");
    build_all_lines(&dir.0, &text, false);
    let index = Index::open(&dir.0).unwrap();
    let mut targets = vec![Position::start()];
    for (_, _, path) in games[0].iter().chain(&games[1]) {
        targets.extend(positions_of(path).into_iter().take(6));
    }
    for target in targets {
        // The places of the game trees at the position (the moves that
        // lead there), and the moves played from each.
        let mut places: BTreeMap<(usize, Vec<Move>), BTreeSet<Move>> = BTreeMap::new();
        for (g, lines) in games.iter().enumerate() {
            for (_, _, path) in lines {
                for (ply, pos) in positions_of(path).iter().enumerate() {
                    if pos == &target {
                        let next = places.entry((g, path[..ply].to_vec())).or_default();
                        next.extend(path.get(ply).copied());
                    }
                }
            }
        }
        let mut expected: BTreeMap<String, u64> = BTreeMap::new();
        for next in places.values() {
            for m in next {
                *expected.entry(m.to_string()).or_default() += 1;
            }
        }
        let explored = index.explore(target.board(), target.turn(), false).unwrap();
        assert_eq!(explored.total.games, places.len() as u64, "{}", target.fen());
        // As many as search finds: no variation repeats the move it replaces.
        assert_eq!(
            explored.total.games,
            index.find(target.board(), Some(target.turn()), false).unwrap().len() as u64
        );
        assert_eq!(explored.ended.games, places.values().filter(|n| n.is_empty()).count() as u64);
        let found: BTreeMap<String, u64> =
            explored.moves.iter().map(|c| (c.mv.to_string(), c.tally.games)).collect();
        assert_eq!(found, expected, "{}", target.fen());
        for c in &explored.moves {
            assert_eq!(index.moves(&c.best).unwrap()[c.best.ply as usize], c.mv);
            assert_eq!(index.position(&c.best).unwrap(), target);
        }
    }
}

/// Every path from the start to a node of each game's tree, and the
/// position there, as a record read whole gives them.
fn tree_paths(text: &str) -> Vec<Vec<(Vec<Move>, Position)>> {
    crate::formats::pgn::read(text)
        .iter()
        .map(|record| {
            let replayed = record.replayed();
            let Some(start) = replayed.resolution.start.clone() else { return Vec::new() };
            let tree = record.tree();
            let mut paths = vec![(Vec::new(), start.clone())];
            let mut stack = vec![(tree.root(), Vec::new(), start)];
            while let Some((id, path, pos)) = stack.pop() {
                for child in tree.children(id) {
                    let Some(m) = replayed.resolution.move_of(child) else { continue };
                    let (mut path, mut pos) = (path.clone(), pos.clone());
                    path.push(m);
                    let _ = pos.play_unchecked(m);
                    paths.push((path.clone(), pos.clone()));
                    stack.push((child, path, pos));
                }
            }
            paths
        })
        .collect()
}

#[test]
fn the_fixtures_variations_are_found_as_their_trees_hold_them() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/vschess/source.pgn");
    let text = std::fs::read_to_string(path).unwrap();
    let (generated, _) = games_with_variations(37, 10);
    let text = format!(
        "{text}\n\n{generated}\n\n1. h2e2 h9g7 (1... h9g7 2. h0g2) (1... b9c7 (1... c9e7)) 2. h0g2 *\n"
    );
    let trees = tree_paths(&text);
    let games = crate::formats::pgn::read_with(
        &text,
        &mut Checker::following(IndexFollower::all_lines(false)).keep_all_tags(),
    );
    let dir = TempDir::new("lines-fixtures");
    let mut builder = Builder::open_with(&dir.0, IndexOptions { mirror: false, all_lines: true }).unwrap();
    builder.start_source("fixtures.pgn", None).unwrap();
    for (k, game) in games.iter().enumerate() {
        builder.add(k, game).unwrap();
    }
    builder.finish().unwrap();
    let index = Index::open(&dir.0).unwrap();
    let mut compared = 0;
    for (_, pos) in trees.iter().flatten().step_by(4) {
        let mut expected: Vec<(usize, Vec<Move>)> = trees
            .iter()
            .enumerate()
            .flat_map(|(g, paths)| {
                paths.iter().filter(|(_, p)| p == pos).map(move |(path, _)| (g, path.clone()))
            })
            .collect();
        expected.sort();
        let mut found: Vec<(usize, Vec<Move>)> = index
            .find(pos.board(), Some(pos.turn()), false)
            .unwrap()
            .iter()
            .map(|h| (index.game(h).index as usize, index.moves(h).unwrap()[..h.ply as usize].to_vec()))
            .collect();
        found.sort();
        // A variation repeating the move it replaces is a place of its own
        // in the tree and in the index alike.
        assert_eq!(found, expected, "{}", pos.fen());
        compared += 1;
    }
    assert!(compared > 100, "{compared}");
}

#[test]
fn an_index_keeps_whether_it_holds_every_line() {
    let dir = TempDir::new("lines-options");
    build_all_lines(&dir.0, "1. h2e2 h9g7 (1... b9c7) *\n", false);
    let e = Builder::open(&dir.0, false).unwrap_err();
    assert!(e.to_string().contains("holds variations; it cannot be updated without --all-lines"), "{e}");
    assert!(e.to_string().contains(dir.0.to_str().unwrap()), "{e}");
    let plain = TempDir::new("lines-options-plain");
    build(&plain.0, "a.pgn", "1. h2e2 h9g7 (1... b9c7) *\n", false);
    let e = Builder::open_with(&plain.0, IndexOptions { mirror: false, all_lines: true }).unwrap_err();
    assert!(e.to_string().contains("holds main lines only; it cannot be updated with --all-lines"), "{e}");
    // A main-line index leaves the variations out, as before.
    let index = Index::open(&plain.0).unwrap();
    assert_eq!((index.games(), index.positions(), index.variations()), (1, 3, 0));
    let after = Position::from_fen("r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w").unwrap();
    assert!(index.find(after.board(), None, false).unwrap().is_empty());
    let index = Index::open(&dir.0).unwrap();
    assert_eq!((index.games(), index.positions(), index.variations()), (1, 4, 1));
    let hits = index.find(after.board(), None, false).unwrap();
    assert_eq!(hits.iter().map(|h| (h.line, h.ply)).collect::<Vec<_>>(), [(1, 2)]);
}

#[test]
fn thousands_of_variations_stay_bounded() {
    // Ten thousand variations nested in one another, each in place of
    // the one before's first move, and as many side by side.
    let nested = "(1... b9c7 ".repeat(10_000);
    let side = "(1... b9c7) ".repeat(70_000);
    let text = format!("1. h2e2 h9g7 {nested}*\n\n1. h2e2 h9g7 {side}*\n");
    let dir = TempDir::new("lines-many");
    let summary = build_all_lines(&dir.0, &text, false);
    assert_eq!(summary.variations, 10_000 + MAX_VARIATIONS as u64);
    assert_eq!(summary.variations_left_out, (70_000 - MAX_VARIATIONS) as u64);
    let index = Index::open(&dir.0).unwrap();
    let after = Position::from_fen("r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w").unwrap();
    let hits = index.find(after.board(), None, false).unwrap();
    assert_eq!(hits.len(), 10_000 + MAX_VARIATIONS);
    let explored = index.explore(after.board(), after.turn(), false).unwrap();
    // In each game, every variation leads there by the same moves: one
    // place of its tree, counted once.
    assert_eq!((explored.total.games, explored.ended.games), (2, 2));
}

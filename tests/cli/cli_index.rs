//! `qipu index build` and `qipu search`: the games found in an index
//! against those `qipu validate --position` finds by reading every input,
//! on the fixtures and on generated games with their mirrors and their
//! colour-flipped copies; an index brought up to date input by input.

use std::path::{Path, PathBuf};

use crate::common::{qipu, stderr, stdout};

fn tempdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_index-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

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

/// Random legal games from the standard start after one of a few
/// openings, as ICCS moves.
fn random_games(n: usize) -> Vec<Vec<qipu::Move>> {
    let mut rng = Rng(0x5eed);
    let openings: [&[&str]; 3] = [&["h2e2", "h9g7"], &["b0c2", "h9g7", "h2e2"], &["h2e2", "h9g7", "b0c2"]];
    (0..n)
        .map(|_| {
            let mut pos = qipu::Position::start();
            let mut moves = Vec::new();
            for m in openings[(rng.next() % 3) as usize] {
                let m: qipu::Move = m.parse().unwrap();
                moves.push(m);
                let _ = pos.play_unchecked(m);
            }
            for _ in 0..(rng.next() % 30) {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[(rng.next() % legal.len() as u64) as usize];
                moves.push(m);
                let _ = pos.play_unchecked(m);
            }
            moves
        })
        .collect()
}

/// The colour-flipped copy of a square: Red's side becomes Black's.
fn flip_colour(square: qipu::Square) -> qipu::Square {
    square.flip_vertical()
}

/// Generated games, their mirrors, and their colour-flipped copies (the
/// standard start with Black to move, every move turned upside down).
fn generated(dir: &Path) -> PathBuf {
    let games = random_games(60);
    let mut text = String::new();
    let line = |moves: &[qipu::Move]| moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ");
    for moves in &games {
        text += &format!("[Event \"plain\"]\n{} *\n\n", line(moves));
        let mirrored: Vec<qipu::Move> = moves.iter().map(|m| m.flip_horizontal()).collect();
        text += &format!("[Event \"mirror\"]\n{} *\n\n", line(&mirrored));
        let flipped: Vec<qipu::Move> =
            moves.iter().map(|m| qipu::Move::new(flip_colour(m.from), flip_colour(m.to))).collect();
        text += &format!(
            "[Event \"colours\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b\"]\n1... {} *\n\n",
            line(&flipped)
        );
    }
    let path = dir.join("generated.pgn");
    std::fs::write(&path, text).unwrap();
    path
}

/// How many games `validate --position` selects.
fn validate_count(inputs: &[&str], fen: &str, mirror: bool) -> usize {
    validate_count_in(inputs, fen, mirror, false)
}

/// How many games `validate --position` selects, looking in variations
/// too with `in_variations`.
fn validate_count_in(inputs: &[&str], fen: &str, mirror: bool, in_variations: bool) -> usize {
    let mut cmd = qipu();
    cmd.arg("validate").args(inputs).args(["--position", fen, "-q"]);
    if mirror {
        cmd.arg("--mirror");
    }
    if in_variations {
        cmd.arg("--in-variations");
    }
    let out = cmd.output().unwrap();
    // The summary is the last line of standard output: `...; N selected, M left out`.
    let text = stdout(&out);
    let summary = text.lines().last().unwrap_or_default();
    let selected = summary.rsplit("; ").next().and_then(|part| part.split(" selected").next());
    selected.and_then(|n| n.trim().parse().ok()).unwrap_or_else(|| panic!("no selected count in {summary:?}"))
}

/// How many games `search --fen` finds.
fn search_count(index: &Path, fen: &str, mirror: bool) -> usize {
    let mut cmd = qipu();
    cmd.arg("search").arg(index).args(["--fen", fen, "--count"]);
    if mirror {
        cmd.arg("--mirror");
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    text.split(" game(s)").next().unwrap().trim().parse().unwrap_or_else(|_| panic!("{text}"))
}

/// Positions the games reach: some plies of the first games, their
/// mirrors, and the colour-flipped standard start.
fn targets() -> Vec<String> {
    let mut fens = vec![
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".to_string(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b".to_string(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b".to_string(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b".to_string(),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C4/9/R1BAKABNR b".to_string(),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C4/9/R1BAKABNR".to_string(),
    ];
    for moves in random_games(6) {
        let mut pos = qipu::Position::start();
        for (ply, &m) in moves.iter().enumerate() {
            let _ = pos.play_unchecked(m);
            if ply % 5 == 4 {
                fens.push(pos.fen());
            }
        }
    }
    fens
}

#[test]
fn search_finds_what_validate_finds() {
    let dir = tempdir("agree");
    let generated = generated(&dir);
    let inputs = ["fixtures", generated.to_str().unwrap()];
    for merge in [false, true] {
        let index = dir.join(if merge { "merged.qidx" } else { "plain.qidx" });
        let mut cmd = qipu();
        cmd.args(["index", "build"]).args(inputs).arg("-o").arg(&index);
        if merge {
            cmd.arg("--merge-mirrors");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.code() == Some(0) || out.status.code() == Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains("the index holds"), "{}", stderr(&out));
        let mut compared = 0;
        for fen in targets() {
            for mirror in [false, true] {
                let expected = validate_count(&inputs, &fen, mirror || merge);
                assert_eq!(
                    search_count(&index, &fen, mirror),
                    expected,
                    "{fen} mirror {mirror} merged {merge}"
                );
                compared += usize::from(expected > 0);
            }
        }
        assert!(compared >= 10, "{compared}");
    }
}

#[test]
fn search_answers_in_text_and_json() {
    let dir = tempdir("formats");
    let generated = generated(&dir);
    let index = dir.join("games.qidx");
    let out = qipu().args(["index", "build"]).arg(&generated).arg("-o").arg(&index).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = qipu()
        .arg("search")
        .arg(&index)
        .args(["--moves", "炮二平五 马8进7", "--limit", "3"])
        .output()
        .unwrap();
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for line in &lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 5, "{line}");
        assert!(fields[0].ends_with("generated.pgn"));
        assert_eq!(fields[2], "2");
    }
    let out = qipu()
        .arg("search")
        .arg(&index)
        .args(["--pieces", "C@e2 n@g7", "--side", "black", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.lines().count() >= 10, "{text}");
    for line in text.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(["plain", "mirror"].contains(&value["tags"]["Event"].as_str().unwrap()), "{line}");
        assert!(value["ply"].as_u64().unwrap() >= 1);
    }
    // A question is needed, and a pattern that does not read is told.
    let out = qipu().arg("search").arg(&index).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("needs a question"), "{}", stderr(&out));
    let out = qipu().arg("search").arg(&index).args(["--pieces", "X@e4"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a piece letter"), "{}", stderr(&out));
}

#[test]
fn a_build_reads_only_new_and_changed_inputs() {
    let dir = tempdir("update");
    let files = dir.join("games");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("a.pgn"), "1. h2e2 h9g7 *\n\n1. b0c2 *\n").unwrap();
    let index = dir.join("games.qidx");
    let build = || {
        let out = qipu().args(["index", "build"]).arg(&files).arg("-o").arg(&index).output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out)
    };
    assert!(build().contains("2 game(s) and 5 position(s) added from 1 input(s); 0 input(s) unchanged"));
    std::fs::write(files.join("b.pgn"), "1. c3c4 *\n").unwrap();
    assert!(build().contains("1 game(s) and 2 position(s) added from 1 input(s); 1 input(s) unchanged"));
    std::fs::write(files.join("a.pgn"), "1. h2e2 *\n").unwrap();
    let told = build();
    assert!(told.contains("added from 1 input(s); 1 input(s) unchanged, 1 replaced"), "{told}");
    assert!(told.contains("the index holds 2 game(s), 4 position(s)"), "{told}");
    let out = qipu().args(["index", "info"]).arg(&index).output().unwrap();
    assert!(stdout(&out).contains("games: 2\npositions: 4\ninputs: 2\n"), "{}", stdout(&out));
    // Not an index, nor an empty folder: refused, nothing written there.
    let out = qipu().args(["index", "build"]).arg(&files).arg("-o").arg(&files).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not an index"), "{}", stderr(&out));
}

#[test]
fn explore_counts_what_search_finds() {
    let dir = tempdir("explore");
    let generated = generated(&dir);
    let index = dir.join("games.qidx");
    let out =
        qipu().args(["index", "build", "fixtures"]).arg(&generated).arg("-o").arg(&index).output().unwrap();
    assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
    for (moves, mirror) in
        [("", false), ("炮二平五", false), ("炮二平五 马8进7", true), ("h2e2 h9g7 b0c2", false)]
    {
        let mut cmd = qipu();
        cmd.arg("explore").arg(&index).args(["--format", "json", "--notation", "iccs"]);
        if !moves.is_empty() {
            cmd.args(["--moves", moves]);
        }
        if mirror {
            cmd.arg("--mirror");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let fen = value["fen"].as_str().unwrap().to_string();
        // Every time a game reaches it: as many as search finds.
        assert_eq!(value["games"].as_u64().unwrap() as usize, search_count(&index, &fen, mirror), "{moves}");
        let moves_games: u64 =
            value["moves"].as_array().unwrap().iter().map(|m| m["games"].as_u64().unwrap()).sum();
        assert_eq!(moves_games + value["ended"].as_u64().unwrap(), value["games"].as_u64().unwrap());
        for m in value["moves"].as_array().unwrap() {
            // The best game plays the move from there (or, with --mirror, its mirror).
            let best = &m["best"];
            assert!(best["source"].as_str().is_some() && best["ply"].as_u64().is_some(), "{m}");
            assert_eq!(
                m["move"].as_str().unwrap().replace('-', "").to_lowercase(),
                m["iccs"].as_str().unwrap()
            );
        }
    }
    let out = qipu().arg("explore").arg(&index).output().unwrap();
    let text = stdout(&out);
    let start = search_count(&index, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", false);
    assert!(text.starts_with(&format!("{start} game(s): ")), "{text}");
    assert!(text.lines().nth(2).unwrap().starts_with("炮二平五"), "{text}");
}

#[test]
fn search_by_imbalance_finds_what_the_board_shows() {
    let dir = tempdir("imbalance");
    let generated = generated(&dir);
    let index = dir.join("games.qidx");
    let out = qipu().args(["index", "build"]).arg(&generated).arg("-o").arg(&index).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = qipu()
        .arg("search")
        .arg(&index)
        .args(["--imbalance", "N vs C", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.lines().count() > 0, "{}", stderr(&out));
    let games = std::fs::read_to_string(&generated).unwrap();
    let games: Vec<&str> = games.split("\n\n[").collect();
    for line in text.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        // Replay the game to the hit's ply: Red has a horse more, Black a cannon, all else even.
        let record = games[value["index"].as_u64().unwrap() as usize];
        let moves: Vec<qipu::Move> = record
            .lines()
            .filter(|l| !l.starts_with('[') && !l.is_empty())
            .flat_map(|l| l.split_whitespace())
            .filter_map(|w| w.parse().ok())
            .collect();
        let fen = record.lines().find_map(|l| l.strip_prefix("[FEN \"")).map(|f| f.trim_end_matches("\"]"));
        let mut pos = fen.map_or_else(qipu::Position::start, |f| qipu::Position::from_fen(f).unwrap());
        for &m in &moves[..value["ply"].as_u64().unwrap() as usize] {
            let _ = pos.play_unchecked(m);
        }
        let count = |c: char| pos.fen().split(' ').next().unwrap().chars().filter(|&x| x == c).count() as i32;
        assert_eq!(count('N') - count('n'), 1, "{line}");
        assert_eq!(count('c') - count('C'), 1, "{line}");
        for (r, b) in [('R', 'r'), ('A', 'a'), ('B', 'b'), ('P', 'p')] {
            assert_eq!(count(r), count(b), "{line}");
        }
    }
    let out = qipu().arg("search").arg(&index).args(["--imbalance", "RR vs RH"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("one side only"), "{}", stderr(&out));
}

/// Random legal moves from `pos`, the first not `not`.
fn random_line(rng: &mut Rng, pos: &qipu::Position, plies: u64, not: qipu::Move) -> Vec<qipu::Move> {
    let mut pos = pos.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal: Vec<qipu::Move> =
            pos.legal_moves().iter().copied().filter(|&m| !(moves.is_empty() && m == not)).collect();
        if legal.is_empty() {
            break;
        }
        let m = legal[(rng.next() % legal.len() as u64) as usize];
        moves.push(m);
        let _ = pos.play_unchecked(m);
    }
    moves
}

/// `moves` played from ply `base` of `pos` as numbered PGN moves, with a
/// random variation in place of some of them (nested up to `depth`
/// deep); the positions the variations reach are pushed on `reached`.
fn with_variations(
    rng: &mut Rng,
    pos: &qipu::Position,
    base: usize,
    moves: &[qipu::Move],
    depth: usize,
    reached: &mut Vec<String>,
) -> String {
    let mut text = String::new();
    let mut pos = pos.clone();
    for (k, &m) in moves.iter().enumerate() {
        let ply = base + k;
        let dots = if ply.is_multiple_of(2) { "." } else { "..." };
        text += &format!("{}{dots} {m} ", ply / 2 + 1);
        if depth > 0 && rng.next().is_multiple_of(4) {
            let plies = 1 + rng.next() % 6;
            let own = random_line(rng, &pos, plies, m);
            if !own.is_empty() {
                let mut end = pos.clone();
                for &v in &own {
                    let _ = end.play_unchecked(v);
                }
                reached.push(end.fen());
                text += &format!("( {}) ", with_variations(rng, &pos, ply, &own, depth - 1, reached));
            }
        }
        let _ = pos.play_unchecked(m);
    }
    text
}

/// Generated games with variations nested up to three deep, and
/// positions only their variations may reach.
fn generated_with_variations(dir: &Path) -> (PathBuf, Vec<String>) {
    let mut rng = Rng(0x1ee7);
    let mut text = String::new();
    let mut reached = Vec::new();
    for moves in random_games(40) {
        let line = with_variations(&mut rng, &qipu::Position::start(), 0, &moves, 3, &mut reached);
        text += &format!("[Event \"lines\"]\n{line}*\n\n");
    }
    let path = dir.join("variations.pgn");
    std::fs::write(&path, text).unwrap();
    (path, reached)
}

#[test]
fn an_index_of_all_lines_finds_what_validate_finds_in_variations() {
    let dir = tempdir("all-lines");
    let (generated, reached) = generated_with_variations(&dir);
    let inputs = ["fixtures", generated.to_str().unwrap()];
    let build = |name: &str, extra: &[&str]| {
        let index = dir.join(name);
        let out =
            qipu().args(["index", "build"]).args(inputs).arg("-o").arg(&index).args(extra).output().unwrap();
        assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
        index
    };
    let (plain, all) = (build("plain.qidx", &[]), build("all.qidx", &["--all-lines"]));
    let mut fens = targets();
    fens.extend(reached.iter().step_by(3).cloned());
    // In the vschess fixture's variations: 1. h2e2 b9c7 2. h0g2, and 1... b9c7 2. b0c2.
    fens.push("r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b".into());
    fens.push("r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C4/9/R1BAKABNR b".into());
    let mut more = 0;
    for fen in &fens {
        for mirror in [false, true] {
            let everywhere = validate_count_in(&inputs, fen, mirror, true);
            assert_eq!(search_count(&all, fen, mirror), everywhere, "{fen} mirror {mirror} all lines");
            let main = validate_count_in(&inputs, fen, mirror, false);
            assert_eq!(search_count(&plain, fen, mirror), main, "{fen} mirror {mirror} main lines");
            more += usize::from(everywhere > main);
        }
    }
    assert!(more >= 10, "{more}");
    // The line of each answer: main, or the variation's number.
    let fen = &fens[fens.len() - 2];
    let out = qipu().arg("search").arg(&all).args(["--fen", fen]).output().unwrap();
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.starts_with("fixtures/vschess/source.pgn\t2\t3\th7f7\t") && l.ends_with("\tmain")),
        "{text}"
    );
    assert!(text.lines().all(|l| l.split('\t').count() == 6), "{text}");
    let first = "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b";
    let out = qipu().arg("search").arg(&all).args(["--fen", first, "--format", "json"]).output().unwrap();
    let lines: Vec<serde_json::Value> =
        stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let vschess = lines.iter().find(|v| v["source"] == "fixtures/vschess/source.pgn" && v["index"] == 0);
    assert_eq!(
        vschess.map(|v| (&v["line"], &v["ply"])),
        Some((&serde_json::json!(1), &serde_json::json!(3))),
        "{lines:?}"
    );
    // A plain index says nothing of lines.
    let out = qipu().arg("search").arg(&plain).args(["--fen", first, "--format", "json"]).output().unwrap();
    assert!(stdout(&out).lines().all(|l| !l.contains("\"line\"")), "{}", stdout(&out));
    let out = qipu().args(["index", "info"]).arg(&all).output().unwrap();
    assert!(stdout(&out).contains("\nall lines: yes ("), "{}", stdout(&out));
}

#[test]
fn an_index_keeps_whether_it_holds_every_line() {
    let dir = tempdir("all-lines-kept");
    let games = dir.join("a.pgn");
    std::fs::write(&games, "1. h2e2 h9g7 (1... b9c7) *\n").unwrap();
    let build = |index: &Path, all_lines: bool| {
        let mut cmd = qipu();
        cmd.args(["index", "build"]).arg(&games).arg("-o").arg(index);
        if all_lines {
            cmd.arg("--all-lines");
        }
        cmd.output().unwrap()
    };
    let (plain, all) = (dir.join("plain.qidx"), dir.join("all.qidx"));
    assert!(build(&plain, false).status.success());
    let out = build(&all, true);
    assert!(stderr(&out).contains("1 variation(s) added, 1 of the positions in them"), "{}", stderr(&out));
    for (index, asked, said) in [(&plain, true, "holds main lines only"), (&all, false, "holds variations")] {
        let out = build(index, asked);
        assert_eq!(out.status.code(), Some(2));
        let told = stderr(&out);
        assert!(
            told.contains(index.to_str().unwrap()) && told.contains(said) && told.contains("--all-lines"),
            "{told}"
        );
    }
}

#[test]
fn the_index_holds_each_games_ruled_ending_as_validate_judges_it() {
    let dir = tempdir("endings");
    let index = dir.join("fixtures.qidx");
    let out = qipu().args(["index", "build", "fixtures", "-o"]).arg(&index).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = qipu().args(["validate", "fixtures", "--format", "json"]).output().unwrap();
    let mut judged = std::collections::HashMap::new();
    for line in stdout(&out).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        judged.insert(
            (v["source"].as_str().unwrap().to_string(), v["index"].as_u64().unwrap()),
            v["termination"].clone(),
        );
    }
    // Every game from the standard start, at ply 0.
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    let out = qipu().arg("search").arg(&index).args(["--fen", start, "--format", "json"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let (mut compared, mut ruled) = (0, 0);
    for line in stdout(&out).lines().filter(|l| l.contains("\"ply\":0")) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let key = (v["source"].as_str().unwrap().to_string(), v["index"].as_u64().unwrap());
        assert_eq!(v["termination"], judged[&key], "{line}");
        compared += 1;
        ruled += usize::from(!v["termination"].is_null());
    }
    assert!(compared > 1000 && ruled >= 30, "{compared} games, {ruled} ruled");
}

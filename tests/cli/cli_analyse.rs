//! `qipu analyse` driven through a scripted engine (tests/engines/fake_engine.py, python3 and
//! its standard library only): annotations where expected, NAGs by the thresholds, both
//! protocols and Fairy-Stockfish's coordinates, order kept with several engines, resume, the
//! cache, and every fault an engine can have (tests/cli_analyse_bounded.rs: those that never end,
//! within 64 MB).

use crate::common::{self, qipu_process as qipu};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use qipu::formats;
use qipu::record::eval::Score;
use qipu::record::{Evaluation, Record};

/// An eight-ply game; Black's sixth ply (b9c7) is a blunder in the table below.
const GAME: &str = "[Event \"t\"]\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b2b6 c6c5 *\n";

/// The fake engine's command line with `args`.
fn engine(args: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fake_engine.py");
    assert!(
        Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success()),
        "these tests need python3 to run the scripted engine"
    );
    format!("python3 '{}' {args}", script.display())
}

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("analyse-{name}"))
}

fn key(fen: &str) -> String {
    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// The table of every position of `games`: the move played next as the
/// best move, +0.10 for the side to move; but in the position after ply 5
/// of the first game the best move is a9a8 at -0.20, and after ply 6, Red
/// has +4.00 (so b9c7 is a blunder).
fn table(dir: &Path, games: &str) -> PathBuf {
    let mut table = BTreeMap::new();
    for (g, record) in formats::pgn::read(games).iter().enumerate() {
        let positions: Vec<_> = record.positions().collect();
        let moves = &record.replayed().moves;
        for (k, pos) in positions.iter().enumerate() {
            let pv: Vec<String> = moves.get(k).map(|m| m.to_string()).into_iter().collect();
            let entry = match (g, k) {
                (0, 5) => serde_json::json!({"score": {"cp": -20}, "depth": 7, "pv": ["a9a8", "h0h1"]}),
                (0, 6) => serde_json::json!({"score": {"cp": 400}, "depth": 7, "pv": pv}),
                _ => serde_json::json!({"score": {"cp": 10}, "depth": 7, "pv": pv}),
            };
            table.insert(key(&pos.fen()), entry);
        }
    }
    let path = dir.join("table.json");
    std::fs::write(&path, serde_json::to_string(&table).unwrap()).unwrap();
    path
}

fn run(args: &[&str]) -> Output {
    let out = qipu().args(args).output().unwrap();
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    out
}

fn records(path: &Path) -> Vec<Record> {
    formats::read(&std::fs::read(path).unwrap(), None).unwrap().records
}

/// The evaluations of a game's main-line moves, as read back.
fn evaluations(record: &Record) -> Vec<Option<Evaluation>> {
    let tree = record.tree();
    tree.main_line().map(|n| tree.node(n).evaluation()).collect()
}

/// Writes the game file and its table; returns (dir, game, table).
fn setup(name: &str, games: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = scratch(name);
    let game = dir.join("games.pgn");
    std::fs::write(&game, games).unwrap();
    let table = table(&dir, games);
    (dir, game, table)
}

#[test]
fn every_move_is_annotated_and_the_blunder_marked_with_the_better_line() {
    let (dir, game, table) = setup("uci", GAME);
    let out = dir.join("out.pgn");
    let cmd = engine(&format!("--table '{}' --name Scripted", table.display()));
    let o = run(&[
        "analyse",
        game.to_str().unwrap(),
        "--engine",
        &cmd,
        "--depth",
        "7",
        "--engines",
        "1",
        "--format",
        "json",
        "--notation",
        "uci",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("9 position(s): 9 searched, 0 from the cache, 0 failed"), "{stderr}");
    let games = records(&out);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    // From Red's side: after an even ply Red is to move (+0.10); after an
    // odd one Black is (-0.10); but after ply 5, +0.20 and after ply 6, +4.00.
    let expected: Vec<Option<Evaluation>> = (1..=8)
        .map(|ply| {
            let cp = match ply {
                5 => 20,
                6 => 400,
                p if p % 2 == 0 => 10,
                _ => -10,
            };
            Some(Evaluation { score: Score::Centipawns(cp), depth: Some(7) })
        })
        .collect();
    assert_eq!(evaluations(g), expected);
    let tree = g.tree();
    let sixth = tree.main_line().nth(5).unwrap();
    assert_eq!(tree.node(sixth).nags(), [4]);
    let line = tree.next_sibling(sixth).expect("the engine's line");
    assert_eq!(tree.node(line).mv.as_ref().unwrap().points().unwrap().to_string(), "a9a8");
    assert_eq!(
        tree.node(line).evaluation(),
        Some(Evaluation { score: Score::Centipawns(20), depth: Some(7) })
    );
    assert_eq!(g.tag("Annotator"), Some("Scripted (depth 7)"));
    assert_eq!(g.tag("BlackBlunders"), Some("1"));
    assert_eq!(g.tag("RedBlunders"), Some("0"));
    assert_eq!(g.tag("Event"), Some("t"));
    assert!(g.replayed().is_valid());
    // The report: the positions as the engine answered.
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["black"]["blunders"], 1);
    assert_eq!(report["positions"][5]["best"], "a9a8");
    assert_eq!(report["positions"][5]["score"], serde_json::json!({"cp": -20}));
    assert_eq!(report["moves"][5]["judgement"], "blunder");
    assert_eq!(report["positions"].as_array().unwrap().len(), 9);
}

#[test]
fn thresholds_and_lichess_style() {
    let (dir, game, table) = setup("lichess", GAME);
    let out = dir.join("out.pgn");
    let cmd = engine(&format!("--table '{}'", table.display()));
    let o = run(&[
        "analyse",
        game.to_str().unwrap(),
        "--engine",
        &cmd,
        "--blunder",
        "0.7",
        "--mistake",
        "0.5",
        "--eval-style",
        "lichess",
        "--no-variations",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("[%eval 4.00,7]"), "{text}");
    let g = &records(&out)[0];
    let sixth = g.tree().main_line().nth(5).unwrap();
    // A loss of about 0.59 in chances: a mistake under these thresholds.
    assert_eq!(g.tree().node(sixth).nags(), [2]);
    assert_eq!(g.tree().variation_count(), 0);
    assert_eq!(evaluations(g)[5], Some(Evaluation { score: Score::Centipawns(400), depth: Some(7) }));
}

#[test]
fn ucci_engines_told_from_their_answer_and_fairy_stockfish_coordinates() {
    let (dir, game, table) = setup("protocols", GAME);
    for (name, args, protocol) in [
        ("ucci", "--protocol ucci", None),
        ("ucci-given", "--protocol ucci", Some("ucci")),
        ("fsf", "--variant-option", None),
    ] {
        let out = dir.join(format!("{name}.pgn"));
        let cmd = engine(&format!("--table '{}' {args}", table.display()));
        let mut argv = vec!["analyse", game.to_str().unwrap(), "--engine", &cmd, "-o", out.to_str().unwrap()];
        argv.extend(protocol.iter().flat_map(|p| ["--protocol", *p]));
        argv.extend(["--format", "json", "--notation", "uci"]);
        let o = run(&argv);
        assert!(o.status.success(), "{name}");
        let g = &records(&out)[0];
        assert!(evaluations(g).iter().all(Option::is_some), "{name}");
        let sixth = g.tree().main_line().nth(5).unwrap();
        let line = g.tree().next_sibling(sixth).expect(name);
        assert_eq!(g.tree().node(line).mv.as_ref().unwrap().points().unwrap().to_string(), "a9a8", "{name}");
        let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(report["positions"][5]["pv"], serde_json::json!(["a9a8", "h0h1"]), "{name}");
    }
}

/// `n` copies of the game, each with its number as Event, the later ones a
/// move shorter each (so that each game has positions of its own).
fn games(n: usize) -> String {
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2b6", "c6c5"];
    (0..n)
        .map(|k| {
            let plies = 8 - (k % 4);
            format!("[Event \"{k}\"]\n{} *\n\n", moves[..plies].join(" "))
        })
        .collect()
}

#[test]
fn games_come_out_in_input_order_with_several_engines() {
    let text = games(8);
    let (dir, game, table) = setup("order", &text);
    let out = dir.join("out.pgn");
    // The first game's start is slow: the others finish before it.
    let start = qipu::Position::start().fen();
    let cmd = engine(&format!(
        "--table '{}' --mode slow --sleep 400 --fen-prefix '{}'",
        table.display(),
        key(&start)
    ));
    let o = run(&[
        "analyse",
        game.to_str().unwrap(),
        "--engine",
        &cmd,
        "--engines",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let events: Vec<String> = records(&out).iter().map(|g| g.tag("Event").unwrap().to_string()).collect();
    assert_eq!(events, (0..8).map(|k| k.to_string()).collect::<Vec<_>>());
    for g in records(&out) {
        assert!(evaluations(&g).iter().all(Option::is_some));
    }
}

/// The searches a log of the fake engine holds.
fn searches(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |t| t.lines().count())
}

#[test]
fn the_cache_saves_every_search_of_a_second_run() {
    let text = games(4);
    let (dir, game, table) = setup("cache", &text);
    let (log, cache) = (dir.join("log"), dir.join("cache.db3"));
    let cmd = engine(&format!("--table '{}' --log '{}'", table.display(), log.display()));
    let analyse = |out: &str| {
        run(&[
            "analyse",
            game.to_str().unwrap(),
            "--engine",
            &cmd,
            "--engines",
            "1",
            "--cache",
            cache.to_str().unwrap(),
            "-o",
            dir.join(out).to_str().unwrap(),
        ])
    };
    let first = analyse("a.pgn");
    assert!(first.status.success());
    // Four games of 8, 7, 6 and 5 plies share their positions: 9 of 30.
    assert_eq!(searches(&log), 9);
    assert!(String::from_utf8_lossy(&first.stderr).contains("30 position(s): 9 searched, 21 from the cache"));
    let second = analyse("b.pgn");
    assert!(second.status.success());
    assert_eq!(searches(&log), 9);
    assert!(
        String::from_utf8_lossy(&second.stderr).contains("30 position(s): 0 searched, 30 from the cache")
    );
    assert_eq!(std::fs::read(dir.join("a.pgn")).unwrap(), std::fs::read(dir.join("b.pgn")).unwrap());
}

/// A cache another program holds locked, then one broken on disk: the run
/// searches what it must, gives the cache up after a few failures in a row
/// (rather than waiting on it for every position) and says so in its summary.
#[test]
fn a_locked_or_broken_cache_is_told_in_the_summary() {
    let (dir, first, table) = setup("cache-trouble", &games(1));
    let cache = dir.join("cache.db3");
    let cmd = engine(&format!("--table '{}'", table.display()));
    let analyse = |game: &Path, out: &str| {
        run(&[
            "analyse",
            game.to_str().unwrap(),
            "--engine",
            &cmd,
            "--engines",
            "1",
            "--cache",
            cache.to_str().unwrap(),
            "-o",
            dir.join(out).to_str().unwrap(),
        ])
    };
    let made = analyse(&first, "a.pgn");
    assert!(made.status.success());
    assert!(!String::from_utf8_lossy(&made.stderr).contains("the cache failed"));

    // Another program writing to the cache for a long while: the first
    // game's positions are read (a write lock leaves readers be), the
    // second game's six new ones cannot be kept.
    let second = dir.join("second.pgn");
    std::fs::write(&second, "[Event \"b\"]\n1. b2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 *\n").unwrap();
    let table = self::table(&dir, "[Event \"b\"]\n1. b2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 *\n");
    let cmd_b = engine(&format!("--table '{}'", table.display()));
    let ready = dir.join("locked");
    let mut locker = Command::new("python3")
        .args([
            "-c",
            "import sqlite3, sys, time\n\
             c = sqlite3.connect(sys.argv[1], isolation_level=None)\n\
             c.execute('BEGIN EXCLUSIVE')\n\
             open(sys.argv[2], 'w').close()\n\
             time.sleep(120)\n",
            cache.to_str().unwrap(),
            ready.to_str().unwrap(),
        ])
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !ready.exists() && start.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let locked = qipu()
        .args(["analyse", second.to_str().unwrap(), "--engine", &cmd_b, "--engines", "1", "--cache"])
        .arg(&cache)
        .arg("-o")
        .arg(dir.join("b.pgn"))
        .output()
        .unwrap();
    let _ = locker.kill();
    let _ = locker.wait();
    let stderr = String::from_utf8_lossy(&locked.stderr);
    assert!(locked.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}: warning: the cache failed 0 lookup(s) and 3 store(s) (database is locked); not used after 3 failures in a row",
            cache.display()
        )),
        "{stderr}"
    );
    assert!(stderr.contains("8 position(s): 7 searched, 1 from the cache, 0 failed"), "{stderr}");
    assert_eq!(records(&dir.join("b.pgn")).len(), 1);

    // The cache broken on disk (its pages past the first overwritten): a
    // run that cannot read it says so rather than searching again in silence.
    let mut bytes = std::fs::read(&cache).unwrap();
    let _ = std::fs::remove_file(dir.join("cache.db3-wal"));
    let _ = std::fs::remove_file(dir.join("cache.db3-shm"));
    if bytes.len() < 4096 * 4 {
        bytes.resize(4096 * 4, 0);
    }
    for b in &mut bytes[4096..] {
        *b = 0xff;
    }
    std::fs::write(&cache, &bytes).unwrap();
    let broken = analyse(&first, "c.pgn");
    let stderr = String::from_utf8_lossy(&broken.stderr);
    assert!(broken.status.success(), "{stderr}");
    assert!(stderr.contains("warning: the cache failed"), "{stderr}");
    assert!(stderr.contains("malformed"), "{stderr}");
    assert_eq!(records(&dir.join("c.pgn")).len(), 1);
}

#[test]
fn resume_keeps_the_games_done_and_adds_the_others() {
    let text = games(6);
    let (dir, game, table) = setup("resume", &text);
    let log = dir.join("log");
    let cmd = engine(&format!("--table '{}' --log '{}'", table.display(), log.display()));
    let out = dir.join("out.pgn");
    let whole = dir.join("whole.pgn");
    let base = ["analyse", game.to_str().unwrap(), "--engine", &cmd, "--engines", "2"];
    assert!(run(&[&base[..], &["-o", whole.to_str().unwrap()]].concat()).status.success());
    let all = searches(&log);
    // A first run stopped after two games, then resumed.
    assert!(run(&[&base[..], &["--limit", "2", "-o", out.to_str().unwrap()]].concat()).status.success());
    let _ = std::fs::remove_file(&log);
    let o = run(&[&base[..], &["--resume", "-o", out.to_str().unwrap()]].concat());
    assert!(o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("4 analysed and written, 2 kept from the previous run")
    );
    // Only the four other games were searched.
    assert_eq!(searches(&log), all - (9 + 8));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&whole).unwrap());
    // Resuming with other inputs is refused.
    let other = dir.join("other.pgn");
    std::fs::write(&other, "1. b2e2 *\n").unwrap();
    let o =
        run(&["analyse", other.to_str().unwrap(), "--engine", &cmd, "--resume", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume: game 1 of the output is not game 1"));
}

#[test]
fn resume_of_an_output_stopped_before_its_first_game_starts_afresh() {
    // Ctrl-C before the first game was written leaves an empty output,
    // which the message says to continue with --resume.
    let text = games(2);
    let (dir, game, table) = setup("resume-empty", &text);
    let cmd = engine(&format!("--table '{}'", table.display()));
    let whole = dir.join("whole.pgn");
    let base = ["analyse", game.to_str().unwrap(), "--engine", &cmd];
    assert!(run(&[&base[..], &["-o", whole.to_str().unwrap()]].concat()).status.success());
    for name in ["out.pgn", "out.cbl"] {
        let out = dir.join(name);
        std::fs::write(&out, "").unwrap();
        let o = run(&[&base[..], &["--resume", "-o", out.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stderr).contains("2 analysed and written"), "{name}");
        if name == "out.pgn" {
            assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&whole).unwrap());
        } else {
            assert!(!std::fs::read(&out).unwrap().is_empty());
        }
    }
}

#[test]
fn an_interrupted_run_leaves_the_games_done_and_resumes() {
    let text = games(6);
    let (dir, game, table) = setup("interrupt", &text);
    let out = dir.join("out.pgn");
    let log = dir.join("log");
    let cmd = engine(&format!("--table '{}' --sleep 60 --log '{}'", table.display(), log.display()));
    let child = qipu()
        .args([
            "analyse",
            game.to_str().unwrap(),
            "--engine",
            &cmd,
            "--engines",
            "1",
            "-o",
            out.to_str().unwrap(),
        ])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Stopped during the second game (the first has 9 positions).
    wait_for_searches(&log, 12);
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let o = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("add --resume to continue it"), "{stderr}");
    let done = records(&out);
    assert!(!done.is_empty() && done.len() < 6, "{} games", done.len());
    for g in &done {
        assert!(evaluations(g).iter().all(Option::is_some));
    }
    let o =
        run(&["analyse", game.to_str().unwrap(), "--engine", &cmd, "--resume", "-o", out.to_str().unwrap()]);
    assert!(o.status.success());
    let events: Vec<String> = records(&out).iter().map(|g| g.tag("Event").unwrap().to_string()).collect();
    assert_eq!(events, (0..6).map(|k| k.to_string()).collect::<Vec<_>>());
}

/// Waits until the fake engine's log holds `n` searches (a minute at most).
fn wait_for_searches(log: &Path, n: usize) {
    let since = std::time::Instant::now();
    while searches(log) < n {
        assert!(since.elapsed().as_secs() < 60, "the engine searches nothing");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Whether a process with `marker` in its command line is running.
fn running(marker: &str) -> bool {
    let o = Command::new("pgrep").args(["-f", marker]).output().unwrap();
    !o.stdout.is_empty()
}

#[test]
fn faults_are_retried_then_left_without_annotation_and_no_engine_outlives_qipu() {
    let (dir, game, table) = setup("faults", GAME);
    let after3 = formats::pgn::read(GAME)[0].positions().nth(3).unwrap().fen();
    let marker = format!("fault-{}", std::process::id());
    for mode in ["crash", "hang", "garbage", "refuse", "spam", "endless"] {
        // Once: the engine started again answers.
        let once = dir.join(format!("{mode}.once"));
        let cmd = engine(&format!(
            "--table '{}' --mode {mode} --fen-prefix '{}' --once '{}' --name {marker}",
            table.display(),
            key(&after3),
            once.display()
        ));
        let out = dir.join(format!("{mode}-once.pgn"));
        let o = run(&[
            "analyse",
            game.to_str().unwrap(),
            "--engine",
            &cmd,
            "--timeout",
            "700",
            "-o",
            out.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{mode}: {stderr}");
        assert!(
            stderr.contains("game 1: the position after ply 3: the engine was started again and answered"),
            "{mode}: {stderr}"
        );
        assert!(
            stderr.contains("9 searched, 0 from the cache, 0 failed (1 engine restart(s))"),
            "{mode}: {stderr}"
        );
        assert!(evaluations(&records(&out)[0]).iter().all(Option::is_some), "{mode}");
        // Always: the position is given up after a second try.
        let cmd = engine(&format!(
            "--table '{}' --mode {mode} --fen-prefix '{}' --name {marker}",
            table.display(),
            key(&after3)
        ));
        let out = dir.join(format!("{mode}.pgn"));
        let o = run(&[
            "analyse",
            game.to_str().unwrap(),
            "--engine",
            &cmd,
            "--timeout",
            "700",
            "-o",
            out.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{mode}: {stderr}");
        assert!(
            stderr.contains("game 1: the position after ply 3: left without annotation"),
            "{mode}: {stderr}"
        );
        assert!(stderr.contains("8 searched, 0 from the cache, 1 failed"), "{mode}: {stderr}");
        // The game is written whatever happened: the third move has no
        // evaluation (its position after), the others do.
        let g = &records(&out)[0];
        let evals = evaluations(g);
        assert_eq!(evals.iter().filter(|e| e.is_none()).count(), 1, "{mode}");
        assert!(evals[2].is_none(), "{mode}");
        assert_eq!(g.tag("Event"), Some("t"));
        assert!(!running(&marker), "{mode}: an engine outlived qipu");
    }
}

#[test]
fn an_engine_that_will_not_start_is_a_usage_error() {
    let (dir, game, _) = setup("nostart", GAME);
    let out = dir.join("out.pgn");
    let o = run(&[
        "analyse",
        game.to_str().unwrap(),
        "--engine",
        "/nonexistent/engine",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot start `/nonexistent/engine`"));
    assert!(!out.exists());
    let o = run(&[
        "analyse",
        game.to_str().unwrap(),
        "--engine",
        "sh -c 'echo hello; exit 0'",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("answers neither uci"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn engines_die_with_qipu_however_it_ends() {
    let (dir, game, table) = setup("killed", GAME);
    let marker = format!("killed-{}", std::process::id());
    let log = dir.join("log");
    let cmd = engine(&format!(
        "--table '{}' --sleep 200 --log '{}' --name {marker}",
        table.display(),
        log.display()
    ));
    let out = dir.join("out.pgn");
    let mut child = qipu()
        .args([
            "analyse",
            game.to_str().unwrap(),
            "--engine",
            &cmd,
            "--engines",
            "2",
            "-o",
            out.to_str().unwrap(),
        ])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for_searches(&log, 2);
    child.kill().unwrap();
    child.wait().unwrap();
    let since = std::time::Instant::now();
    while running(&marker) {
        assert!(since.elapsed().as_secs() < 5, "an engine outlived qipu, killed");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // Nothing was complete: no output file, not even a partial one under its name.
    assert!(!out.exists());
}

/// An engine that starts a process of its own (which keeps the engine's
/// output open) and crashes: qipu sees it die at once rather than waiting
/// for the timeout, and no process the engine started outlives the run.
#[test]
fn an_engine_that_ends_while_its_helper_holds_its_output_is_told_dead_and_its_helpers_killed() {
    let (dir, game, table) = setup("helpers", GAME);
    let after3 = formats::pgn::read(GAME)[0].positions().nth(3).unwrap().fen();
    let marker = format!("helper-{}", std::process::id());
    let cmd = engine(&format!(
        "--table '{}' --mode crash --fen-prefix '{}' --child {marker}",
        table.display(),
        key(&after3),
    ));
    let out = dir.join("out.pgn");
    let start = std::time::Instant::now();
    // A timeout of ten minutes: the run ends long before it only if the
    // crash is seen.
    let o = run(&[
        "analyse",
        game.to_str().unwrap(),
        "--engine",
        &cmd,
        "--engines",
        "1",
        "--timeout",
        "600000",
        "-o",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the position after ply 3: left without annotation"), "{stderr}");
    assert!(stderr.contains("exit status: 3"), "{stderr}");
    assert!(stderr.contains("8 searched, 0 from the cache, 1 failed"), "{stderr}");
    assert!(start.elapsed().as_secs() < 300, "the run waited for the timeout");
    let since = std::time::Instant::now();
    while running(&marker) {
        assert!(since.elapsed().as_secs() < 5, "a process started by the engine outlived qipu");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn libraries_and_files_take_the_annotations_and_resume() {
    let text = games(3);
    let (dir, game, table) = setup("binary", &text);
    let cmd = engine(&format!("--table '{}'", table.display()));
    let cbl = dir.join("out.cbl");
    let base = ["analyse", game.to_str().unwrap(), "--engine", &cmd, "--to", "cbl"];
    assert!(run(&[&base[..], &["--limit", "1", "-o", cbl.to_str().unwrap()]].concat()).status.success());
    let o = run(&[&base[..], &["--resume", "-o", cbl.to_str().unwrap()]].concat());
    assert!(o.status.success());
    let games = records(&cbl);
    assert_eq!(games.len(), 3);
    for g in &games {
        assert!(evaluations(g).iter().all(Option::is_some));
        assert!(g.tag("RedACPL").is_some() || g.tag("Annotator").is_some());
    }
    let xqf = dir.join("xqf");
    let o = run(&[
        "analyse",
        game.to_str().unwrap(),
        "--engine",
        &cmd,
        "--to",
        "xqf",
        "-o",
        xqf.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let files: Vec<_> = std::fs::read_dir(&xqf).unwrap().map(|f| f.unwrap().path()).collect();
    assert_eq!(files.len(), 3);
    // One file gone: --resume writes it again and keeps the others.
    let gone = files.iter().min().unwrap();
    let before = std::fs::read(gone).unwrap();
    std::fs::remove_file(gone).unwrap();
    let o = run(&[
        "analyse",
        game.to_str().unwrap(),
        "--engine",
        &cmd,
        "--to",
        "xqf",
        "--resume",
        "-o",
        xqf.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("1 analysed and written, 2 kept from the previous run")
    );
    assert_eq!(std::fs::read(gone).unwrap(), before);
    for f in files {
        let g = &records(&f)[0];
        assert!(evaluations(g).iter().all(Option::is_some));
    }
}

//! `qipu search INDEX ... --to FORMAT`: the games found written as convert writes them, read
//! again from their inputs; the selection flags of the other commands, answered as `validate`
//! answers them; an input changed after it was indexed told and left out.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{qipu, scratch, stderr, stdout};

/// The position after 炮二平五 马8进7 with Red to move, which many games reach.
const CANNON_HORSE: &str = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w";

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

/// Forty legal games from the standard start, half opening 炮二平五 马8进7, with a Red player
/// among three, a date among six years and a result among three.
fn generated(dir: &Path) -> PathBuf {
    let mut rng = Rng(0x47);
    let mut text = String::new();
    for k in 0..40 {
        let mut pos = qipu::Position::start();
        let mut moves: Vec<String> = Vec::new();
        let opening: &[&str] = if k % 2 == 0 { &["h2e2", "h9g7"] } else { &["b0c2"] };
        for m in opening {
            let m: qipu::Move = m.parse().unwrap();
            moves.push(m.to_string());
            let _ = pos.play_unchecked(m);
        }
        for _ in 0..(rng.next() % 40) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[(rng.next() % legal.len() as u64) as usize];
            moves.push(m.to_string());
            let _ = pos.play_unchecked(m);
        }
        let red = ["Lü Qin", "Xu Yinchuan", "Hu Ronghua"][k % 3];
        let year = 1990 + (k % 6) * 3;
        let result = ["1-0", "0-1", "1/2-1/2"][k % 3];
        text += &format!(
            "[Event \"Generated {k}\"]\n[Red \"{red}\"]\n[Black \"Black {k}\"]\n[Date \"{year}.05.01\"]\n\
             [Result \"{result}\"]\n{} {result}\n\n",
            moves.join(" ")
        );
    }
    let path = dir.join("generated.pgn");
    std::fs::write(&path, text).unwrap();
    path
}

/// The inputs of a test in `dir`: a copy of the fixture of 1,391 games, and generated games.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn");
    let copy = dir.join("hu.pgn");
    std::fs::copy(fixture, &copy).unwrap();
    vec![copy, generated(dir)]
}

/// The index of `inputs`, built into `dir`.
fn build(dir: &Path, inputs: &[PathBuf]) -> PathBuf {
    let index = dir.join("games.qidx");
    let out = qipu().args(["index", "build"]).args(inputs).arg("-o").arg(&index).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    index
}

/// Runs `qipu ARGS`, which must succeed.
fn run(args: &[&std::ffi::OsStr]) -> Output {
    let out = qipu().args(args).output().unwrap();
    assert!(out.status.success(), "qipu {args:?}: {}", stderr(&out));
    out
}

/// A game as written: its tags, and its main line's moves (ICCS).
type Game = (Vec<(String, String)>, Vec<String>);

/// The games of a PGN file: the tags and the main line's moves of each.
fn games(path: &Path) -> Vec<Game> {
    let text = std::fs::read_to_string(path).unwrap();
    qipu::formats::pgn::read(&text)
        .iter()
        .map(|game| {
            let moves = game.plies().map(|ply| ply.mv.to_string()).collect();
            (game.tags().to_vec(), moves)
        })
        .collect()
}

/// How many games `validate INPUTS --position FEN FLAGS` selects.
fn validate_selects(inputs: &[PathBuf], fen: &str, flags: &[&str]) -> usize {
    let out =
        qipu().arg("validate").args(inputs).args(["--position", fen, "-q"]).args(flags).output().unwrap();
    let text = stdout(&out);
    let summary = text.lines().last().unwrap_or_default();
    let selected = summary.rsplit("; ").next().and_then(|part| part.split(" selected").next());
    selected.and_then(|n| n.trim().parse().ok()).unwrap_or_else(|| panic!("no selected count in {summary:?}"))
}

/// How many games `search INDEX --fen FEN FLAGS --count` answers.
fn search_counts(index: &Path, fen: &str, flags: &[&str]) -> usize {
    let out = qipu().arg("search").arg(index).args(["--fen", fen, "--count"]).args(flags).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    text.split(" game(s)").next().unwrap().trim().parse().unwrap_or_else(|_| panic!("{text}"))
}

#[test]
fn search_writes_the_games_convert_selects() {
    let dir = scratch("search-out-same");
    let inputs = inputs(&dir);
    let index = build(&dir, &inputs);
    let found = dir.join("found.pgn");
    let out = run(&[
        "search".as_ref(),
        index.as_os_str(),
        "--fen".as_ref(),
        CANNON_HORSE.as_ref(),
        "--to".as_ref(),
        "pgn".as_ref(),
        "-o".as_ref(),
        found.as_os_str(),
    ]);
    let expected = dir.join("expected.pgn");
    let mut convert = qipu();
    convert
        .arg("convert")
        .args(&inputs)
        .args(["--position", CANNON_HORSE, "--to", "pgn", "-o"])
        .arg(&expected);
    assert!(convert.output().unwrap().status.success());
    let (written, wanted) = (games(&found), games(&expected));
    // Games of both inputs, in the same order, with the same tags and moves.
    assert!(wanted.len() > 100, "{}", wanted.len());
    assert!(wanted.iter().any(|(tags, _)| tags.iter().any(|(_, v)| v.starts_with("Generated"))));
    assert_eq!(written.len(), wanted.len());
    assert_eq!(written, wanted);
    assert!(stderr(&out).contains(&format!("{} written", wanted.len())), "{}", stderr(&out));
    // With a selection flag, the same games as convert with it.
    let red = dir.join("red.pgn");
    run(&[
        "search".as_ref(),
        index.as_os_str(),
        "--fen".as_ref(),
        CANNON_HORSE.as_ref(),
        "--red".as_ref(),
        "Xu".as_ref(),
        "--to".as_ref(),
        "pgn".as_ref(),
        "-o".as_ref(),
        red.as_os_str(),
    ]);
    let mut convert = qipu();
    let expected_red = dir.join("expected-red.pgn");
    convert.arg("convert").args(&inputs).args([
        "--position",
        CANNON_HORSE,
        "--red",
        "Xu",
        "--to",
        "pgn",
        "-o",
    ]);
    assert!(convert.arg(&expected_red).output().unwrap().status.success());
    let (written, wanted) = (games(&red), games(&expected_red));
    assert!(!wanted.is_empty() && wanted.len() < 20, "{}", wanted.len());
    assert_eq!(written, wanted);
    // A file per game, as convert writes them.
    let xqf = dir.join("xqf");
    let out = run(&[
        "search".as_ref(),
        index.as_os_str(),
        "--fen".as_ref(),
        CANNON_HORSE.as_ref(),
        "--red".as_ref(),
        "Xu".as_ref(),
        "--to".as_ref(),
        "xqf".as_ref(),
        "-o".as_ref(),
        xqf.as_os_str(),
    ]);
    let files = crate::common::files(&xqf);
    assert_eq!(files.len(), wanted.len(), "{}", stderr(&out));
    // Standard output without -o, as convert writes it.
    let out = run(&[
        "search".as_ref(),
        index.as_os_str(),
        "--moves".as_ref(),
        "h2e2 h9g7".as_ref(),
        "--red".as_ref(),
        "Xu".as_ref(),
        "--to".as_ref(),
        "pgn".as_ref(),
    ]);
    assert_eq!(stdout(&out), std::fs::read_to_string(&red).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn selection_flags_count_as_validate_selects() {
    let dir = scratch("search-out-count");
    let inputs = inputs(&dir);
    let index = build(&dir, &inputs);
    let flags: [&[&str]; 9] = [
        &["--games", "1-300", "--skip", "2", "--limit", "30"],
        &["--red", "Xu", "--limit", "3"],
        &[],
        &["--red", "Xu"],
        &["--date", "1995..2001"],
        &["--black", "ZHAO"],
        &["--result", "1-0,draw"],
        &["--event", "Generated", "--ecco", "C"],
        &["--termination", "none", "--plies", "20.."],
    ];
    let all = validate_selects(&inputs, CANNON_HORSE, &[]);
    let mut some = 0;
    for flags in flags {
        let expected = validate_selects(&inputs, CANNON_HORSE, flags);
        assert_eq!(search_counts(&index, CANNON_HORSE, flags), expected, "{flags:?}");
        // Each flag leaves some games out.
        assert!(flags.is_empty() || expected < all, "{flags:?}: {expected} of {all}");
        some += usize::from(expected > 0);
    }
    assert!(some >= 5, "{some}");
    // --result as before, repeated, and answered by the index alone.
    let once = search_counts(&index, CANNON_HORSE, &["--result", "1-0", "--result", "draw"]);
    assert_eq!(once, validate_selects(&inputs, CANNON_HORSE, &["--result", "1-0,draw"]));
    assert!(once > 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_input_changed_after_indexing_is_told_and_not_read() {
    let dir = scratch("search-out-changed");
    let inputs = inputs(&dir);
    let index = build(&dir, &inputs);
    // The generated games change: their first game is gone.
    let text = std::fs::read_to_string(&inputs[1]).unwrap();
    let rest = text.split_once("\n\n").unwrap().1;
    std::fs::write(&inputs[1], rest).unwrap();
    let found = dir.join("found.pgn");
    let out = run(&[
        "search".as_ref(),
        index.as_os_str(),
        "--fen".as_ref(),
        CANNON_HORSE.as_ref(),
        "--to".as_ref(),
        "pgn".as_ref(),
        "-o".as_ref(),
        found.as_os_str(),
    ]);
    let told = stderr(&out);
    assert!(told.contains("generated.pgn: changed since it was indexed"), "{told}");
    assert!(told.contains("20 game(s) in 1 input(s) changed or gone, not read"), "{told}");
    // Only the games of the unchanged input, as convert writes them.
    let expected = dir.join("expected.pgn");
    let mut convert = qipu();
    convert
        .arg("convert")
        .arg(&inputs[0])
        .args(["--position", CANNON_HORSE, "--to", "pgn", "-o"])
        .arg(&expected);
    assert!(convert.output().unwrap().status.success());
    let written = games(&found);
    assert_eq!(written, games(&expected));
    assert!(written.iter().all(|(tags, _)| tags.iter().all(|(_, v)| !v.starts_with("Generated"))));
    // Counting by a selection flag reads the inputs too: told the same.
    let out = qipu()
        .arg("search")
        .arg(&index)
        .args(["--fen", CANNON_HORSE, "--red", "Yinchuan", "--count"])
        .output()
        .unwrap();
    assert!(stderr(&out).contains("generated.pgn: changed since it was indexed"), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("0 game(s)"), "{}", stdout(&out));
    // An input gone is told so.
    std::fs::remove_file(&inputs[1]).unwrap();
    let out = run(&[
        "search".as_ref(),
        index.as_os_str(),
        "--fen".as_ref(),
        CANNON_HORSE.as_ref(),
        "--to".as_ref(),
        "pgn".as_ref(),
        "-o".as_ref(),
        found.as_os_str(),
        "--force".as_ref(),
    ]);
    assert!(stderr(&out).contains("generated.pgn: not found (gone since it was indexed"), "{}", stderr(&out));
    assert_eq!(games(&found), games(&expected));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn json_lines_and_json_games() {
    let dir = scratch("search-out-json");
    let inputs = inputs(&dir);
    let index = build(&dir, &inputs);
    let out = run(&[
        "search".as_ref(),
        index.as_os_str(),
        "--fen".as_ref(),
        CANNON_HORSE.as_ref(),
        "--red".as_ref(),
        "Yinchuan".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    let lines: Vec<serde_json::Value> =
        stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), search_counts(&index, CANNON_HORSE, &["--red", "Yinchuan"]));
    assert!(!lines.is_empty());
    for line in &lines {
        assert_eq!(line["tags"]["Red"], "Xu Yinchuan", "{line}");
        assert_eq!(line["ply"], 2, "{line}");
        assert!(line["source"].as_str().unwrap().ends_with("generated.pgn"), "{line}");
    }
    // Without a flag the index cannot answer, the lines are those of before: every game.
    let out = run(&[
        "search".as_ref(),
        index.as_os_str(),
        "--fen".as_ref(),
        CANNON_HORSE.as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    assert_eq!(stdout(&out).lines().count(), search_counts(&index, CANNON_HORSE, &[]));
    assert!(!stderr(&out).contains("read again"), "{}", stderr(&out));
    // The games as JSON records, one a line.
    let out = run(&[
        "search".as_ref(),
        index.as_os_str(),
        "--fen".as_ref(),
        CANNON_HORSE.as_ref(),
        "--red".as_ref(),
        "Yinchuan".as_ref(),
        "--to".as_ref(),
        "json".as_ref(),
    ]);
    let games: Vec<serde_json::Value> =
        stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(games.len(), lines.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

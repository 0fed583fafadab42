//! `qipu fen --format epd`, `--all-lines`, and the result and side fields,
//! end to end: each position checked against one the test plays itself.

use crate::common::{self, qipu};

use crate::common::Rng;
use qipu::{Color, Move, Position};

/// A position the output must give: its line (as documented: `0` the
/// main line, else the path of variation numbers), ply, the move that led
/// there in UCI (none at ply 0) and FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Row {
    line: String,
    ply: usize,
    mv: Option<String>,
    fen: String,
}

/// Builds a random game with nested variations as PGN text, with the
/// positions of every line in the order a reader meets them.
struct Game {
    text: String,
    rows: Vec<Row>,
    main_plies: usize,
}

fn move_number(ply: usize, text: &mut String) {
    // `ply` plies were played before this move.
    let number = ply / 2 + 1;
    if ply.is_multiple_of(2) {
        text.push_str(&format!("{number}. "));
    } else {
        text.push_str(&format!("{number}... "));
    }
}

/// Writes a line of up to `len` moves from `pos`, `ply` plies into the
/// game, whose line id is `path`; variations branch off it at random.
fn line(
    pos: &Position,
    ply: usize,
    path: &[u32],
    len: usize,
    depth: usize,
    rng: &mut Rng,
    game: &mut Game,
) -> usize {
    let id = if path.is_empty() {
        "0".to_string()
    } else {
        path.iter().map(u32::to_string).collect::<Vec<_>>().join(".")
    };
    let mut pos = pos.clone();
    let mut variations = 0;
    let mut played = 0;
    while played < len {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m: Move = moves[rng.below(moves.len())];
        move_number(ply + played, &mut game.text);
        game.text.push_str(&format!("{m} "));
        let before = pos.clone();
        pos.play_unchecked(m);
        game.rows.push(Row {
            line: id.clone(),
            ply: ply + played + 1,
            mv: Some(m.to_string()),
            fen: pos.fen(),
        });
        // Alternatives to this move, each from the position before it.
        while depth < 3 && rng.below(4) == 0 {
            variations += 1;
            let mut sub = path.to_vec();
            sub.push(variations);
            game.text.push('(');
            let len = 1 + rng.below(6);
            line(&before, ply + played, &sub, len, depth + 1, rng, game);
            game.text.push_str(") ");
        }
        played += 1;
    }
    played
}

fn random_game(seed: u64, plies: usize) -> Game {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let start = Position::start();
    let mut game = Game {
        text: String::from("[Event \"all lines\"]\n[Result \"0-1\"]\n"),
        rows: vec![Row { line: "0".into(), ply: 0, mv: None, fen: start.fen() }],
        main_plies: 0,
    };
    game.main_plies = line(&start, 0, &[], plies, 0, &mut rng, &mut game);
    game.text.push_str("0-1\n\n");
    game
}

fn json_rows(args: &[&str], input: &str) -> Vec<serde_json::Value> {
    let out = qipu().args(["fen", "-", "--format", "json"]).args(args).write_stdin(input).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    // An illegal move in a variation gives exit code 1 and a message.
    assert!(out.status.success() || stderr.contains("in the variation"), "{stderr}");
    String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn side_of(fen: &str) -> &'static str {
    if fen.split(' ').nth(1) == Some("w") { "red" } else { "black" }
}

#[test]
fn all_lines_gives_every_position_of_every_line_with_its_line_id() {
    let mut games_with_nesting = 0;
    for seed in 1..40 {
        let game = random_game(seed, 30);
        games_with_nesting += usize::from(game.rows.iter().any(|r| r.line.contains('.')));
        let rows = json_rows(&["--all-lines", "--notation", "uci"], &game.text);
        let got: Vec<Row> = rows
            .iter()
            .map(|r| Row {
                line: r["line"].as_str().unwrap().to_string(),
                ply: r["ply"].as_u64().unwrap() as usize,
                mv: r["move"].as_str().map(str::to_string),
                fen: r["fen"].as_str().unwrap().to_string(),
            })
            .collect();
        assert_eq!(got, game.rows, "seed {seed}:\n{}", game.text);
        for r in &rows {
            assert_eq!(r["side"], side_of(r["fen"].as_str().unwrap()));
            assert_eq!(r["result"], "0-1");
        }
        // Without --all-lines: the main line only, and no line field.
        let main = json_rows(&["--notation", "uci"], &game.text);
        assert_eq!(main.len(), game.main_plies + 1);
        let expected: Vec<&Row> = game.rows.iter().filter(|r| r.line == "0").collect();
        for (r, e) in main.iter().zip(expected) {
            assert!(r.get("line").is_none());
            assert_eq!(
                (r["ply"].as_u64().unwrap() as usize, r["fen"].as_str().unwrap()),
                (e.ply, e.fen.as_str())
            );
        }
    }
    assert!(games_with_nesting > 10, "the generator nests variations: {games_with_nesting}");
}

#[test]
fn line_ids_count_variations_that_do_not_replay() {
    // The first variation's move is illegal (a horse cannot go h9h0):
    // the second keeps its number, 2; the third, inside it, is 2.1.
    let text = "1. h2e2 h9g7 (1... h9h0) (1... b9c7 2. h0g2 (2. b0c2)) 2. h0g2 *";
    let rows = json_rows(&["--all-lines", "--notation", "uci"], text);
    let ids: Vec<(&str, u64, &str)> = rows
        .iter()
        .map(|r| (r["line"].as_str().unwrap(), r["ply"].as_u64().unwrap(), r["move"].as_str().unwrap_or("-")))
        .collect();
    assert_eq!(
        ids,
        [
            ("0", 0, "-"),
            ("0", 1, "h2e2"),
            ("0", 2, "h9g7"),
            ("2", 2, "b9c7"),
            ("2", 3, "h0g2"),
            ("2.1", 3, "b0c2"),
            ("0", 3, "h0g2")
        ]
    );
}

/// The opcodes of an EPD line after its four position fields, split
/// without the EPD reader: `name operand...;`, operands being words or
/// strings in double quotes with `\` escapes.
fn epd_opcodes(line: &str) -> (String, Vec<(String, Vec<String>)>) {
    let mut fields = line.splitn(5, ' ');
    let position: Vec<&str> = fields.by_ref().take(4).collect();
    assert_eq!(&position[2..], ["-", "-"], "{line}");
    let rest = fields.next().unwrap_or("");
    let mut opcodes = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut chars = rest.chars();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' if quoted => word.push(chars.next().expect("an escaped character")),
            '"' => quoted = !quoted,
            ' ' | ';' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                if c == ';' {
                    let name = words.remove(0);
                    opcodes.push((name, std::mem::take(&mut words)));
                }
            }
            c => word.push(c),
        }
    }
    assert!(!quoted && words.is_empty() && word.is_empty(), "every opcode ends in ';': {line}");
    (position[..2].join(" "), opcodes)
}

fn operand<'a>(opcodes: &'a [(String, Vec<String>)], name: &str) -> Option<&'a str> {
    let found: Vec<_> = opcodes.iter().filter(|(n, _)| n == name).collect();
    assert!(found.len() <= 1, "one {name}");
    found.first().map(|(_, operands)| {
        assert_eq!(operands.len(), 1, "{name} has one operand");
        operands[0].as_str()
    })
}

#[test]
fn epd_lines_give_each_position_and_its_opcodes() {
    for seed in 1..12 {
        let game = random_game(seed, 40);
        // Two games in one input, the second from a position of its own.
        let text = format!(
            "{}[FEN \"3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 5 20\"]\n[Result \"1/2-1/2\"]\n1. e1d2 1/2-1/2\n",
            game.text
        );
        for all_lines in [false, true] {
            let mut args = vec!["fen", "-", "--format", "epd", "--notation", "uci"];
            if all_lines {
                args.push("--all-lines");
            }
            let out = qipu().args(&args).write_stdin(text.clone()).output().unwrap();
            assert!(out.status.success());
            let stdout = String::from_utf8(out.stdout).unwrap();
            let lines: Vec<&str> = stdout.lines().collect();
            let expected: Vec<&Row> = game.rows.iter().filter(|r| all_lines || r.line == "0").collect();
            assert_eq!(lines.len(), expected.len() + 2);
            // The ECCO code of the first game, from its main line.
            let main_moves: Vec<Move> = game
                .rows
                .iter()
                .filter(|r| r.line == "0" && r.mv.is_some())
                .map(|r| r.mv.as_ref().unwrap().parse().unwrap())
                .collect();
            let code = qipu::analysis::ecco::classify(&Position::start(), &main_moves).unwrap().code;
            for (line, row) in lines.iter().zip(&expected) {
                let (position, opcodes) = epd_opcodes(line);
                let fen: Vec<&str> = row.fen.split(' ').collect();
                assert_eq!(position, fen[..2].join(" "));
                assert_eq!(operand(&opcodes, "hmvc"), Some(fen[4]));
                assert_eq!(operand(&opcodes, "fmvn"), Some(fen[5]));
                assert_eq!(operand(&opcodes, "ply"), Some(row.ply.to_string().as_str()));
                assert_eq!(operand(&opcodes, "move"), row.mv.as_deref());
                assert_eq!(operand(&opcodes, "line"), all_lines.then_some(row.line.as_str()));
                assert_eq!(operand(&opcodes, "source"), Some("-"));
                assert_eq!(operand(&opcodes, "game"), Some("1"));
                assert_eq!(operand(&opcodes, "result"), Some("0-1"));
                assert_eq!(operand(&opcodes, "ecco"), Some(code));
            }
            // The second game: ply 0 and 1, no ECCO code (not from the
            // standard start).
            let mut pos: Position = "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 5 20".parse().unwrap();
            for (k, line) in lines[expected.len()..].iter().enumerate() {
                let (position, opcodes) = epd_opcodes(line);
                if k == 1 {
                    pos.play_unchecked("e1d2".parse().unwrap());
                }
                let fen = pos.fen();
                let fen: Vec<&str> = fen.split(' ').collect();
                assert_eq!(position, fen[..2].join(" "));
                assert_eq!(operand(&opcodes, "hmvc"), Some(fen[4]));
                assert_eq!(operand(&opcodes, "fmvn"), Some(fen[5]));
                assert_eq!(operand(&opcodes, "game"), Some("2"));
                assert_eq!(operand(&opcodes, "result"), Some("1/2-1/2"));
                assert_eq!(operand(&opcodes, "ecco"), None);
                assert_eq!(operand(&opcodes, "move"), (k == 1).then_some("e1d2"));
            }
        }
    }
}

#[test]
fn epd_source_names_are_quoted_so_they_read_back() {
    let dir = common::scratch("fen-epd-names");
    let path = dir.join("a \"quoted\" name; here.pgn");
    std::fs::write(&path, "1. h2e2 *\n").unwrap();
    let out = qipu().args(["fen", "--format", "epd"]).arg(&path).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 2);
    for line in stdout.lines() {
        let (_, opcodes) = epd_opcodes(line);
        assert_eq!(operand(&opcodes, "source"), Some(path.to_str().unwrap()));
        assert_eq!(operand(&opcodes, "result"), Some("*"));
    }
}

#[test]
fn csv_and_json_give_the_side_to_move_and_the_result() {
    let text =
        "[Result \"1-0\"]\n1. h2e2 h9g7 2. h0g2 *\n\n1. h2e2 h9g7 1-0\n\n[Result \"1/2-1/2\"]\n1. h2e2\n";
    let rows = json_rows(&[], text);
    let results: Vec<(u64, &str, &str)> = rows
        .iter()
        .map(|r| (r["index"].as_u64().unwrap(), r["side"].as_str().unwrap(), r["result"].as_str().unwrap()))
        .collect();
    // The result written after the moves, else the Result tag; `*` stands
    // for none.
    assert_eq!(
        results,
        [
            (0, "red", "*"),
            (0, "black", "*"),
            (0, "red", "*"),
            (0, "black", "*"),
            (1, "red", "1-0"),
            (1, "black", "1-0"),
            (1, "red", "1-0"),
            (2, "red", "1/2-1/2"),
            (2, "black", "1/2-1/2")
        ]
    );
    for r in &rows {
        assert_eq!(r["side"], side_of(r["fen"].as_str().unwrap()));
    }
    let out = qipu().args(["fen", "-", "--format", "csv"]).write_stdin(text).output().unwrap();
    let csv = String::from_utf8(out.stdout).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("source,index,ply,move,fen,side,result"));
    let body: Vec<&str> = lines.collect();
    assert_eq!(body.len(), rows.len());
    for (line, r) in body.iter().zip(&rows) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 7, "{line}");
        assert_eq!(fields[4], r["fen"]);
        assert_eq!(fields[5], r["side"]);
        assert_eq!(fields[6], r["result"]);
    }
    // Black to move from the start of a game given by its FEN.
    let black = "[FEN \"3k5/9/9/9/9/9/9/9/4A4/4K4 b\"]\n1. d9e9 *\n";
    let rows = json_rows(&[], black);
    assert_eq!((rows[0]["side"].as_str(), rows[1]["side"].as_str()), (Some("black"), Some("red")));
}

#[test]
fn all_lines_in_every_format_gives_the_same_positions() {
    let game = random_game(5, 30);
    let json = json_rows(&["--all-lines"], &game.text);
    assert_eq!(json.len(), game.rows.len());
    let run = |format: &str| {
        let out = qipu()
            .args(["fen", "-", "--all-lines", "--format", format])
            .write_stdin(game.text.clone())
            .output();
        String::from_utf8(out.unwrap().stdout).unwrap()
    };
    let text = run("text");
    let csv = run("csv");
    let epd = run("epd");
    let mut csv_lines = csv.lines();
    assert_eq!(csv_lines.next(), Some("source,index,line,ply,move,fen,side,result"));
    let csv_lines: Vec<&str> = csv_lines.collect();
    let text_lines: Vec<&str> = text.lines().collect();
    let epd_lines: Vec<&str> = epd.lines().collect();
    assert_eq!((text_lines.len(), csv_lines.len(), epd_lines.len()), (json.len(), json.len(), json.len()));
    for (k, r) in json.iter().enumerate() {
        let (line, ply, mv, fen) = (
            r["line"].as_str().unwrap(),
            r["ply"].to_string(),
            r["move"].as_str().unwrap_or(""),
            r["fen"].as_str().unwrap(),
        );
        let t: Vec<&str> = text_lines[k].split('\t').collect();
        assert_eq!(t, ["-", "1", line, &ply, if mv.is_empty() { "-" } else { mv }, fen]);
        let c: Vec<&str> = csv_lines[k].split(',').collect();
        assert_eq!(c, ["-", "0", line, &ply, mv, fen, r["side"].as_str().unwrap(), "0-1"]);
        let (position, opcodes) = epd_opcodes(epd_lines[k]);
        assert!(fen.starts_with(&position));
        assert_eq!(operand(&opcodes, "line"), Some(line));
        assert_eq!(operand(&opcodes, "ply"), Some(ply.as_str()));
    }
    // The side of each position is the other of the one before it on its line.
    let side = |r: &serde_json::Value| if r["side"] == "red" { Color::Red } else { Color::Black };
    for pair in json.windows(2) {
        if pair[0]["line"] == pair[1]["line"]
            && pair[1]["ply"].as_u64() == pair[0]["ply"].as_u64().map(|p| p + 1)
        {
            assert_eq!(side(&pair[1]), !side(&pair[0]));
        }
    }
}

#[test]
fn variations_nested_too_deep_are_left_out_and_said_so() {
    // 20,000 variations each within the one before: the ids of the first
    // 64 levels are written, the rest told on standard error, so that the
    // output does not grow with the square of the input.
    // (PGN read as it streams keeps the nesting: see the next test.)
    let text = format!("[Event \"deep\"]\n1. h2e2 h9g7 {}*", "(1... b9c7 ".repeat(20_000));
    let out = qipu().args(["fen", "-", "--all-lines", "--format", "csv"]).write_stdin(text).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(rows.len(), 3 + qipu::record::replay::MAX_LINE_DEPTH);
    let deepest = vec!["1"; qipu::record::replay::MAX_LINE_DEPTH].join(".");
    assert!(rows.last().unwrap().starts_with(&format!("-,0,{deepest},2,B9-C7,")), "{}", rows.last().unwrap());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(
            "-: warning: game 1: variations nested more than 64 deep: their positions are left out"
        ),
        "{stderr}"
    );
}

#[test]
fn alternatives_to_a_variations_first_move_are_numbered_as_the_record_is_read() {
    // PGN, with tags or without, read as it streams: an alternative to the
    // first move of a variation is a variation within it (`1.1`). A record
    // read whole into a tree (here a JSON record) holds it as one more
    // alternative to the main-line move (`2`), as XQF and DhtmlXQ records do.
    let moves = "1. h2e2 h9g7 (1... b9c7 (1... c9e7) 2. h0g2) 2. h0g2 *";
    let json = qipu().args(["convert", "-", "--to", "json"]).write_stdin(moves).output().unwrap();
    let json = String::from_utf8(json.stdout).unwrap();
    for (text, c9e7) in [(format!("[Event \"x\"]\n{moves}"), "1.1"), (moves.to_string(), "1.1"), (json, "2")]
    {
        let rows = json_rows(&["--all-lines", "--notation", "uci"], &text);
        let line_of =
            |mv: &str| rows.iter().find(|r| r["move"] == mv).unwrap()["line"].as_str().unwrap().to_string();
        assert_eq!((line_of("b9c7"), line_of("c9e7")), ("1".to_string(), c9e7.to_string()), "{text}");
    }
}

//! EPD and UCI/UCCI position lines: read as records one game a line (every
//! dialect), told by content, streamed, and through `qipu validate`, `fen`
//! and `convert` end to end; `convert --to uci` reads back as the games it
//! was given.
//!
//! The games are random legal games played out here by qipu's rules
//! engine, from the start and from positions reached on the way (with
//! clocks), so what is compared is what the generator played, not what a
//! reader says.

use crate::common::qipu;

use crate::common::{Rng, scratch};
use qipu::formats::epd::{Operand, push_opcode, push_position};
use qipu::formats::stream::{read_split, split_sized};
use qipu::formats::{self, detect::Format};
use qipu::notation::iccs::{self, Style};
use qipu::record::{Record, RecordBuilder};
use qipu::{Move, Position};

/// A random legal game: its start (a FEN, with clocks, when it is not the
/// standard start) and its moves.
struct Game {
    fen: Option<String>,
    moves: Vec<Move>,
}

/// Plays up to `plies` random legal moves from `pos`.
fn play(pos: &mut Position, plies: usize, rng: &mut Rng) -> Vec<Move> {
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        moves.push(m);
        let _ = pos.play_unchecked(m);
    }
    moves
}

/// Random games, every third from a position reached by random moves,
/// written with clocks that are not `0 1`.
fn games(n: usize, seed: u64) -> Vec<Game> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|g| {
            let mut pos = Position::start();
            let fen = (g % 3 == 2).then(|| {
                let before = 2 + rng.below(30);
                play(&mut pos, before, &mut rng);
                let mut setup = pos.to_setup();
                setup.halfmoves = rng.below(40) as u32;
                setup.fullmoves = 1 + rng.below(80) as u32;
                setup.to_fen()
            });
            let moves = play(&mut pos, rng.below(120), &mut rng);
            Game { fen, moves }
        })
        .collect()
}

/// The moves as `h2e2 h9g7 ...`.
fn uci_moves(moves: &[Move]) -> String {
    moves.iter().map(|&m| iccs::write(m, Style::Uci)).collect::<Vec<_>>().join(" ")
}

/// A game as an ICCS PGN game.
fn pgn(game: &Game) -> String {
    let fen = game.fen.as_ref().map_or(String::new(), |f| format!("[FEN \"{f}\"]\n"));
    let moves: Vec<String> = game.moves.iter().map(|&m| iccs::write(m, Style::Iccs)).collect();
    format!("[Game \"Chinese Chess\"]\n{fen}[Format \"ICCS\"]\n\n{} *\n\n", moves.join(" "))
}

/// The start FEN and main-line moves of a record, as read.
fn start_and_moves(record: &Record) -> (Option<String>, Vec<Move>) {
    let moves = record
        .tree()
        .main_line()
        .map(|id| record.tree().node(id).mv.as_ref().unwrap().points().unwrap())
        .collect();
    (record.tag("FEN").map(str::to_string), moves)
}

fn read(text: &str) -> formats::Parsed {
    formats::read(text.as_bytes(), None).unwrap()
}

#[test]
fn convert_to_uci_reads_back_as_the_games_given() {
    let dir = scratch("lines-roundtrip");
    let games = games(300, 0x1234_5678);
    let path = dir.join("games.pgn");
    std::fs::write(&path, games.iter().map(pgn).collect::<String>()).unwrap();
    let out = qipu().args(["convert", "--to", "uci"]).arg(&path).assert().success().get_output().clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), games.len());
    for (line, game) in text.lines().zip(&games) {
        match &game.fen {
            None => assert!(line.starts_with("position startpos"), "{line}"),
            // The clocks are kept.
            Some(fen) => assert!(line.starts_with(&format!("position fen {fen}")), "{line}"),
        }
        assert_eq!(line.contains(" moves "), !game.moves.is_empty(), "{line}");
    }
    let parsed = read(&text);
    assert_eq!(parsed.format, Format::Uci);
    assert_eq!(parsed.records.len(), games.len());
    for (record, game) in parsed.records.iter().zip(&games) {
        assert_eq!(start_and_moves(record), (game.fen.clone(), game.moves.clone()));
        assert!(record.replayed().error.is_none());
    }
}

#[test]
fn every_dialect_of_uci_line_reads_the_same_game() {
    for game in games(60, 77) {
        let moves = uci_moves(&game.moves);
        let fen = game.fen.clone().unwrap_or_else(|| qipu::fen::START.to_string());
        let mut forms = vec![
            format!("position fen {fen} moves {moves}"),
            format!("fen {fen} moves {moves}"),
            format!("{fen} moves {moves}"),
            format!("  position   fen {fen}  moves  {moves}  \r"),
        ];
        if game.fen.is_none() {
            forms.push(format!("position startpos moves {moves}"));
            forms.push(format!("startpos moves {moves}"));
        }
        for form in &forms {
            let text = format!("{form}\n{form}\n");
            let parsed = read(&text);
            assert_eq!(parsed.format, Format::Uci, "{form}");
            assert_eq!(parsed.records.len(), 2);
            let (start, read_moves) = start_and_moves(&parsed.records[1]);
            assert_eq!(read_moves, game.moves, "{form}");
            assert_eq!(start, game.fen, "{form}");
        }
    }
    for line in ["startpos", "position startpos", "position startpos moves"] {
        let parsed = read(&format!("{line}\n"));
        assert_eq!((parsed.format, parsed.records.len()), (Format::Uci, 1), "{line}");
        assert_eq!(start_and_moves(&parsed.records[0]), (None, vec![]));
        assert!(parsed.records[0].unreadable().is_none());
    }
}

#[test]
fn epd_lines_written_by_the_writer_read_back() {
    let mut rng = Rng(99);
    let mut text = String::new();
    let mut expected = Vec::new();
    for g in 0..200 {
        let mut pos = Position::start();
        let plies = rng.below(60);
        play(&mut pos, plies, &mut rng);
        let mut line = String::new();
        push_position(&mut line, pos.board(), pos.turn());
        let id = format!("game \"{g}\" \\ 名{g}");
        let best = pos.legal_moves().iter().take(2).map(|&m| iccs::write(m, Style::Uci)).collect::<Vec<_>>();
        push_opcode(&mut line, "id", &[Operand::Text(&id)]);
        let bm: Vec<Operand<'_>> = best.iter().map(|m| Operand::Word(m)).collect();
        push_opcode(&mut line, "bm", &bm);
        push_opcode(&mut line, "c0", &[Operand::Text("a; b"), Operand::Word("x")]);
        push_opcode(&mut line, "hmvc", &[Operand::Number(g % 7)]);
        push_opcode(&mut line, "fmvn", &[Operand::Number(g / 2 + 1)]);
        text.push_str(&line);
        text.push('\n');
        let mut setup = pos.to_setup();
        setup.halfmoves = (g % 7) as u32;
        setup.fullmoves = (g / 2 + 1) as u32;
        let fen = setup.to_fen();
        let tags = vec![
            ("id".to_string(), id.clone()),
            ("bm".to_string(), best.join(" ")),
            ("c0".to_string(), "\"a; b\" x".to_string()),
            ("hmvc".to_string(), (g % 7).to_string()),
            ("fmvn".to_string(), (g / 2 + 1).to_string()),
        ];
        expected.push(((fen != qipu::fen::START).then_some(fen), tags));
    }
    let parsed = read(&text);
    assert_eq!((parsed.format, parsed.records.len()), (Format::Epd, expected.len()));
    for (record, (fen, tags)) in parsed.records.iter().zip(&expected) {
        assert_eq!(record.tag("FEN").map(str::to_string), *fen);
        let opcodes: Vec<_> = record.tags().iter().filter(|(k, _)| k != "FEN").cloned().collect();
        assert_eq!(&opcodes, tags);
        assert_eq!(record.tree().main_line().count(), 0);
        assert!(record.unreadable().is_none() && record.replayed().error.is_none());
    }
    // Full FENs, with and without opcodes, are EPD lines too.
    let full = format!("{}\n{} id \"x\";\n", qipu::fen::START, expected[5].0.clone().unwrap_or_default());
    let parsed = read(&full);
    assert_eq!((parsed.format, parsed.records.len()), (Format::Epd, 2));
}

/// Lines made wrong in each way, among good ones: each bad line is a game
/// with its error at its line and column, and every other line is read.
#[test]
fn wrong_lines_are_reported_with_line_and_column_and_the_others_read() {
    let games = games(40, 5);
    let mut lines: Vec<String> = games
        .iter()
        .map(|g| match &g.fen {
            None => format!("position startpos moves {}", uci_moves(&g.moves)),
            Some(fen) => format!("position fen {fen} moves {}", uci_moves(&g.moves)),
        })
        .collect();
    let good = games.iter().filter(|g| g.moves.len() >= 3).count();
    // line 41: a bad FEN; 42: an illegal move; 43: a truncated line; 44: garbage.
    lines.push("position fen 4k4/9/9/9/9/9/9/9/9/4K3 w - - 0 1 moves e0e1".into());
    lines.push("position startpos moves h2e2 h9g7 h2e3".into());
    lines.push("position startpos moves h2e2 h9g7 h0".into());
    lines.push("什么 garbage ]]".into());
    let dir = scratch("lines-mutated");
    let path = dir.join("mixed");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let out = qipu().args(["validate", "--format", "json"]).arg(&path).assert().code(1).get_output().clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let reports: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(reports.len(), 44);
    assert!(reports.iter().all(|r| r["format"] == "uci"));
    assert!(reports[..40].iter().all(|r| r["status"] == "valid"), "{stdout}");
    let place = |r: &serde_json::Value| {
        (r["status"].clone(), r["error"]["line"].clone(), r["error"]["column"].clone())
    };
    assert_eq!(place(&reports[40]), ("unreadable".into(), 41.into(), 14.into()));
    assert!(reports[40]["error"]["message"].as_str().unwrap().contains("FEN placement field"));
    assert_eq!(place(&reports[41]), ("illegal".into(), 42.into(), 35.into()));
    assert_eq!(place(&reports[42]), ("unreadable".into(), 43.into(), 35.into()));
    assert_eq!(place(&reports[43]), ("unreadable".into(), 44.into(), 1.into()));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("44 game(s): 40 valid, 1 illegal, 3 unreadable (1 input(s))"), "{stderr}");
    assert!(good > 20);
}

#[test]
fn validate_fen_and_convert_on_epd_and_uci_files_and_stdin() {
    let dir = scratch("lines-cli");
    let uci = "position startpos moves h2e2 h9g7\nfen 4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1 moves d0e0\n";
    let epd = "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - id \"ending\"; bm d0e0;\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n";
    // Told by content: no extension.
    std::fs::write(dir.join("a"), uci).unwrap();
    std::fs::write(dir.join("b"), epd).unwrap();
    let out = qipu()
        .args(["validate", "--format", "json"])
        .arg(dir.join("a"))
        .arg(dir.join("b"))
        .assert()
        .success();
    let out = out.get_output();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.matches("\"format\":\"uci\"").count(), 2, "{stdout}");
    assert_eq!(stdout.matches("\"format\":\"epd\"").count(), 2, "{stdout}");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("4 game(s): 4 valid, 0 illegal, 0 unreadable (2 input(s))")
    );

    let out = qipu()
        .args(["fen", "--notation", "uci", "-"])
        .write_stdin(uci)
        .assert()
        .success()
        .get_output()
        .clone();
    let trail = String::from_utf8(out.stdout).unwrap();
    assert!(trail.contains("-\t1\t1\th2e2\t"), "{trail}");
    assert!(trail.contains("-\t2\t1\td0e0\t4k4/9/9/9/9/9/9/9/4A4/4K4 b - - 1 1"), "{trail}");

    let out = qipu()
        .args(["convert", "--to", "pgn", "--notation", "iccs", "-"])
        .write_stdin(epd)
        .assert()
        .success();
    let pgn = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        pgn.contains(
            "[FEN \"4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1\"]\n[Format \"ICCS\"]\n[id \"ending\"]\n[bm \"d0e0\"]"
        ),
        "{pgn}"
    );

    let out =
        qipu().args(["convert", "--to", "uci"]).arg(dir.join("b")).assert().success().get_output().clone();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "position fen 4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1\nposition startpos\n"
    );
}

#[test]
fn convert_to_uci_names_the_games_it_cannot_write() {
    let text = "[Event \"a\"]\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n1. h2e2 h2e3 *\n";
    let out =
        qipu().args(["convert", "--to", "uci", "-"]).write_stdin(text).assert().code(1).get_output().clone();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "position startpos moves h2e2 h9g7\n");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("-: error: game 2: not written: the move h2e3 did not replay"), "{stderr}");
    assert!(
        stderr.contains("2 game(s): 1 valid, 1 illegal, 0 unreadable (1 input(s)); 1 written"),
        "{stderr}"
    );
}

/// A file over a megabyte is read a piece at a time, in chunks cut
/// anywhere, with the same games (and line numbers) as read whole.
#[test]
fn large_files_stream_with_the_same_games() {
    let games = games(400, 31);
    let mut text = String::new();
    for (k, g) in games.iter().enumerate() {
        match (&g.fen, k % 10) {
            (_, 7) => text.push_str("position startpos moves h2e2 x\n\n"),
            (None, _) => text.push_str(&format!("position startpos moves {}\n", uci_moves(&g.moves))),
            (Some(fen), _) => text.push_str(&format!("{fen} moves {}\n", uci_moves(&g.moves))),
        }
    }
    let whole = read(&text).records;
    for (head, piece) in [(4096, 1000), (1 << 14, 7), (100, 100_000)] {
        let split = split_sized(text.as_bytes(), None, head, piece).unwrap();
        let mut streamed = Vec::new();
        let how = read_split(split, &mut RecordBuilder::default(), |r| streamed.push(r)).unwrap();
        assert_eq!(how.format, Format::Uci);
        assert_eq!(streamed.len(), whole.len());
        for (a, b) in streamed.iter().zip(&whole) {
            assert_eq!(
                (a.at(), &a.unreadable(), start_and_moves(a)),
                (b.at(), &b.unreadable(), start_and_moves(b))
            );
        }
    }
    let big = text.repeat(1 + (2 << 20) / text.len());
    let dir = scratch("lines-big");
    std::fs::write(dir.join("big.txt"), &big).unwrap();
    let out = qipu().arg("validate").arg(dir.join("big.txt")).assert().code(1).get_output().clone();
    let n = big.lines().filter(|l| !l.is_empty()).count();
    let bad = big.lines().filter(|l| l.ends_with(" x")).count();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let summary = format!("{n} game(s): {} valid, 0 illegal, {bad} unreadable (1 input(s))\n", n - bad);
    assert!(stdout.ends_with(&summary), "{}", stdout.lines().last().unwrap_or_default());
    assert_eq!(stdout.lines().count(), bad + 1);
}

/// What makes a text EPD or UCI is strict: other texts keep their verdict.
#[test]
fn other_texts_are_not_taken_for_lines() {
    for text in [
        "1. h2e2 h9g7 2. h0g2 *\n",
        "1. 炮二平五 马８进７\n",
        "moves h2e2\n",
        "position of the pieces: see below\n1. h2e2 h9g7 *\n",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n1. 炮二平五 马８进７\n2. 马二进三 车９平８\n",
    ] {
        let format = formats::read(text.as_bytes(), None).map(|p| p.format).unwrap_or_else(|e| e.format);
        assert!(!matches!(format, Format::Epd | Format::Uci), "{text}: {format:?}");
    }
}

/// Lines mutated byte by byte (cut, a byte changed, a byte put in) never
/// make a reader panic; every line that is not blank is still one game, and
/// reading a piece at a time gives what reading whole gives.
#[test]
fn mutated_lines_read_as_one_game_each_whole_and_streamed() {
    let base = [
        "position startpos moves h2e2 h9g7 h0g2 i9h9",
        "position fen 4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1 moves d0e0",
        "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 2 9 moves e9e8",
        "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - id \"a \\\"b\\\" 名\"; bm d0e0 d0d1; hmvc 3;",
    ];
    let mut rng = Rng(2024);
    let (mut read_as_lines, mut compared) = (0, 0);
    for round in 0..600 {
        let mut lines: Vec<Vec<u8>> =
            (0..6).map(|k| base[(round + k * (round % 3)) % base.len()].as_bytes().to_vec()).collect();
        let victim = rng.below(lines.len());
        let line = &mut lines[victim];
        let at = rng.below(line.len());
        const BYTES: &[u8] = b" ;\"\\/9kK-mx\xe5";
        match rng.below(3) {
            0 => line.truncate(at),
            1 => line[at] = BYTES[rng.below(BYTES.len())],
            _ => line.insert(at, BYTES[rng.below(BYTES.len())]),
        }
        let bytes: Vec<u8> = lines.join(&b'\n');
        let Ok(whole) = formats::read(&bytes, None) else { continue };
        if !matches!(whole.format, Format::Epd | Format::Uci) {
            continue;
        }
        read_as_lines += 1;
        let games = bytes.split(|&b| b == b'\n').filter(|l| !l.trim_ascii().is_empty()).count();
        if std::str::from_utf8(&bytes).is_ok() {
            assert_eq!(whole.records.len(), games, "{}", String::from_utf8_lossy(&bytes));
        }
        let split = split_sized(&bytes[..], None, 64, 1 + rng.below(50)).unwrap();
        let mut streamed = Vec::new();
        if let Ok(how) = read_split(split, &mut RecordBuilder::default(), |r| streamed.push(r))
            && how.format == whole.format
            && std::str::from_utf8(&bytes).is_ok()
        {
            assert_eq!(streamed, whole.records, "{}", String::from_utf8_lossy(&bytes));
            compared += 1;
        }
    }
    assert!(read_as_lines > 500 && compared > 400, "{read_as_lines} {compared}");
}

/// A line longer than the longest read is an unreadable game of its own,
/// at its line, and the lines after it are read: memory stays bounded by
/// the longest line read.
#[test]
fn a_line_too_long_to_read_is_one_unreadable_game() {
    let good = "position startpos moves h2e2 h9g7\n";
    let long =
        format!("position startpos moves{}\n", " h2e2 e2h2".repeat(formats::stream::MAX_LINE / 10 + 1));
    let text = format!("{good}{good}{good}{long}{good}");
    let mut games = Vec::new();
    let how = formats::stream::read_stream_with(text.as_bytes(), None, &mut RecordBuilder::default(), |r| {
        games.push(r)
    })
    .unwrap();
    assert_eq!((how.format, games.len()), (Format::Uci, 5));
    let unreadable: Vec<_> =
        games.iter().map(|g| g.unreadable().map(|w| (w.at.line, w.message.clone()))).collect();
    assert_eq!(unreadable[3], Some((4, "line longer than 16 MB: not read".to_string())));
    assert!(unreadable.iter().enumerate().all(|(k, u)| (k == 3) == u.is_some()));
    assert_eq!(games[4].at().line, 5);
    assert_eq!(games[4].tree().main_line().count(), 2);
}

#[test]
fn a_game_a_file_format_cannot_hold_is_not_said_to_be_written() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_lines_xqf_not_written");
    let _ = std::fs::remove_dir_all(&dir);
    let text =
        "[Event \"a\"]\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n1. h2e2 zzzz *\n\n[Event \"c\"]\n1. h2e2 h2e3 *\n";
    let out = qipu()
        .args(["convert", "--to", "xqf", "-", "-o"])
        .arg(&dir)
        .write_stdin(text)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    // Game 2 (a move that is no move) cannot be stored: told once, as not
    // written; game 3 (an illegal move between points) is stored as read.
    let game = |n: &str| stderr.lines().filter(|l| l.contains(&format!("game {n}"))).collect::<Vec<_>>();
    assert_eq!(game("2").len(), 2, "{stderr}");
    assert!(game("2")[1].starts_with("-: error: game 2: not written: the move zzzz"), "{stderr}");
    assert!(!game("2")[0].contains("written"), "{stderr}");
    assert!(game("3")[0].ends_with("(written with the moves as stored)"), "{stderr}");
    assert!(
        stderr.contains("3 game(s): 1 valid, 2 illegal, 0 unreadable (1 input(s)); 2 written"),
        "{stderr}"
    );
}

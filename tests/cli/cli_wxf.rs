//! WXF game files as PlayOK and XieXie write them: read as a format of
//! their own (every ply, the tags, the result), replayed, and through
//! `qipu validate` and `qipu convert --to pgn` end to end.
//!
//! The games are made for these tests: the PlayOK one was played out by
//! qipu's rules engine (every move legal, Black mates with the last one)
//! and laid out as PlayOK lays out its exports.

use crate::common::{self, qipu};

use crate::common::scratch;
use qipu::formats::{self, detect::Format, encoding::Encoding};
use qipu::record::replay::{Termination, replay};
use qipu::record::{GameResult, Record};

/// A PlayOK export: 54 plies, the last six on the line of `}END`, Black
/// mates.
const PLAYOK: &str = "FORMAT  WXF
RED     jugador rojo ; 1200 ;;
BLACK   jugador negro ; 1240 ;;
RESULT  0-1
DATE    2020-02-02 02:02:02
EVENT   PlayOK Game ; 10m+0s
START{
 1. C2.5 h8+7   2. H2+3 r9.8   3. R1.2 h2+3
 4. P7+1 p7+1   5. H8+7 c8+4   6. C8+4 c8.5
 7. H3+5 r8+9   8. H5+3 e7+5   9. H3-5 r8.7
10. H5+6 h3-5  11. H7+5 r7-3  12. H5-7 r7.9
13. P9+1 h7+8  14. C8.5 r9.7  15. A6+5 p1+1
16. C++2 a4+5  17. A5+4 p1+1  18. H7-5 p9+1
19. R9+1 c2+7  20. E7+9 h8+9  21. C5+2 c2-7
22. R9.7 h9+8  23. H6+4 h8-6  24. K5.6 c2-1
25. C5-2 r7.4  26. C5.6 r4+1  27. R7.6 r4+1 }END
";

/// A XieXie position: tabs after the keys, an empty `GAME`, players without
/// names, Black to move, an empty block.
const XIEXIE_POSITION: &str = "FORMAT  \tWXF\nGAME    \nRED     \t;;;\nBLACK   \t;;;\nDATE    \t2021-03-04\nFEN  \t\trheakae1r/9/1c4hc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1H2/9/RHEAKAE1R b\n\nSTART{\n}END\n";

/// The same position with moves, Black's in upper case as XieXie writes
/// them.
const XIEXIE_MOVES: &str = "FORMAT  \tWXF\nGAME    \nRED     \t;;;\nBLACK   \t;;;\nFEN  \t\trheakae1r/9/1c4hc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1H2/9/RHEAKAE1R b\n\nSTART{\n 1. ... R9.8   2. R1.2 H2+3\n}END\n";

fn read(bytes: &[u8]) -> formats::Parsed {
    formats::read(bytes, None).expect("a WXF file reads")
}

fn tags(record: &Record) -> Vec<(&str, &str)> {
    record.tags().iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

#[test]
fn a_playok_file_reads_every_ply_the_tags_and_the_result() {
    let parsed = read(PLAYOK.as_bytes());
    assert_eq!(parsed.format, Format::Wxf);
    assert_eq!(parsed.records.len(), 1);
    let game = &parsed.records[0];
    assert_eq!(
        tags(game),
        [
            ("Format", "WXF"),
            ("Red", "jugador rojo"),
            ("RedElo", "1200"),
            ("Black", "jugador negro"),
            ("BlackElo", "1240"),
            ("Result", "0-1"),
            ("Date", "2020-02-02 02:02:02"),
            ("Event", "PlayOK Game"),
            ("TimeControl", "10m+0s"),
        ]
    );
    assert_eq!(game.tree().main_line().count(), 54);
    let on_the_end_line = game
        .tree()
        .main_line()
        .filter(|&id| game.tree().node(id).mv.as_ref().is_some_and(|m| m.at.line == 16))
        .count();
    assert_eq!(on_the_end_line, 6, "the plies on the line of }}END");
    let last = game.tree().main_line().last().unwrap();
    let at = game.tree().node(last).mv.as_ref().unwrap().at;
    assert_eq!((at.line, at.column), (16, 40));
    assert_eq!(game.result(), Some(GameResult::BlackWins));
    assert!(game.warnings().is_empty(), "{:?}", game.warnings());
    assert!(game.tree().node(game.tree().root()).comment().is_none(), "the header is tags, not a comment");

    let replayed = replay(game);
    assert!(replayed.is_valid(), "{:?}", replayed.error);
    assert_eq!(replayed.moves.len(), 54);
    assert_eq!(replayed.termination, Some(Termination::Checkmate));
    assert_eq!(replayed.result_conflict, None);
}

#[test]
fn a_xiexie_position_without_moves_is_a_valid_record() {
    let parsed = read(XIEXIE_POSITION.as_bytes());
    assert_eq!(parsed.format, Format::Wxf);
    let game = &parsed.records[0];
    assert_eq!(game.fen(), Some("rheakae1r/9/1c4hc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1H2/9/RHEAKAE1R b"));
    assert_eq!(tags(game), [("Format", "WXF"), ("Date", "2021-03-04"), ("FEN", game.fen().unwrap())]);
    assert!(game.tree().is_empty());
    assert!(game.unreadable().is_none() && game.warnings().is_empty());
    let replayed = replay(game);
    assert!(replayed.is_valid(), "{:?}", replayed.error);
    assert_eq!(replayed.resolution.setup.as_ref().unwrap().turn, qipu::Color::Black);
    assert_eq!(replayed.moves.len(), 0);
}

#[test]
fn moves_from_a_fen_with_black_to_move_in_upper_case() {
    let game = &read(XIEXIE_MOVES.as_bytes()).records[0];
    let replayed = replay(game);
    assert!(replayed.is_valid(), "{:?}", replayed.error);
    let iccs: Vec<String> = replayed.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(iccs, ["i9h9", "i0h0", "b9c7"]);
}

#[test]
fn several_games_crlf_and_gbk() {
    let chinese = PLAYOK
        .replace("jugador rojo", "许银川")
        .replace("jugador negro", "吕钦")
        .replace("PlayOK Game", "全国象棋个人赛");
    let text = format!("{chinese}\n{XIEXIE_POSITION}{XIEXIE_MOVES}").replace('\n', "\r\n");
    let (gbk, _, _) = encoding_rs::GBK.encode(&text);
    let parsed = read(&gbk);
    assert_eq!((parsed.format, parsed.encoding), (Format::Wxf, Some(Encoding::Gb18030)));
    let games = &parsed.records;
    assert_eq!(games.len(), 3);
    assert_eq!((games[0].tag("Red"), games[0].tag("Black")), (Some("许银川"), Some("吕钦")));
    assert_eq!(games[0].tag("Event"), Some("全国象棋个人赛"));
    assert_eq!(games[0].tree().main_line().count(), 54);
    assert_eq!(replay(&games[0]).termination, Some(Termination::Checkmate));
    assert!(games[1].tree().is_empty());
    assert_eq!(games[1].at().line, 18, "the second game starts at its FORMAT line");
    assert_eq!(games[2].tree().main_line().count(), 3);
    assert!(games.iter().all(|g| g.warnings().is_empty() && replay(g).is_valid()));
}

#[test]
fn validate_reports_wxf_games_and_accounts_for_a_damaged_one() {
    let dir = scratch("wxf-validate");
    let path = dir.join("playok.txt");
    std::fs::write(&path, PLAYOK).unwrap();
    let out = qipu().arg("validate").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "1 game(s): 1 valid, 0 illegal, 0 unreadable (1 input(s))\n"
    );

    let out = qipu().args(["validate", "--format", "json"]).arg(&path).output().unwrap();
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["status"], "valid");
    assert_eq!(line["format"], "wxf");
    assert_eq!(line["plies"], 54);
    assert_eq!(line["result"], "0-1");
    assert_eq!(line["termination"], "checkmate");

    // A game this reader cannot read is told with its place; the others are still read.
    let damaged = dir.join("three.wxf");
    let setup = "FORMAT  WXF\nSETUP{ Ke0 ke9 }\nSTART{\n}END\n";
    std::fs::write(&damaged, format!("{XIEXIE_POSITION}{setup}{XIEXIE_MOVES}")).unwrap();
    let out = qipu().arg("validate").arg(&damaged).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let expected = format!(
        "{}:11:1: error: game 2: unreadable: a SETUP{{ }} position: not read (qipu reads the position from a FEN line)\n\
         3 game(s): 2 valid, 0 illegal, 1 unreadable (1 input(s))\n",
        damaged.display()
    );
    assert_eq!(text, expected);
}

#[test]
fn convert_writes_the_tags_and_every_move_as_pgn() {
    let dir = scratch("wxf-convert");
    let path = dir.join("playok.wxf");
    std::fs::write(&path, PLAYOK).unwrap();
    let out = qipu().args(["convert", "--to", "pgn", "--notation", "wxf"]).arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pgn = String::from_utf8(out.stdout).unwrap();
    for tag in [
        "[Event \"PlayOK Game\"]",
        "[Date \"2020-02-02 02:02:02\"]",
        "[Red \"jugador rojo\"]",
        "[Black \"jugador negro\"]",
        "[Result \"0-1\"]",
        "[RedElo \"1200\"]",
        "[BlackElo \"1240\"]",
        "[TimeControl \"10m+0s\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} in\n{pgn}");
    }
    let words = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("1. C2.5 H8+7 2. H2+3 R9.8"), "{pgn}");
    assert!(words.ends_with("27. R7.6 R4+1 0-1"), "{pgn}");
    let again = qipu::formats::pgn::read(&pgn);
    assert_eq!(again.len(), 1);
    let replayed = replay(&again[0]);
    assert_eq!(replayed.moves, replay(&read(PLAYOK.as_bytes()).records[0]).moves);
    assert_eq!(replayed.termination, Some(Termination::Checkmate));
}

#[test]
fn mangled_wxf_files_are_read_or_reported() {
    const PIECES: &[&str] = &[
        "START{",
        "}END",
        "}",
        "{",
        "FORMAT  WXF\n",
        "RED ",
        ";",
        ";;",
        "FEN ",
        " b",
        "SETUP{",
        "\n",
        "\r\n",
        " ",
        "1.",
        "...",
        "c2.5",
        "H++7",
        "1-0",
        "*",
        "中",
        "\u{FEFF}",
        "\t",
    ];
    let mut rng = common::Rng(0x5eed_0000_0000_0a0f);
    let seed: Vec<char> = format!("{PLAYOK}{XIEXIE_POSITION}{XIEXIE_MOVES}").chars().collect();
    let mut records = 0;
    // QIPU_ROBUST_ITERS raises the count for a longer hunt by hand.
    let iterations = std::env::var("QIPU_ROBUST_ITERS").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000);
    for _ in 0..iterations {
        let mut text = seed.clone();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(text.len() + 1);
            if rng.below(3) == 0 && at < text.len() {
                text.remove(at);
            } else {
                let piece = PIECES[rng.below(PIECES.len())];
                for (k, c) in piece.chars().enumerate() {
                    text.insert(at + k, c);
                }
            }
        }
        let text: String = text.into_iter().collect();
        let Ok(parsed) = formats::read(text.as_bytes(), None) else { continue };
        for record in &parsed.records {
            let written = qipu::formats::pgn::write(record, qipu::notation::Notation::Wxf);
            assert!(!qipu::formats::pgn::read(&written).is_empty(), "{written}");
            records += 1;
        }
    }
    assert!(records > 2_000, "{records}");
}

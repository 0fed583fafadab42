//! QQ象棋 `.che`, 中游 `.ccm` and 联众 `.chn` files: the generated fixtures
//! (`fixtures/online/`, checked by ElephantEye's converters when
//! `scripts/gen-old-formats.py` wrote them) read to the games they were
//! written from, `validate` accounts for them, a conversion to PGN and
//! back keeps the games, damaged files are unreadable with a byte offset
//! (never a panic), and the detectors claim no other file.

use crate::common::{self, qipu};

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use qipu::formats::{self, UnreadableReason, detect::Format};
use qipu::record::replay::replay;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/online")
}

/// The games the fixtures were written from: `gameN.*` holds line N.
fn games() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(fixtures().join("games.uci")).unwrap();
    text.lines()
        .map(|l| l.strip_prefix("position startpos moves ").unwrap().split(' ').map(String::from).collect())
        .collect()
}

/// The fixtures of a format, in game order.
fn files(ext: &str) -> Vec<(PathBuf, Vec<u8>)> {
    (1..=games().len())
        .map(|k| {
            let path = fixtures().join(format!("game{k}.{ext}"));
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect()
}

const FORMATS: [(&str, Format); 3] = [("che", Format::Che), ("ccm", Format::Ccm), ("chn", Format::Chn)];

#[test]
fn every_fixture_reads_to_the_game_it_was_written_from() {
    let games = games();
    assert_eq!(games.len(), 4);
    for (ext, format) in FORMATS {
        for ((path, bytes), game) in files(ext).iter().zip(&games) {
            let parsed = formats::read(bytes, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(parsed.format, format, "{}", path.display());
            let [record] = &parsed.records[..] else { panic!("{}: one game", path.display()) };
            assert_eq!(record.tag("FEN"), None, "{}: the standard start", path.display());
            assert!(record.warnings().is_empty(), "{}: {:?}", path.display(), record.warnings());
            let replayed = replay(record);
            assert!(replayed.is_valid(), "{}: {:?}", path.display(), replayed.error);
            let moves: Vec<String> = replayed.moves.iter().map(|m| m.to_string()).collect();
            assert_eq!(&moves, game, "{}", path.display());
        }
    }
}

#[test]
fn validate_accounts_for_every_fixture() {
    let mut cmd = qipu();
    cmd.args(["validate", "--format", "json"]);
    for (ext, _) in FORMATS {
        cmd.args(files(ext).into_iter().map(|(p, _)| p));
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 12);
    for (k, line) in lines.iter().enumerate() {
        let format = FORMATS[k / 4].0;
        assert!(line.contains(&format!("\"format\":\"{format}\"")), "{line}");
        assert!(line.contains("\"status\":\"valid\""), "{line}");
        let plies = games()[k % 4].len();
        assert!(line.contains(&format!("\"plies\":{plies},")), "{line}");
    }
    let summary = String::from_utf8(out.stderr).unwrap();
    assert!(summary.contains("12 game(s): 12 valid, 0 illegal, 0 unreadable (12 input(s))"), "{summary}");
}

#[test]
fn converted_to_pgn_and_read_back_the_games_are_kept() {
    let dir = common::scratch("online-convert");
    let pgn = dir.join("all.pgn");
    let mut cmd = qipu();
    cmd.args(["convert", "--to", "pgn", "-o"]).arg(&pgn);
    for (ext, _) in FORMATS {
        cmd.args(files(ext).into_iter().map(|(p, _)| p));
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let parsed = formats::read(&std::fs::read(&pgn).unwrap(), None).unwrap();
    assert_eq!(parsed.records.len(), 12);
    let games = games();
    for (k, record) in parsed.records.iter().enumerate() {
        let moves: Vec<String> = replay(record).moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, games[k % 4], "game {k} of the PGN");
    }
    // And the PGN, back to UCI lines, is the list the fixtures came from.
    let out = qipu().args(["convert", "--to", "uci"]).arg(&pgn).output().unwrap();
    let uci = String::from_utf8(out.stdout).unwrap();
    let expected = std::fs::read_to_string(fixtures().join("games.uci")).unwrap();
    assert_eq!(uci, expected.repeat(3));
}

#[test]
fn a_damaged_file_is_unreadable_with_its_byte_offset() {
    let dir = common::scratch("online-damaged");
    let (_, che) = &files("che")[0];
    let (_, ccm) = &files("ccm")[0];
    let (_, chn) = &files("chn")[0];
    let cases: [(&str, Vec<u8>, &str); 3] = [
        ("cut.che", che[..che.len() - 4].to_vec(), "moves declared, so 652 numbers, but the file holds 651"),
        (
            "cut.ccm",
            ccm[..ccm.len() - 2].to_vec(),
            "a move record of 5 bytes at the end of the file: a record has 7",
        ),
        (
            "cut.chn",
            chn[..chn.len() - 30].to_vec(),
            "a move record of 2 bytes at the end of the file: a record has 32",
        ),
    ];
    for (name, bytes, reason) in cases {
        let path = dir.join(name);
        std::fs::write(&path, &bytes).unwrap();
        let out = qipu().arg("validate").arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let report = String::from_utf8(out.stdout).unwrap();
        assert!(report.contains(": error: unreadable: byte "), "{report}");
        assert!(report.contains(reason), "{report}");
    }
    // A square off the board names the byte that holds it.
    let mut off = ccm.clone();
    off[7 * 5 + 4] = 12;
    let e = formats::read(&off, None).unwrap_err();
    let UnreadableReason::Online(e) = &e.reason else { panic!("{e}") };
    assert_eq!((e.offset, e.to_string().as_str()), (39, "byte 39: column 12 is off the board (0 to 8)"));
}

#[test]
fn the_detectors_claim_no_other_file() {
    // Every other fixture, and records qipu writes, keep their formats.
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn");
    let head = &std::fs::read(&pgn).unwrap()[..4096];
    assert_eq!(formats::detect::detect(head), Format::Pgn);
    let uci = std::fs::read(fixtures().join("games.uci")).unwrap();
    assert_eq!(formats::read(&uci, None).unwrap().format, Format::Uci);
    // Text of numbers that is no .che file: a count of moves of 0, a
    // square off the board, a word among the numbers, and a table of
    // numbers that starts like a move but holds more numbers than its
    // count calls for.
    for text in [
        "1 0 ",
        "1 1 0 32 1 2 7 2 9 0 1 0 ",
        "1 2 3 4 5 6 7 8 9 10 11 12",
        "1. 2 26 32 1 2 7 2 4 0 1 0",
        "0 1 0 0 0 1 2 3 4 5 6 7\n8 9 10 11 12 13 14 15\n",
    ] {
        assert_ne!(formats::detect::detect(text.as_bytes()), Format::Che, "{text}");
    }
    // Binary data: zeros, bytes counting up, a .ccm without its first byte.
    let counting: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    let (_, ccm) = &files("ccm")[0];
    for bytes in [vec![0u8; 4096], vec![1u8; 4096], counting, ccm[1..].to_vec()] {
        assert_eq!(formats::detect::detect(&bytes), Format::Binary, "{:?}", &bytes[..8]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any cut, changed byte or byte dropped of a fixture reads or is
    /// refused with a reason; it never panics, never makes more than one
    /// game, and an error's offset is within the file.
    #[test]
    fn damaged_fixtures_never_panic(
        which in 0usize..12,
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        change in 0usize..3,
    ) {
        let (_, bytes) = &files(FORMATS[which / 4].0)[which % 4];
        let mut damaged = bytes.clone();
        let i = at.index(damaged.len());
        match change {
            0 => damaged.truncate(i),
            1 => damaged[i] = byte,
            _ => { damaged.remove(i); }
        }
        match formats::read(&damaged, None) {
            Ok(parsed) => {
                prop_assert!(parsed.records.len() <= 1);
                for r in &parsed.records {
                    let _ = replay(r);
                }
            }
            Err(e) => {
                if let UnreadableReason::Online(e) = &e.reason {
                    prop_assert!(e.offset <= damaged.len(), "{}", e);
                }
            }
        }
    }
}

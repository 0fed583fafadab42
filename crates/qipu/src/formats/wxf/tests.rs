//! Tests of the WXF reader.

use super::{is_wxf, read, read_with};
use crate::formats::told::{Recorder, Told, rebuild};
use crate::notation::Notation;
use crate::record::{GameResult, MoveText, Record, Span};

fn moves(r: &Record) -> Vec<String> {
    r.tree()
        .main_line()
        .map(|id| match &r.tree().node(id).mv.as_ref().map(|m| &m.text) {
            Some(MoveText::Text(t)) => t.to_string(),
            other => format!("{other:?}"),
        })
        .collect()
}

fn spans(r: &Record) -> Vec<(u32, u32)> {
    r.tree()
        .main_line()
        .filter_map(|id| r.tree().node(id).mv.as_ref())
        .map(|m| (m.at.line, m.at.column))
        .collect()
}

#[test]
fn playok_header_and_moves() {
    let text = "FORMAT  WXF\nRED     jugador rojo ; 1200 ;;\nBLACK   jugador negro ; 1240 ;;\nRESULT  0-1\nDATE    2020-02-02 02:02:02\nEVENT   PlayOK Game ; 10m+0s\nSTART{\n 1. C2.5 h8+7   2. H2+3 r9.8\n 3. R1.2 h2+3 }END\n";
    let games = read(text);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    let tags: Vec<(&str, &str)> = g.tags().iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        tags,
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
    assert_eq!(moves(g), ["C2.5", "h8+7", "H2+3", "r9.8", "R1.2", "h2+3"]);
    assert_eq!(spans(g)[..2], [(8, 5), (8, 10)]);
    assert_eq!(spans(g)[4..], [(9, 5), (9, 10)]);
    assert_eq!(g.result(), Some(GameResult::BlackWins));
    assert_eq!(g.at(), Span { line: 1, column: 1 });
    assert!(g.warnings().is_empty(), "{:?}", g.warnings());
    assert!(g.tree().node(g.tree().root()).comment().is_none());
}

#[test]
fn xiexie_position_without_moves() {
    let text = "FORMAT  \tWXF\nGAME    \nRED     \t;;;\nBLACK   \t;;;\nDATE    \t2021-03-04\nFEN  \t\t3akae2/9/4e4/p3p3p/9/2P6/P3P3P/4E4/4A4/2EAK4 b\n\nSTART{\n}END\n";
    assert!(is_wxf(text));
    let games = read(text);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.tag("FEN"), Some("3akae2/9/4e4/p3p3p/9/2P6/P3P3P/4E4/4A4/2EAK4 b"));
    assert_eq!(g.tag("Date"), Some("2021-03-04"));
    assert_eq!((g.tag("Game"), g.tag("Red"), g.tag("RedElo")), (None, None, None));
    assert!(g.tree().is_empty());
    assert!(g.warnings().is_empty() && g.unreadable().is_none());
}

#[test]
fn several_games_crlf_and_joined_end() {
    let text = "FORMAT WXF\r\nRED a\r\nSTART{\r\n1. C2.5 h8+7\r\n2. H2+3 r9.8}END\r\n\r\nFORMAT WXF\r\nRED b\r\nRESULT 1-0\r\nSTART{ 1. P7+1 1-0 }END\r\nFORMAT WXF\r\nRED c\r\n";
    let games = read(text);
    assert_eq!(games.len(), 3);
    assert_eq!(moves(&games[0]), ["C2.5", "h8+7", "H2+3", "r9.8"]);
    assert_eq!(spans(&games[0])[3], (5, 9));
    assert_eq!(games[1].tag("Red"), Some("b"));
    assert_eq!(games[1].at().line, 7);
    assert_eq!(moves(&games[1]), ["P7+1"]);
    assert_eq!(spans(&games[1]), [(10, 11)]);
    assert_eq!(games[1].written_result(), Some(GameResult::RedWins));
    assert!(games[1].warnings().is_empty(), "{:?}", games[1].warnings());
    assert_eq!(games[2].tag("Red"), Some("c"));
    assert!(games[2].tree().is_empty());
}

#[test]
fn numbers_placeholders_and_remarks() {
    let text = "FORMAT WXF\nSTART{\n1... h8+7 2. C2.5!? ... 3.H2+3 *\n}END\n";
    let g = &read(text)[0];
    assert_eq!(moves(g), ["h8+7", "C2.5", "H2+3"]);
    assert_eq!(spans(g)[2], (3, 27));
    let second = g.tree().main_line().nth(1).unwrap();
    assert_eq!(g.tree().node(second).nags(), [5]);
    assert_eq!(g.written_result(), Some(GameResult::Unknown));
}

#[test]
fn a_block_left_open_and_text_after_the_end() {
    let text = "FORMAT WXF\nSTART{\n1. C2.5 h8+7\nFORMAT WXF\nSTART{ 1. H2+3 }END trailing\nfooter\n";
    let games = read(text);
    assert_eq!(games.len(), 2);
    assert_eq!(moves(&games[0]), ["C2.5", "h8+7"]);
    assert!(games[0].warnings()[0].message.contains("not closed"), "{:?}", games[0].warnings());
    assert_eq!(games[0].warnings()[0].at, Span { line: 2, column: 1 });
    assert_eq!(games[1].warnings().len(), 1, "told once: {:?}", games[1].warnings());
    assert_eq!(games[1].warnings()[0].at, Span { line: 5, column: 21 });
    let open = read("FORMAT WXF\nSTART{ 1. C2.5\n");
    assert_eq!(moves(&open[0]), ["C2.5"]);
    assert!(open[0].warnings()[0].message.contains("end of the text"));
}

#[test]
fn results_in_the_block_and_on_the_result_line() {
    let g = &read("FORMAT WXF\nRESULT 1-0\nSTART{ 1. C2.5 0-1 }END\n")[0];
    assert_eq!(g.result(), Some(GameResult::BlackWins));
    assert!(g.warnings()[0].message.contains("contradicts RESULT 1-0"), "{:?}", g.warnings());
    let g = &read("FORMAT WXF\nRESULT red wins\nSTART{ }END\n")[0];
    assert_eq!(g.tag("Result"), Some("red wins"));
    assert_eq!(g.result(), None);
    assert_eq!(g.warnings().len(), 1);
}

#[test]
fn other_keys_and_lines_of_the_header() {
    let text = "FORMAT WXF\nTITLE 对局\nRED_TEAM 北京\nROUND 3\n象棋 note\nSTART{ }END\n";
    let g = &read(text)[0];
    assert_eq!(g.tag("Title"), Some("对局"));
    assert_eq!(g.tag("RedTeam"), Some("北京"));
    assert_eq!(g.tag("Round"), Some("3"));
    assert_eq!(g.tree().node(g.tree().root()).comment(), Some("象棋 note"));
}

#[test]
fn a_repeated_key_or_a_second_block_is_the_next_game() {
    let games = read("FORMAT WXF\nRED a\nRED b\nSTART{ 1. C2.5 }END\nSTART{ 1. H2+3 }END\n");
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].tag("Red"), Some("a"));
    assert!(games[0].tree().is_empty());
    assert_eq!(moves(&games[1]), ["C2.5"]);
    assert_eq!(moves(&games[2]), ["H2+3"]);
    assert_eq!(games[2].at().line, 5);
}

#[test]
fn a_setup_block_is_unreadable_with_its_place() {
    let games = read("FORMAT WXF\nSETUP{ Ke0 ke9\nRa0 }\nSTART{ }END\nFORMAT WXF\nSTART{ 1. C2.5 }END\n");
    assert_eq!(games.len(), 2);
    let why = games[0].unreadable().expect("unreadable");
    assert_eq!(why.at, Span { line: 2, column: 1 });
    assert!(games[1].unreadable().is_none());
}

#[test]
fn detection() {
    assert!(is_wxf("\n  format\twxf\nRED x\n"));
    assert!(is_wxf("FORMAT AXF, K(K) R(C)\n"));
    assert!(is_wxf("\u{feff}RED x\nBLACK y\n\nSTART{\n}END"));
    assert!(!is_wxf("START{\n}END"), "a block alone");
    assert!(!is_wxf("[Event \"x\"]\nFORMAT WXF\n"));
    assert!(!is_wxf("1. C2.5 h8+7\nSTART{"));
    assert!(!is_wxf("RED x\nBLACK y\n1. C2.5\nSTART{"));
    assert!(!is_wxf("Format: WXF\n"));
    assert!(!is_wxf("FORMAT PGN\nRED x\n"));
    assert!(!is_wxf("吉林洪智  红先和  上海林宏敏\n"));
    assert!(!is_wxf(""));
}

#[test]
fn broken_text_never_panics() {
    for text in [
        "START{",
        "FORMAT WXF\nSTART{}",
        "FORMAT WXF\nSTART{ }E",
        "FORMAT WXF\nSTART {}END}",
        "FORMAT\n}\n",
        "中{}END",
        "FORMAT WXF\nSTART{ 中}END 中",
    ] {
        let _ = read(text);
        let _ = is_wxf(text);
    }
    assert!(read("").is_empty());
}

/// Texts of every part the reader knows: several games, header notes,
/// remark marks, a repeated key, a second block, a block left open, a
/// `SETUP{` block, results in and out of the block, text after `}END`.
const TRICKY: [&str; 6] = [
    "FORMAT WXF\nRED a ; 1200 ;; x\n说明一\n说明 二\nEVENT e ; 5m+0s\nSTART{\n 1. C2.5! h8+7?\n 2. H2+3 1-0 }END trailing\nmore text\nRED b\nRESULT 0-1\nSTART{ 1. C8.5 }END\n",
    "FORMAT WXF\nRED a\nRED b\nSTART{ 1. C2.5 }END\nSTART{ 1. H2+3 }END\nSTART{\n",
    "FORMAT WXF\nSETUP{ Ke0 ke9\nRa0 }\nSTART{ }END\nFORMAT WXF\nSTART{ 1. C2.5\nFORMAT WXF\nRESULT 1-0\nSTART{ 1. C2.5 0-1 }END\n",
    "FORMAT WXF\nRESULT red wins\nTITLE 对局\nRED_TEAM 北京\n象棋 note\nSTART{ 1... h8+7 2. C2.5!? ... 3.H2+3 * }END\n",
    "FORMAT WXF\nSETUP{ a } SETUP{ b\nSTART{ 1. C2.5 }END\nRED x\n",
    "\u{feff}RED x\nBLACK y\n\nSTART{\n 1. C2.5 h8+7\n",
];

/// Every game's events, built by `RecordBuilder`.
fn rebuilt(text: &str, visitor: &mut Recorder) -> Vec<Record> {
    read_with(text, visitor).iter().map(|told| rebuild(told)).collect()
}

#[test]
fn the_events_told_build_the_records_read() {
    for text in TRICKY {
        let games = read(text);
        assert!(!games.is_empty(), "{text:?}");
        assert_eq!(rebuilt(text, &mut Recorder::default()), games, "{text:?}");
        // Skipping variations changes nothing: WXF has none.
        let mut skipping = Recorder::skipping();
        assert_eq!(rebuilt(text, &mut skipping), games, "{text:?}");
    }
    // What they read, as the reader of records read them.
    let games = read(TRICKY[0]);
    assert_eq!(games.len(), 2);
    let tags: Vec<(&str, &str)> = games[0].tags().iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        tags,
        [
            ("Format", "WXF"),
            ("Red", "a"),
            ("RedElo", "1200"),
            ("RedInfo", "x"),
            ("Event", "e"),
            ("TimeControl", "5m+0s"),
        ]
    );
    assert_eq!(games[0].tree().node(games[0].tree().root()).comment(), Some("说明一\n说明 二"));
    let first = games[0].tree().main_line().next().unwrap();
    assert_eq!(games[0].tree().node(first).nags(), [1]);
    assert_eq!(games[0].written_result(), Some(GameResult::RedWins));
    let warnings: Vec<(Span, &str)> =
        games[0].warnings().iter().map(|w| (w.at, w.message.as_str())).collect();
    assert_eq!(warnings, [(Span { line: 8, column: 19 }, "text after }END: not read")]);
    assert_eq!((games[1].at(), games[1].tag("Red")), (Span { line: 10, column: 1 }, Some("b")));
    let games = read(TRICKY[2]);
    assert_eq!(games.len(), 3);
    assert!(games[0].unreadable().is_some());
    assert!(games[1].warnings()[0].message.contains("up to the next FORMAT line"));
    assert!(games[2].warnings()[0].message.contains("contradicts RESULT 1-0"));
}

#[test]
fn a_visitor_that_stops_is_told_the_rest_of_the_game() {
    let text = TRICKY[0];
    let whole = read(text);
    let mut stopping = Recorder::stopping_at(1);
    let told = read_with(text, &mut stopping);
    assert_eq!(told.len(), 2);
    for (told, whole) in told.iter().zip(&whole) {
        assert_eq!(told.iter().filter(|e| matches!(e, Told::Move(_))).count(), 1);
        let stopped = rebuild(told);
        assert_eq!(stopped.tags(), whole.tags());
        assert_eq!(stopped.warnings(), whole.warnings());
        assert_eq!(stopped.written_result(), whole.written_result());
        assert_eq!(stopped.tree().main_line().count(), 1);
    }
}

/// A random legal game of up to `plies` plies from the start, its moves
/// chosen by `next`.
fn random_game(plies: u64, next: &mut impl FnMut() -> u64) -> Vec<crate::Move> {
    let mut pos = crate::Position::start();
    let mut played = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[(next() % moves.len() as u64) as usize];
        played.push(m);
        pos.play_unchecked(m);
    }
    played
}

/// `moves` in WXF, three moves a line, numbered, as PlayOK writes them.
fn wxf_block(moves: &[crate::Move]) -> String {
    let mut pos = crate::Position::start();
    let mut block = String::from("START{\n");
    for (k, &m) in moves.iter().enumerate() {
        if k % 2 == 0 {
            block.push_str(&format!("{:>3}. ", k / 2 + 1));
        }
        block.push_str(&Notation::Wxf.write(&pos, m).unwrap());
        block.push_str(if k % 6 == 5 { "\n" } else { " " });
        pos.play_unchecked(m);
    }
    block.push_str("}END\n");
    block
}

#[test]
fn random_legal_games_written_as_wxf_read_back() {
    let mut state = 36u64;
    let mut next = || {
        let (s, out) = crate::rules::zobrist::splitmix64(state);
        state = s;
        out
    };
    let mut text = String::new();
    let mut games = Vec::new();
    for i in 0..60 {
        let played = random_game(next() % 120, &mut next);
        text.push_str(&format!("FORMAT  WXF\nRED     r{i} ; {} ;;\nBLACK   b{i}\n", 1000 + i));
        if next() % 3 == 0 {
            text.push_str("a note of the header\n");
        }
        text.push_str(&wxf_block(&played));
        games.push(played);
    }
    let read = read(&text);
    assert_eq!(read.len(), games.len());
    for (k, (record, played)) in read.iter().zip(&games).enumerate() {
        assert_eq!(record.tag("Red"), Some(format!("r{k}").as_str()));
        let replayed = record.replayed();
        assert!(replayed.is_valid(), "game {k}: {:?}", replayed.error);
        assert_eq!(&replayed.moves, played, "game {k}");
        assert!(record.warnings().is_empty(), "game {k}: {:?}", record.warnings());
    }
    assert_eq!(rebuilt(&text, &mut Recorder::default()), read);
}

#[test]
fn glyphs_around_move_numbers_and_moves() {
    let text =
        "FORMAT\tWXF\nSTART{\n  1. C2.5 h8+7!!2. H2+3 !?h2+3\n!!3.R1.2 r1.2  4.?! R2+6 ！？ 5. c8.9?? }END\n";
    let g = &read(text)[0];
    assert_eq!(moves(g), ["C2.5", "h8+7", "H2+3", "h2+3", "R1.2", "r1.2", "R2+6", "c8.9"]);
    let nags: Vec<&[u8]> = g.tree().main_line().map(|id| g.tree().node(id).nags()).collect();
    assert_eq!(nags, [&[][..], &[3], &[5], &[3], &[], &[6], &[5], &[4]]);
    assert_eq!(spans(g)[3], (3, 27));
    assert!(g.warnings().is_empty(), "{:?}", g.warnings());
    assert!(g.replayed().is_valid(), "{:?}", g.replayed().error);
    // Glyphs that annotate nothing, or are no glyph, are left out with a
    // warning at their place.
    let g = &read("FORMAT WXF\nSTART{\n!! 1. C2.5 h8+7 !!! }END\n")[0];
    assert_eq!(moves(g), ["C2.5", "h8+7"]);
    let warnings: Vec<String> =
        g.warnings().iter().map(|w| format!("{}:{} {}", w.at.line, w.at.column, w.message)).collect();
    assert_eq!(
        warnings,
        [
            "3:1 \"!!\" before the first move annotates no move: left out",
            "3:17 \"!!!\" is not an annotation glyph (!, ?, !!, ??, !?, ?!): left out"
        ]
    );
}

#[test]
fn random_games_with_glyphs_anywhere_read_back() {
    let mut state = 44u64;
    let mut next = || {
        let (s, out) = crate::rules::zobrist::splitmix64(state);
        state = s;
        out
    };
    for _ in 0..60 {
        let played = random_game(10 + next() % 100, &mut next);
        let mut pos = crate::Position::start();
        let mut block = String::from("FORMAT WXF\nSTART{\n");
        let mut glyphs = Vec::new();
        // A glyph of Black's move may go before or after the next number.
        let mut pending: Option<&str> = None;
        for (k, &m) in played.iter().enumerate() {
            if k % 2 == 0 {
                let number = format!("{}.", k / 2 + 1);
                match (pending.take(), next() % 3) {
                    (Some(g), 0) => block.push_str(&format!("{g}{number} ")),
                    (Some(g), 1) => block.push_str(&format!("{number}{g} ")),
                    (Some(g), _) => block.push_str(&format!("{g} {number} ")),
                    (None, _) => block.push_str(&format!("{number} ")),
                }
            }
            block.push_str(&Notation::Wxf.write(&pos, m).unwrap());
            pos.play_unchecked(m);
            let glyph = (next() % 3 == 0).then(|| crate::record::REMARK_MARKS[1 + (next() % 6) as usize]);
            glyphs.push(glyph.map(|g| crate::formats::pgn::remark_nag(g).unwrap()));
            match glyph {
                Some(g) if k % 2 == 1 && next() % 2 == 0 => {
                    pending = Some(g);
                    block.push(' ');
                }
                Some(g) if next() % 2 == 0 => block.push_str(&format!("{g} ")),
                Some(g) => block.push_str(&format!(" {g} ")),
                None => block.push(' '),
            }
        }
        if let Some(g) = pending {
            block.push_str(g);
        }
        block.push_str(" }END\n");
        let g = &read(&block)[0];
        assert!(g.replayed().is_valid(), "{:?}\n{block}", g.replayed().error);
        assert_eq!(g.replayed().moves, played, "{block}");
        let nags: Vec<Option<u8>> =
            g.tree().main_line().map(|id| g.tree().node(id).nags().first().copied()).collect();
        assert_eq!(nags, glyphs, "{block}");
        assert!(g.warnings().is_empty(), "{:?}\n{block}", g.warnings());
    }
}

#[test]
fn a_wxf_file_is_told_by_its_lines() {
    let text =
        "FORMAT  WXF\nRED     jugador rojo ; 1200 ;;\nRESULT  1-0\nSTART{\n 1. C2.5 h8+7   2. H2+3 }END\n";
    assert!(is_wxf(text));
}

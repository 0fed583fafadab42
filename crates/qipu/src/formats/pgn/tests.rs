//! Tests of the PGN reader.

use super::*;
use crate::record::{GameResult, Record, Span};

const MAX_WARNINGS: usize = 20;

#[test]
fn a_line_reader_holds_the_last_game_until_the_end() {
    let mut reader = LineReader::default();
    reader.push("[Event \"a\"]\n1. h2e2 *\n");
    reader.push("[Event \"b\"]\n1. h2e2 *\n");
    assert_eq!(reader.take_games().len(), 1); // the second may go on
    assert_eq!(reader.finish().len(), 1);
}

#[test]
fn a_huge_comment_is_kept_up_to_a_megabyte() {
    let line = "中".repeat(100_000); // 300 KB a line
    let text = format!("[Event \"x\"]\n1. h2e2 {{{}}} h9g7 *\n", [line.as_str(); 8].join("\n"));
    let games = read(&text);
    let comment = games[0].tree().node(games[0].tree().main_line().next().unwrap()).comment().unwrap();
    assert!(comment.len() <= 1 << 20 && comment.len() > (1 << 20) - 4, "{}", comment.len());
    assert!(games[0].warnings().iter().any(|w| w.message.contains("comment longer than 1 MB")));
    assert_eq!(games[0].tree().main_line().count(), 2, "the moves after it are read");
    // Without its end, both are told.
    let text = format!("[Event \"x\"]\n1. h2e2 {{{}\n", [line.as_str(); 8].join("\n"));
    let warnings: Vec<String> = read(&text)[0].warnings().iter().map(|w| w.message.clone()).collect();
    assert_eq!(warnings, ["comment not closed with '}'", "comment longer than 1 MB: the rest is left out"]);
}
use crate::record::MoveText;

fn moves(r: &Record) -> Vec<String> {
    r.tree()
        .main_line()
        .map(|id| match &r.tree().node(id).mv.as_ref().unwrap().text {
            MoveText::Text(t) => t.to_string(),
            MoveText::Coords(m) => m.to_string(),
        })
        .collect()
}

#[test]
fn empty_lines_inside_a_comment_are_kept() {
    let g = &read("1. h2e2 {first\n\nthird} *")[0];
    let first = g.tree().main_line().next().unwrap();
    assert_eq!(g.tree().node(first).comment(), Some("first\n\nthird"));
}

#[test]
fn tags_and_moves() {
    let text = "[Game \"Chinese Chess\"]\r\n[Red \"许银川\"][Black \"吕钦\"]\r\n[Result \"1-0\"]\r\n\r\n  1. 炮二平五 马８进７\r\n  2. 马二进三\r\n  2.          车９平８\r\n 10. 兵七进一 1-0\r\n";
    let games = read(text);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.tag("red"), Some("许银川"));
    assert_eq!(g.tag("BLACK"), Some("吕钦"));
    assert_eq!(moves(g), ["炮二平五", "马８进７", "马二进三", "车９平８", "兵七进一"]);
    assert_eq!(g.written_result(), Some(GameResult::RedWins));
    let first = g.tree().main_line().next().unwrap();
    assert_eq!(g.tree().node(first).mv.as_ref().unwrap().at, Span { line: 5, column: 6 });
}

#[test]
fn several_games_footer_and_separators() {
    let text = "[Event \"a\"]\n1. h2e2 h9g7 1-0\n====\n欢迎访问《象棋百科全书》网站\n[Event \"b\"]\n1. C2.5 H8+7\n=========\n[Event \"c\"]\n1.炮二平五 2.马二进三\n";
    let games = read(text);
    assert_eq!(games.len(), 3);
    assert_eq!(moves(&games[0]), ["h2e2", "h9g7"]);
    assert_eq!(moves(&games[1]), ["C2.5", "H8+7"]);
    assert_eq!(moves(&games[2]), ["炮二平五", "马二进三"]);
    assert_eq!(games[1].written_result(), None);
}

#[test]
fn a_game_without_tags_after_a_result_is_the_next_game() {
    let text =
        "[Event \"a\"]\n1. h2e2 h9g7 *\n\n1. b2e2 b9c7 1-0\n1...h9g7 2. h2e2 0-1\n1 炮二平五 马８进７\n";
    let games = read(text);
    assert_eq!(games.len(), 4);
    assert_eq!(moves(&games[1]), ["b2e2", "b9c7"]);
    assert_eq!(games[1].at().line, 4);
    assert_eq!(games[1].tags().len(), 0);
    assert_eq!(moves(&games[2]), ["h9g7", "h2e2"]);
    assert_eq!(moves(&games[3]), ["炮二平五", "马８进７"]);
    // Footers are not games: neither text nor other move numbers.
    let footer = "[Event \"a\"]\n1. h2e2 1-0\n欢迎访问\n12. h2e2\n1-0\n10.5 points\n";
    assert_eq!(read(footer).len(), 1);
}

#[test]
fn a_comment_without_end_stops_at_tags_after_an_empty_line() {
    let text = "[Event \"a\"]\n1. h2e2 {open\n[not a tag line]\n[Event \"in the comment\"]\n\n[Event \"b\"]\n1. h2e2 *\n";
    let games = read(text);
    assert_eq!(games.len(), 2);
    let first = games[0].tree().main_line().next().unwrap();
    assert_eq!(
        games[0].tree().node(first).comment(),
        Some("open\n[not a tag line]\n[Event \"in the comment\"]")
    );
    assert_eq!(games[0].warnings()[0].message, "comment not closed with '}'");
    assert_eq!(games[1].tag("Event"), Some("b"));
}

#[test]
fn warnings_are_listed_up_to_a_count() {
    let text = format!("1. h2e2 {} *", ")".repeat(1000));
    let g = &read(&text)[0];
    assert_eq!(g.warnings().len(), MAX_WARNINGS + 1);
    assert_eq!(g.warnings()[0].message, "')' closes no variation");
    assert_eq!(g.warnings()[MAX_WARNINGS].message, "and 980 more warning(s) of this game, not listed");
}

#[test]
fn comments_variations_nags() {
    let text = "{start}\n1. h2e2!? {a\nlong comment} h9g7 $1 (1... b9c7 {alt} (1... h7e7)) 2. h0g2 ; rest of line\n(2. b0c2 {x}) *";
    let g = &read(text)[0];
    let t = g.tree();
    assert_eq!(t.node(t.root()).comment(), Some("start"));
    assert_eq!(moves(g), ["h2e2", "h9g7", "h0g2"]);
    let ids: Vec<_> = t.main_line().collect();
    assert_eq!(t.node(ids[0]).comment(), Some("a\nlong comment"));
    assert_eq!(t.node(ids[0]).nags(), [5]);
    assert_eq!(moves(g)[0], "h2e2");
    assert_eq!(t.node(ids[1]).nags(), [1]);
    assert_eq!(t.node(ids[2]).comment(), Some("rest of line"));
    let alts: Vec<_> = t.children(ids[0]).collect();
    assert_eq!(alts.len(), 3);
    assert_eq!(t.node(alts[1]).comment(), Some("alt"));
    assert_eq!(t.variation_count(), 3);
    assert!(g.warnings().is_empty(), "{:?}", g.warnings());
}

#[test]
fn move_numbers() {
    assert_eq!(strip_move_number("12."), (3, ""));
    assert_eq!(strip_move_number("12..."), (5, ""));
    assert_eq!(strip_move_number("1.炮二平五"), (2, "炮二平五"));
    assert_eq!(strip_move_number("1．炮二平五"), (4, "炮二平五"));
    assert_eq!(strip_move_number("33.4"), (0, "33.4"));
    assert_eq!(strip_move_number("15=6"), (0, "15=6"));
    assert_eq!(strip_move_number("7"), (1, ""));
    assert_eq!(strip_move_number("C2.5"), (0, "C2.5"));
}

#[test]
fn broken_text_is_read_with_warnings() {
    let g = &read("1. h2e2 {open comment\n2. h0g2")[0];
    assert_eq!(moves(g), ["h2e2"]);
    assert_eq!(g.warnings().len(), 1);
    let g = &read("1. h2e2 ) (h9g7")[0];
    assert_eq!(g.warnings().len(), 2);
    let g = &read("1. h2e2 }h9g7")[0];
    assert_eq!(moves(g), ["h2e2", "h9g7"]);
    assert_eq!(g.warnings().len(), 1);
    assert!(read("").is_empty());
    assert!(read("\n\n   \n").is_empty());
}

#[test]
fn a_game_without_moves_ends_at_the_next_games_tags() {
    let games = read("[Event \"a\"]\n[Result \"*\"]\n\n[Event \"b\"]\n1. h2e2 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Event"), Some("a"));
    assert!(games[0].tree().is_empty());
    assert_eq!(games[1].tag("Event"), Some("b"));
}

#[test]
fn tags_inside_move_text_are_skipped() {
    let g = &read("[Title \"x\"]\n[Score \"10=0\"] 1.H2-E2  [Score \"10=0\"] H9-G7\n")[0];
    assert_eq!(moves(g), ["H2-E2", "H9-G7"]);
    assert_eq!(g.tags().len(), 1);
}

#[test]
fn wide_white_space_separates_moves_and_wide_marks_are_remarks() {
    // U+3000 (ideographic space), U+00A0 (no-break space) and U+2003 (em
    // space) separate moves like a space; other characters, CJK ones and
    // full-width digits among them, are part of the move.
    let text = "1.\u{3000}炮二平五\u{a0}马８进７\u{2003}2. 马二进三！ 车９平８？！ *\n";
    let games = read(text);
    assert_eq!(moves(&games[0]), ["炮二平五", "马８进７", "马二进三", "车９平８"]);
    assert_eq!(games[0].warnings().len(), 0, "{:?}", games[0].warnings());
    let nags: Vec<Vec<u8>> =
        games[0].tree().main_line().map(|id| games[0].tree().node(id).nags().to_vec()).collect();
    assert_eq!(nags, [vec![], vec![], vec![1], vec![6]]);
    // Columns count characters, wide spaces included.
    let at: Vec<u32> = games[0]
        .tree()
        .main_line()
        .map(|id| games[0].tree().node(id).mv.as_ref().unwrap().at.column)
        .collect();
    assert_eq!(at, [4, 9, 17, 23]);
}

#[test]
fn writers_take_a_tree_changed_by_hand() {
    // The replay kept, a move's parent link cleared and the move that did
    // not replay taken away: every writer writes or fails, none panics.
    let mut record = read("1. 炮二平五 (1. 兵七进一) 马８进７ 2. 马九进十 *").remove(0);
    let _ = record.replayed();
    let main: Vec<_> = record.tree().main_line().collect();
    record.tree_mut().node_mut(main[1]).parent = None;
    record.tree_mut().node_mut(main[2]).mv = None;
    let text = write(&record, crate::notation::Notation::Wxf);
    assert!(text.contains("1. C2.5 (1. P7+1) 1... H8+7"), "{text}");
    #[cfg(feature = "serde")]
    assert!(crate::formats::json::write(&record).contains(r#""parent":1,"move":"h9g7""#));
    assert!(crate::formats::dhtmlxq::write(&record).is_err());
    assert!(crate::formats::xqf::write(&record, crate::formats::xqf::Version::V10).is_err());
}

/// The tag grammar as first written, with nom: the reference that the
/// hand-written reader must agree with.
fn tag_line_by_nom(line: &str) -> Option<Vec<(String, String)>> {
    use nom::Parser;
    use nom::bytes::complete::{escaped_transform, is_not, take_while1};
    use nom::character::complete::{char, space0};
    use nom::combinator::{opt, value};
    use nom::sequence::delimited;
    fn tag_pair(input: &str) -> nom::IResult<&str, (String, String)> {
        let name = take_while1(|c: char| c.is_alphanumeric() || c == '_' || c == '-');
        let quoted = delimited(
            char('"'),
            opt(escaped_transform(
                is_not("\\\""),
                '\\',
                nom::branch::alt((value("\\", char('\\')), value("\"", char('"')))),
            )),
            char('"'),
        );
        let (rest, (_, _, name, _, value, _, _)) =
            (space0, char('['), name, space0, quoted, space0, char(']')).parse(input)?;
        Ok((rest, (name.to_string(), value.unwrap_or_default())))
    }
    let mut rest = line;
    let mut tags = Vec::new();
    while !rest.trim().is_empty() {
        let (r, tag) = tag_pair(rest).ok()?;
        tags.push(tag);
        rest = r;
    }
    (!tags.is_empty()).then_some(tags)
}

#[test]
fn tag_lines_read_as_the_grammar_says() {
    let cases = [
        r#"[Event "x"]"#,
        r#"  [Event "x"] [Date "2020"]  "#,
        r#"[Event ""]"#,
        r#"[Event "a\"b\\c"]"#,
        r#"[Event "a\nb"]"#,
        r#"[Event "a\"]"#,
        r#"[Event "a"#,
        r#"[Event "a" ]x"#,
        "[赛事 \"象棋\"]\u{3000}",
        "\u{3000}[Event \"x\"]",
        "[Event\t\"x\"\t]\t[Site \"y\"]",
        "[Ev-ent_1 \"x\"]\x0b",
        "[Event \"x\"]\x0b[Site \"y\"]",
        "[ Event \"x\"]",
        "[Event x]",
        "[]",
        "",
        "   ",
        "[Event \"x\"][Site \"y\"]",
        "[Event \"x\\",
        "[Event \"\\\\\"]",
    ];
    for line in cases {
        assert_eq!(super::read::tag_line(line), tag_line_by_nom(line), "{line:?}");
    }
}

proptest::proptest! {
    #[test]
    fn tag_lines_read_as_nom_reads_them(parts in proptest::collection::vec(
        proptest::sample::select(vec![
            "[", "]", "\"", "\\", " ", "\t", "Event", "x", "_", "-", "马", "\u{3000}", "：", "\x0b", "1",
            "[Event \"", "\"]", "\\\"", "\\\\",
        ]),
        0..14,
    )) {
        let line: String = parts.concat();
        proptest::prop_assert_eq!(super::read::tag_line(&line), tag_line_by_nom(&line), "{:?}", line);
    }
}

/// The records of `text`, read with the shortcuts for common tokens or
/// without.
fn read_both_ways(text: &str) -> (Vec<Record>, Vec<Record>) {
    let mut fast = LineReader::default();
    let mut general = LineReader::default().without_shortcuts();
    fast.push(text);
    general.push(text);
    (fast.finish(), general.finish())
}

#[test]
fn common_tokens_read_the_same_by_their_shortcut() {
    for text in [
        "1. h2e2 h9g7 2. H0-G2 1-0",
        "1.h2e2 1...h9g7 2... C2.5 h2e2! h2e2?! 3. 15=6 33.4 h2e2$1",
        "1. b2-d2 {a} (1... b7-e7 2. h0g2) b7-e7 12345. 1.0 1.. *",
        "1. h2e2\u{3000}h9g7 2.炮二平五 h2e2马 h2e2)",
        "1. h2e2;x\n2. h9g7 0-1",
    ] {
        let (fast, general) = read_both_ways(text);
        assert_eq!(fast, general, "{text:?}");
    }
}

proptest::proptest! {
    #[test]
    fn random_move_text_reads_the_same_by_the_shortcuts(parts in proptest::collection::vec(
        proptest::sample::select(vec![
            "1.", "12...", "3", ".", "h2e2", "H2-E2", "C2.5", "c2=5", "!", "?", "!?", " ", "  ", "\t",
            "{", "}", "(", ")", ";", "[", "]", "$", "1-0", "*", "\u{3000}", "炮二平五", "马", "\n", "-", "e",
            "0",
        ]),
        0..24,
    )) {
        let text: String = parts.concat();
        let (fast, general) = read_both_ways(&text);
        proptest::prop_assert_eq!(fast, general, "{:?}", text);
    }
}

#[test]
fn a_comment_with_tags_after_a_line_of_spaces_is_written_as_one_game() {
    // Found by fuzzing: the guard of tag lines in comments looked only for
    // `\n\n`, but a line of spaces is empty to the reader too. Comments of
    // XQF, DhtmlXQ or CBL files can hold anything.
    use crate::record::{RecordBuilder, RecordedMove, Visitor};
    for gap in ["\n\n", "\n    \n", "\n\t\r\n"] {
        let mut builder = RecordBuilder::default();
        builder.begin_game(Span::default());
        let _ = builder.mv(&RecordedMove::text("h2e2", 1, 1));
        builder.comment(&format!("a{gap}[Variation \"\"]\nb"));
        let _ = builder.mv(&RecordedMove::text("h9g7", 1, 6));
        let record = builder.end_game();
        let written = write(&record, crate::notation::Notation::Iccs);
        let again = read(&written);
        assert_eq!(again.len(), 1, "{written}");
        assert_eq!(again[0].tree().main_line().count(), 2, "{written}");
    }
}

#[test]
fn line_numbers_past_the_last_stay_at_the_last() {
    // A text of more than 4 G lines: numbers stop at u32::MAX, no overflow.
    let mut reader = LineReader::with(crate::record::RecordBuilder::default()).starting_at_line(u32::MAX);
    for line in ["", "[Event \"x\"]", "1. h2e2 h9g7 *", "", "\u{0}"] {
        reader.push_line(line);
    }
    reader.skip_overlong_line(1 << 20);
    let games: Vec<_> = reader.finish().into_iter().collect();
    assert!(!games.is_empty());
    assert!(
        games.iter().all(|g| g.at().line == u32::MAX),
        "{:?}",
        games.iter().map(|g| g.at()).collect::<Vec<_>>()
    );
}

#[test]
fn white_tags_are_red_unless_the_game_has_them() {
    let g = &read("[White \"a\"] [WhiteElo \"1\"] [Black \"b\"]\n1. h2e2 *\n")[0];
    assert_eq!((g.tag("Red"), g.tag("RedElo"), g.tag("White")), (Some("a"), Some("1"), None));
    // The same line, or an earlier one, holds `Red`: `White` stays.
    for text in ["[White \"a\"] [Red \"r\"]\n1. h2e2 *\n", "[Red \"r\"]\n[White \"a\"]\n1. h2e2 *\n"] {
        let games = read(text);
        assert_eq!(games.len(), 1, "{text}");
        assert_eq!((games[0].tag("Red"), games[0].tag("White")), (Some("r"), Some("a")), "{text}");
    }
}

/// The tree of a record as its move texts, each node followed by its
/// children in brackets, and the comments: what a writer must keep.
fn shape_of(record: &Record) -> String {
    fn walk(record: &Record, id: crate::record::NodeId, out: &mut String) {
        let tree = record.tree();
        for child in tree.children(id) {
            let node = tree.node(child);
            out.push('[');
            if let Some(mv) = &node.mv {
                match &mv.text {
                    MoveText::Text(t) => out.push_str(t),
                    MoveText::Coords(m) => out.push_str(&m.to_string()),
                }
            }
            if let Some(c) = node.comment() {
                out.push_str(&format!("{{{c}}}"));
            }
            walk(record, child, out);
            out.push(']');
        }
    }
    let mut out = String::new();
    walk(record, record.tree().root(), &mut out);
    out
}

#[test]
fn variations_among_moves_that_did_not_replay_keep_their_place() {
    // A variation after an illegal move is the alternative to the move it
    // follows, not to the one before; an alternative to a first move that
    // did not replay (the start is not legal) is kept.
    let bad_start = "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w - - 0 1\"]\n";
    for text in [
        "1. h2e2 h9g7 2. zzzz b9c7 (2... g6g5) 3. b0c2 *\n".to_string(),
        "1. h2e2 h9g7 2. zzzz (2. b0c2 {x} b9c7) 2... b9c7 (2... g6g5 3. c3c4) 3. b0c2 *\n".to_string(),
        format!("{bad_start}1. h2e2 (1. b2e2 {{alt}}) 1... h9g7 (1... b9c7) 2. b0c2 *\n"),
    ] {
        let record = &read(&text)[0];
        for notation in
            [crate::notation::Notation::Iccs, crate::notation::Notation::Chinese(Default::default())]
        {
            let written = write(record, notation);
            let again = &read(&written)[0];
            assert_eq!(again.tree().len(), record.tree().len(), "{text}\n{written}");
            if notation == crate::notation::Notation::Iccs {
                assert_eq!(
                    shape_of(again).to_lowercase().replace('-', ""),
                    shape_of(record),
                    "{text}\n{written}"
                );
            }
        }
    }
}

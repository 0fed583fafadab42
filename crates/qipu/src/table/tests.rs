use arrow_array::Array;
use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Int16Type, Int32Type, UInt32Type, UInt64Type};

use super::*;
use crate::batch::Meta;
use crate::formats::pgn;

fn meta() -> Meta {
    Meta {
        source: "a.pgn".into(),
        json_source: "a.pgn".into(),
        source_escaped: false,
        format: "pgn",
        encoding: Some("utf-8"),
    }
}

/// The games of a PGN text as both tables.
fn tables(text: &str) -> (RecordBatch, RecordBatch) {
    let mut tables = Tables::new();
    for (k, game) in pgn::read_with(text, &mut checker(true)).iter().enumerate() {
        tables.games.push(&meta(), k, game);
        tables.positions.push(&meta(), k, game);
    }
    (tables.finish(Table::Games), tables.finish(Table::Positions))
}

fn text<'a>(batch: &'a RecordBatch, column: &str) -> Vec<Option<&'a str>> {
    batch.column_by_name(column).unwrap().as_string::<i32>().iter().collect()
}

fn u32s(batch: &RecordBatch, column: &str) -> Vec<Option<u32>> {
    batch.column_by_name(column).unwrap().as_primitive::<UInt32Type>().iter().collect()
}

fn i32s(batch: &RecordBatch, column: &str) -> Vec<Option<i32>> {
    batch.column_by_name(column).unwrap().as_primitive::<Int32Type>().iter().collect()
}

/// The map of tags of row `row`.
fn tag_map(batch: &RecordBatch, row: usize) -> Vec<(String, String)> {
    let map = batch.column_by_name("tags").unwrap().as_map();
    let entries = map.value(row);
    let (keys, values) = (entries.column(0).as_string::<i32>(), entries.column(1).as_string::<i32>());
    (0..entries.len()).map(|k| (keys.value(k).to_string(), values.value(k).to_string())).collect()
}

#[test]
fn the_schemas_name_their_columns_in_order() {
    let names: Vec<String> = games_schema().fields().iter().map(|f| f.name().clone()).collect();
    assert_eq!(
        names,
        [
            "source",
            "index",
            "format",
            "encoding",
            "status",
            "error_message",
            "error_ply",
            "error_move",
            "error_line",
            "error_column",
            "error_offset",
            "result",
            "termination",
            "result_conflict",
            "rules",
            "final_ruling",
            "move_limit_at",
            "dead_draw_at",
            "plies",
            "variation_plies",
            "ecco",
            "line_key",
            "start_fen",
            "moves",
            "event",
            "site",
            "date",
            "year",
            "round",
            "red",
            "black",
            "red_team",
            "black_team",
            "red_elo",
            "black_elo",
            "opening",
            "variation",
            "tags",
        ]
    );
    // An empty table is a batch of the schema too.
    assert_eq!(GamesTable::new().finish().schema(), games_schema());
    assert_eq!(PositionsTable::new().finish().num_rows(), 0);
}

#[test]
fn a_game_is_a_row_of_its_typed_tags_and_the_rest_in_the_map() {
    let record = "[Event \"全国赛\"]\n[Red \"胡荣华\"]\n[Black \"杨官璘\"]\n[RedElo \"2650\"]\n\
                [BlackElo \"unknown\"]\n[Date \"1990.05.12\"]\n[Mood \"calm\"]\n[Result \"1-0\"]\n\
                1. h2e2 h9g7 2. h0g2 i9h9 1-0\n";
    let (games, _) = tables(record);
    assert_eq!(games.num_rows(), 1);
    assert_eq!(text(&games, "source"), [Some("a.pgn")]);
    assert_eq!(text(&games, "status"), [Some("valid")]);
    assert_eq!(text(&games, "red"), [Some("胡荣华")]);
    assert_eq!(text(&games, "black"), [Some("杨官璘")]);
    assert_eq!(text(&games, "event"), [Some("全国赛")]);
    assert_eq!(text(&games, "site"), [None]);
    assert_eq!(text(&games, "result"), [Some("1-0")]);
    assert_eq!(text(&games, "ecco"), [Some("B05")]);
    assert_eq!(text(&games, "start_fen"), [None]);
    assert_eq!(text(&games, "error_message"), [None]);
    assert_eq!(i32s(&games, "red_elo"), [Some(2650)]);
    assert_eq!(i32s(&games, "black_elo"), [None]);
    assert_eq!(u32s(&games, "plies"), [Some(4)]);
    let date = games.column_by_name("date").unwrap().as_primitive::<Date32Type>().value(0);
    assert_eq!(date, 7436); // 1990-05-12
    let year = games.column_by_name("year").unwrap().as_primitive::<Int16Type>().value(0);
    assert_eq!(year, 1990);
    let moves = games.column_by_name("moves").unwrap().as_list::<i32>().value(0);
    let moves: Vec<&str> = moves.as_string::<i32>().iter().flatten().collect();
    assert_eq!(moves, ["h2e2", "h9g7", "h0g2", "i9h9"]);
    let key = games.column_by_name("line_key").unwrap().as_primitive::<UInt64Type>();
    assert!(key.is_valid(0));
    // What no column holds whole is in the map, raw.
    let pairs =
        |v: &[(&str, &str)]| v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect::<Vec<_>>();
    assert_eq!(tag_map(&games, 0), pairs(&[("BlackElo", "unknown"), ("Mood", "calm"), ("Result", "1-0")]));
}

#[test]
fn dates_and_numbers_not_read_whole_stay_raw() {
    let record = "[Date \"1990.??.??\"]\n[RedElo \" 2400 \"]\n*\n\n[Date \"1985年3月2日\"]\n*\n\n[Date \"1990.02.30\"]\n*\n";
    let (games, _) = tables(record);
    let dates: Vec<Option<i32>> =
        games.column_by_name("date").unwrap().as_primitive::<Date32Type>().iter().collect();
    assert_eq!(dates, [None, Some(5539), None]);
    let years: Vec<Option<i16>> =
        games.column_by_name("year").unwrap().as_primitive::<Int16Type>().iter().collect();
    assert_eq!(years, [Some(1990), Some(1985), Some(1990)]);
    assert_eq!(i32s(&games, "red_elo"), [Some(2400), None, None]);
    assert_eq!(tag_map(&games, 0), [("Date".to_string(), "1990.??.??".to_string())]);
    assert_eq!(tag_map(&games, 1), [("Date".to_string(), "1985年3月2日".to_string())]);
    assert_eq!(tag_map(&games, 2), [("Date".to_string(), "1990.02.30".to_string())]);
}

#[test]
fn days_count_from_1970() {
    let day =
        |y, m, d| games::days(crate::record::date::PartialDate { year: y, month: Some(m), day: Some(d) });
    assert_eq!(day(1970, 1, 1), Some(0));
    assert_eq!(day(2000, 1, 1), Some(10_957));
    assert_eq!(day(2000, 2, 29), Some(11_016));
    assert_eq!(day(1900, 2, 29), None);
    assert_eq!(day(1969, 12, 31), Some(-1));
}

#[test]
fn an_illegal_game_has_its_error_and_its_positions_up_to_the_wrong_move() {
    let (games, positions) = tables("1. h2e2 h9g7 2. h0f1 *\n");
    assert_eq!(text(&games, "status"), [Some("illegal")]);
    assert_eq!(u32s(&games, "error_ply"), [Some(3)]);
    assert_eq!(text(&games, "error_move"), [Some("h0f1")]);
    assert_eq!(u32s(&games, "error_line"), [Some(1)]);
    assert_eq!(u32s(&games, "error_column"), [Some(17)]);
    assert_eq!(u32s(&games, "error_offset"), [None]);
    assert_eq!(u32s(&games, "plies"), [Some(2)]);
    assert_eq!(u32s(&positions, "ply"), [Some(0), Some(1), Some(2)]);
    assert_eq!(text(&positions, "move"), [Some("h2e2"), Some("h9g7"), None]);
}

#[test]
fn positions_carry_the_move_played_from_them_and_the_evaluation_of_the_move_that_led_there() {
    let record = "[FEN \"4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1\"]\n1. a1a8 {+3.50/12} e9f9 {#-2} 2. a8a9 *\n";
    let (games, positions) = tables(record);
    assert_eq!(text(&games, "start_fen"), [Some("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1")]);
    assert_eq!(text(&games, "ecco"), [None]);
    assert_eq!(u32s(&positions, "ply"), [Some(0), Some(1), Some(2), Some(3)]);
    assert_eq!(text(&positions, "move"), [Some("a1a8"), Some("e9f9"), Some("a8a9"), None]);
    assert_eq!(text(&positions, "side"), [Some("red"), Some("black"), Some("red"), Some("black")]);
    assert_eq!(i32s(&positions, "eval"), [None, Some(350), None, None]);
    assert_eq!(i32s(&positions, "mate"), [None, None, Some(-2), None]);
    assert_eq!(text(&positions, "result"), [Some("*"); 4]);
    let fens = text(&positions, "fen");
    assert_eq!(fens[0], Some("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"));
    let mut pos = crate::Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").unwrap();
    for (k, m) in ["a1a8", "e9f9", "a8a9"].iter().enumerate() {
        let _ = pos.play_unchecked(m.parse().unwrap());
        assert_eq!(fens[k + 1], Some(pos.fen().as_str()));
    }
}

#[test]
fn an_unreadable_input_is_a_row_with_its_reason() {
    let mut table = GamesTable::new();
    table.push_unreadable(&meta(), "not a game record");
    let games = table.finish();
    assert_eq!(text(&games, "status"), [Some("unreadable")]);
    assert_eq!(text(&games, "error_message"), [Some("not a game record")]);
    assert_eq!(u32s(&games, "error_ply"), [Some(0)]);
    assert_eq!(text(&games, "error_move"), [Some("")]);
    assert_eq!(games.column_by_name("moves").unwrap().as_list::<i32>().value(0).len(), 0);
}

#[test]
fn batches_cut_the_rows_and_count_as_validate_counts() {
    let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pgn");
    let inputs = crate::batch::expand(&[pgn.into(), "no/such.pgn".into()]).inputs;
    let batches: Vec<RecordBatch> = Batches::new(Batch::new().threads(2), inputs.clone(), Table::Games)
        .rows(500)
        .map(Result::unwrap)
        .collect();
    let sizes: Vec<usize> = batches.iter().map(RecordBatch::num_rows).collect();
    assert_eq!(sizes, [500, 500, 392]);
    let last = batches.last().unwrap();
    assert_eq!(text(last, "status").last().unwrap(), &Some("unreadable"));
    let positions: usize =
        Batches::new(Batch::new().threads(2), inputs, Table::Positions).map(|b| b.unwrap().num_rows()).sum();
    // Every game's start and the position after each of its 120,357 moves.
    assert_eq!(positions, 1391 + 120_357);
}

#[test]
fn a_follower_reused_for_the_next_game_keeps_nothing_of_the_last() {
    // A long game with evaluations, then a short one, read by one follower:
    // each game's line is what a follower of its own makes of it.
    let long = "1. h2e2 {+0.30} h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 {-1.5} h7h3 *";
    let short = "1. b0c2 h9g7 1-0";
    let both = pgn::read_with(&format!("{long}\n\n{short}\n"), &mut checker(true));
    for (k, alone) in [long, short].iter().enumerate() {
        let fresh = pgn::read_with(alone, &mut checker(true)).remove(0);
        assert_eq!(both[k].followed, fresh.followed, "game {k}");
        // Held at their size.
        let fens = both[k].followed.positions.as_ref().unwrap();
        assert_eq!(fens.text.capacity(), fens.text.len());
        assert_eq!(both[k].followed.moves.capacity(), both[k].followed.moves.len());
    }
    assert_eq!(both[1].followed.positions.as_ref().unwrap().len(), 2);
    assert!(both[1].followed.positions.as_ref().unwrap().evals.is_empty());
}

#[test]
fn the_line_key_is_the_line_of_the_games_key() {
    let text = "1. h2e2 h9g7 2. h0g2 (2. b0c2 b9c7) i9h9 *\n\n\
                [FEN \"4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1\"]\n1. d0e1 e9d9 *\n\n\
                1. h2e2 h9g7 2. h2h9 *\n\n\
                [FEN \"4k4/4K4/9/9/9/9/9/9/9/9 w - - 0 1\"]\n*\n";
    let (games, _) = tables(text);
    let key = games.column_by_name("line_key").unwrap().as_primitive::<UInt64Type>();
    let keys: Vec<Option<u64>> =
        pgn::read_with(text, &mut crate::batch::Checker::following(crate::dedupe::Keyer::default()))
            .iter()
            .map(|game| game.followed.map(|k| k.line))
            .collect();
    assert_eq!(keys.len(), 4);
    assert!(keys[..3].iter().all(Option::is_some) && keys[3].is_none(), "{keys:?}");
    assert_eq!(key.iter().collect::<Vec<_>>(), keys);
}

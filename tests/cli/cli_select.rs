//! The selection flags every batch command takes, on games whose answer
//! is known.

use crate::common::qipu;

/// Seven games, each told apart by what the flags look at.
const GAMES: &str = concat!(
    // 1: a central cannon from the right, a comment and a variation, 1990.
    "[Event \"全国个人赛\"]\n[Site \"北京\"]\n[Date \"1990.05.12\"]\n[Red \"许银川\"]\n[Black \"吕钦\"]\n[Result \"1-0\"]\n",
    "1. h2e2 {中炮} h9g7 (1... b9c7) 2. h0g2 i9h9 1-0\n\n",
    // 2: checkmate from a set-up position (Red two rooks against a bare king).
    "[Event \"残局\"]\n[Date \"1995\"]\n[Red \"胡荣华\"]\n[Black \"杨官璘\"]\n[FEN \"3k5/R8/9/9/9/9/9/9/1R7/4K4 w\"]\n",
    "1. b1b9 1-0\n\n",
    // 3: an illegal second move.
    "[Event \"全国团体赛\"]\n[Date \"96-12-18\"]\n[Red \"吕钦\"]\n[Black \"许银川\"]\n1. h2e2 h9e9 *\n\n",
    // 4: the mirror of game 1's opening, from the left; a draw.
    "[Event \"全国个人赛\"]\n[Date \"2001.02\"]\n[Red \"赵国荣\"]\n[Black \"胡荣华\"]\n[Result \"1/2-1/2\"]\n",
    "1. b2e2 b9c7 2. b0c2 a9b9 1/2-1/2\n\n",
    // 5: the pawn opening, no date, no result.
    "[Red \"许银川\"]\n[Black \"赵国荣\"]\n1. g3g4 h9g7 2. h0g2 *\n\n",
    // 6: a long shuffle: 12 plies, Black wins by the tag.
    "[Site \"上海\"]\n[Result \"0-1\"]\n1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 5. h0g2 h9g7 6. g2h0 g7h9 0-1\n\n",
    // 7: a capture of a rook: 1. h2h9 (cannon takes horse) i9h9 (rook takes back).
    "[Red \"许银川\"]\n[Black \"吕钦\"]\n1. h2h9 i9h9 2. b2b9 a9b9 *\n",
);

/// The numbers (from 1) of the games `validate` reports with `args`, and
/// the summary line.
fn selected(args: &[&str]) -> (Vec<usize>, String) {
    let out = qipu()
        .arg("validate")
        .args(args)
        .args(["--format", "json", "-"])
        .write_stdin(GAMES)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "qipu validate {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let numbers = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["index"].as_u64().unwrap() as usize + 1
        })
        .collect();
    (numbers, String::from_utf8(out.stderr).unwrap())
}

fn games(args: &[&str]) -> Vec<usize> {
    selected(args).0
}

#[test]
fn no_flag_selects_every_game() {
    let (numbers, summary) = selected(&[]);
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7]);
    assert!(!summary.contains("selected"), "{summary}");
}

#[test]
fn tags_players_events_sites() {
    assert_eq!(games(&["--tag", "Event=个人"]), [1, 4]);
    assert_eq!(games(&["--tag", "Event=个人", "--tag", "Date=^2001"]), [4]);
    assert_eq!(games(&["--player", "许银川"]), [1, 3, 5, 7]);
    assert_eq!(games(&["--red", "许银川"]), [1, 5, 7]);
    assert_eq!(games(&["--black", "^许"]), [3]);
    assert_eq!(games(&["--event", "团体|残局"]), [2, 3]);
    assert_eq!(games(&["--site", "上海"]), [6]);
    // A tag named in another case is the same tag; a missing tag never matches.
    assert_eq!(games(&["--tag", "site=."]), [1, 6]);
    assert_eq!(games(&["--tag", "Round=."]), Vec::<usize>::new());
}

/// Four games whose names are written in either script and width.
const SCRIPTS: &str = concat!(
    "[Event \"全國個人賽\"]\n[Red \"許銀川\"]\n[Black \"呂欽\"]\n1. h2e2 h9g7 *\n\n",
    "[Event \"全国个人赛\"]\n[Red \"胡荣华\"]\n[Black \"许银川\"]\n1. b2e2 b9c7 *\n\n",
    "[Event \"Open（Ｂ）\"]\n[Red \"Ｈｕ\u{3000}Ronghua\"]\n[Black \"Hu Ronghua\"]\n1. g3g4 *\n\n",
    "[Event \"Open (B)\"]\n[FEN \"3k5/R8/9/9/9/9/9/9/1R7/4K4 w\"]\n[Opening \"中砲對屏風馬\"]\n1. b1b9 *\n",
);

/// The numbers (from 1) of the games of [`SCRIPTS`] `validate` selects with `args`.
fn scripts(args: &[&str]) -> Vec<usize> {
    let out = qipu()
        .arg("validate")
        .args(args)
        .args(["--format", "json", "-"])
        .write_stdin(SCRIPTS)
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["index"].as_u64().unwrap() as usize + 1
        })
        .collect()
}

#[test]
fn names_match_whatever_their_script_and_width() {
    // Simplified and traditional, either way round.
    assert_eq!(scripts(&["--player", "许银川"]), [1, 2]);
    assert_eq!(scripts(&["--player", "許銀川"]), [1, 2]);
    assert_eq!(scripts(&["--red", "^许银川$"]), [1]);
    assert_eq!(scripts(&["--black", "吕钦"]), [1]);
    assert_eq!(scripts(&["--tag", "Event=全国"]), [1, 2]);
    assert_eq!(scripts(&["--event", "個人賽$"]), [1, 2]);
    // Full-width letters and the ideographic space, in the value or the pattern.
    assert_eq!(scripts(&["--red", "^Hu Ronghua$"]), [3]);
    assert_eq!(scripts(&["--player", "Ｈｕ"]), [3]);
    assert_eq!(scripts(&["--tag", "Red=ｈｕ\u{3000}ｒｏｎｇ"]), Vec::<usize>::new());
    assert_eq!(scripts(&["--tag", "Red=(?i)ｈｕ\u{3000}ｒｏｎｇ"]), [3]);
    // A full-width bracket in a pattern is a bracket, not a group.
    assert_eq!(scripts(&["--event", "Open（B）"]), [3]);
    assert_eq!(scripts(&["--event", "^Open （B）$"]), [4]);
    // Opening names: the traditional names of the moves, and the Opening tag.
    assert_eq!(scripts(&["--opening", "中砲"]), scripts(&["--opening", "中炮"]));
    assert!(scripts(&["--opening", "中砲"]).contains(&1));
    assert!(scripts(&["--opening", "屏风马"]).contains(&4));
    assert!(!scripts(&["--opening", "仙人指路"]).contains(&4));
}

#[test]
fn dates_partial_and_ranged() {
    assert_eq!(games(&["--date", "1990"]), [1]);
    assert_eq!(games(&["--date", "1990..1996"]), [1, 2, 3]);
    assert_eq!(games(&["--date", "1996.12"]), [3]);
    assert_eq!(games(&["--date", "2000.."]), [4]);
    // A game dated only 1995 is not known to be in 1995.06.
    assert_eq!(games(&["--date", "1995.06"]), Vec::<usize>::new());
    assert_eq!(games(&["--date", "..1995"]), [1, 2]);
}

#[test]
fn results_terminations_statuses() {
    assert_eq!(games(&["--result", "1-0"]), [1, 2]);
    assert_eq!(games(&["--result", "draw,0-1"]), [4, 6]);
    assert_eq!(games(&["--result", "unknown"]), [3, 5, 7]);
    assert_eq!(games(&["--termination", "checkmate"]), [2]);
    // Game 6 shuffles its horses until the position stands a third time.
    assert_eq!(games(&["--termination", "repetition"]), [6]);
    assert_eq!(games(&["--termination", "none"]), [1, 3, 4, 5, 7]);
    assert_eq!(games(&["--status", "illegal"]), [3]);
    assert_eq!(games(&["--status", "valid", "--player", "吕钦"]), [1, 7]);
    // `ok`, the word JSON reports said before they said `valid`, is still taken.
    assert_eq!(games(&["--status", "ok", "--player", "吕钦"]), [1, 7]);
}

#[test]
fn openings_by_code_and_name() {
    // Games 1 and 4 open with the central cannon (C, B-range depends on
    // the reply), game 5 with the pawn opening (A); game 2 is from a
    // set-up position and has no code.
    let central = games(&["--opening", "中炮"]);
    assert!(
        central.contains(&1) && central.contains(&4) && !central.contains(&5) && !central.contains(&2),
        "{central:?}"
    );
    let codes = |n: usize| -> String {
        let out = qipu()
            .args(["classify", "--format", "json", "--games", &n.to_string(), "-"])
            .write_stdin(GAMES)
            .output()
            .unwrap();
        let v: serde_json::Value =
            serde_json::from_str(String::from_utf8(out.stdout).unwrap().lines().next().unwrap()).unwrap();
        v["ecco"].as_str().unwrap_or("").to_string()
    };
    let (one, five) = (codes(1), codes(5));
    assert!(!one.is_empty() && !five.is_empty());
    let picked = games(&["--ecco", &one]);
    assert!(picked.contains(&1) && !picked.contains(&2), "{one}: {picked:?}");
    let volume = &five[..1];
    assert!(games(&["--ecco", volume]).contains(&5));
    assert!(!games(&["--ecco", &format!("{volume}00..{volume}00")]).contains(&2));
}

#[test]
fn length_comments_variations() {
    assert_eq!(games(&["--plies", "10.."]), [6]);
    assert_eq!(games(&["--plies", "..1"]), [2, 3]); // game 3 replays one ply
    assert_eq!(games(&["--plies", "3"]), [5]);
    assert_eq!(games(&["--has-comments"]), [1]);
    assert_eq!(games(&["--has-variations"]), [1]);
}

#[test]
fn positions_mirrored_and_in_variations() {
    let after_h2e2 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR";
    assert_eq!(games(&["--position", after_h2e2]), [1, 3]);
    assert_eq!(games(&["--position", &format!("{after_h2e2} b")]), [1, 3]);
    assert_eq!(games(&["--position", &format!("{after_h2e2} w")]), Vec::<usize>::new());
    assert_eq!(games(&["--position", after_h2e2, "--mirror"]), [1, 3, 4]);
    // 1... b9c7 is played only in game 1's variation.
    let after_b9c7 = "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w";
    assert_eq!(games(&["--position", after_b9c7]), Vec::<usize>::new());
    assert_eq!(games(&["--position", after_b9c7, "--in-variations"]), [1]);
    // The start position is reached by every game from it.
    assert_eq!(
        games(&["--position", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"]),
        [1, 3, 4, 5, 6, 7]
    );
}

/// Games reaching one position by different orders of moves, its mirror,
/// another position, and the position in a variation only.
const ORDERS: &str = concat!(
    // 1: 炮二平五 马8进7 马八进七 — the position P.
    "[Red \"a\"]\n1. h2e2 h9g7 2. b0c2 i9h9 *\n\n",
    // 2: P by another order (马八进七 first), in Chinese notation.
    "[Red \"b\"]\n1. 马八进七 马８进７ 2. 炮二平五 车９平８ *\n\n",
    // 3: P's mirror (炮八平五 马2进3 马二进三), in WXF.
    "[Red \"c\"]\n1. C8=5 H2+3 2. H2+3 *\n\n",
    // 4: the same placement as P with the other side to move: never.
    "[Red \"d\"]\n1. h2e2 *\n\n",
    // 5: P only in a variation.
    "[Red \"e\"]\n1. h2e2 h9g7 2. h0g2 (2. b0c2 i9h9) b9c7 *\n",
);

fn reaching(args: &[&str]) -> Vec<u64> {
    selected_from(ORDERS, args).0
}

#[test]
fn moves_select_the_games_reaching_their_position_by_any_order() {
    for p in [
        "炮二平五 马8进7 马八进七",
        "1. h2e2 h9g7 2. b0c2",
        "C2=5 H8+7 H8+7",
        "1.b0c2 h9g7 2.h2e2",
        "Che3 Hg8 Hc3",
    ] {
        assert_eq!(reaching(&["--moves", p]), [1, 2], "{p}");
    }
    assert_eq!(reaching(&["--moves", "h2e2 h9g7 b0c2", "--mirror"]), [1, 2, 3]);
    assert_eq!(reaching(&["--moves", "h2e2 h9g7 b0c2", "--in-variations"]), [1, 2, 5]);
    // Several sequences: a game reaching any of them.
    assert_eq!(reaching(&["--moves", "h2e2 h9g7 b0c2", "--moves", "b2e2 b9c7 h0g2"]), [1, 2, 3]);
    // The side to move counts: after one move, Black is to move.
    assert_eq!(reaching(&["--moves", "h2e2"]), [1, 4, 5]);
    let dir = tempfile_dir("moves-file");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# openings wanted\n炮二平五 马8进7 马八进七\n\n炮八平五 马2进3 马二进三\n")
        .unwrap();
    let (numbers, summary) = selected_from(ORDERS, &["--moves-file", file.to_str().unwrap()]);
    assert_eq!(numbers, [1, 2, 3]);
    assert!(summary.contains("3 selected, 2 left out"), "{summary}");
    // Every command takes it.
    let out = qipu()
        .args(["stats", "--format", "json", "--moves", "h2e2 h9g7 b0c2", "-"])
        .write_stdin(ORDERS)
        .output()
        .unwrap();
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["games"], 2, "{stats}");
}

#[test]
fn not_in_leaves_out_the_games_of_a_reference_collection() {
    let dir = tempfile_dir("not-in");
    // The reference: COPIES' game a (12 plies) under other tags, in a
    // folder, and game f.
    std::fs::create_dir_all(dir.join("ref/sub")).unwrap();
    std::fs::write(
        dir.join("ref/sub/old.pgn"),
        "[Red \"old\"]\n1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 5. h0g2 h9g7 6. g2h0 g7h9 1-0\n",
    )
    .unwrap();
    std::fs::write(dir.join("ref/short.pgn"), "1. g3g4 h9g7 2. h0g2 *\n").unwrap();
    let reference = dir.join("ref");
    let reference = reference.to_str().unwrap();
    let (numbers, summary) = selected_from(COPIES, &["--not-in", reference]);
    // a and b are the line again, f the short game; c (longer), d
    // (truncated) and e (the mirror) are not the same line.
    assert_eq!(numbers, [3, 4, 5], "{summary}");
    assert!(
        summary.contains("3 selected, 3 left out (3 in the reference collection of 2 games)"),
        "{summary}"
    );
    // The mirror too, with --dedupe=mirror (which also leaves out copies
    // among the games: none here but the reference's).
    let (numbers, _) = selected_from(COPIES, &["--not-in", reference, "--dedupe=line,mirror"]);
    assert_eq!(numbers, [3, 4]);
    // Without --dedupe, copies among the games themselves stay.
    let twice = format!("{COPIES}\n\n[Red \"g\"]\n1. g3g4 h9g7 *\n\n[Red \"h\"]\n1. g3g4 h9g7 *\n");
    let (numbers, _) = selected_from(&twice, &["--not-in", reference]);
    assert_eq!(numbers, [3, 4, 5, 7, 8]);
    // --invert first, then the reference: the games not by "a" that are new.
    let (numbers, _) = selected_from(COPIES, &["--not-in", reference, "--red", "^a$", "--invert"]);
    assert_eq!(numbers, [3, 4, 5]);
    // convert writes only the new games; merged with the reference they
    // hold no copy of its games.
    let out = qipu()
        .args(["convert", "--to", "pgn", "--not-in", reference, "-"])
        .write_stdin(COPIES)
        .output()
        .unwrap();
    let written = String::from_utf8(out.stdout).unwrap();
    assert_eq!(written.matches("[Red ").count(), 3, "{written}");
    assert!(written.contains("[Red \"c\"]") && !written.contains("[Red \"a\"]"));
    // The reference may be the output of an earlier run: nothing is left
    // out twice, nothing new is lost.
    let merged = dir.join("new.pgn");
    std::fs::write(&merged, &written).unwrap();
    let (numbers, _) = selected_from(COPIES, &["--not-in", reference, "--not-in", merged.to_str().unwrap()]);
    assert_eq!(numbers, Vec::<u64>::new());
}

#[test]
fn material_at_the_end_and_anywhere() {
    assert_eq!(games(&["--material", "RR vs K"]), [2]);
    assert_eq!(games(&["--material", "RR* vs K"]), [2]);
    // Game 7 ends with Red short of both cannons, Black of both horses; game 3
    // ends where its replay stops, with every piece.
    let full = "RRNNCCAABBPPPPP vs RRNNCCAABBPPPPP";
    assert_eq!(games(&["--material", full]), [1, 3, 4, 5, 6]);
    assert_eq!(games(&["--material", full, "--material-at", "any"]), [1, 3, 4, 5, 6, 7]);
    assert_eq!(games(&["--material", "R2N2A2B2P5 vs R2C2A2B2P5", "--material-at", "end"]), [7]);
    assert_eq!(games(&["--material", "R* vs N*"]), [1, 3, 4, 5, 6]);
    assert_eq!(games(&["--material", "R* vs N*", "--material-at", "any"]), [1, 3, 4, 5, 6, 7]);
}

#[test]
fn numbers_skip_limit_invert() {
    assert_eq!(games(&["--games", "2,4-5"]), [2, 4, 5]);
    assert_eq!(games(&["--games", "2,4-5", "--invert"]), [1, 3, 6, 7]);
    assert_eq!(games(&["--player", "许银川", "--invert"]), [2, 4, 6]);
    assert_eq!(games(&["--skip", "2"]), [3, 4, 5, 6, 7]);
    assert_eq!(games(&["--skip", "1", "--limit", "2"]), [2, 3]);
    assert_eq!(games(&["--player", "许银川", "--limit", "2"]), [1, 3]);
}

#[test]
fn the_summary_accounts_for_every_game_read() {
    let (_, summary) = selected(&["--player", "许银川"]);
    assert!(summary.contains("7 game(s): 6 valid, 1 illegal, 0 unreadable"), "{summary}");
    assert!(summary.contains("4 selected, 3 left out"), "{summary}");
    // --limit stops reading: the games read are those before the stop.
    let (_, summary) = selected(&["--limit", "1"]);
    assert!(summary.contains("1 selected, 0 left out"), "{summary}");
    // The input being read when the batch stops counts as read.
    let out = qipu().args(["fen", "--limit", "2", "-"]).write_stdin(GAMES).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("2 game(s): 2 valid, 0 illegal, 0 unreadable (1 input(s)); 2 selected, 0 left out"),
        "{err}"
    );
}

#[test]
fn exit_code_and_problems_follow_the_games_selected() {
    let run = |args: &[&str]| qipu().arg("validate").args(args).arg("-").write_stdin(GAMES).output().unwrap();
    let all = run(&[]);
    assert_eq!(all.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&all.stdout).contains("game 3"));
    let valid = run(&["--status", "valid"]);
    assert_eq!(valid.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&valid.stdout).contains("game 3"));
    let bad = run(&["--status", "illegal"]);
    assert_eq!(bad.status.code(), Some(1));
}

#[test]
fn every_batch_command_selects() {
    let run = |args: &[&str]| {
        let out = qipu().args(args).arg("-").write_stdin(GAMES).output().unwrap();
        (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    let (fen, err) = run(&["fen", "--player", "赵国荣"]);
    let sources: std::collections::BTreeSet<&str> =
        fen.lines().map(|l| l.split('\t').nth(1).unwrap_or("")).collect();
    assert_eq!(sources.into_iter().collect::<Vec<_>>(), ["4", "5"], "{fen}");
    assert!(err.contains("2 selected, 5 left out"), "{err}");
    let (pgn, err) = run(&["convert", "--to", "pgn", "--notation", "iccs", "--games", "2-3"]);
    assert_eq!(pgn.matches("[Event").count(), 2);
    assert!(pgn.contains("残局") && pgn.contains("全国团体赛") && err.contains("2 selected"), "{err}");
    let (stats, _) = run(&["stats", "--format", "json", "--result", "1-0"]);
    let v: serde_json::Value = serde_json::from_str(&stats).unwrap();
    assert_eq!(v["games"], 2, "{stats}");
    let (classify, _) = run(&["classify", "--red", "许银川"]);
    assert_eq!(classify.lines().count(), 3);
    let (tree, err) = run(&["openings", "--depth", "2", "--format", "json", "--player", "赵国荣"]);
    let root: serde_json::Value = serde_json::from_str(tree.lines().next().unwrap()).unwrap();
    assert_eq!(root["games"], 2, "{tree}");
    assert!(err.contains("2 selected"), "{err}");
}

#[test]
fn convert_writes_the_games_left_out_where_asked() {
    let dir = tempfile_dir("rejected");
    let (kept, rejected) = (dir.join("kept.pgn"), dir.join("rejected.pgn"));
    let out = qipu()
        .args(["convert", "--to", "pgn", "--notation", "iccs", "--player", "许银川", "-o"])
        .arg(&kept)
        .arg("--rejected")
        .arg(&rejected)
        .arg("-")
        .write_stdin(GAMES)
        .output()
        .unwrap();
    // Game 3 is still an illegal game: exit code 1, as without --rejected.
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("game 3") && err.contains("written to the rejected games"), "{err}");
    let (kept, rejected) =
        (std::fs::read_to_string(&kept).unwrap(), std::fs::read_to_string(&rejected).unwrap());
    // Games 1, 5, 7 are kept; 2, 4, 6 are not selected and 3 is illegal.
    assert_eq!(
        (
            kept.matches("[Red").count(),
            rejected.matches("[Red").count() + rejected.matches("[Site \"上海").count()
        ),
        (3, 4)
    );
    assert!(rejected.contains("全国团体赛") && !kept.contains("全国团体赛"));
    // Never the same file, never an input.
    let same =
        qipu().args(["convert", "--to", "pgn", "--rejected", "-", "-"]).write_stdin(GAMES).output().unwrap();
    assert_eq!(same.status.code(), Some(2));
}

#[test]
fn openings_tells_that_plies_selects_and_depth_is_the_depth() {
    let out = qipu().args(["openings", "--plies", "3", "-"]).write_stdin(GAMES).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--plies 3 selects the games of 3 plies") && err.contains("--depth"), "{err}");
    assert!(err.contains("1 selected, 6 left out"), "{err}");
}

#[test]
fn bad_criteria_are_usage_errors_that_say_why() {
    for (args, says) in [
        (&["--date", "soon"][..], "date"),
        (&["--plies", "9..3"][..], "larger"),
        (&["--ecco", "Z10"][..], "ECCO"),
        (&["--material", "RRR vs K"][..], "at most 2 rooks"),
        (&["--tag", "Event"][..], "NAME=REGEX"),
        (&["--player", "("][..], "regular expression"),
        (&["--position", "not a fen"][..], "--position"),
        (&["--games", "0"][..], "game numbers"),
        (&["--mirror"][..], "--position"),
        (&["--in-variations"][..], "--in-variations needs --position or --moves"),
        (&["--moves", "h2e2 h9g7 h0g4"][..], "--moves \"h2e2 h9g7 h0g4\": move 3 \"h0g4\""),
        (&["--moves", "1."][..], "no move"),
        (&["--moves", "h2e2", "--position", "x"][..], "cannot be used with"),
        (&["--moves-file", "/no/such/moves.txt"][..], "--moves-file \"/no/such/moves.txt\": cannot read it"),
        (&["--not-in", "/no/such/reference.pgn"][..], "--not-in /no/such/reference.pgn: "),
    ] {
        let out = qipu().arg("validate").args(args).arg("-").write_stdin(GAMES).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn option_errors_are_told_with_the_flags_names_first_one_first() {
    for (args, says) in [
        (&["--mirror"][..], "qipu: error: --mirror needs --position or --moves (or openings --suite)\n"),
        (
            &["--mirror", "--tag", "Event"][..],
            "qipu: error: --mirror needs --position or --moves (or openings --suite)\n",
        ),
        (
            &["--tag", "Event", "--position", "x"][..],
            "qipu: error: --tag \"Event\": write NAME=REGEX, as Event=全国\n",
        ),
        (
            &["--red", "[", "--tag", "Red=("][..],
            "qipu: error: --regular expression \"(\": error: unclosed group\n",
        ),
        (
            &["--site", "(", "--position", "x"][..],
            "qipu: error: --regular expression \"(\": error: unclosed group\n",
        ),
        (
            &["--position", "xx", "--mirror"][..],
            "qipu: error: --position \"xx\": FEN placement field: expected 10 ranks separated by '/', found 1\n",
        ),
    ] {
        let out = qipu().arg("validate").args(args).arg("-").write_stdin(GAMES).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), says, "{args:?}");
    }
}

#[test]
fn help_shows_the_selection_flags_once_under_their_heading() {
    for command in ["validate", "fen", "convert", "stats", "classify", "openings"] {
        let out = qipu().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8(out.stdout).unwrap();
        assert_eq!(help.matches("Selection (which games the command works on):").count(), 1, "{command}");
        let after = help.split("Selection (which games").nth(1).unwrap();
        for flag in [
            "--tag",
            "--player",
            "--date",
            "--result",
            "--termination",
            "--status",
            "--ecco",
            "--opening",
            "--plies",
            "--position",
            "--material",
            "--games",
            "--invert",
            "--skip",
            "--limit",
        ] {
            let listed =
                help.lines().filter(|l| l.trim_start().split([' ', ',']).next() == Some(flag)).count();
            assert_eq!(listed, 1, "{command}: {flag} listed once");
            assert!(after.contains(flag), "{command}: {flag} under the heading");
        }
    }
}

/// A fresh directory under the target's temporary folder.
fn tempfile_dir(name: &str) -> std::path::PathBuf {
    crate::common::scratch(&format!("select-{name}"))
}

#[test]
fn dedupe_keeps_the_first_of_each_group_of_copies() {
    // Game 6 (12 plies) again under other tags, and again from another start.
    let copy =
        "[Red \"某甲\"]\n1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 5. h0g2 h9g7 6. g2h0 g7h9 *\n";
    let other_start = "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b\"]\n1. h9g7 h0g2 2. g7h9 g2h0 3. h9g7 h0g2 4. g7h9 g2h0 5. h9g7 h0g2 6. g7h9 g2h0 *\n";
    let input = format!("{GAMES}\n{copy}\n{other_start}");
    let run = |args: &[&str]| {
        let out = qipu()
            .arg("validate")
            .args(args)
            .args(["--format", "json", "-"])
            .write_stdin(input.clone())
            .output()
            .unwrap();
        let numbers: Vec<u64> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["index"].as_u64().unwrap() + 1)
            .collect();
        (numbers, String::from_utf8(out.stderr).unwrap())
    };
    let (numbers, err) = run(&["--dedupe"]);
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7, 9], "{err}");
    assert!(err.contains("8 selected, 1 left out (1 as copies)"), "{err}");
    // Copies are looked for among the games selected: without game 6, game 8 is the first.
    let (numbers, _) = run(&["--dedupe", "--games", "1-5,7-9"]);
    assert_eq!(numbers, [1, 2, 3, 4, 5, 7, 8, 9]);
    // The same count as `qipu duplicates` finds on the fixture.
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pgn");
    let groups = qipu().args(["duplicates", "--format", "json", fixture]).output().unwrap();
    let copies: usize = String::from_utf8(groups.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["members"].as_array().unwrap().len() - 1
        })
        .sum();
    let deduped = qipu().args(["convert", "--to", "pgn", "--dedupe", fixture]).output().unwrap();
    let written = String::from_utf8(deduped.stdout).unwrap().matches("[Event").count();
    assert!(copies > 0);
    assert_eq!(written, 1391 - copies, "{}", String::from_utf8_lossy(&deduped.stderr));
}

/// Copies of one 12-ply line: the line again with a comment, a longer
/// game it is the start of, a truncated copy, its mirror; and a short game.
const COPIES: &str = concat!(
    "[Red \"a\"]\n1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 5. h0g2 h9g7 6. g2h0 g7h9 *\n\n",
    "[Red \"b\"]\n{a note} 1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 5. h0g2 h9g7 6. g2h0 g7h9 *\n\n",
    "[Red \"c\"]\n1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 5. h0g2 h9g7 6. g2h0 g7h9 7. h0g2 h9g7 *\n\n",
    "[Red \"d\"]\n1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 5. h0g2 h9g7 *\n\n",
    "[Red \"e\"]\n1. b0c2 b9c7 2. c2b0 c7b9 3. b0c2 b9c7 4. c2b0 c7b9 5. b0c2 b9c7 6. c2b0 c7b9 *\n\n",
    "[Red \"f\"]\n1. g3g4 h9g7 2. h0g2 *\n",
);

/// The numbers (from 1) of the games `validate` selects from `input` on
/// standard input with `args`, and the summary line.
fn selected_from(input: &str, args: &[&str]) -> (Vec<u64>, String) {
    let out = qipu()
        .arg("validate")
        .args(args)
        .args(["--format", "json", "-"])
        .write_stdin(input)
        .output()
        .unwrap();
    let numbers = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["index"].as_u64().unwrap() + 1)
        .collect();
    (numbers, String::from_utf8(out.stderr).unwrap())
}

/// The numbers (from 1) of the games `qipu duplicates` leaves out of
/// `input` (the members of a group that are not kept).
fn copies_found(input: &str, args: &[&str]) -> Vec<u64> {
    let out = qipu()
        .args(["duplicates", "--format", "json"])
        .args(args)
        .arg("-")
        .write_stdin(input)
        .output()
        .unwrap();
    let mut copies: Vec<u64> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .flat_map(|l| {
            let group: serde_json::Value = serde_json::from_str(l).unwrap();
            let members = group["members"].as_array().unwrap().clone();
            members
                .into_iter()
                .filter(|m| !m["kept"].as_bool().unwrap())
                .map(|m| m["index"].as_u64().unwrap() + 1)
        })
        .collect();
    copies.sort_unstable();
    copies
}

#[test]
fn dedupe_by_every_kind_and_keep_policy_leaves_out_what_duplicates_finds() {
    let all: Vec<u64> = (1..=6).collect();
    let cases: [(&str, &str, &str, &[u64]); 8] = [
        ("line", "line", "first", &[2]),
        ("line", "line", "most-annotated", &[1]),
        ("line", "line", "longest", &[2]),
        ("line,truncated", "line,truncated", "first", &[1, 2, 4]),
        ("line,truncated", "line,truncated", "most-annotated", &[1, 2, 4]),
        ("line,mirror", "line", "first", &[2, 5]),
        ("final", "final", "first", &[2, 5]),
        ("line,final,truncated,mirror", "line,final,truncated", "longest", &[1, 2, 4, 5]),
    ];
    for (dedupe, by, keep, left_out) in cases {
        let mirror = if dedupe.contains("mirror") { &["--mirror"][..] } else { &[] };
        let found = copies_found(COPIES, &[&["--by", by, "--keep", keep][..], mirror].concat());
        assert_eq!(found, left_out, "duplicates --by {by} --keep {keep}");
        let (numbers, err) = selected_from(COPIES, &[&format!("--dedupe={dedupe}"), "--keep", keep]);
        let expected: Vec<u64> = all.iter().copied().filter(|n| !left_out.contains(n)).collect();
        assert_eq!(numbers, expected, "--dedupe={dedupe} --keep {keep}: {err}");
        let summary = format!(
            "{} selected, {} left out ({} as copies)",
            expected.len(),
            left_out.len(),
            left_out.len()
        );
        assert!(err.contains(&summary), "{err}");
    }
    // With --skip and --limit counted over the games left: the first two that are no copies.
    let (numbers, _) =
        selected_from(COPIES, &["--dedupe=line,truncated", "--keep", "longest", "--limit", "2"]);
    assert_eq!(numbers, [3, 5]);
    // Copies are looked for among the candidates only: without game 3, game 1 is the longest kept.
    let (numbers, _) =
        selected_from(COPIES, &["--dedupe=line,truncated", "--keep", "longest", "--games", "1,2,4-6"]);
    assert_eq!(numbers, [1, 5, 6]);
    let (numbers, _) =
        selected_from(COPIES, &["--dedupe=line,truncated", "--keep", "most-annotated", "--red", "^[abd]$"]);
    assert_eq!(numbers, [2]);
    // --keep without --dedupe is a usage error.
    qipu().args(["validate", "--keep", "longest", "-"]).write_stdin(COPIES).assert().code(2);
}

#[test]
fn every_batch_command_leaves_the_planned_copies_out() {
    let dir = std::env::temp_dir().join(format!("qipu-test-dedupe-plan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("copies.pgn");
    std::fs::write(&file, COPIES).unwrap();
    let file = file.to_str().unwrap();
    let flags = ["--dedupe=line,truncated", "--keep", "longest"];
    for command in
        [&["validate"][..], &["fen"], &["stats"], &["classify"], &["openings"], &["convert", "--to", "pgn"]]
    {
        let out = qipu().args(command).args(flags).arg(file).output().unwrap();
        // validate prints its summary with the report, the others on standard error.
        let said = String::from_utf8_lossy(&out.stderr) + String::from_utf8_lossy(&out.stdout);
        assert!(said.contains("3 selected, 3 left out (3 as copies)"), "{command:?}: {said}");
    }
    let out = qipu().args(["convert", "--to", "pgn"]).args(flags).arg(file).output().unwrap();
    let written = String::from_utf8(out.stdout).unwrap();
    assert_eq!(written.matches("[Red \"").count(), 3);
    assert!(written.contains("[Red \"c\"]") && !written.contains("[Red \"a\"]"));
    let xqf = dir.join("xqf");
    let out = qipu()
        .args(["convert", "--to", "xqf", "-o", xqf.to_str().unwrap()])
        .args(flags)
        .arg(file)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("3 as copies"));
    assert_eq!(std::fs::read_dir(&xqf).unwrap().count(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

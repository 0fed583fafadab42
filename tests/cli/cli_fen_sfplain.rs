//! `qipu fen --format sf-plain`, Stockfish's "plain" training text, end to
//! end: each record checked against the position, move, check and capture
//! the test finds by playing the game itself, the score against the
//! comment's evaluation turned to the side to move, the result against the
//! game's; the filters, the games without a result, and the usage errors.

use crate::common::{Rng, qipu, stderr, stdout};
use qipu::{Color, Move, Position};

/// One record of the output: its six lines read.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Record {
    fen: String,
    mv: String,
    score: i32,
    ply: usize,
    result: i32,
}

/// The records of sf-plain output, each exactly `fen`, `move`, `score`,
/// `ply`, `result`, `e`, in that order.
fn records(text: &str) -> Vec<Record> {
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len().is_multiple_of(6), "{text}");
    lines
        .chunks(6)
        .map(|r| {
            let field = |k: usize, key: &str| {
                r[k].strip_prefix(key).and_then(|v| v.strip_prefix(' ')).unwrap_or_else(|| panic!("{r:?}"))
            };
            assert_eq!(r[5], "e", "{r:?}");
            Record {
                fen: field(0, "fen").to_string(),
                mv: field(1, "move").to_string(),
                score: field(2, "score").parse().unwrap(),
                ply: field(3, "ply").parse().unwrap(),
                result: field(4, "result").parse().unwrap(),
            }
        })
        .collect()
}

/// `qipu fen --format sf-plain - ARGS` on `pgn`: exit code, output, errors.
fn plain(pgn: &str, args: &[&str]) -> (i32, String, String) {
    let out = qipu()
        .args(["fen", "--format", "sf-plain", "-"])
        .args(args)
        .write_stdin(pgn.to_string())
        .output()
        .unwrap();
    (out.status.code().unwrap(), stdout(&out), stderr(&out))
}

/// The positions a game's main line passes through, from the start.
fn positions(moves: &[&str]) -> Vec<Position> {
    let mut pos = Position::start();
    let mut all = vec![pos.clone()];
    for m in moves {
        let _ = pos.play_unchecked(m.parse().unwrap());
        all.push(pos.clone());
    }
    all
}

#[test]
fn each_position_a_move_was_played_from_with_that_move_its_score_and_result() {
    // The comment after a move evaluates the position it led to, from Red's view.
    let pgn =
        "[Result \"1-0\"]\n\n1. h2e2 {+0.38/19} h9g7 {好棋 [%eval 0.52,18]} 2. h0g2 {#-3} i9h9 {+1.00} 1-0\n";
    let (code, out, err) = plain(pgn, &[]);
    assert_eq!(code, 0, "{err}");
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9"];
    let pos = positions(&moves);
    let expected: Vec<Record> = [
        // The start: no comment evaluates it.
        (0, 32002, 1),
        // After h2e2, Black to move: Red's +0.38 is -38 for Black, and Red's win a loss.
        (1, -38, -1),
        (2, 52, 1),
        // Black mates in 3 (Red's #-3): Black to move mates on its 5th ply.
        (3, 32000 - 5, -1),
    ]
    .into_iter()
    .map(|(ply, score, result)| Record {
        fen: pos[ply].fen(),
        mv: moves[ply].to_string(),
        score,
        ply,
        result,
    })
    .collect();
    // The last position (after i9h9) had no move played from it.
    assert_eq!(records(&out), expected);
}

#[test]
fn results_are_from_the_side_to_moves_view_and_a_draw_is_zero() {
    for (result, red, black) in [("1-0", 1, -1), ("0-1", -1, 1), ("1/2-1/2", 0, 0)] {
        let pgn =
            format!("[Result \"{result}\"]\n\n1. h2e2 {{-0.20}} h9g7 {{[%eval #2]}} 2. h0g2 {result}\n");
        let (code, out, err) = plain(&pgn, &[]);
        assert_eq!(code, 0, "{err}");
        let got: Vec<(usize, i32, i32)> = records(&out).iter().map(|r| (r.ply, r.score, r.result)).collect();
        // Red mates in 2 with Red to move: its 3rd ply.
        assert_eq!(got, [(0, 32002, red), (1, 20, black), (2, 32000 - 3, red)], "{result}");
    }
}

#[test]
fn scores_are_the_json_evaluations_turned_to_the_side_to_move() {
    let evals = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/evals.pgn");
    let out = qipu().args(["fen", evals, "--format", "json"]).output().unwrap();
    assert!(out.status.success());
    let json: Vec<serde_json::Value> =
        stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let out = qipu().args(["fen", evals, "--format", "sf-plain"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // The third game's result is `*`.
    assert!(stderr(&out).contains("1 game without a result skipped"), "{}", stderr(&out));
    let got = records(&stdout(&out));
    // Games 1 and 2: each position but the last of each.
    let lines: Vec<&serde_json::Value> = json.iter().filter(|l| l["index"] != 2).collect();
    let written: Vec<&&serde_json::Value> = lines
        .iter()
        .zip(lines.iter().skip(1))
        .filter(|(l, next)| l["index"] == next["index"])
        .map(|(l, _)| l)
        .collect();
    assert_eq!(got.len(), written.len());
    let mut evaluated = 0;
    for (record, line) in got.iter().zip(written) {
        assert_eq!(record.fen, line["fen"].as_str().unwrap());
        assert_eq!(record.ply as u64, line["ply"].as_u64().unwrap());
        let sign = if line["side"] == "red" { 1 } else { -1 };
        let red_result = match line["result"].as_str().unwrap() {
            "1-0" => 1,
            "0-1" => -1,
            other => panic!("{other}"),
        };
        assert_eq!(record.result, sign * red_result);
        let expected = match (line["eval"].get("cp"), line["eval"].get("mate")) {
            (Some(cp), _) => sign * cp.as_i64().unwrap() as i32,
            (_, Some(mate)) => {
                let n = sign * mate.as_i64().unwrap() as i32;
                if n > 0 { 32000 - (2 * n - 1) } else { -(32000 + 2 * n) }
            }
            _ => 32002,
        };
        evaluated += usize::from(expected != 32002);
        assert_eq!(record.score, expected, "{record:?} {line}");
    }
    assert!(evaluated >= 3, "{evaluated}");
}

#[test]
fn games_without_a_result_are_skipped_and_counted() {
    let pgn = "[Result \"*\"]\n\n1. h2e2 h9g7 *\n\n1. c3c4 b9c7 2. b0c2 0-1\n\n1. h2e2 h9g7\n";
    let (code, out, err) = plain(pgn, &[]);
    assert_eq!(code, 0, "{err}");
    let got = records(&out);
    let moves: Vec<&str> = got.iter().map(|r| r.mv.as_str()).collect();
    assert_eq!(moves, ["c3c4", "b9c7", "b0c2"]);
    assert!(err.contains("2 games without a result skipped"), "{err}");
    // None skipped: no such line.
    let (_, _, err) = plain("1. c3c4 b9c7 1-0\n", &[]);
    assert!(!err.contains("without a result"), "{err}");
}

/// A random game of up to `plies` moves, as PGN with an evaluation after
/// some moves, and what the test knows of each position: the position,
/// the move played from it, and its evaluation from Red's view (pawns).
struct Game {
    pgn: String,
    positions: Vec<(Position, Move, Option<i32>)>,
    red_result: i32,
}

fn random_game(rng: &mut Rng, plies: usize) -> Game {
    let mut pos = Position::start();
    let mut text = String::new();
    let mut positions = Vec::new();
    let mut eval = None;
    for ply in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        // Captures when there are some, more often than chance, to have many.
        let captures: Vec<Move> =
            legal.iter().copied().filter(|m| pos.board().piece_at(m.to).is_some()).collect();
        let m = if !captures.is_empty() && rng.below(2) == 0 {
            captures[rng.below(captures.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        positions.push((pos.clone(), m, eval));
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(&format!("{m} "));
        let _ = pos.play_unchecked(m);
        eval = (rng.below(3) > 0).then(|| rng.below(801) as i32 - 400);
        if let Some(cp) = eval {
            let sign = if cp < 0 { "-" } else { "+" };
            text.push_str(&format!("{{{sign}{}.{:02}}} ", cp.abs() / 100, cp.abs() % 100));
        }
    }
    let (red_result, result) = [(1, "1-0"), (-1, "0-1"), (0, "1/2-1/2")][rng.below(3)];
    Game { pgn: format!("[Result \"{result}\"]\n\n{text}{result}\n\n"), positions, red_result }
}

#[test]
fn filters_leave_out_the_positions_in_check_before_a_capture_early_or_without_a_score() {
    let mut rng = Rng(0x5f_91a7);
    let games: Vec<Game> = (0..30)
        .map(|_| {
            let plies = 2 + rng.below(60);
            random_game(&mut rng, plies)
        })
        .collect();
    let pgn: String = games.iter().map(|g| g.pgn.as_str()).collect();
    type Keep = fn(&Position, Move, Option<i32>, usize) -> bool;
    let cases: [(&[&str], Keep); 6] = [
        (&[], |_, _, _, _| true),
        (&["--skip-check"], |p, _, _, _| !p.is_check()),
        (&["--skip-capture"], |p, m, _, _| p.board().piece_at(m.to).is_none()),
        (&["--min-ply", "7"], |_, _, _, ply| ply >= 7),
        (&["--require-eval"], |_, _, e, _| e.is_some()),
        (&["--skip-check", "--skip-capture", "--min-ply", "3", "--require-eval"], |p, m, e, ply| {
            !p.is_check() && p.board().piece_at(m.to).is_none() && ply >= 3 && e.is_some()
        }),
    ];
    let mut all = 0;
    for (args, keep) in cases {
        let (code, out, err) = plain(&pgn, args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let mut expected = Vec::new();
        for game in &games {
            for (ply, (pos, m, eval)) in game.positions.iter().enumerate() {
                if !keep(pos, *m, *eval, ply) {
                    continue;
                }
                let sign = if pos.turn() == Color::Red { 1 } else { -1 };
                expected.push(Record {
                    fen: pos.fen(),
                    mv: m.to_string(),
                    score: eval.map_or(32002, |cp| sign * cp),
                    ply,
                    result: sign * game.red_result,
                });
            }
        }
        let got = records(&out);
        assert_eq!(got, expected, "{args:?}");
        if args.is_empty() {
            all = got.len();
        } else {
            // Each filter leaves something out of these games.
            assert!(got.len() < all, "{args:?}: {} of {all}", got.len());
        }
    }
    let in_check = games.iter().flat_map(|g| &g.positions).filter(|(p, _, _)| p.is_check()).count();
    assert!(in_check > 3, "{in_check} positions in check");
}

#[test]
fn all_lines_other_notations_and_filters_of_other_formats_are_usage_errors() {
    let (code, out, err) = plain("1. h2e2 h9g7 1-0\n", &["--all-lines"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("--all-lines cannot be given with --format sf-plain"), "{err}");
    let (code, _, err) = plain("1. h2e2 h9g7 1-0\n", &["--notation", "chinese"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("UCI coordinates"), "{err}");
    // ICCS (the default) and UCI are both written as UCI.
    for notation in ["iccs", "uci"] {
        let (code, out, err) = plain("1. h2e2 h9g7 1-0\n", &["--notation", notation]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(records(&out)[0].mv, "h2e2");
    }
    for (flag, value) in
        [("--skip-check", None), ("--skip-capture", None), ("--min-ply", Some("4")), ("--require-eval", None)]
    {
        for format in ["text", "json", "csv", "epd"] {
            let out = qipu()
                .args(["fen", "-", "--format", format, flag])
                .args(value)
                .write_stdin("1. h2e2 h9g7 1-0\n")
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{flag} {format}");
            assert!(stdout(&out).is_empty());
            assert!(stderr(&out).contains(&format!("{flag} is for --format sf-plain")), "{}", stderr(&out));
        }
    }
}

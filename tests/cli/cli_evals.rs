//! Engine evaluations in comments, as the commands show them: `convert
//! --to json` and `fen --format jsonl` give each move whose comment holds
//! one an `eval` object (the others as before), `stats` reports the engine
//! analysis tags and the evaluated moves (text, JSON, HTML), on
//! `tests/data/evals.pgn`.

use crate::common::qipu;
use serde_json::{Value, json};

const EVALS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/evals.pgn");

/// What `qipu ARGS` writes on standard output (it must succeed).
fn stdout(args: &[&str]) -> String {
    let out = qipu().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

#[test]
fn json_records_give_each_moves_evaluation() {
    let games = json_lines(&stdout(&["convert", EVALS, "--to", "json"]));
    let evals = |game: &Value| -> Vec<(String, Value)> {
        game["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (n["move"].as_str().unwrap().to_string(), n.get("eval").cloned().unwrap_or(Value::Null)))
            .collect()
    };
    let first: Vec<(String, Value)> = [
        ("h2e2", json!({"cp": 38, "depth": 18})),
        ("h9g7", json!({"cp": 40, "depth": 18})),
        ("h0g2", json!({"cp": -120, "depth": 18})),
        // `2019.05 北京`: a date, not an evaluation.
        ("i9h9", Value::Null),
        // The variation's move.
        ("b9c7", json!({"mate": -3})),
    ]
    .into_iter()
    .map(|(m, v)| (m.to_string(), v))
    .collect();
    assert_eq!(evals(&games[0]), first);
    assert_eq!(evals(&games[1])[0].1, json!({"mate": 5, "depth": 30}));
    // No evaluation (`1. 炮二平五 35 2-1` is none): no `eval` key at all.
    assert_eq!(evals(&games[2]), [("c3c4".to_string(), Value::Null)]);
    let text = stdout(&["convert", EVALS, "--to", "json"]);
    let third = text.lines().nth(2).unwrap();
    assert!(!third.contains("\"eval\""), "{third}");
    assert!(
        third.ends_with(r#""comment":"1. 炮二平五 35 2-1","comment_before":null,"nags":[]}]}"#),
        "{third}"
    );
}

#[test]
fn fen_json_lines_give_the_evaluation_of_the_move_that_led_there() {
    let lines = json_lines(&stdout(&["fen", EVALS, "--format", "jsonl"]));
    let first: Vec<(u64, Value)> = lines
        .iter()
        .filter(|l| l["index"] == 0)
        .map(|l| (l["ply"].as_u64().unwrap(), l.get("eval").cloned().unwrap_or(Value::Null)))
        .collect();
    assert_eq!(
        first,
        [
            (0, Value::Null),
            (1, json!({"cp": 38, "depth": 18})),
            (2, json!({"cp": 40, "depth": 18})),
            (3, json!({"cp": -120, "depth": 18})),
            (4, Value::Null),
        ]
    );
    // The key sits between `side` and `result`; lines without one are as before.
    let text = stdout(&["fen", EVALS, "--format", "jsonl"]);
    let second = text.lines().nth(1).unwrap();
    assert!(second.ends_with(r#""side":"black","eval":{"cp":38,"depth":18},"result":"1-0"}"#), "{second}");
    let last = text.lines().last().unwrap();
    assert!(last.ends_with(r#""side":"black","result":"*"}"#), "{last}");
    // With every line, the variation's move has its own.
    let all = json_lines(&stdout(&["fen", EVALS, "--format", "jsonl", "--all-lines"]));
    let variation: Vec<&Value> = all.iter().filter(|l| l["line"] == "1").collect();
    assert_eq!(variation.len(), 1);
    assert_eq!(variation[0]["eval"], json!({"mate": -3}));
    // Other formats are unchanged.
    assert!(!stdout(&["fen", EVALS, "--format", "csv"]).contains("eval\""));
}

#[test]
fn stats_report_the_engine_analysis() {
    let text = stdout(&["stats", EVALS]);
    let section = text.split("\nengine analysis (Red / Black)\n").nth(1).expect("the section");
    let rows: Vec<&str> = section.lines().map(str::trim_end).collect();
    assert_eq!(
        rows,
        [
            "  games annotated                           2",
            "  main-line moves with an evaluation        4",
            "  mean ACPL                              26.5 / 41.0",
            "  mean accuracy                         89.6% / 84.0%",
            "  inaccuracies                              2 / 3",
            "  mistakes                                  1 / 2",
            "  blunders                                  2 / 1",
            "",
            "annotators (engine and limit)",
            "  Pikafish 2024-06, depth 18                2",
        ]
    );
    let json: Value = serde_json::from_str(&stdout(&["stats", EVALS, "--format", "json"])).unwrap();
    assert_eq!(
        json["engine_analysis"],
        json!({
            "games": 2,
            "evaluated_moves": 4,
            "red": {"mean_acpl": 26.5, "mean_accuracy": 89.6, "inaccuracies": 2, "mistakes": 1, "blunders": 2},
            "black": {"mean_acpl": 41.0, "mean_accuracy": 84.0, "inaccuracies": 3, "mistakes": 2, "blunders": 1},
            "annotators": [{"name": "Pikafish 2024-06, depth 18", "games": 2}],
        })
    );
    let html = stdout(&["stats", EVALS, "--format", "html"]);
    assert!(html.contains("<h2>Engine analysis</h2>"));
    assert!(
        html.contains("<tr><td>mean ACPL</td><td class=\"n\">26.5</td><td class=\"n\">41.0</td></tr>"),
        "{html}"
    );
}

#[test]
fn stats_without_engine_analysis_say_nothing_of_it() {
    let plain = "[Annotator \"王嘉良\"]\n1. 炮二平五 {好棋} 马８进７ {35} *\n";
    for format in ["text", "json", "html"] {
        let out = qipu().args(["stats", "-", "--format", format]).write_stdin(plain).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.to_lowercase().contains("engine"), "{format}: {text}");
        assert!(!text.contains("annotat"), "{format}: {text}");
    }
}

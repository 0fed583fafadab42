//! Repetition rulings told to the user: `--rules`, `validate`'s text and
//! JSON, `--termination` and `stats`.

use crate::common::qipu;

use crate::common::scratch;

/// Red's rook checks on g9 and g5 while Black's rook covers f9 and f5:
/// Red checks perpetually, and loses.
fn perpetual_check(result: &str) -> String {
    format!(
        "[FEN \"3ak3C/4a2R1/9/4p3p/2r1rcR2/4C4/1n2P3P/B3B4/4A4/1c2KA3 w - - 0 1\"]\n[Result \"{result}\"]\n\
         1. g5g9 f5f9 2. g9g5 f9f5 3. g5g9 f5f9 4. g9g5 f9f5 5. g5g9 {result}\n"
    )
}

const EXPLANATION: &str = "Red checks perpetually (长将, 4 checks in 4 moves); Black breaks no rule (4 idle \
                           moves), plies 1-8: Red loses";

fn game_file(name: &str, result: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let path = dir.join("pc.pgn");
    std::fs::write(&path, perpetual_check(result)).unwrap();
    path
}

fn rules_name(rules: &str) -> &'static str {
    if rules == "chinese" { "Chinese rules" } else { "Asian rules" }
}

#[test]
fn a_win_for_the_side_checking_perpetually_is_a_result_conflict() {
    let path = game_file("rulings-1-0", "1-0");
    for rules in ["asian", "chinese"] {
        let out = qipu().args(["validate", "--rules", rules]).arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "a warning is no error");
        let text = String::from_utf8(out.stdout).unwrap();
        let expected = format!(
            "{}: warning: game 1: result 1-0 contradicts the repetition ruling: {EXPLANATION} ({})\n\
             1 game(s): 1 valid, 0 illegal, 0 unreadable (1 input(s))\n",
            path.display(),
            rules_name(rules)
        );
        assert_eq!(text, expected, "{rules}");

        let out =
            qipu().args(["validate", "--format", "json", "--rules", rules]).arg(&path).output().unwrap();
        let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(line["termination"], "perpetual-check");
        assert_eq!(line["rules"], rules);
        assert!(line["result_conflict"].as_str().unwrap().contains(EXPLANATION));
        assert_eq!(line["final_ruling"], 0);
        assert_eq!(line["move_limit_at"], serde_json::Value::Null);
        assert_eq!(line["dead_draw_at"], serde_json::Value::Null);
        let ruling = &line["rulings"][0];
        assert_eq!(ruling["plies"], serde_json::json!([0, 4, 8]));
        assert_eq!(ruling["end"], 8);
        assert_eq!(ruling["verdict"], "red-loses");
        assert_eq!(ruling["kind"], "perpetual-check");
        assert_eq!(
            ruling["red"],
            serde_json::json!({"moves": 4, "checks": 4, "chases": 0, "mate_threats": 0, "idle": 0,
                               "violation": "perpetual-check", "chased": []})
        );
        assert_eq!(ruling["black"]["idle"], 4);
        assert_eq!(ruling["black"]["violation"], serde_json::Value::Null);
        assert_eq!(ruling["explanation"], format!("{EXPLANATION} ({})", rules_name(rules)));
    }
}

#[test]
fn a_win_for_the_other_side_is_no_conflict_but_a_note() {
    let path = game_file("rulings-0-1", "0-1");
    let out = qipu().arg("validate").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let expected = format!(
        "{}: note: game 1: forbidden repetition: {EXPLANATION} (Asian rules)\n\
         1 game(s): 1 valid, 0 illegal, 0 unreadable (1 input(s))\n",
        path.display()
    );
    assert_eq!(text, expected);
    let out = qipu().args(["validate", "--format", "json"]).arg(&path).output().unwrap();
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["result_conflict"], serde_json::Value::Null);
    assert_eq!(line["rulings"][0]["verdict"], "red-loses");
}

#[test]
fn a_draw_is_a_conflict_when_one_side_alone_broke_the_rules() {
    let path = game_file("rulings-draw", "1/2-1/2");
    for rules in ["asian", "chinese"] {
        let out = qipu().args(["validate", "--rules", rules]).arg(&path).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.starts_with(&format!(
                "{}: warning: game 1: result 1/2-1/2 contradicts the repetition ruling, in which one side alone \
                 broke the rules: {EXPLANATION}",
                path.display()
            )),
            "{text}"
        );
        assert_eq!(text.lines().count(), 2, "no note besides the conflict: {text}");
    }
}

#[test]
fn a_game_without_a_ruling_has_empty_ruling_keys() {
    let dir = scratch("rulings-none");
    let path = dir.join("a.pgn");
    std::fs::write(&path, "1. h2e2 h9g7 *\n").unwrap();
    let out = qipu().args(["validate", "--format", "json"]).arg(&path).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with(
            "\"warnings\":[],\"result_conflict\":null,\"rules\":\"asian\",\"rulings\":[],\"final_ruling\":null,\
             \"move_limit_at\":null,\"dead_draw_at\":null}\n"
        ),
        "{text}"
    );
}

#[test]
fn termination_selects_perpetual_checks() {
    let path = game_file("rulings-select", "1-0");
    let other = path.with_file_name("b.pgn");
    std::fs::write(&other, "1. h2e2 h9g7 *\n").unwrap();
    for rules in ["asian", "chinese"] {
        let out = qipu()
            .args(["validate", "--format", "json", "--termination", "perpetual-check", "--rules", rules])
            .arg(&path)
            .arg(&other)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.contains("\"termination\":\"perpetual-check\""), "{text}");
        assert!(String::from_utf8(out.stderr).unwrap().contains("1 selected, 1 left out"));
    }
    // Converted whole records are judged by the same rules.
    let out = qipu()
        .args(["convert", "--to", "pgn", "--termination", "perpetual-check,dead-draw", "--rules", "chinese"])
        .arg(&path)
        .arg(&other)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("[FEN").count(), 1, "{text}");
}

#[test]
fn stats_count_the_rulings() {
    let path = game_file("rulings-stats", "1-0");
    let out = qipu().args(["stats", "--format", "json"]).arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["repetition_rulings"],
        serde_json::json!({
            "by_kind": {"perpetual-check by Red": 1},
            "rulings": 1,
            "games_with_rulings": 1,
            "games_ending_in_ruling": 1,
            "games_with_forbidden_repetition": 1,
            "move_limit_reached": 0,
            "dead_draws": 0,
        })
    );
    let out = qipu().args(["stats", "--rules", "chinese"]).arg(&path).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\nrepetition rulings\n  perpetual-check by Red"), "{text}");
    assert!(text.contains("  games ending in a ruling                1  100.0%\n"), "{text}");
    let out = qipu().args(["stats", "--format", "html"]).arg(&path).output().unwrap();
    let html = String::from_utf8(out.stdout).unwrap();
    assert!(html.contains("Repetition rulings") && html.contains("perpetual-check by Red"));
}

#[test]
fn rules_are_asian_or_chinese() {
    let path = game_file("rulings-args", "0-1");
    for command in ["validate", "stats", "fen", "convert", "classify"] {
        let mut cmd = qipu();
        cmd.args([command, "--rules", "chinese"]).arg(&path);
        if command == "convert" {
            cmd.args(["--to", "pgn"]);
        }
        assert_eq!(cmd.output().unwrap().status.code(), Some(0), "{command}");
        let out = qipu().args([command, "--rules", "foo"]).arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("--rules") && err.contains("asian or chinese"), "{command}: {err}");
    }
    let help = String::from_utf8(qipu().args(["validate", "--help"]).output().unwrap().stdout).unwrap();
    assert!(help.contains("asian (AXF/WXF, the default) or chinese (中国象棋竞赛规则 2011)"), "{help}");
}

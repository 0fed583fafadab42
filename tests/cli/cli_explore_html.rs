//! `qipu explore --format html`: the page's embedded data read back and
//! compared with `qipu explore --format json` at the root and at a child;
//! a hostile tag that cannot leave its `<script>` element; the output's
//! rules (-o, --force, never over the index).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{qipu, stderr};

fn tempdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_explore_html-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn build(inputs: &[&Path], index: &Path) {
    let out = qipu().args(["index", "build"]).args(inputs).arg("-o").arg(index).output().unwrap();
    assert!(out.status.code().is_some_and(|c| c < 2), "{}", stderr(&out));
}

/// The page's data: the JSON inside its `<script type="application/json">`.
fn data(page: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"qp-explore\">";
    let start = page.find(open).expect("the data element") + open.len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

fn explore_json(index: &Path, moves: Option<&str>) -> Value {
    let mut cmd = qipu();
    cmd.arg("explore").arg(index).args(["--format", "json"]);
    if let Some(moves) = moves {
        cmd.args(["--moves", moves]);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn close(a: &Value, b: &Value, places: i32) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(a), Some(b)) => (a - b).abs() <= 0.5 * 10f64.powi(-places) + 1e-9,
        _ => a.is_null() && b.is_null(),
    }
}

/// A node of the page (or a move) holds the figures `explore --format json` gives.
fn same_figures(page: &Value, json: &Value, what: &str) {
    for (short, long) in [("g", "games"), ("w", "red_wins"), ("d", "draws"), ("l", "black_wins")] {
        assert_eq!(page[short], json[long], "{what}: {long}");
    }
    assert!(
        close(&page["s"], &json["red_score"], 4),
        "{what}: red_score {} {}",
        page["s"],
        json["red_score"]
    );
    assert!(
        close(&page["y"], &json["mean_year"], 1),
        "{what}: mean_year {} {}",
        page["y"],
        json["mean_year"]
    );
}

/// A node and its moves against `explore --format json` of its position.
fn same_node(page: &Value, node: &Value, json: &Value, what: &str) {
    assert_eq!(node["f"], json["fen"], "{what}");
    same_figures(node, json, what);
    assert_eq!(node["e"], json["ended"], "{what}: ended");
    let (moves, listed) = (node["m"].as_array().unwrap(), json["moves"].as_array().unwrap());
    assert_eq!(moves.len(), listed.len(), "{what}: moves");
    for (m, j) in moves.iter().zip(listed) {
        let what = format!("{what}, {}", j["move"]);
        assert_eq!((&m["t"], &m["i"]), (&j["move"], &j["iccs"]), "{what}");
        same_figures(m, j, &what);
        let best = &page["games"][m["b"].as_u64().unwrap() as usize];
        let b = &j["best"];
        assert_eq!(best["s"], b["source"], "{what}");
        assert_eq!(best["n"].as_u64(), b["index"].as_u64().map(|i| i + 1), "{what}");
        for (short, long) in [("r", "red"), ("k", "black"), ("e", "event"), ("d", "date"), ("x", "result")] {
            assert_eq!(best[short], b[long], "{what}: {long}");
        }
        assert_eq!(m["p"], b["ply"], "{what}");
    }
}

#[test]
fn the_page_holds_what_explore_answers() {
    let dir = tempdir("fixtures");
    let index = dir.join("fx.qidx");
    build(&[Path::new("fixtures")], &index);
    let page_path = dir.join("page.html");
    let out =
        qipu().arg("explore").arg(&index).args(["--format", "html", "-o"]).arg(&page_path).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.contains("<svg "), "a page with a board");
    assert!(!page.contains(" src=") && !page.contains("href=\"http"), "nothing fetched");
    let value = data(&page);
    assert_eq!((value["depth"].as_u64(), value["min_games"].as_u64()), (Some(6), Some(2)));
    let nodes = value["nodes"].as_array().unwrap();
    let root = explore_json(&index, None);
    same_node(&value, &nodes[0], &root, "the start");
    // The most played move's child, and one two plies in.
    let first = &nodes[0]["m"][0];
    let child = &nodes[first["c"].as_u64().expect("the most played move is expanded") as usize];
    let moves = first["t"].as_str().unwrap().to_string();
    same_node(&value, child, &explore_json(&index, Some(&moves)), &moves);
    let second = &child["m"][0];
    let grandchild = &nodes[second["c"].as_u64().unwrap() as usize];
    let moves = format!("{moves} {}", second["t"].as_str().unwrap());
    same_node(&value, grandchild, &explore_json(&index, Some(&moves)), &moves);
    // Every move either leads to a node or gives the FEN after it; none
    // played in fewer than --min-games games is expanded.
    for node in nodes {
        for m in node["m"].as_array().unwrap() {
            assert!(m["c"].is_u64() != m["f"].is_string(), "{m}");
            if m["g"].as_u64().unwrap() < 2 {
                assert!(m["c"].is_null(), "{m}");
            }
        }
    }
    // --depth 1: the root alone, its moves not expanded.
    let shallow = dir.join("shallow.html");
    let out = qipu()
        .arg("explore")
        .arg(&index)
        .args(["--format", "html", "--depth", "1", "--notation", "iccs", "-o"])
        .arg(&shallow)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let value = data(&std::fs::read_to_string(&shallow).unwrap());
    assert_eq!(value["nodes"].as_array().unwrap().len(), 1);
    assert_eq!(value["nodes"][0]["m"][0]["t"], "H2-E2");
    assert!(
        value["nodes"][0]["m"][0]["f"]
            .as_str()
            .unwrap()
            .starts_with("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")
    );
    // The page exists: not written over without --force; never over the index.
    let out =
        qipu().arg("explore").arg(&index).args(["--format", "html", "-o"]).arg(&page_path).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let manifest = index.join("manifest");
    let before = std::fs::read(&manifest).unwrap();
    let out = qipu()
        .arg("explore")
        .arg(&index)
        .args(["--format", "html", "--force", "-o"])
        .arg(&manifest)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("is an input file"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&manifest).unwrap(), before);
}

#[test]
fn a_hostile_tag_stays_in_its_script_element() {
    let dir = tempdir("hostile");
    let hostile = "</script><script>alert(1)</script><!-- & \u{2028}";
    let pgn = dir.join("hostile.pgn");
    std::fs::write(
        &pgn,
        format!("[Red \"{hostile}\"]\n[Black \"<b>x</b>\"]\n[Event \"</SCRIPT >\"]\n1. h2e2 h9g7 2. h0g2 1-0\n\n1. h2e2 b9c7 0-1\n"),
    )
    .unwrap();
    let index = dir.join("h.qidx");
    build(&[&pgn], &index);
    let out = qipu().arg("explore").arg(&index).args(["--format", "html"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let page = String::from_utf8(out.stdout).unwrap();
    // One data element and one script: no tag value opens or closes one.
    assert_eq!(page.matches("<script").count(), 2, "{page}");
    assert_eq!(page.to_ascii_lowercase().matches("</script").count(), 2);
    assert!(!page.contains("<!--") && !page.contains('\u{2028}'));
    let value = data(&page);
    let best = &value["games"][value["nodes"][0]["m"][0]["b"].as_u64().unwrap() as usize];
    assert_eq!(best["r"], hostile, "the name read back is the name");
    assert_eq!(best["k"], "<b>x</b>");
    assert_eq!(best["e"], "</SCRIPT >");
    assert_eq!(value["nodes"][0]["g"], 2);
}

//! `qipu convert --to html`: the viewer page's embedded data, read back as
//! JSON, holds for every move the FEN `qipu fen` gives for that ply (main
//! line and variations); text from records cannot leave its place; a game
//! with an illegal move stops there, marked.

use crate::common::{self, qipu};

use serde_json::Value;

const FIXTURE: &str = "tests/data/html-viewer.pgn";

/// The page `convert --to html` writes of `args` (exit code `code`).
fn page(args: &[&str], stdin: Option<&str>, code: i32) -> String {
    let mut cmd = qipu();
    cmd.args(["convert", "--to", "html"]).args(args);
    if let Some(text) = stdin {
        cmd.arg("-").write_stdin(text);
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(code), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Every game's data: the text of each `<script type="application/json">`.
fn games(page: &str) -> Vec<Value> {
    let open = "<script type=\"application/json\" class=\"qp-game\">";
    page.split(open)
        .skip(1)
        .map(|rest| {
            let json = &rest[..rest.find("</script>").expect("the element ends")];
            serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"))
        })
        .collect()
}

/// The nodes of a game's data (node 1 first).
fn nodes(game: &Value) -> Vec<&Value> {
    game["nodes"].as_array().unwrap().iter().collect()
}

/// The ply of every node (node 0 is the start): one more than its parent's.
fn plies(game: &Value) -> Vec<usize> {
    let mut plies = vec![0];
    for n in nodes(game) {
        let p = n["p"].as_u64().unwrap() as usize;
        assert!(p < plies.len(), "a parent comes before its moves");
        plies.push(plies[p] + 1);
    }
    plies
}

/// The main line's FENs: from the start, each node's first child.
fn main_line(game: &Value) -> Vec<String> {
    let nodes = nodes(game);
    let mut fens = vec![game["start"].as_str().unwrap().to_string()];
    let mut at = 0;
    while let Some(i) = nodes.iter().position(|n| n["p"].as_u64() == Some(at)) {
        let Some(fen) = nodes[i]["f"].as_str() else { break };
        fens.push(fen.to_string());
        at = i as u64 + 1;
    }
    fens
}

/// `qipu fen --all-lines` of the fixture: (game, line, ply, FEN) a line.
fn fen_lines() -> Vec<(String, String, usize, String)> {
    let out = qipu().args(["fen", "--all-lines", FIXTURE]).output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[1].to_string(), f[2].to_string(), f[3].parse().unwrap(), f[5].to_string())
        })
        .collect()
}

#[test]
fn every_move_holds_the_fen_qipu_fen_gives_for_its_ply() {
    let page = page(&[FIXTURE], None, 1);
    let games = games(&page);
    assert_eq!(games.len(), 2);
    let lines = fen_lines();
    for (index, game) in games.iter().enumerate() {
        let number = (index + 1).to_string();
        // The main line, ply by ply.
        let expected: Vec<&str> =
            lines.iter().filter(|l| l.0 == number && l.1 == "0").map(|l| l.3.as_str()).collect();
        assert_eq!(main_line(game), expected, "game {number}");
        // Every node, variations included: its (ply, FEN) is one that
        // `fen --all-lines` gives, and the counts agree.
        let plies = plies(game);
        let mut ours: Vec<(usize, String)> = vec![(0, game["start"].as_str().unwrap().to_string())];
        for (i, n) in nodes(game).iter().enumerate() {
            if let Some(f) = n["f"].as_str() {
                ours.push((plies[i + 1], f.to_string()));
            }
        }
        let mut theirs: Vec<(usize, String)> =
            lines.iter().filter(|l| l.0 == number).map(|l| (l.2, l.3.clone())).collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "game {number}");
    }
    // The variation 1... b9c7 2. h0g2 (2. b0c2 h9g7) 2... h9g7: its moves,
    // their parents and positions.
    let first = nodes(&games[0]);
    let b9c7 = first.iter().position(|n| n["m"] == "b9c7" && n["p"] == 1).expect("1... b9c7") + 1;
    let kids = |p: usize| -> Vec<&Value> { first.iter().filter(|n| n["p"] == p).copied().collect() };
    let after: Vec<&str> = kids(b9c7).iter().map(|n| n["t"].as_str().unwrap()).collect();
    assert_eq!(after, ["马二进三", "马八进七"], "the main continuation first");
    let nested = first.iter().position(|n| n["t"] == "马八进七").unwrap() + 1;
    assert_eq!(
        kids(nested)[0]["f"],
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C4/9/R1BAKABNR w - - 4 3"
    );
    assert_eq!(first[0]["c"], "a comment with </script><!-- and & in it");
}

#[test]
fn a_game_with_an_illegal_move_stops_there_marked() {
    let page = page(&[FIXTURE], None, 1);
    let game = &games(&page)[1];
    assert!(game["error"].as_str().unwrap().starts_with("ply 25 "), "{}", game["error"]);
    let nodes = nodes(game);
    let bad: Vec<&&Value> = nodes.iter().filter(|n| n.get("x").is_some()).collect();
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0]["t"], "h4c4");
    assert_eq!(bad[0]["x"], "no Red piece on h4");
    assert_eq!(bad[0]["k"], 1, "one move after it, left out");
    assert!(bad[0].get("f").is_none() && bad[0].get("m").is_none());
    assert_eq!(nodes.len(), 25, "24 moves that replay and the one that does not");
    assert_eq!(main_line(game).len(), 25, "the start and 24 plies");
}

#[test]
fn text_from_records_is_escaped_in_the_page_and_in_its_data() {
    let hostile = "[Event \"</script><script>alert(1)</script>\"]\n[Red \"<!-- a & b\"]\n[Black \"x\u{2028}y\u{2029}\"]\n\n\
        {</SCRIPT> <!-- } 1. h2e2 {</script><img src=x onerror=alert(2)>} h9g7 *\n\n[Title \"second\"]\n\n1. c3c4 *\n";
    let page = page(&[], Some(hostile), 0);
    // Only the page's own elements: two games' data and the script.
    assert_eq!(page.matches("</script>").count(), 3, "{page}");
    assert_eq!(page.to_ascii_lowercase().matches("<script").count(), 3);
    assert!(!page.contains("<!--"), "no comment opens");
    assert!(!page.contains('\u{2028}') && !page.contains('\u{2029}'));
    assert!(!page.contains("<img"));
    // The chooser's names are escaped as HTML.
    let name = "<option>1. &lt;!-- a &amp; b – x&#x2028;y, &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</option>";
    assert!(page.contains(name), "{page}");
    assert!(page.contains("<option>2. second</option>"));
    // And the data reads back to the text as written.
    let games = games(&page);
    let tags = games[0]["tags"].as_array().unwrap();
    assert_eq!(tags[0][1], "</script><script>alert(1)</script>");
    assert_eq!(tags[1][1], "<!-- a & b");
    assert_eq!(tags[2][1], "x\u{2028}y\u{2029}");
    assert_eq!(games[0]["comment"], "</SCRIPT> <!--");
    assert_eq!(games[0]["nodes"][0]["c"], "</script><img src=x onerror=alert(2)>");
}

#[test]
fn one_page_holds_every_game_into_a_file_never_over_an_input() {
    let dir = common::scratch("cli_html");
    let out = dir.join("games.html");
    let run = qipu().args(["convert", "--to", "html", FIXTURE, "-o"]).arg(&out).output().unwrap();
    assert_eq!(run.status.code(), Some(1), "game 2 is illegal");
    let summary = String::from_utf8_lossy(&run.stderr);
    assert!(
        summary.contains("2 game(s): 1 valid, 1 illegal, 0 unreadable (1 input(s)); 2 written"),
        "{summary}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("<!DOCTYPE html>") && text.contains("<title>games</title>"));
    assert_eq!(games(&text).len(), 2);
    assert!(text.contains("<option>1. HU RongHua – Lv Qin, 5 Ram Cup Xiangqi Championship 1989</option>"));
    // Self-contained: nothing is fetched.
    for outside in ["src=", "http:", "https:", "<link", "@import"] {
        let found =
            text.match_indices(outside).map(|(i, _)| &text[i.saturating_sub(30)..i + 30]).collect::<Vec<_>>();
        let allowed = |s: &&str| s.contains("http://www.w3.org/2000/svg");
        assert!(found.iter().all(allowed), "{outside}: {found:?}");
    }
    let again = qipu().args(["convert", "--to", "html", FIXTURE, "-o"]).arg(&out).output().unwrap();
    assert_eq!(again.status.code(), Some(2), "exists: not written over without --force");
    let input = qipu().args(["convert", "--to", "html", FIXTURE, "--force", "-o", FIXTURE]).output().unwrap();
    assert_eq!(input.status.code(), Some(2), "never over an input");
    for (flags, said) in [
        (&["--split", "1"][..], "--split"),
        (&["--output-encoding", "gbk"][..], "utf-8"),
        (&["--rejected", "r.html"][..], "--rejected"),
    ] {
        let run = qipu().args(["convert", "--to", "html", FIXTURE]).args(flags).output().unwrap();
        assert_eq!(run.status.code(), Some(2), "{flags:?}");
        assert!(String::from_utf8_lossy(&run.stderr).contains(said), "{flags:?}");
    }
}

#[test]
fn moves_are_written_in_the_notation_asked_for() {
    let text = "1. h2e2 h9g7 *\n";
    let chinese = games(&page(&[], Some(text), 0));
    assert_eq!(chinese[0]["nodes"][1]["t"], "马８进７");
    let traditional = games(&page(&["--chinese", "traditional"], Some(text), 0));
    assert_eq!(traditional[0]["nodes"][1]["t"], "馬８進７");
    let wxf = games(&page(&["--notation", "wxf"], Some(text), 0));
    assert_eq!(wxf[0]["nodes"][0]["t"], "C2.5");
    assert_eq!(wxf[0]["nodes"][0]["m"], "h2e2");
}

/// The page's id attribute `id` and the element it stands in.
fn element<'a>(page: &'a str, id: &str) -> &'a str {
    let at = page.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id} in the page"));
    let open = page[..at].rfind('<').unwrap();
    &page[open..open + page[open..].find('>').unwrap() + 1]
}

#[test]
fn the_page_has_autoplay_a_fen_to_copy_a_variation_marker_and_a_search_box() {
    let two = page(&[FIXTURE], None, 1);
    // Buttons with their names, operable from the keyboard as buttons are.
    assert!(
        element(&two, "qp-play").starts_with("<button ")
            && element(&two, "qp-play").contains("aria-label=\"play\"")
    );
    assert!(two.contains("\u{25b7} play</button>"));
    assert!(element(&two, "qp-copy").starts_with("<button ") && two.contains(">copy</button>"));
    assert!(element(&two, "qp-main").starts_with("<button ") && two.contains("\u{21a9} main line</button>"));
    // The FEN in a read-only field with its label; the marker hidden at the start.
    assert!(element(&two, "qp-fen").starts_with("<input ") && element(&two, "qp-fen").contains("readonly"));
    assert!(two.contains("<label for=\"qp-fen\">FEN</label>"));
    assert!(element(&two, "qp-in-var").contains(" hidden"));
    // The search box goes with the chooser: a page of one game has neither.
    let search = element(&two, "qp-search");
    assert!(
        search.starts_with("<input ") && search.contains("type=\"search\"") && search.contains("aria-label=")
    );
    let one = page(&[], Some("[Red \"x\"]\n\n1. h2e2 *\n"), 0);
    assert!(!one.contains("id=\"qp-search\"") && !one.contains("id=\"qp-games\""));
    assert!(one.contains("id=\"qp-play\"") && one.contains("id=\"qp-fen\""));
    // The script knows the key p, the clipboard and its fallback.
    for used in ["key === \"p\"", "navigator.clipboard.writeText", "fenBox.select()"] {
        assert!(two.contains(used), "{used}");
    }
}

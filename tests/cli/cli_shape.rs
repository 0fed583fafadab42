//! `qipu convert`'s shaping flags end to end: --main-line, --no-comments,
//! --no-nags, --plies-max, --tags and --source-tag, on games whose answer is
//! known, in every output format, read back.

use crate::common::qipu;

use std::path::Path;

use crate::common::scratch;
use serde_json::Value;

/// Two games: one with a game comment, move comments, a comment before a
/// move, glyphs, nested variations and seven plies; a short one.
const GAMES: &str = concat!(
    "[Game \"Chinese Chess\"]\n[Event \"测试\"]\n[Site \"北京\"]\n[Red \"许银川\"]\n[Black \"吕钦\"]\n",
    "[Opening \"中炮\"]\n[Annotator \"x\"]\n[Result \"1-0\"]\n",
    "{开局} 1. 炮二平五 {中炮} 马８进７ $1 (1... 象３进５ {飞相} 2. 马二进三 (2. 兵七进一) 马８进７) ",
    "2. 马二进三 $2 车９平８ (2... {先} 马２进３) 3. 车一平二 马２进３ 4. 车二进六 1-0\n\n",
    "[Game \"Chinese Chess\"]\n[Event \"短\"]\n[Result \"0-1\"]\n1. 炮二平五 马８进７ 0-1\n",
);

/// Exit code, standard output and standard error of `qipu ARGS` on `input`.
fn run(args: &[&str], input: &Path) -> (Option<i32>, String, String) {
    let out = qipu().args(args).arg(input).output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// `GAMES` in a file of its own.
fn games_file(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let path = dir.join("games.pgn");
    std::fs::write(&path, GAMES).unwrap();
    path
}

/// The records of `path` as qipu's JSON, one value a game.
fn records(path: &Path) -> Vec<Value> {
    let (code, out, err) = run(&["convert", "--to", "json"], path);
    assert!(matches!(code, Some(0 | 1)), "{err}");
    out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The tag names of a JSON record.
fn tag_names(record: &Value) -> Vec<String> {
    record["tags"].as_array().unwrap().iter().map(|t| t[0].as_str().unwrap().to_string()).collect()
}

/// The value of tag `name` of a JSON record.
fn tag<'a>(record: &'a Value, name: &str) -> Option<&'a str> {
    record["tags"].as_array().unwrap().iter().find(|t| t[0] == name).map(|t| t[1].as_str().unwrap())
}

/// How many plies the main line of a JSON record has.
fn main_plies(record: &Value) -> usize {
    let nodes = record["nodes"].as_array().unwrap();
    let mut at = 0;
    let mut plies = 0;
    while let Some(next) = nodes.iter().find(|n| n["parent"] == at) {
        at = next["id"].as_u64().unwrap();
        plies += 1;
    }
    plies
}

#[test]
fn each_flag_does_what_it_says_in_pgn() {
    let input = games_file("flags");
    let (code, plain, _) = run(&["convert", "--to", "pgn"], &input);
    assert_eq!(code, Some(0));
    assert!(plain.contains('(') && plain.contains('{') && plain.contains("$1"), "{plain}");

    let (_, text, _) = run(&["convert", "--to", "pgn", "--main-line"], &input);
    assert!(!text.contains('('), "{text}");
    assert!(
        text.contains("{开局}") && text.contains("{中炮}") && text.contains("$1") && text.contains("$2"),
        "{text}"
    );
    assert!(!text.contains("飞相") && !text.contains("{先}"), "{text}");

    let (_, text, _) = run(&["convert", "--to", "pgn", "--no-comments"], &input);
    assert!(!text.contains('{') && text.contains('(') && text.contains("$1"), "{text}");

    let (_, text, _) = run(&["convert", "--to", "pgn", "--no-nags"], &input);
    assert!(!text.contains('$') && text.contains('{') && text.contains('('), "{text}");

    let (_, text, err) = run(&["convert", "--to", "pgn", "--plies-max", "3"], &input);
    assert!(err.ends_with("2 game(s): 2 valid, 0 illegal, 0 unreadable (1 input(s)); 2 written\n"), "{err}");
    let games: Vec<&str> = text.split("[Game ").skip(1).collect();
    assert_eq!(games.len(), 2);
    // The first game is cut: three plies, result unknown; the variation of
    // ply 4 went with it, that of ply 2 stayed.
    assert!(games[0].contains("[Result \"*\"]") && games[0].trim_end().ends_with('*'), "{}", games[0]);
    assert!(games[0].contains("马二进三 $2") && !games[0].contains("车９平８"), "{}", games[0]);
    assert!(games[0].contains("兵七进一") && !games[0].contains("{先}"), "{}", games[0]);
    // The second has two plies: not cut, its result kept.
    assert!(games[1].contains("[Result \"0-1\"]") && games[1].trim_end().ends_with("0-1"), "{}", games[1]);
    let dir = input.parent().unwrap();
    let cut = dir.join("cut.pgn");
    std::fs::write(&cut, &text).unwrap();
    let back = records(&cut);
    assert_eq!(back.iter().map(main_plies).collect::<Vec<_>>(), [3, 2]);
    assert_eq!((back[0]["result"].as_str(), back[1]["result"].as_str()), (Some("*"), Some("0-1")));

    let (_, text, _) = run(&["convert", "--to", "pgn", "--plies-max", "0"], &input);
    assert_eq!(text.matches("[Result \"*\"]").count(), 2, "{text}");
    assert!(!text.contains("炮二平五"), "{text}");
}

#[test]
fn tag_lists_keep_the_tags_named_and_the_start_position() {
    let dir = scratch("tags");
    let input = dir.join("games.pgn");
    let puzzle = "[Event \"残局\"]\n[Red \"r\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n1. d0d1 *\n";
    std::fs::write(&input, format!("{GAMES}\n{puzzle}")).unwrap();
    let shaped = |tags: &str| {
        let (code, out, err) = run(&["convert", "--to", "json", "--tags", tags], &input);
        assert_eq!(code, Some(0), "{err}");
        out.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()).collect::<Vec<_>>()
    };
    let all = shaped("all");
    assert_eq!(
        tag_names(&all[0]),
        ["Game", "Event", "Site", "Red", "Black", "Opening", "Annotator", "Result"]
    );
    let standard = shaped("standard");
    assert_eq!(tag_names(&standard[0]), ["Event", "Site", "Red", "Black", "Result"]);
    assert_eq!(tag_names(&standard[2]), ["Event", "Red", "FEN"]);
    let listed = shaped("red,ANNOTATOR");
    assert_eq!(tag_names(&listed[0]), ["Red", "Annotator"]);
    // The result stays the game's without its tag, and the puzzle its start.
    assert_eq!(listed[0]["result"], "1-0");
    assert_eq!(tag_names(&listed[2]), ["Red", "FEN"]);
    assert_eq!(listed[2]["fen"], "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    // PGN writes its own Game, Result and Format tags whatever the list.
    let (_, text, _) = run(&["convert", "--to", "pgn", "--tags", "Red"], &input);
    let first: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
    assert_eq!(
        first,
        ["[Game \"Chinese Chess\"]", "[Red \"许银川\"]", "[Result \"1-0\"]", "[Format \"Chinese\"]"]
    );
    // A list of nothing is refused.
    let (code, _, err) = run(&["convert", "--to", "pgn", "--tags", "Red,,Black"], &input);
    assert_eq!(code, Some(2));
    assert!(err.contains("--tags") && err.contains("empty"), "{err}");
}

#[test]
fn combined_flags_read_back_in_every_format() {
    let input = games_file("formats");
    let dir = input.parent().unwrap();
    let flags = ["--main-line", "--no-comments", "--no-nags", "--plies-max", "4", "--tags", "standard"];
    let check = |back: &[Value], format: &str| {
        assert_eq!(back.len(), 2, "{format}");
        assert_eq!(back.iter().map(main_plies).collect::<Vec<_>>(), [4, 2], "{format}");
        for game in back {
            let nodes = game["nodes"].as_array().unwrap();
            assert_eq!(nodes.len(), main_plies(game), "{format}: no variation");
            assert!(game["comment"].is_null(), "{format}");
            for node in nodes {
                assert!(node["comment"].is_null() && node["comment_before"].is_null(), "{format}: {node}");
                assert_eq!(node["nags"], Value::Array(vec![]), "{format}");
            }
            for name in tag_names(game) {
                assert!(!["Opening", "Annotator"].contains(&name.as_str()), "{format}: {name}");
            }
        }
        assert_eq!(
            (back[0]["result"].as_str(), back[1]["result"].as_str()),
            (Some("*"), Some("0-1")),
            "{format}"
        );
        assert_eq!(tag(&back[0], "Red"), Some("许银川"), "{format}");
        assert_eq!(tag(&back[0], "Event"), Some("测试"), "{format}");
    };
    for (format, ext) in [("pgn", "pgn"), ("json", "jsonl"), ("dhtmlxq", "txt")] {
        let out = dir.join(format!("out.{ext}"));
        let mut args = vec!["convert", "--to", format, "-o", out.to_str().unwrap()];
        args.extend(flags);
        let (code, _, err) = run(&args, &input);
        assert_eq!(code, Some(0), "{format}: {err}");
        check(&records(&out), format);
    }
    let xqf = dir.join("xqf");
    let mut args = vec!["convert", "--to", "xqf", "-o", xqf.to_str().unwrap()];
    args.extend(flags);
    let (code, _, err) = run(&args, &input);
    assert_eq!(code, Some(0), "{err}");
    // Without its Title tag a game's file is named after the input.
    let mut names: Vec<String> =
        std::fs::read_dir(&xqf).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["games-1.xqf", "games-2.xqf"]);
    check(&records(&xqf), "xqf");
}

#[test]
fn no_flag_and_the_defaults_change_nothing() {
    let input = games_file("defaults");
    for to in ["pgn", "json", "dhtmlxq"] {
        let (_, plain, _) = run(&["convert", "--to", to], &input);
        let (_, all, _) = run(&["convert", "--to", to, "--tags", "all"], &input);
        assert_eq!(plain, all, "{to}");
        let (_, long, _) = run(&["convert", "--to", to, "--plies-max", "1000"], &input);
        assert_eq!(plain, long, "{to}");
    }
}

#[test]
fn ecco_classifies_the_moves_written() {
    let input = games_file("ecco");
    let dir = input.parent().unwrap();
    let (_, full, _) = run(&["convert", "--to", "json", "--set-ecco"], &input);
    let full: Value = serde_json::from_str(full.lines().next().unwrap()).unwrap();
    let out = dir.join("cut.pgn");
    let args = ["convert", "--to", "pgn", "--set-ecco", "--plies-max", "2", "--tags", "standard", "-o"];
    let (code, _, err) =
        run(&args.iter().copied().chain([out.to_str().unwrap()]).collect::<Vec<_>>(), &input);
    assert_eq!(code, Some(0), "{err}");
    let cut = &records(&out)[0];
    let (_, classified, _) = run(&["classify", "--format", "json"], &out);
    let classified: Value = serde_json::from_str(classified.lines().next().unwrap()).unwrap();
    assert_eq!(tag(cut, "ECCO"), classified["ecco"].as_str(), "{classified}");
    assert_ne!(tag(cut, "ECCO"), tag(&full, "ECCO"), "four plies more make another opening");
    // --set-ecco's tags are set after --tags, which would drop them.
    assert!(tag(cut, "Opening").is_some());
}

/// The (SourceFile, SourceGame) tags of each game of a PGN text.
fn sources(pgn: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut file = None;
    for line in pgn.lines() {
        if let Some(v) = line.strip_prefix("[SourceFile \"").and_then(|v| v.strip_suffix("\"]")) {
            file = Some(v.replace("\\\\", "\\"));
        }
        if let Some(v) = line.strip_prefix("[SourceGame \"").and_then(|v| v.strip_suffix("\"]")) {
            out.push((file.take().expect("SourceFile before SourceGame"), v.parse().unwrap()));
        }
    }
    out
}

#[test]
fn source_tags_number_games_in_input_order_across_chunks_and_folders() {
    let dir = scratch("source");
    let small = dir.join("small.pgn");
    std::fs::write(&small, GAMES).unwrap();
    // Over 1 MB: read in chunks, on two threads.
    let fixture = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn"
    ))
    .unwrap();
    let big = dir.join("big.pgn");
    std::fs::write(&big, format!("{fixture}\n\n{fixture}")).unwrap();
    assert!(std::fs::metadata(&big).unwrap().len() > 1 << 20);
    // A folder of XQF files, one game each.
    let xqf = dir.join("xqf");
    let (code, _, err) = run(&["convert", "--to", "xqf", "-o", xqf.to_str().unwrap()], &small);
    assert_eq!(code, Some(0), "{err}");

    let inputs = [&small, &big, &xqf];
    let convert = |extra: &[&str]| {
        let out =
            qipu().args(["convert", "--to", "pgn", "--jobs", "2"]).args(extra).args(inputs).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let plain = convert(&[]);
    let tagged = convert(&["--source-tag"]);
    // The same games, each with its two tags more.
    let without: String = tagged
        .lines()
        .filter(|l| !l.starts_with("[SourceFile ") && !l.starts_with("[SourceGame "))
        .flat_map(|l| [l, "\n"])
        .collect();
    assert_eq!(without, plain);
    let found = sources(&tagged);
    assert_eq!(found.len(), 2 + 2 * 1391 + 2);
    let name = |p: &Path| p.to_str().unwrap().to_string();
    assert_eq!(found[..2], [(name(&small), 1), (name(&small), 2)]);
    for (k, (file, n)) in found[2..2 + 2782].iter().enumerate() {
        assert_eq!((file.as_str(), *n), (name(&big).as_str(), k + 1));
    }
    let mut xqf_files: Vec<(String, usize)> = found[2 + 2782..].to_vec();
    xqf_files.sort();
    assert_eq!(xqf_files, [(name(&xqf.join("small-1.xqf")), 1), (name(&xqf.join("small-2.xqf")), 1)]);

    // JSON and DhtmlXQ carry the tags too, and read them back.
    for to in ["json", "dhtmlxq"] {
        let out = dir.join(format!("small.{to}"));
        let args = ["convert", "--to", to, "--source-tag", "-o", out.to_str().unwrap()];
        let (code, _, err) = run(&args, &small);
        assert_eq!(code, Some(0), "{to}: {err}");
        let back = records(&out);
        assert_eq!(tag(&back[1], "SourceFile"), Some(name(&small).as_str()), "{to}");
        assert_eq!(tag(&back[1], "SourceGame"), Some("2"), "{to}");
    }
    // XQF has no place for them: refused before anything is written.
    let (code, _, err) =
        run(&["convert", "--to", "xqf", "--source-tag", "-o", dir.join("no").to_str().unwrap()], &small);
    assert_eq!(code, Some(2));
    assert!(err.contains("--source-tag") && err.contains("XQF"), "{err}");
    assert!(!dir.join("no").exists());
}

#[test]
fn source_tags_name_standard_input() {
    let out =
        qipu().args(["convert", "--to", "pgn", "--source-tag", "-"]).write_stdin(GAMES).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(sources(&text), [("-".to_string(), 1), ("-".to_string(), 2)]);
}

#[cfg(unix)]
#[test]
fn source_tags_name_files_as_reports_do_when_names_are_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("source-names");
    let path = dir.join(std::ffi::OsStr::from_bytes(b"x\xff\\y.pgn"));
    std::fs::write(&path, "1. h2e9 *\n").unwrap();
    // The name validate prints for the game.
    let (_, report, _) = run(&["validate"], &path);
    // The source is what comes before the place and `: error: game 1`.
    let line = report.lines().next().unwrap();
    let printed = line.split(": error: game 1").next().unwrap().trim_end_matches(":1:4").to_string();
    assert!(printed.ends_with("x\\xff\\\\y.pgn"), "{printed}");
    let (code, text, err) = run(&["convert", "--to", "pgn", "--source-tag"], &path);
    assert_eq!(code, Some(1), "the game is illegal: {err}");
    assert_eq!(sources(&text), [(printed.clone(), 1)]);
    // And read back from the PGN written, as JSON.
    let out = dir.join("out.pgn");
    std::fs::write(&out, &text).unwrap();
    assert_eq!(tag(&records(&out)[0], "SourceFile"), Some(printed.as_str()));
}

#[test]
fn the_summary_counts_games_as_read_whatever_is_cut() {
    let dir = scratch("illegal");
    let input = dir.join("bad.pgn");
    std::fs::write(&input, "1. 炮二平五 马８进７ 2. 马二进四 *\n").unwrap();
    let out = dir.join("cut.pgn");
    let (code, _, err) =
        run(&["convert", "--to", "pgn", "--plies-max", "2", "-o", out.to_str().unwrap()], &input);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("horse leg") && err.contains("0 valid, 1 illegal"), "{err}");
    // What is written is the two legal plies.
    let (code, _, err) = run(&["validate"], &out);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(main_plies(&records(&out)[0]), 2);
}

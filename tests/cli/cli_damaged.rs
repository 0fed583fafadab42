//! Every command on a folder of damaged files: truncated, bit-flipped,
//! misnamed, empty, garbage, mixed encodings, a directory named like a
//! file and a link to nowhere. No command may panic; each exits 0 or 1
//! (never 2: nothing here is a usage error); every input and every game
//! is accounted for in the summary.

use crate::common::{self, qipu};

use qipu::formats::{pgn, xqf};

const GOOD: &str = "[Event \"good\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0\n\n\
                    [Event \"also good\"]\n1. 相三进五 卒７进１ *\n";

/// The damaged folder, and how many files it has.
fn damaged() -> (std::path::PathBuf, usize) {
    let dir = common::scratch("damaged");
    let mut files = 0;
    let mut put = |name: &str, bytes: &[u8]| {
        std::fs::write(dir.join(name), bytes).unwrap();
        files += 1;
    };
    put("good.pgn", GOOD.as_bytes());
    // An XQF file cut in half.
    let record = &pgn::read(GOOD)[0];
    let xqf = xqf::write(record, xqf::Version::V10).unwrap();
    put("truncated.xqf", &xqf[..xqf.len() / 2]);
    put("whole.xqf", &xqf);
    // Every 7th byte of a PGN text flipped.
    let flipped: Vec<u8> =
        GOOD.bytes().enumerate().map(|(i, b)| if i % 7 == 3 { b ^ 0x5A } else { b }).collect();
    put("flipped.pgn", &flipped);
    put("pgn-named.xqf", GOOD.as_bytes());
    put("empty.pgn", b"");
    let garbage: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    put("garbage.bin", &garbage);
    // A GBK game, then a UTF-8 one, in one file.
    let (gbk, _, _) = encoding_rs::GBK.encode("[Event \"国标\"]\n1. 炮二平五 马８进７ *\n\n");
    let mut mixed = gbk.into_owned();
    mixed.extend_from_slice("[Event \"统一码\"]\n1. 炮二平五 马８进７ *\n".as_bytes());
    put("mixed.pgn", &mixed);
    // A directory named like a file, holding a game.
    std::fs::create_dir_all(dir.join("games.pgn")).unwrap();
    std::fs::write(dir.join("games.pgn/inner.pgn"), GOOD).unwrap();
    files += 1;
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("nowhere.pgn"), dir.join("link.pgn")).unwrap();
        files += 1;
    }
    (dir, files)
}

fn no_panic(out: &std::process::Output, what: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    assert!(matches!(out.status.code(), Some(0 | 1)), "{what}: {:?} {stderr}", out.status.code());
    stderr
}

#[test]
fn every_command_survives_damaged_files_and_counts_them() {
    let (dir, files) = damaged();
    // validate: the summary adds up, and the JSON has one line per game.
    let out = qipu().arg("validate").arg(&dir).output().unwrap();
    no_panic(&out, "validate");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let summary = stdout.lines().last().unwrap();
    let numbers: Vec<usize> = summary
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    let [games, valid, illegal, unreadable, inputs, no_record] = numbers[..] else { panic!("{summary}") };
    assert_eq!(games, valid + illegal + unreadable, "{summary}");
    assert_eq!(inputs, files, "{summary}");
    // Two games each in good.pgn, pgn-named.xqf and games.pgn/inner.pgn, one in whole.xqf.
    assert!(valid >= 7, "{summary}");
    assert!(unreadable >= 4, "empty, flipped, truncated, link: {summary}");
    // Found in a folder, garbage holds no record: not a game. Files named
    // like records (`.pgn`) that hold none are damaged records.
    assert_eq!(no_record, 1, "{summary}");
    assert!(stdout.contains("empty.pgn: error: unreadable: empty file"), "{stdout}");
    assert!(stdout.contains("garbage.bin: warning: holds no record: binary data"), "{stdout}");
    assert!(stdout.contains("truncated.xqf: error: unreadable: byte "), "binary: a byte offset: {stdout}");
    #[cfg(unix)]
    assert!(stdout.contains("link.pgn: error: unreadable: cannot read: a link to nothing"), "{stdout}");
    let out = qipu().args(["validate", "--format", "json"]).arg(&dir).output().unwrap();
    no_panic(&out, "validate --format json");
    let rows: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), games + no_record);
    assert_eq!(rows.iter().filter(|r| r["status"] == "no-record").count(), no_record);
    for row in &rows {
        if row["status"] != "valid" {
            let message = row["error"]["message"].as_str().unwrap_or("");
            assert!(!message.is_empty(), "a reason in words: {row}");
            assert!(row["source"].as_str().is_some_and(|s| !s.is_empty()), "{row}");
        }
    }
    // Each line of the mixed file is read in its own encoding.
    let mixed: Vec<&serde_json::Value> =
        rows.iter().filter(|r| r["source"].as_str().is_some_and(|s| s.ends_with("mixed.pgn"))).collect();
    assert_eq!(mixed.len(), 2);
    assert!(mixed.iter().all(|r| r["status"] == "valid"), "{mixed:?}");
    let sources: std::collections::BTreeSet<&str> =
        rows.iter().filter_map(|r| r["source"].as_str()).collect();
    assert_eq!(sources.len(), files, "every input reported: {sources:?}");
    // The other commands: no panic, a sensible exit code, a summary.
    let out_dir = common::scratch("damaged-out");
    let runs: Vec<Vec<String>> = vec![
        vec!["fen".into()],
        vec!["fen".into(), "--format".into(), "json".into()],
        vec!["convert".into(), "--to".into(), "pgn".into()],
        vec!["convert".into(), "--to".into(), "json".into()],
        vec!["convert".into(), "--to".into(), "dhtmlxq".into()],
        vec!["convert".into(), "--to".into(), "xqf".into(), "-o".into(), out_dir.display().to_string()],
        vec!["stats".into()],
        vec!["stats".into(), "--format".into(), "json".into()],
        vec!["classify".into()],
        vec!["openings".into()],
    ];
    for args in runs {
        let out = qipu().args(&args).arg(&dir).output().unwrap();
        let stderr = no_panic(&out, &args.join(" "));
        assert!(!stderr.trim().is_empty() || !out.stdout.is_empty(), "{args:?} says something");
        // Every command accounts for every game as validate does.
        {
            let expected = format!(
                "{games} game(s): {valid} valid, {illegal} illegal, {unreadable} unreadable ({inputs} input(s)); \
                 {no_record} input(s) hold no record"
            );
            assert!(stderr.contains(&expected), "{args:?}: {stderr}");
        }
    }
    // classify's JSON has a line for every game and every input that holds none, as validate's.
    let out = qipu().args(["classify", "--format", "json"]).arg(&dir).output().unwrap();
    let lines: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), games + no_record);
    let failed = lines.iter().filter(|l| l["status"] != "valid").count();
    assert_eq!(failed, illegal + unreadable + no_record);
    assert!(lines.iter().filter(|l| l["status"] != "valid").all(|l| l["error"]["message"].is_string()));
    let out = qipu().args(["stats", "--format", "json"]).arg(&dir).output().unwrap();
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["games"].as_u64(), Some(games as u64), "{stats}");
}

#[test]
fn prose_in_a_folder_is_no_game_but_named_it_is_unreadable() {
    let dir = common::scratch("prose");
    std::fs::write(dir.join("games.pgn"), GOOD).unwrap();
    std::fs::write(dir.join("README.TXT"), "这是一本棋谱的序言。\n收录对局一百局。\n").unwrap();
    std::fs::write(dir.join("XQF工具包说明.txt"), "XQF工具包 1.0\n用法: 把文件拖进来\n").unwrap();
    let dump: String =
        (0..40).map(|i| format!("{:08x}: 0000 0000 0000 00a0 0000 0000 0000 0000\n", i * 16)).collect();
    std::fs::write(dir.join("format.txt"), format!("XQF 文件格式\n\n{dump}")).unwrap();
    // Walking the folder: three inputs hold no record, and that is no failure.
    let out = qipu().arg("validate").arg(&dir).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.ends_with(
            "2 game(s): 2 valid, 0 illegal, 0 unreadable (4 input(s)); 3 input(s) hold no record\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("README.TXT: warning: holds no record: text without a game record"), "{stdout}");
    assert!(
        stdout.contains("XQF工具包说明.txt: warning: holds no record: text"),
        "not a broken XQF: {stdout}"
    );
    assert!(stdout.contains("format.txt: warning: holds no record: text"), "a hex dump is no game: {stdout}");
    // Named on the command line, prose is an unreadable input.
    let out = qipu().arg("validate").arg(dir.join("README.TXT")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("README.TXT: error: unreadable: text without a game record"), "{stdout}");
}

#[test]
fn a_missing_path_is_reported_and_the_rest_is_read() {
    let dir = common::scratch("missing");
    std::fs::write(dir.join("games.pgn"), GOOD).unwrap();
    let missing = dir.join("nonexistent/x.pgn");
    let out = qipu().arg("validate").arg(dir.join("games.pgn")).arg(&missing).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("x.pgn: error: unreadable: no such file or directory"), "{stdout}");
    assert!(stdout.ends_with("3 game(s): 2 valid, 0 illegal, 1 unreadable (2 input(s))\n"), "{stdout}");
    for command in ["fen", "stats", "classify", "openings"] {
        let out = qipu().arg(command).arg(dir.join("games.pgn")).arg(&missing).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{command}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.contains("3 game(s): 2 valid, 0 illegal, 1 unreadable (2 input(s))"),
            "{command}: {stderr}"
        );
    }
}

/// Archives and compressed files, which qipu does not open: each is an
/// unreadable input that names its kind (not "binary data of no record
/// format", nor a file of no record passed over in silence), and the
/// records beside them are read. A gzip file is inflated and read as
/// what it holds (a tar inside is then named).
#[test]
fn archives_are_unreadable_and_say_what_they_are() {
    use std::io::Write;
    let dir = common::scratch("archives");
    std::fs::write(dir.join("good.pgn"), GOOD).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(GOOD.as_bytes()).unwrap();
    std::fs::write(dir.join("games.pgn.gz"), gz.finish().unwrap()).unwrap();
    let mut zip = b"PK\x03\x04\x14\0\0\0\x08\0".to_vec();
    zip.resize(200, 0);
    std::fs::write(dir.join("games.zip"), &zip).unwrap();
    let mut tar = vec![0u8; 1024];
    tar[..8].copy_from_slice(b"game.pgn");
    tar[257..262].copy_from_slice(b"ustar");
    tar[512..512 + 20].copy_from_slice(&GOOD.as_bytes()[..20]);
    std::fs::write(dir.join("games.tar"), &tar).unwrap();
    let mut tgz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    tgz.write_all(&tar).unwrap();
    std::fs::write(dir.join("games.tgz"), tgz.finish().unwrap()).unwrap();
    std::fs::write(dir.join("games.7z"), b"7z\xbc\xaf\x27\x1c\0\x04\x00\x00\x00\x00\x00\x00\x00\x00")
        .unwrap();
    std::fs::write(dir.join("games.rar"), b"Rar!\x1a\x07\x01\0\0\0\0\0\0\0\0\0").unwrap();
    let out = qipu().arg("validate").arg(&dir).output().unwrap();
    let stdout = no_panic(&out, "validate") + &String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    for (name, kind) in [
        ("games.tgz", "a tar archive"),
        ("games.tar", "a tar archive"),
        ("games.7z", "a 7z archive"),
        ("games.rar", "a RAR archive"),
    ] {
        let line = stdout.lines().find(|l| l.contains(name)).unwrap_or_else(|| panic!("{name}: {stdout}"));
        assert!(line.contains(&format!("unreadable: {kind}: qipu does not open archives")), "{line}");
    }
    // The gzip file reads as the PGN it holds, under its own name.
    let out = qipu().args(["validate", "--format", "json"]).arg(dir.join("games.pgn.gz")).output().unwrap();
    let json = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        json.lines().filter(|l| l.contains("games.pgn.gz\"") && l.contains("\"status\":\"valid\"")).count(),
        2,
        "{json}"
    );
    // The damaged zip is opened (see tests/cli/cli_zip.rs) and says so.
    let line = stdout.lines().find(|l| l.contains("games.zip")).unwrap_or_else(|| panic!("{stdout}"));
    assert!(line.contains("unreadable: a damaged zip archive"), "{line}");
    assert!(stdout.contains("9 game(s): 4 valid, 0 illegal, 5 unreadable (7 input(s))"), "{stdout}");
}

/// A gzip file cut short (a truncated download): the games before the cut
/// are read, the one it falls in is not, and the cut is an unreadable game
/// that says so; when only the trailer is missing, every game is read.
#[test]
fn a_gzip_file_cut_short_keeps_the_games_before_the_cut() {
    use std::io::Write;
    let dir = common::scratch("gzip-cut");
    let text: String = (1..=200)
        .map(|i| format!("[Event \"{i}\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n\n"))
        .collect();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let data = gz.finish().unwrap();
    let n = data.len();
    for (name, at) in [("half.pgn.gz", n / 2), ("most.pgn.gz", n * 9 / 10), ("trailer.pgn.gz", n - 8)] {
        let path = dir.join(name);
        std::fs::write(&path, &data[..at]).unwrap();
        // The games whole in what inflates before the cut.
        let mut inflated = Vec::new();
        let _ = std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&data[..at]), &mut inflated);
        let whole = String::from_utf8_lossy(&inflated).matches("*\n").count();
        assert!(whole > 50, "{name}: {whole}");
        let out = qipu().arg("validate").arg(&path).output().unwrap();
        let report = no_panic(&out, "validate") + &String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{name}: {report}");
        let summary = format!("{} game(s): {whole} valid, 0 illegal, 1 unreadable (1 input(s))", whole + 1);
        assert!(report.contains(&summary), "{name}: {summary}: {report}");
        let cut = format!(
            "{name}: error: unreadable: cannot read: the gzip stream is cut short (unexpected end of file)"
        );
        assert!(report.contains(&cut), "{name}: {report}");
        if at == n - 8 {
            assert_eq!(whole, 200);
            assert!(report.contains("in a member's trailer: its data is whole but not checked"), "{report}");
        } else {
            let line = format!("; the game from line {} on is cut and not read", 4 * whole + 1);
            assert!(report.contains(&line), "{name}: {report}");
        }
        // As JSON: a line for each game, the cut one more.
        let out = qipu().args(["validate", "--format", "json"]).arg(&path).output().unwrap();
        let json = String::from_utf8(out.stdout).unwrap();
        assert_eq!(json.lines().filter(|l| l.contains("\"status\":\"valid\"")).count(), whole, "{json}");
        let unreadable: Vec<&str> =
            json.lines().filter(|l| l.contains("\"status\":\"unreadable\"")).collect();
        assert_eq!(unreadable.len(), 1, "{json}");
        assert!(unreadable[0].contains("the gzip stream is cut short"), "{}", unreadable[0]);
        // The same through standard input, read in pieces.
        let out = qipu().args(["validate", "-"]).write_stdin(data[..at].to_vec()).output().unwrap();
        let report = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1));
        assert!(report.contains(&summary), "stdin {name}: {report}");
    }
}

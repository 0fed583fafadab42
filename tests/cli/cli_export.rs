//! `qipu export`: the tables read back with the `parquet` crate's Arrow
//! reader and arrow-ipc's stream reader, their rows counted against
//! `qipu validate --format json` on the same inputs.

use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::UInt32Type;
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::common::{qipu, qipu_process, stderr};

fn tempdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_export-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The inputs of every test: the fixtures (PGN, .che, .ccm, .chn, UCI lines, PFC, DHJHtmlXQ)
/// and a folder of one valid game, one illegal game and one unreadable input.
fn mixed(dir: &Path) -> Vec<String> {
    let own = dir.join("inputs");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(own.join("good.pgn"), "[Event \"x\"]\n[Date \"1990.05.12\"]\n1. h2e2 h9g7 2. h0g2 *\n")
        .unwrap();
    std::fs::write(own.join("bad.pgn"), "[Event \"x\"]\n\n1. h2e2 h9g7\n2. h2e2 *\n").unwrap();
    std::fs::write(own.join("empty.pgn"), "").unwrap();
    vec!["fixtures".into(), own.to_str().unwrap().into()]
}

/// The rows of a Parquet file, as record batches.
fn read(path: &Path) -> Vec<RecordBatch> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let reader = ParquetRecordBatchReaderBuilder::try_new(file).unwrap().build().unwrap();
    reader.map(Result::unwrap).collect()
}

fn rows(batches: &[RecordBatch]) -> usize {
    batches.iter().map(RecordBatch::num_rows).sum()
}

/// The values of a text column, all batches.
fn texts(batches: &[RecordBatch], column: &str) -> Vec<Option<String>> {
    batches
        .iter()
        .flat_map(|b| {
            let c = b.column_by_name(column).unwrap_or_else(|| panic!("no column {column}"));
            c.as_string::<i32>().iter().map(|v| v.map(str::to_string)).collect::<Vec<_>>()
        })
        .collect()
}

/// `(source, index, status)` of each JSON line of `qipu validate --format json` on `inputs`
/// that is a game (not an input that holds no record), and the exit code.
fn validated(inputs: &[String]) -> (Vec<(String, u64, String)>, i32) {
    let out = qipu().arg("validate").args(inputs).args(["--format", "json", "-j", "2"]).output().unwrap();
    let lines = String::from_utf8(out.stdout).unwrap();
    let games = lines
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["status"] != "no-record")
        .map(|v| {
            (
                v["source"].as_str().unwrap().to_string(),
                v["index"].as_u64().unwrap(),
                v["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (games, out.status.code().unwrap())
}

#[test]
fn games_are_one_row_each_as_validate_counts_them() {
    let dir = tempdir("rows");
    let inputs = mixed(&dir);
    let out = dir.join("out/");
    let run = qipu()
        .arg("export")
        .args(&inputs)
        .args(["-o", out.to_str().unwrap(), "--positions", "-j", "2"])
        .output()
        .unwrap();
    let (expected, code) = validated(&inputs);
    assert_eq!(run.status.code(), Some(code), "{}", stderr(&run));
    assert_eq!(code, 1);
    // The summary line, as validate's.
    let summary = stderr(&run).lines().last().unwrap().to_string();
    assert!(summary.starts_with(&format!("{} game(s): ", expected.len())), "{summary}");
    assert!(summary.contains(" 1 illegal, 1 unreadable"), "{summary}");
    let games = read(&out.join("games.parquet"));
    assert_eq!(rows(&games), expected.len());
    let sources = texts(&games, "source");
    let statuses = texts(&games, "status");
    let indices: Vec<u64> = games
        .iter()
        .flat_map(|b| {
            b.column_by_name("index")
                .unwrap()
                .as_primitive::<UInt32Type>()
                .iter()
                .map(|v| u64::from(v.unwrap()))
                .collect::<Vec<_>>()
        })
        .collect();
    let got: Vec<(String, u64, String)> = sources
        .into_iter()
        .zip(indices)
        .zip(statuses)
        .map(|((s, i), st)| (s.unwrap(), i, st.unwrap()))
        .collect();
    assert_eq!(got, expected);
    // The illegal game: its error as validate's JSON has it; the unreadable input: its reason.
    let bad = got.iter().position(|(s, _, _)| s.ends_with("bad.pgn")).unwrap();
    let messages = texts(&games, "error_message");
    assert!(messages[bad].as_deref().unwrap().contains("no Red piece on h2"), "{:?}", messages[bad]);
    let empty = got.iter().position(|(s, _, _)| s.ends_with("empty.pgn")).unwrap();
    assert_eq!(got[empty].2, "unreadable");
    assert_eq!(messages[empty].as_deref(), Some("empty file"));
    // Positions: each game's start and each move that replayed; none of the unreadable input.
    let positions = read(&out.join("positions.parquet"));
    let plies: u64 = games
        .iter()
        .flat_map(|b| {
            b.column_by_name("plies")
                .unwrap()
                .as_primitive::<UInt32Type>()
                .iter()
                .map(|v| u64::from(v.unwrap()))
                .collect::<Vec<_>>()
        })
        .sum();
    assert_eq!(rows(&positions) as u64, plies + expected.len() as u64 - 1);
    let bad_moves: Vec<Option<String>> = texts(&positions, "move")
        .into_iter()
        .zip(texts(&positions, "source"))
        .filter(|(_, s)| s.as_deref().unwrap().ends_with("bad.pgn"))
        .map(|(m, _)| m)
        .collect();
    assert_eq!(bad_moves, [Some("h2e2".to_string()), Some("h9g7".to_string()), None]);
    // The typed columns are there, the map of the other tags too.
    let schema = games[0].schema();
    for column in ["red", "black", "date", "year", "red_elo", "moves", "tags", "line_key", "ecco"] {
        assert!(schema.field_with_name(column).is_ok(), "{column}");
    }
    let first_moves = games[0].column_by_name("moves").unwrap().as_list::<i32>().value(0);
    assert!(!first_moves.is_empty());
}

#[test]
fn one_file_holds_one_table() {
    let dir = tempdir("one");
    let path = dir.join("positions.parquet");
    let fixture = "fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn";
    let run = qipu().args(["export", fixture, "--positions", "-o", path.to_str().unwrap()]).output().unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let positions = read(&path);
    assert_eq!(rows(&positions), 1391 + 120_357);
    assert_eq!(positions[0].schema().field(2).name(), "ply");
    // Selected games only, as every command selects them.
    let path = dir.join("games.parquet");
    let run =
        qipu().args(["export", fixture, "--limit", "10", "-o", path.to_str().unwrap()]).output().unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(rows(&read(&path)), 10);
    // Not written over without --force.
    let again = qipu().args(["export", fixture, "-o", path.to_str().unwrap()]).output().unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("exists"), "{}", stderr(&again));
    let forced = qipu().args(["export", fixture, "--force", "-o", path.to_str().unwrap()]).output().unwrap();
    assert_eq!(forced.status.code(), Some(0));
    assert_eq!(rows(&read(&path)), 1391);
}

#[test]
fn an_input_is_never_written_over() {
    let dir = tempdir("input");
    let input = dir.join("games.parquet");
    std::fs::write(&input, "1. h2e2 h9g7 *\n").unwrap();
    let run = qipu()
        .args(["export", input.to_str().unwrap(), "--force", "-o", input.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("is an input file"), "{}", stderr(&run));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "1. h2e2 h9g7 *\n");
    // Nor a file of a folder given as -o DIR.
    let run = qipu()
        .args(["export", input.to_str().unwrap(), "--force", "-o", &format!("{}/", dir.display())])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "1. h2e2 h9g7 *\n");
}

#[test]
fn partitions_are_hive_folders() {
    let dir = tempdir("hive");
    let inputs = mixed(&dir);
    let out = dir.join("out/");
    let run = qipu()
        .arg("export")
        .args(&inputs)
        .args(["-o", out.to_str().unwrap(), "--positions", "--partition-by", "year"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let (expected, _) = validated(&inputs);
    let mut total = 0;
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(out.join("games")).unwrap() {
        let folder = entry.unwrap().path();
        let name = folder.file_name().unwrap().to_str().unwrap().to_string();
        assert!(name.starts_with("year="), "{name}");
        let batches = read(&folder.join("part-0.parquet"));
        // The partition's column is the folder's, not the file's.
        assert!(batches[0].schema().field_with_name("year").is_err());
        assert!(batches[0].schema().field_with_name("date").is_ok());
        total += rows(&batches);
        folders.push(name);
    }
    folders.sort();
    assert!(folders.contains(&"year=1990".to_string()), "{folders:?}");
    assert!(folders.contains(&"year=__HIVE_DEFAULT_PARTITION__".to_string()), "{folders:?}");
    assert_eq!(total, expected.len());
    assert!(out.join("positions/year=1990/part-0.parquet").is_file());
    // By source: a folder an input, its name escaped.
    let out = dir.join("by-source/");
    let run = qipu()
        .arg("export")
        .args(&inputs)
        .args(["-o", out.to_str().unwrap(), "--partition-by", "source"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let names: Vec<String> = std::fs::read_dir(out.join("games"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().all(|n| n.starts_with("source=") && !n.contains('/')), "{names:?}");
    assert!(names.iter().any(|n| n.ends_with("%2Fpgn%2FHu_Ronghua_1391_UCI_games.pgn")), "{names:?}");
}

#[test]
fn an_arrow_stream_is_read_back_by_arrow_ipc() {
    let dir = tempdir("ipc");
    let inputs = mixed(&dir);
    let out = qipu().arg("export").args(&inputs).args(["--to", "arrow"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let reader = qipu::table::ipc::StreamReader::try_new(std::io::Cursor::new(out.stdout), None).unwrap();
    assert_eq!(reader.schema(), qipu::table::games_schema());
    let batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    let (expected, _) = validated(&inputs);
    assert_eq!(rows(&batches), expected.len());
    // Positions into a file.
    let path = dir.join("positions.arrows");
    let fixture = "fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn";
    let run = qipu()
        .args(["export", fixture, "--to", "arrow", "--positions", "-o", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let reader = qipu::table::ipc::StreamReader::try_new(std::fs::File::open(&path).unwrap(), None).unwrap();
    assert_eq!(reader.map(|b| b.unwrap().num_rows()).sum::<usize>(), 1391 + 120_357);
}

#[test]
fn what_cannot_be_written_is_told() {
    let fixture = "fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn";
    let run = qipu().args(["export", fixture]).output().unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("give -o DIR"), "{}", stderr(&run));
    let run = qipu().args(["export", fixture, "-o", "x.parquet", "--partition-by", "year"]).output().unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("--partition-by writes a folder"), "{}", stderr(&run));
    assert!(!Path::new("x.parquet").exists());
}

/// Binary data is never written onto a terminal: standard output a pseudo-terminal.
#[cfg(target_os = "linux")]
#[test]
fn no_stream_onto_a_terminal() {
    // `script` gives the command a terminal; skipped where it is not installed.
    let Ok(probe) = std::process::Command::new("script").arg("--version").output() else { return };
    if !probe.status.success() {
        return;
    }
    let bin = env!("CARGO_BIN_EXE_qipu");
    let command = format!("{bin} export fixtures/pgn --to arrow");
    let out = std::process::Command::new("script").args(["-qec", &command, "/dev/null"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("writes binary data"), "{text}");
    assert!(!text.contains("ARROW1") && text.len() < 1000, "{text}");
    let _ = qipu_process;
}

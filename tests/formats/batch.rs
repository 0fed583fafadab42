//! The batch pipeline (`qipu::batch`): what the sink is told is the same on
//! one thread and on several, in input order; games of a large input are
//! numbered on across its chunks; a stopping sink stops the batch; a
//! panicking visitor ends it with the panic rather than a hang.

use crate::common;

use std::path::PathBuf;

use qipu::batch::{self, Batch, Checker, Event, Meta, Status};
use qipu::record::{Span, Visitor};

/// What a sink was told, as text: one line an event.
fn told(inputs: &[batch::Input], threads: usize) -> Vec<String> {
    let mut lines = Vec::new();
    Batch::new()
        .threads(threads)
        .run(inputs, Checker::default, |meta: &Meta, event| {
            lines.push(match event {
                Event::Games { first, games } => {
                    let count = |s: Status| games.iter().filter(|g| g.status == s).count();
                    let plies: usize = games.iter().map(|g| g.replayed.plies).sum();
                    let (valid, illegal) = (count(Status::Valid), count(Status::Illegal));
                    let (source, format) = (&meta.source, meta.format);
                    let encoding = meta.encoding.unwrap_or("-");
                    format!("{source} {format} {encoding}: games from {first}: {valid} valid {illegal} illegal, {plies} plies")
                }
                Event::Unreadable(why) => format!("{}: unreadable: {why}", meta.source),
                Event::NoRecord(why) => format!("{}: no record: {why}", meta.source),
                Event::Done => format!("{}: done", meta.source),
            });
            Ok::<(), ()>(())
        })
        .unwrap();
    lines
}

/// How many valid games a `games from` line of [`told`] counts.
fn valid_told(line: &str) -> usize {
    line.split(": ").nth(2).unwrap().split(' ').next().unwrap().parse().unwrap()
}

/// A PGN text of `n` short games, numbered in their `Event` tags.
fn games(n: usize) -> String {
    (0..n).map(|k| format!("[Event \"{k}\"]\n1. h2e2 h9g7 2. h0g2 i9h9 1-0\n\n")).collect()
}

/// A folder of every kind of input: small files, a large PGN file read in
/// chunks, a file of prose, an empty file, an unreadable XQF; and a path
/// that does not exist.
fn mixed_inputs(test: &str) -> Vec<batch::Input> {
    let dir = common::scratch(test);
    std::fs::write(dir.join("a.pgn"), games(3)).unwrap();
    std::fs::write(dir.join("b-large.pgn"), games(60_000)).unwrap(); // 3 MB
    std::fs::write(dir.join("c-notes.txt"), "Notes on the collection, not a game.\n").unwrap();
    std::fs::write(dir.join("d-empty.pgn"), "").unwrap();
    std::fs::write(dir.join("e.xqf"), b"XQ\x0a damaged").unwrap();
    std::fs::write(dir.join("f.pgn"), "[Event \"x\"]\n1. h2e2 h9g7 2. h2e9 *\n").unwrap();
    batch::expand(&[dir, PathBuf::from("no/such/file.pgn")]).inputs
}

#[test]
fn one_thread_and_several_tell_the_same_in_input_order() {
    let inputs = mixed_inputs("batch-mixed-1");
    let one = told(&inputs, 1);
    for threads in [2, 3, 8] {
        assert_eq!(told(&inputs, threads), one, "{threads} threads");
    }
    // Every input ends with `done`, in order.
    let done: Vec<&String> = one.iter().filter(|l| l.ends_with(": done")).collect();
    assert_eq!(done.len(), inputs.len());
    let text = one.join("\n");
    assert!(text.contains("c-notes.txt: no record:"), "{text}");
    assert!(text.contains("d-empty.pgn: unreadable: empty file"), "{text}");
    assert!(text.contains("e.xqf: unreadable:"), "{text}");
    assert!(text.contains("no/such/file.pgn: unreadable: no such file"), "{text}");
    assert!(text.contains("f.pgn pgn utf-8: games from 0: 0 valid 1 illegal, 2 plies"), "{text}");
}

#[test]
fn a_large_input_is_read_in_chunks_with_its_games_numbered_on() {
    let inputs = mixed_inputs("batch-mixed-2");
    let large: Vec<String> = told(&inputs, 3).into_iter().filter(|l| l.contains("b-large.pgn pgn")).collect();
    assert!(large.len() > 1, "read in more than one chunk: {}", large.len());
    let mut next = 0;
    for line in &large {
        let first: usize =
            line.split("games from ").nth(1).unwrap().split(':').next().unwrap().parse().unwrap();
        assert_eq!(first, next, "the runs of games follow each other");
        next += valid_told(line);
    }
    assert_eq!(next, 60_000);
}

#[test]
fn bytes_in_memory_are_read_as_a_file_is() {
    // Small and large (read in chunks), plain and gzip, beside a file: what
    // the sink is told is what the same bytes in a file give, under the
    // name given.
    let dir = common::scratch("batch-bytes");
    let small = games(3);
    let large = games(60_000);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, small.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let path = dir.join("a.pgn");
    std::fs::write(&path, &small).unwrap();
    let bytes = |name: &str, data: &[u8]| batch::Input::Bytes { name: name.into(), bytes: data.into() };
    let inputs = vec![
        bytes("<small>", small.as_bytes()),
        bytes("<large>", large.as_bytes()),
        bytes("<gzip>", &gz),
        bytes("<empty>", b""),
        batch::Input::File { path: path.clone(), found: false, len: None },
    ];
    let one = told(&inputs, 1);
    assert_eq!(told(&inputs, 3), one);
    let text = one.join("\n");
    let file = format!("{}", path.display());
    let of = |name: &str| -> Vec<String> {
        one.iter()
            .filter(|l| l.starts_with(&format!("{name} ")) || l.starts_with(&format!("{name}:")))
            .cloned()
            .collect()
    };
    let as_file: Vec<String> = of(&file).iter().map(|l| l.replacen(&file, "<small>", 1)).collect();
    assert_eq!(as_file.len(), 2, "its games, then done: {text}");
    assert_eq!(of("<small>"), as_file, "{text}");
    assert_eq!(of("<gzip>").iter().map(|l| l.replacen("<gzip>", "<small>", 1)).collect::<Vec<_>>(), as_file);
    let large_runs = of("<large>");
    assert!(large_runs.len() > 2, "read in more than one chunk: {text}");
    let valid: usize = large_runs.iter().filter(|l| l.contains("games from")).map(|l| valid_told(l)).sum();
    assert_eq!(valid, 60_000);
    assert!(text.contains("<empty>: unreadable: empty file"), "{text}");
}

#[test]
fn files_that_change_after_the_walk_are_read_as_they_are_then() {
    // The walk notes each file's size; a file that grew past the size read
    // whole, or shrank, or is gone by the time it is read, is read as it
    // is then.
    let dir = common::scratch("batch-changed");
    std::fs::write(dir.join("a-grows.pgn"), games(2)).unwrap();
    std::fs::write(dir.join("b-shrinks.pgn"), games(30_000)).unwrap(); // 1.5 MB
    std::fs::write(dir.join("c-goes.pgn"), games(1)).unwrap();
    let inputs = batch::expand(std::slice::from_ref(&dir)).inputs;
    let lens: Vec<Option<u64>> =
        inputs.iter().map(|i| if let batch::Input::File { len, .. } = i { *len } else { None }).collect();
    assert!(lens.iter().all(Option::is_some), "{lens:?}");
    std::fs::write(dir.join("a-grows.pgn"), games(40_000)).unwrap(); // 2 MB
    std::fs::write(dir.join("b-shrinks.pgn"), games(3)).unwrap();
    std::fs::remove_file(dir.join("c-goes.pgn")).unwrap();
    for threads in [1, 2] {
        let text = told(&inputs, threads).join("\n");
        let count = |name: &str| -> usize {
            text.lines().filter(|l| l.contains(name) && l.contains("games from")).map(valid_told).sum()
        };
        assert_eq!((count("a-grows.pgn"), count("b-shrinks.pgn")), (40_000, 3), "{threads} threads");
        assert!(text.contains("c-goes.pgn: unreadable: cannot read:"), "{text}");
    }
}

#[test]
fn the_checker_reads_what_the_corpus_validates() {
    // On the bundled fixture: every game is valid, and one thread and two agree.
    let inputs = batch::expand(&["fixtures/pgn".into()]).inputs;
    let mut statuses = Vec::new();
    Batch::new()
        .threads(2)
        .run(&inputs, Checker::default, |_, event| {
            if let Event::Games { games, .. } = event {
                statuses.extend(games.into_iter().map(|g| g.status));
            }
            Ok::<(), ()>(())
        })
        .unwrap();
    assert_eq!(statuses.len(), 1391);
    assert!(statuses.iter().all(|&s| s == Status::Valid));
}

#[test]
fn a_sink_that_stops_stops_the_batch() {
    let inputs = mixed_inputs("batch-mixed-3");
    for threads in [1, 3] {
        let (mut runs, mut after) = (0, 0);
        let result = Batch::new().threads(threads).run(&inputs, Checker::default, |_, event| {
            if runs == 2 {
                after += 1;
            }
            match event {
                Event::Games { .. } => {
                    runs += 1;
                    if runs == 2 { Err("closed") } else { Ok(()) }
                }
                _ => Ok(()),
            }
        });
        assert_eq!(result, Err("closed"));
        assert_eq!(after, 0, "nothing is told after the sink stopped ({threads} threads)");
    }
}

/// A visitor that panics on the game whose `Event` is `boom`.
#[derive(Default)]
struct Fragile;

impl Visitor for Fragile {
    type Output = ();

    fn tag(&mut self, name: &str, value: &str, _: Span) {
        assert!(!(name == "Event" && value == "boom"), "a visitor's bug");
    }

    fn end_game(&mut self) {}
}

#[test]
fn a_panicking_visitor_ends_the_batch_with_its_panic() {
    let dir = common::scratch("batch-panic");
    let mut text = games(40_000);
    text.push_str("[Event \"boom\"]\n1. h2e2 *\n\n");
    text.push_str(&games(40_000));
    std::fs::write(dir.join("large.pgn"), text).unwrap();
    let inputs = batch::expand(&[dir]).inputs;
    for threads in [1, 2] {
        let run = std::panic::catch_unwind(|| {
            Batch::new().threads(threads).run(&inputs, || Fragile, |_, _| Ok::<(), ()>(()))
        });
        let panic = run.expect_err("the panic is the batch's");
        let message =
            panic.downcast_ref::<String>().map(String::as_str).or(panic.downcast_ref::<&str>().copied());
        assert_eq!(message, Some("a visitor's bug"), "{threads} threads");
    }
}

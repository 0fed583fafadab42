//! The readers that read into a [`Game`] tell the events that the record
//! they built before told, build the same record through
//! [`RecordBuilder`], and honour `Skip` and `Break`: on the corpus (skipped
//! with a message when it is not beside the project) and on generated
//! games with variations and comments written in every format that stores
//! a tree.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::Game;
use crate::formats::detect::{self, Format};
use crate::formats::{cbf, ccbridge, dhtmlxq, encoding, mxq, online, sg, sniff, xqf};
use crate::record::{
    GameResult, MoveText, Record, RecordBuilder, RecordedMove, Skip, Span, Visitor, Warning,
};
use crate::{Move, Position};

/// Every event, written out, so that two walks can be compared; skips
/// every variation and stops after `stop` moves when asked.
#[derive(Default)]
struct Told {
    skip: bool,
    stop: Option<usize>,
    moves: usize,
    events: Vec<String>,
}

impl Visitor for Told {
    type Output = Vec<String>;

    fn begin_game(&mut self, at: Span) {
        self.events.push(format!("begin {at}"));
    }

    fn tag(&mut self, name: &str, value: &str, at: Span) {
        self.events.push(format!("tag {name} {value:?} {at}"));
    }

    fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
        self.moves += 1;
        self.events.push(format!("move {:?} {}", mv.text, mv.at));
        if self.stop.is_some_and(|n| self.moves >= n) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn nag(&mut self, nag: u8) {
        self.events.push(format!("nag {nag}"));
    }

    fn comment(&mut self, text: &str) {
        self.events.push(format!("comment {text:?}"));
    }

    fn comment_before(&mut self, text: &str) {
        self.events.push(format!("before {text:?}"));
    }

    fn begin_variation(&mut self) -> Skip {
        self.events.push("(".into());
        Skip(self.skip)
    }

    fn end_variation(&mut self) {
        self.events.push(")".into());
    }

    fn result(&mut self, result: GameResult) {
        self.events.push(format!("result {result}"));
    }

    fn warning(&mut self, warning: Warning) {
        self.events.push(format!("warning {} {}", warning.at, warning.message));
    }

    fn unreadable(&mut self, why: Warning) {
        self.events.push(format!("unreadable {} {}", why.at, why.message));
    }

    fn end_game(&mut self) -> Vec<String> {
        self.moves = 0;
        self.events.push("end".into());
        std::mem::take(&mut self.events)
    }
}

/// The games of a file, read as [`crate::formats::read_with`] reads them
/// (a record that cannot be read left out).
fn games(bytes: &[u8]) -> Vec<Game> {
    let mut games = Vec::new();
    match detect::detect(bytes) {
        Format::Xqf => games.extend(xqf::read_game(bytes).ok()),
        Format::Cbr => games.extend(ccbridge::cbr::read_game(bytes).ok()),
        Format::Mxq => games.extend(mxq::read_game(bytes).ok()),
        Format::Cbl => {
            let _ = ccbridge::each_game(bytes, |g| games.extend(g.ok()));
        }
        Format::Sg => sg::each_game(bytes, |g| games.extend(g.ok())),
        Format::Che => games.extend(online::che::read_game(bytes).ok()),
        Format::Ccm => games.extend(online::ccm::read_game(bytes).ok()),
        Format::Chn => games.extend(online::chn::read_game(bytes).ok()),
        Format::Ubb => games.extend(online::ubb::read_game(bytes).ok()),
        Format::Binary => {}
        _ => {
            let text = encoding::decode(bytes, None).text;
            match sniff::text_format(&text) {
                Format::Dhtmlxq => dhtmlxq::read_each(&text, 1, |g| games.push(g)),
                Format::Cbf => games.extend(cbf::read_game(&text).ok()),
                Format::Pfc => games.extend(crate::formats::pfc::read_game(&text).ok()),
                Format::Dhj => crate::formats::dhtmlxq::dhj::read_each(&text, |g| games.push(g)),
                #[cfg(feature = "serde")]
                Format::Json => {
                    let mut reader = crate::formats::json::LineReader::default();
                    for line in text.lines() {
                        reader.push_line(line);
                    }
                    games.extend(reader.games);
                }
                _ => {}
            }
        }
    }
    games
}

/// The moves of a record in depth-first order, each with its place among
/// its parent's moves: the tree's shape, whatever the order of its nodes.
fn shape(record: &Record) -> Vec<(String, usize)> {
    let tree = record.tree();
    tree.depth_first()
        .skip(1)
        .map(|id| {
            let parent = tree.node(id).parent.expect("a move has a parent");
            let place = tree.children(parent).position(|c| c == id).expect("a child of its parent");
            (format!("{:?}", tree.node(id).mv.as_ref().map(|m| &m.text)), place)
        })
        .collect()
}

/// Checks one game: its events are those of the record it makes (in the
/// file's order, as the readers built it), that record and the one its
/// events build are the same game, and `Skip` and `Break` are honoured.
fn check(game: &Game, what: &str) {
    let record = game.clone().into_record();
    let told = game.tell_events(&mut Told::default());
    assert_eq!(told, record.visit(&mut Told::default()), "{what}: the events differ from the record's");
    // A builder is handed the record in the file's order, as before.
    assert_eq!(
        game.clone().tell(&mut RecordBuilder::default()),
        record,
        "{what}: another record handed over"
    );
    // The events alone build the same game (its nodes in the order told).
    let built = game.tell_events(&mut RecordBuilder::default());
    assert_eq!(built, record.visit(&mut RecordBuilder::default()), "{what}: another record");
    assert_eq!(shape(&built), shape(&record), "{what}: another tree");
    assert_eq!(
        (built.tags(), built.warnings(), built.written_result()),
        (record.tags(), record.warnings(), record.written_result())
    );
    assert_eq!(
        (built.at(), built.start_at(), &built.unreadable()),
        (record.at(), record.start_at(), &record.unreadable())
    );

    // Every variation skipped: exactly the main line, and no variation ends.
    let main: Vec<String> = record
        .tree()
        .main_line()
        .map(|id| {
            let mv = record.tree().node(id).mv.as_ref().expect("a move");
            format!("move {:?} {}", mv.text, mv.at)
        })
        .collect();
    let skipped = game.tell_events(&mut Told { skip: true, ..Told::default() });
    let moves: Vec<&String> = skipped.iter().filter(|e| e.starts_with("move ")).collect();
    assert_eq!(moves, main.iter().collect::<Vec<_>>(), "{what}: skipping gives another main line");
    assert!(!skipped.iter().any(|e| e == ")"), "{what}: a skipped variation ended");

    // Stopped after a few moves: no more moves, the result and the end
    // still told, every variation begun ended.
    let all = told.iter().filter(|e| e.starts_with("move ")).count();
    for stop in [1, 3, all / 2 + 1] {
        let stopped = game.tell_events(&mut Told { stop: Some(stop), ..Told::default() });
        let moves = stopped.iter().filter(|e| e.starts_with("move ")).count();
        assert_eq!(moves, stop.min(all), "{what}: stopped after {stop}");
        assert_eq!(stopped.last().map(String::as_str), Some("end"));
        if let Some(result) = record.written_result() {
            assert!(stopped.contains(&format!("result {result}")), "{what}: no result after a stop");
        }
        let open = stopped.iter().filter(|e| *e == "(").count();
        let closed = stopped.iter().filter(|e| *e == ")").count();
        assert_eq!(open, closed, "{what}: variations left open after a stop");
        // The moves told are the first ones of the whole walk.
        let first: Vec<&String> = told.iter().filter(|e| e.starts_with("move ")).take(stop).collect();
        let got: Vec<&String> = stopped.iter().filter(|e| e.starts_with("move ")).collect();
        assert_eq!(got, first, "{what}: stopped on other moves");
    }
}

fn files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_corpus_tells_what_its_records_told() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    for set in ["xqf", "ccbridge", "mxq", "sg", "dhtmlxq"] {
        let dir = root.join(set);
        if !dir.is_dir() {
            eprintln!("skipped: {} is not there", dir.display());
            continue;
        }
        let (mut read, mut variations) = (0, 0);
        for path in files(&dir) {
            let Ok(bytes) = std::fs::read(&path) else { continue };
            for (k, game) in games(&bytes).iter().enumerate() {
                check(game, &format!("{} game {k}", path.display()));
                read += 1;
                variations += game.clone().into_record().tree().variation_count();
            }
        }
        eprintln!("{set}: {read} games, {variations} variations");
        assert!(read > 0, "{set}: no game read");
    }
}

/// A legal game with variations (some nested) and comments on moves,
/// variations and the start, chosen by `choices`.
fn generated(choices: &[u8]) -> Record {
    let mut record = Record::default();
    record.push_tag("Event", "generated");
    record.push_tag("Red", "许银川");
    let tree = record.tree_mut();
    let root = tree.root();
    tree.node_mut(root).notes_mut().comment = Some("开局".into());
    let coords = |m: Move| RecordedMove { text: MoveText::Coords(m), at: Span::default() };
    // Lines to grow: a node and its position.
    let mut lines = vec![(root, Position::start(), 0usize)];
    let mut c = choices.iter().copied().cycle();
    let mut made = 0;
    while made < choices.len() * 2 {
        let Some((at, pos, depth)) = lines.pop() else { break };
        let legal = pos.legal_moves();
        if legal.is_empty() {
            continue;
        }
        let pick = c.next().unwrap_or(0) as usize;
        let m = legal[pick % legal.len()];
        let node = tree.add_child(at, coords(m));
        made += 1;
        if pick.is_multiple_of(3) {
            tree.node_mut(node).notes_mut().comment = Some(format!("第{made}手\n好棋"));
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        // Now and then an alternative, grown as a line of its own.
        if pick % 4 == 1 && legal.len() > 1 && depth < 3 {
            let other = legal[(pick + 1) % legal.len()];
            let alt = tree.add_child(at, coords(other));
            made += 1;
            tree.node_mut(alt).notes_mut().comment = Some("变着".into());
            let mut there = pos.clone();
            there.play_unchecked(other);
            lines.insert(0, (alt, there, depth + 1));
        }
        lines.push((node, after, depth));
    }
    record.set_written_result(Some(GameResult::Draw));
    record
}

#[test]
fn generated_games_in_every_tree_format_tell_what_they_hold() {
    use crate::formats::{WriteOptions, write::WriteFormat};
    for seed in 0u32..60 {
        let choices: Vec<u8> =
            (0..1 + seed as usize % 40).map(|i| (seed * 31 + i as u32 * 17) as u8).collect();
        let record = generated(&choices);
        let mut files = Vec::new();
        let mut formats = vec![WriteFormat::Xqf, WriteFormat::Cbr, WriteFormat::Dhtmlxq];
        #[cfg(feature = "serde")]
        formats.push(WriteFormat::Json);
        for format in formats {
            let mut options = WriteOptions::new(format);
            options.xqf_version = if seed % 2 == 0 { xqf::Version::V10 } else { xqf::Version::V18 };
            files.push((format!("{format:?}"), crate::formats::write(&record, &options).expect("written")));
        }
        let library = ccbridge::write_cbl(&[record.clone(), record.clone()], "generated");
        files.push(("CBL".into(), library.bytes));
        for (format, bytes) in files {
            let games = games(&bytes);
            assert_eq!(games.len(), if format == "CBL" { 2 } else { 1 }, "{format}");
            for game in &games {
                check(game, &format!("seed {seed} {format}"));
                let read = game.clone().tell(&mut RecordBuilder::default());
                let moves = |r: &Record| -> Vec<(Option<Move>, usize)> {
                    let replayed = r.replayed();
                    let tree = r.tree();
                    tree.depth_first()
                        .skip(1)
                        .map(|id| {
                            let parent = tree.node(id).parent.expect("a parent");
                            (
                                replayed.resolution.move_of(id),
                                tree.children(parent).position(|c| c == id).unwrap(),
                            )
                        })
                        .collect()
                };
                assert_eq!(moves(&read), moves(&record), "seed {seed} {format}: other moves");
                assert!(read.replayed().is_valid(), "seed {seed} {format}");
            }
        }
    }
}

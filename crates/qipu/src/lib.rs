//! qipu (棋谱) reads, checks and converts Xiangqi (Chinese chess) game
//! records.
//!
//! Records are read from PGN (moves in Chinese, WXF, ICCS or WinBoard SAN),
//! plain Chinese text, XQF, DhtmlXQ (and its DHJHtmlXQ dialect), 象棋桥 CBR, CBL and CBF, 鹏飞
//! PFC, WXF game files, 象棋世家 `.mxq` files, `.SG` files, QQ象棋 `.che`, 中游 `.ccm` and 联众
//! `.chn` files and qipu's JSON lines, in UTF-8, GBK/GB18030, Big5 or UTF-16 (detected),
//! into one format-neutral [`Record`](record::Record); every move of the
//! main line and of every variation is replayed through a complete rules
//! engine and every wrong move is reported with its ply, place and reason;
//! records are written as PGN (in any notation), JSON, XQF, DhtmlXQ, 象棋桥
//! CBR and CBL or 鹏飞 PFC, or shown in a self-contained HTML viewer page;
//! and engines annotate games ([`engine`], [`analysis::annotate`]).
//!
//! # Layers
//!
//! Each layer depends only on the ones before it:
//!
//! | module | what it holds |
//! |---|---|
//! | [`text`] | text compared whatever its script and width: traditional Chinese folded to simplified, full-width ASCII to ASCII ([`text::fold`]) |
//! | [`rules`] | the board vocabulary ([`Square`], [`Piece`], [`Board`]), FEN, [`Setup`] (any placement) and [`Position`] (validated), legal moves with every rule of play, checkmate and stalemate (both lose for the side to move), the natural move limit, repetition and perpetual check ([`History`]), Zobrist hashing, [`perft`] |
//! | [`notation`] | move text: Chinese (炮二平五), WXF (`C2.5`), ICCS (`H2-E2`, `h2e2`) and SAN, each parsed without a position, resolved against one, and written |
//! | [`diagram`] | board diagrams of a position: for the terminal ([`diagram::text::text`], box drawing, plain or coloured) and a standalone SVG drawing ([`diagram::svg::svg`], and [`diagram::svg::svg_frame`] for pages that place the pieces themselves) |
//! | [`record`] | the game record ([`record::Record`]: tags, a move tree, the result), the event interface every reader drives ([`record::Visitor`]), the visitor that builds records ([`record::RecordBuilder`]) and the one that replays games ([`record::replay::Replayer`], [`record::replay::replay`]) |
//! | [`formats`] | format detection and text decoding, a reader for every format ([`formats::read`], [`formats::read_with`], [`formats::stream::read_stream_with`]) and the writers, every one through [`formats::write()`] ([`formats::write::WriteOptions`], one [`formats::WriteError`]), or each its own ([`formats::pgn::write`], [`formats::xqf::write`], [`formats::dhtmlxq::write`], [`formats::html::page`] (a game viewer page), and `formats::json::write` with the `serde` feature) |
//! | [`batch`] | many inputs (files, folders, standard input) read by a visitor on several threads, answered in input order ([`batch::Batch`]), the visitor that checks games ([`batch::Checker`]) and the report of each ([`batch::Report`]) |
//! | [`output`] | files written safely, whole or not at all, never over an input or a device, an existing file only when asked ([`output::OutputFile`], [`output::InputFiles`], the files of a split: [`output::Parts`]), and the one file-name rule ([`output::names`]: Windows device names, names unique whatever their case) |
//! | [`analysis`] | statistics (and their HTML page of SVG charts), ECCO opening classification, opening trees, games annotated from an engine's searches ([`analysis::annotate`]) |
//! | [`dedupe`] | copies of games: fixed-size keys of main lines ([`dedupe::Keyer`]), groups of copies and which one is kept ([`dedupe::Collection`]), copies left out in one pass ([`dedupe::Dedupe`]) |
//! | [`engine`] | engines as processes: UCI and UCCI ([`engine::protocol`]), one engine ([`engine::Engine`]), several searching games in parallel with restarts and games back in order ([`engine::Pool`]), and with the `obs` feature a cache of searches in SQLite |
//! | [`select`] | which games a pass takes: criteria judged where each game is read ([`select::Selection`]), the in-order part (numbers, skip, limit, copies: [`select::Selector`]), every selection flag of the command as one struct ([`select::Options`] making a [`select::Chooser`]), and the pass every command runs ([`select::Chooser::pass`]) |
//! | [`index`] | a position index of a collection on disk: every main-line position under its Zobrist key (mirrors merged on request), built in one pass in bounded memory and updated by input ([`index::Builder`]), asked which games reach a position, a sub-position, a material balance or a run of moves ([`index::Index`]) |
//!
//! The `qipu` command is the binary's own (`src/cli`, not part of the
//! library). Features:
//!
//! - `cli` (default): the command; brings clap. Depend on the library with
//!   `default-features = false` to leave it out.
//! - `parallel`: batches on several threads (rayon); without it
//!   [`batch::Batch`] runs on the calling thread.
//! - `serde`: JSON records (`formats::json`) and serializable statistics.
//!
//! The examples below read inline text or the bundled fixture;
//! `examples/` in the repository has programs to start from:
//! `count_moves` (a visitor over files of any format),
//! `skip_variations` (skipping variations, stopping a game early),
//! `parallel_validate` (a folder validated with one batch call) and
//! `library-only` (a crate that depends on qipu without the command).
//!
//! # Validate
//!
//! [`formats::read`] reads the records of a file of any format, from its
//! bytes; each record replays itself once, when asked
//! ([`Record::replayed`](record::Record::replayed)), and says where it goes
//! wrong:
//!
//! ```
//! let bytes = "[Event \"测试\"]\n1. 炮二平五 马８进７\n2. 马二进四 *\n".as_bytes();
//! let parsed = qipu::formats::read(bytes, None)?;
//! assert_eq!(parsed.format.name(), "pgn");
//! let replayed = parsed.records[0].replayed();
//! assert!(!replayed.is_valid());
//! let error = replayed.error.as_ref().unwrap();
//! assert_eq!((error.ply, error.text.as_str()), (3, "马二进四"));
//! assert_eq!(error.to_string(), "ply 3 (line 3, column 4): 马二进四: illegal: h0f1: the horse is blocked at g0 (horse leg)");
//! assert_eq!(replayed.plies, 2); // the moves before it replayed
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A file on disk is read the same way (`std::fs::read(path)?`), or a
//! piece at a time with a visitor ([`formats::stream::read_stream_with`]:
//! PGN, JSON and DhtmlXQ text and CBL libraries in bounded memory whatever
//! their size); the
//! [`Checker`](batch::Checker) checks each game as it is read, without
//! building it:
//!
//! ```
//! use qipu::batch::{Checker, Status};
//! use qipu::formats::stream::read_stream_with;
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn");
//! let (mut games, mut valid) = (0, 0);
//! let read = read_stream_with(std::fs::File::open(path)?, None, &mut Checker::default(), |checked| {
//!     games += 1;
//!     valid += usize::from(checked.status == Status::Valid);
//! })?;
//! assert_eq!((read.format.name(), games, valid), ("pgn", 1391, 1391));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Convert
//!
//! Writers take a record and write its moves as its replay settled them:
//!
//! ```
//! use qipu::formats::{self, dhtmlxq, pgn, xqf};
//! use qipu::notation::Notation;
//!
//! let text = "[Red \"许银川\"]\n1. 炮二平五 {中炮} 马８进７ (1... 象３进５) 2. 马二进三 *\n";
//! let record = &formats::read(text.as_bytes(), None)?.records[0];
//!
//! // PGN in another notation: WXF, ICCS, lower-case coordinates or Chinese.
//! let wxf = pgn::write(record, Notation::Wxf);
//! assert!(wxf.contains("1. C2.5 {中炮} 1... H8+7 (1... E3+5) 2. H2+3 *"), "{wxf}");
//! assert!(pgn::write(record, Notation::Iccs).contains("1. H2-E2"));
//!
//! // DhtmlXQ, and XQF bytes that read back as the same game.
//! assert!(dhtmlxq::write(record)?.starts_with("[DhtmlXQ]"));
//! let bytes = xqf::write(record, xqf::Version::V10)?;
//! let back = formats::read(&bytes, None)?;
//! assert_eq!(back.format.name(), "xqf");
//! assert_eq!(back.records[0].tag("Red"), Some("许银川"));
//! assert_eq!(back.records[0].tree().main_line().count(), 3);
//!
//! // JSON, one line per record (with the `serde` feature).
//! #[cfg(feature = "serde")]
//! assert!(formats::json::write(record).starts_with('{'));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Walk positions
//!
//! [`Record::positions`](record::Record::positions) gives the start
//! position and the position after each main-line move that replayed;
//! [`Record::plies`](record::Record::plies) each move with the positions
//! before and after it:
//!
//! ```
//! use qipu::notation::{Notation, chinese::Style};
//! let record = &qipu::formats::pgn::read("1. h2e2 h9g7 2. h0g2 *")[0];
//! let fens: Vec<String> = record.positions().map(|pos| pos.fen()).collect();
//! assert_eq!(fens.len(), 4); // ply 0 (the start) to ply 3
//! assert_eq!(fens[3], "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2");
//!
//! // Each move with the position it is played in, written in Chinese.
//! let chinese: Vec<String> = record
//!     .plies()
//!     .map(|ply| Notation::Chinese(Style::Simplified).write(&ply.before, ply.mv))
//!     .collect::<Result<_, _>>()?;
//! assert_eq!(chinese, ["炮二平五", "马８进７", "马二进三"]);
//! # Ok::<(), qipu::notation::WriteMoveError>(())
//! ```
//!
//! A [`Follow`](record::replay::Follow)er is told of each position as the
//! game is read, when no record is wanted: see its docs.
//!
//! # Visitors
//!
//! Every reader calls a [`Visitor`](record::Visitor) for each part of a
//! game, in the order a PGN text writes it ([`record::visit`] draws the
//! calls); building a record, replaying and checking are visitors, and so
//! is anything of your own. A visitor that skips variations and counts the
//! main line, on a file of any format:
//!
//! ```
//! use std::ops::ControlFlow;
//! use qipu::record::{RecordedMove, Skip, Visitor};
//!
//! #[derive(Default)]
//! struct MainLine(usize);
//!
//! impl Visitor for MainLine {
//!     type Output = usize;
//!     fn mv(&mut self, _: &RecordedMove) -> ControlFlow<()> {
//!         self.0 += 1;
//!         ControlFlow::Continue(())
//!     }
//!     fn begin_variation(&mut self) -> Skip {
//!         Skip(true) // not walked at all
//!     }
//!     fn end_game(&mut self) -> usize {
//!         std::mem::take(&mut self.0)
//!     }
//! }
//!
//! let text = "[Event \"a\"]\n1. h2e2 h9g7 (1... b9c7 2. h0g2) 2. h0g2 *\n\n[Event \"b\"]\n1. c3c4 *\n";
//! let mut lengths = Vec::new();
//! qipu::formats::read_with(text.as_bytes(), None, &mut MainLine::default(), |n| lengths.push(n))?;
//! assert_eq!(lengths, [3, 1]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Batches
//!
//! [`batch::Batch`] reads many inputs (files, folders searched
//! recursively, standard input) with one visitor per job, on every core
//! with the `parallel` feature, and hands what it makes of each game to a
//! sink in input order:
//!
//! ```
//! use qipu::batch::{self, Batch, Checker, Event, Status};
//! let inputs = batch::expand(&[concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pgn").into()]).inputs;
//! let (mut valid, mut other) = (0, 0);
//! Batch::new().threads(2).run(&inputs, Checker::default, |meta, event| {
//!     match event {
//!         Event::Games { games, .. } => {
//!             for checked in games {
//!                 match checked.status {
//!                     Status::Valid => valid += 1,
//!                     _ => other += 1,
//!                 }
//!             }
//!         }
//!         Event::Unreadable(why) => println!("{}: {why}", meta.source),
//!         Event::NoRecord(_) | Event::Done => {}
//!     }
//!     Ok::<(), std::io::Error>(()) // an error here stops the batch
//! })?;
//! assert_eq!((valid, other), (1391, 0)); // the 1,391 games of fixtures/pgn
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! # Errors
//!
//! Errors are typed, each with its place, and their messages are their
//! `Display`: what is wrong is an enum holding the values found
//! ([`notation::ParseMoveErrorKind`], [`notation::IllegalReason`],
//! [`formats::xqf::XqfErrorKind`], [`formats::ccbridge::CcbridgeErrorKind`],
//! [`formats::cbf::CbfErrorKind`], [`formats::UnreadableReason`]), and an
//! error of reading a file holds the error of its format:
//!
//! ```
//! use qipu::formats::{self, UnreadableReason, ccbridge::{self, CcbridgeErrorKind}};
//! let e = formats::read(b"CCBridge Record\0", None).unwrap_err();
//! let UnreadableReason::Ccbridge(why) = &e.reason else { panic!("{e}") };
//! let cut = ccbridge::Truncated::Record { holder: "the file", len: 16, header: None };
//! assert_eq!((why.offset, &why.kind), (16, &CcbridgeErrorKind::Truncated(cut)));
//! assert_eq!(e.to_string(), "byte 16: truncated: the file gives the record 16 bytes, not even a header");
//! ```
//!
//! # Rules
//!
//! ```
//! use qipu::{Position, perft};
//! let pos = Position::start();
//! assert_eq!(pos.legal_moves().len(), 44);
//! assert_eq!(perft(&pos, 3), 79_666);
//! ```

#![warn(missing_docs, missing_debug_implementations)]

pub mod analysis;
pub mod batch;
pub mod book;
pub mod dedupe;
pub mod diagram;
pub mod engine;
pub mod formats;
pub mod index;
pub mod notation;
pub mod output;
pub mod record;
pub mod rules;
pub mod select;
#[cfg(feature = "arrow")]
pub mod table;
pub mod text;

pub use rules::{
    Board, Color, File, FromFenError, History, Illegality, Move, MoveList, Outcome, Piece, Position,
    PositionError, Rank, Repetition, Role, Setup, Square, divide, fen, perft, zobrist,
};

/// The library tour's examples (`docs/library.md`), compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
struct LibraryTourDoctests;

//! The lines `qipu fen` writes for a game's FEN trail ([`super::trail`]):
//! one line per position, as text, JSON lines, CSV or EPD
//! ([`FenFormat`]). The command and the Python binding write through this
//! module (with the `serde` feature: JSON strings are escaped as
//! `serde_json` escapes them).
//!
//! Each line is a game's head (its source and number), the position's own
//! fields, and the game's tail (its result; for EPD its source, number and
//! ECCO code too). A trail made by [`FenFormat::trail`] hands the middles
//! of its lines, each ending in a line break, to a [`FenLines`] sink;
//! [`start_lines`] writes ply 0, the start as read; [`LineEnds`] puts each
//! middle between the game's head and tail.
//!
//! | format | a line | numbers games |
//! |---|---|---|
//! | [`FenFormat::Text`] | `source game ply move fen`, tab-separated, `-` for no move | from 1 |
//! | [`FenFormat::Json`] | `{"source":…,"index":…,"ply":…,"move":…,"fen":…,"side":…,"eval":…,"result":…}` | from 0 |
//! | [`FenFormat::Csv`] | `source,index,ply,move,fen,side,result` under [`csv_header`] | from 0 |
//! | [`FenFormat::Epd`] | the position, then the opcodes `hmvc fmvn ply move source game result ecco` | from 1 |
//! | [`FenFormat::SfPlain`] | six lines, `fen`, `move`, `score`, `ply`, `result`, `e` ([below](#stockfish-plain-text)) | not named |
//!
//! With every line followed, a `line` field (an opcode for EPD) comes
//! before `ply`. JSON has `eval` only when the comment of the move holds an
//! engine evaluation ([`Evaluation::json`]), and `source_escaped` (true)
//! after `source` when the input's name is not UTF-8.
//!
//! ```
//! use qipu::analysis::fen_lines::{FenFormat, LineEnds, start_lines};
//! use qipu::batch::{Checker, Meta};
//! use qipu::notation::Notation;
//! let format = FenFormat::Csv;
//! let mut checker = Checker::following(format.trail(Notation::Iccs, false));
//! let game = qipu::formats::pgn::read_with("1. h2e2 1-0", &mut checker).remove(0);
//! let meta = Meta {
//!     source: "games.pgn".into(),
//!     json_source: "games.pgn".into(),
//!     source_escaped: false,
//!     format: "pgn",
//!     encoding: None,
//! };
//! let ends = LineEnds::new(format, &meta, 0, "1-0", game.followed.ecco);
//! let mut out = Vec::new();
//! let setup = game.replayed.resolution.setup.as_ref().unwrap();
//! ends.write(&mut out, &start_lines(setup, format, false)).unwrap();
//! ends.write(&mut out, &game.followed.positions).unwrap();
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "games.pgn,0,0,,rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1,red,1-0\n\
//!      games.pgn,0,1,H2-E2,rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1,black,1-0\n"
//! );
//! ```
//!
//! # Stockfish plain text
//!
//! [`FenFormat::SfPlain`] writes training data as Stockfish's tools
//! (`convert_plain`) and Pikafish's write their "plain" text, each
//! position in six lines:
//!
//! ```text
//! fen <the position's FEN>
//! move <the move played from it, UCI coordinates: h2e2>
//! score <its evaluation in centipawns, from the side to move's view>
//! ply <plies from the start of the game, 0 = the start>
//! result <the game's result from the side to move's view: 1 win, 0 draw, -1 loss>
//! e
//! ```
//!
//! Unlike the other formats, a position's `move` is the one played *from*
//! it, so the game's last position (no move played from it) is not
//! written, and only the main line is followed. The score is the
//! evaluation the comment of the move that led to the position holds
//! (Red's view, as [`Evaluation`] reads it), turned to the side to move's
//! ([`sf_score`]): a position with none (the start, a move without one)
//! scores [`VALUE_NONE`], 32002, as Stockfish writes a position without
//! a score (its trainers skip those). A [`TrainingFilter`] leaves out
//! positions in check, before a capture, early or without a score. The
//! `result` comes from the game's, through [`LineEnds`]: a game without
//! one (`*`) writes nothing.
//!
//! ```
//! use qipu::analysis::fen_lines::{FenFormat, LineEnds, TrainingFilter};
//! use qipu::batch::{Checker, Meta};
//! use qipu::notation::Notation;
//! let format = FenFormat::SfPlain;
//! let filter = TrainingFilter::default();
//! let trail = format.training_trail(Notation::Iccs, false, filter);
//! let text = "1. h2e2 {+0.38/19} h9g7 {[%eval 0.52,18]} 2. h0g2 1-0";
//! let game = qipu::formats::pgn::read_with(text, &mut Checker::following(trail)).remove(0);
//! let meta = Meta {
//!     source: "games.pgn".into(),
//!     json_source: "games.pgn".into(),
//!     source_escaped: false,
//!     format: "pgn",
//!     encoding: None,
//! };
//! let ends = LineEnds::new(format, &meta, 0, "1-0", None);
//! let mut out = Vec::new();
//! ends.write(&mut out, &game.followed.positions).unwrap();
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
//!      move h2e2\nscore 32002\nply 0\nresult 1\ne\n\
//!      fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n\
//!      move h9g7\nscore -38\nply 1\nresult -1\ne\n\
//!      fen rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2\n\
//!      move h0g2\nscore 52\nply 2\nresult 1\ne\n"
//! );
//! ```

use std::io::{self, Write};

use super::trail::{Step, Trail, TrailSink, start_step};
use crate::Color;
use crate::batch::Meta;
use crate::formats::epd::{self, Operand};
use crate::notation::Notation;
use crate::record::{Evaluation, Score};
use crate::rules::Setup;

/// The formats of a FEN trail's lines (see the [module docs](self)).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenFormat {
    /// Tab-separated text, for people and simple tools.
    Text,
    /// One JSON object per line.
    Json,
    /// CSV under a header line ([`csv_header`]), fields quoted as RFC 4180 says.
    Csv,
    /// One EPD line per position.
    Epd,
    /// Stockfish's "plain" training text: six lines per position a move
    /// was played from, of the main line only ([module docs](self#sf-plain)).
    SfPlain,
}

impl FenFormat {
    /// The trail of a game whose positions are written in this format,
    /// with the moves in `notation`: of every line when `all_lines`, else
    /// of the main line (with the game's ECCO code for EPD).
    ///
    /// [`FenFormat::SfPlain`] follows the main line only, with the moves as
    /// UCI coordinates (`h2e2`), whatever `notation` and `all_lines` say,
    /// and writes every position a move was played from
    /// ([`FenFormat::training_trail`] chooses them).
    pub fn trail(self, notation: Notation, all_lines: bool) -> Trail<FenLines> {
        self.training_trail(notation, all_lines, TrainingFilter::default())
    }

    /// [`FenFormat::trail`], the positions of [`FenFormat::SfPlain`]
    /// chosen by `filter` (the other formats write every position: the
    /// filter is for training data only).
    pub fn training_trail(
        self,
        notation: Notation,
        all_lines: bool,
        filter: TrainingFilter,
    ) -> Trail<FenLines> {
        if self == FenFormat::SfPlain {
            return Trail::new(Notation::Uci, FenLines { filter, ..FenLines::new(self) });
        }
        Trail::new(notation, FenLines::new(self)).all_lines(all_lines).with_ecco(self == FenFormat::Epd)
    }
}

/// Which positions [`FenFormat::SfPlain`] writes, as Stockfish's trainers
/// filter theirs: by default every position a move was played from.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TrainingFilter {
    /// Leaves out the positions whose side to move is in check.
    pub skip_check: bool,
    /// Leaves out the positions whose move (the one played from them, the
    /// `move` line) takes a piece, as nnue-pytorch's `filtered` does.
    pub skip_capture: bool,
    /// Leaves out the positions before this ply (0: none).
    pub min_ply: usize,
    /// Leaves out the positions the record gives no evaluation of (whose
    /// score would be [`VALUE_NONE`]).
    pub require_eval: bool,
}

/// The score of a position without an evaluation in
/// [`FenFormat::SfPlain`]: Stockfish's `VALUE_NONE`, which its trainers
/// skip.
pub const VALUE_NONE: i32 = 32002;

/// A mate now, in [`FenFormat::SfPlain`]'s scores: Stockfish's
/// `VALUE_MATE`; a mate `n` plies away is `VALUE_MATE - n`.
pub const VALUE_MATE: i32 = 32000;

/// The most plies a mate score counts ([`sf_score`]): Stockfish's
/// `MAX_PLY`, so that every mate stays at or beyond its
/// `VALUE_MATE_IN_MAX_PLY` and no centipawn score reaches it.
const MAX_PLY: i32 = 246;

/// The score [`FenFormat::SfPlain`] writes for a position whose side to
/// move is `turn`, evaluated `eval` (from Red's side, as comments give
/// it): from the side to move's view, in centipawns; [`VALUE_NONE`]
/// without an evaluation. A mate in `n` moves for the side to move is
/// `VALUE_MATE - (2n - 1)` (the mating move is its `2n - 1`th ply), the
/// side to move mated in `n` moves `-(VALUE_MATE - 2n)`, as Stockfish's
/// `mate_in` and `mated_in` count; `#0` (mated now) is `-VALUE_MATE`.
/// Plies beyond 246 (Stockfish's `MAX_PLY`) count as 246, and centipawns
/// are kept within ±31,753, below every mate score.
///
/// ```
/// use qipu::Color;
/// use qipu::analysis::fen_lines::{VALUE_NONE, sf_score};
/// use qipu::record::{Evaluation, Score};
/// let eval = |score| Some(Evaluation { score, depth: None });
/// assert_eq!(sf_score(eval(Score::Centipawns(38)), Color::Red), 38);
/// assert_eq!(sf_score(eval(Score::Centipawns(38)), Color::Black), -38);
/// assert_eq!(sf_score(eval(Score::Mate(3)), Color::Red), 31995);
/// assert_eq!(sf_score(eval(Score::Mate(3)), Color::Black), -31994);
/// assert_eq!(sf_score(None, Color::Black), VALUE_NONE);
/// ```
pub fn sf_score(eval: Option<Evaluation>, turn: Color) -> i32 {
    let Some(eval) = eval else { return VALUE_NONE };
    let score = if turn == Color::Red { eval.score } else { eval.score.negated() };
    match score {
        Score::Centipawns(c) => c.clamp(-(VALUE_MATE - MAX_PLY - 1), VALUE_MATE - MAX_PLY - 1),
        Score::Mate(n) if n > 0 => VALUE_MATE - n.saturating_mul(2).saturating_sub(1).min(MAX_PLY),
        Score::Mate(n) => -(VALUE_MATE - n.saturating_mul(-2).min(MAX_PLY)),
    }
}

/// The header line of CSV output (without its line break): with the
/// `line` column when every line is followed.
pub fn csv_header(all_lines: bool) -> &'static str {
    if all_lines {
        "source,index,line,ply,move,fen,side,result"
    } else {
        "source,index,ply,move,fen,side,result"
    }
}

/// A [`TrailSink`] writing the middle of each position's line (without
/// the game's head and tail, see [`LineEnds`]): the line, `ply`, the move,
/// the FEN and the side to move, each line ending in a line break. A game
/// ends in the bytes of its lines.
///
/// [`FenFormat::SfPlain`] writes each position when the move played from
/// it comes (the next position's), and only if `filter` keeps it; the
/// `result` line is left for [`LineEnds`] to fill in.
#[derive(Debug)]
pub struct FenLines {
    format: FenFormat,
    lines: Vec<u8>,
    /// Room to write text in.
    room: String,
    /// SfPlain: the positions kept.
    filter: TrainingFilter,
    /// SfPlain: the last position given, waiting for the move played
    /// from it.
    waiting: Option<Waiting>,
}

/// A position of [`FenFormat::SfPlain`] waiting for its move.
#[derive(Debug)]
struct Waiting {
    /// Its FEN.
    fen: Vec<u8>,
    ply: usize,
    turn: Color,
    check: bool,
    eval: Option<Evaluation>,
}

impl FenLines {
    /// A sink writing in `format`.
    pub fn new(format: FenFormat) -> FenLines {
        FenLines {
            format,
            lines: Vec::new(),
            room: String::with_capacity(100),
            filter: TrainingFilter::default(),
            waiting: None,
        }
    }

    /// SfPlain: `step`, the position the move `step.mv` led to, ends the
    /// wait of the position before it (written if the filter keeps it),
    /// and waits for its own move.
    fn training_step(&mut self, step: &Step<'_>) {
        if let (Some(before), Some(mv)) = (self.waiting.as_ref(), step.mv) {
            let filter = &self.filter;
            let kept = before.ply >= filter.min_ply
                && !(filter.skip_check && before.check)
                && !(filter.skip_capture && step.capture)
                && !(filter.require_eval && before.eval.is_none());
            if kept {
                push_training_lines(&mut self.lines, before, mv);
            }
        }
        let mut fen = self.waiting.take().map(|w| w.fen).unwrap_or_default();
        fen.clear();
        step.write_fen(&mut fen);
        self.waiting = Some(Waiting {
            fen,
            ply: step.ply,
            turn: step.turn,
            check: step.check.unwrap_or(false),
            eval: None,
        });
    }
}

impl TrailSink for FenLines {
    type Output = Vec<u8>;

    fn start(&mut self, step: &Step<'_>) {
        if self.format == FenFormat::SfPlain {
            self.training_step(step);
        }
    }

    fn position(&mut self, step: &Step<'_>) {
        if self.format == FenFormat::SfPlain {
            self.training_step(step);
            return;
        }
        push_line(&mut self.lines, &mut self.room, self.format, step);
    }

    fn evaluation(&mut self, eval: Evaluation) {
        if let Some(waiting) = &mut self.waiting {
            waiting.eval = Some(eval);
            return;
        }
        // JSON only: the last line, before its line break, gains the `eval` object.
        if self.format == FenFormat::Json && self.lines.pop_if(|&mut b| b == b'\n').is_some() {
            self.lines.extend_from_slice(b",\"eval\":");
            self.lines.extend_from_slice(eval.json().as_bytes());
            self.lines.push(b'\n');
        }
    }

    fn end(&mut self) -> Vec<u8> {
        // The last position had no move played from it: not written.
        self.waiting = None;
        // The trail is handed on in a copy of its exact size (held until
        // its turn to be written); the buffer, grown to the longest game
        // yet, is kept for the next.
        let lines = self.lines.clone();
        self.lines.clear();
        lines
    }
}

/// The middle of the line of ply 0, as [`FenLines`] writes it: the
/// placement as read, legal or not (a trail starts after it). Nothing for
/// [`FenFormat::SfPlain`], whose trail writes ply 0 itself (with the move
/// played from it).
pub fn start_lines(setup: &Setup, format: FenFormat, all_lines: bool) -> Vec<u8> {
    let mut lines = FenLines::new(format);
    start_step(setup, all_lines, &mut lines);
    lines.end()
}

/// What every line of a game's trail shares: the head before each
/// position's fields (the game's source and number) and the tail after
/// them (its result and, for EPD, its source, number and ECCO code), with
/// the line break.
///
/// For [`FenFormat::SfPlain`] there is no head or tail: the game's result
/// fills in each position's `result` line, from its side to move's view;
/// a game whose result is not known (`*`) has no lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineEnds {
    head: Vec<u8>,
    tail: Vec<u8>,
    /// SfPlain: the format's lines.
    training: bool,
    /// SfPlain: the `result` lines of a position with Red to move and of
    /// one with Black to move; `None` when the result is not known.
    results: Option<[&'static [u8]; 2]>,
}

impl LineEnds {
    /// The ends of the lines of game `index` (from 0) of the input `meta`
    /// describes, whose result is `result` (`1-0`, `0-1`, `1/2-1/2`, `*`)
    /// and ECCO code `ecco` (written in EPD only).
    pub fn new(format: FenFormat, meta: &Meta, index: usize, result: &str, ecco: Option<&str>) -> LineEnds {
        let results = match result {
            "1-0" => Some([&b"result 1\n"[..], b"result -1\n"]),
            "0-1" => Some([&b"result -1\n"[..], b"result 1\n"]),
            "1/2-1/2" | "½-½" => Some([&b"result 0\n"[..], b"result 0\n"]),
            _ => None,
        };
        LineEnds {
            head: line_head(meta, index, format),
            tail: line_tail(meta, index, format, result, ecco),
            training: format == FenFormat::SfPlain,
            results,
        }
    }

    /// Writes each line of `lines` (middles as [`FenLines`] writes them)
    /// between the head and the tail.
    pub fn write(&self, out: &mut impl Write, lines: &[u8]) -> io::Result<()> {
        if self.training {
            return self.write_training(out, lines);
        }
        let (head, tail) = (&self.head[..], &self.tail[..]);
        let mut start = 0;
        // A tail of only the line break (text) is the one ending each line.
        let bare = tail == b"\n";
        for end in memchr::memchr_iter(b'\n', lines) {
            out.write_all(head)?;
            if bare {
                out.write_all(&lines[start..=end])?;
            } else {
                out.write_all(&lines[start..end])?;
                out.write_all(tail)?;
            }
            start = end + 1;
        }
        if start < lines.len() {
            out.write_all(head)?;
            out.write_all(&lines[start..])?;
            out.write_all(tail)?;
        }
        Ok(())
    }

    /// SfPlain: `lines` with each `result w` (Red to move) or `result b`
    /// line filled in with the game's result; nothing when it is unknown.
    fn write_training(&self, out: &mut impl Write, lines: &[u8]) -> io::Result<()> {
        let Some([red, black]) = self.results else { return Ok(()) };
        let mut start = 0;
        // No FEN or move holds the word: each is a `result` line.
        for at in memchr::memmem::find_iter(lines, b"result ") {
            out.write_all(&lines[start..at])?;
            out.write_all(if lines.get(at + 7) == Some(&b'w') { red } else { black })?;
            start = (at + 9).min(lines.len());
        }
        out.write_all(&lines[start..])
    }
}

/// Appends the middle of a position's line (see [`FenLines`]) and a line
/// break; `room` is room to write text in.
fn push_line(out: &mut Vec<u8>, room: &mut String, format: FenFormat, step: &Step<'_>) {
    let (turn, halfmoves, fullmoves) = (step.turn, step.halfmoves, step.fullmoves);
    match format {
        FenFormat::Json => {
            // JSON lines are written by hand, straight into the output:
            // serializing each ply's fields costs more than replaying it.
            if let Some(line) = step.line {
                // A line is digits and dots.
                out.extend_from_slice(b"\"line\":\"");
                out.extend_from_slice(line.as_bytes());
                out.extend_from_slice(b"\",");
            }
            out.extend_from_slice(b"\"ply\":");
            push_number(out, step.ply);
            out.extend_from_slice(b",\"move\":");
            match step.mv {
                Some(mv) => push_json_str(out, mv),
                None => out.extend_from_slice(b"null"),
            }
            // A FEN holds letters, digits, '/', '-' and spaces only.
            out.extend_from_slice(b",\"fen\":\"");
            step.write_fen(out);
            out.extend_from_slice(b"\",\"side\":\"");
            out.extend_from_slice(side_name(turn).as_bytes());
            out.push(b'"');
        }
        FenFormat::Text => {
            if let Some(line) = step.line {
                out.extend_from_slice(line.as_bytes());
                out.push(b'\t');
            }
            push_number(out, step.ply);
            out.push(b'\t');
            out.extend_from_slice(step.mv.unwrap_or("-").as_bytes());
            out.push(b'\t');
            step.write_fen(out);
        }
        FenFormat::Csv => {
            if let Some(line) = step.line {
                out.extend_from_slice(line.as_bytes());
                out.push(b',');
            }
            push_number(out, step.ply);
            out.push(b',');
            push_csv_field(out, step.mv.unwrap_or(""));
            out.push(b',');
            // A FEN needs no quotes.
            step.write_fen(out);
            out.push(b',');
            out.extend_from_slice(side_name(turn).as_bytes());
        }
        FenFormat::Epd => {
            room.clear();
            epd::push_ranks(room, step.ranks, turn);
            epd::push_opcode(room, "hmvc", &[Operand::Number(halfmoves.into())]);
            epd::push_opcode(room, "fmvn", &[Operand::Number(fullmoves.into())]);
            if let Some(line) = step.line {
                epd::push_opcode(room, "line", &[Operand::Word(line)]);
            }
            epd::push_opcode(room, "ply", &[Operand::Number(step.ply as u64)]);
            if let Some(mv) = step.mv {
                epd::push_opcode(room, "move", &[Operand::Word(mv)]);
            }
            out.extend_from_slice(room.as_bytes());
        }
        // Written by `push_training_lines`, a move later.
        FenFormat::SfPlain => return,
    }
    out.push(b'\n');
}

/// Appends the lines of a position of [`FenFormat::SfPlain`] whose move
/// (played from it) is `mv`, the `result` line as `result w` (Red to
/// move) or `result b`, for [`LineEnds`] to fill in.
fn push_training_lines(out: &mut Vec<u8>, at: &Waiting, mv: &str) {
    out.extend_from_slice(b"fen ");
    out.extend_from_slice(&at.fen);
    out.extend_from_slice(b"\nmove ");
    out.extend_from_slice(mv.as_bytes());
    out.extend_from_slice(b"\nscore ");
    let score = sf_score(at.eval, at.turn);
    if score < 0 {
        out.push(b'-');
    }
    push_number(out, score.unsigned_abs() as usize);
    out.extend_from_slice(b"\nply ");
    push_number(out, at.ply);
    out.extend_from_slice(match at.turn {
        Color::Red => b"\nresult w\ne\n",
        Color::Black => b"\nresult b\ne\n",
    });
}

pub use super::trail::side_name;

/// The start of each line of a game's trail: its source and game.
fn line_head(meta: &Meta, index: usize, format: FenFormat) -> Vec<u8> {
    let mut head = Vec::with_capacity(64);
    match format {
        // Text is for people (the escaped name, games from 1); JSON and CSV
        // for programs (the exact name, the 0-based index).
        FenFormat::Text => {
            head.extend_from_slice(meta.source.as_bytes());
            head.push(b'\t');
            push_number(&mut head, index + 1);
            head.push(b'\t');
        }
        FenFormat::Json => {
            head.extend_from_slice(b"{\"source\":");
            push_json_str(&mut head, &meta.json_source);
            if meta.source_escaped {
                head.extend_from_slice(b",\"source_escaped\":true");
            }
            head.extend_from_slice(b",\"index\":");
            push_number(&mut head, index);
            head.push(b',');
        }
        FenFormat::Csv => {
            push_csv_field(&mut head, &meta.json_source);
            head.push(b',');
            push_number(&mut head, index);
            head.push(b',');
        }
        // The position comes first: what the game's lines share follows.
        // SfPlain has no head: its lines are the position's alone.
        FenFormat::Epd | FenFormat::SfPlain => {}
    }
    head
}

/// The end of each line of a game's trail, line break included: the
/// game's result and, for EPD, its source, number and ECCO code.
fn line_tail(meta: &Meta, index: usize, format: FenFormat, result: &str, ecco: Option<&str>) -> Vec<u8> {
    let mut tail = Vec::with_capacity(64);
    match format {
        // SfPlain's result is in its own line ([`LineEnds::write`]).
        FenFormat::Text | FenFormat::SfPlain => {}
        FenFormat::Json => {
            tail.extend_from_slice(b",\"result\":");
            push_json_str(&mut tail, result);
            tail.push(b'}');
        }
        FenFormat::Csv => {
            tail.push(b',');
            push_csv_field(&mut tail, result);
        }
        FenFormat::Epd => {
            let mut text = String::with_capacity(64);
            epd::push_opcode(&mut text, "source", &[Operand::Text(&meta.source)]);
            epd::push_opcode(&mut text, "game", &[Operand::Number(index as u64 + 1)]);
            epd::push_opcode(&mut text, "result", &[Operand::Word(result)]);
            if let Some(code) = ecco {
                epd::push_opcode(&mut text, "ecco", &[Operand::Word(code)]);
            }
            tail.extend_from_slice(text.as_bytes());
        }
    }
    tail.push(b'\n');
    tail
}

/// Appends the decimal digits of `n`.
fn push_number(out: &mut Vec<u8>, n: usize) {
    out.extend_from_slice(crate::text::decimal(n as u64, &mut [0; 20]));
}

/// Appends `s` as a JSON string, as serde_json writes it.
fn push_json_str(out: &mut Vec<u8>, s: &str) {
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        serde_json::to_writer(out, s).expect("strings serialize");
    }
}

/// Appends `s` as a CSV field, quoted (its quotes doubled) when it holds a
/// comma, a quote or a line break, as RFC 4180 says.
pub(crate) fn push_csv_field(out: &mut Vec<u8>, s: &str) {
    if !s.contains([',', '"', '\n', '\r']) {
        out.extend_from_slice(s.as_bytes());
        return;
    }
    out.push(b'"');
    for part in s.split('"').enumerate() {
        if part.0 > 0 {
            out.extend_from_slice(b"\"\"");
        }
        out.extend_from_slice(part.1.as_bytes());
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    #[derive(Serialize)]
    struct Ply<'a> {
        source: &'a str,
        index: usize,
        ply: usize,
        #[serde(rename = "move")]
        mv: Option<&'a str>,
        fen: &'a str,
        side: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        eval: Option<serde_json::Value>,
        result: &'a str,
    }

    fn meta(source: &str) -> Meta {
        Meta {
            source: source.to_string(),
            json_source: source.to_string(),
            source_escaped: false,
            format: "pgn",
            encoding: None,
        }
    }

    #[test]
    fn push_csv_field_as_its_docs_showed() {
        let mut out = Vec::new();
        crate::analysis::fen_lines::push_csv_field(&mut out, "say \"hi\", twice");
        assert_eq!(out, b"\"say \"\"hi\"\", twice\"");
    }

    #[test]
    fn numbers_are_written_as_to_string_writes_them() {
        let mut cases: Vec<usize> = (0..2100).collect();
        cases.extend([9_999, 10_000, 65_535, 1 << 32, usize::MAX]);
        for n in cases {
            let mut out = b"x".to_vec();
            push_number(&mut out, n);
            assert_eq!(out, format!("x{n}").into_bytes());
        }
    }

    #[test]
    fn hand_written_json_lines_equal_serde_json() {
        for source in ["games.pgn", "a \"quoted\"\\name\t.pgn", "棋谱/对局.pgn"] {
            let trail = FenFormat::Json.trail(Notation::Uci, false);
            let mut checker = crate::batch::Checker::following(trail);
            let game =
                crate::formats::pgn::read_with("1. h2e2 {好棋 +0.38/19} h9g7 {中局} 0-1", &mut checker)
                    .remove(0);
            let ends = LineEnds::new(FenFormat::Json, &meta(source), 7, "0-1", None);
            let mut ours = Vec::new();
            let setup = game.replayed.resolution.setup.as_ref().unwrap();
            ends.write(&mut ours, &start_lines(setup, FenFormat::Json, false)).unwrap();
            ends.write(&mut ours, &game.followed.positions).unwrap();
            let mut pos = crate::Position::start();
            let mut expected = Vec::new();
            let fen = pos.fen();
            let ply =
                Ply { source, index: 7, ply: 0, mv: None, fen: &fen, side: "red", eval: None, result: "0-1" };
            serde_json::to_writer(&mut expected, &ply).unwrap();
            expected.push(b'\n');
            let evals = [Some(serde_json::json!({"cp": 38, "depth": 19})), None];
            for (k, (mv, eval)) in ["h2e2", "h9g7"].into_iter().zip(evals).enumerate() {
                let _ = pos.play_unchecked(mv.parse().unwrap());
                let fen = pos.fen();
                let side = if pos.turn() == Color::Red { "red" } else { "black" };
                let ply =
                    Ply { source, index: 7, ply: k + 1, mv: Some(mv), fen: &fen, side, eval, result: "0-1" };
                serde_json::to_writer(&mut expected, &ply).unwrap();
                expected.push(b'\n');
            }
            assert_eq!(String::from_utf8(ours).unwrap(), String::from_utf8(expected).unwrap());
        }
    }

    /// The `(ply, move, score, result)` of each record sf-plain writes of
    /// `text` (one game) with `filter`, its result `result`.
    fn sf_plain(text: &str, filter: TrainingFilter, result: &str) -> Vec<(usize, String, i32, i32)> {
        let trail = FenFormat::SfPlain.training_trail(Notation::Chinese(Default::default()), true, filter);
        let game =
            crate::formats::pgn::read_with(text, &mut crate::batch::Checker::following(trail)).remove(0);
        let setup = game.replayed.resolution.setup.as_ref().unwrap();
        assert!(start_lines(setup, FenFormat::SfPlain, false).is_empty());
        let ends = LineEnds::new(FenFormat::SfPlain, &meta("games.pgn"), 0, result, None);
        let mut out = Vec::new();
        ends.write(&mut out, &game.followed.positions).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len().is_multiple_of(6), "{out}");
        let value = |line: &str, key: &str| line.strip_prefix(key).unwrap().to_string();
        lines
            .chunks(6)
            .map(|r| {
                assert!(r[0].starts_with("fen ") && r[5] == "e", "{r:?}");
                (
                    value(r[3], "ply ").parse().unwrap(),
                    value(r[1], "move "),
                    value(r[2], "score ").parse().unwrap(),
                    value(r[4], "result ").parse().unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn sf_plain_follows_the_main_line_its_filter_and_needs_a_result() {
        // e2e6 takes a pawn; the variation's move and evaluation are not the main line's.
        let text = "1. h2e2 {+0.38} (1. c3c4 {+9.00}) h9g7 2. e2e6 {#-2} b9c7 3. b0c2 0-1";
        let all = TrainingFilter::default();
        let record = |ply: usize, mv: &str, score: i32, result: i32| (ply, mv.to_string(), score, result);
        assert_eq!(
            sf_plain(text, all, "0-1"),
            [
                record(0, "h2e2", VALUE_NONE, -1),
                record(1, "h9g7", -38, 1),
                record(2, "e2e6", VALUE_NONE, -1),
                // Black to move mates in 2 (Red's #-2): its third ply.
                record(3, "b9c7", VALUE_MATE - 3, 1),
                record(4, "b0c2", VALUE_NONE, -1),
            ]
        );
        let plies = |filter: TrainingFilter| -> Vec<usize> {
            sf_plain(text, filter, "1/2-1/2").into_iter().map(|r| r.0).collect()
        };
        assert_eq!(plies(TrainingFilter { skip_capture: true, ..all }), [0, 1, 3, 4]);
        assert_eq!(plies(TrainingFilter { require_eval: true, ..all }), [1, 3]);
        assert_eq!(plies(TrainingFilter { min_ply: 3, ..all }), [3, 4]);
        assert_eq!(plies(TrainingFilter { skip_check: true, ..all }), [0, 1, 2, 3, 4]);
        assert!(sf_plain(text, all, "1/2-1/2").iter().all(|r| r.3 == 0));
        // No result, no training positions.
        assert_eq!(sf_plain(text, all, "*"), []);
        // The rook checks at the start and after 2. e1f1.
        let checks = "[FEN \"4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1\"]\n\n1... e9f9 2. e1f1 f9e9 3. d0d1 1-0";
        let moves: Vec<(usize, String)> =
            sf_plain(checks, all, "1-0").into_iter().map(|r| (r.0, r.1)).collect();
        assert_eq!(moves, [(0, "e9f9".into()), (1, "e1f1".into()), (2, "f9e9".into()), (3, "d0d1".into())]);
        let plies = |filter: TrainingFilter| -> Vec<usize> {
            sf_plain(checks, filter, "1-0").into_iter().map(|r| r.0).collect()
        };
        assert_eq!(plies(TrainingFilter { skip_check: true, ..all }), [1, 3]);
    }

    #[test]
    fn csv_fields_are_quoted_as_rfc_4180_says() {
        let field = |s: &str| {
            let mut out = Vec::new();
            push_csv_field(&mut out, s);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("\"\""), "\"\"\"\"\"\"");
        assert_eq!(field("two\nlines"), "\"two\nlines\"");
    }
}

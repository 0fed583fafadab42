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

use std::io::{self, Write};

use super::trail::{Step, Trail, TrailSink, start_step};
use crate::Color;
use crate::batch::Meta;
use crate::formats::epd::{self, Operand};
use crate::notation::Notation;
use crate::record::Evaluation;
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
}

impl FenFormat {
    /// The trail of a game whose positions are written in this format,
    /// with the moves in `notation`: of every line when `all_lines`, else
    /// of the main line (with the game's ECCO code for EPD).
    pub fn trail(self, notation: Notation, all_lines: bool) -> Trail<FenLines> {
        Trail::new(notation, FenLines::new(self)).all_lines(all_lines).with_ecco(self == FenFormat::Epd)
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
#[derive(Debug)]
pub struct FenLines {
    format: FenFormat,
    lines: Vec<u8>,
    /// Room to write text in.
    room: String,
}

impl FenLines {
    /// A sink writing in `format`.
    pub fn new(format: FenFormat) -> FenLines {
        FenLines { format, lines: Vec::new(), room: String::with_capacity(100) }
    }
}

impl TrailSink for FenLines {
    type Output = Vec<u8>;

    fn position(&mut self, step: &Step<'_>) {
        push_line(&mut self.lines, &mut self.room, self.format, step);
    }

    fn evaluation(&mut self, eval: Evaluation) {
        // JSON only: the last line, before its line break, gains the `eval` object.
        if self.format == FenFormat::Json && self.lines.pop_if(|&mut b| b == b'\n').is_some() {
            self.lines.extend_from_slice(b",\"eval\":");
            self.lines.extend_from_slice(eval.json().as_bytes());
            self.lines.push(b'\n');
        }
    }

    fn end(&mut self) -> Vec<u8> {
        // The trail is handed on in a copy of its exact size (held until
        // its turn to be written); the buffer, grown to the longest game
        // yet, is kept for the next.
        let lines = self.lines.clone();
        self.lines.clear();
        lines
    }
}

/// The middle of the line of ply 0, as [`FenLines`] writes it: the
/// placement as read, legal or not (a trail starts after it).
pub fn start_lines(setup: &Setup, format: FenFormat, all_lines: bool) -> Vec<u8> {
    let mut lines = FenLines::new(format);
    start_step(setup, all_lines, &mut lines);
    lines.end()
}

/// What every line of a game's trail shares: the head before each
/// position's fields (the game's source and number) and the tail after
/// them (its result and, for EPD, its source, number and ECCO code), with
/// the line break.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineEnds {
    head: Vec<u8>,
    tail: Vec<u8>,
}

impl LineEnds {
    /// The ends of the lines of game `index` (from 0) of the input `meta`
    /// describes, whose result is `result` (`1-0`, `0-1`, `1/2-1/2`, `*`)
    /// and ECCO code `ecco` (written in EPD only).
    pub fn new(format: FenFormat, meta: &Meta, index: usize, result: &str, ecco: Option<&str>) -> LineEnds {
        LineEnds { head: line_head(meta, index, format), tail: line_tail(meta, index, format, result, ecco) }
    }

    /// Writes each line of `lines` (middles as [`FenLines`] writes them)
    /// between the head and the tail.
    pub fn write(&self, out: &mut impl Write, lines: &[u8]) -> io::Result<()> {
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
    }
    out.push(b'\n');
}

/// The side to move as the JSON and CSV lines (and Python's columns)
/// name it: `red` or `black`.
pub fn side_name(turn: Color) -> &'static str {
    match turn {
        Color::Red => "red",
        Color::Black => "black",
    }
}

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
        FenFormat::Epd => {}
    }
    head
}

/// The end of each line of a game's trail, line break included: the
/// game's result and, for EPD, its source, number and ECCO code.
fn line_tail(meta: &Meta, index: usize, format: FenFormat, result: &str, ecco: Option<&str>) -> Vec<u8> {
    let mut tail = Vec::with_capacity(64);
    match format {
        FenFormat::Text => {}
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

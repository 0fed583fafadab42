//! `qipu fen PATH...`: the FEN trail of each game, the position after every
//! ply of the main line, or with `--all-lines` of every line (the line
//! named by its [`LineId`](qipu::record::replay::LineId)), as
//! [`qipu::analysis::trail`] follows it.
//!
//! Text, JSON, CSV or EPD. An EPD line is the position's four fields
//! ([`epd::push_ranks`]) then these opcodes ([`epd::push_opcode`]):
//!
//! | opcode | operand |
//! |---|---|
//! | `hmvc` | the halfmove clock (standard EPD) |
//! | `fmvn` | the fullmove number (standard EPD) |
//! | `line` | with `--all-lines` only: the line (`0` = main line) |
//! | `ply` | plies from the start of the game (0 = the start position) |
//! | `move` | the move that led there, in `--notation`; none at ply 0 |
//! | `source` | the input's name, quoted |
//! | `game` | the game's number in its input, from 1 |
//! | `result` | the game's result: `1-0`, `0-1`, `1/2-1/2`, `*` for none |
//! | `ecco` | the ECCO code of the game's opening; none for a game from another start |

use std::io::Write;

#[cfg(test)]
use serde::Serialize;

use super::Failure;
use super::progress::{Outcome, Tally};
use qipu::Color;
use qipu::analysis::trail::{Step, Trail, TrailSink, start_step};
use qipu::batch::{Meta, ProblemLine};
use qipu::formats::epd::{self, Operand};
use qipu::record::replay::MAX_LINE_DEPTH;
use qipu::record::{Evaluation, GameResult};
use qipu::select::PassEvent;

/// Output formats of `qipu fen`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FenFormat {
    /// `source game ply move fen`, tab-separated, for people and simple tools (games numbered
    /// from 1).
    Text,
    /// One JSON object per ply and line: source, index, ply, move, fen, side, result, and
    /// eval when the comment of the move holds an engine evaluation (`jsonl` is accepted too).
    #[value(alias = "jsonl")]
    Json,
    /// CSV with a header line: source,index,ply,move,fen,side,result.
    Csv,
    /// One EPD line per position: the position, then the opcodes hmvc, fmvn, ply, move,
    /// source, game, result and ecco.
    Epd,
}

/// Arguments of `qipu fen`.
#[derive(Debug, clap::Args)]
#[command(mut_arg("notation", |a| a.help("Notation of the `move` field").default_value("iccs")))]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = FenFormat::Text)]
    pub format: FenFormat,
    /// Every line, not only the main line: the positions of every variation too, each with its
    /// line (`0` the main line, `2` the second variation of the main line, `2.1` the first
    /// variation within that one), in a `line` field before the ply.
    #[arg(long)]
    pub all_lines: bool,
    #[command(flatten)]
    pub notation: super::args::NotationArgs,
    #[command(flatten)]
    pub batch: super::args::BatchArgs,
}

#[cfg(test)]
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

/// Writes the middle of each position's line of a game's trail (between
/// the source and game, and the result, written by the sink): the line,
/// `ply`, the move in the notation asked for, the FEN and the side to
/// move, in the format asked for. A game's lines are without what every
/// line of the game shares: see [`line_head`] and [`line_tail`].
#[derive(Debug)]
struct Lines {
    format: FenFormat,
    lines: Vec<u8>,
    /// Room to write text in.
    fen: String,
}

impl Lines {
    fn new(format: FenFormat) -> Lines {
        Lines { format, lines: Vec::new(), fen: String::with_capacity(100) }
    }
}

impl TrailSink for Lines {
    type Output = Vec<u8>;

    fn position(&mut self, step: &Step<'_>) {
        push_line(&mut self.lines, &mut self.fen, self.format, step);
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

/// The trail of a game as `qipu fen` follows it.
fn trail(notation: qipu::notation::Notation, format: FenFormat, all_lines: bool) -> Trail<Lines> {
    Trail::new(notation, Lines::new(format)).all_lines(all_lines).with_ecco(format == FenFormat::Epd)
}

/// Appends the middle of a position's line (see [`Lines`]) and a line
/// break; `fen` is room to write text in.
fn push_line(out: &mut Vec<u8>, fen: &mut String, format: FenFormat, step: &Step<'_>) {
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
            out.extend_from_slice(side(turn).as_bytes());
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
            push_csv(out, step.mv.unwrap_or(""));
            out.push(b',');
            // A FEN needs no quotes.
            step.write_fen(out);
            out.push(b',');
            out.extend_from_slice(side(turn).as_bytes());
        }
        FenFormat::Epd => {
            fen.clear();
            epd::push_ranks(fen, step.ranks, turn);
            epd::push_opcode(fen, "hmvc", &[Operand::Number(halfmoves.into())]);
            epd::push_opcode(fen, "fmvn", &[Operand::Number(fullmoves.into())]);
            if let Some(line) = step.line {
                epd::push_opcode(fen, "line", &[Operand::Word(line)]);
            }
            epd::push_opcode(fen, "ply", &[Operand::Number(step.ply as u64)]);
            if let Some(mv) = step.mv {
                epd::push_opcode(fen, "move", &[Operand::Word(mv)]);
            }
            out.extend_from_slice(fen.as_bytes());
        }
    }
    out.push(b'\n');
}

/// The side to move as JSON and CSV write it: `red` or `black`.
fn side(turn: Color) -> &'static str {
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
            push_csv(&mut head, &meta.json_source);
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
            push_csv(&mut tail, result);
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

/// The line of ply 0 (its middle, as [`push_line`] writes it): the
/// placement as read, legal or not.
fn first_line(setup: &qipu::Setup, format: FenFormat, all_lines: bool) -> Vec<u8> {
    let mut lines = Lines::new(format);
    start_step(setup, all_lines, &mut lines);
    lines.end()
}

/// Writes a game's trail: each line of `lines` between `head` and `tail`
/// (which ends in the line break).
fn write_lines(out: &mut impl Write, head: &[u8], lines: &[u8], tail: &[u8]) -> std::io::Result<()> {
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

/// The header line of CSV output.
fn csv_header(all_lines: bool) -> &'static str {
    if all_lines {
        "source,index,line,ply,move,fen,side,result"
    } else {
        "source,index,ply,move,fen,side,result"
    }
}

/// Writes the FEN trails; problems go to standard error.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let mut inputs = args.batch.read.inputs(&[args.batch.output.output.as_deref()]);
    let mut sink = args.batch.output.open(&inputs, stdout)?;
    let out = &mut sink;
    let batch = args.batch.read.batch()?;
    let notation = args.notation.notation();
    if args.format == FenFormat::Csv {
        writeln!(out, "{}", csv_header(args.all_lines))?;
    }
    let mut tally = Tally::new(inputs.len());
    let mut chooser = super::select::Chooser::new(&args.batch.select)?;
    chooser.plan(&mut inputs, &batch)?;
    let selection = chooser.selection().clone();
    let follower = || selection.checker(trail(notation, args.format, args.all_lines));
    chooser.pass(&batch, &inputs, &mut tally, follower, |meta, event, tally| {
        let PassEvent::Game { index, game, selected } = event else { return Ok(()) };
        if !selected {
            tally.game_as(Outcome::checked(&meta.source, index, &game, ""), false);
            return Ok(());
        }
        // Ply 0 is the placement as read, legal or not; the moves follow
        // from the position when it is a legal one.
        if let Some(setup) = &game.replayed.resolution.setup {
            let result = game.result.unwrap_or(GameResult::Unknown).as_str();
            let head = line_head(meta, index, args.format);
            let tail = line_tail(meta, index, args.format, result, game.followed.ecco);
            write_lines(out, &head, &first_line(setup, args.format, args.all_lines), &tail)?;
            write_lines(out, &head, &game.followed.positions, &tail)?;
        }
        if game.followed.too_deep {
            let why =
                format!("variations nested more than {MAX_LINE_DEPTH} deep: their positions are left out");
            tally.warn(&ProblemLine::warning(&meta.source, None, Some(index), why));
        }
        let in_main_line = game.replayed.error.as_ref().is_some_and(|e| !e.in_variation());
        let stops = if in_main_line { " (the trail stops there)" } else { "" };
        tally.game(Outcome::checked(&meta.source, index, &game, stops));
        Ok(())
    })?;
    sink.commit()?;
    eprintln!("{}{}", tally.summary(), chooser.summary());
    Ok(tally.code())
}

/// Appends the decimal digits of `n`.
fn push_number(out: &mut Vec<u8>, n: usize) {
    // Plies and game numbers are mostly under a thousand: without the loop.
    let digit = |d: usize| b'0' + (d % 10) as u8;
    if n < 10 {
        out.push(digit(n));
        return;
    }
    if n < 100 {
        out.extend_from_slice(&[digit(n / 10), digit(n)]);
        return;
    }
    if n < 1000 {
        out.extend_from_slice(&[digit(n / 100), digit(n / 10), digit(n)]);
        return;
    }
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
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

/// Appends `s` as a CSV field, quoted when it needs to be.
fn push_csv(out: &mut Vec<u8>, s: &str) {
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
            let trail = trail(qipu::notation::Notation::Uci, FenFormat::Json, false);
            let mut checker = qipu::batch::Checker::following(trail);
            let game = qipu::formats::pgn::read_with("1. h2e2 {好棋 +0.38/19} h9g7 {中局} 0-1", &mut checker)
                .remove(0);
            let head = line_head(&meta(source), 7, FenFormat::Json);
            let tail = line_tail(&meta(source), 7, FenFormat::Json, "0-1", None);
            let mut ours = Vec::new();
            let setup = game.replayed.resolution.setup.as_ref().unwrap();
            write_lines(&mut ours, &head, &first_line(setup, FenFormat::Json, false), &tail).unwrap();
            write_lines(&mut ours, &head, &game.followed.positions, &tail).unwrap();
            let mut pos = qipu::Position::start();
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
            push_csv(&mut out, s);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("\"\""), "\"\"\"\"\"\"");
        assert_eq!(field("two\nlines"), "\"two\nlines\"");
    }
}

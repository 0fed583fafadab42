//! `qipu fen PATH...`: the FEN trail of each game, the position after every
//! ply of the main line.

use std::io::Write;
use std::path::PathBuf;

#[cfg(test)]
use serde::Serialize;

use super::progress::{Outcome, Tally};
use super::{ChineseStyle, Failure, MoveNotation};
use qipu::Position;
use qipu::batch::{Event, Meta};
use qipu::formats::encoding::Encoding;
use qipu::record::replay::Follow;

/// Output formats of `qipu fen`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FenFormat {
    /// `source game ply move fen`, tab-separated, for people and simple tools (games numbered
    /// from 1).
    Text,
    /// One JSON object per ply and line: source, index, ply, move, fen
    /// (`jsonl` is accepted too).
    #[value(alias = "jsonl")]
    Json,
    /// CSV with a header line: source,index,ply,move,fen.
    Csv,
}

/// Arguments of `qipu fen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FenFormat::Text)]
    pub format: FenFormat,
    /// Notation of the `move` field.
    #[arg(long, value_enum, default_value_t = MoveNotation::Iccs)]
    pub notation: MoveNotation,
    /// Characters for --notation chinese.
    #[arg(long, value_enum, default_value_t = ChineseStyle::Simplified)]
    pub chinese: ChineseStyle,
    /// Read text in this encoding instead of detecting it.
    #[arg(long)]
    pub encoding: Option<Encoding>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub output: super::output::OutputArgs,
    /// Which games to trace.
    #[command(flatten)]
    pub select: super::select::SelectArgs,
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
}

/// Follows a game's main line, writing the end of each ply's line (after
/// the source and game, written by the sink): `ply`, the move in the
/// notation asked for and the FEN, in the format asked for.
#[derive(Debug)]
struct Trail {
    notation: qipu::notation::Notation,
    format: FenFormat,
    /// The ranks of the board as FEN text: only those a move touches are
    /// written anew.
    ranks: Option<qipu::fen::RankTexts>,
    ply: usize,
    mv: String,
    fen: String,
    lines: Vec<u8>,
}

impl Trail {
    fn new(notation: qipu::notation::Notation, format: FenFormat) -> Trail {
        Trail {
            notation,
            format,
            ranks: None,
            ply: 0,
            mv: String::with_capacity(16),
            fen: String::with_capacity(100),
            lines: Vec::new(),
        }
    }
}

impl Follow for Trail {
    type Output = Vec<u8>;

    fn start(&mut self, start: &Position) {
        self.ranks = Some(qipu::fen::RankTexts::new(start.board()));
        self.ply = 0;
    }

    fn before_move(&mut self, before: &Position, m: qipu::Move) {
        self.mv.clear();
        if self.notation.write_to(before, m, &mut self.mv).is_err() {
            // Never: a move replayed is legal, so a piece stands on its origin.
            self.mv = m.to_string();
        }
    }

    fn after_move(&mut self, pos: &Position, m: qipu::Move) {
        let Some(ranks) = &mut self.ranks else { return };
        self.ply += 1;
        ranks.update(pos.board(), m);
        let out = &mut self.lines;
        match self.format {
            FenFormat::Json => {
                // JSON lines are written by hand, straight into the output:
                // serializing each ply's fields costs more than replaying it.
                push_number(out, self.ply);
                out.extend_from_slice(b",\"move\":");
                push_json_str(out, &self.mv);
                // A FEN holds letters, digits, '/', '-' and spaces only.
                out.extend_from_slice(b",\"fen\":\"");
                ranks.write_bytes(pos.turn(), pos.halfmoves(), pos.fullmoves(), out);
                out.extend_from_slice(b"\"}\n");
            }
            FenFormat::Text => {
                push_number(out, self.ply);
                out.push(b'\t');
                out.extend_from_slice(self.mv.as_bytes());
                out.push(b'\t');
                ranks.write_bytes(pos.turn(), pos.halfmoves(), pos.fullmoves(), out);
                out.push(b'\n');
            }
            FenFormat::Csv => {
                self.fen.clear();
                ranks.write(pos.turn(), pos.halfmoves(), pos.fullmoves(), &mut self.fen);
                let _ = writeln!(out, "{},{},{}", self.ply, csv(&self.mv), csv(&self.fen));
            }
        }
    }

    fn end(&mut self) -> Vec<u8> {
        self.ranks = None;
        // The trail is handed on in a copy of its exact size (held until
        // its turn to be written); the buffer, grown to the longest game
        // yet, is kept for the next.
        let lines = self.lines.clone();
        self.lines.clear();
        lines
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
            head.extend_from_slice(b",\"ply\":");
        }
        FenFormat::Csv => {
            head.extend_from_slice(csv(&meta.json_source).as_bytes());
            head.push(b',');
            push_number(&mut head, index);
            head.push(b',');
        }
    }
    head
}

/// The end of the line of ply 0: the placement as read, legal or not.
fn first_line(setup: &qipu::Setup, format: FenFormat) -> String {
    let fen = qipu::fen::RankTexts::new(&setup.board);
    let mut text = String::with_capacity(100);
    fen.write(setup.turn, setup.halfmoves, setup.fullmoves, &mut text);
    match format {
        FenFormat::Json => format!("0,\"move\":null,\"fen\":\"{text}\"}}\n"),
        FenFormat::Text => format!("0\t-\t{text}\n"),
        FenFormat::Csv => format!("0,,{}\n", csv(&text)),
    }
}

/// Writes a game's trail: each line of `lines` after `head`.
fn write_lines(out: &mut impl Write, head: &[u8], lines: &[u8]) -> std::io::Result<()> {
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', lines) {
        out.write_all(head)?;
        out.write_all(&lines[start..=end])?;
        start = end + 1;
    }
    if start < lines.len() {
        out.write_all(head)?;
        out.write_all(&lines[start..])?;
    }
    Ok(())
}

/// Writes the FEN trails; problems go to standard error.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let mut inputs = super::inputs(&args.paths);
    let mut sink = args.output.open(&inputs, stdout)?;
    let out = &mut sink;
    let batch = super::batch(args.jobs, args.encoding)?;
    let notation = args.notation.with(args.chinese);
    if args.format == FenFormat::Csv {
        writeln!(out, "source,index,ply,move,fen")?;
    }
    let mut tally = Tally::new(inputs.len());
    let mut chooser = super::select::Chooser::new(&args.select)?;
    chooser.plan(&mut inputs, &batch)?;
    let selection = chooser.selection.clone();
    let follower = || selection.checker(Trail::new(notation, args.format));
    let run = batch.run(&inputs, follower, |meta, event| {
        match event {
            Event::Games { first, games } => {
                tally.batch(games.len());
                for (k, judged) in games.into_iter().enumerate() {
                    let index = first + k;
                    let game = judged.game;
                    let selected = chooser.take(index, judged.matches, judged.key.as_ref());
                    if !selected {
                        let error = game.replayed.error.as_ref();
                        tally.game_as(
                            Outcome::of(&meta.source, index, game.unreadable.as_ref(), error, ""),
                            false,
                        );
                        continue;
                    }
                    // Ply 0 is the placement as read, legal or not; the
                    // moves follow from the position when it is a legal one.
                    if let Some(setup) = &game.replayed.resolution.setup {
                        let head = line_head(meta, index, args.format);
                        write_lines(out, &head, first_line(setup, args.format).as_bytes())?;
                        write_lines(out, &head, &game.followed)?;
                    }
                    let in_main_line = game.replayed.error.as_ref().is_some_and(|e| !e.in_variation());
                    let stops = if in_main_line { " (the trail stops there)" } else { "" };
                    tally.game(Outcome::of(
                        &meta.source,
                        index,
                        game.unreadable.as_ref(),
                        game.replayed.error.as_ref(),
                        stops,
                    ));
                    chooser.go_on()?;
                }
            }
            Event::Unreadable(reason) => {
                let selected = chooser.take_unreadable();
                tally.unreadable_as(&meta.source, &reason, selected);
                chooser.go_on()?;
            }
            Event::NoRecord(reason) => tally.no_record_as(&meta.source, &reason, !chooser.active),
            Event::Done => tally.input_done(),
        }
        Ok::<(), Failure>(())
    });
    super::select::finished(run)?;
    tally.finish();
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

/// A CSV field, quoted when it needs to be.
fn csv(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
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
            let mut checker =
                qipu::batch::Checker::following(Trail::new(qipu::notation::Notation::Uci, FenFormat::Json));
            let game = qipu::formats::pgn::read_with("1. h2e2 h9g7 *", &mut checker).remove(0);
            let head = line_head(&meta(source), 7, FenFormat::Json);
            let mut ours = Vec::new();
            let setup = game.replayed.resolution.setup.as_ref().unwrap();
            write_lines(&mut ours, &head, first_line(setup, FenFormat::Json).as_bytes()).unwrap();
            write_lines(&mut ours, &head, &game.followed).unwrap();
            let mut pos = qipu::Position::start();
            let mut expected = Vec::new();
            let fen = pos.fen();
            serde_json::to_writer(&mut expected, &Ply { source, index: 7, ply: 0, mv: None, fen: &fen })
                .unwrap();
            expected.push(b'\n');
            for (k, mv) in ["h2e2", "h9g7"].into_iter().enumerate() {
                let _ = pos.play_unchecked(mv.parse().unwrap());
                let fen = pos.fen();
                serde_json::to_writer(
                    &mut expected,
                    &Ply { source, index: 7, ply: k + 1, mv: Some(mv), fen: &fen },
                )
                .unwrap();
                expected.push(b'\n');
            }
            assert_eq!(String::from_utf8(ours).unwrap(), String::from_utf8(expected).unwrap());
        }
    }
}

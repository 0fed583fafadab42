//! `qipu fen PATH...`: the FEN trail of each game, the position after every
//! ply of the main line.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use serde::Serialize;

use super::batch::{Event, Meta, each_input};
use super::input::expand;
use super::progress::{Outcome, Tally};
use super::{ChineseStyle, Failure, MoveNotation};
use qipu::analysis::replay::replay;
use qipu::formats::encoding::Encoding;
use qipu::record::Record;
use qipu::{Color, Position};

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
}

#[derive(Serialize)]
struct Ply<'a> {
    source: &'a str,
    index: usize,
    ply: usize,
    #[serde(rename = "move")]
    mv: Option<&'a str>,
    fen: &'a str,
}

/// The trail of one game as written out, and how the game fared.
type Trail = (Vec<u8>, Outcome);

/// The trail of one game, written out into `out` (a buffer handed back by
/// the writer, so that buffers are reused rather than allocated and freed
/// game after game) by the worker that replayed it.
fn trail(
    meta: &Meta,
    index: usize,
    record: &Record,
    notation: qipu::notation::Notation,
    format: FenFormat,
    mut out: Vec<u8>,
) -> Result<Trail, Failure> {
    let replayed = replay(record);
    out.clear();
    // Ply 0 is the placement as read, legal or not; the moves follow from
    // the position when it is a legal one (none replayed otherwise).
    if let Some(setup) = &replayed.resolution.setup {
        let start = replayed.resolution.start.clone();
        // Text is for people (the escaped name); JSON and CSV for programs.
        let source = match format {
            FenFormat::Text => Source { name: &meta.source, escaped: false },
            _ => Source { name: &meta.json_source, escaped: meta.source_escaped },
        };
        write_trail(source, index, setup, start, &replayed.moves, notation, format, &mut out)?;
    }
    let in_main_line = replayed.error.as_ref().is_some_and(|e| !e.in_variation());
    let stops = if in_main_line { " (the trail stops there)" } else { "" };
    let outcome = Outcome::of(&meta.source, index, record, replayed.error.as_ref(), stops);
    Ok((out, outcome))
}

/// The name of a trail's input, and whether it is escaped (for JSON).
#[derive(Copy, Clone)]
struct Source<'a> {
    name: &'a str,
    escaped: bool,
}

/// Writes the trail of one game into `out`: the placement `setup` as ply
/// 0, then the position after each of `moves`, played from `start`.
#[allow(clippy::too_many_arguments)]
fn write_trail(
    source: Source<'_>,
    index: usize,
    setup: &qipu::Setup,
    start: Option<qipu::Position>,
    moves: &[qipu::Move],
    notation: qipu::notation::Notation,
    format: FenFormat,
    out: &mut Vec<u8>,
) -> Result<(), Failure> {
    out.reserve(100 * (moves.len() + 1));
    // Only the ranks a move touches are written anew.
    let mut ranks = qipu::fen::RankTexts::new(&setup.board);
    let mut text = String::with_capacity(16);
    // Moves replay only from a legal start.
    let (mut pos, moves) = match start {
        Some(pos) => (pos, moves),
        None => (Position::start(), &[][..]),
    };
    if format == FenFormat::Json {
        // JSON lines are written by hand, straight into the output, with
        // what every line of the game shares escaped once: serializing
        // each ply's fields costs more than replaying it.
        let mut head = b"{\"source\":".to_vec();
        push_json_str(&mut head, source.name);
        if source.escaped {
            head.extend_from_slice(b",\"source_escaped\":true");
        }
        head.extend_from_slice(b",\"index\":");
        push_number(&mut head, index);
        head.extend_from_slice(b",\"ply\":");
        let mut line =
            |ply: usize, mv: Option<&str>, clocks: (Color, u32, u32), ranks: &qipu::fen::RankTexts| {
                out.extend_from_slice(&head);
                push_number(out, ply);
                out.extend_from_slice(b",\"move\":");
                match mv {
                    Some(mv) => push_json_str(out, mv),
                    None => out.extend_from_slice(b"null"),
                }
                // A FEN holds letters, digits, '/', '-' and spaces only.
                out.extend_from_slice(b",\"fen\":\"");
                ranks.write_bytes(clocks.0, clocks.1, clocks.2, out);
                out.extend_from_slice(b"\"}\n");
            };
        line(0, None, (setup.turn, setup.halfmoves, setup.fullmoves), &ranks);
        for (k, &m) in moves.iter().enumerate() {
            text.clear();
            notation.write_to(&pos, m, &mut text);
            let _ = pos.play_unchecked(m);
            ranks.update(pos.board(), m);
            line(k + 1, Some(&text), (pos.turn(), pos.halfmoves(), pos.fullmoves()), &ranks);
        }
    } else {
        let mut fen = String::with_capacity(100);
        ranks.write(setup.turn, setup.halfmoves, setup.fullmoves, &mut fen);
        let source = source.name;
        write_ply(&Ply { source, index, ply: 0, mv: None, fen: &fen }, format, out)?;
        for (k, &m) in moves.iter().enumerate() {
            text.clear();
            notation.write_to(&pos, m, &mut text);
            let _ = pos.play_unchecked(m);
            ranks.update(pos.board(), m);
            fen.clear();
            ranks.write(pos.turn(), pos.halfmoves(), pos.fullmoves(), &mut fen);
            write_ply(&Ply { source, index, ply: k + 1, mv: Some(&text), fen: &fen }, format, out)?;
        }
    }
    Ok(())
}

/// At most this many written buffers are kept for reuse: a few batches'.
const SPARE_BUFFERS: usize = 1024;

/// Writes the FEN trails; problems go to standard error.
pub fn run(args: &Args, out: &mut impl Write) -> Result<i32, Failure> {
    let inputs = expand(&args.paths);
    let pool = super::thread_pool(args.jobs)?;
    let notation = args.notation.with(args.chinese);
    if args.format == FenFormat::Csv {
        writeln!(out, "source,index,ply,move,fen")?;
    }
    let mut tally = Tally::new(inputs.len());
    // Buffers written out, for the next games' trails.
    let spare = Mutex::new(Vec::<Vec<u8>>::new());
    let work = |meta: &Meta, index: usize, record: &Record| {
        let buffer = spare.lock().map(|mut s| s.pop()).ok().flatten().unwrap_or_default();
        trail(meta, index, record, notation, args.format, buffer)
    };
    each_input(&inputs, args.encoding, &pool, work, |meta, event| {
        match event {
            Event::Results(trails) => {
                tally.batch(trails.len());
                for trail in trails {
                    let (text, outcome) = trail?;
                    out.write_all(&text)?;
                    tally.game(outcome);
                    if let Ok(mut spare) = spare.lock()
                        && spare.len() < SPARE_BUFFERS
                    {
                        spare.push(text);
                    }
                }
            }
            Event::Unreadable(reason) => tally.unreadable(&meta.source, &reason),
            Event::NoRecord(reason) => tally.no_record(&meta.source, &reason),
            Event::Done => tally.input_done(),
        }
        Ok(())
    })?;
    tally.finish();
    eprintln!("{}", tally.summary());
    Ok(tally.code())
}

fn write_ply(p: &Ply, format: FenFormat, out: &mut impl Write) -> Result<(), Failure> {
    let mv = p.mv.unwrap_or("-");
    match format {
        // Text reports number games from 1; JSON and CSV keep the 0-based index.
        FenFormat::Text => writeln!(out, "{}\t{}\t{}\t{mv}\t{}", p.source, p.index + 1, p.ply, p.fen)?,
        FenFormat::Json => {
            super::write_json(&mut *out, p)?;
            writeln!(out)?;
        }
        FenFormat::Csv => {
            let mv = p.mv.unwrap_or("");
            writeln!(out, "{},{},{},{},{}", csv(p.source), p.index, p.ply, csv(mv), csv(p.fen))?
        }
    }
    Ok(())
}

/// Appends the decimal digits of `n`.
fn push_number(out: &mut Vec<u8>, n: usize) {
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
    fn hand_written_json_lines_equal_serde_json() {
        let record = &qipu::formats::pgn::read("1. h2e2 h9g7 *")[0];
        for source in ["games.pgn", "a \"quoted\"\\name\t.pgn", "棋谱/对局.pgn"] {
            let (ours, _) =
                trail(&meta(source), 7, record, qipu::notation::Notation::Uci, FenFormat::Json, Vec::new())
                    .unwrap();
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

//! File formats: one module per format, each a reader (bytes -> records)
//! and, where qipu writes the format, a writer.

pub mod cbf;
pub mod ccbridge;
pub mod clean;
pub mod detect;
pub mod dhtmlxq;
pub mod encoding;
#[cfg(feature = "serde")]
pub mod json;
pub mod pgn;
pub mod stream;
pub mod text;
pub mod wxf_record;
pub mod xqf;

use crate::record::Record;
use detect::Format;
use encoding::Encoding;

/// The records of one file and how they were read.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The format detected.
    pub format: Format,
    /// The text encoding, for text formats.
    pub encoding: Option<Encoding>,
    /// The records, in file order.
    pub records: Vec<Record>,
}

/// Why a binary file (or a record in one) cannot be read, and at which byte.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("byte {offset}: {reason}")]
pub struct ByteError {
    /// Byte offset of the problem.
    pub offset: usize,
    /// What is wrong, in words.
    pub reason: String,
}

/// A [`ByteError`] as the `Err` of a reader.
fn byte_error<T>(offset: usize, reason: impl Into<String>) -> Result<T, ByteError> {
    Err(ByteError { offset, reason: reason.into() })
}

/// Settles the side to move of a record whose moves are points, and writes
/// its `FEN` tag when the start is not the standard one with Red to move
/// (`board_at`: where the file stores the placement). The side is the
/// colour of the first move's piece; without a move, what the file stores
/// (`stored`: the side, where, and what says it, such as "header"), else
/// Red. A stored side that the first move contradicts is reported as a
/// warning.
pub(crate) fn settle_start(
    record: &mut Record,
    board: &crate::Board,
    board_at: crate::record::Span,
    stored: Option<(crate::Color, crate::record::Span, &str)>,
    fullmoves: u32,
) {
    use crate::record::{MoveText, Warning};
    let tree = &record.tree;
    let first_mover = tree.main_child(tree.root()).and_then(|id| match &tree.node(id).mv.as_ref()?.text {
        MoveText::Coords(m) => board.piece_at(m.from).map(|p| p.color),
        MoveText::Text(_) => None,
    });
    let turn = first_mover.or(stored.map(|(side, ..)| side)).unwrap_or(crate::Color::Red);
    if let (Some((said, at, who)), Some(mover)) = (stored, first_mover)
        && said != mover
    {
        let message = format!("the {who} says {said} moves first, but the first move is {mover}'s");
        record.warnings.push(Warning { at, message });
    }
    if *board != crate::Board::start() || turn != crate::Color::Red {
        let mut fen = String::new();
        crate::rules::fen::write_fen(board, turn, 0, fullmoves.max(1), &mut fen);
        record.tags.push(("FEN".into(), fen));
        record.start_at = Some(board_at);
    }
}

/// A file from which no record can be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Unreadable {
    /// The format detected.
    pub format: Format,
    /// Why nothing can be read, in words.
    pub reason: String,
    /// Whether the file holds no record at all (prose, an empty file,
    /// binary data of no record format) rather than a record that cannot
    /// be read (a damaged XQF, a broken JSON line).
    pub holds_no_record: bool,
}

impl Unreadable {
    /// A file that is a record, or meant to be one, and cannot be read.
    pub fn damaged(format: Format, reason: impl Into<String>) -> Unreadable {
        Unreadable { format, reason: reason.into(), holds_no_record: false }
    }

    /// A file that holds no record at all.
    pub fn no_record(format: Format, reason: impl Into<String>) -> Unreadable {
        Unreadable { format, reason: reason.into(), holds_no_record: true }
    }
}

/// Reads the records of a file of any supported format; `encoding`
/// overrides text-encoding detection.
pub fn read(bytes: &[u8], encoding: Option<Encoding>) -> Result<Parsed, Unreadable> {
    let mut records = Vec::new();
    let (format, encoding) =
        read_in_batches(bytes, encoding, usize::MAX, |_, _, batch| records.extend(batch))?;
    Ok(Parsed { format, encoding, records })
}

/// Reads the records of a file in batches of at most `batch` records,
/// handed to `f` in order with the format and encoding; returns the format
/// and encoding. A file that holds no record is [`Unreadable`], and `f` is
/// not called.
pub fn read_in_batches(
    bytes: &[u8],
    encoding: Option<Encoding>,
    batch: usize,
    mut f: impl FnMut(Format, Option<Encoding>, Vec<Record>),
) -> Result<(Format, Option<Encoding>), Unreadable> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        let reason = if bytes.is_empty() { "empty file" } else { "only white space" };
        return Err(Unreadable::no_record(detect::detect(bytes), reason));
    }
    match detect::detect(bytes) {
        Format::Pgn | Format::Text | Format::Json | Format::Dhtmlxq | Format::Cbf | Format::Wxf => {
            let decoded = encoding::decode(bytes, encoding);
            let enc = Some(decoded.encoding);
            let not_a_game = |format| {
                Unreadable::no_record(
                    format,
                    "text without a game record: no tags, and the first word is not a move",
                )
            };
            // DhtmlXQ blocks holding at least one tag; a text that only
            // mentions `[DhtmlXQ]` is read as whatever else it is.
            let mut blocks = if dhtmlxq::contains_block(&decoded.text) {
                dhtmlxq::read(&decoded.text)
            } else {
                Vec::new()
            };
            // A PGN whose comments quote DhtmlXQ blocks is a PGN: the reading
            // that finds more games is the file's.
            if !blocks.is_empty() && pgn::has_tags(&decoded.text) && pgn_games(&decoded.text) > blocks.len() {
                blocks.clear();
            }
            if !blocks.is_empty() {
                hand_on(blocks, batch, |records| f(Format::Dhtmlxq, enc, records));
                Ok((Format::Dhtmlxq, enc))
            } else if decoded.text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']).starts_with('<')
                && cbf::is_cbf(&decoded.text)
            {
                match cbf::read(&decoded.text) {
                    Ok(record) => {
                        f(Format::Cbf, enc, vec![record]);
                        Ok((Format::Cbf, enc))
                    }
                    Err(e) => Err(Unreadable::damaged(Format::Cbf, e.to_string())),
                }
            } else if let Some(records) = json_records(&decoded.text) {
                if records.is_empty() {
                    return Err(Unreadable::no_record(Format::Json, "no game found"));
                }
                hand_on(records, batch, |records| f(Format::Json, enc, records));
                Ok((Format::Json, enc))
            } else if wxf_record::is_wxf(&decoded.text) {
                let records = wxf_record::read(&decoded.text);
                if records.is_empty() {
                    return Err(Unreadable::no_record(Format::Wxf, "no game found"));
                }
                hand_on(records, batch, |records| f(Format::Wxf, enc, records));
                Ok((Format::Wxf, enc))
            } else if pgn::has_tags(&decoded.text) {
                let mut first = true;
                let mut failure = None;
                pgn::read_in_batches(&decoded.text, batch, |records| {
                    if first && records.iter().all(|r| !looks_like_a_game(r)) {
                        failure = Some(not_a_game(Format::Pgn));
                    }
                    first = false;
                    if failure.is_none() {
                        f(Format::Pgn, enc, records);
                    }
                });
                match failure {
                    Some(e) => Err(e),
                    None if first => Err(Unreadable::no_record(Format::Pgn, "no game found")),
                    None => Ok((Format::Pgn, enc)),
                }
            } else {
                let records = text::read(&encoding::unescape_references(&decoded.text));
                if records.is_empty() {
                    // PGN move text without tags, which plain-text lines do
                    // not read (`{开局} 1. 炮二平五 {中炮} 马８进７ *`).
                    let games = pgn::read(&decoded.text);
                    if !games.is_empty() && games.iter().all(looks_like_a_game) {
                        hand_on(games, batch, |records| f(Format::Pgn, enc, records));
                        return Ok((Format::Pgn, enc));
                    }
                    return Err(Unreadable::no_record(
                        Format::Text,
                        "text without a game record: no line of moves",
                    ));
                }
                if records.iter().all(|r| !looks_like_a_game(r)) {
                    return Err(not_a_game(Format::Text));
                }
                hand_on(records, batch, |records| f(Format::Text, enc, records));
                Ok((Format::Text, enc))
            }
        }
        Format::Xqf => match xqf::read(bytes) {
            Ok(record) => {
                f(Format::Xqf, None, vec![record]);
                Ok((Format::Xqf, None))
            }
            Err(e) => Err(Unreadable::damaged(Format::Xqf, e.to_string())),
        },
        Format::Cbr => match ccbridge::read_cbr(bytes) {
            Ok(record) => {
                f(Format::Cbr, None, vec![record]);
                Ok((Format::Cbr, None))
            }
            Err(e) => Err(Unreadable::damaged(Format::Cbr, e.to_string())),
        },
        Format::Cbl => {
            let library =
                ccbridge::read_cbl(bytes).map_err(|e| Unreadable::damaged(Format::Cbl, e.to_string()))?;
            if library.records.is_empty() {
                return Err(Unreadable::damaged(Format::Cbl, "a library without a record"));
            }
            // A record of the library that cannot be read is still a game
            // to account for: it is marked unreadable, with its place.
            let records: Vec<Record> = library
                .records
                .into_iter()
                .map(|r| {
                    r.unwrap_or_else(|e| Record {
                        unreadable: Some(crate::record::Warning {
                            at: crate::record::Span { line: 0, column: e.offset as u32 },
                            message: e.reason,
                        }),
                        ..Record::default()
                    })
                })
                .collect();
            hand_on(records, batch, |records| f(Format::Cbl, None, records));
            Ok((Format::Cbl, None))
        }
        Format::Binary => {
            let start = bytes.iter().take(4).map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ");
            Err(Unreadable::no_record(
                Format::Binary,
                format!(
                    "binary data that is not a known record format (it starts with {start}; an XQF file starts with 'XQ')"
                ),
            ))
        }
    }
}

/// The JSON records of `text`, when it holds qipu's JSON records (read
/// only with the `serde` feature).
fn json_records(text: &str) -> Option<Vec<Record>> {
    #[cfg(feature = "serde")]
    {
        json::looks_like_json(text).then(|| json::read(text))
    }
    #[cfg(not(feature = "serde"))]
    {
        let _ = text;
        None
    }
}

/// How many games a PGN reading of `text` finds (counted, not kept).
pub(crate) fn pgn_games(text: &str) -> usize {
    let mut games = 0;
    pgn::read_in_batches(text, 256, |batch| games += batch.iter().filter(|r| looks_like_a_game(r)).count());
    games
}

/// Hands `records` to `f` in batches of at most `batch`, in order.
fn hand_on(records: Vec<Record>, batch: usize, mut f: impl FnMut(Vec<Record>)) {
    // Taken from the front as they go: no copy of what is left per batch.
    let mut records = records.into_iter();
    loop {
        let next: Vec<Record> = records.by_ref().take(batch.max(1)).collect();
        if next.is_empty() {
            break;
        }
        f(next);
    }
}

/// Whether a record read from text is a game: it has tags, or its first
/// move reads as a move in some notation.
fn looks_like_a_game(record: &Record) -> bool {
    if !record.tags.is_empty() {
        return true;
    }
    let Some(first) = record.tree.main_line().next() else { return record.result.is_some() };
    match &record.tree.node(first).mv.as_ref().expect("a move").text {
        crate::record::MoveText::Text(t) => crate::notation::is_move_text(t),
        crate::record::MoveText::Coords(_) => true,
    }
}

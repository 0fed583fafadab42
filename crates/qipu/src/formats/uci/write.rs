//! Writing a record's main line as a UCI position line.

use crate::notation::iccs::{self, Style};
use crate::record::{MoveText, Record};

/// Why a record cannot be written as a UCI position line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The start position cannot be read (its FEN does not parse).
    #[error("the start position cannot be read, and a UCI line starts with one")]
    NoStart,
    /// A main-line move, written as this text, did not replay: a UCI line
    /// holds moves as points.
    #[error("the move {0} did not replay; a UCI line holds only moves that replay")]
    NotReplayed(String),
}

/// Writes the main line of `record`, as its replay settled it, as one
/// line (without its line end): `position startpos moves …` when the game
/// starts from the standard position with the clocks at `0 1`, else
/// `position fen FEN moves …` (the FEN with its clocks); ` moves` is left
/// out when the main line has no move. Variations, tags, comments and the
/// result are not written.
///
/// # Errors
///
/// A [`WriteError`] when the start position cannot be read, or when a
/// main-line move did not replay.
///
/// ```
/// use qipu::formats::{pgn, uci};
/// let record = &pgn::read("1. 炮二平五 马８进７ (1... 象３进５) 2. 马二进三 *")[0];
/// assert_eq!(uci::write(record).unwrap(), "position startpos moves h2e2 h9g7 h0g2");
/// let back = uci::parse_line("position startpos moves h2e2 h9g7 h0g2").unwrap();
/// assert_eq!(back.moves.len(), 3);
/// ```
pub fn write(record: &Record) -> Result<String, WriteError> {
    let replayed = record.replayed();
    let resolution = &replayed.resolution;
    let setup = resolution.setup.as_ref().ok_or(WriteError::NoStart)?;
    let mut out = String::with_capacity(32 + 5 * replayed.plies);
    out.push_str("position ");
    let fen = setup.to_fen();
    if fen == crate::fen::START {
        out.push_str("startpos");
    } else {
        out.push_str("fen ");
        out.push_str(&fen);
    }
    let mut first = true;
    for id in record.tree().main_line() {
        let Some(m) = resolution.move_of(id) else {
            let text = match record.tree().node(id).mv.as_ref().map(|mv| &mv.text) {
                Some(MoveText::Text(t)) => t.to_string(),
                Some(MoveText::Coords(m)) => m.to_string(),
                None => String::new(),
            };
            return Err(WriteError::NotReplayed(text));
        };
        if first {
            out.push_str(" moves");
            first = false;
        }
        out.push(' ');
        iccs::write_to(m, Style::Uci, &mut out);
    }
    Ok(out)
}

//! WXF game files, as PlayOK and XieXie write them: header lines of a key
//! and a value, then the moves between `START{` and `}END`.
//!
//! ```text
//! FORMAT  WXF
//! RED     jugador rojo ; 1200 ;;
//! BLACK   jugador negro ; 1240 ;;
//! RESULT  0-1
//! DATE    2020-02-02 02:02:02
//! EVENT   PlayOK Game ; 10m+0s
//! START{
//!  1. C2.5 h8+7   2. H2+3 r9.8   3. R1.2 h2+3
//! ...
//! 27. R7.6 r4+1 }END
//! ```
//!
//! What is known of the format, and where from:
//! - It comes from the "Chinese Chess File Format" drafted by Huayong Yang
//!   with Peter Sung, Xi Chen and Tie Zeng (published by the WXF,
//!   `wxf-xiangqi.org/images/computer-xiangqi/chinese-chess-file-format.pdf`;
//!   a copy at kipdf.com, "chinese-chess-file-format"): the file opens with
//!   `FORMAT format, piece_symbols`, the format being ICCS (the default),
//!   AXF (the WXF letters, `C2=5`), LALG or SALG, and a remark may follow a
//!   move: `!`, `?`, `!!`, `!?`, `??`, `+` (check), `++` (checkmate).
//! - PlayOK's export ("Download" of a game; the file above, also in
//!   hartwork/xiangqi-setup as `doc/demo-with-history-playok.wxf`): keys
//!   padded with spaces to column 9; `RED` and `BLACK` hold the name, the
//!   rating and an empty third field, `;`-separated; `DATE` has the time
//!   too; `EVENT` has the time control after a `;` (`10m+0s`); three moves
//!   a line, numbered `1.` to `27.`, right-aligned; Black's moves in lower
//!   case and `.` for sideways (also noted in gbtami/pychess-variants#437);
//!   the last line ends with ` }END`, so its moves share the line with the
//!   end of the block (a game of odd length ends `28. E3+5 }END`). No
//!   result is written in the block: the `RESULT` line holds it. LF line
//!   ends.
//! - XieXie's export (hartwork/xiangqi-setup#2, "FEN-based WXF file input
//!   (as produced by XieXie)", and `doc/demo.wxf`, `doc/initial.wxf` there):
//!   a tab after the key, `GAME` with no value, `RED ;;;` and `BLACK ;;;`
//!   when the players have no name, `DATE 2-8-2014` or `2014-07-16`, the
//!   position as `FEN <placement> r|b` (letters `H` and `E` for horse and
//!   elephant, `r` or `b` to move), a blank line, and `START{` and `}END`
//!   on lines of their own, with nothing between them when the file is a
//!   position. xiangqi-setup's reader notes that XieXie writes Black's
//!   moves in upper case too.
//! - xiangqi-setup's reader also knows a `SETUP{ … }` block (pieces as
//!   `Rh0`, `MOVE n`, `RED`/`BLACK`); no file with one was found, and qipu
//!   does not read it: such a game is unreadable, with its place.
//! - No real file with `ROUND`, `TITLE`, `SITE` or `COMMENT` keys, comments
//!   in the block, or several games was found; they are read all the same.
//!
//! How qipu reads it:
//! - Header keys in any case; the value is the rest of the line. `RED` and
//!   `BLACK` give `Red` and `Black` (the name), `RedElo` and `BlackElo`
//!   (the rating), and `RedInfo`/`BlackInfo` for any further field; `EVENT`
//!   gives `Event` and `TimeControl`; `RESULT` the `Result` tag; `FEN`,
//!   `DATE`, `ROUND`, `GAME`, `TITLE`, `SITE` and any other key are kept
//!   as a tag of the title-cased name (`RED_TEAM` is `RedTeam`). Empty
//!   values are left out. Other lines of the header are the comment before
//!   the first move.
//! - Every word of the block is a move but for move numbers (`1.`,
//!   `1...`), placeholders (`...`) and results (`1-0`, `0-1`, `1/2-1/2`,
//!   `*`); the notation of each move (WXF in either case, or any other) is
//!   worked out when the game is replayed, from the side to move. Remark
//!   marks `!` and `?` become NAGs, as in PGN. The block ends at `}`
//!   (`}END`), wherever it stands on its line.
//! - A `FORMAT` line, or a line of a key real files use (`RED`, `FEN`, …)
//!   after `}END`, starts the next game; so does a key the game already
//!   has. A game without a block, or with an empty one, is a position: a
//!   record without moves.
//! - A block left open runs to the next `FORMAT` line or the end of the
//!   text, with a warning; a result in the block that contradicts the
//!   `RESULT` line, and text after `}END`, are warned of too.
//!
//! ```
//! use qipu::formats::wxf;
//! let text = "FORMAT  WXF\nRED     jugador rojo ; 1200 ;;\nRESULT  1-0\nSTART{\n 1. C2.5 h8+7   2. H2+3 }END\n";
//! let games = wxf::read(text);
//! assert_eq!(games.len(), 1);
//! assert_eq!(games[0].tag("Red"), Some("jugador rojo"));
//! assert_eq!(games[0].tag("RedElo"), Some("1200"));
//! assert_eq!(games[0].tree().main_line().count(), 3);
//! assert_eq!(games[0].result(), Some(qipu::record::GameResult::RedWins));
//! ```

mod read;
#[cfg(test)]
mod tests;

pub(crate) use read::read_each;
pub use read::{read, read_with};

/// Where games start in a WXF text read line by line: the lines before
/// which a text may be cut so that each piece, read alone with
/// [`read_from`], gives the games the whole text gives.
///
/// A game surely starts at a `FORMAT` line of the header (one inside an
/// open block ends the block with a warning of its own, one in a `SETUP{`
/// block is not read), and after `}END` at a line of a key real files use
/// or at the next `START{`. It follows the reader's parts of a game as
/// the reader does, line by line; it does not look for a key the game
/// already has (which starts a game too), so it tells fewer places than
/// there are games, never more.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GameStarts {
    part: Scanned,
}

/// The part of a game the reader is in after a line (as `read::Part`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Scanned {
    #[default]
    Header,
    Moves,
    Setup,
    After,
}

impl GameStarts {
    /// Looks at the next line of the text: whether a game surely starts
    /// at it.
    pub(crate) fn line(&mut self, line: &str) -> bool {
        let line = line.trim_start_matches('\u{feff}');
        let key = header_line(line).map(|(key, _)| key);
        let format = key.is_some_and(|key| key.eq_ignore_ascii_case("FORMAT"));
        let starts = match self.part {
            // A FORMAT line ends a block left open too, but the game
            // before it then says so, as it would not at the end of a piece.
            Scanned::Setup | Scanned::Moves => false,
            Scanned::Header => format,
            Scanned::After => key.is_some_and(is_known) || block_opening(line).is_some(),
        };
        self.part = match self.part {
            Scanned::Moves if !format => {
                if line.contains('}') {
                    Scanned::After
                } else {
                    Scanned::Moves
                }
            }
            Scanned::Setup => {
                if line.contains('}') {
                    Scanned::Header
                } else {
                    Scanned::Setup
                }
            }
            // A FORMAT line ends an open block and is a header line.
            Scanned::Moves => Scanned::Header,
            part => Self::outside(part, line, key),
        };
        starts
    }

    /// The part after a line read outside a block.
    fn outside(part: Scanned, line: &str, key: Option<&str>) -> Scanned {
        if line.trim().is_empty() {
            return part;
        }
        if let Some(from) = block_opening(line) {
            return if line[from..].contains('}') { Scanned::After } else { Scanned::Moves };
        }
        if let Some(from) = setup_opening(line) {
            return if line[from..].contains('}') { Scanned::Header } else { Scanned::Setup };
        }
        match key {
            // After `}END`, a known key starts the next game's header.
            Some(key) if part == Scanned::After && is_known(key) => Scanned::Header,
            _ => part,
        }
    }
}

/// Header keys that real files hold: a text made of lines of these and a
/// `START{` block is a WXF file even without its `FORMAT` line, and after
/// `}END` one of these starts the next game.
const KNOWN_KEYS: [&str; 11] =
    ["FORMAT", "GAME", "RED", "BLACK", "RESULT", "DATE", "EVENT", "ROUND", "SITE", "TITLE", "FEN"];

/// The move formats a `FORMAT` line names (WXF and its older name AXF,
/// and ICCS, the draft's default).
const MOVE_FORMATS: [&str; 3] = ["WXF", "AXF", "ICCS"];

/// Whether `text` is a WXF game file: its first line that is not blank
/// is `FORMAT WXF` (any case and spacing; `AXF` and `ICCS` too), or its
/// lines up to a `START{` line are all header lines of the keys real files
/// use (`RED`, `BLACK`, `FEN`, ...), at least one of them.
pub(crate) fn is_wxf(text: &str) -> bool {
    let mut headers = 0;
    for line in text.lines() {
        let line = line.trim_start_matches('\u{feff}');
        if line.trim().is_empty() {
            continue;
        }
        if block_opening(line).is_some() {
            return headers > 0;
        }
        let Some((key, value)) = header_line(line) else { return false };
        if headers == 0 && key.eq_ignore_ascii_case("FORMAT") && names_a_move_format(value) {
            return true;
        }
        if !is_known(key) {
            return false;
        }
        headers += 1;
    }
    false
}

/// Whether `key` is one of [`KNOWN_KEYS`] (any case).
fn is_known(key: &str) -> bool {
    KNOWN_KEYS.iter().any(|k| k.eq_ignore_ascii_case(key))
}

/// Whether the value of a `FORMAT` line names a move format this file
/// format is written in (`WXF`, `AXF, K(K) R(C) …`, `ICCS`).
fn names_a_move_format(value: &str) -> bool {
    let first = value.split(|c: char| c.is_whitespace() || c == ',').next().unwrap_or("");
    MOVE_FORMATS.iter().any(|f| f.eq_ignore_ascii_case(first))
}

/// A line `KEY value`: the key (ASCII letters, digits and `_`, opening
/// with a letter) and the value, trimmed; `None` when the line is not one.
fn header_line(line: &str) -> Option<(&str, &str)> {
    let line = line.trim_start();
    let end = line.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(line.len());
    let (key, rest) = line.split_at(end);
    let opens_with_letter = key.starts_with(|c: char| c.is_ascii_alphabetic());
    let separated = rest.is_empty() || rest.starts_with(char::is_whitespace);
    (opens_with_letter && key.len() >= 2 && separated).then(|| (key, rest.trim()))
}

/// Where the move text starts on a line opening a block, `START{` (any
/// case, spaces allowed before the `{`): the byte after the `{`.
fn block_opening(line: &str) -> Option<usize> {
    opening(line, "START")
}

/// Like [`block_opening`], for a `SETUP{` block.
fn setup_opening(line: &str) -> Option<usize> {
    opening(line, "SETUP")
}

/// The byte after `{` on a line that opens with `word{`.
fn opening(line: &str, word: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    let head = trimmed.get(..word.len())?;
    if !head.eq_ignore_ascii_case(word) {
        return None;
    }
    let after = trimmed[word.len()..].trim_start();
    after.strip_prefix('{')?;
    Some(line.len() - after.len() + 1)
}

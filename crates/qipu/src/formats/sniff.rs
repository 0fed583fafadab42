//! Telling formats apart: the one place that decides what an input is
//! ([`sniff`]), called once per input on its first megabyte (or all of it,
//! when it is smaller) by the whole-file and the streaming paths: its
//! format, how its text is decoded ([`TextEncoding`]), and whether it can
//! be read a piece at a time. Sniffing counts with visitors that build
//! nothing, and replays no move.
//!
//! Binary formats are told by their signature ([`super::detect::detect`]);
//! a text, once decoded, by what it holds:
//!
//! 1. a 象棋桥 XML record (`<ChineseChessRecord>`), or a 鹏飞 PFC record
//!    (XML whose root is `<n version=… m=…>`), whatever its attributes
//!    quote;
//! 2. DhtmlXQ blocks holding a tag (a text that only mentions `[DhtmlXQ]`
//!    is something else), counted outside the places where the text's
//!    own format holds free text (JSON records' lines, PGN comments and
//!    lines of tags), unless a PGN reading of it
//!    finds more games (a PGN followed by a block is a PGN);
//! 3. DHJHtmlXQ blocks holding a tag (`[DHJHtmlXQ]`, the 广东象棋网
//!    dialect), on the same terms;
//! 4. qipu's JSON records (its first line a JSON object);
//! 5. a WXF game file (`FORMAT WXF`, or header lines and a `START{` block);
//! 6. EPD or UCI/UCCI position lines, one game a line: the first line
//!    that is not blank, and most of the first 64, read as such lines (see
//!    [`super::lines`]);
//! 7. PGN: a line of PGN tags;
//! 8. else plain text, or PGN move text without tags when a PGN reading
//!    of it finds more moves (plain-text lines hold no variations nor
//!    comments between moves): each reading's games counted line by line
//!    (main line and variations), up to a line's first word that reads as
//!    no move in any notation.
//!
//! The head of an input larger than a megabyte cannot always tell: a web
//! page may hold DhtmlXQ blocks further on, PGN move text without tags has
//! no place to cut it, and a text may hold its first line of moves further
//! on. Such an input is read whole, and told again from all of it
//! ([`Reading::Undecided`]).

use std::borrow::Cow;
use std::ops::ControlFlow;

use super::detect::{self, Format};
use super::encoding::{self, Encoding, TextEncoding};
pub(crate) use super::quoted::{is_json, starts_with_markup};
use super::sighted::Sighted;
use super::{cbf, dhtmlxq, pfc, pgn, quoted, text, wxf};
use crate::notation;
use crate::record::{MoveText, RecordedMove, Skip, Visitor};

/// What an input is, as its first bytes tell ([`sniff`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Sniff {
    /// The format.
    pub format: Format,
    /// How its text is decoded, for a text format.
    pub text: Option<TextEncoding>,
    /// How the rest of it is read.
    pub reading: Reading,
}

impl Sniff {
    /// The encoding of a text.
    #[cfg(test)]
    pub(crate) fn encoding(&self) -> Option<Encoding> {
        self.text.map(|t| t.encoding)
    }
}

/// How an input is read, as its head tells.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// A piece at a time: a CBL library, or a text whose games can be told
    /// apart as its lines come (see [`super::stream`]).
    Pieces,
    /// Whole: a record of one game, binary data (refused on its head), or
    /// an input that its head is all of.
    Whole,
    /// Whole, and told again from all of it: its head (a part of a text)
    /// cannot tell (see the [module docs](self)).
    Undecided,
}

/// Tells what an input is from `head`, its first bytes (all of it when
/// `whole`; else a line may be cut at its end, and plain text is told from
/// its complete lines), with `forced` as the
/// encoding of a text.
#[cfg(test)]
pub(crate) fn sniff(head: &[u8], whole: bool, forced: Option<Encoding>) -> Sniff {
    sniff_decoded(head, whole, forced).0
}

/// [`sniff`], with the text of a text format decoded.
pub(crate) fn sniff_decoded(
    head: &[u8],
    whole: bool,
    forced: Option<Encoding>,
) -> (Sniff, Option<Cow<'_, str>>) {
    let binary = |format, reading| (Sniff { format, text: None, reading }, None);
    match detect::detect(head) {
        Format::Pgn => {}
        Format::Cbl if !whole => return binary(Format::Cbl, Reading::Pieces),
        format => return binary(format, Reading::Whole),
    }
    let told = TextEncoding::detect(head, whole, forced);
    // Blank: a text, read as PGN (which finds nothing in it).
    if head.iter().all(u8::is_ascii_whitespace) {
        let reading = if whole { Reading::Whole } else { Reading::Undecided };
        return (Sniff { format: Format::Pgn, text: Some(told), reading }, None);
    }
    let text = if whole { told.decode(head).text } else { Cow::Owned(head_text(head, told)) };
    let (format, reading) = match text_kind(&text, whole) {
        Kind::Told(format @ (Format::Json | Format::Dhtmlxq | Format::Epd | Format::Uci | Format::Wxf)) => {
            (format, Reading::Pieces)
        }
        Kind::Told(format @ (Format::Cbf | Format::Pfc | Format::Dhj)) => (format, Reading::Whole),
        // A web page may hold DhtmlXQ blocks further on.
        Kind::Told(format) if starts_with_markup(&text) => (format, Reading::Undecided),
        Kind::Told(format) => (format, Reading::Pieces),
        Kind::Plain { games: true } => (Format::Text, Reading::Pieces),
        // No line of moves yet.
        Kind::Plain { games: false } => (Format::Text, Reading::Undecided),
        // No place to cut it.
        Kind::TaglessPgn => (Format::Pgn, Reading::Undecided),
    };
    let reading = if whole { Reading::Whole } else { reading };
    (Sniff { format, text: Some(told), reading }, Some(text))
}

/// The head of a text, decoded (a character cut at its end left out).
fn head_text(head: &[u8], told: TextEncoding) -> String {
    let body = &head[told.bom.min(head.len())..];
    let mut text = String::new();
    if matches!(told.encoding, Encoding::Utf16Le | Encoding::Utf16Be) {
        let mut decoder = told.encoding.decoder();
        let room = decoder.max_utf8_buffer_length(body.len()).unwrap_or(body.len() * 3 + 16);
        text.reserve(room);
        let _ = decoder.decode_to_string(body, &mut text, false);
        return text;
    }
    told.decode_onto(body, &mut text);
    if text.ends_with('\u{FFFD}') {
        text.pop();
    }
    text
}

/// The format of a decoded text (see the [module docs](self) for the
/// order in which they are told apart).
#[cfg(test)]
pub(crate) fn text_format(text: &str) -> Format {
    match text_kind(text, true) {
        Kind::Told(format) => format,
        Kind::Plain { .. } => Format::Text,
        Kind::TaglessPgn => Format::Pgn,
    }
}

/// What a decoded text holds.
enum Kind {
    /// A format told by what it holds.
    Told(Format),
    /// Plain text, and whether it holds a game.
    Plain { games: bool },
    /// PGN move text without tags.
    TaglessPgn,
}

/// What a decoded text holds; of a head (not `whole`), plain text is told
/// from its complete lines.
fn text_kind(text: &str, whole: bool) -> Kind {
    // An XML record is one by its root, whatever its attributes quote.
    if starts_with_markup(text) && cbf::is_cbf(text) {
        return Kind::Told(Format::Cbf);
    }
    if starts_with_markup(text) && pfc::is_pfc(text) {
        return Kind::Told(Format::Pfc);
    }
    let (dhtml, dhj) = (dhtmlxq::contains_block(text), dhtmlxq::dhj::contains_block(text));
    if dhtml || dhj {
        // Blocks quoted in the text's own format (a JSON record's strings,
        // a PGN comment or tag value) are none of its records.
        let outside = quoted::unquoted(text);
        // Counted, not read; a PGN that reads as more games than there
        // are blocks is a PGN followed by them.
        let blocks_win =
            |blocks: usize| blocks > 0 && !(pgn::has_tags(text) && super::pgn_games(text) > blocks);
        if dhtml && blocks_win(dhtmlxq::count_records(&outside)) {
            return Kind::Told(Format::Dhtmlxq);
        }
        if dhj && blocks_win(dhtmlxq::dhj::count_records(&outside)) {
            return Kind::Told(Format::Dhj);
        }
    }
    if is_json(text) {
        return Kind::Told(Format::Json);
    }
    if wxf::is_wxf(text) {
        return Kind::Told(Format::Wxf);
    }
    if let Some(format) = super::lines::text_format(text) {
        return Kind::Told(format);
    }
    if pgn::has_tags(text) {
        return Kind::Told(Format::Pgn);
    }
    let lines = if whole { text } else { &text[..text.rfind('\n').map_or(0, |k| k + 1)] };
    plain_or_tagless(lines)
}

/// A text of no other format as plain text or as PGN move text without
/// tags: plain-text lines do not read comments and variations between
/// moves (`{开局} 1. 炮二平五 {中炮} 马８进７ *`, `1. h2e2 (1. c3c4) h9g7`),
/// and would take such lines for headers, their moves lost. The text is
/// PGN when every game of a PGN reading looks like a game and that reading
/// finds more moves (see [`MovesRead`]).
fn plain_or_tagless(text: &str) -> Kind {
    let (mut plain_games, mut plain_moves) = (0usize, 0usize);
    text::read_each(&encoding::unescape_references(text), 1, &mut MovesRead::default(), |moves| {
        plain_games += 1;
        plain_moves += moves;
    });
    let mut pgn_games = Sighted::new(MovesRead::default());
    let games = pgn::read_with(text, &mut pgn_games);
    if !games.is_empty() && games.iter().all(|&(_, looks)| looks) {
        let pgn_moves: usize = games.iter().map(|&(moves, _)| moves).sum();
        if plain_games == 0 || pgn_moves > plain_moves {
            return Kind::TaglessPgn;
        }
    }
    Kind::Plain { games: plain_games > 0 }
}

/// Counts the moves of a game that read as moves: of each line (the main
/// line and each variation), those up to its first word that reads as no
/// move in any notation. A count, not a replay: what a reading of a text
/// makes of it, not whether the moves are legal.
#[derive(Debug)]
struct MovesRead {
    moves: usize,
    /// For the line being read (last) and the lines it branches from:
    /// whether it still reads as moves.
    lines: Vec<bool>,
}

impl Default for MovesRead {
    fn default() -> MovesRead {
        MovesRead { moves: 0, lines: vec![true] }
    }
}

impl Visitor for MovesRead {
    type Output = usize;

    fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
        let reads = match &mv.text {
            MoveText::Text(t) => notation::is_move_text(t),
            MoveText::Coords(_) => true,
        };
        if let Some(line) = self.lines.last_mut().filter(|line| **line) {
            if reads {
                self.moves += 1;
            } else {
                *line = false;
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self) -> Skip {
        self.lines.push(true);
        Skip(false)
    }

    fn end_variation(&mut self) {
        if self.lines.len() > 1 {
            self.lines.pop();
        }
    }

    fn end_game(&mut self) -> usize {
        std::mem::take(self).moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_text_format_is_told_from_what_it_holds() {
        assert_eq!(text_format("[Event \"x\"]\n1. h2e2 *"), Format::Pgn);
        let block = "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]";
        assert_eq!(text_format(block), Format::Dhtmlxq);
        assert_eq!(text_format("position startpos moves h2e2 h9g7\n"), Format::Uci);
        assert_eq!(text_format("4k4/9/9/9/9/9/9/9/9/4K4 w - - bm e0e1;\n"), Format::Epd);
        assert_eq!(text_format("吉林洪智  红先和  上海林宏敏\n1. 兵七进一 炮２平３"), Format::Text);
        assert_eq!(text_format("{开局} 1. 炮二平五 {中炮} 马８进７ *"), Format::Pgn);
    }

    #[test]
    fn a_head_tells_the_format_the_encoding_and_the_reading() {
        let told = sniff("[Event \"国标\"]\n1. 炮二平五 *\n".as_bytes(), true, None);
        assert_eq!(
            (told.format, told.encoding(), told.reading),
            (Format::Pgn, Some(Encoding::Utf8), Reading::Whole)
        );
        let head = "[Event \"x\"]\n1. h2e2 h9g7 *\n\n".repeat(100);
        assert_eq!(sniff(head.as_bytes(), false, None).reading, Reading::Pieces);
        assert_eq!(sniff(b"XQ\x0a\0", true, None).format, Format::Xqf);
    }
}

//! Reading a whole file of any format into a visitor.

use std::borrow::Cow;

use super::detect::{self, Format};
use super::encoding::{self, Encoding, TextEncoding};
use super::sighted::Sighted;
use super::sniff::{self, Sniff};
use super::tree::Game;
use super::{
    Unreadable, UnreadableReason as Reason, cbf, ccbridge, dhtmlxq, mxq, online, pfc, pgn, sg, text, wxf, xqf,
};
use crate::record::{Span, Visitor, Warning};

/// How a file was read: its format and, for text, its encoding.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Read {
    /// The format found.
    pub format: Format,
    /// The text encoding, for text formats.
    pub encoding: Option<Encoding>,
}

/// Reads the games of a file of any format with `visitor`, handing what it
/// makes of each game to `each`, in order; `encoding` overrides text-encoding
/// detection. The file is told once (`sniff::sniff`). A file that holds no
/// game is [`Unreadable`], and `each` is not called.
///
/// # Errors
///
/// [`Unreadable`] for a file from which no record can be read: of no record
/// format, or a record that cannot be read at all.
///
/// ```
/// use qipu::formats::read_with;
/// use qipu::record::replay::Replayer;
/// let mut valid = 0;
/// let read = read_with(b"[Event \"x\"]\n1. h2e2 h9g7 *\n", None, &mut Replayer::default(), |r| valid += usize::from(r.is_valid())).unwrap();
/// assert_eq!((read.format.name(), valid), ("pgn", 1));
/// ```
pub fn read_with<V: Visitor>(
    bytes: &[u8],
    encoding: Option<Encoding>,
    visitor: &mut V,
    each: impl FnMut(V::Output),
) -> Result<Read, Unreadable> {
    let (told, text) = sniff::sniff_decoded(bytes, true, encoding);
    read_sniffed(bytes, told, text, visitor, each)
}

/// [`read_with`] on the bytes of a whole input told already (`told`, from
/// its head or all of it), with its text when it was decoded then, so that
/// no input is told or decoded twice.
pub(crate) fn read_sniffed<V: Visitor>(
    bytes: &[u8],
    told: Sniff,
    text: Option<Cow<'_, str>>,
    visitor: &mut V,
    mut each: impl FnMut(V::Output),
) -> Result<Read, Unreadable> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        let reason = if bytes.is_empty() { Reason::Empty } else { Reason::WhiteSpace };
        return Err(Unreadable::no_record(told.format, reason));
    }
    let binary = |format| Read { format, encoding: None };
    match told.format {
        Format::Xqf => match xqf::read_with(bytes, visitor) {
            Ok(game) => {
                each(game);
                Ok(binary(Format::Xqf))
            }
            Err(e) => Err(Unreadable::damaged(Format::Xqf, Reason::Xqf(e))),
        },
        Format::Cbr => match ccbridge::read_cbr_with(bytes, visitor) {
            Ok(game) => {
                each(game);
                Ok(binary(Format::Cbr))
            }
            Err(e) => Err(Unreadable::damaged(Format::Cbr, Reason::Ccbridge(e))),
        },
        Format::Mxq => match mxq::read_with(bytes, visitor) {
            Ok(game) => {
                each(game);
                Ok(binary(Format::Mxq))
            }
            Err(e) => Err(Unreadable::damaged(Format::Mxq, Reason::Mxq(e))),
        },
        Format::Che | Format::Ccm | Format::Chn | Format::Ubb => {
            let game = match told.format {
                Format::Che => online::che::read_game(bytes),
                Format::Ubb => online::ubb::read_game(bytes),
                Format::Ccm => online::ccm::read_game(bytes),
                _ => online::chn::read_game(bytes),
            };
            match game {
                Ok(game) => {
                    each(game.tell(visitor));
                    Ok(binary(told.format))
                }
                Err(e) => Err(Unreadable::damaged(told.format, Reason::Online(e))),
            }
        }
        Format::Cbl => {
            // A record of the library that cannot be read is still a game
            // to account for: it is marked unreadable, with its place. A
            // library that cannot be read at all is known so before any of
            // its games is told.
            let mut games = 0usize;
            ccbridge::each_game(bytes, |game| {
                games += 1;
                each(game.unwrap_or_else(unreadable_record).tell(visitor));
            })
            .map_err(|e| Unreadable::damaged(Format::Cbl, Reason::Ccbridge(e)))?;
            if games == 0 {
                return Err(Unreadable::damaged(Format::Cbl, Reason::EmptyLibrary));
            }
            Ok(binary(Format::Cbl))
        }
        Format::Sg => {
            // A record that cannot be read is still a game to account
            // for: it is marked unreadable, with its place.
            sg::each_game(bytes, |game| {
                each(game.unwrap_or_else(|e| unreadable_at(e.offset, e.reason())).tell(visitor));
            });
            Ok(binary(Format::Sg))
        }
        Format::Binary => {
            if let Some(kind) = detect::archive_kind(bytes) {
                return Err(Unreadable::damaged(Format::Binary, Reason::Archive { kind }));
            }
            let start = bytes[..bytes.len().min(4)].to_vec();
            Err(Unreadable::no_record(Format::Binary, Reason::Binary { start }))
        }
        format => {
            let encoding = told.text.unwrap_or_else(|| TextEncoding::detect(bytes, true, None));
            let text = text.unwrap_or_else(|| encoding.decode(bytes).text);
            read_text(&text, format, encoding.encoding, visitor, each)
        }
    }
}

/// The unreadable game of a record of a library that cannot be read, with
/// its place.
pub(crate) fn unreadable_record(e: ccbridge::CcbridgeError) -> Game {
    unreadable_at(e.offset, e.reason())
}

/// The unreadable game of a record of a file that holds several, found
/// at byte `offset`, and why it cannot be read.
fn unreadable_at(offset: usize, message: String) -> Game {
    let at = Span { line: 0, column: u32::try_from(offset).unwrap_or(u32::MAX) };
    Game { unreadable: Some(Warning { at, message }), ..Game::default() }
}

/// Reads a decoded text of a text format, `format`, with `visitor`.
fn read_text<V: Visitor>(
    text: &str,
    format: Format,
    encoding: Encoding,
    visitor: &mut V,
    mut each: impl FnMut(V::Output),
) -> Result<Read, Unreadable> {
    let read = |format| Read { format, encoding: Some(encoding) };
    let none = |format| Unreadable::no_record(format, Reason::NoGame);
    match format {
        Format::Dhtmlxq => {
            dhtmlxq::read_each(text, 1, |game| each(game.tell(visitor)));
            Ok(read(Format::Dhtmlxq))
        }
        Format::Dhj => {
            dhtmlxq::dhj::read_each(text, |game| each(game.tell(visitor)));
            Ok(read(Format::Dhj))
        }
        Format::Pfc => match pfc::read_with(text, visitor) {
            Ok(game) => {
                each(game);
                Ok(read(Format::Pfc))
            }
            Err(e) => Err(Unreadable::damaged(Format::Pfc, Reason::Pfc(e))),
        },
        Format::Cbf => match cbf::read_with(text, visitor) {
            Ok(game) => {
                each(game);
                Ok(read(Format::Cbf))
            }
            Err(e) => Err(Unreadable::damaged(Format::Cbf, Reason::Cbf(e))),
        },
        Format::Json => {
            if json_games(text, visitor, &mut each) == 0 {
                return Err(none(Format::Json));
            }
            Ok(read(Format::Json))
        }
        Format::Wxf => {
            let mut games = 0usize;
            wxf::read_each(text, 1, |game| {
                games += 1;
                each(game.tell(visitor));
            });
            if games == 0 {
                return Err(none(Format::Wxf));
            }
            Ok(read(Format::Wxf))
        }
        format @ (Format::Epd | Format::Uci) => {
            super::lines::read_with(text, 1, format, visitor, each);
            Ok(read(format))
        }
        Format::Text => {
            let mut games = Sighted::new(visitor);
            let mut held = Held::default();
            let text = encoding::unescape_references(text);
            text::read_each(&text, 1, &mut games, |game| held.take(game, &mut each));
            match held.end() {
                None => Err(Unreadable::no_record(Format::Text, Reason::NoLineOfMoves)),
                Some(false) => Err(not_a_game(Format::Text)),
                Some(true) => Ok(read(Format::Text)),
            }
        }
        // PGN, with tags or without.
        _ => {
            let mut games = Sighted::new(visitor);
            let mut held = Held::default();
            for game in pgn::read_with(text, &mut games) {
                held.take(game, &mut each);
            }
            match held.end() {
                None => Err(none(Format::Pgn)),
                Some(false) => Err(not_a_game(Format::Pgn)),
                Some(true) => Ok(read(Format::Pgn)),
            }
        }
    }
}

/// A text whose games do not look like games.
pub(crate) fn not_a_game(format: Format) -> Unreadable {
    Unreadable::no_record(format, Reason::NotAGame)
}

/// The games read from a text, held until one looks like a game (a text
/// of which none does holds no record); from then on they are handed on
/// as they come.
#[derive(Debug)]
pub(crate) struct Held<O> {
    games: Vec<O>,
    /// A game looked like a game.
    seen: bool,
    /// Some game was read.
    any: bool,
}

impl<O> Default for Held<O> {
    fn default() -> Held<O> {
        Held { games: Vec::new(), seen: false, any: false }
    }
}

impl<O> Held<O> {
    /// Takes a game and whether it looks like one.
    pub(crate) fn take(&mut self, (game, looks): (O, bool), each: &mut impl FnMut(O)) {
        self.any = true;
        if self.seen {
            each(game);
            return;
        }
        self.games.push(game);
        if looks {
            self.seen = true;
            for g in self.games.drain(..) {
                each(g);
            }
        }
    }

    /// Takes the games of a chunk, `first_game` the first of them that
    /// looks like a game; returns those to hand on now.
    pub(crate) fn take_chunk(&mut self, mut games: Vec<O>, first_game: Option<usize>) -> Vec<O> {
        self.any |= !games.is_empty();
        if !self.seen {
            if first_game.is_none() {
                self.games.append(&mut games);
                return Vec::new();
            }
            self.seen = true;
            if !self.games.is_empty() {
                self.games.append(&mut games);
                return std::mem::take(&mut self.games);
            }
        }
        games
    }

    /// `None` when no game was read; else whether one looked like a game
    /// (when none did, the games held are dropped).
    pub(crate) fn end(self) -> Option<bool> {
        self.any.then_some(self.seen)
    }
}

/// Reads the JSON records of a text with `visitor` (only with the `serde`
/// feature): how many there are.
fn json_games<V: Visitor>(text: &str, visitor: &mut V, each: &mut impl FnMut(V::Output)) -> usize {
    #[cfg(feature = "serde")]
    {
        let mut reader = super::json::LineReader::default();
        let mut games = 0;
        for line in text.lines() {
            reader.push_line(line);
            reader.tell_games(visitor, |game| {
                games += 1;
                each(game);
            });
        }
        games
    }
    #[cfg(not(feature = "serde"))]
    {
        let _ = (text, visitor, each);
        0
    }
}

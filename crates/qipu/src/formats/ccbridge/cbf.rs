//! 象棋桥 (CCBridge) CBF records: XML with the root element
//! `ChineseChessRecord`.
//!
//! `<Head>` holds the game's fields as child elements (`Name`, `Contest`,
//! `Red`, `Black`, `RecordResult`, `FEN`…); `<MoveList>` holds one
//! `<Move value="XY-XY"/>` per ply, `X` the column from Red's left (0-8)
//! and `Y` the row from the top (0-9), after a first `<Move value="00-00"/>`
//! standing for the start position. A move's text (usually CDATA) is the
//! comment after it; `end="1"` marks the last move. The start position and
//! the side to move come from `<FEN>`.
//!
//! No CBF with variations is known, and no reader reads them: a move after
//! `end="1"`, or an attribute of `<Move>` other than `value` and `end`, is
//! an error rather than a guess.
//!
//! ```
//! use qipu::formats::cbf;
//! let text = r#"<?xml version="1.0" encoding="UTF-8"?>
//! <ChineseChessRecord Version="1.0">
//!  <Head><Red>胡荣华</Red><RecordResult>1</RecordResult></Head>
//!  <MoveList>
//!   <Move value="00-00"/>
//!   <Move value="77-47"><![CDATA[中炮]]></Move>
//!   <Move value="70-62" end="1"/>
//!  </MoveList>
//! </ChineseChessRecord>"#;
//! assert!(cbf::is_cbf(text));
//! let record = cbf::read(text).unwrap();
//! assert_eq!(record.tag("Red"), Some("胡荣华"));
//! assert_eq!(record.tag("Result"), Some("1-0"));
//! assert_eq!(record.tree().main_line().count(), 2); // h2e2 h9g7
//! assert_eq!(record.fen(), None); // no FEN: the standard start
//! ```

use std::borrow::Cow;

use quick_xml::XmlVersion;
use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::reader::Reader;

use super::{put_tags, result_of_code, tidy_comment};
use crate::formats::start::settle_start;
use crate::formats::tree::{Game, Moves};
use crate::record::{GameResult, MoveText, Record, RecordBuilder, RecordedMove, Span, Visitor, Warning};
use crate::rules::Setup;
use crate::{Board, Color, File, Move, Rank, Square};

/// The root element of a CBF document.
pub(crate) const ROOT: &str = "ChineseChessRecord";

/// Why a CBF document cannot be read, and where.
///
/// ```
/// use qipu::formats::cbf::{self, CbfErrorKind};
/// let e = cbf::read("<ChineseChessRecord><MoveList><Move value=\"00-00\"/><Move value=\"79-6A\"/></MoveList></ChineseChessRecord>").unwrap_err();
/// assert_eq!(e.kind, CbfErrorKind::BadMove { value: "79-6A".into() });
/// assert_eq!((e.line, e.column), (1, 52));
/// assert_eq!(e.to_string(), "line 1, column 52: move '79-6A': expected XY-XY, X a column 0-8, Y a row 0-9");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct CbfError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// What is wrong.
    pub kind: CbfErrorKind,
}

/// What is wrong with a CBF document, at the place its [`CbfError`] gives.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CbfErrorKind {
    /// The XML parser's complaint, in its words.
    #[error("not well-formed XML: {message}")]
    NotWellFormed {
        /// What the parser says.
        message: String,
    },
    /// A bad character reference (`&#xZZ;`), with the parser's words.
    #[error("a bad character reference &{reference};: {message}")]
    BadCharacterReference {
        /// The reference, between `&` and `;`.
        reference: String,
        /// What the parser says.
        message: String,
    },
    /// An entity that XML does not predefine.
    #[error("unknown entity &{name};")]
    UnknownEntity {
        /// Its name, between `&` and `;`.
        name: String,
    },
    /// No root element at all.
    #[error("no <{ROOT}> element")]
    NoRoot,
    /// The document ends before its root element does.
    #[error("truncated: the document ends inside <{ROOT}>")]
    Truncated,
    /// An XML document of another kind.
    #[error("not a CBF record: the root element is <{root}>, not <{ROOT}>")]
    NotCbf {
        /// Its root element's name.
        root: String,
    },
    /// The root element is empty (`<ChineseChessRecord/>`).
    #[error("<{ROOT}/> is empty: no moves and no head")]
    EmptyRoot,
    /// Text after the root element.
    #[error("text outside the root element")]
    TextOutsideRoot,
    /// An element in the move list other than `<Move>`.
    #[error("<{name}> inside the move list: only <Move> is known")]
    UnknownElement {
        /// Its name.
        name: String,
    },
    /// A move after one that ends the line (`end="1"`): a variation,
    /// which qipu does not read in CBF.
    #[error("a move after the end of the line (end=\"1\"): CBF variations are not supported")]
    Variation,
    /// A `<Move>` attribute that does not parse (`value`: its value does
    /// not), with the parser's words.
    #[error("<Move>: a bad attribute{} ({message})", if *value { " value" } else { "" })]
    BadAttribute {
        /// Whether the attribute's value, rather than the attribute, is bad.
        value: bool,
        /// What the parser says.
        message: String,
    },
    /// A `<Move>` attribute other than `value` and `end`.
    #[error("<Move> has an attribute '{name}': only 'value' and 'end' are known")]
    UnknownAttribute {
        /// Its name.
        name: String,
    },
    /// A `<Move>` without its `value`.
    #[error("<Move> without a 'value'")]
    NoValue,
    /// A move value that is not `XY-XY`.
    #[error("move '{value}': expected XY-XY, X a column 0-8, Y a row 0-9")]
    BadMove {
        /// The value.
        value: String,
    },
    /// A move from a point to itself.
    #[error("move '{value}': from and to are the same point")]
    SamePoint {
        /// The value.
        value: String,
    },
    /// An `end` attribute other than `0` and `1`.
    #[error("<Move end=\"{value}\">: expected 0 or 1")]
    BadEnd {
        /// The value, trimmed.
        value: String,
    },
    /// A `<FEN>` that does not read.
    #[error("<FEN> '{fen}': {error}")]
    Fen {
        /// The FEN, trimmed.
        fen: String,
        /// Why it does not read.
        error: crate::rules::ParseFenError,
    },
}

/// Whether `text` is an XML document whose root element is
/// `ChineseChessRecord`. Only the prologue is looked at.
pub fn is_cbf(text: &str) -> bool {
    let mut reader = Reader::from_str(text.strip_prefix('\u{feff}').unwrap_or(text));
    loop {
        match reader.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) => return e.name().as_ref() == ROOT,
            Ok(Event::Text(t)) if !t.trim().is_empty() => return false,
            Ok(Event::Eof) | Err(_) => return false,
            Ok(_) => {}
        }
    }
}

/// Reads a CBF document (already decoded; a BOM is skipped) into a record.
///
/// # Errors
///
/// A [`CbfError`], with its line and column, for text that is not
/// well-formed XML or not a CBF record, a move that is not `XY-XY`, a move
/// after the end of the line, or a `<FEN>` that does not parse.
pub fn read(text: &str) -> Result<Record, CbfError> {
    read_with(text, &mut RecordBuilder::default())
}

/// Reads a CBF document with `visitor`: the game's events, in the order
/// of [`visit`](crate::record::visit), and what the visitor makes of them.
/// The whole document is read (and checked) before the first event, so a
/// document that cannot be read tells nothing; no [`Record`] is built.
///
/// # Errors
///
/// As [`read`].
pub fn read_with<V: Visitor>(text: &str, visitor: &mut V) -> Result<V::Output, CbfError> {
    Ok(read_game(text)?.tell(visitor))
}

/// Reads a CBF document into a game, to tell.
pub(crate) fn read_game(text: &str) -> Result<Game, CbfError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut doc = Document::new(text);
    doc.parse()?;
    doc.into_game()
}

/// Turns byte offsets into lines and columns, moving forward through the
/// text so that a whole document costs one pass.
pub(crate) struct Locator<'a> {
    text: &'a str,
    offset: usize,
    line: u32,
    column: u32,
}

impl<'a> Locator<'a> {
    pub(crate) fn new(text: &'a str) -> Locator<'a> {
        Locator { text, offset: 0, line: 1, column: 1 }
    }

    pub(crate) fn span(&mut self, offset: usize) -> Span {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.offset {
            (self.offset, self.line, self.column) = (0, 1, 1);
        }
        for c in self.text[self.offset..offset].chars() {
            if c == '\n' {
                self.line = self.line.saturating_add(1);
                self.column = 1;
            } else {
                self.column = self.column.saturating_add(1);
            }
        }
        self.offset = offset;
        Span { line: self.line, column: self.column }
    }
}

fn error_at<T>(at: Span, kind: CbfErrorKind) -> Result<T, CbfError> {
    Err(CbfError { line: at.line, column: at.column, kind })
}

/// Where the reader stands in the element tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Inside the root element.
    Root,
    /// Inside `<Head>`.
    Head,
    /// Inside a field of `<Head>`: the index of the field in `fields`.
    Field(usize),
    /// Inside `<MoveList>`.
    MoveList,
    /// Inside a `<Move>`.
    Move,
    /// Inside anything else: its text is ignored.
    Other,
}

/// A `<Move>` read: where, from/to (`None` for the root placeholder), and
/// its text.
struct MoveElement {
    at: Span,
    squares: Option<(Square, Square)>,
    text: String,
}

/// The state of reading one document.
struct Document<'a> {
    reader: Reader<&'a [u8]>,
    locator: Locator<'a>,
    places: Vec<Place>,
    /// The fields of `<Head>`: name, value, where.
    fields: Vec<(String, String, Span)>,
    moves: Vec<MoveElement>,
    /// Where the root element starts.
    root_at: Option<Span>,
    /// The last move ended the line (`end="1"`).
    ended: bool,
    warnings: Vec<Warning>,
}

impl<'a> Document<'a> {
    fn new(text: &'a str) -> Document<'a> {
        Document {
            reader: Reader::from_str(text),
            locator: Locator::new(text),
            places: Vec::new(),
            fields: Vec::new(),
            moves: Vec::new(),
            root_at: None,
            ended: false,
            warnings: Vec::new(),
        }
    }

    /// Reads events up to the end of the root element.
    fn parse(&mut self) -> Result<(), CbfError> {
        loop {
            let start = self.reader.buffer_position() as usize;
            let event = match self.reader.read_event() {
                Ok(event) => event,
                Err(e) => {
                    let at = self.locator.span(self.reader.error_position() as usize);
                    return error_at(at, CbfErrorKind::NotWellFormed { message: e.to_string() });
                }
            };
            let at = self.locator.span(start);
            match event {
                Event::Start(e) => self.open(&e, at, false)?,
                Event::Empty(e) => self.open(&e, at, true)?,
                Event::End(_) => {
                    self.places.pop();
                    if self.places.is_empty() {
                        return Ok(());
                    }
                }
                Event::Text(t) => self.add_text(&t.xml10_content(), at)?,
                Event::CData(t) => self.add_text(&t.xml10_content(), at)?,
                Event::GeneralRef(r) => self.add_text(&resolve_reference(&r, at)?, at)?,
                Event::Eof => {
                    return match self.root_at {
                        None => error_at(at, CbfErrorKind::NoRoot),
                        Some(_) => error_at(at, CbfErrorKind::Truncated),
                    };
                }
                Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
            }
        }
    }

    /// An element starts (`empty`: and ends) at `at`.
    fn open(&mut self, e: &BytesStart<'_>, at: Span, empty: bool) -> Result<(), CbfError> {
        let name = e.name().as_ref().to_string();
        let place = match self.places.last() {
            None if name == ROOT => {
                self.root_at = Some(at);
                Place::Root
            }
            None => {
                return error_at(at, CbfErrorKind::NotCbf { root: name });
            }
            Some(Place::Root) if name == "Head" => Place::Head,
            Some(Place::Root) if name == "MoveList" => Place::MoveList,
            Some(Place::Head) => {
                self.fields.push((name, String::new(), at));
                Place::Field(self.fields.len() - 1)
            }
            Some(Place::MoveList) if name == "Move" => {
                self.start_move(e, at)?;
                Place::Move
            }
            Some(Place::MoveList | Place::Move) => {
                return error_at(at, CbfErrorKind::UnknownElement { name });
            }
            Some(_) => Place::Other,
        };
        if !empty {
            self.places.push(place);
        } else if place == Place::Root {
            return error_at(at, CbfErrorKind::EmptyRoot);
        }
        Ok(())
    }

    /// Text (or CDATA, or an entity) at `at`, for the element it is in.
    fn add_text(&mut self, text: &str, at: Span) -> Result<(), CbfError> {
        match self.places.last() {
            Some(Place::Field(i)) => self.fields[*i].1.push_str(text),
            Some(Place::Move) => {
                if let Some(m) = self.moves.last_mut() {
                    m.text.push_str(text);
                }
            }
            None if !text.trim().is_empty() => return error_at(at, CbfErrorKind::TextOutsideRoot),
            _ => {}
        }
        Ok(())
    }

    /// A `<Move>` starts: reads its attributes.
    fn start_move(&mut self, e: &BytesStart<'_>, at: Span) -> Result<(), CbfError> {
        if self.ended {
            return error_at(at, CbfErrorKind::Variation);
        }
        let (mut value, mut ends) = (None, false);
        for attribute in e.attributes() {
            let attribute = match attribute {
                Ok(a) => a,
                Err(err) => {
                    return error_at(
                        at,
                        CbfErrorKind::BadAttribute { value: false, message: err.to_string() },
                    );
                }
            };
            let text = match attribute.normalized_value(XmlVersion::Implicit1_0) {
                Ok(t) => t,
                Err(err) => {
                    return error_at(
                        at,
                        CbfErrorKind::BadAttribute { value: true, message: err.to_string() },
                    );
                }
            };
            match attribute.key.as_ref() {
                "value" => value = Some(text.into_owned()),
                "end" => ends = end_flag(&text, at)?,
                other => {
                    return error_at(at, CbfErrorKind::UnknownAttribute { name: other.to_string() });
                }
            }
        }
        let Some(value) = value else { return error_at(at, CbfErrorKind::NoValue) };
        let squares = if self.moves.is_empty() && value == "00-00" {
            None
        } else {
            let Some((from, to)) = parse_move(&value) else {
                return error_at(at, CbfErrorKind::BadMove { value });
            };
            if from == to {
                return error_at(at, CbfErrorKind::SamePoint { value });
            }
            if self.moves.is_empty() {
                let message = "the move list does not start with the placeholder 00-00; read as a move";
                self.warnings.push(Warning { at, message: message.into() });
            }
            Some((from, to))
        };
        self.ended = ends;
        self.moves.push(MoveElement { at, squares, text: String::new() });
        Ok(())
    }

    /// Builds the game from what was read.
    fn into_game(self) -> Result<Game, CbfError> {
        let mut record = Game {
            at: self.root_at.unwrap_or(Span { line: 1, column: 1 }),
            warnings: self.warnings,
            ..Game::default()
        };
        let field =
            |name: &str| self.fields.iter().find(|(n, ..)| n == name).map(|(_, v, at)| (v.trim(), *at));
        let mut found = Vec::new();
        for (element, tag) in HEAD_TAGS {
            if let Some((value, _)) = field(element) {
                found.push((tag, value.to_string()));
            }
        }
        if let Some((code, at)) = field("RecordResult").filter(|(code, _)| !code.is_empty()) {
            let result = code.parse().ok().and_then(result_of_code).unwrap_or_else(|| {
                let message = format!("RecordResult '{code}' is not 0-4; read as unknown");
                record.warnings.push(Warning { at, message });
                GameResult::Unknown
            });
            record.result = Some(result);
            found.push(("Result", result.as_str().to_string()));
        }
        put_tags(&mut record, found);
        let (setup, fen_at) = match field("FEN").filter(|(fen, _)| !fen.is_empty()) {
            Some((fen, at)) => match Setup::from_fen(fen) {
                Ok(setup) => (setup, at),
                Err(error) => return error_at(at, CbfErrorKind::Fen { fen: fen.to_string(), error }),
            },
            None => {
                let at = record.at;
                let message = "no <FEN>: the standard start position, Red to move, is assumed";
                record.warnings.push(Warning { at, message: message.into() });
                (Setup { board: Board::start(), turn: Color::Red, halfmoves: 0, fullmoves: 1 }, at)
            }
        };
        record.moves = build_tree(&self.moves);
        settle_start(
            &mut record,
            &setup.board,
            fen_at,
            Some((setup.turn, fen_at, "file")),
            (setup.halfmoves, setup.fullmoves),
        );
        Ok(record)
    }
}

/// `<Head>` elements and the tags they become (`RecordResult` and `FEN`
/// are read apart).
const HEAD_TAGS: [(&str, &str); 13] = [
    ("Name", "Title"),
    ("Contest", "Event"),
    ("Round", "Round"),
    ("Date", "Date"),
    ("Site", "Site"),
    ("Red", "Red"),
    ("Black", "Black"),
    ("RedTeam", "RedTeam"),
    ("BlackTeam", "BlackTeam"),
    ("TimeRule", "TimeControl"),
    ("Commentator", "Annotator"),
    ("Creator", "Author"),
    ("ECCO", "ECCO"),
];

/// The main line of the moves read; the placeholder's text is the comment
/// on the start position.
fn build_tree(moves: &[MoveElement]) -> Moves {
    let mut tree = Moves::with_capacity(moves.len() + 1);
    let mut at = tree.root();
    for m in moves {
        if let Some((from, to)) = m.squares {
            at = tree.add_child(at, RecordedMove { text: MoveText::Coords(Move::new(from, to)), at: m.at });
        }
        if let Some(comment) = tidy_comment(&m.text) {
            tree.set_comment(at, &comment);
        }
    }
    tree
}

/// The value of `end`: `1` ends the line, `0` does not.
fn end_flag(text: &str, at: Span) -> Result<bool, CbfError> {
    match text.trim() {
        "1" => Ok(true),
        "0" | "" => Ok(false),
        other => error_at(at, CbfErrorKind::BadEnd { value: other.to_string() }),
    }
}

/// Parses `XY-XY`: X the column from Red's left, Y the row from the top.
fn parse_move(value: &str) -> Option<(Square, Square)> {
    let &[x1, y1, b'-', x2, y2] = value.trim().as_bytes() else { return None };
    Some((point(x1, y1)?, point(x2, y2)?))
}

fn point(x: u8, y: u8) -> Option<Square> {
    let (x, y) = ((x as char).to_digit(10)?, (y as char).to_digit(10)?);
    Some(Square::new(File::new(x)?, Rank::new(9 - y)?))
}

/// The text of an entity or character reference.
fn resolve_reference<'r>(r: &'r BytesRef<'_>, at: Span) -> Result<Cow<'r, str>, CbfError> {
    match r.resolve_char_ref() {
        Ok(Some(c)) => return Ok(Cow::Owned(c.to_string())),
        Ok(None) => {}
        Err(e) => {
            let (reference, message) = ((**r).to_string(), e.to_string());
            return error_at(at, CbfErrorKind::BadCharacterReference { reference, message });
        }
    }
    match quick_xml::escape::resolve_predefined_entity(r) {
        Some(text) => Ok(Cow::Borrowed(text)),
        None => error_at(at, CbfErrorKind::UnknownEntity { name: (**r).to_string() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ccbridge::testing::coords;

    fn doc(head: &str, moves: &str) -> String {
        format!(
            "\u{feff}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ChineseChessRecord Version=\"1.0\">\n \
             <Head>{head}</Head>\n <MoveList>\n{moves} </MoveList>\n</ChineseChessRecord>\n"
        )
    }

    #[test]
    fn head_moves_and_comments() {
        let text = doc(
            "<Name>第一局 &amp; 第二局</Name><Contest>全国赛</Contest><Red>胡荣华</Red><Black /><URL />\
             <Commentator>居荣鑫</Commentator><ECCO>C03</ECCO><RecordResult>3</RecordResult>\
             <FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1</FEN>",
            "  <Move value=\"00-00\"><![CDATA[ 开局]]></Move>\n  <Move value=\"77-47\" />\n  \
             <Move value=\"70-62\"><![CDATA[马]]>&#x8DF3;</Move>\n  <Move value=\"79-67\" end=\"1\"/>\n",
        );
        assert!(is_cbf(&text));
        let record = read(&text).unwrap();
        let tags: Vec<_> = record.tags().iter().map(|(k, v)| format!("{k}={v}")).collect();
        assert_eq!(
            tags,
            [
                "Game=Chinese Chess",
                "Title=第一局 & 第二局",
                "Event=全国赛",
                "Red=胡荣华",
                "Result=1/2-1/2",
                "Annotator=居荣鑫",
                "ECCO=C03"
            ]
        );
        assert_eq!(record.written_result(), Some(GameResult::Draw));
        let t = record.tree();
        assert_eq!(t.node(t.root()).comment(), Some(" 开局"));
        let main: Vec<_> = t.main_line().collect();
        assert_eq!(main.iter().map(|&id| coords(&record, id)).collect::<Vec<_>>(), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(t.node(main[1]).comment(), Some("马跳"));
        assert_eq!(t.node(main[0]).mv.as_ref().unwrap().at, Span { line: 6, column: 3 });
        assert!(record.warnings().is_empty(), "{:?}", record.warnings());
        assert!(crate::record::replay::replay(&record).is_valid());
    }

    #[test]
    fn the_fens_clock_is_kept() {
        let fen = "<FEN>4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 12 30</FEN>";
        let record = read(&doc(fen, "<Move value=\"00-00\"/>")).unwrap();
        assert_eq!(record.fen(), Some("4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 12 30"));
    }

    #[test]
    fn black_to_move_from_the_fen_and_the_first_move() {
        let fen = "<FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1</FEN>";
        let record = read(&doc(fen, "<Move value=\"00-00\"/><Move value=\"70-62\"/>")).unwrap();
        assert!(record.fen().unwrap().contains(" b "));
        assert!(record.warnings().is_empty());
        // The FEN says Black, the first move is Red's: the move wins.
        let record = read(&doc(fen, "<Move value=\"00-00\"/><Move value=\"77-47\"/>")).unwrap();
        assert_eq!(record.fen(), None);
        assert!(record.warnings()[0].message.contains("first move is Red's"), "{:?}", record.warnings());
        // No FEN at all: the standard start, with a warning.
        let record = read(&doc("", "<Move value=\"00-00\"/>")).unwrap();
        assert_eq!(record.fen(), None);
        assert!(record.warnings()[0].message.contains("no <FEN>"));
    }

    #[test]
    fn errors_name_their_line_and_column() {
        let e = read(&doc("", "<Move value=\"00-00\"/>\n<Move value=\"79-6A\"/>\n")).unwrap_err();
        assert_eq!((e.line, e.column), (6, 1), "{e}");
        assert!(e.kind.to_string().contains("'79-6A'"), "{e}");
        let e = read(&doc("", "<Move value=\"00-00\"/>\n<Move value=\"90-00\"/>\n")).unwrap_err();
        assert!(e.kind.to_string().contains("'90-00'"), "{e}");
        let e = read(&doc(
            "",
            "<Move value=\"00-00\"/>\n<Move value=\"77-47\" end=\"1\"/><Move value=\"70-62\"/>",
        ))
        .unwrap_err();
        assert_eq!((e.line, e.column), (6, 30), "{e}");
        assert!(e.kind.to_string().contains("variations"), "{e}");
        assert_eq!(e.kind, CbfErrorKind::Variation);
        let e = read(&doc("", "<Move value=\"00-00\" next=\"3\"/>")).unwrap_err();
        assert!(e.kind.to_string().contains("'next'"), "{e}");
        assert_eq!(e.kind, CbfErrorKind::UnknownAttribute { name: "next".into() });
        let e = read(&doc("", "<Step value=\"00-00\"/>")).unwrap_err();
        assert!(e.kind.to_string().contains("<Step>"), "{e}");
        assert_eq!(e.kind, CbfErrorKind::UnknownElement { name: "Step".into() });
        let e = read(&doc("<FEN>xyz</FEN>", "")).unwrap_err();
        assert!(e.kind.to_string().contains("<FEN> 'xyz'"), "{e}");
        assert!(matches!(&e.kind, CbfErrorKind::Fen { fen, .. } if fen == "xyz"), "{e}");
        // Truncated, and not well-formed.
        let text = doc("", "<Move value=\"00-00\"/>");
        let e = read(&text[..text.len() - 30]).unwrap_err();
        assert!(
            e.kind.to_string().contains("truncated") || e.kind.to_string().contains("well-formed"),
            "{e}"
        );
        let e = read("<ChineseChessRecord><Head></MoveList></ChineseChessRecord>").unwrap_err();
        assert_eq!((e.line, e.column), (1, 27), "{e}");
        let e = read("<Record/>").unwrap_err();
        assert!(e.kind.to_string().contains("not a CBF record"), "{e}");
        assert_eq!(e.kind, CbfErrorKind::NotCbf { root: "Record".into() });
        assert_eq!(read("").unwrap_err().kind, CbfErrorKind::NoRoot);
        let e = read(&doc("", "<Move value=\"00-00\">&nbsp;</Move>")).unwrap_err();
        assert_eq!(e.kind, CbfErrorKind::UnknownEntity { name: "nbsp".into() });
        assert!(read("").is_err());
        assert!(
            read(&doc("", "<Move value=\"00-00\">&nbsp;</Move>"))
                .unwrap_err()
                .kind
                .to_string()
                .contains("&nbsp;")
        );
    }

    #[test]
    fn is_cbf_looks_at_the_root_only() {
        assert!(is_cbf("<!-- c --><ChineseChessRecord/>"));
        assert!(!is_cbf("<html><ChineseChessRecord/></html>"));
        assert!(!is_cbf("[Event \"x\"]\n1. h2e2"));
        assert!(!is_cbf(""));
    }

    #[test]
    fn a_long_single_line_reads_in_linear_time() {
        let moves = ["09-08", "00-01", "08-09", "01-00"].map(|m| format!("<Move value=\"{m}\"/>"));
        let mut list = String::from("<Move value=\"00-00\"/>");
        for i in 0..100_000 {
            list.push_str(&moves[i % 4]);
        }
        let record = read(&doc("<FEN>r3k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1</FEN>", &list)).unwrap();
        assert_eq!(record.tree().main_line().count(), 100_000);
        let last = record.tree().main_line().last().unwrap();
        assert_eq!(
            record.tree().node(last).mv.as_ref().unwrap().at,
            Span { line: 5, column: 1 + 21 * 100_000 }
        );
    }
}

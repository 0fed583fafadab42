//! 鹏飞象棋 PFC records: the game's move tree as nested XML `<n>` elements.
//!
//! # Syntax
//!
//! An XML document (an `<?xml …?>` declaration, UTF-8 in every file seen;
//! the text is decoded as qipu decodes any text) whose root element is an
//! `<n>` standing for the start position; each child `<n>` is a move
//! played from its parent's position, and its own children are the moves
//! that can follow it:
//!
//! ```text
//! <?xml version="1.0" encoding="utf-8"?><n version="2" win="1-0" m="FEN" c="about the game" event="…" red="…" create-time="1989.05.01">
//!   <n m="h2e2" c="comment after the move" default="true"><n m="h9g7" c="" default="true" /></n>
//!   <n m="c3c4" c="an alternative to h2e2" />
//! </n>
//! ```
//!
//! # Fields
//!
//! - The root's `m` is the start position as a FEN (its side to move
//!   included); missing or empty, the standard start. `c` is the comment
//!   about the game, `version` the format's version (`2`), `win` the result
//!   (`1-0`, `0-1`, `1/2-1/2`, `*`; `result` holds it too).
//! - The root's other attributes are the game's fields, named as DhtmlXQ
//!   names its tags (`title`, `event`, `red`, `black`, `redteam`, `place`,
//!   `round`, `open`, `ecco`, `remark`, `author`, …, see
//!   [`super::dhtmlxq`]), the date as `create-time` (or `date`); an
//!   attribute of no known field is kept as a tag `PFC_name`.
//! - A move's `m` is the move in lower-case ICCS coordinates (`h2e2`: file
//!   `a`–`i` from Red's left, rank `0`–`9` from Red's side); `c` is the
//!   comment after it. Of a node's children, the one marked
//!   `default="true"` is the main continuation (else the first), the others
//!   its variations, in document order.
//!
//! # Encodings and escapes
//!
//! Attribute values are XML-escaped (`&quot;`, `&amp;`, `&lt;`, `&#…;`),
//! but some writers escape only the quote: a `&` that starts no reference
//! is read as itself. Line ends inside a comment are kept.
//!
//! # Errors
//!
//! Text that is not well-formed XML, a root element other than `<n>`, an
//! element other than `<n>` in the tree, a move without `m` or a start
//! FEN that does not read is a [`PfcError`] with its line and column. A
//! move `m` that is not four ICCS characters is read as written, so that
//! replaying the game reports it at its place. The tree is read with a
//! stack, not recursion: any depth of nesting reads in linear time.
//!
//! ```
//! use qipu::formats::pfc;
//! let text = r#"<?xml version="1.0" encoding="utf-8"?><n version="2" win="1-0" m="rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1" c="" red="胡荣华"><n m="h2e2" c="中炮" default="true"><n m="h9g7" c="" default="true" /><n m="b9c7" c="" /></n></n>"#;
//! let record = pfc::read(text).unwrap();
//! assert_eq!((record.tag("Red"), record.tag("Result")), (Some("胡荣华"), Some("1-0")));
//! assert_eq!(record.tree().main_line().count(), 2); // h2e2 h9g7
//! assert_eq!(record.tree().variation_count(), 1); // b9c7
//! assert_eq!(record.fen(), None); // the standard start
//! ```

mod write;

pub use write::{WriteError, write, write_with_warnings};

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event};
use quick_xml::reader::Reader;

use crate::formats::ccbridge::cbf::Locator;
use crate::formats::start::settle_start;
use crate::formats::tree::{Game, Moves};
use crate::record::{GameResult, MoveText, Record, RecordBuilder, RecordedMove, Span, Visitor};
use crate::rules::Setup;
use crate::{File, Move, Rank, Square};

/// The name of every element of a PFC document.
pub(crate) const ELEMENT: &str = "n";

/// Why a PFC document cannot be read, and where.
///
/// ```
/// use qipu::formats::pfc::{self, PfcErrorKind};
/// let e = pfc::read("<n version=\"2\" m=\"9/9 w\"></n>").unwrap_err();
/// assert!(matches!(e.kind, PfcErrorKind::Fen { .. }), "{e}");
/// assert_eq!((e.line, e.column), (1, 1));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct PfcError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// What is wrong.
    pub kind: PfcErrorKind,
}

/// What is wrong with a PFC document, at the place its [`PfcError`] gives.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PfcErrorKind {
    /// The XML parser's complaint, in its words.
    #[error("not well-formed XML: {message}")]
    NotWellFormed {
        /// What the parser says.
        message: String,
    },
    /// No root element at all.
    #[error("no <n> element")]
    NoRoot,
    /// The document ends before its root element does.
    #[error("truncated: the document ends inside <n> (depth {depth})")]
    Truncated {
        /// How many `<n>` elements are open at the end.
        depth: usize,
    },
    /// An XML document of another kind.
    #[error("not a PFC record: the root element is <{root}>, not <n>")]
    NotPfc {
        /// Its root element's name.
        root: String,
    },
    /// An element other than `<n>` inside the tree.
    #[error("<{name}> inside the move tree: only <n> is known")]
    UnknownElement {
        /// Its name.
        name: String,
    },
    /// Text after the root element.
    #[error("text outside the root element")]
    TextOutsideRoot,
    /// An attribute that does not parse, with the parser's words.
    #[error("<n>: a bad attribute ({message})")]
    BadAttribute {
        /// What the parser says.
        message: String,
    },
    /// A move element without its `m`.
    #[error("<n> without 'm': a move element names its move")]
    NoMove,
    /// A start position that does not read.
    #[error("start position m=\"{fen}\": {error}")]
    Fen {
        /// The FEN, trimmed.
        fen: String,
        /// Why it does not read.
        error: crate::rules::ParseFenError,
    },
}

/// Whether `text` is an XML document whose root element is `<n>` with a
/// `version` or an `m` attribute (a PFC record). Only the prologue and the
/// root's start tag are looked at.
pub(crate) fn is_pfc(text: &str) -> bool {
    let mut reader = Reader::from_str(text.strip_prefix('\u{feff}').unwrap_or(text));
    loop {
        match reader.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) => {
                return e.name().as_ref() == ELEMENT
                    && e.attributes().flatten().any(|a| matches!(a.key.as_ref(), "version" | "m"));
            }
            Ok(Event::Text(t)) if !t.trim_ascii().is_empty() => return false,
            Ok(Event::Eof) | Err(_) => return false,
            Ok(_) => {}
        }
    }
}

/// Reads a PFC document (already decoded; a BOM is skipped) into a record.
///
/// # Errors
///
/// A [`PfcError`], with its line and column (see the [module docs](self)).
pub fn read(text: &str) -> Result<Record, PfcError> {
    read_with(text, &mut RecordBuilder::default())
}

/// Reads a PFC document with `visitor`: the game's events, in the order of
/// [`visit`](crate::record::visit), and what the visitor makes of them.
/// The whole document is read (and checked) before the first event; no
/// [`Record`] is built.
///
/// # Errors
///
/// As [`read`].
pub fn read_with<V: Visitor>(text: &str, visitor: &mut V) -> Result<V::Output, PfcError> {
    Ok(read_game(text)?.tell(visitor))
}

/// No node: the end of a list of children.
const NONE: u32 = u32::MAX;

/// One `<n>` element as read.
struct Element {
    /// The move (`None` for the root).
    mv: Option<MoveText>,
    /// Where its start tag starts.
    at: Span,
    comment: Option<String>,
    /// Marked `default="true"`.
    default: bool,
    first_child: u32,
    last_child: u32,
    next_sibling: u32,
}

/// Reads a PFC document into a game, to tell.
pub(crate) fn read_game(text: &str) -> Result<Game, PfcError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader::from_str(text);
    let mut locator = Locator::new(text);
    let mut elements: Vec<Element> = Vec::new();
    // The open elements, innermost last.
    let mut open: Vec<u32> = Vec::new();
    let mut game = Game::default();
    let mut root_attributes = Vec::new();
    loop {
        let start = reader.buffer_position() as usize;
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(e) => {
                let at = locator.span(reader.error_position() as usize);
                return error_at(at, PfcErrorKind::NotWellFormed { message: e.to_string() });
            }
        };
        let at = locator.span(start);
        match event {
            Event::Start(_) | Event::Empty(_) => {
                let (e, empty) = match &event {
                    Event::Start(e) => (e, false),
                    Event::Empty(e) => (e, true),
                    _ => unreachable!("matched above"),
                };
                let name = e.name().as_ref().to_string();
                if name != ELEMENT {
                    return error_at(
                        at,
                        if open.is_empty() && elements.is_empty() {
                            PfcErrorKind::NotPfc { root: name }
                        } else {
                            PfcErrorKind::UnknownElement { name }
                        },
                    );
                }
                if !elements.is_empty() && open.is_empty() {
                    return error_at(at, PfcErrorKind::TextOutsideRoot);
                }
                let attributes = attributes(e, at)?;
                let index = u32::try_from(elements.len()).unwrap_or(NONE);
                let mut element = Element {
                    mv: None,
                    at,
                    comment: None,
                    default: false,
                    first_child: NONE,
                    last_child: NONE,
                    next_sibling: NONE,
                };
                for (key, value) in &attributes {
                    match key.as_str() {
                        "c" => element.comment = tidy(value),
                        "default" => element.default = value.trim().eq_ignore_ascii_case("true"),
                        _ => {}
                    }
                }
                match open.last() {
                    None => {
                        game.at = at;
                        root_attributes = attributes;
                    }
                    Some(&parent) => {
                        let Some((_, m)) = attributes.iter().find(|(k, _)| k == "m") else {
                            return error_at(at, PfcErrorKind::NoMove);
                        };
                        element.mv = Some(move_text(m));
                        let parent = &mut elements[parent as usize];
                        let last = parent.last_child;
                        parent.last_child = index;
                        if last == NONE {
                            parent.first_child = index;
                        } else {
                            elements[last as usize].next_sibling = index;
                        }
                    }
                }
                elements.push(element);
                if !empty {
                    open.push(index);
                } else if open.is_empty() {
                    break;
                }
            }
            Event::End(_) => {
                open.pop();
                if open.is_empty() {
                    break;
                }
            }
            Event::Text(t) if open.is_empty() && !t.trim_ascii().is_empty() => {
                return error_at(at, PfcErrorKind::TextOutsideRoot);
            }
            Event::CData(_) | Event::GeneralRef(_) if open.is_empty() => {
                return error_at(at, PfcErrorKind::TextOutsideRoot);
            }
            Event::Eof => {
                return error_at(
                    at,
                    if elements.is_empty() {
                        PfcErrorKind::NoRoot
                    } else {
                        PfcErrorKind::Truncated { depth: open.len() }
                    },
                );
            }
            _ => {}
        }
    }
    // Only white space, comments and processing instructions may follow.
    loop {
        let start = reader.buffer_position() as usize;
        match reader.read_event() {
            Ok(Event::Eof) => break,
            Ok(Event::Text(t)) if t.trim_ascii().is_empty() => {}
            Ok(Event::Comment(_) | Event::PI(_)) => {}
            Ok(_) | Err(_) => return error_at(locator.span(start), PfcErrorKind::TextOutsideRoot),
        }
    }
    let root_at = game.at;
    let (fen, fen_at) = header(&mut game, root_attributes);
    let fen = fen.as_deref().map(str::trim).filter(|f| !f.is_empty());
    let setup = match fen {
        None => Setup::from_fen(crate::rules::fen::START).expect("the standard start"),
        Some(fen) => match Setup::from_fen(fen) {
            Ok(setup) => setup,
            Err(error) => return error_at(fen_at, PfcErrorKind::Fen { fen: fen.to_string(), error }),
        },
    };
    game.moves = build_tree(&elements);
    game.take_tag_lines();
    // Without a start FEN the file says nothing of who moves first.
    let stored = fen.map(|_| (setup.turn, root_at, "start FEN"));
    settle_start(&mut game, &setup.board, root_at, stored, (setup.halfmoves, setup.fullmoves));
    Ok(game)
}

/// The root's attributes as the game's tags and result; returns its start
/// FEN (`m`) and where it is.
fn header(game: &mut Game, attributes: Vec<(String, String)>) -> (Option<String>, Span) {
    game.tag("Game", "Chinese Chess");
    let mut fen = None;
    let mut result = None;
    for (key, value) in attributes {
        let known = super::dhtmlxq::TAGS.iter().find(|(n, _)| *n == key).map(|(_, tag)| *tag);
        match key.as_str() {
            "m" => fen = Some(value),
            "c" | "version" | "default" => {}
            "win" => result = result.or(Some(value)),
            "result" => result = Some(result.unwrap_or(value)),
            _ if value.trim().is_empty() => {}
            "create-time" | "date" => game.set_tag("Date", value.trim()),
            _ => match known {
                Some(tag) => game.set_tag(tag, value.trim()),
                None => game.tag(format!("PFC_{key}"), value.trim()),
            },
        }
    }
    if let Some(text) = result.filter(|r| !r.trim().is_empty()) {
        let parsed = GameResult::parse(&text).unwrap_or_else(|| {
            game.warn(
                game.at,
                format!("result '{}' is not 1-0, 0-1, 1/2-1/2 or *; read as unknown", text.trim()),
            );
            GameResult::Unknown
        });
        game.result = Some(parsed);
        game.set_tag("Result", parsed.as_str());
    }
    (fen, game.at)
}

/// The attributes of an element, their values unescaped.
fn attributes(e: &BytesStart<'_>, at: Span) -> Result<Vec<(String, String)>, PfcError> {
    let mut out = Vec::new();
    for attribute in e.attributes() {
        let attribute = match attribute {
            Ok(a) => a,
            Err(err) => return error_at(at, PfcErrorKind::BadAttribute { message: err.to_string() }),
        };
        let key = attribute.key.as_ref().to_string();
        let value = unescape(&attribute.value).into_owned();
        out.push((key, value));
    }
    Ok(out)
}

/// An attribute value with its references replaced (`&quot;`, `&amp;`,
/// `&lt;`, `&gt;`, `&apos;`, `&#N;`, `&#xN;`); any other `&` is itself.
fn unescape(value: &str) -> Cow<'_, str> {
    if !value.contains('&') {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(k) = rest.find('&') {
        out.push_str(&rest[..k]);
        rest = &rest[k..];
        let reference = rest[1..].find(';').filter(|&end| end <= 10).map(|end| &rest[1..=end]);
        let c = reference.and_then(|r| match r {
            "quot" => Some('"'),
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "apos" => Some('\''),
            _ => {
                let n = r.strip_prefix("#x").or_else(|| r.strip_prefix("#X"));
                let code = match n {
                    Some(hex) => u32::from_str_radix(hex, 16).ok(),
                    None => r.strip_prefix('#').and_then(|d| d.parse().ok()),
                };
                code.and_then(char::from_u32)
            }
        });
        match (c, reference) {
            (Some(c), Some(r)) => {
                out.push(c);
                rest = &rest[r.len() + 2..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// A comment's text, its line ends made `\n`; `None` when blank.
fn tidy(value: &str) -> Option<String> {
    let text = value.replace("\r\n", "\n").replace('\r', "\n");
    (!text.trim().is_empty()).then_some(text)
}

/// A move's `m`: four ICCS characters as a move, anything else as written.
fn move_text(m: &str) -> MoveText {
    let square = |f: u8, r: u8| {
        let file = File::new(u32::from(f.to_ascii_lowercase().wrapping_sub(b'a')))?;
        Some(Square::new(file, Rank::new(u32::from(r.wrapping_sub(b'0')))?))
    };
    match m.trim().as_bytes() {
        &[f1, r1, f2, r2] => match (square(f1, r1), square(f2, r2)) {
            (Some(from), Some(to)) => MoveText::Coords(Move::new(from, to)),
            _ => MoveText::Text(m.trim().into()),
        },
        _ => MoveText::Text(m.trim().into()),
    }
}

/// The moves of the elements read: each node's `default` child first, then
/// the others in document order. Walked with a stack.
fn build_tree(elements: &[Element]) -> Moves {
    let mut moves = Moves::with_capacity(elements.len());
    let Some(root) = elements.first() else { return moves };
    if let Some(comment) = &root.comment {
        moves.set_comment(moves.root(), comment);
    }
    // (element, the node of its parent)
    let mut stack: Vec<(u32, u32)> = Vec::new();
    push_children(elements, 0, moves.root(), &mut stack);
    while let Some((index, parent)) = stack.pop() {
        let element = &elements[index as usize];
        let mv = element.mv.clone().unwrap_or_else(|| MoveText::Text("".into()));
        let id = moves.add_child(parent, RecordedMove { text: mv, at: element.at });
        if let Some(comment) = &element.comment {
            moves.set_comment(id, comment);
        }
        push_children(elements, index, id, &mut stack);
    }
    moves
}

/// Pushes the children of element `index` (whose node is `node`) so that
/// they pop default first, then in document order.
fn push_children(elements: &[Element], index: u32, node: u32, stack: &mut Vec<(u32, u32)>) {
    let mut children = Vec::new();
    let mut child = elements[index as usize].first_child;
    while child != NONE {
        children.push(child);
        child = elements[child as usize].next_sibling;
    }
    if let Some(k) = children.iter().position(|&c| elements[c as usize].default) {
        let main = children.remove(k);
        children.insert(0, main);
    }
    stack.extend(children.into_iter().rev().map(|c| (c, node)));
}

fn error_at<T>(at: Span, kind: PfcErrorKind) -> Result<T, PfcError> {
    Err(PfcError { line: at.line, column: at.column, kind })
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    fn doc(children: &str) -> String {
        format!(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<n version=\"2\" win=\"*\" m=\"{START}\" c=\"\">{children}</n>"
        )
    }

    #[test]
    fn a_pfc_record_is_told_by_its_root() {
        let text = r#"<?xml version="1.0" encoding="utf-8"?><n version="2" win="1-0" m="rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1" c="" red="胡荣华"><n m="h2e2" c="中炮" default="true"><n m="h9g7" c="" default="true" /><n m="b9c7" c="" /></n></n>"#;
        assert!(is_pfc(text));
    }

    #[test]
    fn the_default_child_is_the_main_line() {
        let text = doc(r#"<n m="c3c4" c="仙人指路"/><n m="h2e2" c="中炮" default="true"><n m="h9g7"/></n>"#);
        let record = read(&text).unwrap();
        let tree = record.tree();
        let main: Vec<_> = record.plies().map(|p| p.mv.to_string()).collect();
        assert_eq!(main, ["h2e2", "h9g7"]);
        let first = tree.main_line().next().unwrap();
        assert_eq!(tree.node(first).comment(), Some("中炮"));
        let alternative = tree.children(tree.root()).nth(1).unwrap();
        assert_eq!(tree.node(alternative).comment(), Some("仙人指路"));
        assert_eq!(tree.variation_count(), 1);
    }

    #[test]
    fn escapes_fields_and_a_start_with_black_to_move() {
        let text = r#"<n version="2" win="0-1" m="3k5/9/9/9/9/9/9/9/9/4K3R b - - 0 1" c="a &quot;b&quot; &amp; c & d &#x4e2d;&#20013;
two" event="E" create-time="2001.02.03" remark="R" zzz="Z"><n m="d9d8"/></n>"#;
        let record = read(text).unwrap();
        let root = record.tree().node(record.tree().root());
        assert_eq!(root.comment(), Some("a \"b\" & c & d 中中\ntwo"));
        assert_eq!(record.tag("Event"), Some("E"));
        assert_eq!(record.tag("Date"), Some("2001.02.03"));
        assert_eq!(record.tag("Annotator"), Some("R"));
        assert_eq!(record.tag("PFC_zzz"), Some("Z"));
        assert_eq!(record.tag("Result"), Some("0-1"));
        assert_eq!(record.fen(), Some("3k5/9/9/9/9/9/9/9/9/4K3R b - - 0 1"));
        assert!(record.replayed().is_valid());
    }

    #[test]
    fn errors_name_their_place() {
        let e = read(&doc("<n m=\"h2e2\">\n<x/></n>")).unwrap_err();
        assert_eq!(e.kind, PfcErrorKind::UnknownElement { name: "x".into() });
        assert_eq!((e.line, e.column), (3, 1), "{e}");
        let e = read(&doc("<n c=\"no move\"/>")).unwrap_err();
        assert_eq!(e.kind, PfcErrorKind::NoMove);
        let e = read("<record/>").unwrap_err();
        assert_eq!(e.kind, PfcErrorKind::NotPfc { root: "record".into() });
        assert_eq!(read("").unwrap_err().kind, PfcErrorKind::NoRoot);
        let e = read(&format!("{} trailing", doc(""))).unwrap_err();
        assert_eq!(e.kind, PfcErrorKind::TextOutsideRoot);
        let e = read("<n version=\"2\" m=\"xyz\"/>").unwrap_err();
        assert!(matches!(&e.kind, PfcErrorKind::Fen { fen, .. } if fen == "xyz"), "{e}");
        let e = read(&doc("<n m=\"h2e2\"></m>")).unwrap_err();
        assert!(matches!(e.kind, PfcErrorKind::NotWellFormed { .. }), "{e}");
        let text = doc("<n m=\"h2e2\"><n m=\"h9g7\"/>");
        let e = read(&text[..text.len() - 4]).unwrap_err();
        assert_eq!(e.kind, PfcErrorKind::Truncated { depth: 2 });
        // A move that is not four ICCS characters: read as written, replay reports it.
        let record = read(&doc("<n m=\"z9z9\"/>")).unwrap();
        let replayed = record.replayed();
        assert_eq!(replayed.error.as_ref().map(|e| (e.ply, e.text.as_str())), Some((1, "z9z9")));
    }

    #[test]
    fn only_an_n_root_with_version_or_m_is_pfc() {
        assert!(is_pfc(&doc("")));
        assert!(is_pfc("<!-- c --><n m=\"\"/>"));
        assert!(!is_pfc("<n><p/></n>"));
        assert!(!is_pfc("<html><n version=\"2\"/></html>"));
        assert!(!is_pfc("<ChineseChessRecord/>"));
        assert!(!is_pfc("[Event \"x\"]"));
    }
}

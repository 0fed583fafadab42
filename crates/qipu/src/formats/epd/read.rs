//! Reading EPD lines (see the [module docs](super) for how opcodes become
//! tags).

use crate::Setup;
use crate::fen::ParseFenError;
use crate::formats::words::Words;
use crate::record::{Span, Visitor, Warning};

use super::write::{Operand, push_opcode};

/// An EPD line, read: the position, and the opcodes in line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EpdLine {
    /// The position: placement and side from the first fields, the clocks
    /// from the two numbers of a full FEN, else from the `hmvc` and `fmvn`
    /// opcodes, else `0 1`.
    pub setup: Setup,
    /// The opcodes, in line order.
    pub opcodes: Vec<Opcode>,
}

/// One opcode of an EPD line: its name, operands, and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Opcode {
    /// The name, as written (`id`, `bm`, `c0`).
    pub name: String,
    /// The operands, in order.
    pub operands: Vec<Value>,
    /// The 1-based column, in characters, of the name.
    pub column: u32,
}

/// One operand of an opcode, as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    /// A word (a move, a code, a number), as written.
    Word(String),
    /// A string that was in double quotes, its `\"` and `\\` unescaped.
    Text(String),
}

impl Opcode {
    /// The value of the tag the opcode becomes: its one operand as it
    /// reads (a string without its quotes); several operands joined by
    /// spaces, strings among them in quotes and escaped as EPD writes them
    /// (so that the list reads back); nothing for an opcode without one.
    pub(crate) fn tag_value(&self) -> String {
        match self.operands.as_slice() {
            [] => String::new(),
            [Value::Word(text) | Value::Text(text)] => text.clone(),
            many => {
                let operands: Vec<Operand<'_>> = many
                    .iter()
                    .map(|v| match v {
                        Value::Word(w) => Operand::Word(w),
                        Value::Text(t) => Operand::Text(t),
                    })
                    .collect();
                let mut out = String::new();
                push_opcode(&mut out, "x", &operands);
                // ` x OPERANDS;`: the operands as the writer writes them.
                out.get(3..out.len() - 1).unwrap_or_default().to_string()
            }
        }
    }
}

/// Why a line is not an EPD line, and where: the message is `column N: `
/// and the [kind](EpdErrorKind)'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {kind}")]
pub(crate) struct EpdError {
    /// The 1-based column, in characters, of the problem.
    pub column: u32,
    /// What is wrong.
    pub kind: EpdErrorKind,
}

/// What is wrong with an EPD line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum EpdErrorKind {
    /// Fewer than the four position fields.
    #[error("{found} field(s): an EPD line starts with 4 (placement, side to move, - -)")]
    Fields {
        /// How many there are.
        found: usize,
    },
    /// The position fields do not read as a FEN.
    #[error("{0}")]
    Fen(ParseFenError),
    /// A word where an opcode's name should be.
    #[error("{0:?} is not an opcode name (a letter, then letters, digits and _)")]
    OpcodeName(String),
    /// A string not closed by `"`.
    #[error("opcode {0}: a string not closed by '\"'")]
    Unterminated(String),
    /// An opcode not ended by `;`.
    #[error("opcode {0}: not ended by ';'")]
    NoSemicolon(String),
}

/// Reads an EPD line: the four position fields (or a full FEN, with its
/// two clocks), then opcodes, each ended by `;`.
///
/// # Errors
///
/// An [`EpdError`] for a line with too few fields, a position that is not
/// a FEN, or an opcode that does not read.
pub(crate) fn parse_line(line: &str) -> Result<EpdLine, EpdError> {
    let error = |column, kind| Err(EpdError { column, kind });
    let mut words = Words::new(line);
    let mut fields = 0;
    let mut end = 0;
    let (_, start, column) = words.rest();
    for (word, at, _) in words.by_ref().take(4) {
        fields += 1;
        end = at + word.len();
    }
    if fields < 4 {
        return error(column, EpdErrorKind::Fields { found: fields });
    }
    // The clocks of a full FEN: numbers (an opcode's name is not one).
    let mut clocks = false;
    for _ in 0..2 {
        match words.clone().next() {
            Some((word, at, _)) if word.bytes().all(|b| b.is_ascii_digit()) => {
                words.next();
                end = at + word.len();
                clocks = true;
            }
            _ => break,
        }
    }
    let mut setup = match Setup::from_fen(&line[start..end]) {
        Ok(setup) => setup,
        Err(e) => return error(column, EpdErrorKind::Fen(e)),
    };
    let opcodes = opcodes(&mut words)?;
    if !clocks {
        let number = |name: &str| {
            let op = opcodes.iter().find(|o| o.name == name)?;
            match op.operands.as_slice() {
                [Value::Word(w)] => w.parse::<u32>().ok(),
                _ => None,
            }
        };
        if let Some(n) = number("hmvc") {
            setup.halfmoves = n;
        }
        if let Some(n) = number("fmvn") {
            setup.fullmoves = n.max(1);
        }
    }
    Ok(EpdLine { setup, opcodes })
}

/// Reads the opcodes of the rest of a line.
fn opcodes(words: &mut Words<'_>) -> Result<Vec<Opcode>, EpdError> {
    let line = words.line();
    let bytes = line.as_bytes();
    let mut opcodes = Vec::new();
    loop {
        let (_, mut pos, column) = words.rest();
        if pos == bytes.len() {
            return Ok(opcodes);
        }
        let name_end = bytes[pos..]
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
            .map_or(bytes.len(), |k| pos + k);
        let at_space =
            name_end == bytes.len() || bytes[name_end].is_ascii_whitespace() || bytes[name_end] == b';';
        if !bytes[pos].is_ascii_alphabetic() || !at_space {
            let word = line[pos..].split(|c: char| c.is_ascii_whitespace() || c == ';').next().unwrap_or("");
            return Err(EpdError { column, kind: EpdErrorKind::OpcodeName(word.into()) });
        }
        let name = line[pos..name_end].to_string();
        pos = name_end;
        words.seek(pos);
        let mut operands = Vec::new();
        loop {
            let (_, at, operand_column) = words.rest();
            pos = at;
            match bytes.get(pos) {
                None => {
                    return Err(EpdError { column: operand_column, kind: EpdErrorKind::NoSemicolon(name) });
                }
                Some(b';') => {
                    words.seek(pos + 1);
                    break;
                }
                Some(b'"') => {
                    let mut text = String::new();
                    let mut k = pos + 1;
                    let mut closed = false;
                    while let Some(&b) = bytes.get(k) {
                        match b {
                            b'"' => {
                                closed = true;
                                break;
                            }
                            b'\\' if matches!(bytes.get(k + 1), Some(b'"' | b'\\')) => {
                                text.push(char::from(bytes[k + 1]));
                                k += 2;
                                continue;
                            }
                            _ => {}
                        }
                        // Up to the next byte that may end or escape.
                        let run = bytes[k..]
                            .iter()
                            .position(|&b| b == b'"' || b == b'\\')
                            .map_or(bytes.len(), |n| k + n);
                        let run = if run == k { k + 1 } else { run };
                        text.push_str(&line[k..run]);
                        k = run;
                    }
                    if !closed {
                        return Err(EpdError {
                            column: operand_column,
                            kind: EpdErrorKind::Unterminated(name),
                        });
                    }
                    words.seek(k + 1);
                    operands.push(Value::Text(text));
                }
                Some(_) => {
                    let end = bytes[pos..]
                        .iter()
                        .position(|&b| b.is_ascii_whitespace() || b == b';')
                        .map_or(bytes.len(), |k| pos + k);
                    operands.push(Value::Word(line[pos..end].to_string()));
                    words.seek(end);
                }
            }
        }
        opcodes.push(Opcode { name, operands, column });
    }
}

/// Reads one line, line `number` of its source, as a game with `visitor`:
/// a position without moves, its FEN as the `FEN` tag (unless it is the
/// standard start with the clocks at `0 1`), each opcode a tag named after
/// it with its [`Opcode::tag_value`]. An opcode named `FEN` (in any case)
/// is not kept, with a warning. A line that does not read is an
/// unreadable game.
pub(crate) fn read_line_with<V: Visitor>(line: &str, number: u32, visitor: &mut V) -> V::Output {
    visitor.begin_game(Span { line: number, column: 1 });
    match parse_line(line) {
        Err(e) => {
            let at = Span { line: number, column: e.column };
            visitor.unreadable(Warning { at, message: format!("EPD line: {}", e.kind) });
        }
        Ok(epd) => {
            let fen = epd.setup.to_fen();
            if fen != crate::fen::START {
                visitor.tag("FEN", &fen, Span { line: number, column: 1 });
            }
            for opcode in &epd.opcodes {
                let at = Span { line: number, column: opcode.column };
                if opcode.name.eq_ignore_ascii_case("FEN") {
                    let message =
                        format!("opcode {}: not kept (the line's position is the FEN tag)", opcode.name);
                    visitor.warning(Warning { at, message });
                    continue;
                }
                visitor.tag(&opcode.name, &opcode.tag_value(), at);
            }
        }
    }
    visitor.end_game()
}

#[cfg(test)]
mod tests {
    use super::*;

    const K: &str = "4k4/9/9/9/9/9/9/9/9/4K4";

    fn fails(line: &str) -> (u32, String) {
        let e = parse_line(line).unwrap_err();
        (e.column, e.kind.to_string())
    }

    #[test]
    fn epd_line_as_its_docs_showed() {
        use crate::formats::epd::read::{Value, parse_line};
        let line =
            parse_line(r#"4k4/9/9/9/9/9/9/9/9/4K4 w - - id "a \"b\""; bm e0e1 e0d0; hmvc 3;"#).unwrap();
        assert_eq!(line.setup.halfmoves, 3);
        assert_eq!(line.opcodes[0].operands, [Value::Text("a \"b\"".into())]);
        assert_eq!(line.opcodes[1].tag_value(), "e0e1 e0d0");
    }

    #[test]
    fn full_fens_and_opcodes_read() {
        let line = parse_line(&format!("{K} b - - 4 20")).unwrap();
        assert_eq!((line.setup.halfmoves, line.setup.fullmoves, line.opcodes.len()), (4, 20, 0));
        let line = parse_line(&format!("{K} b - - 4 20 id x;")).unwrap();
        assert_eq!(line.opcodes[0].name, "id");
        let line = parse_line(&format!("{K} w - - hmvc 7; fmvn 0; noop;c0 \"a;b\" x ;")).unwrap();
        assert_eq!((line.setup.halfmoves, line.setup.fullmoves), (7, 1));
        let names: Vec<_> = line.opcodes.iter().map(|o| (o.name.as_str(), o.column, o.tag_value())).collect();
        assert_eq!(
            names,
            [
                ("hmvc", 31, "7".into()),
                ("fmvn", 39, "0".into()),
                ("noop", 47, String::new()),
                ("c0", 52, "\"a;b\" x".into())
            ]
        );
    }

    #[test]
    fn errors_name_the_column() {
        assert_eq!(
            fails(&format!("{K} w -")),
            (1, "3 field(s): an EPD line starts with 4 (placement, side to move, - -)".into())
        );
        assert!(fails(&format!("{K} w k -")).1.starts_with("FEN castling field"));
        assert_eq!(
            fails(&format!("{K} w - - id \"x")),
            (34, "opcode id: a string not closed by '\"'".into())
        );
        assert_eq!(fails(&format!("{K} w - - id x")), (35, "opcode id: not ended by ';'".into()));
        assert_eq!(
            fails(&format!("{K} w - - 1d x;")),
            (31, "\"1d\" is not an opcode name (a letter, then letters, digits and _)".into())
        );
        assert_eq!(
            fails(&format!("{K} w - - 名 x;")),
            (31, "\"名\" is not an opcode name (a letter, then letters, digits and _)".into())
        );
        assert_eq!(fails(&format!("{K} w - - c0 \"名字\" x")).0, 40);
    }
}

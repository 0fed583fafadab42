//! Writing EPD lines: the position's four fields, then opcodes.

use crate::fen::RankTexts;
use crate::{Board, Color};

/// One operand of an EPD opcode.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Operand<'a> {
    /// A number, written in decimal.
    Number(u64),
    /// A word written as it is: a move (`h2e2`), a code (`B05`), a result
    /// (`1-0`). It must hold no white space, `;` or `"`; a word that does
    /// is written as [`Operand::Text`] instead, so that the line still reads
    /// back as the same opcodes.
    Word(&'a str),
    /// Text in double quotes. `"` and `\` are escaped with `\`; line
    /// breaks and tabs, which an EPD line cannot hold, become spaces.
    Text(&'a str),
}

/// Appends the four position fields of an EPD line (placement, side to
/// move, `- -`), with no space after them.
///
/// ```
/// use qipu::Position;
/// use qipu::formats::epd::{Operand, push_opcode, push_position};
/// let pos = Position::start();
/// let mut line = String::new();
/// push_position(&mut line, pos.board(), pos.turn());
/// push_opcode(&mut line, "id", &[Operand::Text("the \"start\"")]);
/// push_opcode(&mut line, "fmvn", &[Operand::Number(1)]);
/// assert_eq!(line, r#"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - id "the \"start\""; fmvn 1;"#);
/// ```
pub fn push_position(out: &mut String, board: &Board, turn: Color) {
    push_ranks(out, &RankTexts::new(board), turn);
}

/// Appends the four position fields of an EPD line, as
/// [`push_position`] does, from the rank texts a FEN trail keeps up to
/// date ([`RankTexts::update`]): without an allocation, for a line per
/// ply.
///
/// ```
/// use qipu::{Position, fen::RankTexts};
/// use qipu::formats::epd::push_ranks;
/// let pos = Position::start();
/// let mut line = String::new();
/// push_ranks(&mut line, &RankTexts::new(pos.board()), pos.turn());
/// assert_eq!(line, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -");
/// ```
pub fn push_ranks(out: &mut String, ranks: &RankTexts, turn: Color) {
    ranks.write(turn, 0, 1, out);
    // The FEN ends in ` - - 0 1`: the clocks are left out.
    out.truncate(out.len() - " 0 1".len());
}

/// Appends ` NAME OPERAND...;` to an EPD line. An opcode name is a letter
/// followed by letters, digits and `_`; any other character in `name` is
/// written as `_`, so that the line reads back as the same opcodes.
pub fn push_opcode(out: &mut String, name: &str, operands: &[Operand<'_>]) {
    out.push(' ');
    if is_opcode_name(name) {
        // The common case, a line a ply: the name as it is.
        out.push_str(name);
    } else {
        let mut chars = name.chars();
        match chars.next() {
            Some(c) if c.is_ascii_alphabetic() => out.push(c),
            Some(_) => out.push('_'),
            None => out.push('_'),
        }
        for c in chars {
            out.push(if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' });
        }
    }
    for operand in operands {
        out.push(' ');
        match *operand {
            Operand::Number(n) => {
                out.extend(crate::text::decimal(n, &mut [0; 20]).iter().map(|&d| char::from(d)))
            }
            Operand::Word(word) if is_word(word) => out.push_str(word),
            Operand::Word(text) | Operand::Text(text) => push_quoted(out, text),
        }
    }
    out.push(';');
}

/// Whether `name` is an opcode name as it is: a letter, then letters,
/// digits and `_`.
fn is_opcode_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Whether `word` can be written unquoted.
fn is_word(word: &str) -> bool {
    let bytes = word.as_bytes();
    if bytes.is_empty() || bytes[0] == b'"' {
        return false;
    }
    // ASCII first (moves, codes, numbers); other text by its characters
    // (U+3000, the ideographic space, is white space too).
    let plain = |b: &u8| b.is_ascii_graphic() && *b != b';' && *b != b'"';
    bytes.iter().all(plain) || !word.contains(|c: char| c.is_whitespace() || c == ';' || c == '"')
}

/// Appends `text` in double quotes, escaped.
fn push_quoted(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\r' | '\n' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    fn line(name: &str, operands: &[Operand<'_>]) -> String {
        let mut out = String::new();
        push_opcode(&mut out, name, operands);
        out
    }

    #[test]
    fn position_fields_are_the_fen_without_clocks() {
        let setup = crate::Setup::from_fen("4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 7 30").unwrap();
        let pos = Position::from_setup(setup).unwrap();
        let mut out = String::new();
        push_position(&mut out, pos.board(), pos.turn());
        assert_eq!(out, "4k4/9/9/9/9/9/9/9/4A4/3K5 b - -");
    }

    #[test]
    fn operands_are_written_so_they_read_back() {
        assert_eq!(line("pm", &[Operand::Word("h2e2")]), " pm h2e2;");
        assert_eq!(line("c0", &[Operand::Word("two words")]), r#" c0 "two words";"#);
        assert_eq!(line("c0", &[Operand::Word("a;b")]), r#" c0 "a;b";"#);
        assert_eq!(line("c0", &[Operand::Word("")]), r#" c0 "";"#);
        assert_eq!(line("c1", &[Operand::Text("a\"b\\c\nd")]), r#" c1 "a\"b\\c d";"#);
        assert_eq!(line("acd", &[Operand::Number(12), Operand::Word("x")]), " acd 12 x;");
        assert_eq!(line("", &[]), " _;");
        assert_eq!(line("1a-b", &[]), " _a_b;");
        assert_eq!(line("名", &[]), " _;");
        assert_eq!(line("c0", &[Operand::Word("马８进７")]), " c0 马８进７;");
        assert_eq!(line("c0", &[Operand::Word("马８\u{3000}进７")]), " c0 \"马８\u{3000}进７\";");
        assert_eq!(line("c0", &[Operand::Word("a\u{7f}b")]), " c0 a\u{7f}b;");
    }

    #[test]
    fn numbers_are_written_in_decimal() {
        for n in [0, 7, 10, 99, 100, 65_535, 1 << 40, u64::MAX] {
            assert_eq!(line("n", &[Operand::Number(n)]), format!(" n {n};"));
        }
    }
}

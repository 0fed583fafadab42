//! Formats of one game a line, EPD and UCI/UCCI position lines: reading a
//! text line by line into a visitor, and telling such a text from others.
//!
//! Every line that is not blank is one game, read by the format's line
//! reader ([`epd::read::read_line_with`], [`uci::read::read_line_with`]);
//! a line that cannot be read is an unreadable game with its line and
//! column, and the lines after it are still read.
//!
//! A text is EPD or UCI when its first line that is not blank reads as
//! one of them, and more than half of its first 64 lines that are not
//! blank do (a FEN that parses, and opcodes or a `moves` keyword or a
//! coordinate move after it): a text record that opens with a FEN line
//! and goes on with moves is plain text. It is UCI when more of those
//! lines are UCI lines (`position`, `startpos`, `fen` or `moves`) than
//! EPD lines that only EPD reads (opcodes); else EPD (a file of full FENs
//! is EPD).
//!
//! ```
//! use qipu::formats::detect::Format;
//! use qipu::formats::lines::text_format;
//! assert_eq!(text_format("position startpos moves h2e2 h9g7\n"), Some(Format::Uci));
//! assert_eq!(text_format("4k4/9/9/9/9/9/9/9/9/4K4 w - - id \"x\";\n"), Some(Format::Epd));
//! assert_eq!(text_format("1. 炮二平五 马８进７\n"), None);
//! ```

use super::detect::Format;
use super::{epd, uci};
use crate::record::{Record, Span, Visitor, Warning};

/// How many lines that are not blank [`text_format`] looks at.
const SAMPLE: usize = 64;

/// Whether `text` holds EPD or UCI lines, and which (see the [module
/// docs](self)); `None` for any other text.
pub fn text_format(text: &str) -> Option<Format> {
    let mut lines = text.lines().map(|l| l.trim_start_matches('\u{feff}')).filter(|l| !l.trim().is_empty());
    let (mut sampled, mut good, mut uci_lines, mut epd_only) = (0usize, 0usize, 0usize, 0usize);
    for line in lines.by_ref().take(SAMPLE) {
        let uci = uci::read::parse_line(line).ok();
        let uci_keyword = uci.as_ref().is_some_and(|l| l.keyword);
        let epd = epd::read::parse_line(line).is_ok();
        if sampled == 0 && !uci_keyword && !epd {
            return None;
        }
        sampled += 1;
        good += usize::from(uci_keyword || epd);
        uci_lines += usize::from(uci_keyword);
        epd_only += usize::from(epd && uci.is_none());
    }
    if sampled == 0 || good * 2 <= sampled {
        return None;
    }
    Some(if uci_lines > epd_only { Format::Uci } else { Format::Epd })
}

/// Reads the lines of `text` (the first of them line `first_line` of its
/// source) as games of `format` ([`Format::Epd`] or [`Format::Uci`]; any
/// other is read as UCI), handing what `visitor` makes of each to `each`.
pub(crate) fn read_with<V: Visitor>(
    text: &str,
    first_line: u32,
    format: Format,
    visitor: &mut V,
    mut each: impl FnMut(V::Output),
) {
    let mut number = first_line;
    for line in text.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let line = if number == 1 { line.trim_start_matches('\u{feff}') } else { line };
        if !line.trim().is_empty() {
            each(read_line_with(line, number, format, visitor));
        }
        number = number.saturating_add(1);
    }
}

/// Reads one line of `format`, line `number` of its source.
fn read_line_with<V: Visitor>(line: &str, number: u32, format: Format, visitor: &mut V) -> V::Output {
    match format {
        Format::Epd => epd::read::read_line_with(line, number, visitor),
        _ => uci::read::read_line_with(line, number, visitor),
    }
}

/// The unreadable game of a line too long to read, line `line`.
pub(crate) fn overlong_record(line: u32, limit: usize) -> Record {
    let at = Span { line, column: 1 };
    let message = format!("line longer than {} MB: not read", limit >> 20);
    Record { at, unreadable: Some(Warning { at, message }), ..Record::default() }
}

/// The words of a line, each with its 1-based column in characters,
/// counted as the words go (a long line costs its length once).
#[derive(Clone, Debug)]
pub(crate) struct Words<'a> {
    line: &'a str,
    /// The byte where the next word is looked for.
    pos: usize,
    /// The column of `pos`.
    column: u32,
}

impl<'a> Words<'a> {
    /// The words of `line`.
    pub(crate) fn new(line: &'a str) -> Words<'a> {
        Words { line, pos: 0, column: 1 }
    }

    /// The whole line.
    pub(crate) fn line(&self) -> &'a str {
        self.line
    }

    /// The text from the next word on, and its column (the column is
    /// where the rest starts, white space skipped).
    pub(crate) fn rest(&mut self) -> (&'a str, usize, u32) {
        self.skip_space();
        (&self.line[self.pos..], self.pos, self.column)
    }

    /// Moves on to byte `pos` of the line (at or after the current place,
    /// on a character boundary).
    pub(crate) fn seek(&mut self, pos: usize) {
        let pos = pos.clamp(self.pos, self.line.len());
        self.column = self.column.saturating_add(chars_in(&self.line.as_bytes()[self.pos..pos]));
        self.pos = pos;
    }

    fn skip_space(&mut self) {
        let bytes = self.line.as_bytes();
        let start = self.pos;
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        self.column = self.column.saturating_add((self.pos - start) as u32);
    }
}

impl<'a> Iterator for Words<'a> {
    /// A word, its byte offset in the line and its column.
    type Item = (&'a str, usize, u32);

    fn next(&mut self) -> Option<Self::Item> {
        self.skip_space();
        let bytes = self.line.as_bytes();
        if self.pos == bytes.len() {
            return None;
        }
        let (start, column) = (self.pos, self.column);
        let end = bytes[start..].iter().position(u8::is_ascii_whitespace).map_or(bytes.len(), |k| start + k);
        self.seek(end);
        Some((&self.line[start..end], start, column))
    }
}

/// How many characters UTF-8 `bytes` hold (the bytes that do not continue
/// a character).
fn chars_in(bytes: &[u8]) -> u32 {
    let n = if bytes.is_ascii() { bytes.len() } else { bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count() };
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_have_columns_in_characters() {
        let words: Vec<_> = Words::new("  a 名字 b\tcd ").map(|(w, _, c)| (w, c)).collect();
        assert_eq!(words, [("a", 3), ("名字", 5), ("b", 8), ("cd", 10)]);
    }

    #[test]
    fn a_text_record_opening_with_a_fen_is_not_epd() {
        let text = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\n1. 帅五进一 将5平4\n2. 帅五退一 将4平5\n";
        assert_eq!(text_format(text), None);
    }

    #[test]
    fn mixed_files_are_told_by_most_lines() {
        let uci = "position startpos moves h2e2\n";
        assert_eq!(text_format(&format!("{uci}{uci}garbage\n")), Some(Format::Uci));
        assert_eq!(text_format(&format!("garbage\n{uci}{uci}")), None);
        assert_eq!(text_format(&format!("{uci}garbage\ngarbage\n")), None);
    }
}

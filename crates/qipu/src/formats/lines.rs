//! Formats of one game a line, EPD and UCI/UCCI position lines: reading a
//! text line by line into a visitor, and telling such a text from others.
//!
//! Every line that is not blank is one game, read by the format's line
//! reader (`epd::read::read_line_with`, `uci::read::read_line_with`);
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

use super::detect::Format;
use super::tree::Game;
use super::{epd, uci};
use crate::record::{Span, Visitor, Warning};

/// How many lines that are not blank [`text_format`] looks at.
const SAMPLE: usize = 64;

/// Whether `text` holds EPD or UCI lines, and which (see the [module
/// docs](self)); `None` for any other text.
pub(crate) fn text_format(text: &str) -> Option<Format> {
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

/// The unreadable game of a line too long to read (more than `limit`
/// bytes), line `line`.
pub(crate) fn overlong_line(line: u32, limit: usize) -> Game {
    let at = Span { line, column: 1 };
    let message = format!("line longer than {} MB: not read", limit >> 20);
    Game { at, unreadable: Some(Warning { at, message }), ..Game::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_module_as_its_docs_showed() {
        use crate::formats::detect::Format;
        use crate::formats::lines::text_format;
        assert_eq!(text_format("position startpos moves h2e2 h9g7\n"), Some(Format::Uci));
        assert_eq!(text_format("4k4/9/9/9/9/9/9/9/9/4K4 w - - id \"x\";\n"), Some(Format::Epd));
        assert_eq!(text_format("1. 炮二平五 马８进７\n"), None);
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

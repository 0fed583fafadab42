//! Text as the writers put it into a file: no control characters but the
//! line breaks and tabs a format can hold.
//!
//! Records read from binary fields carry bytes such as `0x14` between
//! words, and any text may hold stray control characters; written raw they
//! make a text file look binary to tools such as `grep`, and a line break
//! in a one-line field (a PGN tag) would start a line of its own. Each
//! control character becomes a space; JSON, which escapes them, keeps them.
//!
//! ```
//! use qipu::formats::clean;
//! assert_eq!(clean::one_line("R.LINDROO\u{14}VS\u{14}胡允锡"), "R.LINDROO VS 胡允锡");
//! assert_eq!(clean::one_line("two\nlines"), "two lines");
//! assert_eq!(clean::lines("a\r\nb\rc\td\u{0}"), "a\nb\nc\td ");
//! ```

use std::borrow::Cow;

/// `text` for a field of one line: every control character (line breaks
/// and tabs too) is a space.
pub fn one_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect())
}

/// `text` for a field of several lines: line breaks as `\n` (`\r\n` and a
/// lone `\r` too), tabs kept, every other control character a space.
pub fn lines(text: &str) -> Cow<'_, str> {
    let other = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(other) {
        return Cow::Borrowed(text);
    }
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    Cow::Owned(text.chars().map(|c| if other(c) { ' ' } else { c }).collect())
}

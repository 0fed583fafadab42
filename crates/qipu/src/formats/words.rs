//! The words of a line of text with their columns: the tokenizer of EPD
//! and UCI/UCCI position lines.

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
}

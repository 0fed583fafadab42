//! Text decoding: bytes in, text out, before any tokenising.
//!
//! A byte-order mark decides first (UTF-8, UTF-16LE, UTF-16BE); then valid
//! UTF-8 is taken as such; otherwise GB18030 (a superset of GBK and GB2312)
//! and Big5 are both tried on the first 64 KiB and the one whose text looks
//! more like Chinese game records wins. Big5 trail bytes include `[ ] { } \
//! |`, so no PGN syntax may be looked for in the bytes: decode first.
//!
//! ```
//! use qipu::formats::encoding::{decode, Encoding};
//! let (gbk, _, _) = encoding_rs::GBK.encode("炮二平五 马８进７");
//! let decoded = decode(&gbk, None);
//! assert_eq!(decoded.encoding, Encoding::Gb18030);
//! assert_eq!(decoded.text, "炮二平五 马８进７");
//! ```

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

mod guess;

use guess::guess_chinese;

/// A text encoding qipu reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 (with or without a byte-order mark).
    Utf8,
    /// UTF-16, little-endian (only with a byte-order mark, or when forced).
    Utf16Le,
    /// UTF-16, big-endian (only with a byte-order mark, or when forced).
    Utf16Be,
    /// GB18030, which includes GBK and GB2312 (simplified Chinese).
    Gb18030,
    /// Big5 (traditional Chinese; the cp950 extensions included).
    Big5,
}

impl Encoding {
    /// The name used in reports and JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
            Encoding::Gb18030 => "gb18030",
            Encoding::Big5 => "big5",
        }
    }

    fn codec(self) -> &'static encoding_rs::Encoding {
        match self {
            Encoding::Utf8 => encoding_rs::UTF_8,
            Encoding::Utf16Le => encoding_rs::UTF_16LE,
            Encoding::Utf16Be => encoding_rs::UTF_16BE,
            Encoding::Gb18030 => encoding_rs::GB18030,
            Encoding::Big5 => encoding_rs::BIG5,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name is not an encoding qipu knows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown encoding {0:?}: use utf-8, gbk (gb18030, gb2312), big5, utf-16le or utf-16be")]
pub struct UnknownEncoding(pub String);

impl FromStr for Encoding {
    type Err = UnknownEncoding;

    fn from_str(s: &str) -> Result<Encoding, UnknownEncoding> {
        Ok(match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "utf-8" | "utf8" => Encoding::Utf8,
            "utf-16le" | "utf16le" => Encoding::Utf16Le,
            "utf-16be" | "utf16be" => Encoding::Utf16Be,
            "gb18030" | "gbk" | "gb2312" | "cp936" => Encoding::Gb18030,
            "big5" | "cp950" | "big5-hkscs" => Encoding::Big5,
            _ => return Err(UnknownEncoding(s.to_string())),
        })
    }
}

/// Decoded text and how it was decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The text, without a byte-order mark.
    pub text: Cow<'a, str>,
    /// The encoding used.
    pub encoding: Encoding,
    /// Whether some bytes were not valid in that encoding (they became
    /// U+FFFD REPLACEMENT CHARACTER).
    pub(crate) had_errors: bool,
}

/// Decodes `bytes`: with `forced` in that encoding, otherwise as detected
/// (`TextEncoding::detect` on the whole text). A text whose encoding was
/// detected is decoded by `decode_lines`, so that a file put together
/// from sources in several encodings reads whole.
pub fn decode(bytes: &[u8], forced: Option<Encoding>) -> Decoded<'_> {
    TextEncoding::detect(bytes, true, forced).decode(bytes)
}

/// How the bytes of a text are read: the one rule for texts read whole and
/// texts read a piece at a time, told from a text's first bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TextEncoding {
    /// The encoding of the text.
    pub encoding: Encoding,
    /// How many bytes its byte-order mark takes at its start (0 without one).
    pub(crate) bom: usize,
    /// Whether a line in another encoding is read in its own (see
    /// [`decode_lines`]): when the encoding was detected, not forced.
    pub(crate) line_by_line: bool,
}

impl TextEncoding {
    /// Tells how to read a text from its first bytes `head` (the whole text
    /// when `whole`; else a character may be cut at its end, and only its
    /// complete lines count): with `forced`, that encoding; else a
    /// byte-order mark's; else UTF-8 when the head is valid UTF-8 or most of
    /// its lines that are not ASCII are; else GB18030 or Big5, whichever
    /// reads the head as more record-like Chinese. A byte-order mark is
    /// skipped whatever the encoding.
    pub fn detect(head: &[u8], whole: bool, forced: Option<Encoding>) -> TextEncoding {
        let (found, bom) = match head {
            [0xEF, 0xBB, 0xBF, ..] => (Some(Encoding::Utf8), 3),
            [0xFF, 0xFE, ..] => (Some(Encoding::Utf16Le), 2),
            [0xFE, 0xFF, ..] => (Some(Encoding::Utf16Be), 2),
            _ => (None, 0),
        };
        if let Some(encoding) = forced {
            return TextEncoding { encoding, bom, line_by_line: false };
        }
        let told = |encoding| TextEncoding { encoding, bom, line_by_line: true };
        if let Some(e) = found {
            return told(e);
        }
        let body = &head[bom..];
        match std::str::from_utf8(body) {
            Ok(_) => return told(Encoding::Utf8),
            // A character cut at the end of a head.
            Err(e) if !whole && e.error_len().is_none() => return told(Encoding::Utf8),
            Err(_) => {}
        }
        let lines = match body.iter().rposition(|&b| b == b'\n') {
            Some(end) if !whole => &body[..end],
            _ => body,
        };
        told(if mostly_utf8(lines) { Encoding::Utf8 } else { guess_chinese(body) })
    }

    /// Decodes a whole text (from its start: the byte-order mark is skipped).
    pub fn decode<'a>(&self, bytes: &'a [u8]) -> Decoded<'a> {
        let body = &bytes[self.bom.min(bytes.len())..];
        if self.line_by_line && matches!(self.encoding, Encoding::Utf8 | Encoding::Gb18030 | Encoding::Big5) {
            if self.encoding == Encoding::Utf8
                && let Ok(text) = std::str::from_utf8(body)
            {
                return Decoded { text: Cow::Borrowed(text), encoding: self.encoding, had_errors: false };
            }
            let mut text = String::with_capacity(body.len() + body.len() / 2);
            let had_errors = decode_lines(body, self.encoding, &mut text);
            return Decoded { text: Cow::Owned(text), encoding: self.encoding, had_errors };
        }
        let (text, had_errors) = self.encoding.codec().decode_without_bom_handling(body);
        Decoded { text, encoding: self.encoding, had_errors }
    }

    /// Decodes whole lines of the text (not its start: no byte-order mark)
    /// onto the end of `text`, line by line when [`Self::line_by_line`]
    /// (see [`decode_lines`]). Returns whether some bytes were not text in
    /// their encoding.
    pub(crate) fn decode_onto(&self, bytes: &[u8], text: &mut String) -> bool {
        if self.line_by_line {
            return decode_lines(bytes, self.encoding, text);
        }
        let mut decoder = self.encoding.decoder();
        let room = decoder.max_utf8_buffer_length(bytes.len()).unwrap_or(bytes.len() * 3 + 16);
        text.reserve(room);
        let (_, _, errors) = decoder.decode_to_string(bytes, text, true);
        errors
    }
}

/// Whether most lines of `bytes` that are not plain ASCII are UTF-8.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (mut utf8, mut other) = (0usize, 0usize);
    for line in lines(bytes).filter(|l| !l.is_ascii()) {
        if std::str::from_utf8(line).is_ok() {
            utf8 += 1;
        } else {
            other += 1;
        }
    }
    utf8 > other
}

/// A line as UTF-8 Chinese text, if it is one: valid UTF-8 holding CJK
/// characters, and besides them only ASCII and the punctuation Chinese text
/// uses (`·`, dashes, quotes, `…`); not the Latin letters of other blocks
/// that GBK or Big5 bytes read as UTF-8 give (全 is C8 AB, U+022B).
fn chinese_utf8(line: &[u8]) -> Option<&str> {
    // An ASCII line is the same in every encoding: not UTF-8 on its own.
    let first = line.iter().position(|&b| b >= 0x80)?;
    std::str::from_utf8(&line[first..]).ok()?;
    let text = std::str::from_utf8(line).ok()?;
    let cjk = |c: char| ('\u{3000}'..='\u{9FFF}').contains(&c) || ('\u{FF00}'..='\u{FFEF}').contains(&c);
    let punctuation = |c: char| c == '\u{B7}' || ('\u{2010}'..='\u{2027}').contains(&c);
    (text.chars().any(cjk) && text.chars().all(|c| c.is_ascii() || cjk(c) || punctuation(c))).then_some(text)
}

/// The lines of `bytes`, without their `\n`.
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', bytes).chain(std::iter::once(bytes.len())).map(move |end| {
        let line = &bytes[start..end];
        start = end + 1;
        line
    })
}

/// Decodes whole lines of a text in `primary` (UTF-8, GB18030 or Big5)
/// onto the end of `text`, each line in its own encoding when the text is
/// mixed: in a UTF-8 text, a line that is not UTF-8 is read as GB18030 or
/// Big5 (whichever reads such lines better); in a GB18030 or Big5 text, a
/// line of UTF-8 Chinese (see `chinese_utf8`: GBK that happens to be valid
/// UTF-8, such as 全, stays GBK) is read as UTF-8. `bytes` must end at a
/// line end or at the end of the text. Returns whether some bytes were
/// not text in their encoding (read as U+FFFD).
pub(crate) fn decode_lines(bytes: &[u8], primary: Encoding, text: &mut String) -> bool {
    let with_ends = || bytes.split_inclusive(|&b| b == b'\n');
    let mut had_errors = false;
    let mut legacy = |line: &[u8], e: Encoding, text: &mut String| {
        let mut decoder = e.decoder();
        let room = decoder.max_utf8_buffer_length(line.len()).unwrap_or(line.len() * 3 + 16);
        text.reserve(room);
        let (_, _, errors) = decoder.decode_to_string(line, text, true);
        had_errors |= errors;
    };
    match primary {
        Encoding::Utf8 => {
            if let Ok(all) = std::str::from_utf8(bytes) {
                text.push_str(all);
                return false;
            }
            let others: Vec<u8> =
                with_ends().filter(|l| std::str::from_utf8(l).is_err()).flatten().copied().collect();
            let other = guess_chinese(&others);
            for line in with_ends() {
                match std::str::from_utf8(line) {
                    Ok(utf8) => text.push_str(utf8),
                    Err(_) => legacy(line, other, text),
                }
            }
        }
        Encoding::Gb18030 | Encoding::Big5 => {
            if !lines(bytes).any(|line| chinese_utf8(line).is_some()) {
                legacy(bytes, primary, text);
            } else {
                for line in with_ends() {
                    match chinese_utf8(line) {
                        Some(utf8) => text.push_str(utf8),
                        None => legacy(line, primary, text),
                    }
                }
            }
        }
        Encoding::Utf16Le | Encoding::Utf16Be => legacy(bytes, primary, text),
    }
    had_errors
}

impl Encoding {
    /// `text` in this encoding; the first character it cannot hold is the
    /// error. UTF-16 is written as UTF-8, as the WHATWG encoders do.
    ///
    /// # Errors
    ///
    /// The first character of `text` this encoding cannot hold.
    ///
    /// ```
    /// use qipu::formats::encoding::Encoding;
    /// assert_eq!(Encoding::Big5.encode("馬８進７").unwrap().len(), 8);
    /// assert_eq!(Encoding::Big5.encode("马８进７"), Err('马'));
    /// ```
    pub fn encode(self, text: &str) -> Result<Cow<'_, [u8]>, char> {
        self.encode_with(text, None)
    }

    /// `text` in this encoding, a character it cannot hold written as
    /// `replacement` (which it must hold, as `?` in every encoding does).
    pub(crate) fn encode_replacing(self, text: &str, replacement: char) -> Cow<'_, [u8]> {
        self.encode_with(text, Some(replacement)).unwrap_or_else(|_| Cow::Owned(Vec::new()))
    }

    fn encode_with(self, text: &str, replacement: Option<char>) -> Result<Cow<'_, [u8]>, char> {
        let codec = self.codec().output_encoding();
        if codec == encoding_rs::UTF_8 {
            return Ok(Cow::Borrowed(text.as_bytes()));
        }
        if text.is_ascii() {
            return Ok(Cow::Borrowed(text.as_bytes()));
        }
        let mut encoder = codec.new_encoder();
        let mut out = Vec::with_capacity(text.len() + 16);
        let mut rest = text;
        loop {
            let room = encoder
                .max_buffer_length_from_utf8_without_replacement(rest.len())
                .unwrap_or(rest.len() * 4 + 16);
            out.reserve(room);
            let (result, read) = encoder.encode_from_utf8_to_vec_without_replacement(rest, &mut out, true);
            rest = &rest[read..];
            match result {
                encoding_rs::EncoderResult::InputEmpty => return Ok(Cow::Owned(out)),
                encoding_rs::EncoderResult::OutputFull => continue,
                encoding_rs::EncoderResult::Unmappable(c) => match replacement {
                    Some(r) => {
                        let mut buf = [0u8; 4];
                        let (_, _, _) =
                            encoder.encode_from_utf8_to_vec(r.encode_utf8(&mut buf), &mut out, false);
                    }
                    None => return Err(c),
                },
            }
        }
    }

    /// A decoder for text in this encoding, fed a piece at a time (no
    /// byte-order mark handling: skip it first).
    pub(crate) fn decoder(self) -> encoding_rs::Decoder {
        self.codec().new_decoder_without_bom_handling()
    }
}

/// `text` with the numeric character references that tools write for the
/// characters their output encoding lacks (`&#39532;`, `&#x9A6C;`: 马)
/// read as those characters. A reference to no character, to a control
/// character, or not closed by `;` is left as written.
pub(crate) fn unescape_references(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut found = memchr::memchr_iter(b'&', bytes).filter(|&k| bytes.get(k + 1) == Some(&b'#')).peekable();
    if found.peek().is_none() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut done = 0;
    for at in found {
        if at < done {
            continue;
        }
        if let Some((c, len)) = reference_at(&text[at..]) {
            out.push_str(&text[done..at]);
            out.push(c);
            done = at + len;
        }
    }
    out.push_str(&text[done..]);
    Cow::Owned(out)
}

/// `text` written so that [`unescape_references`] reads it back as it is:
/// a literal `&#` is written `&#38;#` (`&#38;` is `&`).
pub(crate) fn guard_references(text: &str) -> Cow<'_, str> {
    if text.contains("&#") { Cow::Owned(text.replace("&#", "&#38;#")) } else { Cow::Borrowed(text) }
}

/// The character of the reference at the start of `text` (`&#NNN;` or
/// `&#xHHH;`) and the reference's length in bytes.
fn reference_at(text: &str) -> Option<(char, usize)> {
    let rest = text.strip_prefix("&#")?;
    let (digits, radix, skip) = match rest.strip_prefix(['x', 'X']) {
        Some(hex) => (hex, 16, 3),
        None => (rest, 10, 2),
    };
    let end = digits.find(';')?;
    let digits = &digits[..end];
    if digits.is_empty() || digits.len() > 7 || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let c = char::from_u32(u32::from_str_radix(digits, radix).ok()?)?;
    (!c.is_control()).then_some((c, skip + end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_encoding_as_its_docs_showed() {
        use crate::formats::encoding::{Encoding, TextEncoding};
        let text = "\u{feff}[Event \"国标\"]\n".as_bytes();
        let told = TextEncoding::detect(text, true, None);
        assert_eq!((told.encoding, told.bom), (Encoding::Utf8, 3));
        assert_eq!(told.decode(text).text, "[Event \"国标\"]\n");
        // Forced, the byte-order mark is still skipped, and no line is read otherwise.
        let forced = TextEncoding::detect(text, true, Some(Encoding::Gb18030));
        assert_eq!((forced.encoding, forced.bom, forced.line_by_line), (Encoding::Gb18030, 3, false));
    }

    #[test]
    fn unescape_references_as_its_docs_showed() {
        use crate::formats::encoding::unescape_references;
        assert_eq!(unescape_references("&#39532;８&#36827;７"), "马８进７");
        assert_eq!(unescape_references("&#x70AE;二平五 &#0; &#12"), "炮二平五 &#0; &#12");
    }

    #[test]
    fn guard_references_as_its_docs_showed() {
        use crate::formats::encoding::{guard_references, unescape_references};
        let text = "&#39532; means 马";
        assert_eq!(unescape_references(&guard_references(text)), text);
    }

    #[test]
    fn a_legacy_text_with_utf8_lines_decodes_each_line_in_its_own_encoding() {
        let (gbk, _, _) = encoding_rs::GBK.encode("[Event \"国标\"]\n1. 炮二平五 马８进７ *\n\n");
        let mut bytes = gbk.into_owned();
        bytes.extend_from_slice("[Event \"统一码\"]\n1. 炮二平五 马８进７ *\n".as_bytes());
        let decoded = decode(&bytes, None);
        assert_eq!(decoded.encoding, Encoding::Gb18030);
        assert_eq!(decoded.text.matches("炮二平五 马８进７").count(), 2, "{}", decoded.text);
        assert!(decoded.text.contains("国标") && decoded.text.contains("统一码"));
        // GBK bytes that happen to be valid UTF-8 (全 is C8 AB) stay GBK.
        let (gbk, _, _) = encoding_rs::GBK.encode("[Event \"全\"]\n1. 炮二平五 *\n");
        assert!(decode(&gbk, None).text.contains("[Event \"全\"]"));
    }

    #[test]
    fn a_utf8_text_with_legacy_lines_decodes_each_line_in_its_own_encoding() {
        let mut bytes = "[Event \"第一届·杯赛 — 决赛\"]\n1. 炮二平五 马８进７ *\n\n".repeat(3).into_bytes();
        let (gbk, _, _) = encoding_rs::GBK.encode("[Event \"国标\"]\n1. 炮二平五 马８进７ *\n");
        bytes.extend_from_slice(&gbk);
        let decoded = decode(&bytes, None);
        assert_eq!(decoded.encoding, Encoding::Utf8);
        assert_eq!(decoded.text.matches("第一届·杯赛 — 决赛").count(), 3, "{}", decoded.text);
        assert_eq!(decoded.text.matches("炮二平五 马８进７").count(), 4, "{}", decoded.text);
        assert!(decoded.text.contains("国标") && !decoded.had_errors);
    }

    #[test]
    fn boms_and_utf8() {
        let d = decode(b"\xEF\xBB\xBF[Game \"x\"]", None);
        assert_eq!((d.encoding, d.text.as_ref()), (Encoding::Utf8, "[Game \"x\"]"));
        let d = decode(b"\xFF\xFEh\0i\0", None);
        assert_eq!((d.encoding, d.text.as_ref()), (Encoding::Utf16Le, "hi"));
        let d = decode(b"\xFE\xFF\0h\0i", None);
        assert_eq!((d.encoding, d.text.as_ref()), (Encoding::Utf16Be, "hi"));
        let d = decode("炮二平五".as_bytes(), None);
        assert_eq!((d.encoding, d.text.as_ref(), d.had_errors), (Encoding::Utf8, "炮二平五", false));
        let d = decode(b"", None);
        assert_eq!(d.encoding, Encoding::Utf8);
    }

    #[test]
    fn gbk_and_big5_are_told_apart() {
        let simplified = "[Event \"全国象棋个人赛\"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８";
        let traditional = "[Event \"全國象棋個人賽\"]\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８";
        let (gbk, _, _) = encoding_rs::GBK.encode(simplified);
        let (big5, _, _) = encoding_rs::BIG5.encode(traditional);
        let d = decode(&gbk, None);
        assert_eq!((d.encoding, d.text.as_ref()), (Encoding::Gb18030, simplified));
        let d = decode(&big5, None);
        assert_eq!((d.encoding, d.text.as_ref()), (Encoding::Big5, traditional));
        // Traditional characters written in GBK are still GBK.
        let (gbk_trad, _, _) = encoding_rs::GBK.encode(traditional);
        assert_eq!(decode(&gbk_trad, None).encoding, Encoding::Gb18030);
        // Forcing wins.
        assert_eq!(decode(&gbk, Some(Encoding::Big5)).encoding, Encoding::Big5);
    }

    #[test]
    fn names() {
        assert_eq!("GBK".parse::<Encoding>(), Ok(Encoding::Gb18030));
        assert_eq!("cp950".parse::<Encoding>(), Ok(Encoding::Big5));
        assert_eq!("utf-8".parse::<Encoding>(), Ok(Encoding::Utf8));
        assert!("latin1".parse::<Encoding>().is_err());
        assert_eq!(Encoding::Big5.to_string(), "big5");
    }
}

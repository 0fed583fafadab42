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
    pub had_errors: bool,
}

/// How many bytes the GB18030/Big5 decision looks at.
const SAMPLE: usize = 64 * 1024;

/// Decodes `bytes`: with `forced` in that encoding, otherwise as detected
/// ([`TextEncoding::detect`] on the whole text). A text whose encoding was
/// detected is decoded by [`decode_lines`], so that a file put together
/// from sources in several encodings reads whole.
pub fn decode(bytes: &[u8], forced: Option<Encoding>) -> Decoded<'_> {
    TextEncoding::detect(bytes, true, forced).decode(bytes)
}

/// How the bytes of a text are read: the one rule for texts read whole and
/// texts read a piece at a time, told from a text's first bytes.
///
/// ```
/// use qipu::formats::encoding::{Encoding, TextEncoding};
/// let text = "\u{feff}[Event \"国标\"]\n".as_bytes();
/// let told = TextEncoding::detect(text, true, None);
/// assert_eq!((told.encoding, told.bom), (Encoding::Utf8, 3));
/// assert_eq!(told.decode(text).text, "[Event \"国标\"]\n");
/// // Forced, the byte-order mark is still skipped, and no line is read otherwise.
/// let forced = TextEncoding::detect(text, true, Some(Encoding::Gb18030));
/// assert_eq!((forced.encoding, forced.bom, forced.line_by_line), (Encoding::Gb18030, 3, false));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TextEncoding {
    /// The encoding of the text.
    pub encoding: Encoding,
    /// How many bytes its byte-order mark takes at its start (0 without one).
    pub bom: usize,
    /// Whether a line in another encoding is read in its own (see
    /// [`decode_lines`]): when the encoding was detected, not forced.
    pub line_by_line: bool,
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
    pub fn decode_onto(&self, bytes: &[u8], text: &mut String) -> bool {
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
pub fn decode_lines(bytes: &[u8], primary: Encoding, text: &mut String) -> bool {
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
    pub fn encode_replacing(self, text: &str, replacement: char) -> Cow<'_, [u8]> {
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
    pub fn decoder(self) -> encoding_rs::Decoder {
        self.codec().new_decoder_without_bom_handling()
    }
}

/// `text` with the numeric character references that tools write for the
/// characters their output encoding lacks (`&#39532;`, `&#x9A6C;`: 马)
/// read as those characters. A reference to no character, to a control
/// character, or not closed by `;` is left as written.
///
/// ```
/// use qipu::formats::encoding::unescape_references;
/// assert_eq!(unescape_references("&#39532;８&#36827;７"), "马８进７");
/// assert_eq!(unescape_references("&#x70AE;二平五 &#0; &#12"), "炮二平五 &#0; &#12");
/// ```
pub fn unescape_references(text: &str) -> Cow<'_, str> {
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
///
/// ```
/// use qipu::formats::encoding::{guard_references, unescape_references};
/// let text = "&#39532; means 马";
/// assert_eq!(unescape_references(&guard_references(text)), text);
/// ```
pub fn guard_references(text: &str) -> Cow<'_, str> {
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

/// GB18030 or Big5, whichever reads the start of `bytes` as more
/// record-like Chinese with fewer errors.
fn guess_chinese(bytes: &[u8]) -> Encoding {
    let mut end = bytes.len().min(SAMPLE);
    // Do not cut a double-byte character in two at the end of the sample.
    while end < bytes.len() && end > 0 && bytes[end - 1] >= 0x80 {
        end -= 1;
    }
    let sample = &bytes[..end];
    // No more than twice as many as the byte pairs, at any alignment, that
    // read as a frequent character: a reading that cannot outscore the
    // other need not be decoded.
    let most = |pairs: &[u64; 1024]| {
        2 * sample.windows(2).filter(|w| w[0] >= 0x81 && is_pair(pairs, w[0], w[1])).count() as i64
    };
    let score = |e: Encoding| {
        let (text, _) = e.codec().decode_without_bom_handling(sample);
        text.chars()
            .map(|c| match c {
                '\u{FFFD}' => -20,
                c if is_common(c) => 2,
                '\u{4E00}'..='\u{9FFF}' => 0,
                c if (c as u32) >= 0x80 => -1,
                _ => 0,
            })
            .sum::<i64>()
    };
    // Big5 only when it scores more: either reading first, the likelier.
    let (most_gb, most_big5) = (most(&GB18030_PAIRS), most(&BIG5_PAIRS));
    let (gb, big5) = if most_big5 <= most_gb {
        let gb = score(Encoding::Gb18030);
        if gb >= most_big5 {
            return Encoding::Gb18030;
        }
        (gb, score(Encoding::Big5))
    } else {
        let big5 = score(Encoding::Big5);
        if big5 > most_gb {
            return Encoding::Big5;
        }
        (score(Encoding::Gb18030), big5)
    };
    if big5 > gb { Encoding::Big5 } else { Encoding::Gb18030 }
}

/// The two-byte sequences (lead byte, then trail byte) that GB18030 reads
/// as one of [`COMMON`] (checked against the decoder in a test).
const GB18030_COMMON: [u16; 190] = [
    0x81ED, 0x8280, 0x8283, 0x84D3, 0x84D9, 0x87F8, 0x8C57, 0x8C8D, 0x8CA2, 0x8CA6, 0x8CC3, 0x8E9B, 0x8FC4,
    0x9572, 0x95FE, 0x98D3, 0x9B5D, 0x9EE9, 0xA3B1, 0xA3B2, 0xA3B3, 0xA3B4, 0xA3B5, 0xA3B6, 0xA3B7, 0xA3B8,
    0xA3B9, 0xAC46, 0xAE94, 0xB06C, 0xB0CB, 0xB0FC, 0xB1AD, 0xB1BE, 0xB1E4, 0xB1F8, 0xB2BB, 0xB2BF, 0xB368,
    0xB3B5, 0xB3C9, 0xB3F6, 0xB4D3, 0xB4F3, 0xB5AB, 0xB5B1, 0xB5BD, 0xB5C0, 0xB5C3, 0xB5C4, 0xB5D8, 0xB5DA,
    0xB6A8, 0xB6AF, 0xB6BC, 0xB6D3, 0xB6D4, 0xB6E0, 0xB6F8, 0xB6FE, 0xB74E, 0xB7A2, 0xB7A8, 0xB7BD, 0xB7D6,
    0xB8BA, 0xB8F6, 0xB9FA, 0xB9FD, 0xBAC3, 0xBACD, 0xBADA, 0xBAEC, 0xBAF3, 0xBBB9, 0xBBE1, 0xBC74, 0xBCD2,
    0xBD9B, 0xBDAB, 0xBDEC, 0xBDF8, 0xBEAD, 0xBEC5, 0xBECD, 0xBED6, 0xBFAA, 0xBFB4, 0xBFC9, 0xC0B4, 0xC0ED,
    0xC0EF, 0xC1CB, 0xC1F9, 0xC2D6, 0xC2ED, 0xC3B4, 0xC3BB, 0xC3C7, 0xC3E6, 0xC4C7, 0xC4DC, 0xC4E3, 0xC4EA,
    0xC5DA, 0xC6BD, 0xC6DF, 0xC6E4, 0xC6E5, 0xC6F0, 0xC7B0, 0xC8A5, 0xC8BB, 0xC8CB, 0xC8D5, 0xC8E7, 0xC8FC,
    0xC8FD, 0xC9CF, 0xC9FA, 0xCAA4, 0xCAB1, 0xCAB5, 0xCABF, 0xCAC2, 0xCAC7, 0xCACB, 0xCAD6, 0xCBA7, 0xCBB5,
    0xCBC4, 0xCBF9, 0xCBFB, 0xCCEC, 0xCDAC, 0xCDCB, 0xCEAA, 0xCED2, 0xCEE5, 0xCFC2, 0xCFC8, 0xCFD6, 0xCFE0,
    0xCFEB, 0xCFF3, 0xD0A1, 0xD0A9, 0xD0C4, 0xD0D0, 0xD165, 0xD1A7, 0xD1F9, 0xD2AA, 0xD2B2, 0xD2BB, 0xD2D4,
    0xD2F2, 0xD3C3, 0xD3D0, 0xD3DA, 0xD4C2, 0xD4DA, 0xD566, 0xD5E2, 0xD6AE, 0xD6BB, 0xD6D0, 0xD6D6, 0xD6F7,
    0xD6F8, 0xD783, 0xD7C5, 0xD7D3, 0xD7D4, 0xD7E4, 0xD7F7, 0xD893, 0xD990, 0xDC87, 0xDD86, 0xDF40, 0xDF4D,
    0xDF5E, 0xDF80, 0xE1E1, 0xE95F, 0xEAA0, 0xECB6, 0xF152, 0xFC4E,
];

/// The two-byte sequences that Big5 (as the WHATWG decoder reads it, some
/// characters at two codes) reads as one of [`COMMON`].
const BIG5_COMMON: [u16; 173] = [
    0x894E, 0x8956, 0x8959, 0x895A, 0x8961, 0x8962, 0x8972, 0x897C, 0x897E, 0x89C6, 0x8FFE, 0x906D, 0x98C7,
    0x9FC4, 0x9FC9, 0x9FCF, 0xA2B0, 0xA2B1, 0xA2B2, 0xA2B3, 0xA2B4, 0xA2B5, 0xA2B6, 0xA2B7, 0xA2B8, 0xA440,
    0xA443, 0xA445, 0xA446, 0xA447, 0xA448, 0xA44B, 0xA454, 0xA455, 0xA457, 0xA45C, 0xA45D, 0xA45F, 0xA468,
    0xA46A, 0xA46C, 0xA470, 0xA4A3, 0xA4A4, 0xA4A7, 0xA4AD, 0xA4BB, 0xA4C0, 0xA4D1, 0xA4DF, 0xA4E2, 0xA4E8,
    0xA4E9, 0xA4EB, 0xA544, 0xA548, 0xA54B, 0xA54C, 0xA558, 0xA55D, 0xA568, 0xA569, 0xA575, 0xA57C, 0xA5AD,
    0xA5BB, 0xA5CD, 0xA5CE, 0xA5FD, 0xA650, 0xA65A, 0xA65D, 0xA661, 0xA662, 0xA668, 0xA66E, 0xA670, 0xA67E,
    0xA6A8, 0xA6B3, 0xA6D3, 0xA6DB, 0xA6E6, 0xA6FD, 0xA740, 0xA741, 0xA74C, 0xA7BD, 0xA7DA, 0xA853, 0xA8AE,
    0xA8BA, 0xA8BD, 0xA8C6, 0xA8C7, 0xA8D3, 0xA8E4, 0xA8EC, 0xA8F2, 0xA94D, 0xA977, 0xA9A1, 0xA9D2, 0xA9F3,
    0xAA4D, 0xAA6B, 0xAABA, 0xAB65, 0xABD3, 0xABE1, 0xAC4F, 0xACB0, 0xACB6, 0xACDB, 0xACDD, 0xACF5, 0xAD6E,
    0xAD74, 0xADB1, 0xADCC, 0xADD3, 0xAE61, 0xAEC9, 0xAFA5, 0xAFE0, 0xB05F, 0xB068, 0xB0A8, 0xB0CA, 0xB0EA,
    0xB14E, 0xB16F, 0xB171, 0xB27A, 0xB27B, 0xB2C4, 0xB36F, 0xB3A1, 0xB3A3, 0xB3D3, 0xB44E, 0xB4D1, 0xB54D,
    0xB56F, 0xB5DB, 0xB648, 0xB669, 0xB67D, 0xB6A4, 0xB6C2, 0xB751, 0xB77C, 0xB7ED, 0xB867, 0xB8CC, 0xB944,
    0xB94C, 0xB9EA, 0xB9EF, 0xBAD8, 0xBBA1, 0xBBF2, 0xBCCB, 0xBDFC, 0xBEC7, 0xC1C9, 0xC1D9, 0xC5DC, 0xCFFA,
    0xD060, 0xFABD, 0xFDA9, 0xFED3,
];

/// [`GB18030_COMMON`] as a bit set of all two-byte sequences.
static GB18030_PAIRS: [u64; 1024] = pair_set(&GB18030_COMMON);

/// [`BIG5_COMMON`] as a bit set of all two-byte sequences.
static BIG5_PAIRS: [u64; 1024] = pair_set(&BIG5_COMMON);

/// A bit set of two-byte sequences (built when compiling).
const fn pair_set(pairs: &[u16]) -> [u64; 1024] {
    let mut bits = [0u64; 1024];
    let mut i = 0;
    while i < pairs.len() {
        let k = pairs[i] as usize;
        bits[k / 64] |= 1 << (k % 64);
        i += 1;
    }
    bits
}

/// Whether the bytes `lead`, `trail` are in the set `pairs`.
#[inline]
fn is_pair(pairs: &[u64; 1024], lead: u8, trail: u8) -> bool {
    let k = (usize::from(lead) << 8) | usize::from(trail);
    pairs[k / 64] & (1 << (k % 64)) != 0
}

/// Characters frequent in game records and in Chinese prose, in simplified
/// and traditional forms: a text decoded in the right encoding is full of
/// them, one decoded in the wrong one rarely holds any.
const COMMON: &str = "车車马馬炮砲包相象仕士帅帥将將兵卒进進退平前后後中一二三四五六七八九\
１２３４５６７８９红紅黑先胜勝负負和局对對第轮輪赛賽杯届屆年月日棋象队隊手着著变變的是了不在人有我他这這个個们們\
来來上大为為国國地到以说說时時要就出会會可也你生能而子那得于於下自之过過发發作里裡用道行所然家种種事成方多经經么麼去法\
学學如都同现現当當没沒动動面起看定天分还還好小部其些主样樣理心本开開但因只从從想实實";

/// The CJK ideographs' block, where all of [`COMMON`] but the full-width
/// digits lies.
const CJK: std::ops::RangeInclusive<u32> = 0x4E00..=0x9FFF;

/// [`COMMON`]'s ideographs, one bit each, by their offset in [`CJK`]: a
/// character is looked up in one step, not searched for.
static COMMON_IDEOGRAPHS: [u64; 328] = common_ideographs();

/// Builds [`COMMON_IDEOGRAPHS`] (when compiling).
const fn common_ideographs() -> [u64; 328] {
    let mut bits = [0u64; 328];
    let bytes = COMMON.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // Every character of COMMON is three bytes of UTF-8.
        assert!(bytes[i] & 0xF0 == 0xE0, "COMMON holds only three-byte characters");
        let c = ((bytes[i] as u32 & 0x0F) << 12)
            | ((bytes[i + 1] as u32 & 0x3F) << 6)
            | (bytes[i + 2] as u32 & 0x3F);
        if c >= *CJK.start() && c <= *CJK.end() {
            let k = (c - *CJK.start()) as usize;
            bits[k / 64] |= 1 << (k % 64);
        } else {
            assert!(c >= 0xFF11 && c <= 0xFF19, "COMMON holds ideographs and full-width digits only");
        }
        i += 3;
    }
    bits
}

/// Whether `c` is one of [`COMMON`].
#[inline]
fn is_common(c: char) -> bool {
    let c = c as u32;
    if CJK.contains(&c) {
        let k = (c - CJK.start()) as usize;
        COMMON_IDEOGRAPHS[k / 64] & (1 << (k % 64)) != 0
    } else {
        (0xFF11..=0xFF19).contains(&c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pair_tables_are_what_the_decoders_read_as_common() {
        for (encoding, pairs) in [(Encoding::Gb18030, &GB18030_PAIRS), (Encoding::Big5, &BIG5_PAIRS)] {
            for lead in 0x81..=0xFEu8 {
                for trail in 0..=0xFFu8 {
                    let bytes = [lead, trail];
                    let (text, errors) = encoding.codec().decode_without_bom_handling(&bytes);
                    let mut chars = text.chars();
                    let common = match (chars.next(), chars.next()) {
                        (Some(c), None) => !errors && is_common(c),
                        _ => false,
                    };
                    assert_eq!(is_pair(pairs, lead, trail), common, "{encoding} {lead:02X}{trail:02X}");
                }
            }
        }
    }

    /// [`guess_chinese`] as it was, both readings always decoded and scored.
    fn guess_by_both(bytes: &[u8]) -> Encoding {
        let mut end = bytes.len().min(SAMPLE);
        while end < bytes.len() && end > 0 && bytes[end - 1] >= 0x80 {
            end -= 1;
        }
        let score = |e: Encoding| {
            let (text, _) = e.codec().decode_without_bom_handling(&bytes[..end]);
            text.chars()
                .map(|c| match c {
                    '\u{FFFD}' => -20,
                    c if COMMON.contains(c) => 2,
                    '\u{4E00}'..='\u{9FFF}' => 0,
                    c if (c as u32) >= 0x80 => -1,
                    _ => 0,
                })
                .sum::<i64>()
        };
        if score(Encoding::Big5) > score(Encoding::Gb18030) { Encoding::Big5 } else { Encoding::Gb18030 }
    }

    #[test]
    fn skipping_a_reading_that_cannot_win_changes_no_verdict() {
        // Texts of frequent and other characters and ASCII, in GBK and in
        // Big5, then with bytes changed, cut or put in: the verdict with a
        // reading skipped is the verdict of both readings scored.
        let mut state = 11u64;
        let mut next = || {
            let (s, out) = crate::rules::zobrist::splitmix64(state);
            state = s;
            out
        };
        let common: Vec<char> = COMMON.chars().collect();
        let (mut big5, mut gb) = (0, 0);
        for case in 0..3000 {
            let mut text = String::new();
            for _ in 0..next() % 400 {
                match next() % 4 {
                    0 => text.push(common[(next() % common.len() as u64) as usize]),
                    1 => text.push(char::from_u32(0x4E00 + (next() % 0x5200) as u32).unwrap()),
                    2 => text.push(char::from(b' ' + (next() % 90) as u8)),
                    _ => text.push_str("车九进一 "),
                }
            }
            let target = if case % 2 == 0 { Encoding::Gb18030 } else { Encoding::Big5 };
            let mut bytes = target.encode_replacing(&text, '?').into_owned();
            for _ in 0..next() % 4 {
                if bytes.is_empty() {
                    break;
                }
                let at = (next() % bytes.len() as u64) as usize;
                match next() % 3 {
                    0 => bytes[at] = next() as u8,
                    1 => bytes.truncate(at),
                    _ => bytes.insert(at, 0x80 | next() as u8),
                }
            }
            let verdict = guess_chinese(&bytes);
            assert_eq!(verdict, guess_by_both(&bytes), "case {case}");
            big5 += usize::from(verdict == Encoding::Big5);
            gb += usize::from(verdict == Encoding::Gb18030);
        }
        // Both verdicts were reached, many times.
        assert!(big5 > 500 && gb > 500, "{big5} {gb}");
    }

    #[test]
    fn the_common_table_is_the_common_string() {
        for c in COMMON.chars() {
            assert!(is_common(c), "{c}");
        }
        let mut n = 0;
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            assert_eq!(is_common(c), COMMON.contains(c), "{c}");
            n += usize::from(is_common(c));
        }
        assert_eq!(n, COMMON.chars().collect::<std::collections::HashSet<_>>().len());
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

//! One way to write a record in any format qipu writes: [`write()`] (and
//! [`write_with_warnings`]) with [`WriteOptions`], failing with one
//! [`WriteError`] that keeps the writer's own error.

use super::encoding::Encoding;
use super::{ccbridge, dhtmlxq, html, limits, pfc, pgn, uci, xqf};
use crate::notation::Notation;
use crate::record::Record;

/// A format [`write()`] writes a record in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WriteFormat {
    /// PGN, its moves in [`WriteOptions::notation`].
    Pgn,
    /// One line of qipu's JSON (needs the `serde` feature).
    #[cfg(feature = "serde")]
    Json,
    /// A DhtmlXQ block.
    Dhtmlxq,
    /// A UCI position line (the main line only).
    Uci,
    /// A 鹏飞 PFC document (one game a file), always in UTF-8.
    Pfc,
    /// An XQF file of [`WriteOptions::xqf_version`].
    Xqf,
    /// A 象棋桥 CBR file.
    Cbr,
    /// A game viewer: one self-contained HTML page, its moves in
    /// [`WriteOptions::notation`], always in UTF-8 (a page of several
    /// games: [`html::page`]).
    Html,
}

impl WriteFormat {
    /// Whether the format is text, written in [`WriteOptions::encoding`]
    /// (XQF and CBR are binary files of one record each; an HTML page and
    /// a PFC document are text, always in UTF-8).
    pub fn is_text(self) -> bool {
        !matches!(self, WriteFormat::Xqf | WriteFormat::Cbr)
    }

    /// The format as users name it in messages (`PGN`, `DhtmlXQ`).
    pub fn name(self) -> &'static str {
        match self {
            WriteFormat::Pgn => "PGN",
            #[cfg(feature = "serde")]
            WriteFormat::Json => "JSON",
            WriteFormat::Dhtmlxq => "DhtmlXQ",
            WriteFormat::Uci => "UCI",
            WriteFormat::Pfc => "PFC",
            WriteFormat::Xqf => "XQF",
            WriteFormat::Cbr => "CBR",
            WriteFormat::Html => "HTML",
        }
    }
}

/// What to do with a character the output encoding cannot hold.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Unmappable {
    /// The record is not written: [`WriteError::Unmappable`].
    #[default]
    Error,
    /// The character is written as `?`.
    Replace,
}

/// How [`write()`] writes a record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The format.
    pub format: WriteFormat,
    /// The notation of the moves of PGN and HTML.
    pub notation: Notation,
    /// The version of XQF written.
    pub xqf_version: xqf::Version,
    /// The encoding of text formats: UTF-8, GBK (GB18030) or Big5.
    pub encoding: Encoding,
    /// What becomes of a character the encoding cannot hold.
    pub unmappable: Unmappable,
}

impl WriteOptions {
    /// Options for `format`: PGN in simplified Chinese, XQF version 10,
    /// text in UTF-8, an unmappable character an error.
    pub fn new(format: WriteFormat) -> WriteOptions {
        WriteOptions {
            format,
            notation: Notation::Chinese(crate::notation::chinese::Style::Simplified),
            xqf_version: xqf::Version::V10,
            encoding: Encoding::Utf8,
            unmappable: Unmappable::Error,
        }
    }
}

/// Why a record cannot be written: the writer's own error, or a character
/// the output encoding cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// DhtmlXQ cannot hold the record.
    #[error(transparent)]
    Dhtmlxq(#[from] dhtmlxq::WriteError),
    /// PFC cannot hold the record.
    #[error(transparent)]
    Pfc(#[from] pfc::WriteError),
    /// A UCI line cannot hold the record.
    #[error(transparent)]
    Uci(#[from] uci::WriteError),
    /// XQF cannot hold the record.
    #[error(transparent)]
    Xqf(#[from] xqf::WriteError),
    /// CBR cannot hold the record.
    #[error(transparent)]
    Cbr(#[from] ccbridge::WriteError),
    /// A character of the text (a tag, a comment) that the encoding cannot
    /// hold, with [`Unmappable::Error`].
    #[error("{character:?} (U+{:04X}) cannot be written in {encoding}", *.character as u32)]
    Unmappable {
        /// The first such character.
        character: char,
        /// The encoding asked for.
        encoding: Encoding,
    },
    /// An encoding text is not written in (UTF-16).
    #[error("text is written in utf-8, gbk or big5, not {0}")]
    Encoding(Encoding),
}

pub use super::written::{WriteWarning, Written};

/// The bytes of `record` in the format of `options`, as they stand in a
/// file: a text record ends with its line end (`\n`), so that the records
/// of a file are the concatenation of their bytes; XQF, CBR and an HTML
/// page are a file each.
///
/// # Errors
///
/// A [`WriteError`] when the format cannot hold the record (a start
/// position that cannot be read, a move that did not replay), or the
/// encoding a character of it.
///
/// ```
/// use qipu::formats::{self, pgn, write::{WriteFormat, WriteOptions}};
/// let record = &pgn::read("1. h2e2 h9g7 *")[0];
/// let uci = formats::write(record, &WriteOptions::new(WriteFormat::Uci)).unwrap();
/// assert_eq!(uci, b"position startpos moves h2e2 h9g7\n");
/// let xqf = formats::write(record, &WriteOptions::new(WriteFormat::Xqf)).unwrap();
/// assert!(xqf.starts_with(b"XQ"));
/// ```
pub fn write(record: &Record, options: &WriteOptions) -> Result<Vec<u8>, WriteError> {
    write_with_warnings(record, options).map(|written| written.bytes)
}

/// As [`write()`], with what the format could not keep whole.
///
/// # Errors
///
/// As [`write()`].
pub fn write_with_warnings(record: &Record, options: &WriteOptions) -> Result<Written, WriteError> {
    let mut written = write_unchecked(record, options)?;
    written.warnings = super::written::summarise(written.warnings);
    // Written whole all the same: nothing of it is lost in the file.
    if let Some(warning) = read_back(options.format, &written.bytes) {
        written.warnings.push(warning);
    }
    Ok(written)
}

/// [`write_with_warnings`], without the check that the bytes read back.
fn write_unchecked(record: &Record, options: &WriteOptions) -> Result<Written, WriteError> {
    let mut warnings = Vec::new();
    // A tag's name with `?` in it would not read as one: with
    // --unmappable replace, a tag named with a character the encoding
    // lacks is left out.
    let encodable = |name: &str| name.is_ascii() || options.encoding.encode(name).is_ok();
    let names_matter = matches!(options.format, WriteFormat::Pgn | WriteFormat::Dhtmlxq);
    let renamed;
    let record = if names_matter
        && options.unmappable == Unmappable::Replace
        && record.tags().iter().any(|(name, _)| !encodable(name))
    {
        let mut kept = record.clone();
        kept.retain_tags(|name, _| encodable(name));
        for (name, _) in record.tags().iter().filter(|(name, _)| !encodable(name)) {
            warnings.push(WriteWarning::TagNameUnmappable { tag: name.clone(), encoding: options.encoding });
        }
        renamed = kept;
        &renamed
    } else {
        record
    };
    // PGN, DhtmlXQ and PFC hold a tag of a name once (in any case): a PGN
    // tag given again starts another game, a PFC attribute given again
    // makes the document unreadable. The first is written, the others told.
    let once = matches!(options.format, WriteFormat::Pgn | WriteFormat::Dhtmlxq | WriteFormat::Pfc);
    let first_of_each;
    let record = match once.then(|| repeated_tags(record)).filter(|again| !again.is_empty()) {
        Some(again) => {
            let mut kept = record.clone();
            let mut seen = std::collections::HashSet::new();
            kept.retain_tags(|name, _| seen.insert(name.to_ascii_lowercase()));
            let format = options.format.name();
            warnings.extend(again.into_iter().map(|tag| WriteWarning::TagRepeated { tag, format }));
            first_of_each = kept;
            &first_of_each
        }
        None => record,
    };
    let text = match options.format {
        WriteFormat::Pgn => {
            for (name, _) in record.tags().iter().filter(|(name, _)| !pgn::write::is_tag_name(name)) {
                warnings.push(WriteWarning::TagNameUnwritable { tag: name.clone(), format: "PGN" });
            }
            pgn::write(record, options.notation) + "\n"
        }
        #[cfg(feature = "serde")]
        WriteFormat::Json => super::json::write(record) + "\n",
        WriteFormat::Dhtmlxq => {
            let (block, lost) = dhtmlxq::write_with_warnings(record)?;
            warnings.extend(lost);
            block + "\n"
        }
        WriteFormat::Uci => uci::write(record)? + "\n",
        WriteFormat::Xqf => return Ok(xqf::write_with_warnings(record, options.xqf_version)?),
        WriteFormat::Cbr => return Ok(ccbridge::write_cbr(record)?),
        // The document says it is UTF-8.
        WriteFormat::Pfc => {
            let (document, lost) = pfc::write_with_warnings(record)?;
            warnings.extend(lost);
            return Ok(Written { bytes: document.into_bytes(), warnings });
        }
        // The page says it is UTF-8.
        WriteFormat::Html => {
            return Ok(Written {
                bytes: html::write(record, options.notation).into_bytes(),
                warnings: Vec::new(),
            });
        }
    };
    let bytes = encode(text, options.encoding, options.unmappable, &mut warnings)?;
    Ok(Written { bytes, warnings })
}

/// The tags of `record` given again under a name (in any case) that an
/// earlier tag has, in order.
fn repeated_tags(record: &Record) -> Vec<String> {
    let tags = record.tags();
    // Few tags a game: a quadratic look is quicker than hashing them, up to
    // a point.
    if tags.len() <= 32 {
        return tags
            .iter()
            .enumerate()
            .filter(|(k, (name, _))| tags[..*k].iter().any(|(before, _)| before.eq_ignore_ascii_case(name)))
            .map(|(_, (name, _))| name.clone())
            .collect();
    }
    let mut seen = std::collections::HashSet::new();
    tags.iter()
        .filter(|(name, _)| !seen.insert(name.to_ascii_lowercase()))
        .map(|(name, _)| name.clone())
        .collect()
}

/// `text` in `encoding`; with [`Unmappable::Error`], the first character it
/// cannot hold is the error, and with [`Unmappable::Replace`] the
/// characters written as `?` are a warning.
fn encode(
    text: String,
    encoding: Encoding,
    unmappable: Unmappable,
    warnings: &mut Vec<WriteWarning>,
) -> Result<Vec<u8>, WriteError> {
    if !matches!(encoding, Encoding::Utf8 | Encoding::Gb18030 | Encoding::Big5) {
        return Err(WriteError::Encoding(encoding));
    }
    if encoding == Encoding::Utf8 || text.is_ascii() {
        return Ok(text.into_bytes());
    }
    match unmappable {
        Unmappable::Error => encoding
            .encode(&text)
            .map(|b| b.into_owned())
            .map_err(|character| WriteError::Unmappable { character, encoding }),
        Unmappable::Replace => {
            if let Ok(bytes) = encoding.encode(&text) {
                return Ok(bytes.into_owned());
            }
            let mut characters = Vec::new();
            let mut count = 0;
            let mut buf = [0u8; 4];
            for c in text.chars().filter(|c| !c.is_ascii()) {
                if encoding.encode(c.encode_utf8(&mut buf)).is_err() {
                    count += 1;
                    if characters.len() < 5 && !characters.contains(&c) {
                        characters.push(c);
                    }
                }
            }
            warnings.push(WriteWarning::Replaced { characters, count, encoding });
            Ok(encoding.encode_replacing(&text, '?').into_owned())
        }
    }
}

/// The warning for a record written as `bytes` in `format` that qipu will
/// not read back, past one of the [`limits`] of its readers; `None` when it reads back
/// (always for JSON, and for HTML, which qipu does not read).
pub(crate) fn read_back(format: WriteFormat, bytes: &[u8]) -> Option<WriteWarning> {
    // JSON lines and HTML pages are not checked here.
    if matches!(format, WriteFormat::Html) {
        return None;
    }
    #[cfg(feature = "serde")]
    if matches!(format, WriteFormat::Json) {
        return None;
    }
    let name = format.name();
    let whole = matches!(format, WriteFormat::Pfc | WriteFormat::Xqf | WriteFormat::Cbr);
    let too_long = |size: usize, limit: usize, what: &'static str, reads: &'static str| {
        Some(WriteWarning::WontReadBack { format: name, what, size, limit, reads })
    };
    if whole {
        let limit = usize::try_from(limits::MAX_WHOLE).unwrap_or(usize::MAX);
        return if bytes.len() > limit { too_long(bytes.len(), limit, "file", "files") } else { None };
    }
    if bytes.len() <= limits::MAX_LINE.min(limits::MAX_GAME) {
        return None;
    }
    let longest = bytes.split(|&b| b == b'\n').map(<[u8]>::len).max().unwrap_or(0);
    if longest > limits::MAX_LINE {
        return too_long(longest, limits::MAX_LINE, "line", "lines");
    }
    if bytes.len() > limits::MAX_GAME {
        return too_long(bytes.len(), limits::MAX_GAME, "game", "games");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{self, detect::Format};

    fn record() -> Record {
        pgn::read("[Event \"许银川\"]\n1. h2e2 {中炮} h9g7 *\n").remove(0)
    }

    fn options(format: WriteFormat) -> WriteOptions {
        WriteOptions::new(format)
    }

    #[test]
    fn read_back_as_its_docs_showed() {
        use crate::formats::write::WriteFormat;
        use crate::formats::write::read_back;
        assert_eq!(read_back(WriteFormat::Pgn, b"[Event \"x\"]\n1. h2e2 *\n"), None);
        let long = vec![b'x'; (17 << 20) + 10];
        assert_eq!(
            read_back(WriteFormat::Pgn, &long).unwrap().to_string(),
            "written as a PGN line of 17 MB; qipu reads lines up to 16 MB, so it will not read back"
        );
        let just = vec![b'x'; (16 << 20) + 1];
        assert!(
            read_back(WriteFormat::Pgn, &just)
                .unwrap()
                .to_string()
                .starts_with("written as a PGN line of 16.1 MB;")
        );
    }

    #[test]
    fn every_format_is_written_and_read_back() {
        let record = record();
        let mut formats = vec![
            (WriteFormat::Pgn, Format::Pgn),
            (WriteFormat::Dhtmlxq, Format::Dhtmlxq),
            (WriteFormat::Uci, Format::Uci),
            (WriteFormat::Xqf, Format::Xqf),
            (WriteFormat::Cbr, Format::Cbr),
            (WriteFormat::Pfc, Format::Pfc),
        ];
        let page = write(&record, &options(WriteFormat::Html)).unwrap();
        assert!(page.starts_with(b"<!DOCTYPE html>") && page.ends_with(b"</html>\n"));
        #[cfg(feature = "serde")]
        formats.push((WriteFormat::Json, Format::Json));
        for (format, read_as) in formats {
            let bytes = write(&record, &options(format)).unwrap();
            assert_eq!(format.is_text(), bytes.ends_with(b"\n"), "{format:?}");
            let parsed = formats::read(&bytes, None).unwrap();
            assert_eq!(parsed.format, read_as, "{format:?}");
            let back = &parsed.records[0];
            assert_eq!(back.replayed().moves, record.replayed().moves, "{format:?}");
        }
    }

    /// The half-move clock of a start position is read back as written,
    /// or told as left out and read back as 0: the natural move limit
    /// counts from it.
    #[test]
    fn a_start_positions_clock_is_kept_or_told() {
        let fen = "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 3 7";
        let record = pgn::read(&format!("[FEN \"{fen}\"]\n1. d0e0 e9d9 *\n")).remove(0);
        let mut formats = vec![
            WriteFormat::Pgn,
            WriteFormat::Dhtmlxq,
            WriteFormat::Uci,
            WriteFormat::Xqf,
            WriteFormat::Cbr,
            WriteFormat::Pfc,
        ];
        #[cfg(feature = "serde")]
        formats.push(WriteFormat::Json);
        let mut left_out = Vec::new();
        for format in formats {
            let written = write_with_warnings(&record, &options(format)).unwrap();
            let told =
                written.warnings.iter().any(|w| matches!(w, WriteWarning::ClockLeftOut { halfmoves: 3, .. }));
            let back = &formats::read(&written.bytes, None).unwrap().records[0];
            let start = back.replayed().resolution.start.as_ref().map(|p| p.fen());
            let expected = if told { "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 7" } else { fen };
            assert_eq!(start.as_deref(), Some(expected), "{format:?}");
            if told {
                left_out.push(format);
            }
        }
        assert_eq!(left_out, [WriteFormat::Xqf, WriteFormat::Cbr]);
        // The standard placement with clocks of its own (roundtrip's third finding: DhtmlXQ
        // wrote no FEN for it, so the clocks were lost untold).
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 5 3";
        let standard = pgn::read(&format!("[FEN \"{fen}\"]\n3. h2e2 h9g7 *\n")).remove(0);
        for format in [WriteFormat::Pgn, WriteFormat::Dhtmlxq, WriteFormat::Uci, WriteFormat::Pfc] {
            let written = write_with_warnings(&standard, &options(format)).unwrap();
            let back = &formats::read(&written.bytes, None).unwrap().records[0];
            let start = back.replayed().resolution.start.as_ref().map(|p| p.fen());
            assert_eq!(start.as_deref(), Some(fen), "{format:?}");
        }
        // The standard placement from a later move: XQF and CBR hold the move number, and it
        // reads back (roundtrip's fourth finding: the readers dropped it).
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 9";
        let later = pgn::read(&format!("[FEN \"{fen}\"]\n9. h2e2 h9g7 *\n")).remove(0);
        let all =
            [WriteFormat::Pgn, WriteFormat::Dhtmlxq, WriteFormat::Uci, WriteFormat::Xqf, WriteFormat::Cbr];
        for format in all.into_iter().chain([WriteFormat::Pfc]) {
            let written = write_with_warnings(&later, &options(format)).unwrap();
            assert!(written.warnings.is_empty(), "{format:?}: {:?}", written.warnings);
            let back = &formats::read(&written.bytes, None).unwrap().records[0];
            let start = back.replayed().resolution.start.as_ref().map(|p| p.fen());
            assert_eq!(start.as_deref(), Some(fen), "{format:?}");
        }
        let told = write_with_warnings(&record, &options(WriteFormat::Xqf)).unwrap().warnings[0].to_string();
        assert_eq!(told, "the start position's half-move clock (3): XQF has no field for it; read back as 0");
    }

    #[test]
    fn text_is_written_in_the_encoding_asked_for() {
        let record = record();
        let gbk = WriteOptions { encoding: Encoding::Gb18030, ..options(WriteFormat::Pgn) };
        let bytes = write(&record, &gbk).unwrap();
        assert!(std::str::from_utf8(&bytes).is_err(), "not UTF-8");
        assert!(formats::encoding::decode(&bytes, Some(Encoding::Gb18030)).text.contains("许银川"));
        let mut korean = record.clone();
        korean.set_tag("Event", "한국");
        let big5 = WriteOptions { encoding: Encoding::Big5, ..options(WriteFormat::Json) };
        let e = write(&korean, &big5).unwrap_err();
        assert_eq!(e, WriteError::Unmappable { character: '한', encoding: Encoding::Big5 });
        assert_eq!(e.to_string(), "'한' (U+D55C) cannot be written in big5");
        let replace = WriteOptions { unmappable: Unmappable::Replace, ..big5 };
        assert!(String::from_utf8_lossy(&write(&korean, &replace).unwrap()).contains("??"));
        let utf16 = WriteOptions { encoding: Encoding::Utf16Le, ..options(WriteFormat::Pgn) };
        assert_eq!(write(&record, &utf16), Err(WriteError::Encoding(Encoding::Utf16Le)));
        let xqf = WriteOptions { encoding: Encoding::Utf16Le, ..options(WriteFormat::Xqf) };
        assert!(write(&record, &xqf).is_ok(), "binary formats have their own encoding");
    }

    #[test]
    fn each_writer_keeps_its_error() {
        let record = pgn::read("1. 马九进十 *").remove(0);
        for format in [WriteFormat::Dhtmlxq, WriteFormat::Uci, WriteFormat::Xqf, WriteFormat::Cbr] {
            let e = write(&record, &options(format)).unwrap_err();
            let kept = match (&e, format) {
                (WriteError::Dhtmlxq(dhtmlxq::WriteError::NotReplayed(t)), WriteFormat::Dhtmlxq) => {
                    t == "马九进十"
                }
                (WriteError::Uci(uci::WriteError::NotReplayed(t)), WriteFormat::Uci) => t == "马九进十",
                (WriteError::Xqf(xqf::WriteError::NotReplayed { text, .. }), WriteFormat::Xqf) => {
                    text == "马九进十"
                }
                (WriteError::Cbr(ccbridge::WriteError::NotReplayed(_)), WriteFormat::Cbr) => true,
                _ => false,
            };
            assert!(kept, "{format:?}: {e:?}");
        }
        assert!(write(&record, &options(WriteFormat::Pgn)).is_ok(), "PGN keeps moves as text");
    }

    #[test]
    fn every_writer_tells_what_it_leaves_out() {
        let mut record = record();
        record.set_tag("Opening", "中炮");
        record.set_tag("Round", "3");
        record.set_tag("Red", "许银川（广东）特级大师");
        record.set_tag("My Tag", "x");
        let told = |format: WriteFormat| -> Vec<String> {
            let written = write_with_warnings(&record, &options(format)).unwrap();
            let back = &formats::read(&written.bytes, None).unwrap().records[0];
            // Tags without a field come back from the comment about the game.
            assert_eq!((back.tag("Opening"), back.tag("Round")), (Some("中炮"), Some("3")), "{format:?}");
            assert_eq!(write(&record, &options(format)).unwrap(), written.bytes);
            written.warnings.iter().map(|w| w.to_string()).collect()
        };
        assert_eq!(
            told(WriteFormat::Xqf),
            [
                "tag Red: cut to 7 of its 11 characters, the size of XQF's field of 15 bytes of GBK",
                "tag My Tag: XQF cannot write a tag of that name; not written"
            ]
        );
        assert_eq!(told(WriteFormat::Cbr), ["tag My Tag: CBR cannot write a tag of that name; not written"]);
        for format in [WriteFormat::Dhtmlxq, WriteFormat::Pfc, WriteFormat::Pgn] {
            assert_eq!(told(format).len(), 1, "{format:?}");
        }
        record.set_tag("Title", "长".repeat(70));
        let written = write_with_warnings(&record, &options(WriteFormat::Cbr)).unwrap();
        assert_eq!(
            written.warnings[0].to_string(),
            "tag Title: cut to 63 of its 70 characters, the size of CBR's field of 63 UTF-16 units"
        );
        #[cfg(feature = "serde")]
        assert!(write_with_warnings(&record, &options(WriteFormat::Json)).unwrap().warnings.is_empty());
        let big5 = WriteOptions {
            encoding: Encoding::Big5,
            unmappable: Unmappable::Replace,
            ..options(WriteFormat::Pgn)
        };
        let warnings = write_with_warnings(&record, &big5).unwrap().warnings;
        assert_eq!(
            warnings.last().unwrap().to_string(),
            "79 character(s) that big5 cannot hold written as '?': \
             '许' (U+8BB8), '银' (U+94F6), '东' (U+4E1C), '级' (U+7EA7), '师' (U+5E08)"
        );
    }
}

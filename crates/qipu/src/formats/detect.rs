//! Telling formats apart by content.

/// The format of a file, judged from its bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// PGN (any encoding).
    Pgn,
    /// Plain text with moves and no PGN tags (any encoding).
    Text,
    /// XQStudio's binary XQF (`XQ` signature).
    Xqf,
    /// qipu's JSON records, one object per line.
    Json,
    /// DhtmlXQ blocks (东萍 dpxq), alone or inside web pages.
    Dhtmlxq,
    /// A 象棋桥 CCBridge record (binary, `CCBridge Record`).
    Cbr,
    /// A 象棋桥 CCBridge library of records (binary, plain or compressed).
    Cbl,
    /// A 象棋桥 CCBridge XML record (`<ChineseChessRecord>`).
    Cbf,
    /// A 鹏飞象棋 PFC record (XML, a tree of `<n>` elements).
    Pfc,
    /// 广东象棋网 DHJHtmlXQ blocks (the DhtmlXQ dialect of numbered tags).
    Dhj,
    /// A WXF game file (`FORMAT WXF`, `START{ … }END`), as PlayOK and
    /// XieXie write them.
    Wxf,
    /// EPD: one position a line, its opcodes (`id`, `bm`, `c0`, …) kept
    /// as tags.
    Epd,
    /// UCI/UCCI position lines, one game a line: `position startpos moves
    /// h2e2 …`, `position fen FEN moves …`, `fen FEN moves …`, `FEN moves …`.
    Uci,
    /// A 象棋世家 / 弈天 `.mxq` game (length-prefixed GBK strings).
    Mxq,
    /// An `.SG` file: fixed 1,192-byte records, one game each.
    Sg,
    /// A QQ象棋 `.che` file: a count of moves, then ten numbers a move, in
    /// ASCII text.
    Che,
    /// A 中游 `.ccm` file: 7-byte move records.
    Ccm,
    /// A 联众 `.chn` file: a 188-byte header, then 32-byte move records.
    Chn,
    /// A bare 东萍 (UBB) move list: digits only, four a move.
    Ubb,
    /// Binary data that is no record format qipu knows.
    Binary,
}

impl Format {
    /// The name used in reports and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pgn => "pgn",
            Format::Text => "text",
            Format::Xqf => "xqf",
            Format::Json => "json",
            Format::Dhtmlxq => "dhtmlxq",
            Format::Cbr => "cbr",
            Format::Cbl => "cbl",
            Format::Cbf => "cbf",
            Format::Pfc => "pfc",
            Format::Dhj => "dhjhtmlxq",
            Format::Wxf => "wxf",
            Format::Epd => "epd",
            Format::Uci => "uci",
            Format::Mxq => "mxq",
            Format::Sg => "sg",
            Format::Che => "che",
            Format::Ccm => "ccm",
            Format::Chn => "chn",
            Format::Ubb => "ubb",
            Format::Binary => "binary",
        }
    }
}

/// The file-name extensions of Xiangqi record formats, read or not (in
/// lower case): a file named so that holds nothing readable is a damaged
/// record, not prose that happens to sit among records.
pub(crate) const RECORD_EXTENSIONS: [&str; 17] = [
    "pgn", "xqf", "cbr", "cbl", "cbf", "dhtml", "xqn", "mxq", "sg", "che", "ccm", "chn", "ucc", "wxf", "epd",
    "pfc", "ubb",
];

/// Whether a file's name has the extension of a record format.
pub(crate) fn has_record_extension(path: &std::path::Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| RECORD_EXTENSIONS.iter().any(|r| e.eq_ignore_ascii_case(r)))
}

/// Judges the format of `bytes`: binary formats by signature; any text is
/// `Pgn` here, told apart from plain text, JSON, DhtmlXQ, DHJHtmlXQ, CBF, PFC, WXF, EPD
/// and UCI files once decoded.
///
/// ```
/// use qipu::formats::detect::{detect, Format};
/// assert_eq!(detect(b"[Game \"Chinese Chess\"]"), Format::Pgn);
/// assert_eq!(detect(b"XQ\x12\0\0"), Format::Xqf);
/// assert_eq!(detect(b"CCBridge Record\0\0\0\0\x02"), Format::Cbr);
/// assert_eq!(detect(&[0u8, 1, 2, 3, 4, 5, 6, 7, 8, 0x10].repeat(10)), Format::Binary);
/// // One stray control byte in a text does not make it binary.
/// assert_eq!(detect(b"[Event \"x\"]\n1. h2e2 \x01 h9g7 *\n"), Format::Pgn);
/// ```
pub fn detect(bytes: &[u8]) -> Format {
    // `XQ` and a version byte (10 to 18 in real files): text that happens
    // to start with `XQ` (`XQF工具包…`) is not an XQF file.
    if bytes.starts_with(b"XQ") && bytes.get(2).is_none_or(|&v| v < 0x20) {
        return Format::Xqf;
    }
    if super::ccbridge::is_cbr(bytes) {
        return Format::Cbr;
    }
    if super::ccbridge::is_cbl(bytes) {
        return Format::Cbl;
    }
    if super::mxq::is_mxq(bytes) {
        return Format::Mxq;
    }
    if super::sg::is_sg(bytes) {
        return Format::Sg;
    }
    if super::online::che::is_che(bytes) {
        return Format::Che;
    }
    if super::online::ubb::is_ubb(bytes) {
        return Format::Ubb;
    }
    if super::online::ccm::is_ccm(bytes) {
        return Format::Ccm;
    }
    let utf16 = bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]);
    if !utf16 && super::online::chn::is_chn(bytes) {
        return Format::Chn;
    }
    if !utf16 && is_binary(&bytes[..bytes.len().min(4096)]) {
        return Format::Binary;
    }
    Format::Pgn
}

/// The kind of archive or compressed file `bytes` start like, told by
/// its signature: zip, gzip, 7z, RAR, bzip2, xz, Zstandard or tar.
pub(crate) fn archive_kind(bytes: &[u8]) -> Option<&'static str> {
    const SIGNATURES: [(&[u8], &str); 9] = [
        (b"PK\x03\x04", "a zip archive"),
        (b"PK\x05\x06", "a zip archive"),
        (b"PK\x07\x08", "a zip archive"),
        (b"\x1f\x8b", "a gzip file"),
        (b"7z\xbc\xaf\x27\x1c", "a 7z archive"),
        (b"Rar!\x1a\x07", "a RAR archive"),
        (b"\xfd7zXZ\0", "an xz file"),
        (b"\x28\xb5\x2f\xfd", "a Zstandard file"),
        (b"BZh", "a bzip2 file"),
    ];
    if let Some(&(_, kind)) = SIGNATURES.iter().find(|(magic, _)| bytes.starts_with(magic)) {
        return Some(kind);
    }
    bytes.get(257..262).filter(|m| *m == b"ustar").map(|_| "a tar archive")
}

/// Whether the start of a file is binary data rather than text: more than
/// one byte in a hundred (and at least 8) is a control character that text
/// never holds (NUL to BS, SO to SUB, FS to US). A stray control byte in a
/// text is a problem of the game that holds it, not of the file.
fn is_binary(head: &[u8]) -> bool {
    let controls = head.iter().filter(|&&b| b < 0x09 || (0x0E..0x20).contains(&b) && b != 0x1B).count();
    controls >= 8 && controls * 100 > head.len()
}

#[cfg(test)]
mod examples {
    #[test]
    fn has_record_extension_as_its_docs_showed() {
        use crate::formats::detect::has_record_extension;
        assert!(has_record_extension(std::path::Path::new("games/对局.PGN")));
        assert!(!has_record_extension(std::path::Path::new("README.txt")));
    }

    #[test]
    fn archive_kind_as_its_docs_showed() {
        use crate::formats::detect::archive_kind;
        assert_eq!(archive_kind(b"PK\x03\x04\x14\0"), Some("a zip archive"));
        assert_eq!(archive_kind(b"\x1f\x8b\x08\0"), Some("a gzip file"));
        assert_eq!(archive_kind(b"XQ\x0a"), None);
    }
}

//! What goes wrong when an XQF file cannot be read: the kinds of an
//! [`XqfError`](super::XqfError), each with the values found.

use std::fmt;

use super::{HEADER_LEN, NEWEST_VERSION};
use crate::formats::SharedPoint;

/// Why an XQF file cannot be read; the [`XqfError`](super::XqfError) that
/// holds it gives the byte offset.
///
/// ```
/// use qipu::formats::xqf::{self, XqfErrorKind, Truncated};
/// let e = xqf::read(b"PK\x03\x04").unwrap_err();
/// assert_eq!((e.offset, &e.kind), (0, &XqfErrorKind::NotXqf { found: b"PK".to_vec() }));
/// assert_eq!(e.to_string(), "byte 0: not an XQF file: it starts with 0x50 0x4b, not the signature 'XQ'");
/// let e = xqf::read(b"XQ\x0a").unwrap_err();
/// assert_eq!(e.kind, XqfErrorKind::Truncated(Truncated::Header { len: 3 }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum XqfErrorKind {
    /// The file does not start with the signature `XQ`; `found` is what
    /// it starts with (up to two bytes).
    #[error("not an XQF file: it starts with {}, not the signature 'XQ'", Hex(found))]
    NotXqf {
        /// The first bytes of the file.
        found: Vec<u8>,
    },
    /// A version newer than any XQStudio writes.
    #[error("version {0}: XQStudio writes versions up to {NEWEST_VERSION}")]
    Version(u8),
    /// The four key bytes at 0x0C do not sum to zero (mod 256); `sum` is
    /// what they sum to.
    #[error("the key bytes do not sum to zero (mod 256), as every XQF file's do")]
    KeySum {
        /// Their sum, mod 256.
        sum: u8,
    },
    /// Two piece slots of the start position on one point.
    #[error(transparent)]
    SharedPoint(SharedPoint),
    /// The file ends before a part of it.
    #[error("truncated: {0}")]
    Truncated(Truncated),
    /// A comment's stored length is below the key it is offset by.
    #[error("comment length {stored} is below the file's key")]
    CommentBelowKey {
        /// The length as stored.
        stored: u32,
        /// The key (`Keys::remark_size`).
        key: u32,
    },
    /// A comment longer than the bytes left in the file.
    #[error("comment of {len} bytes, but only {left} bytes are left")]
    CommentPastEnd {
        /// The comment's length.
        len: usize,
        /// The bytes left after its length.
        left: usize,
    },
    /// A move whose from or to byte is no point of the board (0..89).
    #[error("move from {from} to {to}: a square is off the board (0..89)")]
    OffBoard {
        /// The from byte, deciphered.
        from: u8,
        /// The to byte, deciphered.
        to: u8,
    },
}

/// Which part of an XQF file is cut short.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Truncated {
    /// The file is shorter than the 1024-byte header.
    #[error("{len} bytes, but an XQF header has {HEADER_LEN}")]
    Header {
        /// The length of the file.
        len: usize,
    },
    /// The file ends after the header, without the root record.
    #[error("the file ends after the header, without the root record")]
    NoRoot,
    /// A part of the move tree needs more bytes than are left.
    #[error("{what} needs {needs} bytes, {left} are left")]
    Needs {
        /// The part: `"a move record"`, `"a comment length"`, `"a comment"`.
        what: &'static str,
        /// The bytes it needs.
        needs: usize,
        /// The bytes left.
        left: usize,
    },
}

/// Bytes as `0x50 0x4b`.
struct Hex<'a>(&'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, b) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{b:#04x}")?;
        }
        Ok(())
    }
}

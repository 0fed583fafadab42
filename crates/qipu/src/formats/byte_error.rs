//! The error of a binary reader: what is wrong, and at which byte.

/// Why a binary file (or a record in one) cannot be read, and at which
/// byte: an [`XqfError`](super::xqf::XqfError) or a
/// [`CcbridgeError`](super::ccbridge::CcbridgeError), whose `kind` says what is
/// wrong in the terms of its format. The message is `byte OFFSET: ` and
/// the [`reason`](ByteError::reason).
///
/// ```
/// use qipu::formats::xqf::{self, XqfErrorKind};
/// let mut file = b"XQ\x13".to_vec();
/// file.resize(1024, 0);
/// let e = xqf::read(&file).unwrap_err();
/// assert_eq!((e.offset, e.in_inflated_data, &e.kind), (2, false, &XqfErrorKind::Version(19)));
/// assert_eq!(e.to_string(), "byte 2: version 19: XQStudio writes versions up to 18");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByteError<K> {
    /// Byte offset of the problem: in the file, or in the inflated data
    /// when [`in_inflated_data`](ByteError::in_inflated_data) says so.
    pub offset: usize,
    /// Whether `offset` counts in the inflated data of a compressed 象棋桥
    /// library rather than in the file.
    pub in_inflated_data: bool,
    /// What is wrong.
    pub kind: K,
}

impl<K: std::fmt::Display> ByteError<K> {
    /// What is wrong, in words: the kind's message, and, for an offset in
    /// inflated data, ` (offset in the inflated library data)`.
    pub fn reason(&self) -> String {
        let mut reason = self.kind.to_string();
        if self.in_inflated_data {
            reason.push_str(" (offset in the inflated library data)");
        }
        reason
    }
}

impl<K: std::fmt::Display> std::fmt::Display for ByteError<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.kind)?;
        if self.in_inflated_data {
            f.write_str(" (offset in the inflated library data)")?;
        }
        Ok(())
    }
}

impl<K: std::fmt::Debug + std::fmt::Display> std::error::Error for ByteError<K> {}

/// A [`ByteError`] at `offset` in the file, as the `Err` of a reader.
pub(crate) fn byte_error<T, K>(offset: usize, kind: K) -> Result<T, ByteError<K>> {
    Err(ByteError { offset, in_inflated_data: false, kind })
}

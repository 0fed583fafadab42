//! A reading position in the bytes of a CCBridge binary record, whose
//! errors name their offset in the source.

use super::{CcbridgeError, Truncated, error};

/// A reading position in `data`, whose first byte is at `base` in the
/// source (file or inflated data): errors name source offsets.
pub(super) struct Cursor<'a> {
    /// The bytes read.
    pub(super) data: &'a [u8],
    /// The source offset of `data[0]`.
    base: usize,
    /// The next byte to read, in `data`.
    pub(super) at: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(data: &'a [u8], base: usize) -> Cursor<'a> {
        Cursor { data, base, at: 0 }
    }

    /// The source offset of the next byte.
    pub(super) fn offset(&self) -> usize {
        self.base + self.at
    }

    pub(super) fn left(&self) -> usize {
        self.data.len() - self.at
    }

    pub(super) fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], CcbridgeError> {
        if n > self.left() {
            return truncated(self.offset(), what, n, self.left());
        }
        let bytes = &self.data[self.at..self.at + n];
        self.at += n;
        Ok(bytes)
    }

    pub(super) fn u8(&mut self, what: &'static str) -> Result<u8, CcbridgeError> {
        Ok(self.take(1, what)?[0])
    }

    pub(super) fn u16(&mut self, what: &'static str) -> Result<u16, CcbridgeError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub(super) fn u32(&mut self, what: &'static str) -> Result<u32, CcbridgeError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// The error of `what`, `n` bytes at source offset `offset`, when only
/// `left` are left.
pub(super) fn truncated<T>(
    offset: usize,
    what: &'static str,
    n: usize,
    left: usize,
) -> Result<T, CcbridgeError> {
    error(offset, Truncated::Needs { what, needs: n, left })
}

//! Gzip-compressed inputs, inflated as they are read: a `.pgn.gz` (or any
//! input whose first bytes are gzip's signature, whatever its name) reads
//! as the file it holds, under its own name.
//!
//! Memory stays bounded: the data is inflated a buffer at a time into the
//! same readers every input goes through. A stream that inflates to more
//! than [`MAX_RATIO`] times the compressed bytes read, beyond the first
//! [`FREE_BYTES`], is refused as a decompression bomb: reading it fails
//! with that reason, and the batch goes on.

use std::io::{BufRead, BufReader, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The most bytes a gzip stream may inflate to for each compressed byte.
pub const MAX_RATIO: u64 = 1_000;

/// Inflated bytes allowed whatever the ratio.
pub const FREE_BYTES: u64 = 64 << 20;

/// `source` as it reads: inflated when it starts like a gzip stream
/// (every member of a multi-member stream), else unchanged.
///
/// # Errors
///
/// The error of reading the first bytes.
pub(crate) fn open<R: Read + Send + 'static>(source: R) -> std::io::Result<Box<dyn Read + Send>> {
    open_capped(source, MAX_RATIO, FREE_BYTES)
}

/// [`open`] with the bomb limits given.
fn open_capped<R: Read + Send + 'static>(
    source: R,
    ratio: u64,
    free: u64,
) -> std::io::Result<Box<dyn Read + Send>> {
    let compressed = Arc::new(AtomicU64::new(0));
    let mut buffered = BufReader::new(Counted { inner: source, read: Arc::clone(&compressed) });
    let head = buffered.fill_buf()?;
    if !starts_like_gzip(head) {
        return Ok(Box::new(buffered));
    }
    let inflated = flate2::bufread::MultiGzDecoder::new(buffered);
    Ok(Box::new(Capped { inner: inflated, compressed, inflated: 0, ratio, free }))
}

/// Whether `head`, the first bytes of an input, begins with gzip's
/// signature: the input is inflated as it is read.
pub(crate) fn starts_like_gzip(head: &[u8]) -> bool {
    head.starts_with(&[0x1f, 0x8b])
}

/// A reader that counts the bytes read through it.
struct Counted<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The inflated data, refused once it outgrows the compressed data too far.
struct Capped<R> {
    inner: R,
    compressed: Arc<AtomicU64>,
    inflated: u64,
    ratio: u64,
    free: u64,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.inflated += n as u64;
        let allowed =
            self.compressed.load(Ordering::Relaxed).saturating_mul(self.ratio).saturating_add(self.free);
        if self.inflated > allowed {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "a gzip stream that inflates over {} times its size (past {} MB): refused as a decompression bomb",
                    self.ratio,
                    self.free >> 20
                ),
            ));
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn plain_and_gzip_data_read_the_same() {
        let text = b"[Event \"x\"]\n1. h2e2 h9g7 *\n".repeat(1000);
        for data in [text.clone(), gz(&text), [gz(&text[..5000]), gz(&text[5000..])].concat()] {
            let mut out = Vec::new();
            open(std::io::Cursor::new(data)).unwrap().read_to_end(&mut out).unwrap();
            assert_eq!(out, text);
        }
        let mut out = Vec::new();
        open(std::io::Cursor::new(vec![0x1f])).unwrap().read_to_end(&mut out).unwrap();
        assert_eq!(out, [0x1f]);
    }

    #[test]
    fn a_bomb_is_refused_in_bounded_memory() {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..8 {
            e.write_all(&zeros).unwrap();
        }
        let bomb = e.finish().unwrap();
        assert!(bomb.len() < 20_000);
        // 8 MB from some 8 KB: over 100 times, past the first megabyte.
        let mut reader = open_capped(std::io::Cursor::new(bomb), 100, 1 << 20).unwrap();
        let mut buf = vec![0u8; 1 << 16];
        let e = loop {
            match reader.read(&mut buf) {
                Ok(0) => panic!("the bomb inflated whole"),
                Ok(_) => {}
                Err(e) => break e,
            }
        };
        assert!(e.to_string().contains("decompression bomb"), "{e}");
    }

    #[test]
    fn damaged_gzip_data_is_an_error_not_a_panic() {
        let mut data = gz(&b"[Event \"x\"]\n1. h2e2 h9g7 *\n".repeat(100));
        let n = data.len();
        data[n / 2] ^= 0xff;
        data.truncate(n - 3);
        let mut out = Vec::new();
        assert!(open(std::io::Cursor::new(data)).unwrap().read_to_end(&mut out).is_err());
    }
}

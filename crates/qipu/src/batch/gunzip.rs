//! Gzip-compressed inputs, inflated as they are read: a `.pgn.gz` (or any
//! input whose first bytes are gzip's signature, whatever its name) reads
//! as the file it holds, under its own name.
//!
//! Memory stays bounded: the data is inflated a buffer at a time into the
//! same readers every input goes through. A stream that inflates to more
//! than [`MAX_RATIO`] times the compressed bytes read, beyond the first
//! [`FREE_BYTES`], is refused as a decompression bomb: reading it fails
//! with that reason, and the batch goes on.
//!
//! A stream cut short (a truncated download) reads up to the cut, then
//! fails with a [`CutShort`] error: a text's games before the cut are read,
//! the game the cut falls in is not, and the input is reported unreadable
//! for the cut (see [`crate::formats::stream`]). When only the 8 bytes
//! after a member's data (its CRC-32 and size) are missing, every game is
//! read, and the stream still reported cut short. Data after the last
//! member that is not gzip is not read, and reported the same way.

use std::io::{self, BufRead, BufReader, Read};

use crate::formats::stream::CutShort;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The most bytes a gzip stream may inflate to for each compressed byte.
pub(crate) const MAX_RATIO: u64 = 1_000;

/// Inflated bytes allowed whatever the ratio.
pub(crate) const FREE_BYTES: u64 = 64 << 20;

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
    let inflated = Gunzip {
        inner: buffered,
        at: At::Header,
        members: 0,
        inflate: Decompress::new(false),
        crc: Crc::new(),
    };
    Ok(Box::new(Capped { inner: inflated, compressed, inflated: 0, ratio, free }))
}

/// Whether `head`, the first bytes of an input, begins with gzip's
/// signature: the input is inflated as it is read.
pub(crate) fn starts_like_gzip(head: &[u8]) -> bool {
    head.starts_with(&[0x1f, 0x8b])
}

use flate2::{Crc, Decompress, FlushDecompress, Status};

/// The data of a gzip stream, inflated member after member (as
/// `flate2`'s `MultiGzDecoder`, which says no more than "unexpected end of
/// file" of a stream cut short, whether its data is whole or not).
struct Gunzip<R> {
    inner: R,
    at: At,
    /// Members whose header was read.
    members: u64,
    inflate: Decompress,
    /// Of the member's data.
    crc: Crc,
}

/// Where in a gzip stream its reader is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Header,
    Data,
    Trailer,
    End,
}

/// A gzip stream damaged (not cut short).
fn damaged(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("a damaged gzip stream: {what}"))
}

/// A gzip stream cut short `where_`: what was read before is `whole`.
fn cut(where_: &str, whole: bool) -> io::Error {
    let message = format!("the gzip stream is cut short (unexpected end of file){where_}");
    CutShort { whole, message }.into_io()
}

impl<R: BufRead> Gunzip<R> {
    /// The next byte, `None` at the end.
    fn byte(&mut self) -> io::Result<Option<u8>> {
        let b = self.inner.fill_buf()?.first().copied();
        if b.is_some() {
            self.inner.consume(1);
        }
        Ok(b)
    }

    /// The next `N` bytes, `None` when the stream ends before.
    fn bytes<const N: usize>(&mut self) -> io::Result<Option<[u8; N]>> {
        let mut out = [0u8; N];
        for b in &mut out {
            match self.byte()? {
                Some(x) => *b = x,
                None => return Ok(None),
            }
        }
        Ok(Some(out))
    }

    /// Reads a member's header (RFC 1952): `false` at the end of the
    /// stream, before the header of a member after the first.
    fn header(&mut self) -> io::Result<bool> {
        let short = || cut(" in a member's header", true);
        if self.members > 0 && self.inner.fill_buf()?.is_empty() {
            return Ok(false);
        }
        let not_gzip = || {
            let message = "the gzip stream ends with data after its last member that is not gzip: not read";
            CutShort { whole: true, message: message.to_string() }.into_io()
        };
        for id in [0x1f, 0x8b] {
            match self.byte()? {
                Some(b) if b == id => {}
                Some(_) => return Err(not_gzip()),
                None => return Err(short()),
            }
        }
        let Some(fixed) = self.bytes::<8>()? else { return Err(short()) };
        if fixed[0] != 8 {
            return Err(damaged(&format!("compression method {} is not deflate", fixed[0])));
        }
        let flags = fixed[1];
        if flags & 0xe0 != 0 {
            return Err(damaged("reserved header flags set"));
        }
        if flags & 4 != 0 {
            let Some(len) = self.bytes::<2>()? else { return Err(short()) };
            for _ in 0..u16::from_le_bytes(len) {
                self.byte()?.ok_or_else(short)?;
            }
        }
        // A name, then a comment, each ended by a zero byte.
        for flag in [8, 16] {
            if flags & flag != 0 {
                while self.byte()?.ok_or_else(short)? != 0 {}
            }
        }
        if flags & 2 != 0 {
            self.bytes::<2>()?.ok_or_else(short)?;
        }
        self.members += 1;
        Ok(true)
    }

    /// Reads a member's trailer: its data's CRC-32 and size.
    fn trailer(&mut self) -> io::Result<()> {
        let Some(trailer) = self.bytes::<8>()? else {
            return Err(cut(" in a member's trailer: its data is whole but not checked", true));
        };
        let crc = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
        let size = u32::from_le_bytes([trailer[4], trailer[5], trailer[6], trailer[7]]);
        if crc != self.crc.sum() || size != self.crc.amount() {
            return Err(damaged("a member's CRC-32 or size does not match its data"));
        }
        Ok(())
    }
}

impl<R: BufRead> Read for Gunzip<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match self.at {
                At::End => return Ok(0),
                At::Header => {
                    // (Ended first, so that an error is not met again.)
                    self.at = At::End;
                    if self.header()? {
                        self.inflate.reset(false);
                        self.crc.reset();
                        self.at = At::Data;
                    }
                }
                At::Trailer => {
                    self.at = At::End;
                    self.trailer()?;
                    self.at = At::Header;
                }
                At::Data => {
                    let input = self.inner.fill_buf()?;
                    let eof = input.is_empty();
                    let (before_in, before_out) = (self.inflate.total_in(), self.inflate.total_out());
                    let flush = if eof { FlushDecompress::Finish } else { FlushDecompress::None };
                    let status = self.inflate.decompress(input, buf, flush);
                    let consumed = (self.inflate.total_in() - before_in) as usize;
                    let read = (self.inflate.total_out() - before_out) as usize;
                    self.inner.consume(consumed);
                    self.crc.update(&buf[..read]);
                    match status {
                        Err(e) => {
                            self.at = At::End;
                            return Err(damaged(&format!("its compressed data: {e}")));
                        }
                        // The member's data ends: its trailer is read at the
                        // next call, after these bytes are handed on.
                        Ok(Status::StreamEnd) => self.at = At::Trailer,
                        Ok(_) if read == 0 && eof => {
                            self.at = At::End;
                            return Err(cut("", false));
                        }
                        Ok(_) => {}
                    }
                    if read > 0 {
                        return Ok(read);
                    }
                }
            }
        }
    }
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

    /// The data `open` gives of `data`, and the error it ends with.
    fn inflate(data: Vec<u8>) -> (Vec<u8>, Option<io::Error>) {
        let mut reader = open(std::io::Cursor::new(data)).unwrap();
        let (mut out, mut buf) = (Vec::new(), vec![0u8; 1000]);
        loop {
            match reader.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => return (out, Some(e)),
            }
        }
    }

    fn games(n: usize) -> String {
        (1..=n).map(|i| format!("[Event \"{i}\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n")).collect()
    }

    #[test]
    fn a_stream_cut_short_gives_its_data_up_to_the_cut_then_says_so() {
        let text = games(200);
        let data = gz(text.as_bytes());
        let n = data.len();
        for (at, whole) in [(n / 2, false), (n * 9 / 10, false), (n - 8, true), (n - 1, true), (5, true)] {
            let (out, e) = inflate(data[..at].to_vec());
            assert!(text.as_bytes().starts_with(&out), "cut at {at}");
            let e = e.unwrap_or_else(|| panic!("cut at {at}: no error"));
            assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
            let cut = CutShort::of(&e).unwrap_or_else(|| panic!("cut at {at}: {e}"));
            assert_eq!(cut.whole, whole, "cut at {at}: {e}");
            assert!(
                e.to_string().starts_with("the gzip stream is cut short (unexpected end of file)"),
                "{e}"
            );
            if whole && at > 10 {
                assert_eq!(out.len(), text.len(), "cut at {at}: all the data is there");
            }
        }
        // Members before a cut member are whole; data after the last member
        // that is not gzip is reported, after every member's data.
        let two = [gz(&text.as_bytes()[..5000]), gz(&text.as_bytes()[5000..])].concat();
        let (out, e) = inflate(two[..two.len() - 200].to_vec());
        assert!(out.len() >= 5000 && CutShort::of(&e.unwrap()).is_some_and(|c| !c.whole));
        let (out, e) = inflate([gz(text.as_bytes()), b"\0\0garbage".to_vec()].concat());
        assert_eq!(out, text.as_bytes());
        let e = e.unwrap();
        assert!(CutShort::of(&e).is_some_and(|c| c.whole), "{e}");
        assert!(e.to_string().contains("data after its last member that is not gzip"), "{e}");
    }

    #[test]
    fn the_games_before_a_cut_read_and_the_cut_is_an_error() {
        use crate::formats::stream;
        use crate::record::RecordBuilder;
        let text = games(200);
        let data = gz(text.as_bytes());
        let n = data.len();
        for at in [n / 2, n * 9 / 10, n - 8] {
            let (inflated, _) = inflate(data[..at].to_vec());
            let inflated = String::from_utf8_lossy(&inflated);
            // The games whole before the cut.
            let whole = inflated.matches("*\n").count();
            let source = open(std::io::Cursor::new(data[..at].to_vec())).unwrap();
            let mut records = Vec::new();
            let e =
                stream::read_stream_with(source, None, &mut RecordBuilder::default(), |r| records.push(r))
                    .unwrap_err();
            assert_eq!(records.len(), whole, "cut at {at} of {n}");
            assert!(records.iter().all(|r| r.unreadable().is_none() && r.tree().main_line().count() == 4));
            assert_eq!(records.last().and_then(|r| r.tag("Event")), Some(whole.to_string().as_str()));
            let message = e.to_string();
            assert!(
                message.starts_with("cannot read: the gzip stream is cut short (unexpected end of file)")
            );
            if at == n - 8 {
                assert_eq!(whole, 200);
                assert!(
                    message.ends_with("in a member's trailer: its data is whole but not checked"),
                    "{message}"
                );
            } else {
                let line = 4 * whole + 1;
                assert!(
                    message.ends_with(&format!("the game from line {line} on is cut and not read")),
                    "{message}"
                );
            }
        }
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

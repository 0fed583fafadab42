//! Reading a CBL library a record at a time, for
//! [`crate::formats::stream`]: the records, errors and offsets of
//! [`super::read_cbl`] on the whole file, in memory bounded by the largest
//! record.
//!
//! A plain library's header and index are read in pieces, keeping of each
//! used entry (state not 0) its number, state and length: 12 bytes, so the
//! index of a 1 GB library of 4 KB records costs 3 MB. The records are then
//! read slot by slot, in index order, the bytes between them skipped, each
//! by the function whole reading uses ([`super::cbl::read_slot`]), from its
//! own bytes and at its offset in the file. Whether a record goes past the
//! end of the file, and the file's length that the error names, is known
//! when the file ends: records lie in index order, so every record after
//! one that goes past the end does too. A record longer than
//! [`MAX_RECORD`] is not held: its bytes are skipped and it is unreadable
//! (read whole, it would be read; no real record comes near).
//!
//! A compressed library is inflated as it is read: its header, then each
//! game by its length, read by [`super::cbl_compressed::read_compressed_game`]
//! with its offset in the inflated data. What whole reading checks before
//! reading any game (that the zlib bytes can hold the declared length, that
//! the stream is not broken, that it holds the declared length) is known
//! here when the stream ends; the error is the same, with the same
//! precedence. The strings of the library header are held while they are
//! read (a few bytes in practice, at most the declared length).

use std::borrow::Cow;
use std::io::Read;

use crate::formats::tree::Game;

use super::cbl::{header_cut, index_cut, index_end, next_slot, past_the_end, read_slot};
use super::cbl_compressed::{
    self as compressed, Inflated, MAX_INFLATE_RATIO, STREAM_AT, check_declared, check_ratio, game_end,
    in_inflated_data, not_reached, read_compressed_game, read_library_header,
};
use super::cursor::truncated;
use super::layout::{ENTRY_LEN, INDEX_AT, LIBRARY_MAGIC, STATE_DELETED, STATE_UNUSED, is_compressed_library};
use super::u32_at;
use super::{CcbridgeError, CcbridgeErrorKind, Inflate, error};

/// Records of a plain library longer than this are not read (as lines of
/// text longer than [`crate::formats::stream::MAX_LINE`]).
pub(crate) const MAX_RECORD: usize = 16 << 20;

/// How many index entries are read at a time.
const ENTRIES_AT_ONCE: usize = 256;

/// A library read a record at a time (see the [module docs](self)).
pub(crate) struct LibraryReader<R> {
    kind: Kind<R>,
    compressed: bool,
}

enum Kind<R> {
    Plain(Plain<R>),
    /// A compressed library whose header is not read yet.
    CompressedHead(File<R>),
    Compressed(Box<Compressed<R>>),
    /// Read to its end, or stopped by a failure.
    Done,
}

/// Why a library cannot be read on.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The library cannot be read at all: the error of whole reading.
    Library(CcbridgeError),
    /// The input cannot be read.
    Io(std::io::Error),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        Failure::Io(e)
    }
}

/// A record of a library, not read yet: its bytes and where they are.
#[derive(Debug)]
pub(crate) struct Pending {
    place: Place,
    bytes: Vec<u8>,
}

#[derive(Debug)]
enum Place {
    /// The record of index entry `i` (at byte `entry`) of a plain library.
    Slot { i: usize, entry: usize, state: u32, start: usize },
    /// A game of a compressed library, at `start` in the inflated data.
    Game { start: usize },
    /// A record known to be unreadable without reading it.
    Failed(CcbridgeError),
}

impl Pending {
    fn failed(e: CcbridgeError) -> Pending {
        Pending { place: Place::Failed(e), bytes: Vec::new() }
    }

    /// Reads the record, as whole reading does.
    pub(crate) fn read(&self) -> Result<Game, CcbridgeError> {
        match &self.place {
            &Place::Slot { i, entry, state, start } => read_slot(&self.bytes, i, entry, state, start),
            &Place::Game { start } => read_compressed_game(&self.bytes, start).map_err(in_inflated_data),
            Place::Failed(e) => Err(e.clone()),
        }
    }

    /// About how much memory the record takes, for cutting chunks.
    pub(crate) fn size(&self) -> usize {
        self.bytes.len() + 64
    }
}

impl<R: Read> LibraryReader<R> {
    /// A reader of the library whose first bytes, `head`, were read from
    /// `source`; `None` when `head` does not start like a library.
    pub(crate) fn new(head: Vec<u8>, source: R) -> Option<LibraryReader<R>> {
        let compressed = is_compressed_library(&head);
        let plain = head.starts_with(LIBRARY_MAGIC);
        let file = File { head, at: 0, source, read: 0, failed: None };
        let kind = match (plain, compressed) {
            (true, _) => Kind::Plain(Plain { file, entries: None, slot_at: 0, len: None }),
            (_, true) => Kind::CompressedHead(file),
            _ => return None,
        };
        Some(LibraryReader { kind, compressed })
    }

    /// Whether the library may still fail as a whole after records were
    /// handed on (a compressed library's stream is checked at its end).
    pub(crate) fn checked_at_end(&self) -> bool {
        self.compressed
    }

    /// The next record, `None` after the last one.
    ///
    /// # Errors
    ///
    /// A [`Failure`] when the library cannot be read on: then `None`.
    pub(crate) fn next(&mut self) -> Result<Option<Pending>, Failure> {
        if matches!(self.kind, Kind::CompressedHead(_))
            && let Kind::CompressedHead(file) = std::mem::replace(&mut self.kind, Kind::Done)
        {
            self.kind = Kind::Compressed(Box::new(Compressed::open(file)?));
        }
        let next = match &mut self.kind {
            Kind::Plain(plain) => plain.next(),
            Kind::Compressed(c) => c.next(),
            Kind::CompressedHead(_) | Kind::Done => Ok(None),
        };
        if !matches!(next, Ok(Some(_))) {
            self.kind = Kind::Done;
        }
        next
    }
}

/// The bytes of a file: its head, already read, then the rest of its
/// source. Counts the bytes read, and keeps the first error of the source.
struct File<R> {
    head: Vec<u8>,
    at: usize,
    source: R,
    /// The bytes read: the file's length once it ends.
    read: usize,
    failed: Option<std::io::Error>,
}

impl<R: Read> Read for File<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = if self.at < self.head.len() {
            let n = buf.len().min(self.head.len() - self.at);
            buf[..n].copy_from_slice(&self.head[self.at..self.at + n]);
            self.at += n;
            if self.at == self.head.len() {
                self.head = Vec::new();
                self.at = 0;
            }
            n
        } else {
            match self.source.read(buf) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => return Err(e),
                Err(e) => {
                    let kind = e.kind();
                    self.failed.get_or_insert(e);
                    return Err(std::io::Error::new(kind, "the input cannot be read"));
                }
            }
        };
        self.read += n;
        Ok(n)
    }
}

impl<R: Read> File<R> {
    /// Reads up to `n` bytes onto `buf`: whether all `n` were there.
    fn fill(&mut self, n: usize, buf: &mut Vec<u8>) -> Result<bool, Failure> {
        let got = self.by_ref().take(n as u64).read_to_end(buf);
        let got = got.map_err(|e| self.failed.take().unwrap_or(e))?;
        Ok(got == n)
    }

    /// Skips up to `n` bytes: whether all `n` were there.
    fn skip(&mut self, n: usize) -> Result<bool, Failure> {
        let got = std::io::copy(&mut self.by_ref().take(n as u64), &mut std::io::sink());
        let got = got.map_err(|e| self.failed.take().unwrap_or(e))?;
        Ok(got == n as u64)
    }
}

/// A used entry of a plain library's index.
struct Entry {
    i: u32,
    state: u32,
    length: u32,
}

/// A plain library being read.
struct Plain<R> {
    file: File<R>,
    /// The used entries of the index, once it is read.
    entries: Option<std::vec::IntoIter<Entry>>,
    /// Where the slots of the next entry start.
    slot_at: usize,
    /// The file's length, once its end is reached.
    len: Option<usize>,
}

impl<R: Read> Plain<R> {
    /// Reads the header and the index, keeping the used entries.
    fn read_index(&mut self) -> Result<Vec<Entry>, Failure> {
        let library = |e: CcbridgeError| Failure::Library(e);
        let file = &mut self.file;
        let mut bytes = Vec::with_capacity(ENTRY_LEN * ENTRIES_AT_ONCE);
        if !file.fill(64, &mut bytes)? {
            return header_cut(file.read).map_err(library);
        }
        let capacity = u32_at(&bytes, 60).expect("64 bytes read");
        let Some(end) = index_end(capacity) else {
            while file.skip(1 << 20)? {}
            return index_cut(capacity, file.read).map_err(library);
        };
        if !file.skip(INDEX_AT - 64)? {
            return index_cut(capacity, file.read).map_err(library);
        }
        let mut entries = Vec::new();
        let mut i = 0;
        while i < capacity as usize {
            let n = (capacity as usize - i).min(ENTRIES_AT_ONCE);
            bytes.clear();
            if !file.fill(n * ENTRY_LEN, &mut bytes)? {
                return index_cut(capacity, file.read).map_err(library);
            }
            for entry in bytes.chunks_exact(ENTRY_LEN) {
                let state = u32_at(entry, 0).expect("an entry");
                if state != STATE_UNUSED {
                    let length = u32_at(entry, 12).expect("an entry");
                    entries.push(Entry { i: i as u32, state, length });
                }
                i += 1;
            }
        }
        self.slot_at = end;
        Ok(entries)
    }

    fn next(&mut self) -> Result<Option<Pending>, Failure> {
        if self.entries.is_none() {
            self.entries = Some(self.read_index()?.into_iter());
        }
        let entries = self.entries.as_mut().expect("read above");
        for Entry { i, state, length } in entries.by_ref() {
            let (i, length) = (i as usize, length as usize);
            let entry = INDEX_AT + i * ENTRY_LEN;
            let start = self.slot_at;
            self.slot_at = next_slot(start, length);
            if state == STATE_DELETED {
                continue;
            }
            let file = &mut self.file;
            let mut bytes = Vec::new();
            let there = self.len.is_none()
                && file.skip(start.saturating_sub(file.read))?
                && if length > MAX_RECORD { file.skip(length)? } else { file.fill(length, &mut bytes)? };
            let failed = if !there {
                let len = *self.len.get_or_insert(file.read);
                past_the_end(i, entry, start, length, len)
            } else if length > MAX_RECORD {
                let kind = CcbridgeErrorKind::TooLong { entry: i, len: length, max: MAX_RECORD };
                CcbridgeError { offset: start, in_inflated_data: false, kind }
            } else {
                return Ok(Some(Pending { place: Place::Slot { i, entry, state, start }, bytes }));
            };
            return Ok(Some(Pending::failed(failed)));
        }
        Ok(None)
    }
}

/// A compressed library being read.
struct Compressed<R> {
    stream: Stream<R>,
    stage: Stage,
    /// The error of the library header, told once the stream is checked
    /// (a broken stream comes first, as in whole reading).
    header_error: Option<CcbridgeError>,
}

/// Where the reading of a compressed library's games is.
#[derive(Clone, Copy)]
enum Stage {
    Header,
    /// Game `next` of `count` comes next.
    Games {
        next: usize,
        count: usize,
    },
    /// The length of game `cut` (at `start`) is unusable: games `next` to
    /// `count` are not reached.
    NotReached {
        next: usize,
        count: usize,
        cut: usize,
        start: usize,
    },
    /// Every game is read: the stream is checked.
    End,
}

/// The inflated data of a compressed library, read as it is inflated.
struct Stream<R> {
    decoder: std::io::Take<flate2::read::ZlibDecoder<File<R>>>,
    declared_len: usize,
    /// The inflated bytes read.
    offset: usize,
    /// The error of the zlib stream, once it failed.
    broken: Option<std::io::Error>,
    /// The inflated data ended before the bytes asked for.
    short: bool,
}

impl<R: Read> Stream<R> {
    /// Reads `n` bytes onto `buf`; false when the stream failed or ended
    /// first.
    fn fill(&mut self, n: usize, buf: &mut Vec<u8>) -> Result<bool, Failure> {
        let before = buf.len();
        let got = self.decoder.by_ref().take(n as u64).read_to_end(buf);
        self.offset += buf.len() - before;
        if let Some(e) = self.decoder.get_mut().get_mut().failed.take() {
            return Err(Failure::Io(e));
        }
        match got {
            Ok(got) if got == n => Ok(true),
            Ok(_) => {
                self.short = true;
                Ok(false)
            }
            Err(e) => {
                self.broken = Some(e);
                Ok(false)
            }
        }
    }

    /// Whether the stream failed or ended early.
    fn failed(&self) -> bool {
        self.broken.is_some() || self.short
    }
}

impl<R: Read> Inflated for Stream<R> {
    fn offset(&self) -> usize {
        self.offset
    }

    fn left(&self) -> usize {
        self.declared_len.saturating_sub(self.offset)
    }

    fn take(&mut self, n: usize, what: &'static str) -> Result<Cow<'_, [u8]>, CcbridgeError> {
        if n > self.left() {
            return truncated(self.offset, what, n, self.left());
        }
        let mut bytes = Vec::new();
        // A failure of the stream or of the input is told by the caller.
        match self.fill(n, &mut bytes) {
            Ok(true) => Ok(Cow::Owned(bytes)),
            Ok(false) => error(self.offset, Inflate::Failed),
            Err(Failure::Io(e)) => {
                self.decoder.get_mut().get_mut().failed = Some(e);
                error(self.offset, Inflate::InputFailed)
            }
            Err(Failure::Library(e)) => Err(e),
        }
    }
}

impl<R: Read> Compressed<R> {
    /// Reads the 20 bytes of the file header and starts inflating.
    fn open(mut file: File<R>) -> Result<Compressed<R>, Failure> {
        let mut header = Vec::with_capacity(STREAM_AT);
        if !file.fill(STREAM_AT, &mut header)? {
            return compressed::header_cut(file.read).map_err(Failure::Library);
        }
        let declared =
            check_declared(u32_at(&header, 16).expect("20 bytes read")).map_err(Failure::Library)?;
        let decoder = flate2::read::ZlibDecoder::new(file).take(declared as u64 + 1);
        Ok(Compressed {
            stream: Stream { decoder, declared_len: declared, offset: 0, broken: None, short: false },
            stage: Stage::Header,
            header_error: None,
        })
    }

    /// The input's failure, if it failed.
    fn input_failed(&mut self) -> Result<(), Failure> {
        match self.stream.decoder.get_mut().get_mut().failed.take() {
            Some(e) => Err(Failure::Io(e)),
            None => Ok(()),
        }
    }

    fn next(&mut self) -> Result<Option<Pending>, Failure> {
        loop {
            match self.stage {
                Stage::Header => {
                    let header = read_library_header(&mut self.stream);
                    self.input_failed()?;
                    match header {
                        Ok(count) => self.stage = Stage::Games { next: 0, count },
                        Err(e) => {
                            if !self.stream.failed() {
                                self.header_error = Some(in_inflated_data(e));
                            }
                            self.stage = Stage::End;
                        }
                    }
                }
                Stage::Games { next, count } if next < count => {
                    let start = self.stream.offset;
                    let mut bytes = Vec::with_capacity(4);
                    let length = if self.stream.left() >= 4 {
                        if !self.stream.fill(4, &mut bytes)? {
                            self.stage = Stage::End;
                            continue;
                        }
                        u32_at(&bytes, 0).map(|n| n as usize)
                    } else {
                        None
                    };
                    match game_end(next, start, length, self.stream.declared_len) {
                        Ok(end) => {
                            if !self.stream.fill(end - start - 4, &mut bytes)? {
                                self.stage = Stage::End;
                                continue;
                            }
                            self.stage = Stage::Games { next: next + 1, count };
                            return Ok(Some(Pending { place: Place::Game { start }, bytes }));
                        }
                        Err(e) => {
                            self.stage = Stage::NotReached { next: next + 1, count, cut: next, start };
                            return Ok(Some(Pending::failed(in_inflated_data(e))));
                        }
                    }
                }
                Stage::NotReached { next, count, cut, start } if next < count => {
                    self.stage = Stage::NotReached { next: next + 1, count, cut, start };
                    return Ok(Some(Pending::failed(in_inflated_data(not_reached(next, cut, start)))));
                }
                Stage::Games { .. } | Stage::NotReached { .. } => self.stage = Stage::End,
                Stage::End => return self.check().map(|()| None),
            }
        }
    }

    /// Checks the stream at its end, as whole reading does before reading
    /// any game: the zlib bytes can hold the declared length, the stream
    /// is not broken, it holds the declared length; then the library
    /// header.
    fn check(&mut self) -> Result<(), Failure> {
        let stream = &mut self.stream;
        if !stream.failed() {
            // What is left, up to one byte more than declared.
            let mut rest = Vec::new();
            while stream.fill(64 << 10, &mut rest)? {
                rest.clear();
            }
        }
        let declared = stream.declared_len;
        let failure = match stream.broken.take() {
            Some(e) => compressed::broken::<()>(&e),
            None if stream.offset != declared => compressed::other_length::<()>(declared, stream.offset),
            None => return self.header_error.take().map_or(Ok(()), |e| Err(Failure::Library(e))),
        };
        // The zlib bytes are read up to what can hold the declared length
        // (a stream that inflates to it is that long: zlib inflates at most
        // MAX_INFLATE_RATIO bytes a byte), or to the end of the file.
        let needed = declared.saturating_sub(64).div_ceil(MAX_INFLATE_RATIO) + STREAM_AT;
        let file = stream.decoder.get_mut().get_mut();
        if file.read < needed {
            file.skip(needed - file.read)?;
        }
        check_ratio(declared, file.read - STREAM_AT).map_err(Failure::Library)?;
        failure.map_err(Failure::Library)
    }
}

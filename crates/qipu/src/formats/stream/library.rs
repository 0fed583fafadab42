//! Cutting a CBL library into chunks of whole records (see the [module
//! docs](super)).

use std::collections::VecDeque;

use crate::formats::ccbridge::cbl_stream::{Failure, LibraryReader, Pending};
use crate::formats::detect::Format;
use crate::formats::read::unreadable_record;
use crate::formats::{Unreadable, UnreadableReason};
use crate::record::Visitor;

use super::cannot_read;

/// While a library may still fail as a whole (a compressed library's
/// stream is checked at its end), its records are held up to this many
/// pieces before the first chunk is handed on: a library of up to 8 MB
/// of records reads exactly as whole reading, which then gives no record.
const HOLD_PIECES: usize = 32;

/// Cuts a library into chunks of records as it is read.
pub(super) struct LibraryChunks<R> {
    reader: LibraryReader<R>,
    /// Records read and not yet in a chunk.
    held: VecDeque<Pending>,
    held_size: usize,
    piece_size: usize,
    /// A chunk was handed on.
    handed: bool,
    /// No record comes after those held.
    ended: bool,
    /// Why the library cannot be read on, told after the records held.
    failure: Option<Unreadable>,
}

impl<R> std::fmt::Debug for LibraryChunks<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LibraryChunks").field("held", &self.held.len()).field("ended", &self.ended).finish()
    }
}

/// Records of a library, each read alone as in the whole library.
#[derive(Debug)]
pub(super) struct LibraryChunk {
    records: Vec<Pending>,
}

impl<R: std::io::Read> LibraryChunks<R> {
    /// Chunks of the library whose first bytes, `head`, were read from
    /// `source`; `None` when `head` does not start like a library.
    pub(super) fn new(head: Vec<u8>, source: R, piece_size: usize) -> Option<LibraryChunks<R>> {
        Some(LibraryChunks {
            reader: LibraryReader::new(head, source)?,
            held: VecDeque::new(),
            held_size: 0,
            piece_size: piece_size.max(1),
            handed: false,
            ended: false,
            failure: None,
        })
    }

    /// The next chunk: about a piece's worth of records, or the rest.
    pub(super) fn next_chunk(&mut self) -> Result<Option<LibraryChunk>, Unreadable> {
        let want = if !self.handed && self.reader.checked_at_end() {
            self.piece_size.saturating_mul(HOLD_PIECES)
        } else {
            self.piece_size
        };
        while !self.ended && self.held_size < want {
            match self.reader.next() {
                Ok(Some(record)) => {
                    self.held_size += record.size();
                    self.held.push_back(record);
                }
                Ok(None) => self.ended = true,
                Err(failure) => {
                    self.ended = true;
                    let e = match failure {
                        Failure::Library(e) => {
                            Unreadable::damaged(Format::Cbl, UnreadableReason::Ccbridge(e))
                        }
                        Failure::Io(e) => cannot_read(e),
                    };
                    if !self.handed {
                        // As whole reading: no record of a library that
                        // cannot be read.
                        self.held.clear();
                        return Err(e);
                    }
                    self.failure = Some(e);
                }
            }
        }
        if self.held.is_empty() {
            return self.failure.take().map_or(Ok(None), Err);
        }
        let mut records = Vec::new();
        let mut size = 0;
        while size < self.piece_size
            && let Some(record) = self.held.pop_front()
        {
            size += record.size();
            records.push(record);
        }
        self.held_size -= size;
        self.handed = true;
        Ok(Some(LibraryChunk { records }))
    }
}

impl LibraryChunk {
    /// How many bytes of records the chunk holds.
    pub(super) fn len(&self) -> usize {
        self.records.iter().map(Pending::size).sum()
    }

    /// Whether the chunk holds no record.
    pub(super) fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Reads the chunk's records with `visitor`: a record that cannot be
    /// read is an unreadable game, with its place (as in whole reading).
    pub(super) fn read_with<V: Visitor>(&self, visitor: &mut V, mut each: impl FnMut(V::Output, bool)) {
        for pending in &self.records {
            let game = pending.read().unwrap_or_else(unreadable_record);
            each(game.tell(visitor), true);
        }
    }
}

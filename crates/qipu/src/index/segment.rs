//! A segment of an index: the games of one build, in six files
//! (`seg-N.games`, `.firsts`, `.moves`, `.keys`, `.tags`, `.dict`), each starting
//! with an 8-byte tag naming it; numbers are little-endian.
//!
//! - `games`: a record of [`GAME_BYTES`] bytes a line ([`GameRecord`]),
//!   read when a game is asked for. A game is its main line's record,
//!   followed (in an index of all lines) by one record for each of its
//!   variations, numbered 1, 2, 3 … in the order the game's record gives
//!   them: the record `n` places after the main line's is variation `n`.
//! - `firsts`: the reference of each line's start (4 bytes a line), the
//!   only part read when the segment opens.
//! - `moves`: every line's moves one after another, two bytes a move
//!   (`from * 128 + to`, point indexes): line `g`'s start at
//!   `first(g) - g`, since each line has one position more than moves. A
//!   variation's moves are those from the start of the game: the moves of
//!   the lines it lies in up to where it branches, then its own, so that
//!   it replays alone.
//! - `keys`: the position index. Every position of every line is a
//!   *reference* (`first(g) + ply`); those with a key are the main line's
//!   and a variation's own (after it branches; those before it are the
//!   positions of the lines it lies in). The references sorted by key, in
//!   buckets by the key's top `bits` bits: a header (`bits`, the count),
//!   the table of bucket starts (`2^bits + 1` numbers of 4 bytes), then
//!   the low 32 bits of each key, then each reference (4 bytes each). A
//!   lookup reads two numbers of the table and one bucket (16 to 32
//!   entries): 8 bytes a position, and `bits` is chosen so that the table
//!   costs at most a quarter of a byte more.
//! - `tags` and `dict`: each game's start FEN and tags, after their
//!   length (4 bytes), tags met before written as their number in the
//!   dictionary (see [`super::tags`]).
//!
//! Built in one pass, in bounded memory: the (key, reference) pairs go to
//! 256 spill files by their key's top byte, each sorted alone at the end.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::follow::Line;
use super::manifest::SegmentEntry;
use super::tags::{Dictionary, StartAndTags, TagWriter};
use crate::record::replay::Termination;
use crate::{Move, Square};

/// The bytes of a game's record in `seg-N.games`.
pub(crate) const GAME_BYTES: usize = 32;

/// The tag at the start of each file.
const GAMES_TAG: &[u8; 8] = b"QIDXGAM1";
const MOVES_TAG: &[u8; 8] = b"QIDXMOV1";
const KEYS_TAG: &[u8; 8] = b"QIDXKEY1";
const TAGS_TAG: &[u8; 8] = b"QIDXTAG1";
const FIRSTS_TAG: &[u8; 8] = b"QIDXFST1";
/// The bytes of the header of `seg-N.keys`: tag, bits, spare, count.
const KEYS_HEADER: u64 = 24;

/// The most positions a segment holds: references are 4 bytes.
pub(crate) const MAX_POSITIONS: u64 = u32::MAX as u64;

/// How a line of a game is held in a segment (see the [module docs](self)).
///
/// Bytes: `first` 0..4, `source` 4..8, `index` 8..12, `tags_at` 12..20,
/// `result` 20, `status` 21, `flags` 22, `ending` 23, then for a main line `year`
/// 24..26 and `elo` 26..30; for a variation `branch` 24..28 (its year and
/// Elo are its main line's); `line` 30..32. An index of
/// main lines only has `line` 0 everywhere.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct GameRecord {
    /// The reference of its start position.
    pub(crate) first: u32,
    /// The source it was read from (its number in the manifest).
    pub(crate) source: u32,
    /// Its number in that source, from 0.
    pub(crate) index: u32,
    /// Where its tags start in `seg-N.tags`.
    pub(crate) tags_at: u64,
    /// Its result: 0 unknown, 1 Red wins, 2 Black wins, 3 draw.
    pub(crate) result: u8,
    /// 0 valid, 1 illegal (its positions stop before the wrong move).
    pub(crate) status: u8,
    /// Bit 0: it starts from another position than the standard start.
    pub(crate) flags: u8,
    /// The year of its date, 0 when unknown.
    pub(crate) year: u16,
    /// Red's and Black's Elo, 0 when unknown.
    pub(crate) elo: [u16; 2],
    /// How the game's main line ends, as the rules judge it: 0 when it
    /// ends otherwise (or the index was made before this was held), else
    /// 1 + the termination's place in [`Termination::ALL`](crate::record::replay::Termination::ALL).
    pub(crate) ending: u8,
    /// 0 for the main line; `n` for the game's variation `n`.
    pub(crate) line: u16,
    /// A variation's: the ply of the position it branches from (its
    /// positions with a key are those after it).
    pub(crate) branch: u32,
}

impl GameRecord {
    /// The `ending` byte of a game ending in `termination`.
    pub(crate) fn ending_of(termination: Option<Termination>) -> u8 {
        termination.and_then(|t| Termination::ALL.iter().position(|&k| k == t)).map_or(0, |k| k as u8 + 1)
    }

    /// How the game ends, as its `ending` byte tells ([`GameRecord::ending_of`]).
    pub(crate) fn termination(&self) -> Option<Termination> {
        usize::from(self.ending).checked_sub(1).and_then(|k| Termination::ALL.get(k).copied())
    }

    fn bytes(&self) -> [u8; GAME_BYTES] {
        let mut b = [0u8; GAME_BYTES];
        b[0..4].copy_from_slice(&self.first.to_le_bytes());
        b[4..8].copy_from_slice(&self.source.to_le_bytes());
        b[8..12].copy_from_slice(&self.index.to_le_bytes());
        b[12..20].copy_from_slice(&self.tags_at.to_le_bytes());
        b[20] = self.result;
        b[21] = self.status;
        b[22] = self.flags;
        b[23] = self.ending;
        if self.line == 0 {
            b[24..26].copy_from_slice(&self.year.to_le_bytes());
            b[26..28].copy_from_slice(&self.elo[0].to_le_bytes());
            b[28..30].copy_from_slice(&self.elo[1].to_le_bytes());
        } else {
            b[24..28].copy_from_slice(&self.branch.to_le_bytes());
        }
        b[30..32].copy_from_slice(&self.line.to_le_bytes());
        b
    }

    fn from_bytes(b: &[u8]) -> GameRecord {
        let u32_at = |k: usize| u32::from_le_bytes(b[k..k + 4].try_into().expect("4 bytes"));
        let u16_at = |k: usize| u16::from_le_bytes(b[k..k + 2].try_into().expect("2 bytes"));
        let line = u16_at(30);
        let main = line == 0;
        GameRecord {
            first: u32_at(0),
            source: u32_at(4),
            index: u32_at(8),
            tags_at: u64::from_le_bytes(b[12..20].try_into().expect("8 bytes")),
            result: b[20],
            status: b[21],
            flags: b[22],
            ending: b[23],
            year: if main { u16_at(24) } else { 0 },
            elo: if main { [u16_at(26), u16_at(28)] } else { [0, 0] },
            line,
            branch: if main { 0 } else { u32_at(24) },
        }
    }
}

/// A move as two bytes.
pub(crate) fn pack(m: Move) -> u16 {
    (m.from.index() as u16) << 7 | m.to.index() as u16
}

/// The move of two bytes, if they are one.
pub(crate) fn unpack(code: u16) -> Option<Move> {
    let from = Square::from_index(usize::from(code >> 7))?;
    let to = Square::from_index(usize::from(code & 0x7f))?;
    Some(Move::new(from, to))
}

/// The files of a segment, by their kinds.
pub(crate) const KINDS: [&str; 6] = ["games", "firsts", "moves", "keys", "tags", "dict"];

/// The file `seg-N.KIND` of the index `dir`.
pub(crate) fn file_name(dir: &Path, number: u32, kind: &str) -> PathBuf {
    dir.join(format!("seg-{number}.{kind}"))
}

/// What the builder hands a segment of each game.
pub(crate) struct GameData<'a> {
    pub(crate) record: GameRecord,
    /// Its start FEN, when it is not the standard start.
    pub(crate) start: Option<&'a str>,
    /// Its tags.
    pub(crate) tags: &'a [(String, String)],
    pub(crate) line: &'a Line,
    /// Whether its variations are written too.
    pub(crate) all_lines: bool,
}

/// What a game added to a segment holds: its lines and positions.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Added {
    /// The variations written.
    pub(crate) variations: u64,
    /// The positions with a key: the main line's and the variations' own.
    pub(crate) positions: u64,
    /// The positions of the variations' own moves.
    pub(crate) variation_positions: u64,
}

/// A segment being written.
#[derive(Debug)]
pub(crate) struct SegmentWriter {
    dir: PathBuf,
    number: u32,
    games: BufWriter<File>,
    firsts: BufWriter<File>,
    moves: BufWriter<File>,
    tags: BufWriter<File>,
    tags_len: u64,
    /// The tags' dictionary (until the segment is finished).
    dict: Option<TagWriter>,
    /// A game's tags, encoded.
    blob: Vec<u8>,
    spills: Vec<BufWriter<File>>,
    /// The lines (records) written.
    game_count: u64,
    /// The positions with a key.
    positions: u64,
    /// The positions of every line from its start (the references).
    references: u64,
}

/// The name a file has while it is written.
fn partial(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

fn create(path: &Path, tag: &[u8; 8]) -> io::Result<BufWriter<File>> {
    let mut w = BufWriter::with_capacity(1 << 16, File::create(path)?);
    w.write_all(tag)?;
    Ok(w)
}

impl SegmentWriter {
    /// Starts segment `number` in `dir`.
    pub(crate) fn create(dir: &Path, number: u32) -> io::Result<SegmentWriter> {
        let name = |kind| partial(&file_name(dir, number, kind));
        let spills = (0..256)
            .map(|k| Ok(BufWriter::with_capacity(1 << 15, File::create(spill_name(dir, number, k))?)))
            .collect::<io::Result<Vec<_>>>()?;
        Ok(SegmentWriter {
            dir: dir.to_path_buf(),
            number,
            games: create(&name("games"), GAMES_TAG)?,
            firsts: create(&name("firsts"), FIRSTS_TAG)?,
            moves: create(&name("moves"), MOVES_TAG)?,
            tags: create(&name("tags"), TAGS_TAG)?,
            tags_len: TAGS_TAG.len() as u64,
            dict: Some(TagWriter::new(File::create(name("dict"))?)?),
            blob: Vec::new(),
            spills,
            game_count: 0,
            positions: 0,
            references: 0,
        })
    }

    /// Whether a game of `references` more positions (counted from the
    /// start of each of its lines) fits.
    pub(crate) fn fits(&self, references: u64) -> bool {
        self.references + references <= MAX_POSITIONS
    }

    /// Adds a game (it must [`fit`](Self::fits)): its main line, then,
    /// with `all_lines`, each of its variations as one more record.
    pub(crate) fn add(&mut self, game: GameData<'_>) -> io::Result<Added> {
        let mut record = game.record;
        record.tags_at = self.tags_len;
        self.blob.clear();
        let dict = self.dict.as_mut().ok_or_else(|| io::Error::other("the segment is finished"))?;
        dict.encode(game.start, game.tags, &mut self.blob)?;
        let len = u32::try_from(self.blob.len()).map_err(|_| io::Error::other("a game's tags over 4 GB"))?;
        self.tags.write_all(&len.to_le_bytes())?;
        self.tags.write_all(&self.blob)?;
        self.tags_len += 4 + self.blob.len() as u64;
        // The moves that replayed have a position each after the start.
        debug_assert_eq!(game.line.keys.len(), game.line.moves.len() + 1);
        self.add_line(record, &game.line.moves, &game.line.keys, 0)?;
        let mut added = Added { positions: game.line.keys.len() as u64, ..Added::default() };
        if !game.all_lines {
            return Ok(added);
        }
        for (k, variation) in game.line.variations.iter().enumerate() {
            // A variation whose moves the lines above do not hold (none
            // such is made) is left out, the numbers kept in a row.
            let Some(path) = game.line.path(k + 1) else { continue };
            added.variations += 1;
            let line =
                u16::try_from(added.variations).map_err(|_| io::Error::other("too many variations"))?;
            let own = GameRecord { line, branch: variation.branch, year: 0, elo: [0, 0], ..record };
            self.add_line(own, &path, &variation.keys, variation.branch as usize + 1)?;
            added.variation_positions += variation.keys.len() as u64;
        }
        added.positions += added.variation_positions;
        Ok(added)
    }

    /// Writes a line's record and moves, and the keys of its positions
    /// from ply `keyed_from` on (`keys[0]` is that ply's).
    fn add_line(
        &mut self,
        mut record: GameRecord,
        moves: &[Move],
        keys: &[u64],
        keyed_from: usize,
    ) -> io::Result<()> {
        record.first = u32::try_from(self.references).map_err(|_| too_many())?;
        self.games.write_all(&record.bytes())?;
        self.firsts.write_all(&record.first.to_le_bytes())?;
        for &m in moves {
            self.moves.write_all(&pack(m).to_le_bytes())?;
        }
        for (k, &key) in keys.iter().enumerate() {
            let reference =
                u32::try_from(u64::from(record.first) + (keyed_from + k) as u64).map_err(|_| too_many())?;
            let spill = &mut self.spills[(key >> 56) as usize];
            spill.write_all(&key.to_le_bytes())?;
            spill.write_all(&reference.to_le_bytes())?;
        }
        self.positions += keys.len() as u64;
        self.references += moves.len() as u64 + 1;
        self.game_count += 1;
        Ok(())
    }

    /// Sorts the keys, writes the last files and names them: the
    /// segment's entry in the manifest.
    pub(crate) fn finish(mut self) -> io::Result<SegmentEntry> {
        for w in [&mut self.games, &mut self.firsts, &mut self.moves, &mut self.tags] {
            w.flush()?;
        }
        for spill in &mut self.spills {
            spill.flush()?;
        }
        self.dict.take().map(TagWriter::finish).transpose()?;
        drop(std::mem::take(&mut self.spills));
        self.write_keys()?;
        for kind in KINDS {
            let path = file_name(&self.dir, self.number, kind);
            std::fs::rename(partial(&path), &path)?;
        }
        Ok(SegmentEntry { number: self.number, games: self.game_count, positions: self.positions })
    }

    /// Writes `seg-N.keys` from the spill files (and removes them).
    fn write_keys(&self) -> io::Result<()> {
        let count = self.positions;
        let bits = bucket_bits(count);
        let mut starts = vec![0u32; (1usize << bits) + 1];
        let refs_path = partial(&file_name(&self.dir, self.number, "refs"));
        let keys_path = partial(&file_name(&self.dir, self.number, "keys"));
        let mut keys = BufWriter::with_capacity(1 << 16, File::create(&keys_path)?);
        keys.write_all(KEYS_TAG)?;
        keys.write_all(&bits.to_le_bytes())?;
        keys.write_all(&0u32.to_le_bytes())?;
        keys.write_all(&count.to_le_bytes())?;
        // The table is written last, over these zeros.
        for _ in 0..starts.len() {
            keys.write_all(&0u32.to_le_bytes())?;
        }
        let mut refs = BufWriter::with_capacity(1 << 16, File::create(&refs_path)?);
        let mut pairs: Vec<(u64, u32)> = Vec::new();
        for k in 0..256 {
            let path = spill_name(&self.dir, self.number, k);
            let mut bytes = Vec::new();
            File::open(&path)?.read_to_end(&mut bytes)?;
            std::fs::remove_file(&path)?;
            pairs.clear();
            pairs.extend(bytes.chunks_exact(12).map(|c| {
                let key = u64::from_le_bytes(c[..8].try_into().expect("8 bytes"));
                (key, u32::from_le_bytes(c[8..].try_into().expect("4 bytes")))
            }));
            drop(bytes);
            pairs.sort_unstable();
            for &(key, reference) in &pairs {
                starts[bucket(key, bits) + 1] += 1;
                keys.write_all(&(key as u32).to_le_bytes())?;
                refs.write_all(&reference.to_le_bytes())?;
            }
        }
        refs.flush()?;
        drop(refs);
        let mut refs = BufReader::new(File::open(&refs_path)?);
        io::copy(&mut refs, &mut keys)?;
        drop(refs);
        std::fs::remove_file(&refs_path)?;
        for k in 1..starts.len() {
            starts[k] += starts[k - 1];
        }
        let mut file = keys.into_inner().map_err(|e| e.into_error())?;
        use std::io::{Seek, SeekFrom};
        file.seek(SeekFrom::Start(KEYS_HEADER))?;
        let mut table = BufWriter::new(file);
        for start in &starts {
            table.write_all(&start.to_le_bytes())?;
        }
        table.flush()
    }
}

fn too_many() -> io::Error {
    io::Error::other("a segment holds at most 4,294,967,295 positions")
}

fn spill_name(dir: &Path, number: u32, k: usize) -> PathBuf {
    dir.join(format!("seg-{number}.spill-{k:02x}"))
}

/// The bits of the bucket table for `count` positions: 16 to 32 a bucket
/// (a table of 0.13 to 0.25 bytes a position; a lookup reads 64 to 128
/// bytes of keys).
fn bucket_bits(count: u64) -> u32 {
    let mut bits = 0;
    while bits < 26 && (count >> bits) > 32 {
        bits += 1;
    }
    bits
}

/// The bucket of `key` in a table of `bits` bits.
fn bucket(key: u64, bits: u32) -> usize {
    if bits == 0 { 0 } else { (key >> (64 - bits)) as usize }
}

/// Reads `buf.len()` bytes of `file` at `offset`.
fn read_at(file: &File, offset: u64, buf: &mut [u8]) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        let mut done = 0;
        while done < buf.len() {
            let n = std::os::windows::fs::FileExt::seek_read(file, &mut buf[done..], offset + done as u64)?;
            if n == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            done += n;
        }
        Ok(())
    }
}

/// A segment open for reading.
#[derive(Debug)]
pub(crate) struct Segment {
    /// The reference of each line's start, in order.
    firsts: Vec<u32>,
    /// Its positions with a key.
    pub(crate) positions: u64,
    /// The positions of its lines, each from its start (one more than
    /// the moves of each line).
    references: u64,
    games: File,
    keys: File,
    bits: u32,
    moves: File,
    tags: File,
    /// The tags' dictionary, read when tags are first asked for.
    dict: std::sync::OnceLock<Result<Dictionary, String>>,
    /// Its file's path.
    dict_path: PathBuf,
}

impl Segment {
    /// Opens segment `entry` of the index `dir`: reads where its games
    /// start (4 bytes a game), nothing else.
    pub(crate) fn open(dir: &Path, entry: &SegmentEntry) -> io::Result<Segment> {
        let open = |kind: &str, tag: &[u8; 8]| -> io::Result<File> {
            let path = file_name(dir, entry.number, kind);
            let file = File::open(&path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            let mut head = [0u8; 8];
            read_at(&file, 0, &mut head)
                .and_then(|()| {
                    if &head == tag {
                        Ok(())
                    } else {
                        Err(io::Error::new(io::ErrorKind::InvalidData, "not an index file"))
                    }
                })
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            Ok(file)
        };
        let games = open("games", GAMES_TAG)?;
        let firsts_file = open("firsts", FIRSTS_TAG)?;
        let keys = open("keys", KEYS_TAG)?;
        let moves = open("moves", MOVES_TAG)?;
        let move_count = moves.metadata()?.len().saturating_sub(8) / 2;
        let tags = open("tags", TAGS_TAG)?;
        let mut bytes = Vec::new();
        BufReader::new(firsts_file).read_to_end(&mut bytes)?;
        let firsts: Vec<u32> =
            bytes[8..].chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
        let mut head = [0u8; 16];
        read_at(&keys, 8, &mut head)?;
        let bits = u32::from_le_bytes(head[..4].try_into().expect("4 bytes"));
        let count = u64::from_le_bytes(head[8..].try_into().expect("8 bytes"));
        let references = move_count + firsts.len() as u64;
        let in_order = firsts.windows(2).all(|w| w[0] < w[1])
            && firsts.last().is_none_or(|&f| u64::from(f) < references);
        if firsts.len() as u64 != entry.games || count != entry.positions || bits > 32 || !in_order {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("segment {}: its files do not agree with the manifest", entry.number),
            ));
        }
        let dict_path = file_name(dir, entry.number, "dict");
        let dict = std::sync::OnceLock::new();
        Ok(Segment { firsts, positions: count, references, games, keys, bits, moves, tags, dict, dict_path })
    }

    /// Its lines (a record each: each game's main line and variations).
    pub(crate) fn len(&self) -> usize {
        self.firsts.len()
    }

    /// The record of line `g`.
    pub(crate) fn record(&self, g: usize) -> io::Result<GameRecord> {
        self.records(g, g + 1)?.first().copied().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidData, "the index is damaged: a line's record is missing")
        })
    }

    /// The records of lines `from..to`.
    pub(crate) fn records(&self, from: usize, to: usize) -> io::Result<Vec<GameRecord>> {
        if from >= to || to > self.len() {
            return Ok(Vec::new());
        }
        let mut bytes = vec![0u8; (to - from) * GAME_BYTES];
        read_at(&self.games, 8 + (from * GAME_BYTES) as u64, &mut bytes)?;
        Ok(bytes.chunks_exact(GAME_BYTES).map(GameRecord::from_bytes).collect())
    }

    fn table_len(&self) -> u64 {
        (1u64 << self.bits) + 1
    }

    /// The references of the positions whose key may be `key` (its top
    /// bits and low 32 bits agree): to be checked by replaying.
    pub(crate) fn lookup(&self, key: u64) -> io::Result<Vec<u32>> {
        let b = bucket(key, self.bits) as u64;
        let mut two = [0u8; 8];
        read_at(&self.keys, KEYS_HEADER + 4 * b, &mut two)?;
        let start = u64::from(u32::from_le_bytes(two[..4].try_into().expect("4 bytes")));
        let end = u64::from(u32::from_le_bytes(two[4..].try_into().expect("4 bytes")));
        if end <= start {
            return Ok(Vec::new());
        }
        let lows_at = KEYS_HEADER + 4 * self.table_len();
        let refs_at = lows_at + 4 * self.positions;
        let mut lows = vec![0u8; ((end - start) * 4) as usize];
        read_at(&self.keys, lows_at + 4 * start, &mut lows)?;
        let low = key as u32;
        let mut found = Vec::new();
        for (k, chunk) in lows.chunks_exact(4).enumerate() {
            if u32::from_le_bytes(chunk.try_into().expect("4 bytes")) == low {
                let mut r = [0u8; 4];
                read_at(&self.keys, refs_at + 4 * (start + k as u64), &mut r)?;
                found.push(u32::from_le_bytes(r));
            }
        }
        Ok(found)
    }

    /// The line holding position `reference`, and the position's ply in it.
    pub(crate) fn game_of(&self, reference: u32) -> (usize, u32) {
        let g = self.firsts.partition_point(|&first| first <= reference).saturating_sub(1);
        (g, reference - self.firsts[g])
    }

    /// The positions of line `g`, from its start.
    pub(crate) fn positions_of(&self, g: usize) -> u64 {
        let end = self.firsts.get(g + 1).map_or(self.references, |&n| u64::from(n));
        end - u64::from(self.firsts[g])
    }

    /// The moves of lines `from..to`, two bytes each, one line after
    /// another.
    pub(crate) fn move_codes(&self, from: usize, to: usize) -> io::Result<Vec<u16>> {
        if from >= to || to > self.len() {
            return Ok(Vec::new());
        }
        let start = u64::from(self.firsts[from]) - from as u64;
        let end = self.firsts.get(to).map_or(self.references, |&n| u64::from(n)) - to as u64;
        let mut bytes = vec![0u8; ((end - start) * 2) as usize];
        read_at(&self.moves, 8 + 2 * start, &mut bytes)?;
        Ok(bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect())
    }

    /// The start FEN (`None` for the standard start) and tags of the game
    /// of `record`.
    pub(crate) fn tags_of(&self, record: &GameRecord) -> io::Result<StartAndTags> {
        let at = record.tags_at;
        let mut len = [0u8; 4];
        read_at(&self.tags, at, &mut len)?;
        let mut bytes = vec![0u8; u32::from_le_bytes(len) as usize];
        read_at(&self.tags, at + 4, &mut bytes)?;
        let dict = self.dict.get_or_init(|| {
            File::open(&self.dict_path)
                .and_then(Dictionary::read)
                .map_err(|e| format!("{}: {e}", self.dict_path.display()))
        });
        match dict {
            Ok(dict) => dict.decode(&bytes),
            Err(e) => Err(io::Error::new(io::ErrorKind::InvalidData, e.clone())),
        }
    }
}

//! Zip archives read as folders: every member is an input of its own,
//! named `archive.zip:dir/game.xqf` in every report, and an archive inside
//! an archive is opened too, to [`MAX_DEPTH`] deep.
//!
//! An archive is opened when it is a file named `*.zip`, or any regular
//! file named on the command line that starts like one (`PK\3\4`, or
//! `PK\5\6` for an archive of no member). Its directory of members is read
//! when the inputs are listed; each member is inflated as it is read, a
//! buffer at a time, into the readers every input goes through (a member
//! that is gzip data is inflated again: see [`gunzip`](super::gunzip)).
//!
//! Nothing grows without bound:
//!
//! - an archive whose members declare, all told, more than [`MAX_RATIO`]
//!   bytes for each byte of the archive (beyond the first [`FREE_BYTES`])
//!   is refused as a decompression bomb, before anything is inflated
//!   (members that share their compressed data, the usual bomb, declare
//!   their sizes each);
//! - a member that inflates past the size it declares is refused as it
//!   reads, and one that fails its CRC-32 is damaged; one whose data ends
//!   short is read up to its end, as a gzip stream cut short is (its games
//!   before the cut are read, then it is reported damaged);
//! - an archive inside an archive is held in memory while its members are
//!   read: one of more than [`MAX_NESTED`] bytes, or past [`MAX_HELD`]
//!   bytes held in all, is not opened, and says so.
//!
//! Member names are UTF-8 when they read as UTF-8, else GBK (as Chinese
//! Windows writes them) when they read as GBK, else CP437 (as the zip
//! format says). Members are listed in name order, as a folder's files
//! are. Encrypted members and compression methods other than stored and
//! deflate are reported, not read.

use std::io::{self, Cursor, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::formats::UnreadableReason;
use crate::formats::archive::ArchiveProblem;
use crate::formats::stream::CutShort;

/// How deep archives inside archives are opened: an archive named on the
/// command line or found in a folder is at depth 1.
pub(crate) const MAX_DEPTH: usize = 4;

/// The largest archive inside an archive that is opened (it is held in
/// memory while its members are read).
pub(crate) const MAX_NESTED: u64 = 256 << 20;

/// The most bytes of archives inside archives held at once.
pub(crate) const MAX_HELD: u64 = 1 << 30;

/// The most bytes the members of an archive may declare for each byte of
/// the archive...
pub(crate) const MAX_RATIO: u64 = super::gunzip::MAX_RATIO;

/// ...beyond these.
pub(crate) const FREE_BYTES: u64 = super::gunzip::FREE_BYTES;

/// A member of a zip archive, to read as a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The archive file.
    archive: PathBuf,
    /// The names inside it: of the archives it is inside, then its own.
    names: Vec<String>,
    /// What holds the archive it is a member of.
    container: Container,
    /// Where its data is, or why it is not read.
    entry: Result<Entry, (UnreadableReason, bool)>,
}

/// What holds an archive: a file, or (inside another archive) memory.
#[derive(Clone, PartialEq, Eq)]
enum Container {
    File(PathBuf),
    Held(Held),
}

impl std::fmt::Debug for Container {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Container::File(path) => f.debug_tuple("File").field(path).finish(),
            Container::Held(held) => write!(f, "Held({} bytes)", held.0.len()),
        }
    }
}

/// An archive inside an archive, inflated and held.
#[derive(Clone, PartialEq, Eq)]
struct Held(Arc<[u8]>);

impl AsRef<[u8]> for Held {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// Where a member's data is in its archive, and how to inflate it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    start: u64,
    compressed: u64,
    size: u64,
    deflated: bool,
    crc: u32,
}

impl Member {
    /// The archive file that holds it (the outermost, for an archive
    /// inside an archive).
    pub fn archive(&self) -> &Path {
        &self.archive
    }

    /// Its names: those of the archives it is inside, then its own.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Its own name in its archive.
    pub fn name(&self) -> &str {
        self.names.last().map_or("", String::as_str)
    }

    /// The size it declares, when it can be read.
    pub fn size(&self) -> Option<u64> {
        self.entry.as_ref().ok().map(|e| e.size)
    }

    /// Why it is not read, and whether that means it holds no record
    /// rather than that it is unreadable.
    pub fn problem(&self) -> Option<(&UnreadableReason, bool)> {
        self.entry.as_ref().err().map(|(reason, no_record)| (reason, *no_record))
    }

    /// Its content, inflated as it is read.
    ///
    /// # Errors
    ///
    /// The error of opening the archive; a member that is not read has its
    /// reason as an error of kind `Other`.
    pub(crate) fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        let entry = match &self.entry {
            Ok(entry) => *entry,
            Err((reason, _)) => return Err(io::Error::other(reason.clone())),
        };
        let raw: Box<dyn Read + Send> = match &self.container {
            Container::File(path) => {
                let mut file = std::fs::File::open(path)?;
                file.seek(SeekFrom::Start(entry.start))?;
                Box::new(file.take(entry.compressed))
            }
            Container::Held(held) => {
                let mut cursor = Cursor::new(held.clone());
                cursor.seek(SeekFrom::Start(entry.start))?;
                Box::new(cursor.take(entry.compressed))
            }
        };
        Ok(Box::new(inflated(raw, entry)))
    }
}

/// A member's data inflated, checked against the size and CRC-32 it
/// declares.
fn inflated(raw: Box<dyn Read + Send>, entry: Entry) -> Checked<Box<dyn Read + Send>> {
    let inner: Box<dyn Read + Send> =
        if entry.deflated { Box::new(flate2::read::DeflateDecoder::new(raw)) } else { raw };
    Checked { inner, entry, read: 0, crc: crc32fast::Hasher::new() }
}

/// A member's data, refused past its declared size, damaged when it ends
/// short or its CRC-32 does not match.
struct Checked<R> {
    inner: R,
    entry: Entry,
    read: u64,
    crc: crc32fast::Hasher,
}

impl<R: Read> Read for Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // Its data cut short: what was read before is kept, as a gzip
        // stream cut short is (see `crate::formats::stream::CutShort`).
        let cut = |message: String| Err(CutShort { whole: false, message }.into_io());
        let n = match self.inner.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                return cut(format!("a damaged zip member: its data is cut short ({e})"));
            }
            read => read?,
        };
        self.read += n as u64;
        let damaged = |message: String| Err(io::Error::new(io::ErrorKind::InvalidData, message));
        if self.read > self.entry.size {
            return damaged(format!(
                "a zip member that inflates past the {} bytes it declares: damaged, or a decompression bomb",
                self.entry.size
            ));
        }
        self.crc.update(&buf[..n]);
        if n == 0 && !buf.is_empty() {
            if self.read < self.entry.size {
                return cut(format!(
                    "a damaged zip member: it ends after {} of the {} bytes it declares",
                    self.read, self.entry.size
                ));
            }
            if self.crc.clone().finalize() != self.entry.crc {
                return damaged("a damaged zip member: its CRC-32 does not match its data".to_string());
            }
        }
        Ok(n)
    }
}

/// Whether `path` names a zip archive: `*.zip`, any case.
pub(crate) fn has_zip_extension(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("zip"))
}

/// Whether the regular file at `path` starts like a zip archive.
pub(crate) fn starts_like_zip(path: &Path) -> bool {
    let mut head = [0u8; 4];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && bytes_start_like_zip(&head)
}

/// Bytes of archives inside archives held so far.
#[derive(Debug, Default)]
pub(crate) struct Budget {
    held: u64,
}

/// The members of the archive at `path`, pushed on `out` in name order;
/// why the archive cannot be opened or listed (after the members listed
/// before that), which makes it an input of its own.
///
/// # Errors
///
/// Why the archive at `path` cannot be read as a whole.
pub(crate) fn expand(
    path: &Path,
    budget: &mut Budget,
    out: &mut Vec<Member>,
) -> Result<(), UnreadableReason> {
    let file = std::fs::File::open(path).map_err(|e| UnreadableReason::cannot_read(&e))?;
    let len = file.metadata().map_or(0, |m| m.len());
    let at = Place { archive: path, names: &[], container: Container::File(path.to_path_buf()), depth: 1 };
    list(io::BufReader::new(file), len, &at, budget, out)
}

/// The members of the zip archive held in `bytes`, named `name` in
/// reports, pushed on `out` as [`expand`] pushes those of a file.
///
/// # Errors
///
/// Why the archive cannot be read as a whole.
pub(crate) fn expand_held(
    name: &Path,
    bytes: Arc<[u8]>,
    budget: &mut Budget,
    out: &mut Vec<Member>,
) -> Result<(), UnreadableReason> {
    let held = Held(bytes);
    let len = held.0.len() as u64;
    let at = Place { archive: name, names: &[], container: Container::Held(held.clone()), depth: 1 };
    list(Cursor::new(held), len, &at, budget, out)
}

/// Whether `bytes` start like a zip archive (`PK\3\4`, or `PK\5\6` for
/// an archive of no member).
pub(crate) fn bytes_start_like_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// Where an archive is: the file, the names of the archives it is inside,
/// what holds it, how deep it is.
struct Place<'a> {
    archive: &'a Path,
    names: &'a [String],
    container: Container,
    depth: usize,
}

impl Place<'_> {
    fn member(&self, name: String, entry: Result<Entry, (UnreadableReason, bool)>) -> Member {
        let mut names = self.names.to_vec();
        names.push(name);
        Member { archive: self.archive.to_path_buf(), names, container: self.container.clone(), entry }
    }

    /// The archive itself, as an input that is not read, and why.
    fn itself(&self, reason: UnreadableReason) -> Member {
        Member {
            archive: self.archive.to_path_buf(),
            names: self.names.to_vec(),
            container: self.container.clone(),
            entry: Err((reason, false)),
        }
    }
}

/// Lists the members of the archive `reader` reads (of `len` bytes) onto
/// `out`.
fn list<R: Read + Seek>(
    reader: R,
    len: u64,
    at: &Place<'_>,
    budget: &mut Budget,
    out: &mut Vec<Member>,
) -> Result<(), UnreadableReason> {
    let problem = |p: ArchiveProblem| UnreadableReason::Zip(p);
    let mut archive = zip::ZipArchive::new(reader)
        .map_err(|e| problem(ArchiveProblem::Damaged { message: e.to_string() }))?;
    let same_names = archive.metadata().has_duplicate_names();
    let mut members = Vec::with_capacity(archive.len());
    let mut declared: u128 = 0;
    for i in 0..archive.len() {
        let Ok(file) = archive.by_index_data(i) else { continue };
        if file.is_dir() {
            continue;
        }
        let name = member_name(file.name_raw());
        let (size, compressed, crc, method) =
            (file.size(), file.compressed_size(), file.crc32(), file.compression());
        let (encrypted, link) = (file.encrypted(), file.is_symlink());
        declared += u128::from(size);
        let entry = if encrypted {
            Err((problem(ArchiveProblem::Encrypted), false))
        } else if link {
            Err((problem(ArchiveProblem::Link), true))
        } else {
            let deflated = match method {
                zip::CompressionMethod::Stored => Ok(false),
                zip::CompressionMethod::Deflated => Ok(true),
                other => Err((problem(ArchiveProblem::Method { method: method_name(other) }), false)),
            };
            // Where its data starts, from its local header.
            let start = archive.by_index_raw(i).map(|raw| raw.data_start());
            match (deflated, start) {
                (Ok(deflated), Ok(Some(start))) => Ok(Entry { start, compressed, size, deflated, crc }),
                (Ok(_), Err(e)) => Err((problem(ArchiveProblem::Damaged { message: e.to_string() }), false)),
                (Ok(_), Ok(None)) => Err((
                    problem(ArchiveProblem::Damaged { message: "the member's data cannot be found".into() }),
                    false,
                )),
                (Err(e), _) => Err(e),
            }
        };
        members.push((name, entry));
    }
    let allowed = u128::from(len) * u128::from(MAX_RATIO) + u128::from(FREE_BYTES);
    if declared > allowed {
        return Err(problem(ArchiveProblem::Bomb { declared, len, ratio: MAX_RATIO, free: FREE_BYTES }));
    }
    drop(archive);
    // Name order, a folder's: compared a part of the path at a time.
    members.sort_by(|(a, _), (b, _)| a.split('/').cmp(b.split('/')));
    for (name, entry) in members {
        match entry {
            Ok(entry) if has_zip_extension(Path::new(&name)) => nested(name, entry, at, budget, out),
            entry => out.push(at.member(name, entry)),
        }
    }
    if same_names {
        // The directory keeps one member of each name: those left out
        // are told of, as the archive's.
        out.push(at.itself(problem(ArchiveProblem::SameNames)));
    }
    Ok(())
}

/// Opens the archive `name`, a member of the archive at `at`, and lists
/// its members; an archive that is not opened is a member that says why.
fn nested(name: String, entry: Entry, at: &Place<'_>, budget: &mut Budget, out: &mut Vec<Member>) {
    let refuse = |p: ArchiveProblem| Err((UnreadableReason::Zip(p), false));
    let reason = if at.depth >= MAX_DEPTH {
        refuse(ArchiveProblem::TooDeep { depth: MAX_DEPTH })
    } else if entry.size > MAX_NESTED || budget.held + entry.size > MAX_HELD {
        refuse(ArchiveProblem::TooLarge { size: entry.size, max: MAX_NESTED.min(MAX_HELD - budget.held) })
    } else {
        let member = at.member(name.clone(), Ok(entry));
        let mut bytes = Vec::new();
        match member.open().and_then(|mut r| r.read_to_end(&mut bytes)) {
            Err(e) => Err((UnreadableReason::cannot_read(&e), false)),
            Ok(_) => {
                budget.held += bytes.len() as u64;
                let held = Held(Arc::from(bytes));
                let len = held.0.len() as u64;
                let inner = Place {
                    archive: at.archive,
                    names: member.names(),
                    container: Container::Held(held.clone()),
                    depth: at.depth + 1,
                };
                match list(Cursor::new(held), len, &inner, budget, out) {
                    Ok(()) => return,
                    Err(reason) => Err((reason, false)),
                }
            }
        }
    };
    out.push(at.member(name, reason));
}

/// A member's name: UTF-8 when it reads as UTF-8, else GBK when it reads
/// as GBK, else CP437.
fn member_name(raw: &[u8]) -> String {
    if let Ok(name) = std::str::from_utf8(raw) {
        return name.to_string();
    }
    if let Some(name) = encoding_rs::GBK.decode_without_bom_handling_and_without_replacement(raw) {
        return name.into_owned();
    }
    raw.iter().map(|&b| cp437(b)).collect()
}

/// The character of a CP437 byte.
fn cp437(b: u8) -> char {
    const HIGH: &str = "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{a0}";
    if b < 0x80 { char::from(b) } else { HIGH.chars().nth(usize::from(b - 0x80)).unwrap_or('\u{fffd}') }
}

/// The name of a compression method.
fn method_name(method: zip::CompressionMethod) -> String {
    // The number is what names a method the zip reader does not inflate.
    #[allow(deprecated)]
    let code = method.to_u16();
    match zip::CompressionMethod::name_from_u16(code) {
        "Unknown" => format!("method {code}"),
        name => name.to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_as_utf8_then_gbk_then_cp437() {
        assert_eq!(member_name("对局/胡荣华.xqf".as_bytes()), "对局/胡荣华.xqf");
        let gbk = encoding_rs::GBK.encode("对局/胡荣华.xqf").0;
        assert_eq!(member_name(&gbk), "对局/胡荣华.xqf");
        assert_eq!(member_name(b"caf\x82\xff.pgn"), "café\u{a0}.pgn");
        assert_eq!(member_name(b"\xb0\xdb\xe1"), "░█ß");
    }

    #[test]
    fn the_cp437_table_holds_128_characters() {
        let high: Vec<char> = (0x80..=0xFFu8).map(cp437).collect();
        assert_eq!(high.len(), 128);
        assert!(!high.contains(&'\u{fffd}'));
        assert_eq!((cp437(0x80), cp437(0xE1), cp437(0xFE)), ('Ç', 'ß', '■'));
    }

    #[test]
    fn methods_are_named() {
        assert_eq!(method_name(zip::CompressionMethod::Stored), "stored");
        assert_eq!(method_name(zip::CompressionMethod::DEFLATE), "deflated");
        assert_eq!(method_name(zip::CompressionMethod::BZIP2), "bzip2");
        assert_eq!(method_name(zip::CompressionMethod::ZSTD), "zstd");
    }

    #[test]
    fn a_member_is_checked_as_it_inflates() {
        let data = b"[Event \"x\"]\n1. h2e2 *\n".repeat(50);
        let entry = |size: u64, crc: u32| Entry {
            start: 0,
            compressed: data.len() as u64,
            size,
            deflated: false,
            crc,
        };
        let read = |entry: Entry| {
            let mut out = Vec::new();
            inflated(Box::new(Cursor::new(data.clone())), entry).read_to_end(&mut out).map(|_| out)
        };
        let crc = crc32fast::hash(&data);
        assert_eq!(read(entry(data.len() as u64, crc)).unwrap(), data);
        for (e, why) in [
            (entry(data.len() as u64, crc ^ 1), "CRC-32"),
            (entry(data.len() as u64 - 1, crc), "inflates past"),
            (entry(data.len() as u64 + 1, crc), "ends after"),
        ] {
            let err = read(e).unwrap_err().to_string();
            assert!(err.contains(why), "{err}");
        }
    }
}

//! The inputs of a batch: files, directories searched recursively, the
//! members of zip archives (see [`unzip`](super::unzip)), `-` for
//! standard input, and bytes held in memory ([`Input::Bytes`]).
//!
//! A path that cannot be read (missing, a folder that cannot be listed) is
//! an input of its own that is reported, and the others are still read.
//! Links are followed, but every folder and file is visited once: a link
//! back to a folder already walked (a loop) is told once and not followed,
//! and a file named twice (by the same name, through a link, or named and
//! found in a folder named too) is read once. A file the run writes into
//! (see [`Outputs`]) is not read.
//! A named pipe or device met while walking a folder is not opened (a pipe
//! would wait forever for a writer).

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::formats::UnreadableReason;

use super::identity::{Identity, Outputs, Unread, Why, identity};
use super::unzip;
pub use super::unzip::Member;

/// One input to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A file: named on the command line, or `found` while walking a folder.
    File {
        /// Its path.
        path: PathBuf,
        /// Whether it was found in a folder rather than named.
        found: bool,
        /// Its size when it was looked at, if it was a regular file then
        /// (files that grow after are still read whole: see
        /// [`Batch::run`](super::Batch::run)).
        len: Option<u64>,
    },
    /// A member of a zip archive (see `unzip`), named
    /// `archive.zip:dir/game.xqf` in reports; counted as found in a folder.
    Member(Member),
    /// Standard input.
    Stdin,
    /// Standard input kept in a file, so that it can be read more than
    /// once: named `-` in reports, read from `path`.
    KeptStdin {
        /// The file that holds it.
        path: PathBuf,
    },
    /// A path that cannot be read, and why (reported as unreadable):
    /// [`UnreadableReason::NotFound`], [`CannotRead`](UnreadableReason::CannotRead)
    /// or [`BrokenLink`](UnreadableReason::BrokenLink).
    Problem {
        /// The path.
        path: PathBuf,
        /// What is wrong.
        reason: UnreadableReason,
    },
    /// A path met while walking a folder that is not read, and why (a
    /// pipe, a device: [`UnreadableReason::NotOpened`]): it holds no
    /// record.
    Skipped {
        /// The path.
        path: PathBuf,
        /// Why it is not read.
        reason: UnreadableReason,
    },
    /// The bytes of a file held in memory (read by a program from
    /// somewhere else than a path), counted as named, not found in a folder.
    ///
    /// ```
    /// use qipu::batch::{Batch, Event, Input};
    /// use qipu::record::RecordBuilder;
    /// let input = Input::Bytes { name: "<bytes>".into(), bytes: b"1. h2e2 h9g7 *".as_slice().into() };
    /// let mut games = 0;
    /// Batch::new().threads(1).run(&[input], RecordBuilder::default, |meta, event| {
    ///     assert_eq!(meta.source, "<bytes>");
    ///     if let Event::Games { games: read, .. } = event {
    ///         games += read.len();
    ///     }
    ///     Ok::<(), ()>(())
    /// }).unwrap();
    /// assert_eq!(games, 1);
    /// ```
    Bytes {
        /// The name reports give it (`<bytes>`, a stream's name).
        name: String,
        /// The bytes, shared.
        bytes: Arc<[u8]>,
    },
}

impl Input {
    /// The inputs of bytes held in memory, named `name` in reports: the
    /// members of a zip archive (each an input of its own, named
    /// `name:dir/game.xqf`, as a zip archive's are when it is a file), else
    /// the bytes as one [`Input::Bytes`] (gzip data is inflated as it is
    /// read, as a file's is). [`Games`](super::Games) sees bytes so itself.
    ///
    /// ```
    /// use std::io::Write;
    /// use qipu::batch::Input;
    /// let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    /// let stored = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    /// zip.start_file("a.pgn", stored).unwrap();
    /// zip.write_all(b"1. h2e2 h9g7 *").unwrap();
    /// let bytes = zip.finish().unwrap().into_inner();
    /// let inputs = Input::of_bytes("games.zip", bytes);
    /// assert_eq!(inputs.len(), 1);
    /// assert_eq!(inputs[0].name(), "games.zip:a.pgn");
    /// assert_eq!(Input::of_bytes("g", b"1. h2e2 *".to_vec())[0].name(), "g");
    /// ```
    pub fn of_bytes(name: impl Into<String>, bytes: impl Into<Arc<[u8]>>) -> Vec<Input> {
        let (name, bytes) = (name.into(), bytes.into());
        if !unzip::bytes_start_like_zip(&bytes) {
            return vec![Input::Bytes { name, bytes }];
        }
        let mut members = Vec::new();
        let problem =
            unzip::expand_held(Path::new(&name), bytes, &mut unzip::Budget::default(), &mut members);
        let mut inputs: Vec<Input> = members.into_iter().map(Input::Member).collect();
        if let Err(reason) = problem {
            inputs.push(Input::Problem { path: name.into(), reason });
        }
        inputs
    }

    /// The name used in text reports (`-` for standard input), escaped as
    /// [`escaped_name`] says: a name cannot forge a line of a report.
    pub fn name(&self) -> String {
        if let Input::Member(member) = self {
            let mut name = escaped_name(member.archive());
            for part in member.names() {
                name.push(':');
                escape_into(part, &mut name);
            }
            return name;
        }
        if let Input::Bytes { name, .. } = self {
            let mut escaped = String::with_capacity(name.len());
            escape_into(name, &mut escaped);
            return escaped;
        }
        match self.path_of() {
            Some(path) => escaped_name(path),
            None => "-".to_string(),
        }
    }

    /// The name for JSON: the name itself when it is UTF-8 (JSON escapes
    /// what it must), else the escaped name and `true`.
    pub fn json_name(&self) -> (String, bool) {
        if let Input::Member(member) = self {
            return match member.archive().to_str() {
                Some(archive) => {
                    let names = member.names().iter().map(|n| format!(":{n}"));
                    (names.fold(archive.to_string(), |all, n| all + &n), false)
                }
                None => (self.name(), true),
            };
        }
        if let Input::Bytes { name, .. } = self {
            return (name.clone(), false);
        }
        match self.path_of().map(|p| p.to_str().ok_or(p)) {
            Some(Ok(name)) => (name.to_string(), false),
            Some(Err(path)) => (escaped_name(path), true),
            None => ("-".to_string(), false),
        }
    }

    fn path_of(&self) -> Option<&Path> {
        match self {
            Input::File { path, .. } | Input::Problem { path, .. } | Input::Skipped { path, .. } => {
                Some(path)
            }
            Input::Member(member) => Some(member.archive()),
            Input::Stdin | Input::KeptStdin { .. } | Input::Bytes { .. } => None,
        }
    }

    /// The file read: the path of a file input, the archive of a member
    /// (never to be written over).
    pub fn path(&self) -> Option<&Path> {
        match self {
            Input::File { path, .. } => Some(path),
            Input::Member(member) => Some(member.archive()),
            _ => None,
        }
    }

    /// Whether it was found while walking a folder (not named), or in an
    /// archive.
    pub fn found(&self) -> bool {
        matches!(self, Input::File { found: true, .. } | Input::Skipped { .. } | Input::Member(_))
    }

    /// Whether it is named like a record (`.pgn`, `.xqf`, …: see
    /// [`detect::has_record_extension`](crate::formats::detect::has_record_extension)).
    pub(crate) fn named_like_record(&self) -> bool {
        match self {
            Input::Member(member) => crate::formats::detect::has_record_extension(Path::new(member.name())),
            _ => self.path().is_some_and(crate::formats::detect::has_record_extension),
        }
    }

    /// The content, to read a piece at a time: inflated when it is gzip
    /// data (see `gunzip`).
    ///
    /// # Errors
    ///
    /// The error of opening the file; for an input that could not be listed
    /// (a missing path, a skipped device), its reason as an error of kind `Other`.
    pub fn open(&self) -> std::io::Result<Box<dyn Read + Send>> {
        match self {
            Input::File { path, .. } => super::gunzip::open(std::fs::File::open(path)?),
            Input::Member(member) => super::gunzip::open(member.open()?),
            Input::Stdin => super::gunzip::open(std::io::stdin()),
            Input::KeptStdin { path } => super::gunzip::open(std::fs::File::open(path)?),
            Input::Bytes { bytes, .. } => {
                super::gunzip::open(std::io::Cursor::new(SharedBytes(bytes.clone())))
            }
            Input::Problem { reason, .. } | Input::Skipped { reason, .. } => {
                Err(std::io::Error::other(reason.clone()))
            }
        }
    }
}

/// Shared bytes as a reader's source ([`Input::Bytes`]).
struct SharedBytes(Arc<[u8]>);

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// A path as text reports print it: control characters as `\n`, `\t`,
/// `\r` or `\u{1b}`, a byte that is not UTF-8 as `\xHH`, and (on Unix,
/// where it is no separator) a backslash as `\\`; everything else as it
/// is. Two different names never print the same.
///
/// ```text
/// "a\nb.pgn" -> a\nb.pgn      b"\xff.pgn" -> \xff.pgn      "对局.pgn" -> 对局.pgn
/// ```
pub fn escaped_name(path: &Path) -> String {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path.to_string_lossy().into_owned().into_bytes();
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        escape_into(chunk.valid(), &mut out);
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// `text` escaped as [`escaped_name`] says, onto `out`.
fn escape_into(text: &str, out: &mut String) {
    // Most names hold no control character nor backslash: copied whole.
    // (0xC2 leads the C1 controls U+0080 to U+009F.)
    if !text.bytes().any(|b| b < 0x20 || b == 0x7f || b == b'\\' || b == 0xc2) {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        match c {
            '\\' if cfg!(unix) => out.push_str("\\\\"),
            c if c.is_control() => out.extend(c.escape_debug()),
            c => out.push(c),
        }
    }
}

/// The inputs a list of paths expands to, and the links back to folders
/// already read that were not followed (loops) and the files not read
/// (named twice, written by the run), to tell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expanded {
    /// The inputs, in order.
    pub inputs: Vec<Input>,
    /// Links to folders already read, not read again.
    pub loops: Vec<PathBuf>,
    /// Files named or found that are not read, in the order met: the same
    /// file as an input already (read once), or a file the run writes into.
    pub unread: Vec<Unread>,
    /// For each input, in the order of `inputs`: its place below the
    /// folder named on the command line it was found in, that folder's
    /// path taken off (`1990/a.pgn` for `archive/1990/a.pgn` found in
    /// `archive`; for a member of an archive, the archive's place); `None`
    /// for an input named itself (a file, an archive's members, `-`).
    /// Programs that write a file per input, or per game, mirror the
    /// folders with it.
    pub within: Vec<Option<PathBuf>>,
}

impl Expanded {
    /// The place of input `k` below the folder it was found in (see
    /// [`Expanded::within`]).
    ///
    /// ```
    /// let expanded = qipu::batch::expand(&["fixtures".into(), "fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn".into()]);
    /// let k = expanded.inputs.iter().position(|i| i.name().ends_with("Hu_Ronghua_1391_UCI_games.pgn")).unwrap();
    /// assert_eq!(expanded.within(k), Some(std::path::Path::new("pgn/Hu_Ronghua_1391_UCI_games.pgn")));
    /// // Named on the command line too: read once, where it was found.
    /// assert_eq!(expanded.inputs.iter().filter(|i| i.name().ends_with("UCI_games.pgn")).count(), 1);
    /// assert_eq!(expanded.unread.len(), 1);
    /// ```
    pub fn within(&self, k: usize) -> Option<&Path> {
        self.within.get(k)?.as_deref()
    }
}

/// Expands paths (`-` for standard input): directories into the files below
/// them (sorted by name, so the order is the same on every run). Problems
/// are inputs of their own, in their place.
///
/// ```
/// let expanded = qipu::batch::expand(&["fixtures/pgn".into(), "no/such.pgn".into()]);
/// assert!(expanded.inputs.len() >= 2);
/// assert!(matches!(expanded.inputs.last(), Some(qipu::batch::Input::Problem { .. })));
/// ```
pub fn expand(paths: &[PathBuf]) -> Expanded {
    expand_writing(paths, &Outputs::default())
}

/// Expands paths as [`expand`] does, leaving out the files the run writes
/// into (`outputs`): each is an [`Unread`] instead, as is each file named
/// again (by the same name, through a link, or named and also found in a
/// folder named).
///
/// ```
/// use qipu::batch::{Outputs, Why, expand_writing};
/// let pgn = "fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn";
/// let expanded = expand_writing(&[pgn.into(), pgn.into()], &Outputs::new());
/// assert_eq!(expanded.inputs.len(), 1);
/// assert_eq!(expanded.unread[0].why, Why::Again { first: pgn.into() });
/// assert_eq!(expanded.unread[0].note().to_string(), format!("{pgn}: note: named again; read once"));
/// ```
pub fn expand_writing(paths: &[PathBuf], outputs: &Outputs) -> Expanded {
    let mut walk = Walk { outputs: outputs.clone(), ..Walk::default() };
    let mut within = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            walk.out.push(Input::Stdin);
            within.push(None);
            continue;
        }
        let first = walk.out.len();
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                if walk.first_visit(path, &meta) {
                    walk.dir(path);
                }
                // Every path of the walk is `path` joined with names read
                // from folders.
                let below = |input: &Input| input.path_of()?.strip_prefix(path).ok().map(Path::to_path_buf);
                within.extend(walk.out[first..].iter().map(below));
            }
            Ok(meta) if meta.is_file() && !walk.admit(path, &meta, false) => {}
            Ok(meta)
                if meta.is_file() && (unzip::has_zip_extension(path) || unzip::starts_like_zip(path)) =>
            {
                walk.archive(path);
            }
            Ok(meta) => {
                let len = meta.is_file().then_some(meta.len());
                walk.out.push(Input::File { path: path.clone(), found: false, len });
            }
            Err(e) => walk.problem(path, e),
        }
        within.resize(walk.out.len(), None);
    }
    Expanded { inputs: walk.out, loops: walk.loops, unread: walk.unread, within }
}

/// What a walk has found, and the folders and files it has visited.
#[derive(Default)]
struct Walk {
    out: Vec<Input>,
    /// The folders and files visited, each with the path it was first
    /// visited at.
    seen: HashMap<Identity, PathBuf>,
    loops: Vec<PathBuf>,
    /// The files written by the run, not read.
    outputs: Outputs,
    /// Files not read: written by the run, or read already.
    unread: Vec<Unread>,
    /// Archives inside archives held in memory.
    held: unzip::Budget,
}

impl Walk {
    /// The members of the archive at `path`, in name order, then the
    /// archive itself when it cannot be read (whole, or past the members
    /// listed).
    fn archive(&mut self, path: &Path) {
        let mut members = Vec::new();
        let problem = unzip::expand(path, &mut self.held, &mut members);
        self.out.extend(members.into_iter().map(Input::Member));
        if let Err(reason) = problem {
            self.out.push(Input::Problem { path: path.to_path_buf(), reason });
        }
    }

    /// Whether `path` is visited for the first time (and marks it visited).
    fn first_visit(&mut self, path: &Path, meta: &std::fs::Metadata) -> bool {
        match self.seen.entry(identity(path, meta)) {
            std::collections::hash_map::Entry::Occupied(_) => false,
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(path.to_path_buf());
                true
            }
        }
    }

    /// Whether the regular file at `path` (`found` in a folder, or named)
    /// is to be read: not when the run writes into it, nor when it was
    /// visited already (each is an [`Unread`]).
    fn admit(&mut self, path: &Path, meta: &std::fs::Metadata, found: bool) -> bool {
        let id = identity(path, meta);
        let why = if self.outputs.writes(&id, found) {
            Why::Output
        } else if let Some(first) = self.seen.get(&id) {
            Why::Again { first: first.clone() }
        } else {
            self.seen.insert(id, path.to_path_buf());
            return true;
        };
        self.unread.push(Unread { path: path.to_path_buf(), why });
        false
    }

    fn problem(&mut self, path: &Path, e: std::io::Error) {
        let reason = match e.kind() {
            std::io::ErrorKind::NotFound => UnreadableReason::NotFound,
            _ => UnreadableReason::cannot_read(&e),
        };
        self.out.push(Input::Problem { path: path.to_path_buf(), reason });
    }

    /// The entries of a folder, sorted by name; a folder that cannot be
    /// listed is reported and has none.
    fn list(&mut self, dir: &Path) -> std::vec::IntoIter<PathBuf> {
        let mut paths = Vec::new();
        match std::fs::read_dir(dir) {
            Ok(entries) => {
                for entry in entries {
                    match entry {
                        Ok(e) => paths.push(e.path()),
                        Err(e) => self.problem(dir, e),
                    }
                }
            }
            Err(e) => self.problem(dir, e),
        }
        // Every entry is `dir` joined with a name that holds no separator:
        // their bytes sort them as their components do, at a fraction of
        // the cost.
        paths.sort_unstable_by(|a, b| a.as_os_str().as_encoded_bytes().cmp(b.as_os_str().as_encoded_bytes()));
        paths.into_iter()
    }

    /// Walks a folder depth first, entries in name order, without
    /// recursion (folders of any depth).
    fn dir(&mut self, root: &Path) {
        let mut stack = vec![self.list(root)];
        while let Some(entries) = stack.last_mut() {
            let Some(path) = entries.next() else {
                stack.pop();
                continue;
            };
            // Links are followed: the metadata of what they point to.
            let meta = match std::fs::metadata(&path) {
                Ok(meta) => meta,
                Err(e) if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) => {
                    let reason = UnreadableReason::BrokenLink { message: e.to_string() };
                    self.out.push(Input::Problem { path, reason });
                    continue;
                }
                Err(e) => {
                    self.problem(&path, e);
                    continue;
                }
            };
            if meta.is_file() {
                if !self.admit(&path, &meta, true) {
                    continue;
                }
            } else if !self.first_visit(&path, &meta) {
                if meta.is_dir() {
                    self.loops.push(path);
                }
                continue;
            }
            if meta.is_dir() {
                let below = self.list(&path);
                stack.push(below);
            } else if meta.is_file() && unzip::has_zip_extension(&path) {
                self.archive(&path);
            } else if meta.is_file() {
                self.out.push(Input::File { path, found: true, len: Some(meta.len()) });
            } else {
                let reason = UnreadableReason::NotOpened { kind: special_kind(&meta) };
                self.out.push(Input::Skipped { path, reason });
            }
        }
    }
}

/// What a file that is neither a regular file nor a folder is.
fn special_kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    let _ = meta;
    "not a regular file"
}

//! Where written games go ([`Destination`]): one output (standard output,
//! any stream, or one file), the files of a split, a folder of one file per
//! game, or everything collected and written as one file at the end (a CBL
//! library, a viewer page). Every file is written by the rules of this
//! module: never over an input, over an existing file only with `force`,
//! whole or not at all.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::names::{FileNames, folder_of, safe_value};
use super::{InputFiles, OutputError, OutputFile, Parts, Refused};
use crate::batch::Input;
use crate::formats::write::WriteWarning;
use crate::record::date::PartialDate;
use crate::record::{GameResult, Record};

/// One output written as games come: a stream (standard output, any
/// writer) or a file that appears under its name on [`Stream::commit`]
/// ([`OutputFile`]; dropped without a commit, it is removed). Write
/// errors name the output (`standard output: …`, `out.pgn: …`) and keep
/// their kind.
pub struct Stream<'a> {
    to: StreamTo<'a>,
}

enum StreamTo<'a> {
    Writer(&'a mut dyn Write),
    File { file: OutputFile, path: PathBuf },
}

impl std::fmt::Debug for Stream<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream").field("path", &self.path()).finish()
    }
}

/// How write errors name a stream.
const STDOUT: &str = "standard output";

impl<'a> Stream<'a> {
    /// Writes into `out` (standard output, or any writer) as games come.
    pub fn writer(out: &'a mut dyn Write) -> Stream<'a> {
        Stream { to: StreamTo::Writer(out) }
    }

    /// Starts the file `path`: refused when it is one of `inputs`, and
    /// when it exists unless `force` (see [`Refused`]).
    pub fn create(path: &Path, force: bool, inputs: &InputFiles) -> io::Result<Stream<'a>> {
        inputs.refuse(path)?;
        let file = OutputFile::create(path, force)?;
        Ok(Stream { to: StreamTo::File { file, path: path.to_path_buf() } })
    }

    /// The file `path`, or `out` for `None` and `-` (see [`Stream::create`]).
    pub fn open(
        path: Option<&Path>,
        force: bool,
        inputs: &InputFiles,
        out: &'a mut dyn Write,
    ) -> io::Result<Stream<'a>> {
        match path.filter(|p| p.as_os_str() != "-") {
            Some(path) => Stream::create(path, force, inputs),
            None => Ok(Stream::writer(out)),
        }
    }

    /// The file written, if it is one.
    pub fn path(&self) -> Option<&Path> {
        match &self.to {
            StreamTo::Writer(_) => None,
            StreamTo::File { path, .. } => Some(path),
        }
    }

    /// Whether the output is a file rather than a stream.
    pub fn is_file(&self) -> bool {
        self.path().is_some()
    }

    /// Ends the output: a stream is flushed, a file given its name (see
    /// [`OutputFile::commit`]). The error is not named.
    pub fn commit(self) -> io::Result<()> {
        match self.to {
            StreamTo::Writer(out) => out.flush(),
            StreamTo::File { file, .. } => file.commit(),
        }
    }

    /// The output's name in errors.
    fn name(&self) -> &Path {
        self.path().unwrap_or(Path::new(STDOUT))
    }
}

impl Write for Stream<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = match &mut self.to {
            StreamTo::Writer(out) => out.write(buf),
            StreamTo::File { file, .. } => file.write(buf),
        };
        written.map_err(|e| named(e, self.name()))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let written = match &mut self.to {
            StreamTo::Writer(out) => out.write_all(buf),
            StreamTo::File { file, .. } => file.write_all(buf),
        };
        written.map_err(|e| named(e, self.name()))
    }

    fn flush(&mut self) -> io::Result<()> {
        let flushed = match &mut self.to {
            StreamTo::Writer(out) => out.flush(),
            StreamTo::File { file, .. } => file.flush(),
        };
        flushed.map_err(|e| named(e, self.name()))
    }
}

/// `e`, its message prefixed with `path` (its kind kept).
fn named(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// How the games of a split are shared out among its files.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SplitRule {
    /// This many games a file (at least 1): `NAME-0001.EXT`,
    /// `NAME-0002.EXT`, … (four digits, or as many as the last number
    /// needs, so that the names sort in order).
    Every(usize),
    /// A file per value ([`WrittenGame::value`]; none: `unknown`):
    /// `NAME-VALUE.EXT`, the value made safe for every file system.
    /// Values that give the same name (the same but for case, cut alike)
    /// share a file, named after the first seen.
    ByValue,
    /// A file per input, named after the stem of the game's source, as
    /// [`SplitRule::ByValue`] names them.
    BySource,
}

/// What a split by value makes one file per value of ([`SplitKey::value`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SplitKey {
    /// The ECCO tag.
    Ecco,
    /// The Event tag.
    Event,
    /// The result: 1-0, 0-1, draw or unknown.
    Result,
    /// The Red tag (Red's player).
    Red,
    /// The Black tag (Black's player).
    Black,
    /// The first four-digit year of the Date tag.
    Year,
    /// The input file's name without its extension.
    Source,
}

impl SplitKey {
    /// A game's value for the key, from its tags and result; `None` for a
    /// value it lacks (its file is `NAME-unknown.EXT`) and for
    /// [`SplitKey::Source`], which the input gives.
    pub fn value(self, record: &Record) -> Option<String> {
        let tag = |name: &str| record.tag(name).map(str::to_string);
        match self {
            SplitKey::Ecco => tag("ECCO"),
            SplitKey::Event => tag("Event"),
            SplitKey::Red => tag("Red"),
            SplitKey::Black => tag("Black"),
            SplitKey::Result => match record.result()? {
                GameResult::RedWins => Some("1-0".into()),
                GameResult::BlackWins => Some("0-1".into()),
                GameResult::Draw => Some("draw".into()),
                GameResult::Unknown => None,
            },
            SplitKey::Year => record.tag("Date").and_then(year),
            SplitKey::Source => None,
        }
    }

    /// The split that makes a file per value of the key.
    pub fn split(self) -> SplitRule {
        match self {
            SplitKey::Source => SplitRule::BySource,
            _ => SplitRule::ByValue,
        }
    }
}

/// The year of a date as records write it (see [`PartialDate::read`]).
fn year(date: &str) -> Option<String> {
    PartialDate::read(date).map(|d| d.year.to_string())
}

/// The most bytes of a value in a part's name: room to spare in the 255
/// bytes of a name, and short enough to read.
const MAX_VALUE: usize = 100;

/// The fewest digits of a part's number.
const DIGITS: usize = 4;

/// One game to write, and what names its place: its bytes, its `Title`
/// (a folder's file name, its name in a library or page), where it was
/// read, which line of it it is, and its value for [`SplitRule::ByValue`].
#[derive(Copy, Clone, Debug, Default)]
pub struct WrittenGame<'g> {
    /// The game as written.
    pub bytes: &'g [u8],
    /// Its `Title` tag (or its name in a viewer page).
    pub title: Option<&'g str>,
    /// The input it was read from, as batch reports name it.
    pub source: &'g str,
    /// Its number in that input, from 0.
    pub index: usize,
    /// The id of the line it is, for a variation written as a game.
    pub line: Option<&'g str>,
    /// Its value for [`SplitRule::ByValue`].
    pub value: Option<&'g str>,
    /// The file named for it earlier by [`Destination::name_file`].
    pub file: Option<&'g Path>,
}

impl<'g> WrittenGame<'g> {
    /// Game `index` of `source`, written as `bytes`.
    pub fn new(bytes: &'g [u8], source: &'g str, index: usize) -> WrittenGame<'g> {
        WrittenGame { bytes, source, index, ..WrittenGame::default() }
    }
}

/// Why a game, or the output, could not be written.
#[derive(Debug, thiserror::Error)]
pub enum DestinationError {
    /// The one output (a stream, a page) could not be written into: the
    /// error as it is, naming the output, its kind kept (a full disk is
    /// `StorageFull`: no game after it can be written).
    #[error("{0}")]
    Output(io::Error),
    /// A file could not be written, or given its name, or its folder made:
    /// a game's file in a folder (the other games may still be), a
    /// library, the one output's file when committed.
    #[error("{}: {source}", .path.display())]
    File {
        /// The file, or the folder.
        path: PathBuf,
        /// Why (see [`Refused::of`]).
        source: io::Error,
    },
    /// The files of a split cannot be written.
    #[error(transparent)]
    Parts(#[from] OutputError),
}

impl DestinationError {
    /// The I/O error inside.
    pub fn io(&self) -> Option<&io::Error> {
        match self {
            DestinationError::Output(e) | DestinationError::File { source: e, .. } => Some(e),
            DestinationError::Parts(_) => None,
        }
    }
}

/// Where written games go: one output, the files of a split, a folder of
/// one file per game, or one file made of every game at the end (a CBL
/// library, a viewer page).
///
/// ```
/// use qipu::output::{Destination, WrittenGame, InputFiles};
/// let dir = std::env::temp_dir().join(format!("qipu-destination-doc-{}", std::process::id()));
/// let mut folder = Destination::folder(&dir, "pgn", false, InputFiles::default()).unwrap();
/// folder.write(WrittenGame { title: Some("决赛"), ..WrittenGame::new(b"1. h2e2 *\n", "games.pgn", 0) }).unwrap();
/// folder.write(WrittenGame::new(b"1. c3c4 *\n", "games.pgn", 1)).unwrap();
/// folder.finish().unwrap();
/// assert_eq!(std::fs::read(dir.join("决赛.pgn")).unwrap(), b"1. h2e2 *\n");
/// assert!(dir.join("games-2.pgn").exists());
/// # std::fs::remove_dir_all(&dir).unwrap();
///
/// let mut text = Vec::new();
/// let mut one = Destination::stream(&mut text);
/// one.write(WrittenGame::new(b"1. h2e2 *\n", "games.pgn", 0)).unwrap();
/// one.finish().unwrap();
/// assert_eq!(text, b"1. h2e2 *\n");
/// ```
pub struct Destination<'a> {
    to: To<'a>,
}

impl std::fmt::Debug for Destination<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.to {
            To::One(_) => "one output",
            To::Split(_) => "split",
            To::Folder(_) => "folder",
            To::Collected { into: Collect::Library { .. }, .. } => "library",
            To::Collected { into: Collect::Page(_), .. } => "page",
        };
        f.debug_struct("Destination").field("kind", &kind).finish()
    }
}

enum To<'a> {
    One(Stream<'a>),
    Split(SplitFiles),
    Folder(Folder),
    /// Every game's bytes and name, for one file made at the end.
    Collected {
        into: Collect<'a>,
        games: Vec<(Vec<u8>, String)>,
    },
}

/// What collected games make.
enum Collect<'a> {
    /// A CBL library of their CBR records.
    Library { path: PathBuf, force: bool, inputs: InputFiles },
    /// A viewer page.
    Page(Stream<'a>),
}

/// A folder of one file per game.
struct Folder {
    dir: PathBuf,
    ext: String,
    force: bool,
    inputs: InputFiles,
    /// The folder below `dir` each input's files go into, by its name.
    folder_of: HashMap<String, PathBuf>,
    /// The names given in each folder, by its path in lower case (one
    /// folder on Windows and macOS).
    names: HashMap<String, FileNames>,
}

/// The files of a split, being written.
struct SplitFiles {
    parts: Parts,
    how: SplitRule,
    /// How many games the last file holds ([`SplitRule::Every`]).
    in_last: usize,
    /// The part of each name folded to lower case (by value).
    by_name: HashMap<String, usize>,
}

/// What finishing a destination did.
#[derive(Debug, Default)]
pub struct Finished {
    /// The files of a split, in the order they were started.
    pub files: Vec<PathBuf>,
}

impl<'a> Destination<'a> {
    /// Every game into `out` (standard output, or any writer), as it comes.
    pub fn stream(out: &'a mut dyn Write) -> Destination<'a> {
        Destination::one(Stream::writer(out))
    }

    /// Every game into the file `path`, given its name by
    /// [`Destination::finish`] (see [`Stream::create`]).
    pub fn file(path: &Path, force: bool, inputs: &InputFiles) -> io::Result<Destination<'a>> {
        Stream::create(path, force, inputs).map(Destination::one)
    }

    /// Every game into one output.
    pub fn one(stream: Stream<'a>) -> Destination<'a> {
        Destination { to: To::One(stream) }
    }

    /// The games shared among files named after `base` (`NAME.EXT`) as
    /// `how` says (see [`Parts`]): each written under a temporary name,
    /// all named by [`Destination::finish`].
    ///
    /// # Errors
    ///
    /// [`OutputError::NotAFile`], [`OutputError::NoFileName`] and
    /// [`OutputError::TooLong`] (no room in the name for a value).
    pub fn split(
        base: &Path,
        how: SplitRule,
        force: bool,
        inputs: InputFiles,
    ) -> Result<Destination<'a>, OutputError> {
        let parts = Parts::new(base, force, inputs)?;
        if parts.label_room(MAX_VALUE) < 16 {
            return Err(OutputError::TooLong { path: base.to_path_buf() });
        }
        let split = SplitFiles { parts, how, in_last: 0, by_name: HashMap::new() };
        Ok(Destination { to: To::Split(split) })
    }

    /// One file per game in the folder `dir` (made if missing), with the
    /// extension `ext` (no dot), named after the game's title as
    /// [`FileNames`] names them; never over one of `inputs`, over an
    /// existing file only with `force`.
    pub fn folder(dir: &Path, ext: &str, force: bool, inputs: InputFiles) -> io::Result<Destination<'a>> {
        std::fs::create_dir_all(dir)?;
        let folder = Folder {
            dir: dir.to_path_buf(),
            ext: ext.to_string(),
            force,
            inputs,
            folder_of: HashMap::new(),
            names: HashMap::new(),
        };
        Ok(Destination { to: To::Folder(folder) })
    }

    /// For a folder: each input's files go into the folders below it that
    /// mirror where the input was found (`within`, in the order of
    /// `inputs`; see [`folder_of`]). Nothing for other destinations.
    pub fn mirroring(mut self, inputs: &[Input], within: &[Option<PathBuf>]) -> Destination<'a> {
        if let To::Folder(folder) = &mut self.to {
            for (k, input) in inputs.iter().enumerate() {
                let at = folder_of(input, within.get(k).and_then(Option::as_deref));
                if !at.as_os_str().is_empty() {
                    folder.folder_of.entry(input.name()).or_insert(at);
                }
            }
        }
        self
    }

    /// Every game in one CBL library `path` (written by
    /// [`Destination::finish`], named after the file's stem), each game
    /// given as its CBR record and title. Refused now when the file is one
    /// of `inputs`, or exists and `force` is not given.
    pub fn library(path: &Path, force: bool, inputs: InputFiles) -> io::Result<Destination<'a>> {
        inputs.refuse(path)?;
        if !force && path.exists() {
            return Err(Refused::Exists.error());
        }
        let into = Collect::Library { path: path.to_path_buf(), force, inputs };
        Ok(Destination { to: To::Collected { into, games: Vec::new() } })
    }

    /// Every game in one viewer page written into `out` by
    /// [`Destination::finish`], each game given as its page data and label
    /// (see [`crate::formats::html`]); titled after the file's stem when
    /// it holds more than one game.
    pub fn page(out: Stream<'a>) -> Destination<'a> {
        Destination { to: To::Collected { into: Collect::Page(out), games: Vec::new() } }
    }

    /// The split's rule, for a split.
    pub fn split_rule(&self) -> Option<SplitRule> {
        match &self.to {
            To::Split(split) => Some(split.how),
            _ => None,
        }
    }

    /// Whether the games go into one file (not a stream, a split, a
    /// folder or a collection).
    pub fn is_file(&self) -> bool {
        matches!(&self.to, To::One(stream) if stream.is_file())
    }

    /// Whether the games are collected, to be written as one file at the
    /// end (a library, a page).
    pub fn collects(&self) -> bool {
        matches!(&self.to, To::Collected { .. })
    }

    /// How many games were collected for a library or page.
    pub fn collected(&self) -> usize {
        match &self.to {
            To::Collected { games, .. } => games.len(),
            _ => 0,
        }
    }

    /// For a folder, the file `game` goes into, its name given now (a
    /// program that checks a file before writing it); write the game with
    /// it in [`WrittenGame::file`]. `None` for other destinations.
    pub fn name_file(&mut self, game: &WrittenGame) -> Option<PathBuf> {
        match &mut self.to {
            To::Folder(folder) => Some(folder.name(game)),
            _ => None,
        }
    }

    /// Writes `game` where it goes.
    ///
    /// # Errors
    ///
    /// [`DestinationError::Output`] when the one output fails (its error
    /// as it is: a program stops writing when it says no room is left),
    /// [`DestinationError::File`] when a folder's file or its folder
    /// cannot be written (the others may be), [`DestinationError::Parts`]
    /// for a split.
    pub fn write(&mut self, game: WrittenGame) -> Result<(), DestinationError> {
        match &mut self.to {
            To::One(stream) => stream.write_all(game.bytes).map_err(DestinationError::Output),
            To::Split(split) => Ok(split.write(&game)?),
            To::Folder(folder) => folder.write(&game),
            To::Collected { games, .. } => {
                let title = game.title.unwrap_or_default();
                let title = match game.line {
                    Some(id) if !title.is_empty() => format!("{title} (line {id})"),
                    _ => title.to_string(),
                };
                games.push((game.bytes.to_vec(), title));
                Ok(())
            }
        }
    }

    /// Keeps a game a previous run wrote, as it was written (`bytes`, and
    /// its title for a library): into the one output, or collected. Other
    /// destinations keep their files as they are.
    pub fn keep(&mut self, bytes: &[u8], title: &str) -> Result<(), DestinationError> {
        match &mut self.to {
            To::One(stream) => stream.write_all(bytes).map_err(DestinationError::Output),
            To::Collected { games, .. } => {
                games.push((bytes.to_vec(), title.to_string()));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Flushes the one output (a program that wants each game seen as it
    /// is written).
    pub fn flush(&mut self) -> Result<(), DestinationError> {
        match &mut self.to {
            To::One(stream) => stream.flush().map_err(DestinationError::Output),
            _ => Ok(()),
        }
    }

    /// Completes the destination: the one output committed, the files of
    /// a split named, the library or page written (see
    /// [`Destination::finish_telling`]).
    pub fn finish(self) -> Result<Finished, DestinationError> {
        self.finish_telling(|_, _| {})
    }

    /// As [`Destination::finish`], telling `lost` what a library could not
    /// keep, naming its file, before it is written.
    ///
    /// # Errors
    ///
    /// [`DestinationError::Output`] when a stream cannot be flushed or a
    /// page written, [`DestinationError::File`] when a file cannot be
    /// written or named, [`DestinationError::Parts`] for a split.
    pub fn finish_telling(
        self,
        mut lost: impl FnMut(&Path, &WriteWarning),
    ) -> Result<Finished, DestinationError> {
        match self.to {
            To::One(stream) => commit(stream).map(|()| Finished::default()),
            To::Split(split) => Ok(Finished { files: split.finish()? }),
            To::Folder(_) => Ok(Finished::default()),
            To::Collected { into: Collect::Library { path, force, inputs }, games } => {
                let title = stem(Some(&path));
                let library = crate::formats::ccbridge::write_library(&games, &title);
                for w in &library.warnings {
                    lost(&path, w);
                }
                write_new(&path, &library.bytes, force, &inputs)?;
                Ok(Finished::default())
            }
            To::Collected { into: Collect::Page(mut out), games } => {
                let title = if games.len() == 1 { String::new() } else { stem(out.path()) };
                let games: Vec<crate::formats::html::Game> = games
                    .into_iter()
                    .map(|(data, label)| {
                        // Always UTF-8: the bytes are a string's.
                        let data = String::from_utf8(data)
                            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
                        crate::formats::html::Game { data, label }
                    })
                    .collect();
                let page = crate::formats::html::page(&games, &title);
                out.write_all(page.as_bytes()).map_err(DestinationError::Output)?;
                commit(out).map(|()| Finished::default())
            }
        }
    }
}

/// Ends a stream: a failed flush is the output's error, a failed commit
/// the file's.
fn commit(stream: Stream) -> Result<(), DestinationError> {
    let path = stream.path().map(Path::to_path_buf);
    stream.commit().map_err(|source| match path {
        Some(path) => DestinationError::File { path, source },
        None => DestinationError::Output(source),
    })
}

/// The stem of a file's name (empty for none).
fn stem(path: Option<&Path>) -> String {
    path.and_then(Path::file_stem).map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Writes `bytes` as the new file `path` (with `force`, over an existing
/// one), never over one of `inputs`: whole or not at all.
fn write_new(path: &Path, bytes: &[u8], force: bool, inputs: &InputFiles) -> Result<(), DestinationError> {
    let written = inputs.refuse(path).and_then(|()| {
        let mut file = OutputFile::create(path, force)?;
        file.write_all(bytes)?;
        file.commit()
    });
    written.map_err(|source| DestinationError::File { path: path.to_path_buf(), source })
}

impl Folder {
    /// The file of `game`, its name given now.
    fn name(&mut self, game: &WrittenGame) -> PathBuf {
        let below = self.folder_of.get(game.source);
        let key = below.map_or_else(String::new, |f| f.to_string_lossy().to_lowercase());
        let names = self.names.entry(key).or_default();
        let name = names.name_line(game.title, game.source, game.index, game.line, &self.ext);
        match below {
            Some(below) => self.dir.join(below).join(name),
            None => self.dir.join(name),
        }
    }

    fn write(&mut self, game: &WrittenGame) -> Result<(), DestinationError> {
        let path = match game.file {
            Some(file) => file.to_path_buf(),
            None => self.name(game),
        };
        if self.folder_of.contains_key(game.source)
            && let Some(at) = path.parent()
        {
            std::fs::create_dir_all(at)
                .map_err(|source| DestinationError::File { path: at.to_path_buf(), source })?;
        }
        write_new(&path, game.bytes, self.force, &self.inputs)
    }
}

impl SplitFiles {
    /// Writes a game into its file: the next of [`SplitRule::Every`], or that
    /// of its value.
    fn write(&mut self, game: &WrittenGame) -> Result<(), OutputError> {
        let k = match self.how {
            SplitRule::Every(n) => {
                if self.parts.is_empty() || self.in_last >= n.max(1) {
                    self.in_last = 0;
                    let label = format!("{:0DIGITS$}", self.parts.len() + 1);
                    self.parts.add(label)?;
                }
                self.in_last += 1;
                self.parts.len() - 1
            }
            SplitRule::ByValue | SplitRule::BySource => {
                let stem;
                let value = match self.how {
                    SplitRule::BySource => {
                        stem = source_stem(game.source);
                        Some(stem.as_str())
                    }
                    _ => game.value,
                };
                let label = safe_value(value, self.parts.label_room(MAX_VALUE));
                let folded = label.to_lowercase();
                match self.by_name.get(&folded) {
                    Some(&k) => k,
                    None => {
                        let k = self.parts.add(label)?;
                        self.by_name.insert(folded, k);
                        k
                    }
                }
            }
        };
        self.parts.write(k, game.bytes)
    }

    /// Completes the files and names them; returns them in order.
    fn finish(mut self) -> Result<Vec<PathBuf>, OutputError> {
        if let SplitRule::Every(_) = self.how {
            let width = self.parts.len().to_string().len().max(DIGITS);
            if width > DIGITS {
                for k in 0..self.parts.len() {
                    self.parts.relabel(k, format!("{:0width$}", k + 1));
                }
            }
        }
        self.parts.finish()
    }
}

/// The stem of an input's name (`games` for `dir/games.pgn`).
fn source_stem(source: &str) -> String {
    Path::new(source).file_stem().map_or_else(|| source.to_string(), |s| s.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("qipu-destination-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn years_are_read_as_selection_reads_dates() {
        assert_eq!(year("1990.05.12").as_deref(), Some("1990"));
        assert_eq!(year("12/05/1990").as_deref(), Some("1990"));
        assert_eq!(year("19900512").as_deref(), Some("1990"));
        assert_eq!(year("1990年5月").as_deref(), Some("1990"));
        assert_eq!(year("５月 2001").as_deref(), Some("2001"));
        assert_eq!(year("96-12-18").as_deref(), Some("1996"));
        assert_eq!(year("????.??.??"), None);
    }

    #[test]
    fn values_come_from_tags_and_the_result() {
        let mut record = Record::default();
        record.set_tag("Red", "许银川");
        record.set_tag("Date", "2004.10.01");
        record.set_tag("Result", "1/2-1/2");
        assert_eq!(SplitKey::Red.value(&record).as_deref(), Some("许银川"));
        assert_eq!(SplitKey::Black.value(&record), None);
        assert_eq!(SplitKey::Year.value(&record).as_deref(), Some("2004"));
        assert_eq!(SplitKey::Result.value(&record).as_deref(), Some("draw"));
        record.set_tag("Result", "*");
        assert_eq!(SplitKey::Result.value(&record), None);
        assert_eq!(source_stem("dir/games.pgn"), "games");
    }

    #[test]
    fn a_split_by_count_numbers_its_files() {
        let dir = dir("split");
        let mut out =
            Destination::split(&dir.join("all.pgn"), SplitRule::Every(2), false, InputFiles::default())
                .unwrap();
        for k in 0..3 {
            out.write(WrittenGame::new(format!("{k}\n").as_bytes(), "a.pgn", k)).unwrap();
        }
        let files = out.finish().unwrap().files;
        assert_eq!(files, [dir.join("all-0001.pgn"), dir.join("all-0002.pgn")]);
        assert_eq!(std::fs::read(&files[0]).unwrap(), b"0\n1\n");
    }

    #[test]
    fn a_split_by_value_shares_files_among_values_alike() {
        let dir = dir("split-by");
        let mut out =
            Destination::split(&dir.join("all.pgn"), SplitRule::ByValue, false, InputFiles::default())
                .unwrap();
        for (k, value) in [Some("Xu"), None, Some("xu")].into_iter().enumerate() {
            out.write(WrittenGame { value, ..WrittenGame::new(b"g\n", "a.pgn", k) }).unwrap();
        }
        let files = out.finish().unwrap().files;
        assert_eq!(files, [dir.join("all-Xu.pgn"), dir.join("all-unknown.pgn")]);
        assert_eq!(std::fs::read(&files[0]).unwrap(), b"g\ng\n");
    }

    #[test]
    fn a_folder_names_files_and_never_writes_over_an_existing_one() {
        let dir = dir("folder");
        std::fs::write(dir.join("a.xqf"), b"theirs").unwrap();
        let mut out = Destination::folder(&dir, "xqf", false, InputFiles::default()).unwrap();
        let e =
            out.write(WrittenGame { title: Some("a"), ..WrittenGame::new(b"ours", "g.pgn", 0) }).unwrap_err();
        assert!(matches!(&e, DestinationError::File { path, .. } if *path == dir.join("a.xqf")));
        assert_eq!(e.io().and_then(Refused::of), Some(Refused::Exists));
        let named = out.name_file(&WrittenGame::new(b"", "g.pgn", 1)).unwrap();
        assert_eq!(named, dir.join("g-2.xqf"));
        out.write(WrittenGame { file: Some(&named), ..WrittenGame::new(b"ours", "g.pgn", 1) }).unwrap();
        assert_eq!(std::fs::read(&named).unwrap(), b"ours");
    }

    #[test]
    fn a_library_is_written_at_the_end() {
        let dir = dir("library");
        let path = dir.join("lib.cbl");
        let mut out = Destination::library(&path, false, InputFiles::default()).unwrap();
        let record = crate::formats::pgn::read("[Title \"决赛\"]\n1. h2e2 h9g7 *\n").remove(0);
        let cbr = crate::formats::ccbridge::write_cbr(&record).unwrap().bytes;
        out.write(WrittenGame { title: Some("决赛"), ..WrittenGame::new(&cbr, "g.pgn", 0) }).unwrap();
        assert!(!path.exists());
        assert_eq!(out.collected(), 1);
        out.finish().unwrap();
        let read = crate::formats::ccbridge::read_cbl(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(read.records.len(), 1);
        let e = Destination::library(&path, false, InputFiles::default()).err().unwrap();
        assert_eq!(Refused::of(&e), Some(Refused::Exists));
    }

    #[test]
    fn write_errors_of_a_stream_name_it_and_keep_their_kind() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::StorageFull.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut full = Full;
        let mut out = Destination::stream(&mut full);
        let Err(DestinationError::Output(e)) = out.write(WrittenGame::new(b"x", "a.pgn", 0)) else {
            panic!()
        };
        assert_eq!(e.kind(), io::ErrorKind::StorageFull);
        assert!(e.to_string().starts_with("standard output: "), "{e}");
    }
}

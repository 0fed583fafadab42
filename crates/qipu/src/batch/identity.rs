//! Which inputs are one file, and which are where the run writes: files
//! told apart by device and inode on Unix, by canonical path elsewhere.
//!
//! A file named twice (or reached again through a link, or named and also
//! found in a folder named) is read once; a file the run writes into (its
//! standard output redirected to a file, an output file found in a folder
//! it reads) is not read at all. Each is an [`Unread`] of
//! [`Expanded::unread`](super::Expanded::unread), to tell.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::{ProblemLine, escaped_name};

/// A file's identity: its device and inode on Unix, its canonical path
/// elsewhere.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Identity {
    #[cfg_attr(not(unix), allow(dead_code))]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

/// The identity of the file at `path`, whose metadata is `meta`.
pub(crate) fn identity(path: &Path, meta: &std::fs::Metadata) -> Identity {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = path;
        Identity::Inode(meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        Identity::Path(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
    }
}

/// The files a run writes into, which its inputs leave out (see
/// [`expand_writing`](super::expand_writing)).
///
/// ```
/// let outputs = qipu::batch::Outputs::new().with_file("fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn".as_ref());
/// // Found while walking a folder: not read.
/// let expanded = qipu::batch::expand_writing(&["fixtures/pgn".into()], &outputs);
/// assert!(expanded.inputs.is_empty());
/// assert_eq!(expanded.unread.len(), 1);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// Written as a stream (standard output): never read.
    streams: HashSet<Identity>,
    /// Written by name (`-o FILE`): not read when found in a folder.
    files: HashSet<Identity>,
}

impl Outputs {
    /// No output.
    pub fn new() -> Outputs {
        Outputs::default()
    }

    /// With standard output, when it is a regular file (`> out.pgn`,
    /// `>> games.pgn`): never read, named or found in a folder. (On other
    /// systems than Unix, standard output is not known by path: left out.)
    pub fn with_stdout(mut self) -> Outputs {
        if let Some(id) = stdout_identity() {
            self.streams.insert(id);
        }
        self
    }

    /// With the file at `path` (`-o FILE`), when it exists and is a
    /// regular file: not read when found in a folder. Named on the command
    /// line, it stays an input, and the program refuses to write over it
    /// (see [`InputFiles::refuse`](crate::output::InputFiles::refuse)).
    pub fn with_file(mut self, path: &Path) -> Outputs {
        if let Ok(meta) = std::fs::metadata(path)
            && meta.is_file()
        {
            self.files.insert(identity(path, &meta));
        }
        self
    }

    /// Whether the file `id`, `found` in a folder or named, is written by
    /// the run.
    pub(crate) fn writes(&self, id: &Identity, found: bool) -> bool {
        self.streams.contains(id) || (found && self.files.contains(id))
    }
}

/// The identity of standard output, when it is a regular file.
#[cfg(unix)]
fn stdout_identity() -> Option<Identity> {
    use std::os::fd::AsFd;
    // A duplicate of the descriptor, closed when the file is dropped.
    let fd = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
    let meta = std::fs::File::from(fd).metadata().ok()?;
    meta.is_file().then(|| identity(Path::new(""), &meta))
}

#[cfg(not(unix))]
fn stdout_identity() -> Option<Identity> {
    None
}

/// A file of the inputs that is not read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unread {
    /// Its path, as named or found.
    pub path: PathBuf,
    /// Why it is not read.
    pub why: Why,
}

/// Why a file of the inputs is not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// The run writes into it.
    Output,
    /// It is the same file as one read already, at this path.
    Again {
        /// The path it is read at.
        first: PathBuf,
    },
}

impl Unread {
    /// The note that tells it: `PATH: note: where this run writes its
    /// output; not read`, `PATH: note: the same file as FIRST; read once`
    /// (`named again; read once` when FIRST is PATH).
    pub fn note(&self) -> ProblemLine {
        let name = escaped_name(&self.path);
        let reason = match &self.why {
            Why::Output => "where this run writes its output; not read".to_string(),
            Why::Again { first } if *first == self.path => "named again; read once".to_string(),
            Why::Again { first } => format!("the same file as {}; read once", escaped_name(first)),
        };
        ProblemLine::input_note(&name, reason)
    }
}

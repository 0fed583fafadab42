//! The files a run reads, which no output replaces.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::Refused;

/// The files a run reads, by their identity: what no output replaces.
///
/// On Unix a file is known by its device and inode (one `stat` an input,
/// following links), so that a link, a hard link or any other name of an
/// input is refused; elsewhere by its canonical path. The inputs are
/// looked at only when an output is about to replace a file that exists:
/// a new file is no input, and a run over ten thousand files that writes
/// new ones makes no call for them (that took a tenth of the time of an
/// export of such a folder's games).
#[derive(Clone, Debug, Default)]
pub struct InputFiles {
    paths: Vec<PathBuf>,
    /// The identities of `paths`, found when first needed.
    ids: OnceLock<HashSet<FileId>>,
}

/// What tells a file from another.
#[cfg(unix)]
type FileId = (u64, u64);
#[cfg(not(unix))]
type FileId = PathBuf;

/// The identity of the file `path` names, if it exists.
fn file_id(path: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(path).ok()
    }
}

impl InputFiles {
    /// The files among `inputs` (standard input is none).
    pub fn of(inputs: &[crate::batch::Input]) -> InputFiles {
        InputFiles::of_paths(inputs.iter().filter_map(crate::batch::Input::path))
    }

    /// The files of `paths` (those that do not exist are left out).
    pub(crate) fn of_paths<'a>(paths: impl IntoIterator<Item = &'a Path>) -> InputFiles {
        InputFiles { paths: paths.into_iter().map(Path::to_path_buf).collect(), ids: OnceLock::new() }
    }

    /// The identities of the inputs that exist.
    fn ids(&self) -> &HashSet<FileId> {
        self.ids.get_or_init(|| self.paths.iter().filter_map(|p| file_id(p)).collect())
    }

    /// Fails ([`Refused::Input`]) when `target` is one of the inputs, under
    /// any name (a link, `..`, `/dev/stdout` pointing at it).
    ///
    /// # Errors
    ///
    /// [`Refused::Input`] in an [`io::Error`].
    pub fn refuse(&self, target: &Path) -> io::Result<()> {
        // A file that is not there is no input.
        if file_id(target).is_some_and(|id| self.ids().contains(&id)) {
            return Err(Refused::Input.error());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_is_refused_under_any_name() {
        let dir = std::env::temp_dir().join(format!("qipu-inputs-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let input = dir.join("games.pgn");
        std::fs::write(&input, b"1. h2e2 *\n").unwrap();
        let inputs = InputFiles::of_paths([input.as_path()]);
        let e = inputs.refuse(&dir.join("sub/../games.pgn")).unwrap_err();
        assert_eq!(Refused::of(&e), Some(Refused::Input));
        assert_eq!(e.to_string(), "is an input file; not written over");
        assert!(inputs.refuse(&dir.join("other.pgn")).is_ok());
        let fresh = InputFiles::of_paths([input.as_path()]);
        assert!(fresh.refuse(&dir.join("other.pgn")).is_ok());
        assert!(fresh.ids.get().is_none(), "a new file needs no look at the inputs");
        std::fs::write(dir.join("other.pgn"), b"").unwrap();
        assert!(inputs.refuse(&dir.join("other.pgn")).is_ok(), "an existing file is no input");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&input, dir.join("link.pgn")).unwrap();
            std::fs::hard_link(&input, dir.join("hard.pgn")).unwrap();
            for name in ["link.pgn", "hard.pgn"] {
                let e = inputs.refuse(&dir.join(name)).unwrap_err();
                assert_eq!(Refused::of(&e), Some(Refused::Input), "{name}");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

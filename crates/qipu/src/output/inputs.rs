//! The files a run reads, which no output replaces.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

use super::Refused;

/// The files a run reads, by canonical path: what no output replaces.
#[derive(Clone, Debug, Default)]
pub struct InputFiles {
    paths: HashSet<PathBuf>,
}

impl InputFiles {
    /// The files among `inputs` (standard input is none).
    pub fn of(inputs: &[crate::batch::Input]) -> InputFiles {
        InputFiles::of_paths(inputs.iter().filter_map(crate::batch::Input::path))
    }

    /// The files of `paths` (those that do not exist are left out).
    pub(crate) fn of_paths<'a>(paths: impl IntoIterator<Item = &'a Path>) -> InputFiles {
        InputFiles { paths: paths.into_iter().filter_map(|p| std::fs::canonicalize(p).ok()).collect() }
    }

    /// Fails ([`Refused::Input`]) when `target` is one of the inputs, under
    /// any name (a link, `..`, `/dev/stdout` pointing at it).
    ///
    /// # Errors
    ///
    /// [`Refused::Input`] in an [`io::Error`].
    pub fn refuse(&self, target: &Path) -> io::Result<()> {
        if std::fs::canonicalize(target).is_ok_and(|p| self.paths.contains(&p)) {
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
        std::fs::write(dir.join("other.pgn"), b"").unwrap();
        assert!(inputs.refuse(&dir.join("other.pgn")).is_ok(), "an existing file is no input");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

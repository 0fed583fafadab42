//! The inputs of a command: files, directories searched recursively, and
//! `-` for standard input.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::Failure;

/// One input to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A file.
    File(PathBuf),
    /// Standard input.
    Stdin,
}

impl Input {
    /// The name used in reports (`-` for standard input).
    pub fn name(&self) -> String {
        match self {
            Input::File(p) => p.display().to_string(),
            Input::Stdin => "-".to_string(),
        }
    }

    /// The content, to read a piece at a time.
    pub fn open(&self) -> std::io::Result<Box<dyn Read + Send>> {
        Ok(match self {
            Input::File(p) => Box::new(std::fs::File::open(p)?),
            Input::Stdin => Box::new(std::io::stdin()),
        })
    }

    /// The whole content.
    pub fn read(&self) -> std::io::Result<Vec<u8>> {
        match self {
            Input::File(p) => std::fs::read(p),
            Input::Stdin => {
                let mut buf = Vec::new();
                std::io::stdin().lock().read_to_end(&mut buf)?;
                Ok(buf)
            }
        }
    }
}

/// Expands the command-line paths: directories into the files below them
/// (sorted by name, so the order is the same on every run).
pub fn expand(paths: &[PathBuf]) -> Result<Vec<Input>, Failure> {
    let mut out = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            out.push(Input::Stdin);
        } else if path.is_dir() {
            walk(path, &mut out)?;
        } else if path.exists() {
            out.push(Input::File(path.clone()));
        } else {
            return Err(Failure::usage(format!("{}: no such file or directory", path.display())));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<Input>) -> Result<(), Failure> {
    let io = |e: std::io::Error| Failure::usage(format!("{}: {e}", dir.display()));
    // The entry's type comes with the directory listing on most systems:
    // no extra call per file (symbolic links are followed with one).
    let mut entries: Vec<(PathBuf, bool)> = std::fs::read_dir(dir)
        .map_err(io)?
        .map(|e| {
            let e = e?;
            let kind = e.file_type()?;
            let is_dir = if kind.is_symlink() { e.path().is_dir() } else { kind.is_dir() };
            Ok((e.path(), is_dir))
        })
        .collect::<Result<_, std::io::Error>>()
        .map_err(io)?;
    entries.sort();
    for (p, is_dir) in entries {
        if is_dir {
            walk(&p, out)?;
        } else {
            out.push(Input::File(p));
        }
    }
    Ok(())
}

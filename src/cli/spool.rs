//! Standard input kept in a temporary file, for commands that read their
//! inputs more than once (`duplicates`, `--dedupe` with another kind or
//! `--keep`).

use std::path::PathBuf;

use super::Failure;
use qipu::batch::Input;

/// Standard input kept in a temporary file, removed when dropped.
#[derive(Debug)]
pub struct Spooled(PathBuf);

impl Drop for Spooled {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Copies standard input, when it is one of `inputs`, into a new
/// temporary file, and makes each such input read that file
/// ([`Input::KeptStdin`], still named `-`). The file lives as long as the
/// guard.
///
/// # Errors
///
/// A usage error naming the file when it cannot be made or written.
pub fn keep_stdin(inputs: &mut [Input]) -> Result<Option<Spooled>, Failure> {
    if !inputs.iter().any(|i| matches!(i, Input::Stdin)) {
        return Ok(None);
    }
    let path = std::env::temp_dir().join(format!(".qipu-stdin-{}", std::process::id()));
    let failed = |e: std::io::Error| {
        Failure::usage(format!("standard input: cannot keep it in {}: {e}", path.display()))
    };
    let mut file = std::fs::File::options().write(true).create_new(true).open(&path).map_err(failed)?;
    let spooled = Spooled(path.clone());
    std::io::copy(&mut std::io::stdin().lock(), &mut file).map_err(failed)?;
    for input in inputs.iter_mut().filter(|i| matches!(i, Input::Stdin)) {
        *input = Input::KeptStdin { path: path.clone() };
    }
    Ok(Some(spooled))
}

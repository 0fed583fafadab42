//! Files the commands write: written under a temporary name in the same
//! directory and renamed into place only when complete, so that a reader
//! never sees half a file, an existing file is replaced only with
//! `--force`, and a failed run leaves nothing behind.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written; it appears under its name on [`OutputFile::commit`].
/// Dropped without a commit, it is removed, and so it is when the run is
/// interrupted (Ctrl-C, SIGTERM): only a process killed outright can leave
/// the temporary `.NAME.qipu-partial-PID` beside the target, never a
/// partial target.
#[derive(Debug)]
pub struct OutputFile {
    target: PathBuf,
    temp: PathBuf,
    file: Option<BufWriter<File>>,
    force: bool,
}

impl OutputFile {
    /// Starts writing `target`; fails at once if it exists and `force` is
    /// not given.
    pub fn create(target: &Path, force: bool) -> io::Result<OutputFile> {
        if !force && target.exists() {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                "exists; not written over (use --force)",
            ));
        }
        let name = target.file_name().map_or("output".into(), |n| n.to_string_lossy().into_owned());
        let temp = target.with_file_name(format!(".{name}.qipu-partial-{}", std::process::id()));
        let file = File::options().write(true).create_new(true).open(&temp)?;
        pending(|files| files.push(temp.clone()));
        Ok(OutputFile { target: target.to_path_buf(), temp, file: Some(BufWriter::new(file)), force })
    }

    /// Finishes the file and moves it to its name. Without `force`, an
    /// existing file of that name (made meanwhile) is left alone and this
    /// fails.
    pub fn commit(mut self) -> io::Result<()> {
        let file = self.file.take().expect("not committed twice");
        pending(|files| files.retain(|f| *f != self.temp));
        file.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()?;
        if self.force {
            std::fs::rename(&self.temp, &self.target)?;
        } else {
            // A hard link fails when the name is taken: no race can lose a file.
            match std::fs::hard_link(&self.temp, &self.target) {
                Ok(()) => std::fs::remove_file(&self.temp)?,
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    return Err(io::Error::new(
                        io::ErrorKind::AlreadyExists,
                        "exists; not written over (use --force)",
                    ));
                }
                // File systems without hard links: rename after a last check.
                Err(_) if !self.target.exists() => std::fs::rename(&self.temp, &self.target)?,
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.as_mut().expect("open until committed").write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.as_mut().expect("open until committed").flush()
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.temp);
            pending(|files| files.retain(|f| *f != self.temp));
        }
    }
}

/// Runs `f` on the temporary files being written, the first time setting
/// up the interrupt handler that removes them before the process ends.
fn pending(f: impl FnOnce(&mut Vec<PathBuf>)) {
    static FILES: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    static HANDLER: std::sync::Once = std::sync::Once::new();
    HANDLER.call_once(|| {
        // Without a handler (one set elsewhere), interruption leaves the
        // temporary file; the target is never partial either way.
        let _ = ctrlc::set_handler(|| {
            if let Ok(files) = FILES.lock() {
                for file in files.iter() {
                    let _ = std::fs::remove_file(file);
                }
            }
            eprintln!("qipu: interrupted; no partial output file is left");
            std::process::exit(130);
        });
    });
    if let Ok(mut files) = FILES.lock() {
        f(&mut files);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("qipu-output-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn appears_whole_on_commit_and_not_before() {
        let dir = dir("commit");
        let target = dir.join("out.pgn");
        let mut out = OutputFile::create(&target, false).unwrap();
        out.write_all(b"1. h2e2 *\n").unwrap();
        assert!(!target.exists());
        out.commit().unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"1. h2e2 *\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left");
    }

    #[test]
    fn an_existing_file_needs_force_and_a_dropped_file_leaves_nothing() {
        let dir = dir("force");
        let target = dir.join("out.pgn");
        std::fs::write(&target, b"theirs").unwrap();
        assert_eq!(OutputFile::create(&target, false).unwrap_err().kind(), io::ErrorKind::AlreadyExists);
        let mut out = OutputFile::create(&target, true).unwrap();
        out.write_all(b"half").unwrap();
        drop(out);
        assert_eq!(std::fs::read(&target).unwrap(), b"theirs", "a failed run changes nothing");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        let mut out = OutputFile::create(&target, true).unwrap();
        out.write_all(b"ours").unwrap();
        out.commit().unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"ours");
    }
}

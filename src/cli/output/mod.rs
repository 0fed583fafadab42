//! Files the commands write: written where no one sees them and given
//! their name only when complete, so that a reader never sees half a file,
//! an existing file is replaced only with `--force`, and a failed run
//! leaves nothing behind.
//!
//! On Linux the file is written without a name (`O_TMPFILE`) and linked
//! into place: even a process killed outright leaves nothing. Elsewhere, or
//! on file systems without unnamed files, it is written as
//! `.NAME.qipu-partial-PID` beside the target and renamed.
//!
//! A target that is a stream rather than a regular file (a character device
//! such as `/dev/null`, a pipe, `/dev/stdout`), or any path under `/dev`, is
//! written into at its end, never replaced, removed or created; a block
//! device (a disk) and a directory are refused. A link to a regular file is
//! followed: the file it names is replaced, and the link stays.
//!
//! [`Sink`] is what the printing commands write into (standard output or
//! `-o FILE`, never over an input), and [`Parts`] the many files of
//! `convert --split` and `--split-by`.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

mod names;
mod parts;
mod sink;

pub use names::safe_value;
pub use parts::Parts;
pub use sink::{InputFiles, OutputArgs, Sink};

/// A file being written; it appears under its name on [`OutputFile::commit`].
/// Dropped without a commit, it is removed, and so it is when the run is
/// interrupted (Ctrl-C, SIGTERM).
#[derive(Debug)]
pub struct OutputFile {
    target: PathBuf,
    /// Written into directly (a device, a pipe): nothing to move at the end.
    direct: bool,
    /// The temporary name, for a file written under one.
    temp: Option<PathBuf>,
    file: Option<BufWriter<File>>,
    force: bool,
}

/// The error of a target that exists, without `--force`.
pub(super) fn exists_error() -> io::Error {
    io::Error::new(io::ErrorKind::AlreadyExists, "exists; not written over (use --force)")
}

impl OutputFile {
    /// Starts writing `target`; fails at once if it exists and `force` is
    /// not given.
    pub fn create(target: &Path, force: bool) -> io::Result<OutputFile> {
        refuse_unwritable(target)?;
        if written_into(target) {
            // At its end: a file reached through `/dev/stdout` that the
            // shell opened to append to is appended to.
            let file = File::options().append(true).open(target)?;
            let file = Some(BufWriter::new(file));
            return Ok(OutputFile { target: target.to_path_buf(), direct: true, temp: None, file, force });
        }
        // A link to a regular file: the file is replaced, the link stays.
        let target = &match std::fs::symlink_metadata(target) {
            Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(target)?,
            _ => target.to_path_buf(),
        };
        if !force && target.exists() {
            return Err(exists_error());
        }
        pending(|_| ()); // the interrupt handler, for the exit code and message
        let (file, temp) = match unnamed::create(target) {
            Some(file) => (file, None),
            None => {
                let temp = temp_name(target);
                let file = create_pending(&temp)?;
                (file, Some(temp))
            }
        };
        Ok(OutputFile {
            target: target.to_path_buf(),
            direct: false,
            temp,
            file: Some(BufWriter::new(file)),
            force,
        })
    }

    /// Finishes the file and moves it to its name. Without `force`, an
    /// existing file of that name (made meanwhile) is left alone and this
    /// fails.
    pub fn commit(mut self) -> io::Result<()> {
        let file = self.file.take().expect("not committed twice");
        let mut file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
        if self.direct {
            return Ok(());
        }
        file.sync_all()?;
        let temp = match self.temp.take() {
            Some(temp) => temp,
            None if !self.force => {
                // Linking fails when the name is taken: no race can lose a file.
                match unnamed::link(&file, &self.target) {
                    Ok(()) => return Ok(()),
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Err(exists_error()),
                    // The file cannot be linked (no /proc, no right to link
                    // by descriptor): its bytes go under a temporary name.
                    Err(_) => copy_to_temp(&mut file, &self.target)?,
                }
            }
            None => {
                // A link cannot replace a file: name it, then rename it
                // over. The name is one the interrupt handler removes.
                let temp = temp_name(&self.target);
                let linked = pending(|files| {
                    files.push(temp.clone());
                    unnamed::link(&file, &temp)
                });
                if linked.is_err() {
                    let _ = std::fs::remove_file(&temp);
                    pending(|files| files.retain(|f| *f != temp));
                    copy_to_temp(&mut file, &self.target)?
                } else {
                    temp
                }
            }
        };
        let result = place(&temp, &self.target, self.force);
        if result.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        pending(|files| files.retain(|f| *f != temp));
        result
    }
}

/// Whether `target` is written into rather than replaced: it exists and is
/// not a regular file (a device, a pipe, `/dev/stdout`), or it lies under
/// `/dev`.
pub(super) fn written_into(target: &Path) -> bool {
    target.starts_with("/dev") || std::fs::metadata(target).is_ok_and(|m| !m.is_file())
}

/// Fails for a target no output goes into: a directory, or a block device
/// (a disk, whose contents writing would destroy).
fn refuse_unwritable(target: &Path) -> io::Result<()> {
    let Ok(meta) = std::fs::metadata(target) else { return Ok(()) };
    if meta.is_dir() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "is a directory; not written into"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if meta.file_type().is_block_device() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "is a block device (a disk); not written into",
            ));
        }
    }
    Ok(())
}

/// Copies an unnamed file that could not be linked into a new file under
/// the temporary name of `target` (one the interrupt handler removes).
fn copy_to_temp(file: &mut File, target: &Path) -> io::Result<PathBuf> {
    use std::io::Seek;
    let temp = temp_name(target);
    let mut copy = create_pending(&temp)?;
    file.seek(io::SeekFrom::Start(0))?;
    let copied = std::io::copy(file, &mut copy).and_then(|_| copy.sync_all());
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&temp);
        pending(|files| files.retain(|f| *f != temp));
        return Err(e);
    }
    Ok(temp)
}

/// `.NAME.qipu-partial-PID` beside `target`.
pub(super) fn temp_name(target: &Path) -> PathBuf {
    let name = target.file_name().map_or("output".into(), |n| n.to_string_lossy().into_owned());
    target.with_file_name(format!(".{name}.qipu-partial-{}", std::process::id()))
}

/// Moves the complete file `temp` to `target`; without `force`, only if
/// `target` does not exist.
pub(super) fn place(temp: &Path, target: &Path, force: bool) -> io::Result<()> {
    if force {
        return std::fs::rename(temp, target);
    }
    // A hard link fails when the name is taken: no race can lose a file.
    match std::fs::hard_link(temp, target) {
        Ok(()) => std::fs::remove_file(temp),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(exists_error()),
        // File systems without hard links: rename after a last check.
        Err(_) if !target.exists() => std::fs::rename(temp, target),
        Err(e) => Err(e),
    }
}

/// Files without a name until they are linked into place (Linux).
#[cfg(target_os = "linux")]
mod unnamed {
    use std::fs::File;
    use std::io;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::io::AsRawFd;
    use std::path::Path;

    /// An unnamed file in the directory of `target`; `None` where the
    /// file system or kernel has none.
    pub fn create(target: &Path) -> Option<File> {
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        File::options().write(true).mode(0o666).custom_flags(libc::O_TMPFILE).open(dir).ok()
    }

    /// Gives `file` the name `path`; fails if the name is taken. Through
    /// `/proc/self/fd` when it is there, else by the descriptor itself
    /// (which needs the right to: root's).
    pub fn link(file: &File, path: &Path) -> io::Result<()> {
        let to = std::ffi::CString::new(path.as_os_str().as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in the file name"))?;
        let rc = if Path::new("/proc/self/fd").is_dir() {
            let from = std::ffi::CString::new(format!("/proc/self/fd/{}", file.as_raw_fd())).expect("no NUL");
            // SAFETY: both are valid NUL-terminated paths that outlive the call.
            unsafe {
                libc::linkat(
                    libc::AT_FDCWD,
                    from.as_ptr(),
                    libc::AT_FDCWD,
                    to.as_ptr(),
                    libc::AT_SYMLINK_FOLLOW,
                )
            }
        } else {
            // SAFETY: an open descriptor, an empty path and a valid
            // NUL-terminated target that outlive the call.
            unsafe {
                libc::linkat(file.as_raw_fd(), c"".as_ptr(), libc::AT_FDCWD, to.as_ptr(), libc::AT_EMPTY_PATH)
            }
        };
        if rc == 0 { Ok(()) } else { Err(io::Error::last_os_error()) }
    }
}

/// Elsewhere every file is written under a temporary name.
#[cfg(not(target_os = "linux"))]
mod unnamed {
    use std::fs::File;
    use std::io;
    use std::path::Path;

    pub fn create(_: &Path) -> Option<File> {
        None
    }

    pub fn link(_: &File, _: &Path) -> io::Result<()> {
        Err(io::Error::other("no unnamed files here"))
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
        // An unnamed file goes with its handle.
        if self.file.take().is_some()
            && let Some(temp) = self.temp.take()
        {
            let _ = std::fs::remove_file(&temp);
            pending(|files| files.retain(|f| *f != temp));
        }
    }
}

/// Creates the new file `temp`, one the interrupt handler removes: made
/// while the handler cannot run, so that none is made and left behind.
pub(super) fn create_pending(temp: &Path) -> io::Result<File> {
    pending(|files| {
        let file = File::options().write(true).create_new(true).open(temp)?;
        files.push(temp.to_path_buf());
        Ok(file)
    })
}

/// Runs `f` on the temporary files being written, the first time setting
/// up the interrupt handler that removes them before the process ends. The
/// handler waits for `f` to end, and holds the list until the process ends:
/// a file made and listed in `f` is always removed.
pub(super) fn pending<R>(f: impl FnOnce(&mut Vec<PathBuf>) -> R) -> R {
    static FILES: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    static HANDLER: std::sync::Once = std::sync::Once::new();
    HANDLER.call_once(|| {
        // Without a handler (one set elsewhere), interruption leaves the
        // temporary file; the target is never partial either way.
        let _ = ctrlc::set_handler(|| {
            let mut left = Vec::new();
            // Held until the process ends: no file is listed meanwhile.
            let files = FILES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            for file in files.iter() {
                if std::fs::remove_file(file).is_err() && file.exists() {
                    left.push(file.display().to_string());
                }
            }
            if left.is_empty() {
                eprintln!("qipu: interrupted; no partial output file is left");
            } else {
                eprintln!("qipu: interrupted; could not remove the partial file(s) {}", left.join(", "));
            }
            std::process::exit(130);
        });
    });
    f(&mut FILES.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
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

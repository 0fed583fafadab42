//! Files written safely: written where no one sees them and given their
//! name only when complete, so that a reader never sees half a file, an
//! existing file is replaced only when asked (`force`), an input is never
//! written over ([`InputFiles`]), and a failed run leaves nothing behind.
//! The `qipu` command and the Python binding write through this module.
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
//! [`Parts`] writes many files named after one (`convert --split`),
//! [`names`] makes game values (titles, players) into safe file names, and
//! [`Destination`] is where a program's written games go: one output, the
//! files of a split, a folder of a file per game, or a library.
//!
//! Temporary files are listed while they are written: a program that
//! handles interruption (Ctrl-C, SIGTERM) calls [`remove_partial_files`]
//! before it exits; [`on_first_file`] tells it when to set its handler up.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

mod destination;
mod inputs;
pub mod names;
mod parts;

pub use destination::{Destination, DestinationError, Finished, SplitKey, SplitRule, Stream, WrittenGame};
pub use inputs::InputFiles;
pub use parts::{OutputError, Parts};

/// A file being written; it appears under its name on [`OutputFile::commit`].
/// Dropped without a commit, it is removed, and so it is when the run is
/// interrupted, by the program's call of [`remove_partial_files`].
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

/// Why a target is not written: the error inside the [`io::Error`] (see
/// [`Refused::of`]) of a refusal of this module.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The target exists, and `force` was not given.
    #[error("exists; not written over")]
    Exists,
    /// The target is one of the inputs.
    #[error("is an input file; not written over")]
    Input,
    /// The target is a directory.
    #[error("is a directory; not written into")]
    Directory,
    /// The target is a block device.
    #[error("is a block device (a disk); not written into")]
    BlockDevice,
    /// The target is not a regular file where one is needed (a part of
    /// [`Parts`]).
    #[error("not a regular file; not written")]
    NotRegular,
}

impl Refused {
    /// The refusal an I/O error of this module is, if it is one.
    pub fn of(e: &io::Error) -> Option<Refused> {
        e.get_ref().and_then(|inner| inner.downcast_ref::<Refused>()).copied()
    }

    /// The refusal as an I/O error (of kind `AlreadyExists` for
    /// [`Refused::Exists`], `InvalidInput` else).
    pub fn error(self) -> io::Error {
        let kind = match self {
            Refused::Exists => io::ErrorKind::AlreadyExists,
            _ => io::ErrorKind::InvalidInput,
        };
        io::Error::new(kind, self)
    }
}

/// The error of a target that exists, without `force`.
pub(crate) fn exists_error() -> io::Error {
    Refused::Exists.error()
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
        pending(|_| ()); // the hook of `on_first_file`, for the interrupt handler
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
pub(crate) fn written_into(target: &Path) -> bool {
    target.starts_with("/dev") || std::fs::metadata(target).is_ok_and(|m| !m.is_file())
}

/// Fails for a target no output goes into: a directory, or a block device
/// (a disk, whose contents writing would destroy).
fn refuse_unwritable(target: &Path) -> io::Result<()> {
    let Ok(meta) = std::fs::metadata(target) else { return Ok(()) };
    if meta.is_dir() {
        return Err(Refused::Directory.error());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if meta.file_type().is_block_device() {
            return Err(Refused::BlockDevice.error());
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
pub(crate) fn temp_name(target: &Path) -> PathBuf {
    let name = target.file_name().map_or("output".into(), |n| n.to_string_lossy().into_owned());
    target.with_file_name(format!(".{name}.qipu-partial-{}", std::process::id()))
}

/// Moves the complete file `temp` to `target`; without `force`, only if
/// `target` does not exist.
pub(crate) fn place(temp: &Path, target: &Path, force: bool) -> io::Result<()> {
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
pub(crate) fn create_pending(temp: &Path) -> io::Result<File> {
    pending(|files| {
        let file = File::options().write(true).create_new(true).open(temp)?;
        files.push(temp.to_path_buf());
        Ok(file)
    })
}

/// The temporary files being written.
static FILES: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// The function [`on_first_file`] was given.
static FIRST_FILE: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Has `hook` called once, the first time a file is about to be written
/// (before any temporary file is made): where a program sets up the
/// interrupt handler that calls [`remove_partial_files`]. Only the first
/// hook given counts; returns whether it is this one.
pub fn on_first_file(hook: fn()) -> bool {
    FIRST_FILE.set(hook).is_ok()
}

/// Removes the temporary files being written, for a program that is about
/// to end on an interruption; returns those that could not be removed.
/// The list stays locked until the process ends, so that no file is made
/// and left behind meanwhile: a thread about to make one waits (call this
/// only just before exiting).
pub fn remove_partial_files() -> Vec<PathBuf> {
    let files = FILES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let left = files.iter().filter(|f| std::fs::remove_file(f).is_err() && f.exists()).cloned().collect();
    // Held until the process ends: no file is listed meanwhile.
    std::mem::forget(files);
    left
}

/// Runs `f` on the temporary files being written, the first time calling
/// the hook of [`on_first_file`]. An interruption's
/// [`remove_partial_files`] waits for `f` to end: a file made and listed
/// in `f` is always removed.
pub(crate) fn pending<R>(f: impl FnOnce(&mut Vec<PathBuf>) -> R) -> R {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        // Without a hook, interruption leaves the temporary file; the
        // target is never partial either way.
        if let Some(hook) = FIRST_FILE.get() {
            hook();
        }
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
        let e = OutputFile::create(&target, false).unwrap_err();
        assert_eq!((e.kind(), Refused::of(&e)), (io::ErrorKind::AlreadyExists, Some(Refused::Exists)));
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

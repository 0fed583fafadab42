//! The files of a split output (`qipu convert --split`, `--split-by`):
//! beside `STEM.EXT`, one `STEM-LABEL.EXT` per part. Each part is written under
//! a temporary name (`.STEM.qipu-partial-PID-K`, removed when the run fails
//! or is interrupted) and given its name only when every part is complete,
//! after checking that no name is an input, nor, without `force`, an
//! existing file. At most [`MAX_OPEN`] files are open at once: a part put
//! aside is closed and opened again to append to, so that thousands of
//! parts need no more file descriptors than a few.

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::{InputFiles, Refused, create_pending, exists_error, pending, place, written_into};

/// Why the files of [`Parts`] cannot be written, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The base name is no file name: a device, a stream, a directory.
    #[error("{}: not a file name", .path.display())]
    NotAFile {
        /// The base name.
        path: PathBuf,
    },
    /// The base name has no file name to add labels to (`..`, `/`).
    #[error("{}: no file name", .path.display())]
    NoFileName {
        /// The base name.
        path: PathBuf,
    },
    /// The base name leaves too little room in a file name for the labels
    /// of the parts.
    #[error("{}: too long a name to add values to", .path.display())]
    TooLong {
        /// The base name.
        path: PathBuf,
    },
    /// A file is refused ([`Refused`], in `source`) or cannot be named.
    #[error("{}: {source}", .path.display())]
    Refused {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A file (or, while the files are made durable, the folder) cannot be
    /// written.
    #[error("{}: cannot be written: {source}", .path.display())]
    Write {
        /// The file, or the folder.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// The most part files open at once.
pub(crate) const MAX_OPEN: usize = 64;

/// The parts of a split output.
#[derive(Debug)]
pub struct Parts {
    /// The folder of the base name (empty for the current one).
    dir: PathBuf,
    /// The base name without its extension, and the extension (with
    /// its dot, or empty).
    stem: OsString,
    ext: OsString,
    force: bool,
    inputs: InputFiles,
    parts: Vec<Part>,
    /// The open files, each with the part it belongs to.
    open: Vec<(usize, BufWriter<File>)>,
    /// Counts writes, to tell which open file was used longest ago.
    clock: u64,
}

/// One part: its label, where it is being written, and its open file.
#[derive(Debug)]
struct Part {
    label: String,
    temp: PathBuf,
    /// Its place in `Parts::open`, while it is open.
    slot: Option<usize>,
    /// When it was last written into.
    used: u64,
    /// Still to be given its name (or removed).
    pending: bool,
}

impl Parts {
    /// The parts named after `base`: a file name in a folder (not a device
    /// or a stream, a folder or a name without a file name), written over
    /// existing files only with `force`, never over `inputs`.
    ///
    /// # Errors
    ///
    /// [`OutputError::NotAFile`] and [`OutputError::NoFileName`].
    pub fn new(base: &Path, force: bool, inputs: InputFiles) -> Result<Parts, OutputError> {
        if written_into(base) || base.is_dir() {
            return Err(OutputError::NotAFile { path: base.to_path_buf() });
        }
        let (Some(stem), Some(_)) = (base.file_stem(), base.file_name()) else {
            return Err(OutputError::NoFileName { path: base.to_path_buf() });
        };
        let ext = base.extension().map_or_else(OsString::new, |e| {
            let mut dot = OsString::from(".");
            dot.push(e);
            dot
        });
        let dir = base.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        Ok(Parts {
            dir,
            stem: stem.to_os_string(),
            ext,
            force,
            inputs,
            parts: Vec::new(),
            open: Vec::new(),
            clock: 0,
        })
    }

    /// How many bytes a label may have for `STEM-LABEL.EXT` to fit in the
    /// 255 bytes of a file name (at most `most`).
    pub fn label_room(&self, most: usize) -> usize {
        let taken = self.stem.len() + 1 + self.ext.len();
        255usize.saturating_sub(taken).min(most)
    }

    /// The number of parts.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// The file a label names: `STEM-LABEL.EXT` beside the base name.
    pub fn target(&self, label: &str) -> PathBuf {
        let mut name = self.stem.clone();
        name.push("-");
        name.push(label);
        name.push(&self.ext);
        self.dir.join(name)
    }

    /// Whether there is no part yet.
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// Starts a part named `label`; fails when its file is an input, or
    /// exists and `force` was not given, or cannot be made.
    ///
    /// # Errors
    ///
    /// [`OutputError::Refused`] and [`OutputError::Write`].
    pub fn add(&mut self, label: String) -> Result<usize, OutputError> {
        let target = self.target(&label);
        self.check(&target)?;
        let k = self.parts.len();
        let mut temp_name = OsString::from(".");
        temp_name.push(cut(&self.stem, 100));
        temp_name.push(format!(".qipu-partial-{}-{k}", std::process::id()));
        let temp = self.dir.join(temp_name);
        let file = create_pending(&temp).map_err(|source| OutputError::Write { path: target, source })?;
        self.parts.push(Part { label, temp, slot: None, used: 0, pending: true });
        self.hold(k, file)?;
        Ok(k)
    }

    /// Gives part `k` another label (before [`Parts::finish`]).
    pub fn relabel(&mut self, k: usize, label: String) {
        self.parts[k].label = label;
    }

    /// Appends `bytes` to part `k`.
    ///
    /// # Errors
    ///
    /// [`OutputError::Write`].
    pub fn write(&mut self, k: usize, bytes: &[u8]) -> Result<(), OutputError> {
        let slot = match self.parts[k].slot {
            Some(slot) => slot,
            None => {
                let file =
                    File::options().append(true).open(&self.parts[k].temp).map_err(|e| self.failed(k, e))?;
                self.hold(k, file)?
            }
        };
        self.clock += 1;
        self.parts[k].used = self.clock;
        let result = self.open[slot].1.write_all(bytes);
        result.map_err(|e| self.failed(k, e))
    }

    /// Completes every part and gives each its name; returns the files
    /// written, in the order of the parts. Nothing is named unless every
    /// name is free (or `force`) and none is an input; without `force`, a
    /// failure while naming them removes those already named.
    ///
    /// # Errors
    ///
    /// [`OutputError::Refused`] and [`OutputError::Write`].
    pub fn finish(mut self) -> Result<Vec<PathBuf>, OutputError> {
        while let Some((k, file)) = self.open.pop() {
            self.parts[k].slot = None;
            close(file).map_err(|e| self.failed(k, e))?;
        }
        self.sync()?;
        let targets: Vec<PathBuf> = self.parts.iter().map(|p| self.target(&p.label)).collect();
        for target in &targets {
            self.check(target)?;
        }
        let mut placed = Vec::with_capacity(targets.len());
        for (k, target) in targets.iter().enumerate() {
            if let Err(e) = place(&self.parts[k].temp, target, self.force) {
                if !self.force {
                    for done in &placed {
                        let _ = std::fs::remove_file(done);
                    }
                }
                return Err(OutputError::Refused { path: target.clone(), source: e });
            }
            self.parts[k].pending = false;
            placed.push(target.clone());
        }
        Ok(placed)
    }

    /// Fails when `target` is an input, or exists and `force` is not given.
    fn check(&self, target: &Path) -> Result<(), OutputError> {
        let named = |source: io::Error| OutputError::Refused { path: target.to_path_buf(), source };
        self.inputs.refuse(target).map_err(named)?;
        if written_into(target) {
            return Err(named(Refused::NotRegular.error()));
        }
        if !self.force && std::fs::symlink_metadata(target).is_ok() {
            return Err(named(exists_error()));
        }
        Ok(())
    }

    /// Keeps `file` open for part `k`, closing the file used longest ago
    /// when [`MAX_OPEN`] are; returns its slot.
    fn hold(&mut self, k: usize, file: File) -> Result<usize, OutputError> {
        let file = BufWriter::new(file);
        if self.open.len() < MAX_OPEN {
            self.open.push((k, file));
            self.parts[k].slot = Some(self.open.len() - 1);
            return Ok(self.open.len() - 1);
        }
        let slot = (0..self.open.len()).min_by_key(|&s| self.parts[self.open[s].0].used).unwrap_or(0);
        let (old, old_file) = std::mem::replace(&mut self.open[slot], (k, file));
        self.parts[old].slot = None;
        self.parts[k].slot = Some(slot);
        close(old_file).map_err(|e| self.failed(old, e))?;
        Ok(slot)
    }

    /// The files' bytes on disk before they are named: the file system's
    /// at once on Linux, each file elsewhere.
    fn sync(&self) -> Result<(), OutputError> {
        let failed = |source: io::Error| OutputError::Write { path: self.dir.clone(), source };
        #[cfg(target_os = "linux")]
        if let Some(part) = self.parts.first() {
            use std::os::unix::io::AsRawFd;
            let file = File::open(&part.temp).map_err(failed)?;
            // SAFETY: a descriptor open for the call.
            if unsafe { libc::syncfs(file.as_raw_fd()) } != 0 {
                return Err(failed(io::Error::last_os_error()));
            }
            return Ok(());
        }
        for part in &self.parts {
            File::open(&part.temp).and_then(|f| f.sync_all()).map_err(failed)?;
        }
        Ok(())
    }

    /// A write error on part `k`, naming its file.
    fn failed(&self, k: usize, source: io::Error) -> OutputError {
        OutputError::Write { path: self.target(&self.parts[k].label), source }
    }
}

impl Drop for Parts {
    /// Removes the parts not named: a failed run leaves nothing.
    fn drop(&mut self) {
        self.open.clear();
        for part in self.parts.iter().filter(|p| p.pending) {
            let _ = std::fs::remove_file(&part.temp);
        }
        let temps: HashSet<&PathBuf> = self.parts.iter().map(|p| &p.temp).collect();
        pending(|files| files.retain(|f| !temps.contains(f)));
    }
}

/// Flushes and closes a part's file.
fn close(file: BufWriter<File>) -> io::Result<()> {
    file.into_inner().map_err(io::IntoInnerError::into_error).map(drop)
}

/// The first bytes of `name`, at most `most` (on a character boundary
/// when it is UTF-8).
fn cut(name: &std::ffi::OsStr, most: usize) -> OsString {
    let text = name.to_string_lossy();
    let mut end = text.len().min(most);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    OsString::from(&text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_named_when_complete_and_never_over_an_input_or_an_existing_file() {
        let dir = std::env::temp_dir().join(format!("qipu-parts-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (input, theirs) = (dir.join("out-in.pgn"), dir.join("out-theirs.pgn"));
        std::fs::write(&input, b"1. h2e2 *\n").unwrap();
        std::fs::write(&theirs, b"theirs").unwrap();
        let inputs = || InputFiles::of_paths([input.as_path()]);
        let mut parts = Parts::new(&dir.join("out.pgn"), true, inputs()).unwrap();
        let e = parts.add("in".into()).unwrap_err();
        let OutputError::Refused { path, source } = &e else { panic!("{e}") };
        assert_eq!((path, Refused::of(source)), (&input, Some(Refused::Input)), "not even with force");
        let mut parts = Parts::new(&dir.join("out.pgn"), false, inputs()).unwrap();
        let e = parts.add("theirs".into()).unwrap_err();
        assert!(
            matches!(&e, OutputError::Refused { source, .. } if Refused::of(source) == Some(Refused::Exists))
        );
        let k = parts.add("ours".into()).unwrap();
        parts.write(k, b"1. h2e2 *\n").unwrap();
        assert!(!dir.join("out-ours.pgn").exists(), "named only when complete");
        assert_eq!(parts.finish().unwrap(), [dir.join("out-ours.pgn")]);
        assert_eq!(std::fs::read(&theirs).unwrap(), b"theirs");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3, "no temporary file left");
        assert!(matches!(Parts::new(&dir, false, inputs()), Err(OutputError::NotAFile { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! The files of a split output (`convert --split`, `--split-by`): beside
//! `-o STEM.EXT`, one `STEM-LABEL.EXT` per part. Each part is written under
//! a temporary name (`.STEM.qipu-partial-PID-K`, removed when the run fails
//! or is interrupted) and given its name only when every part is complete,
//! after checking that no name is an input, nor, without `--force`, an
//! existing file. At most [`MAX_OPEN`] files are open at once: a part put
//! aside is closed and opened again to append to, so that thousands of
//! parts need no more file descriptors than a few.

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::{InputFiles, create_pending, exists_error, pending, place, written_into};
use crate::cli::Failure;

/// The most part files open at once.
pub const MAX_OPEN: usize = 64;

/// The parts of a split output.
pub struct Parts {
    /// The folder of `-o` (empty for the current one).
    dir: PathBuf,
    /// The name of `-o` without its extension, and the extension (with
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
    /// The parts of `-o base`: a file name in a folder (not standard output
    /// or a device, a folder or a name without a file name).
    pub fn new(base: &Path, force: bool, inputs: InputFiles) -> Result<Parts, Failure> {
        let usage = |why: &str| Failure::usage(format!("{}: {why}", base.display()));
        if base.as_os_str() == "-" {
            return Err(Failure::usage("--split and --split-by write files: give -o NAME.EXT, not -"));
        }
        if written_into(base) || base.is_dir() {
            return Err(usage(
                "--split and --split-by write files named after -o NAME.EXT; this is not a file name",
            ));
        }
        let (Some(stem), Some(_)) = (base.file_stem(), base.file_name()) else {
            return Err(usage("--split and --split-by need -o NAME.EXT, a file name"));
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

    /// The file a label names: `STEM-LABEL.EXT` beside `-o`.
    pub fn target(&self, label: &str) -> PathBuf {
        let mut name = self.stem.clone();
        name.push("-");
        name.push(label);
        name.push(&self.ext);
        self.dir.join(name)
    }

    /// Starts a part named `label`; fails when its file is an input, or
    /// exists and `force` was not given, or cannot be made.
    pub fn add(&mut self, label: String) -> Result<usize, Failure> {
        let target = self.target(&label);
        self.check(&target)?;
        let k = self.parts.len();
        let mut temp_name = OsString::from(".");
        temp_name.push(cut(&self.stem, 100));
        temp_name.push(format!(".qipu-partial-{}-{k}", std::process::id()));
        let temp = self.dir.join(temp_name);
        let file = create_pending(&temp)
            .map_err(|e| Failure::usage(format!("{}: cannot be written: {e}", target.display())))?;
        self.parts.push(Part { label, temp, slot: None, used: 0, pending: true });
        self.hold(k, file)?;
        Ok(k)
    }

    /// Gives part `k` another label (before [`Parts::finish`]).
    pub fn relabel(&mut self, k: usize, label: String) {
        self.parts[k].label = label;
    }

    /// Appends `bytes` to part `k`.
    pub fn write(&mut self, k: usize, bytes: &[u8]) -> Result<(), Failure> {
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
    pub fn finish(mut self) -> Result<Vec<PathBuf>, Failure> {
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
                return Err(Failure::usage(format!("{}: {e}", target.display())));
            }
            self.parts[k].pending = false;
            placed.push(target.clone());
        }
        Ok(placed)
    }

    /// Fails when `target` is an input, or exists and `force` is not given.
    fn check(&self, target: &Path) -> Result<(), Failure> {
        let named = |e: io::Error| Failure::usage(format!("{}: {e}", target.display()));
        self.inputs.refuse(target).map_err(named)?;
        if written_into(target) {
            return Err(named(io::Error::other("not a regular file; not written")));
        }
        if !self.force && std::fs::symlink_metadata(target).is_ok() {
            return Err(named(exists_error()));
        }
        Ok(())
    }

    /// Keeps `file` open for part `k`, closing the file used longest ago
    /// when [`MAX_OPEN`] are; returns its slot.
    fn hold(&mut self, k: usize, file: File) -> Result<usize, Failure> {
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
    fn sync(&self) -> Result<(), Failure> {
        let failed = |e: io::Error| Failure::usage(format!("{}: cannot be written: {e}", self.dir.display()));
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
    fn failed(&self, k: usize, e: io::Error) -> Failure {
        Failure::usage(format!("{}: cannot be written: {e}", self.target(&self.parts[k].label).display()))
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

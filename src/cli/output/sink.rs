//! Where a printing command writes: standard output, or the file of
//! `-o FILE` (`-` is standard output), checked once for every command: never
//! one of the inputs, an existing file only with `--force`, written whole or
//! not at all ([`OutputFile`]).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{InputFiles, OutputFile, told};
use crate::cli::Failure;
use qipu::batch::Input;

/// `-o FILE` and `--force`, as every printing command takes them.
#[derive(Debug, clap::Args)]
pub struct OutputArgs {
    /// Write into this file instead of standard output (`-` is standard output). Never one of
    /// the inputs; written under a temporary name and given its name when complete.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write over an existing output file (never over an input).
    #[arg(long)]
    pub force: bool,
}

impl OutputArgs {
    /// The output asked for (see [`Sink::open`]).
    pub fn open<'a>(&self, inputs: &[Input], stdout: &'a mut dyn Write) -> Result<Sink<'a>, Failure> {
        Sink::open(self.output.as_deref(), self.force, inputs, stdout)
    }
}

/// What a printing command writes into: standard output, or a file that
/// appears under its name only on [`Sink::commit`] (dropped without it, the
/// file is removed). Write errors on a file name the file.
pub struct Sink<'a> {
    to: To<'a>,
}

enum To<'a> {
    Stdout(&'a mut dyn Write),
    File { file: OutputFile, path: PathBuf },
}

impl<'a> Sink<'a> {
    /// Opens `output` for writing (`None` or `-`: `stdout`). A file is
    /// refused when it is one of `inputs`, and when it exists unless
    /// `force`; the error names it (a usage error, exit code 2).
    pub fn open(
        output: Option<&Path>,
        force: bool,
        inputs: &[Input],
        stdout: &'a mut dyn Write,
    ) -> Result<Sink<'a>, Failure> {
        let Some(path) = output.filter(|p| p.as_os_str() != "-") else {
            return Ok(Sink { to: To::Stdout(stdout) });
        };
        let named = |e: io::Error| Failure::usage(format!("{}: {}", path.display(), told(&e)));
        InputFiles::of(inputs).refuse(path).map_err(named)?;
        let file = OutputFile::create(path, force).map_err(named)?;
        Ok(Sink { to: To::File { file, path: path.to_path_buf() } })
    }

    /// Whether the output is a file rather than standard output.
    pub fn is_file(&self) -> bool {
        matches!(self.to, To::File { .. })
    }

    /// Ends the output: standard output is flushed, a file is given its
    /// name (see [`OutputFile::commit`]).
    pub fn commit(self) -> Result<(), Failure> {
        match self.to {
            To::Stdout(out) => Ok(out.flush()?),
            To::File { file, path } => {
                file.commit().map_err(|e| Failure::usage(format!("{}: {}", path.display(), told(&e))))
            }
        }
    }
}

impl Write for Sink<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.to {
            To::Stdout(out) => out.write(buf).map_err(|e| named(e, Path::new(STDOUT))),
            To::File { file, path } => file.write(buf).map_err(|e| named(e, path)),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.to {
            To::Stdout(out) => out.write_all(buf).map_err(|e| named(e, Path::new(STDOUT))),
            To::File { file, path } => file.write_all(buf).map_err(|e| named(e, path)),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.to {
            To::Stdout(out) => out.flush().map_err(|e| named(e, Path::new(STDOUT))),
            To::File { file, path } => file.flush().map_err(|e| named(e, path)),
        }
    }
}

/// How write errors name standard output.
const STDOUT: &str = "standard output";

/// `e`, its message prefixed with `path` (its kind kept).
fn named(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

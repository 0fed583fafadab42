//! Where a printing command writes: standard output, or the file of
//! `-o FILE` (`-` is standard output), checked once for every command: never
//! one of the inputs, an existing file only with `--force`, written whole or
//! not at all ([`qipu::output::OutputFile`]).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{InputFiles, told};
use crate::cli::Failure;
use qipu::batch::Input;
use qipu::output::Stream;

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
/// file is removed). Write errors on a file name the file (see
/// [`Stream`]).
pub struct Sink<'a> {
    stream: Stream<'a>,
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
            return Ok(Sink { stream: Stream::writer(stdout) });
        };
        let stream = Stream::create(path, force, &InputFiles::of(inputs))
            .map_err(|e| Failure::usage(format!("{}: {}", path.display(), told(&e))))?;
        Ok(Sink { stream })
    }

    /// Whether the output is a file rather than standard output.
    pub fn is_file(&self) -> bool {
        self.stream.is_file()
    }

    /// The output, for a [`qipu::output::Destination`].
    pub fn into_stream(self) -> Stream<'a> {
        self.stream
    }

    /// Ends the output: standard output is flushed, a file is given its
    /// name (see [`OutputFile::commit`](qipu::output::OutputFile::commit)).
    pub fn commit(self) -> Result<(), Failure> {
        let path = self.stream.path().map(Path::to_path_buf);
        self.stream.commit().map_err(|e| match path {
            Some(path) => Failure::usage(format!("{}: {}", path.display(), told(&e))),
            None => Failure::from(e),
        })
    }
}

impl Write for Sink<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.stream.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}

//! Where the commands write: the library's safe output files
//! ([`qipu::output`]: written whole or not at all, never over an input, an
//! existing file replaced only with `--force`), [`Sink`] for the printing
//! commands (standard output or `-o FILE`), and the interrupt handler that
//! removes partial files (Ctrl-C, SIGTERM).

use std::io;
use std::path::Path;

pub mod room;
mod sink;

pub use qipu::output::{InputFiles, OutputError};
pub use sink::{OutputArgs, Sink};

use qipu::output::Refused;

/// Has the interrupt handler set up the first time a file is written: on
/// Ctrl-C or SIGTERM it removes the partial files and ends the run with
/// exit code 130.
pub fn handle_interrupts() {
    qipu::output::on_first_file(set_handler);
}

/// Sets the handler (without one, set elsewhere, interruption leaves the
/// temporary file; the target is never partial either way).
fn set_handler() {
    let _ = ctrlc::set_handler(|| {
        let left = qipu::output::remove_partial_files();
        if left.is_empty() {
            eprintln!("{}", crate::cli::error_line("interrupted; no partial output file is left"));
        } else {
            let left: Vec<String> = left.iter().map(|f| f.display().to_string()).collect();
            let why = format!("interrupted; could not remove the partial file(s) {}", left.join(", "));
            eprintln!("{}", crate::cli::error_line(why));
        }
        std::process::exit(130);
    });
}

/// An output error as the command tells it: an existing file names the
/// flag that writes over it.
pub fn told(e: &io::Error) -> String {
    match Refused::of(e) {
        Some(Refused::Exists) => format!("{e} (use --force)"),
        _ => e.to_string(),
    }
}

/// An output file that could not be written, told as a problem line.
pub fn file_error(path: &Path, e: &io::Error) -> String {
    qipu::batch::ProblemLine::input_error(&path.display().to_string(), told(e)).to_string()
}

/// An error of [`qipu::output::Parts`] as the command tells it (see [`told`]).
pub fn told_parts(e: &OutputError) -> String {
    match e {
        OutputError::Refused { path, source } => format!("{}: {}", path.display(), told(source)),
        _ => e.to_string(),
    }
}

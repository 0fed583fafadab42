//! `qipu completions SHELL`: a shell's completion script, made from the
//! command's own definitions.

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;

use super::{Cli, Failure};

/// Arguments of `qipu completions`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Writes the completion script for the shell asked for.
pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "qipu", &mut script);
    out.write_all(&script)?;
    Ok(())
}

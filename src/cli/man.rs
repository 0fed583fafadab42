//! `qipu man [COMMAND]`: the manual page (roff), made from the command's
//! own definitions.

use std::io::Write;

use clap::CommandFactory;

use super::{Cli, Failure};

/// Arguments of `qipu man`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A command whose page to print (`validate`, `book build` …) instead of qipu's.
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Writes the page asked for: qipu(1), or qipu-COMMAND(1).
pub fn run(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let mut command = Cli::command();
    // Built, each command is named as its page is: qipu-book-build.
    command.build();
    for word in &args.command {
        let found = command.find_subcommand(word).cloned();
        command = found
            .ok_or_else(|| Failure::usage(format!("man: no command {word:?} (`qipu --help` lists them)")))?;
    }
    let mut page = Vec::new();
    let source = concat!("qipu ", env!("CARGO_PKG_VERSION"));
    clap_mangen::Man::new(command).source(source).render(&mut page)?;
    out.write_all(&page)?;
    Ok(())
}

//! The `qipu` command: parses arguments and maps errors to exit codes.

use clap::Parser;

mod cli;

fn main() {
    let cli = cli::Cli::parse();
    cli::output::handle_interrupts();
    match cli::run(cli) {
        Ok(code) => std::process::exit(code),
        Err(failure) => {
            if !failure.message.is_empty() {
                let line = cli::error_line(&failure.message);
                eprintln!("{}", cli::color::problem_if(cli::color::stderr(), &line));
            }
            std::process::exit(failure.code);
        }
    }
}

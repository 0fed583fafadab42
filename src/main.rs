//! The `qipu` command: parses arguments and maps errors to exit codes.

use clap::Parser;

fn main() {
    let cli = qipu::cli::Cli::parse();
    match qipu::cli::run(cli) {
        Ok(code) => std::process::exit(code),
        Err(failure) => {
            if !failure.message.is_empty() {
                eprintln!("qipu: {}", failure.message);
            }
            std::process::exit(failure.code);
        }
    }
}

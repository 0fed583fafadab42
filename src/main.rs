//! The `qipu` command: parses arguments and maps errors to exit codes.

use clap::Parser;

fn main() {
    let cli = qipu::cli::Cli::parse();
    if let Err(failure) = qipu::cli::run(cli) {
        if !failure.message.is_empty() {
            eprintln!("qipu: {}", failure.message);
        }
        std::process::exit(failure.code);
    }
}

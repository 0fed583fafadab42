//! `qipu convert PATH... --to pgn|json|dhtmlxq|xqf|cbr|cbl|uci`: records rewritten in a
//! normalized form, tags, comments and variations kept (`uci`: the main
//! line only).

//!
//! Text formats are written by [`text`], files of their own (XQF, CBR, a CBL library) by
//! [`files`]; both take the [`Args`] of [`args`].

use std::io::Write;

mod args;
mod files;
mod split;
mod text;

pub use args::{Args, Target};

use crate::cli::{ChineseStyle, Failure, MoveNotation};

/// `--to xqf`, `cbr` (a file per game into -o DIR) and `cbl` (one library,
/// -o FILE).
fn binary(inputs: &mut [qipu::batch::Input], args: &Args) -> Result<i32, Failure> {
    use files::Dest;
    let (name, what) = match args.to {
        Target::Xqf => ("xqf", "XQF"),
        Target::Cbr => ("cbr", "CBR"),
        _ => ("cbl", "CBL"),
    };
    if args.split.is_some() || args.split_by.is_some() {
        return Err(Failure::usage(format!(
            "--to {name} writes {} already: --split and --split-by are for pgn, json and dhtmlxq",
            if args.to == Target::Cbl { "one library" } else { "a file per game" }
        )));
    }
    if args.shape.source_tag {
        return Err(Failure::usage(format!(
            "--source-tag: {what} has no place for the SourceFile and SourceGame tags; write pgn, json or dhtmlxq"
        )));
    }
    if args.rejected.is_some() {
        return Err(Failure::usage(format!(
            "--rejected is not for --to {name} (which writes {})",
            if args.to == Target::Cbl { "one library" } else { "a file per game" }
        )));
    }
    let Some(out) = args.output.as_deref().filter(|p| p.as_os_str() != "-") else {
        return Err(Failure::usage(if args.to == Target::Cbl {
            "--to cbl writes one library: give the file with -o FILE.cbl".to_string()
        } else {
            format!("--to {name} writes one file per game: give the directory with -o DIR")
        }));
    };
    let options = args.write_options(MoveNotation::Chinese.with(ChineseStyle::Simplified));
    let (tally, selected) = match args.to {
        Target::Cbl => files::run_library(inputs, args, out)?,
        _ => files::run(inputs, args, Dest::Files { dir: out, ext: name }, &options)?,
    };
    eprintln!("{}{selected}; {} written", tally.summary(), tally.written());
    Ok(tally.code())
}

/// Converts every game; problems go to standard error.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let mut inputs = args.read.inputs();
    if matches!(args.to, Target::Xqf | Target::Cbr | Target::Cbl) {
        return binary(&mut inputs, args);
    }
    text::run(&mut inputs, args, stdout)
}

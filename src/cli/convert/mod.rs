//! `qipu convert PATH... --to pgn|json|dhtmlxq|xqf|cbr|pfc|cbl|uci|html`: records rewritten in a
//! normalized form, tags, comments and variations kept (`uci`: the main
//! line only; `html`: a viewer page of every game).

//!
//! Text formats are written by [`text`], files of their own (XQF, CBR, PFC, a CBL library, a
//! viewer page) by [`files`]; both take the [`Args`] of [`args`].

use std::io::Write;

mod args;
mod files;
mod split;
mod text;

pub use args::{Args, Target, WriteArgs};

use crate::cli::{ChineseStyle, Failure, MoveNotation};

/// `--to xqf`, `cbr`, `pfc` (a file per game into -o DIR) and `cbl` (one
/// library, -o FILE).
fn binary(
    inputs: &mut [qipu::batch::Input],
    within: &[Option<std::path::PathBuf>],
    args: &Args,
) -> Result<i32, Failure> {
    let (name, what) = match args.to {
        Target::Xqf => ("xqf", "XQF"),
        Target::Cbr => ("cbr", "CBR"),
        Target::Pfc => ("pfc", "PFC"),
        _ => ("cbl", "CBL"),
    };
    if args.write.split.is_some() || args.write.split_by.is_some() {
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
    if args.write.rejected.is_some() {
        return Err(Failure::usage(format!(
            "--rejected is not for --to {name} (which writes {})",
            if args.to == Target::Cbl { "one library" } else { "a file per game" }
        )));
    }
    if args.to == Target::Pfc && args.write.output_encoding != qipu::formats::encoding::Encoding::Utf8 {
        return Err(Failure::usage("--to pfc writes documents in utf-8 only: leave out --output-encoding"));
    }
    let Some(out) = args.write.output.as_deref().filter(|p| p.as_os_str() != "-") else {
        return Err(Failure::usage(if args.to == Target::Cbl {
            "--to cbl writes one library: give the file with -o FILE.cbl".to_string()
        } else {
            format!("--to {name} writes one file per game: give the directory with -o DIR")
        }));
    };
    let options = args.write_options(MoveNotation::Chinese.with(ChineseStyle::Simplified));
    let done = match args.to {
        Target::Cbl => files::run_library(inputs, args, out)?,
        _ => files::run_files(inputs, within, args, out, name, &options)?,
    };
    Ok(told(&done, args))
}

/// `--to html`: one viewer page of every game, into -o FILE or standard
/// output.
fn page(inputs: &mut [qipu::batch::Input], args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    if args.write.split.is_some() || args.write.split_by.is_some() {
        return Err(Failure::usage(
            "--to html writes one page of every game: --split and --split-by are for pgn, json and dhtmlxq \
             (choose the games of a page with --player, --event, --limit, ...)",
        ));
    }
    if args.write.rejected.is_some() {
        return Err(Failure::usage("--rejected is not for --to html (which writes one page)"));
    }
    if args.write.output_encoding != qipu::formats::encoding::Encoding::Utf8 {
        return Err(Failure::usage("--to html writes pages in utf-8 only: leave out --output-encoding"));
    }
    let out = crate::cli::output::Sink::open(args.write.output.as_deref(), args.write.force, inputs, stdout)?;
    let done = files::run_page(inputs, args, out)?;
    Ok(told(&done, args))
}

/// Tells the summary line of a conversion into files; returns the exit
/// code.
fn told(done: &files::Done, args: &Args) -> i32 {
    let files::Done { tally, selected, variations } = done;
    let written = tally.written_summary_noting(&args::lines_summary(args, *variations));
    eprintln!("{}{selected}; {written}", tally.summary());
    tally.code()
}

/// Converts every game; problems go to standard error.
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    let expanded = args.read.expanded(&[args.write.output.as_deref(), args.write.rejected.as_deref()]);
    run_expanded(args, expanded, stdout)
}

/// Converts every game of the inputs `expanded` (those of `args.read`'s paths, or the sources
/// `qipu search` reads); problems go to standard error.
pub fn run_expanded(
    args: &Args,
    expanded: qipu::batch::Expanded,
    stdout: &mut impl Write,
) -> Result<i32, Failure> {
    let (mut inputs, within) = (expanded.inputs, expanded.within);
    if matches!(args.to, Target::Xqf | Target::Cbr | Target::Pfc | Target::Cbl) {
        return binary(&mut inputs, &within, args);
    }
    if args.to == Target::Html {
        return page(&mut inputs, args, stdout);
    }
    text::run(&mut inputs, args, stdout)
}

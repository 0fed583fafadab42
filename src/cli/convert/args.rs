//! The arguments of `qipu convert`, the options the library writes with,
//! and what convert does to a game before writing it.

use std::path::PathBuf;

use super::split::SplitKey;
use crate::cli::{ChineseStyle, MoveNotation};
use qipu::analysis::prepare;
use qipu::formats::encoding::Encoding;
use qipu::formats::write::{self, WriteError, WriteFormat, WriteOptions};
use qipu::record::Record;
use qipu::record::replay::ReplayError;
use qipu::record::shape::Shape;

/// Formats `qipu convert` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// PGN, moves in --notation.
    Pgn,
    /// One JSON object per game and line: tags, start FEN, result, and the move tree as a
    /// list of nodes (ICCS coordinates, the move as written, comments, NAGs).
    Json,
    /// A DhtmlXQ block ([DhtmlXQ]...[/DhtmlXQ]) per game, with variations and comments; tags
    /// DhtmlXQ has no tag for are kept as lines [Name "value"] of the comment about the game.
    Dhtmlxq,
    /// One XQF file per game in the directory given with -o, named after the game's title
    /// (or SOURCE-N.xqf), in the folders the inputs were found in (see -o); version 10 unless
    /// --xqf-version 18. Tags XQF has no field for are
    /// kept as lines [Name "value"] of the comment about the game; text longer than its field
    /// is cut, and told on standard error.
    Xqf,
    /// One 象棋桥 CBR file per game in the directory given with -o, named after the game's
    /// title (or SOURCE-N.cbr), in the folders the inputs were found in (see -o). Tags CBR has no field for are kept as lines [Name "value"] of
    /// the comment about the game; text longer than its field is cut, and told on standard
    /// error.
    Cbr,
    /// Every game in one 象棋桥 CBL library, the file given with -o (its name the library's
    /// title). Tags CBR has no field for are kept as lines [Name "value"] of the comment about
    /// the game; text longer than its field is cut, and told on standard error.
    Cbl,
    /// One 鹏飞 PFC document per game in the directory given with -o, named after the game's
    /// title (or SOURCE-N.pfc), in the folders the inputs were found in (see -o), in UTF-8: the tree with variations and comments (annotation
    /// glyphs as marks at their end), the start position and the fields PFC has; other tags
    /// are kept as lines [Name "value"] of the comment about the game.
    Pfc,
    /// One UCI position line per game, main line only: `position startpos moves h2e2 ...`,
    /// or `position fen FEN moves ...` (the FEN with its clocks) from another start. Tags,
    /// comments, variations and the result are not written; a game with a move that does not
    /// replay is not written, and is named.
    Uci,
    /// One self-contained HTML page, a game viewer of every game (a chooser when there are
    /// several): the board, the tags, the moves in --notation with comments and variations,
    /// stepped with the arrow keys or by clicking a move. Nothing is fetched from the network.
    /// A game with a move that does not replay shows up to that move, marked.
    Html,
}

/// What `qipu convert` does with a character the output encoding lacks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Unmappable {
    /// The game is not written, and is named on standard error.
    Error,
    /// The character is written as `?`.
    Replace,
}

/// XQF versions `qipu convert --to xqf` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum XqfVersion {
    /// XQF 1.0: plain, read by every program that reads XQF.
    #[value(name = "10")]
    V10,
    /// XQStudio 1.63's own format: enciphered.
    #[value(name = "18")]
    V18,
}

/// `--chinese` values of `qipu convert`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ChineseChoice {
    /// 车马炮帅 / 将, 进退平, 后.
    Simplified,
    /// 車馬砲帥 / 將, 進退平, 後.
    Traditional,
    /// Each game in the script of its own moves as written: traditional when they are, else
    /// simplified (moves written as coordinates or WXF included).
    Input,
}

/// Arguments of `qipu convert`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The format to write (`--format` says the same, as in the other commands).
    #[arg(long, value_enum, visible_alias = "format")]
    pub to: Target,
    /// How and where the games are written.
    #[command(flatten)]
    pub write: WriteArgs,
    #[command(flatten)]
    pub read: crate::cli::args::ReadArgs,
    /// Which games to convert.
    #[command(flatten)]
    pub select: crate::cli::select::SelectArgs,
    /// How each game is shaped before it is written.
    #[command(flatten)]
    pub shape: crate::cli::shape::ShapeArgs,
    /// The only games to write, when not every game read (those `qipu search` found): not a
    /// flag.
    #[arg(skip)]
    pub only: Option<qipu::select::Within>,
}

/// How and where `qipu convert` writes the games (every flag but `--to`),
/// shared with the commands that write games as convert does (`search`).
#[derive(Debug, Clone, clap::Args)]
pub struct WriteArgs {
    /// Notation of the moves in PGN and HTML.
    #[arg(long, value_enum, default_value_t = MoveNotation::Chinese)]
    pub notation: MoveNotation,
    /// Characters for --notation chinese (default: simplified; traditional with
    /// --output-encoding big5, which has no simplified characters); `input` writes each game in
    /// the script its moves were written in: traditional when they were (車馬砲帥將進後), else
    /// simplified.
    #[arg(long, value_enum)]
    pub chinese: Option<ChineseChoice>,
    /// Write into this file instead of standard output (`-` is standard output; never one of
    /// the inputs); with --to xqf, cbr or pfc, the directory to write the files into (created
    /// if missing), the folders mirrored: the games of a file found in a folder named on the
    /// command line go into the same folders below DIR (archive/1990/a.pgn found in archive/
    /// into DIR/1990/), a file named itself into DIR, a zip's members into DIR/ZIP-STEM/ and
    /// their own folders; folder names made safe as file names are, never leaving DIR; with
    /// --to cbl, the library file.
    #[arg(short, long, value_name = "FILE|DIR")]
    pub output: Option<PathBuf>,
    /// XQF version to write with --to xqf.
    #[arg(long, value_enum, default_value = "10")]
    pub xqf_version: XqfVersion,
    /// Write over an existing output file (never over an input). Files are written under a
    /// temporary name and renamed when complete.
    #[arg(long)]
    pub force: bool,
    /// Write N games a file, named after -o NAME.EXT: NAME-0001.EXT, NAME-0002.EXT, … (more
    /// digits when there are more than 9999 files). Not with --to xqf.
    #[arg(long, value_name = "N", conflicts_with = "split_by")]
    pub split: Option<usize>,
    /// Write one file per value of KEY, named after -o NAME.EXT: NAME-VALUE.EXT (the value made
    /// safe for every file system; a game without one goes to NAME-unknown.EXT; values that
    /// differ only in case or in characters replaced share a file). Not with --to xqf.
    #[arg(long, value_enum, value_name = "KEY")]
    pub split_by: Option<SplitKey>,
    /// Encoding of the output: utf-8 (default), gbk or big5.
    #[arg(long, default_value = "utf-8")]
    pub output_encoding: Encoding,
    /// What to do with a character of a tag or comment that --output-encoding cannot hold:
    /// `error` (default) does not write the game and names it; `replace` writes `?` in its
    /// place.
    #[arg(long, value_enum, default_value_t = Unmappable::Error)]
    pub unmappable: Unmappable,
    /// Add or correct the [ECCO], [Opening] and [Variation] tags of games from the standard
    /// start, by their moves.
    #[arg(long)]
    pub set_ecco: bool,
    /// Set the result of each game (written after the moves, and its [Result] tag) to the one the
    /// end of its main line gives, where the game states none or one the end contradicts
    /// (checkmate, stalemate, a repetition ruled, the natural move limit, no material that can
    /// win); each change is a note line (`game 3: result 0-1 set to 1-0 (checkmate)`).
    #[arg(long)]
    pub fix_results: bool,
    /// Write each line of a game as a game of its own (pgn-extract's --splitvariants): the main
    /// line first, the game as it was without its variations, then each variation in the order
    /// a PGN writer meets them (a variation's own variations right after it), each the moves
    /// from the start to where it branches off, then its own moves. A variation's game keeps
    /// the game's tags and the comments of every move it holds, has the result * (the record
    /// does not say how a variation ends), and the tag [Line "ID"]: 1, 2, … the variations of
    /// the main line in order, 1.1 the first variation of variation 1 (as fen --all-lines
    /// numbers lines). Files of --to xqf, cbr and pfc are named NAME-line-ID.EXT. Games are
    /// selected, told and counted as read before they are split; the shaping flags and
    /// --fix-results apply to each line; the summary counts every line written. Not with
    /// --main-line, which would drop the variations this writes.
    #[arg(long, conflicts_with = "main_line")]
    pub variations_as_games: bool,
    /// Write the games left out (not selected, or illegal) into this file, in the same format
    /// and with the same safety as -o (not with --to xqf).
    #[arg(long, value_name = "FILE")]
    pub rejected: Option<PathBuf>,
}

impl Target {
    /// The library's format for a game (CBL: each game's CBR record).
    fn format(self) -> WriteFormat {
        match self {
            Target::Pgn => WriteFormat::Pgn,
            Target::Json => WriteFormat::Json,
            Target::Dhtmlxq => WriteFormat::Dhtmlxq,
            Target::Uci => WriteFormat::Uci,
            Target::Xqf => WriteFormat::Xqf,
            Target::Cbr | Target::Cbl => WriteFormat::Cbr,
            Target::Html => WriteFormat::Html,
            Target::Pfc => WriteFormat::Pfc,
        }
    }
}

impl Args {
    /// How each game is written (PGN's moves in `notation`).
    /// The notation `record` is written in: --notation, in the characters --chinese chooses
    /// (`default` when it is not given; with `input`, those of the record's own moves).
    pub(super) fn notation_for(&self, record: &Record, default: ChineseStyle) -> qipu::notation::Notation {
        let style = match self.write.chinese {
            None => default,
            Some(ChineseChoice::Simplified) => ChineseStyle::Simplified,
            Some(ChineseChoice::Traditional) => ChineseStyle::Traditional,
            Some(ChineseChoice::Input) => match record.chinese_style() {
                Some(qipu::notation::chinese::Style::Traditional) => ChineseStyle::Traditional,
                _ => ChineseStyle::Simplified,
            },
        };
        self.write.notation.with(style)
    }

    pub(super) fn write_options(&self, notation: qipu::notation::Notation) -> WriteOptions {
        WriteOptions {
            format: self.to.format(),
            notation,
            xqf_version: match self.write.xqf_version {
                XqfVersion::V10 => qipu::formats::xqf::Version::V10,
                XqfVersion::V18 => qipu::formats::xqf::Version::V18,
            },
            encoding: self.write.output_encoding,
            unmappable: match self.write.unmappable {
                Unmappable::Error => write::Unmappable::Error,
                Unmappable::Replace => write::Unmappable::Replace,
            },
        }
    }
}

/// Why a game is not written, as the reports tell it: the writer's words,
/// and for a character the encoding lacks, the flag that replaces it.
pub(super) fn told(why: &WriteError) -> String {
    match why {
        WriteError::Unmappable { .. } => format!("{why}; --unmappable replace writes '?' for it"),
        _ => why.to_string(),
    }
}

/// `record` shaped, and with `--set-ecco` its ECCO tags set by the moves it
/// keeps ([`prepare::prepare`]); and the replay error of the game as read,
/// which the reports count whatever the shaping leaves out.
pub(super) fn prepare(mut record: Record, shape: &Shape, args: &Args) -> Prepared {
    // The result the game as read ends in, before shaping cuts it.
    let fixed = if args.write.fix_results { prepare::fix_result(&mut record) } else { None };
    let error = prepare::prepare(&mut record, shape, args.write.set_ecco);
    Prepared { record, error, fixed }
}

/// A game readied to be written ([`prepare`]).
pub(super) struct Prepared {
    /// The game, shaped.
    pub(super) record: Record,
    /// The replay error of the game as read.
    pub(super) error: Option<ReplayError>,
    /// The result set by `--fix-results`.
    pub(super) fixed: Option<prepare::ResultFix>,
}

/// Tells the result `--fix-results` set for game `index` of `source` (of
/// its line `line`, with `--variations-as-games`), and counts it.
pub(super) fn tell_fixed(
    tally: &mut crate::cli::progress::Tally,
    fixed: &mut usize,
    source: &str,
    index: usize,
    line: Option<&str>,
    fix: Option<&prepare::ResultFix>,
) {
    if let Some(fix) = fix {
        *fixed += 1;
        let said = match line {
            Some(id) => format!("line {id}: {fix}"),
            None => fix.to_string(),
        };
        tally.tell(&qipu::batch::ProblemLine::game_note(source, index, said).to_string());
    }
}

/// The summary's part for `--variations-as-games`, after `N written`:
/// ` (V of them variations)`.
pub(super) fn lines_summary(args: &Args, variations: usize) -> String {
    if args.write.variations_as_games { format!(" ({variations} of them variations)") } else { String::new() }
}

/// The summary's part for `--fix-results`: `; N result(s) set`.
pub(super) fn fixed_summary(args: &Args, fixed: usize) -> String {
    if args.write.fix_results { format!("; {fixed} result(s) set") } else { String::new() }
}

//! The flags of `qipu convert` that shape what is written (see
//! [`qipu::record::shape`]).

use qipu::record::shape::{Shape, TagFilter};

/// How each game is shaped before it is written.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Shaping")]
pub struct ShapeArgs {
    /// Drop every variation; the main line keeps its comments and annotations.
    #[arg(long)]
    pub main_line: bool,
    /// Drop every comment: about the game, before and after moves.
    #[arg(long)]
    pub no_comments: bool,
    /// Drop every annotation glyph ($1, $2 ..., and so the marks !, ?, !!, ??, !?, ?!).
    #[arg(long)]
    pub no_nags: bool,
    /// Keep at most N plies of the main line (alternatives to a dropped move go with it, those of
    /// kept moves stay whole); a game cut short gets the result * (also in its Result tag).
    /// With --set-ecco, the opening is classified by the moves written.
    #[arg(long, value_name = "N")]
    pub plies_max: Option<usize>,
    /// Tags to keep: `all` (default); `standard`: Event, Site, Date, Round, Red, Black, Result
    /// and FEN; or a list of names (`Event,Red,Black`, any case). The FEN tag (the start
    /// position) is always kept, and the result stays the game's; PGN always writes its Game,
    /// Result and Format tags, and --set-ecco's tags are set after this.
    #[arg(long, value_name = "standard|all|NAME,...", default_value = "all", value_parser = TagFilter::parse)]
    pub tags: TagFilter,
    /// Add the tags [SourceFile "NAME"] (the input as qipu names it in reports) and
    /// [SourceGame "N"] (the game's number in it, from 1), so games merged from many files can
    /// be traced back; set over tags of those names read. Not with --to xqf, which has no
    /// place for them.
    #[arg(long)]
    pub source_tag: bool,
}

impl ShapeArgs {
    /// The library's shape for these flags (`--source-tag` apart).
    pub fn shape(&self) -> Shape {
        Shape {
            main_line: self.main_line,
            no_comments: self.no_comments,
            no_nags: self.no_nags,
            plies_max: self.plies_max,
            tags: self.tags.clone(),
        }
    }
}

//! DhtmlXQ records (东萍象棋网 dpxq's "UBB" text): `[DhtmlXQ]…[/DhtmlXQ]`
//! blocks (also `[DhtmlXQiFrame]` and `[DhtmlXQHTML]`) of
//! `[DhtmlXQ_name]value[/DhtmlXQ_name]` tags, alone or inside web pages,
//! several to a text.
//!
//! The position is `binit`: 32 two-digit points in XQF's piece order, `x`
//! the column from the left and `y` the row from the top, `99` for a piece
//! not on the board. The main line is `movelist`, four digits a ply; branch
//! `C` is `[DhtmlXQ_move_A_K_C]`, an alternative to ply `K` of branch `A`.
//! Comments are `comment0` (the start), `commentK` (after main-line ply K)
//! and `commentC_K` (after ply K of branch C), with `||` for a line break.
//! The side to move is not stored: it is the colour of the first move's
//! piece.
//!
//! ```
//! use qipu::formats::dhtmlxq;
//! let text = "[DhtmlXQ][DhtmlXQ_red]许银川[/DhtmlXQ_red][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\
//!             [DhtmlXQ_move_0_2_1]1022[/DhtmlXQ_move_0_2_1][DhtmlXQ_comment1]中炮[/DhtmlXQ_comment1][/DhtmlXQ]";
//! let games = dhtmlxq::read(text);
//! let g = &games[0];
//! assert_eq!(g.tag("Red"), Some("许银川"));
//! assert_eq!(g.tree().main_line().count(), 2);
//! assert_eq!(g.tree().variation_count(), 1);
//! ```

pub mod dhj;
mod read;
mod write;

pub(crate) use read::{count_records, read_each};
pub use read::{read, read_with};
pub use write::{WriteError, write, write_with_warnings};

/// Tags of a block and the record tags they become, both ways.
pub(crate) const TAGS: [(&str, &str); 32] = [
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("table", "Table"),
    ("group", "Group"),
    ("red", "Red"),
    ("redteam", "RedTeam"),
    ("redname", "RedName"),
    ("redlevel", "RedLevel"),
    ("redrating", "RedElo"),
    ("redeng", "RedEnglish"),
    ("redtime", "RedTime"),
    ("black", "Black"),
    ("blackteam", "BlackTeam"),
    ("blackname", "BlackName"),
    ("blacklevel", "BlackLevel"),
    ("blackrating", "BlackElo"),
    ("blackeng", "BlackEnglish"),
    ("blacktime", "BlackTime"),
    ("open", "Opening"),
    ("ecco", "ECCO"),
    ("variation", "Variation"),
    ("remark", "Annotator"),
    ("author", "Author"),
    ("judge", "Judge"),
    ("record", "Recorder"),
    ("timerule", "TimeControl"),
    ("type", "GameType"),
    // Where qipu read the game (`qipu convert --source-tag`).
    ("sourcefile", "SourceFile"),
    ("sourcegame", "SourceGame"),
];

/// Whether `text` holds a DhtmlXQ block.
pub(crate) fn contains_block(text: &str) -> bool {
    find_ci(text, "[dhtmlxq", 0).is_some()
}

/// A kind of block, told by the closing tag that ends it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Block {
    /// `[DhtmlXQ]…[/DhtmlXQ]`.
    Plain,
    /// `[DhtmlXQiFrame]…[/DhtmlXQiFrame]`.
    IFrame,
    /// `[DhtmlXQHTML]…[/DhtmlXQHTML]`.
    Html,
}

impl Block {
    /// What follows `[DhtmlXQ` (or `[/DhtmlXQ`) in this block's tags.
    fn suffix(self) -> &'static [u8] {
        match self {
            Block::Plain => b"]",
            Block::IFrame => b"iframe]",
            Block::Html => b"html]",
        }
    }
}

/// The block that the tag at the start of `text` opens (`[DhtmlXQ]`,
/// `[DhtmlXQiFrame]`, `[DhtmlXQHTML]`, any case), if it opens one.
pub(crate) fn block_open_at(text: &[u8]) -> Option<Block> {
    block_tag_at(text, b"[dhtmlxq")
}

/// The block that the tag at the start of `text` closes, if it closes one.
fn block_close_at(text: &[u8]) -> Option<Block> {
    block_tag_at(text, b"[/dhtmlxq")
}

/// The block of the tag at the start of `text`, `start` then one of the
/// blocks' suffixes.
fn block_tag_at(text: &[u8], start: &[u8]) -> Option<Block> {
    let rest = strip_prefix_ci(text, start)?;
    [Block::Plain, Block::IFrame, Block::Html]
        .into_iter()
        .find(|b| strip_prefix_ci(rest, b.suffix()).is_some())
}

/// Whether `text` holds a tag that opens or closes a block (in bytes: for
/// text in GBK or Big5, where `[` can be the second byte of a character,
/// a tag found may be none).
pub(crate) fn has_block_tag(text: &[u8]) -> bool {
    memchr::memchr_iter(b'[', text)
        .any(|k| block_open_at(&text[k..]).or(block_close_at(&text[k..])).is_some())
}

/// Whether `text` holds a tag that opens a block (in bytes, as
/// [`has_block_tag`]).
pub(crate) fn has_block_open(text: &[u8]) -> bool {
    memchr::memchr_iter(b'[', text).any(|k| block_open_at(&text[k..]).is_some())
}

/// The block open after the text of a line (or any text without a line
/// end), `open` the one open before it, as [`read`] reads blocks: a block
/// runs to its closing tag, or, not closed, to the next block's opening
/// one (blocks do not nest).
pub(crate) fn open_after(line: &[u8], mut open: Option<Block>) -> Option<Block> {
    for k in memchr::memchr_iter(b'[', line) {
        let at = &line[k..];
        if let Some(block) = block_open_at(at) {
            open = Some(block);
        } else if open.is_some() && block_close_at(at) == open {
            open = None;
        }
    }
    open
}

/// `text` without ASCII `prefix` at its start, ignoring ASCII case.
fn strip_prefix_ci<'a>(text: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &text[prefix.len()..])
}

/// Whether `text` starts with ASCII `prefix`, ignoring ASCII case.
fn starts_with_ci(text: &str, prefix: &str) -> bool {
    text.len() >= prefix.len() && text.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// The first place of ASCII `needle` in `text` from byte `from`, ignoring
/// ASCII case.
fn find_ci(text: &str, needle: &str, from: usize) -> Option<usize> {
    let (hay, needle) = (text.as_bytes(), needle.as_bytes());
    let first = needle[0].to_ascii_lowercase();
    let mut at = from;
    while at + needle.len() <= hay.len() {
        let k = memchr::memchr2(first, first.to_ascii_uppercase(), &hay[at..])?;
        let start = at + k;
        if start + needle.len() <= hay.len() && hay[start..start + needle.len()].eq_ignore_ascii_case(needle)
        {
            return Some(start);
        }
        at = start + 1;
    }
    None
}

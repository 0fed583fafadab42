//! 广东象棋网 (打虎将) DHJHtmlXQ records: the DhtmlXQ dialect with numbered
//! tags, read with the DhtmlXQ reader's blocks, plies and comments.
//!
//! # Syntax
//!
//! A record is a block `[DHJHtmlXQ] … [/DHJHtmlXQ]` (any case; alone, or
//! several in a text or a web page) of tags `[DHJHtmlXQ_N]value[/DHJHtmlXQ_N]`,
//! `N` a number, and comment tags `[game_comment_B_K]text[/comment_B_K]`
//! (also written `[comment_B_K]…`), one a line or all on one:
//!
//! ```text
//! [DHJHtmlXQ]
//! [DHJHtmlXQ_11]残局练习[/DHJHtmlXQ_11]
//! [DHJHtmlXQ_31]***k****…****K***R[/DHJHtmlXQ_31]
//! [DHJHtmlXQ_32]1[/DHJHtmlXQ_32]
//! [DHJHtmlXQ_33]1[/DHJHtmlXQ_33]
//! [DHJHtmlXQ_34]3938808838394050[/DHJHtmlXQ_34]
//! [game_comment_0_2]将军[/comment_0_2]
//! [/DHJHtmlXQ]
//! ```
//!
//! # Fields
//!
//! | N | field | tag |
//! |---|---|---|
//! | 10 | title | `Title` |
//! | 11 | event | `Event` |
//! | 13 | date | `Date` |
//! | 14 | place | `Site` |
//! | 15 | round | `Round` |
//! | 16 | table | `Table` |
//! | 17, 18, 19, 20 | red, red's name, level, rating | `Red`, `RedName`, `RedLevel`, `RedElo` |
//! | 21, 22, 23, 24 | black, black's name, level, rating | `Black`, `BlackName`, `BlackLevel`, `BlackElo` |
//! | 28 | result (`1-0`, `红胜`, … as DhtmlXQ's) | `Result` |
//! | 29, 30 | red's and black's time | `RedTime`, `BlackTime` |
//! | 31 | the start position | `FEN` |
//! | 32 | the side to move: `1` Black, else Red | `FEN` |
//! | 33 | the start step | `FEN`'s move number |
//! | 34 | the main line | |
//! | 36, 37 | opening, variation | `Opening`, `Variation` |
//! | 40, 41, 42 | annotator, author, recorder | `Annotator`, `Author`, `Recorder` |
//!
//! A tag of another number is kept as `DHJHtmlXQ_N`.
//!
//! # Coordinates
//!
//! - `31`: 90 characters, the board row by row from the top (Black's back
//!   rank), each row from Red's left; `*` an empty point, else a FEN piece
//!   letter (`H`/`E` for the horse and elephant read too). Missing or
//!   empty, the standard start.
//! - `33`: the start step `S`: the FEN's move number is `S / 2 + 1` with
//!   Red to move, `(S + 1) / 2 + 1` with Black (as vschess reads it; its
//!   writer always writes `1`).
//! - `34`: four digits a ply, `x1 y1 x2 y2`: `x` the column from Red's left
//!   (0–8), `y` the row from **Red's** side (0–9, ICCS's rank) — the rows
//!   of DhtmlXQ turned over.
//! - Comments: `B` the branch (0, the main line: no file with another is
//!   known), `K` the ply the comment follows (0: the game); `||` is a line
//!   break, as in DhtmlXQ.
//!
//! The format stores no variations: vschess, the one program known to
//! read and write it, writes the main line only.
//!
//! ```
//! use qipu::formats::dhtmlxq::dhj;
//! let text = "[DHJHtmlXQ][DHJHtmlXQ_17]许银川[/DHJHtmlXQ_17][DHJHtmlXQ_28]1-0[/DHJHtmlXQ_28]\
//!             [DHJHtmlXQ_34]72427967[/DHJHtmlXQ_34][game_comment_0_1]中炮[/comment_0_1][/DHJHtmlXQ]";
//! let games = dhj::read(text);
//! assert_eq!((games[0].tag("Red"), games[0].tag("Result")), (Some("许银川"), Some("1-0")));
//! assert_eq!(games[0].tree().main_line().count(), 2); // h2e2 h9g7
//! assert_eq!(games[0].fen(), None);
//! ```

use std::borrow::Cow;

use super::read::{
    Comments, LineIndex, Plies, Rows, add_plies, comment_text, each_block_of, parse_result, square,
};
use super::{TAGS, find_ci, strip_prefix_ci};
use crate::formats::tree::Game;
use crate::record::{Record, RecordBuilder, Visitor, Warning};
use crate::{Board, Color, Piece};

/// The numbered tags and the DhtmlXQ names of their fields.
const FIELDS: [(u32, &str); 22] = [
    (10, "title"),
    (11, "event"),
    (13, "date"),
    (14, "place"),
    (15, "round"),
    (16, "table"),
    (17, "red"),
    (18, "redname"),
    (19, "redlevel"),
    (20, "redrating"),
    (21, "black"),
    (22, "blackname"),
    (23, "blacklevel"),
    (24, "blackrating"),
    (28, "result"),
    (29, "redtime"),
    (30, "blacktime"),
    (36, "open"),
    (37, "variation"),
    (40, "remark"),
    (41, "author"),
    (42, "record"),
];

/// Whether `text` holds a DHJHtmlXQ block's opening tag.
pub(crate) fn contains_block(text: &str) -> bool {
    find_block_open(text, 0).is_some()
}

/// Reads every DHJHtmlXQ block of `text` into a record, in order (blocks
/// without a closed tag are not records and are left out).
pub fn read(text: &str) -> Vec<Record> {
    read_with(text, &mut RecordBuilder::default())
}

/// Reads every DHJHtmlXQ block of `text` with `visitor`, as [`read`] reads
/// them: what the visitor makes of each game's events, in order.
pub fn read_with<V: Visitor>(text: &str, visitor: &mut V) -> Vec<V::Output> {
    let mut games = Vec::new();
    read_each(text, |game| games.push(game.tell(visitor)));
    games
}

/// [`read`], handing each game to `each` as it is read.
pub(crate) fn read_each(text: &str, mut each: impl FnMut(Game)) {
    let lines = LineIndex::new(text, 1);
    each_block_of(text, opens_block, |block| {
        let mut game = Game { at: lines.span(block.open), ..Game::default() };
        if !block.closed {
            let message = format!("[{}] is not closed with [/{}]", block.name, block.name);
            game.warnings.push(Warning { at: lines.span(block.open), message });
        }
        let tags = tags(text, block.body.clone(), Some(&lines), &mut game.warnings);
        if tags.iter().any(|t| t.closed) {
            read_block(&tags, &lines, &mut game);
            each(game);
        }
    });
}

/// How many records [`read`] reads from `text`, counted without reading
/// them.
pub(crate) fn count_records(text: &str) -> usize {
    let mut records = 0;
    each_block_of(text, opens_block, |block| {
        records += usize::from(tags(text, block.body, None, &mut Vec::new()).iter().any(|t| t.closed));
    });
    records
}

/// Where the next `[DHJHtmlXQ]` opens, from byte `from`.
fn find_block_open(text: &str, from: usize) -> Option<usize> {
    find_ci(text, "[dhjhtmlxq]", from)
}

/// Whether `[DHJHtmlXQ]` starts `at`.
fn opens_block(at: &[u8]) -> bool {
    strip_prefix_ci(at, b"[dhjhtmlxq]").is_some()
}

/// One tag of a block.
struct Tag<'a> {
    /// What it is.
    kind: Kind,
    /// Its name as written, for warnings.
    name: &'a str,
    value: &'a str,
    /// Where the value starts.
    at: usize,
    /// Whether a closing tag ends it.
    closed: bool,
}

/// What a tag of a block holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// `[DHJHtmlXQ_N]`.
    Numbered(u32),
    /// `[game_comment_B_K]`, `[comment_B_K]` (`B` 0 when not given).
    Comment(Option<(u32, u32)>),
    /// Any other `[name]`.
    Other,
}

/// The kind of tag `name` (lower case).
fn kind(name: &str) -> Kind {
    if let Some(n) = name.strip_prefix("dhjhtmlxq_") {
        return n.parse().map_or(Kind::Other, Kind::Numbered);
    }
    let Some(rest) = name.strip_prefix("game_comment_").or_else(|| name.strip_prefix("comment_")) else {
        return Kind::Other;
    };
    let place = match rest.split_once('_') {
        Some((b, k)) => b.parse().ok().zip(k.parse().ok()),
        None => rest.parse().ok().map(|k| (0, k)),
    };
    Kind::Comment(place)
}

/// The name of a tag that opens at byte `k` of `text` (before `end`): a
/// `[`, letters, digits or `_`, and `]`.
fn opening_at(text: &str, k: usize, end: usize) -> Option<&str> {
    let bytes = &text.as_bytes()[k + 1..end];
    let len = bytes.iter().take(64).position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))?;
    (len > 0 && bytes[len] == b']').then(|| &text[k + 1..k + 1 + len])
}

/// The tags of a block body, and (with the text's `lines`) the warnings
/// their closing tags call for. Each byte is looked at a bounded number of
/// times: a tag's closing tag is looked for up to the next opening one.
fn tags<'a>(
    text: &'a str,
    body: std::ops::Range<usize>,
    lines: Option<&LineIndex>,
    warnings: &mut Vec<Warning>,
) -> Vec<Tag<'a>> {
    let end = body.end;
    let mut out = Vec::new();
    let next_opening = |from: usize| {
        memchr::memchr_iter(b'[', &text.as_bytes()[from..end])
            .map(|k| from + k)
            .find_map(|k| opening_at(text, k, end).map(|name| (k, name)))
    };
    let mut next = next_opening(body.start);
    while let Some((open, name)) = next {
        let value_start = open + name.len() + 2;
        next = next_opening(value_start);
        let bound = next.map_or(end, |(k, _)| k);
        let close =
            memchr::memmem::find(&text.as_bytes()[value_start..bound], b"[/").map(|k| value_start + k);
        let lower = name.to_ascii_lowercase();
        let (value_end, closed) = match close {
            Some(close) => {
                let closing_end = text[close..bound].find(']').map_or(bound, |k| close + k);
                let closing = text[close + 2..closing_end].to_ascii_lowercase();
                let same = |n: &str| n.strip_prefix("game_").unwrap_or(n).to_string();
                if let Some(lines) = lines
                    && same(&closing) != same(&lower)
                {
                    let message = format!("[{name}] closed by [/{}]", &text[close + 2..closing_end]);
                    warnings.push(Warning { at: lines.span(close), message });
                }
                (close, true)
            }
            None => {
                if let Some(lines) = lines {
                    warnings
                        .push(Warning { at: lines.span(open), message: format!("[{name}] is not closed") });
                }
                (bound, false)
            }
        };
        out.push(Tag {
            kind: kind(&lower),
            name,
            value: &text[value_start..value_end],
            at: value_start,
            closed,
        });
    }
    out
}

/// Fills `game` from the tags of a block.
fn read_block(tags: &[Tag], lines: &LineIndex, game: &mut Game) {
    game.tag("Game", "Chinese Chess");
    let numbered = |n: u32| tags.iter().rev().find(|t| t.kind == Kind::Numbered(n));
    for tag in tags {
        let Kind::Numbered(n) = tag.kind else { continue };
        let value = crate::formats::encoding::unescape_references(tag.value.trim_matches(['\r', '\n']));
        if value.trim().is_empty() || (31..=34).contains(&n) {
            continue;
        }
        if n == 28 {
            let result = parse_result(value.trim());
            game.result = Some(result);
            game.set_tag("Result", result.as_str());
            continue;
        }
        let field = FIELDS.iter().find(|(k, _)| *k == n).map(|(_, f)| *f);
        let name: Cow<'static, str> = match field.and_then(|f| TAGS.iter().find(|(d, _)| *d == f)) {
            Some((_, tag)) => Cow::Borrowed(tag),
            None => Cow::Owned(format!("DHJHtmlXQ_{n}")),
        };
        match game.tags.iter_mut().find(|(k, _)| *k == name) {
            Some((_, v)) => *v = value.into_owned(),
            None => game.tags.push((name, value.into_owned())),
        }
    }
    let board = match numbered(31).filter(|t| !t.value.trim().is_empty()) {
        None => Board::start(),
        Some(tag) => match board_of(tag.value) {
            Ok(board) => board,
            Err(message) => {
                game.unreadable = Some(Warning { at: lines.span(tag.at), message });
                return;
            }
        },
    };
    let root = game.moves.root();
    let mut nodes = vec![root];
    if let Some(tag) = numbered(34) {
        let plies = Plies { digits: tag.value, at: tag.at, label: ("", tag.name), rows: Rows::FromRed };
        nodes.extend(add_plies(game, root, plies, lines));
    }
    let mut comments = Comments::default();
    for tag in tags {
        let Kind::Comment(place) = tag.kind else { continue };
        let text = comment_text(tag.value);
        if text.is_empty() {
            continue;
        }
        match place.and_then(|(b, k)| if b == 0 { nodes.get(k as usize) } else { None }) {
            Some(&id) => comments.add(id, text),
            None => game.warn(
                lines.span(tag.at),
                format!("[{}] points at no move of the main line; left out", tag.name),
            ),
        }
    }
    comments.put(game);
    let side = numbered(32).map(|t| (t.value.trim() == "1", lines.span(t.at)));
    let stored = side.map(|(black, at)| (if black { Color::Black } else { Color::Red }, at, "side tag (32)"));
    let step = numbered(33).and_then(|t| t.value.trim().parse::<u32>().ok()).unwrap_or(0);
    let black = stored.is_some_and(|(c, ..)| c == Color::Black);
    let fullmoves = if black { step.div_ceil(2) + 1 } else { step / 2 + 1 };
    let board_at = numbered(31).map_or(game.at, |t| lines.span(t.at));
    crate::formats::start::settle_start(game, &board, board_at, stored, (0, fullmoves));
}

/// The board of a `31` tag: 90 points from the top row, `*` empty.
fn board_of(value: &str) -> Result<Board, String> {
    let points: Vec<char> = value.chars().filter(|c| !c.is_whitespace()).collect();
    if points.len() != 90 {
        return Err(format!("start position (31): {} points; 90 are needed", points.len()));
    }
    let mut board = Board::empty();
    for (i, &c) in points.iter().enumerate() {
        if c == '*' {
            continue;
        }
        let Some(piece) = Piece::from_char(c) else {
            return Err(format!("start position (31): '{c}' at point {} is no piece", i + 1));
        };
        // Cannot fail: i < 90.
        board.put(square((i % 9) as u8, (i / 9) as u8), piece);
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_count_from_reds_side_and_the_side_is_stored() {
        // h2e2 in DhtmlXQ is 7747; here 7242.
        let g = &read("[DHJHtmlXQ][DHJHtmlXQ_34]7242[/DHJHtmlXQ_34][/DHJHtmlXQ]")[0];
        assert_eq!(g.plies().map(|p| p.mv.to_string()).collect::<Vec<_>>(), ["h2e2"]);
        let board = format!("***k{}K***R", "*".repeat(81));
        let text = format!(
            "<p>[DHJHtmlXQ]\n[DHJHtmlXQ_31]{board}[/DHJHtmlXQ_31]\n[DHJHtmlXQ_32]1[/DHJHtmlXQ_32]\n\
             [DHJHtmlXQ_33]5[/DHJHtmlXQ_33]\n[DHJHtmlXQ_34]39388088[/DHJHtmlXQ_34]\n\
             [game_comment_0_0]黑先||两行[/comment_0_0][comment_0_2]将军[/comment_0_2]\n[/DHJHtmlXQ]</p>"
        );
        let g = &read(&text)[0];
        assert_eq!(g.fen(), Some("3k5/9/9/9/9/9/9/9/9/4K3R b - - 0 4"));
        assert!(g.replayed().is_valid());
        let tree = g.tree();
        assert_eq!(tree.node(tree.root()).comment(), Some("黑先\n两行"));
        assert_eq!(tree.node(tree.main_line().nth(1).unwrap()).comment(), Some("将军"));
        assert!(g.warnings().is_empty(), "{:?}", g.warnings());
    }

    #[test]
    fn a_side_the_first_move_contradicts_and_other_problems_are_told() {
        let text = "[DHJHtmlXQ][DHJHtmlXQ_32]1[/DHJHtmlXQ_32][DHJHtmlXQ_34]724279[/DHJHtmlXQ_34]\
                    [DHJHtmlXQ_99]x[/DHJHtmlXQ_99][game_comment_1_1]v[/comment_1_1][DHJHtmlXQ_10]t[/DHJHtmlXQ_11][/DHJHtmlXQ]";
        let g = &read(text)[0];
        let warnings: Vec<_> = g.warnings().iter().map(|w| w.message.as_str()).collect();
        assert!(warnings.iter().any(|w| w.contains("not a multiple of 4")), "{warnings:?}");
        assert!(warnings.iter().any(|w| w.contains("but the first move is Red's")), "{warnings:?}");
        assert!(warnings.iter().any(|w| w.contains("[game_comment_1_1] points at no move")), "{warnings:?}");
        assert!(warnings.iter().any(|w| w.contains("closed by [/DHJHtmlXQ_11]")), "{warnings:?}");
        assert_eq!(g.tag("DHJHtmlXQ_99"), Some("x"));
        assert_eq!(g.tag("Title"), Some("t"));
        let bad = &read("[DHJHtmlXQ][DHJHtmlXQ_31]rnb[/DHJHtmlXQ_31][/DHJHtmlXQ]")[0];
        assert!(bad.unreadable().unwrap().message.contains("90 are needed"));
    }

    #[test]
    fn blocks_are_counted_as_many_as_are_read() {
        for text in [
            "",
            "see [DHJHtmlXQ] here",
            "[DHJHtmlXQ][DHJHtmlXQ_34]7242[/DHJHtmlXQ_34][/DHJHtmlXQ][dhjhtmlxq][DHJHtmlXQ_11]e[/DHJHtmlXQ_11]",
            "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]",
        ] {
            assert_eq!(count_records(text), read(text).len(), "{text}");
        }
        assert!(!contains_block("[DhtmlXQ][/DhtmlXQ]"));
    }
}

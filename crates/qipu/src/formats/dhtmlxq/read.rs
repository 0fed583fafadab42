//! Reading DhtmlXQ blocks into records.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::formats::slots::slot_piece;
use crate::formats::tree::Game;
use crate::record::{GameResult, MoveText, Record, RecordBuilder, RecordedMove, Span, Visitor, Warning};
use crate::{Board, Move, Square};

use super::{TAGS, block_open_at, strip_prefix_ci};

/// How many branches up a ply is looked for (see `node_at`).
const MAX_BRANCH_CLIMB: usize = 64;

/// Tags that hold the record's structure, not its header.
const STRUCTURE: [&str; 5] = ["binit", "movelist", "fen", "result", "init"];

/// Reads every DhtmlXQ block of `text` into a record, in order (blocks
/// without a closed `[DhtmlXQ_…]…[/DhtmlXQ_…]` tag are not records and are
/// left out).
pub fn read(text: &str) -> Vec<Record> {
    read_with(text, &mut RecordBuilder::default())
}

/// Reads every DhtmlXQ block of `text` with `visitor`, as [`read`] reads
/// them: what the visitor makes of each game's events, in order. No
/// [`Record`] is built.
pub fn read_with<V: Visitor>(text: &str, visitor: &mut V) -> Vec<V::Output> {
    let mut games = Vec::new();
    read_each(text, 1, |game| games.push(game.tell(visitor)));
    games
}

/// [`read`], handing each game to `each` as it is read, on a text that
/// is the lines of a larger one from its line `first_line` on (1-based):
/// places name the lines of the larger text.
pub(crate) fn read_each(text: &str, first_line: u32, mut each: impl FnMut(Game)) {
    let lines = LineIndex::new(text, first_line);
    each_block(text, |block| {
        let mut record = Game { at: lines.span(block.open), ..Game::default() };
        if !block.closed {
            record.warnings.push(Warning {
                at: lines.span(block.open),
                message: format!("[{}] is not closed with [/{}]", block.name, block.name),
            });
        }
        if read_block(text, block.body.start, block.body.end, &lines, &mut record) {
            each(record);
        }
    });
}

/// How many records [`read`] reads from `text`, counted without reading
/// them: the blocks that hold a closed `[DhtmlXQ_…]…[/DhtmlXQ_…]` tag.
pub(crate) fn count_records(text: &str) -> usize {
    let mut records = 0;
    each_block(text, |block| {
        let tags = tags(text, block.body.start, block.body.end, None, &mut Vec::new());
        records += usize::from(tags.iter().any(|t| t.closed));
    });
    records
}

/// A block of a text, as [`each_block`] finds it.
pub(super) struct BlockAt<'a> {
    /// Where its opening tag starts.
    pub(super) open: usize,
    /// Its name (`DhtmlXQ`, `DhtmlXQiFrame`, …, as written).
    pub(super) name: &'a str,
    /// Its body: from after the opening tag to its closing tag (or, not
    /// closed, to the next block or the end).
    pub(super) body: std::ops::Range<usize>,
    /// Whether its closing tag ends it.
    pub(super) closed: bool,
}

/// Calls `each` for every block of `text`, in order.
fn each_block<'a>(text: &'a str, each: impl FnMut(BlockAt<'a>)) {
    each_block_of(text, |at| block_open_at(at).is_some(), each);
}

/// Calls `each` for every block of `text` whose opening tags `opens_at`
/// tells (whether one starts the bytes given), in order: the one scan of
/// blocks of the DhtmlXQ family.
pub(super) fn each_block_of<'a>(
    text: &'a str,
    opens_at: fn(&[u8]) -> bool,
    mut each: impl FnMut(BlockAt<'a>),
) {
    let bytes = text.as_bytes();
    let find_open = |from: usize| brackets(bytes, from, bytes.len()).find(|&k| opens_at(&bytes[k..]));
    let mut next = find_open(0);
    while let Some(open) = next {
        let body_start = open + text[open..].find(']').map_or(text.len() - open, |k| k + 1);
        let name = &text[open + 1..body_start.saturating_sub(1).max(open + 1)];
        // Blocks do not nest: one walk of the body's brackets finds its
        // closing tag, or the next block's opening one first, so that the
        // text is scanned once however many are open.
        let closes_at = |at: &[u8]| {
            strip_prefix_ci(at, b"[/")
                .and_then(|rest| strip_prefix_ci(rest, name.as_bytes()))
                .is_some_and(|rest| rest.first() == Some(&b']'))
        };
        let ends = brackets(bytes, body_start, bytes.len())
            .find(|&k| closes_at(&bytes[k..]) || opens_at(&bytes[k..]));
        match ends {
            Some(end) if closes_at(&bytes[end..]) => {
                each(BlockAt { open, name, body: body_start..end, closed: true });
                next = find_open(end + name.len() + 3);
            }
            // Unclosed: the block runs to the next block or the end.
            _ => {
                let end = ends.unwrap_or(text.len());
                each(BlockAt { open, name, body: body_start..end, closed: false });
                next = ends;
            }
        }
    }
}

/// The places of `[` in `bytes[from..end]`, in order.
fn brackets(bytes: &[u8], from: usize, end: usize) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'[', &bytes[from..end]).map(move |k| from + k)
}

/// One tag of a block: its name (lower case, without `DhtmlXQ_`), its
/// value and the byte where the value starts.
struct Tag<'a> {
    name: Cow<'a, str>,
    value: &'a str,
    at: usize,
    /// Whether a closing tag ends it.
    closed: bool,
}

/// The tags between `start` and `end`, and (with the text's `lines`) the
/// warnings their closing tags call for.
fn tags<'a>(
    text: &'a str,
    start: usize,
    end: usize,
    lines: Option<&LineIndex>,
    warnings: &mut Vec<Warning>,
) -> Vec<Tag<'a>> {
    const OPEN: &[u8] = b"[dhtmlxq_";
    const CLOSE: &[u8] = b"[/dhtmlxq_";
    let bytes = &text.as_bytes()[..end];
    let mut out = Vec::with_capacity(8);
    let find_open =
        |from: usize| brackets(bytes, from, end).find(|&k| strip_prefix_ci(&bytes[k..], OPEN).is_some());
    let mut next = find_open(start);
    while let Some(open) = next {
        let Some(name_end) = text[open..end].find(']').map(|k| open + k) else { break };
        let name = &text[open + OPEN.len()..name_end];
        let name = if name.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(name.to_ascii_lowercase())
        } else {
            Cow::Borrowed(name)
        };
        let value_start = name_end + 1;
        // Tags do not nest: one walk of the value's brackets finds its
        // closing tag, or the next opening one first (the text is scanned
        // once however many are open).
        let ends = brackets(bytes, value_start, end).find(|&k| {
            let at = &bytes[k..];
            strip_prefix_ci(at, CLOSE).is_some() || strip_prefix_ci(at, OPEN).is_some()
        });
        let (value_end, closed) = match ends {
            Some(close) if strip_prefix_ci(&bytes[close..], CLOSE).is_some() => {
                // The closing tag's name runs to its ']' (or, without one, to the block's end).
                let (closing, close_end) = match text[close..end].find(']') {
                    Some(k) => (&text[close + CLOSE.len()..close + k], close + k + 1),
                    None => (&text[close + CLOSE.len()..end], end),
                };
                if let Some(lines) = lines
                    && !closing.eq_ignore_ascii_case(&name)
                {
                    warnings.push(Warning {
                        at: lines.span(close),
                        message: format!(
                            "[DhtmlXQ_{name}] closed by [/DhtmlXQ_{}]",
                            closing.to_ascii_lowercase()
                        ),
                    });
                }
                next = find_open(close_end);
                (close, true)
            }
            _ => {
                if let Some(lines) = lines {
                    warnings.push(Warning {
                        at: lines.span(open),
                        message: format!("[DhtmlXQ_{name}] is not closed"),
                    });
                }
                next = ends;
                (ends.unwrap_or(end), false)
            }
        };
        out.push(Tag { name, value: &text[value_start..value_end], at: value_start, closed });
    }
    out
}

/// Fills `record` from the block body `text[start..end]`; false when the
/// block holds no closed DhtmlXQ tag (prose that mentions `[DhtmlXQ]` or a
/// tag name, not a record).
fn read_block(text: &str, start: usize, end: usize, lines: &LineIndex, record: &mut Game) -> bool {
    let mut warnings = Vec::new();
    let tags = tags(text, start, end, Some(lines), &mut warnings);
    if !tags.iter().any(|t| t.closed) {
        return false;
    }
    record.warnings.append(&mut warnings);
    record.tag("Game", "Chinese Chess");
    // The tags holding the structure (a tag repeated: the later one).
    let last = |name: &str| tags.iter().rev().find(|t| t.name == name);
    let (result, movelist, binit, fen) = (last("result"), last("movelist"), last("binit"), last("fen"));
    let mut header = Header::new(record.tags.len());
    for tag in &tags {
        // Line ends around the value are layout; spaces are the author's.
        let value = crate::formats::encoding::unescape_references(tag.value.trim_matches(['\r', '\n']));
        if value.trim().is_empty() || STRUCTURE.contains(&&*tag.name) {
            continue;
        }
        if tag.name.starts_with("move_") || tag.name.starts_with("comment") {
            continue;
        }
        let key: Cow<'static, str> = match TAGS.iter().find(|(n, _)| *n == tag.name) {
            Some((_, key)) => Cow::Borrowed(key),
            None => Cow::Owned(format!("DhtmlXQ_{}", tag.name)),
        };
        header.set(record, key, value.into_owned());
    }
    if let Some(result) = result.map(|t| t.value.trim()).filter(|v| !v.is_empty()) {
        let result = parse_result(result);
        record.result = Some(result);
        record.set_tag("Result", result.as_str());
    }

    // Branches: number -> (parent branch, first ply, moves).
    let mut branches: Vec<(usize, usize, usize, &Tag)> = Vec::new();
    if let Some(main) = movelist {
        branches.push((0, 0, 1, main));
    }
    for tag in &tags {
        let Some(rest) = tag.name.strip_prefix("move_") else { continue };
        let numbers: Vec<Option<usize>> = rest.split('_').map(|n| n.parse().ok()).collect();
        match numbers[..] {
            [Some(a), Some(k), Some(c)] if k >= 1 && c >= 1 => branches.push((c, a, k, tag)),
            [Some(0), Some(1), Some(0)] if movelist.is_none() => branches.push((0, 0, 1, tag)),
            _ => record.warnings.push(Warning {
                at: lines.span(tag.at),
                message: format!("[DhtmlXQ_{}]: not a branch name (move_A_K_C), ignored", tag.name),
            }),
        }
    }
    branches.sort_by_key(|b| b.0);

    let board = match start_board(binit, lines) {
        Ok(b) => b,
        Err(w) => {
            record.unreadable = Some(w);
            return true;
        }
    };
    // (branch number) -> (parent, first ply, node of each ply)
    let mut placed: HashMap<usize, (usize, usize, Vec<u32>)> = HashMap::new();
    let root = record.moves.root();
    // Branches are placed once their parent is, the lowest number first:
    // each waits under its parent's number, and placing a branch makes
    // those waiting for it ready, so that any order of tags reads in
    // n log n time.
    let mut waiting: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut ready = std::collections::BinaryHeap::new();
    for (i, branch) in branches.iter().enumerate() {
        if branch.0 == 0 {
            ready.push(std::cmp::Reverse((branch.0, i)));
        } else {
            waiting.entry(branch.1).or_default().push(i);
        }
    }
    while let Some(std::cmp::Reverse((_, i))) = ready.pop() {
        let (c, a, k, tag) = branches[i];
        if placed.contains_key(&c) {
            record.warnings.push(Warning {
                at: lines.span(tag.at),
                message: format!("branch {c} given twice; the second is ignored"),
            });
            continue;
        }
        let parent = if c == 0 { Some(root) } else { node_at(&placed, a, k - 1, root) };
        let Some(parent) = parent else {
            record.warnings.push(Warning {
                at: lines.span(tag.at),
                message: format!("branch {c} starts at ply {k} of branch {a}, which is not there; ignored"),
            });
            continue;
        };
        let nodes = add_branch(record, parent, tag, lines);
        placed.insert(c, (a, k, nodes));
        if let Some(children) = waiting.remove(&c) {
            ready.extend(children.into_iter().map(|j| std::cmp::Reverse((branches[j].0, j))));
        }
    }
    // Branches whose parent never came.
    // By number, and a number given twice in the order of the block (the
    // map's order is not the same from one run to the next).
    let mut orphans: Vec<usize> = waiting.into_values().flatten().collect();
    orphans.sort_by_key(|&j| (branches[j].0, j));
    for (c, a, k, tag) in orphans.into_iter().map(|j| branches[j]) {
        record.warnings.push(Warning {
            at: lines.span(tag.at),
            message: format!("branch {c} starts at ply {k} of branch {a}, which is not there; ignored"),
        });
    }

    // Comments, gathered and then put on their nodes, each node's once.
    let mut comments = Comments::default();
    for tag in &tags {
        let Some(rest) = tag.name.strip_prefix("comment") else { continue };
        let (branch, ply) = match rest.split_once('_') {
            Some((c, k)) => (c.parse::<usize>().ok(), k.parse::<usize>().ok()),
            None => (Some(0), rest.parse::<usize>().ok()),
        };
        let text = comment_text(tag.value);
        if text.is_empty() {
            continue;
        }
        let node = match (branch, ply) {
            (Some(_), Some(0)) => Some(root),
            (Some(c), Some(k)) => node_at(&placed, c, k, root),
            _ => None,
        };
        match node {
            Some(id) => comments.add(id, text),
            None => record.warnings.push(Warning {
                at: lines.span(tag.at),
                message: format!("[DhtmlXQ_{}] points at no move; kept on the start", tag.name),
            }),
        }
    }
    comments.put(record);
    record.take_tag_lines();

    // vschess's `fen` tag, else the side to move from the first move's
    // piece (DhtmlXQ does not store it).
    match fen.filter(|t| !t.value.trim().is_empty()) {
        Some(fen) => {
            record.set_tag("FEN", fen.value.trim());
            record.start_at = Some(lines.span(fen.at));
        }
        None => {
            let board_at = binit.map_or(record.at, |t| lines.span(t.at));
            crate::formats::start::settle_start(record, &board, board_at, None, (0, 1))
        }
    }
    true
}

/// The header tags a block adds to its record: a tag repeated (in any
/// case) takes the later value, in the place of the first. Looked up in
/// the tags while they are few, in a map of their names past that, so that
/// a block of many tags reads in linear time.
struct Header {
    /// Where the block's tags start in the record's.
    from: usize,
    /// The lower-case names and places of the tags, once there are many.
    index: Option<HashMap<String, usize>>,
}

impl Header {
    /// Tags looked up in a list up to this many.
    const FEW: usize = 16;

    /// The block's tags, added after the record's first `from`.
    fn new(from: usize) -> Header {
        Header { from, index: None }
    }

    /// Sets tag `key` of `record` to `value`.
    fn set(&mut self, record: &mut Game, key: Cow<'static, str>, value: String) {
        let found = match &self.index {
            Some(index) => index.get(&key.to_ascii_lowercase()).copied(),
            None => record.tags[self.from..]
                .iter()
                .position(|(k, _)| k.eq_ignore_ascii_case(&key))
                .map(|k| k + self.from),
        };
        if let Some(k) = found {
            record.tags[k].1 = value;
            return;
        }
        if let Some(index) = &mut self.index {
            index.insert(key.to_ascii_lowercase(), record.tags.len());
        }
        record.tags.push((key, value));
        if self.index.is_none() && record.tags.len() - self.from > Self::FEW {
            let names = record.tags.iter().enumerate().skip(self.from);
            self.index = Some(names.map(|(k, (name, _))| (name.to_ascii_lowercase(), k)).collect());
        }
    }
}

/// The comments of a block's nodes, gathered in the block's order and put
/// on their nodes once all are read: a node's comments, one a line, in
/// one piece (appended one by one, comments of nodes taken in turn would
/// be copied again each time, in time and memory quadratic in their
/// number).
#[derive(Default)]
pub(super) struct Comments(Vec<(u32, String)>);

impl Comments {
    /// A comment on node `id`, after those it already has.
    pub(super) fn add(&mut self, id: u32, text: String) {
        self.0.push((id, text));
    }

    /// Puts the comments on their nodes.
    pub(super) fn put(mut self, game: &mut Game) {
        self.0.sort_by_key(|(id, _)| *id);
        for same in self.0.chunk_by(|a, b| a.0 == b.0) {
            let text = same.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>().join("\n");
            game.moves.append_comment(same[0].0, &text);
        }
    }
}

/// The node of ply `ply` in branch `branch` (0 = the start), following
/// the branches a branch hangs from.
fn node_at(
    placed: &HashMap<usize, (usize, usize, Vec<u32>)>,
    branch: usize,
    ply: usize,
    root: u32,
) -> Option<u32> {
    if ply == 0 {
        return Some(root);
    }
    let mut branch = branch;
    // A branch's plies before its first one are its parent's (looked for
    // a few branches up at most: real files need one or two, and a chain of
    // thousands would make every lookup walk it).
    for _ in 0..=placed.len().min(MAX_BRANCH_CLIMB) {
        let (parent, first, nodes) = placed.get(&branch)?;
        if ply >= *first {
            return nodes.get(ply - first).copied();
        }
        if branch == 0 {
            return None;
        }
        branch = *parent;
    }
    None
}

/// Adds the moves of one branch under `parent`; returns their nodes.
fn add_branch(record: &mut Game, parent: u32, tag: &Tag, lines: &LineIndex) -> Vec<u32> {
    let label = ("DhtmlXQ_", &*tag.name);
    add_plies(record, parent, Plies { digits: tag.value, at: tag.at, label, rows: Rows::FromTop }, lines)
}

/// How a dialect counts the rows of a point.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Rows {
    /// From the top (Black's back rank is 0): DhtmlXQ.
    FromTop,
    /// From Red's side (Red's back rank is 0, as ICCS ranks): DHJHtmlXQ.
    FromRed,
}

/// A run of four-digit plies (`x1 y1 x2 y2`, x the column from Red's
/// left) as a tag holds them.
pub(super) struct Plies<'a> {
    /// The tag's value.
    pub(super) digits: &'a str,
    /// Where the value starts in the text.
    pub(super) at: usize,
    /// The tag, as warnings name it (`[` the two joined `]`).
    pub(super) label: (&'a str, &'a str),
    /// How its rows count.
    pub(super) rows: Rows,
}

/// Adds the moves of `plies` under `parent`, one after the other; returns
/// their nodes. White space between digits is layout, wherever it falls.
pub(super) fn add_plies(record: &mut Game, parent: u32, plies: Plies, lines: &LineIndex) -> Vec<u32> {
    let bytes = plies.digits.as_bytes();
    let mut nodes = Vec::with_capacity(bytes.len() / 4);
    record.moves.reserve(bytes.len() / 4);
    let point = |x: u8, y: u8| {
        let (x, y) = (x.wrapping_sub(b'0'), y.wrapping_sub(b'0'));
        let y = if plies.rows == Rows::FromRed { 9u8.wrapping_sub(y) } else { y };
        (x <= 8 && y <= 9).then(|| square(x, y))
    };
    let mut at = parent;
    let mut add = |ply: &[u8], place: Span| {
        let text = match (point(ply[0], ply[1]), point(ply[2], ply[3])) {
            (Some(from), Some(to)) => MoveText::Coords(Move::new(from, to)),
            // Not two points: kept as written, so that replay reports it.
            _ => MoveText::Text(String::from_utf8_lossy(ply).as_ref().into()),
        };
        at = record.moves.add_child(at, RecordedMove { text, at: place });
        nodes.push(at);
    };
    // The ply being gathered: its characters, how many, where its first is.
    let (mut ply, mut held, mut first) = ([0u8; 4], 0, 0);
    let mut characters = 0usize;
    if bytes.is_ascii() && !bytes.iter().any(u8::is_ascii_whitespace) {
        // One run of ASCII characters (as written mostly): four at a time,
        // a character a column.
        let start = lines.span(plies.at);
        for (k, ply) in bytes.chunks_exact(4).enumerate() {
            let column = start.column.saturating_add(u32::try_from(4 * k).unwrap_or(u32::MAX));
            add(ply, Span { column, ..start });
        }
        characters = bytes.len();
        held = bytes.len() % 4;
    } else {
        for (k, &b) in bytes.iter().enumerate() {
            if b.is_ascii_whitespace() {
                continue;
            }
            if held == 0 {
                first = k;
            }
            ply[held] = b;
            held += 1;
            characters += 1;
            if held == 4 {
                held = 0;
                add(&ply, lines.span(plies.at + first));
            }
        }
    }
    if held != 0 {
        record.warnings.push(Warning {
            at: lines.span(plies.at),
            message: format!(
                "[{}{}]: {characters} characters, not a multiple of 4; the last {held} ignored",
                plies.label.0, plies.label.1
            ),
        });
    }
    nodes
}

/// The point of DhtmlXQ column `x` and row `y` (from the top).
pub(super) fn square(x: u8, y: u8) -> Square {
    // Cannot fail: the caller passes digits, a column 0..=8.
    Square::new(crate::File::new(x as u32).expect("0..8"), crate::Rank::new(9 - y as u32).expect("0..9"))
}

/// The start position from `binit` (the standard one without it).
fn start_board(binit: Option<&Tag>, lines: &LineIndex) -> Result<Board, Warning> {
    let Some(tag) = binit.filter(|t| !t.value.trim().is_empty()) else {
        return Ok(Board::start());
    };
    let digits: Vec<u8> = tag.value.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let bad = |message: String| Warning { at: lines.span(tag.at), message };
    if digits.len() != 64 || !digits.iter().all(u8::is_ascii_digit) {
        return Err(bad(format!("binit: {} characters; 64 digits (32 points) are needed", digits.len())));
    }
    let mut board = Board::empty();
    for (i, pair) in digits.chunks_exact(2).enumerate() {
        let (x, y) = (pair[0] - b'0', pair[1] - b'0');
        if x > 8 {
            continue; // 99 (or any column past i): not on the board
        }
        let piece = slot_piece(i);
        if board.put(square(x, y), piece).is_some() {
            return Err(bad(format!("binit: two pieces on {}", square(x, y))));
        }
    }
    Ok(board)
}

/// A comment's text: `||` is a line break, `\uXXXX` an escaped character.
/// (An all-blank comment is kept: it is what the record says.)
pub(super) fn comment_text(value: &str) -> String {
    // Line ends around the value are layout; spaces are the author's.
    let value = value.trim_matches(['\r', '\n']).replace("\r\n", "\n").replace("||", "\n");
    let value = crate::formats::encoding::unescape_references(&value).into_owned();
    if !value.contains("\\u") {
        return value;
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value.as_str();
    while let Some(k) = rest.find("\\u") {
        out.push_str(&rest[..k]);
        let hex = rest.get(k + 2..k + 6);
        match hex.and_then(|h| u32::from_str_radix(h, 16).ok()).and_then(char::from_u32) {
            Some(c) => {
                out.push(c);
                rest = &rest[k + 6..];
            }
            None => {
                out.push_str("\\u");
                rest = &rest[k + 2..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// dpxq's result words (and PGN's tokens, and W/L/D from Red's side).
pub(super) fn parse_result(value: &str) -> GameResult {
    if let Some(r) = GameResult::parse(value) {
        return r;
    }
    match value {
        "红胜" | "红先胜" | "黑负" | "紅勝" | "紅先勝" | "黑負" | "W" | "w" => {
            GameResult::RedWins
        }
        "黑胜" | "红负" | "红先负" | "黑勝" | "紅負" | "紅先負" | "L" | "l" => {
            GameResult::BlackWins
        }
        "和棋" | "和局" | "和" | "红和" | "红先和" | "紅和" | "紅先和" | "D" | "d" => {
            GameResult::Draw
        }
        _ => GameResult::Unknown,
    }
}

/// Line and column of byte offsets in a text.
pub(super) struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
    /// The number of the text's first line.
    first_line: u32,
    /// The last place asked for: (line, offset, column), so that places
    /// asked for in order along one long line (a web page on one line) are
    /// counted on from there, not from the line's start each time.
    last: std::cell::Cell<(usize, usize, usize)>,
}

impl<'a> LineIndex<'a> {
    /// The lines of `text`, the first numbered `first_line`.
    pub(super) fn new(text: &'a str, first_line: u32) -> LineIndex<'a> {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|k| k + 1));
        LineIndex { text, starts, first_line, last: std::cell::Cell::new((0, 0, 1)) }
    }

    /// The line and column of byte `offset`.
    pub(super) fn span(&self, offset: usize) -> Span {
        let (last_line, last_offset, last_column) = self.last.get();
        // Places are mostly asked for along one line (the plies of a move
        // list): its line is not looked for again.
        let on_last_line = self.starts[last_line] <= offset
            && self.starts.get(last_line + 1).is_none_or(|&next| offset < next);
        let line = if on_last_line { last_line } else { self.starts.partition_point(|&s| s <= offset) - 1 };
        let start = self.starts[line];
        let (from, base) = if last_line == line && (start..=offset).contains(&last_offset) {
            (last_offset, last_column)
        } else {
            (start, 1)
        };
        // Characters are counted as the bytes that do not continue one
        // (a place inside a character counts the bytes up to it).
        let between = self.text.as_bytes().get(from..offset).unwrap_or_default();
        let column = between.iter().filter(|&&b| !(0x80..0xC0).contains(&b)).count() + base;
        self.last.set((line, offset, column));
        Span { line: (line as u32).saturating_add(self.first_line), column: column as u32 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::replay::replay;

    #[test]
    fn records_are_counted_as_many_as_are_read() {
        let block = "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]";
        let texts = [
            String::new(),
            block.to_string(),
            format!("<p>{block}</p>\n<p>[DhtmlXQiFrame][DhtmlXQ_title]x[/DhtmlXQ_title][/DhtmlXQiFrame]</p>"),
            // Prose that names a block, a block of no closed tag, blocks not closed.
            "see [DhtmlXQ] here [DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ]".to_string(),
            format!(
                "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n{block}\n[dhtmlxqhtml][dhtmlxq_title]t[/dhtmlxq_title]"
            ),
            format!("{block}[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ][DhtmlXQ]{block}"),
        ];
        for text in &texts {
            assert_eq!(count_records(text), read(text).len(), "{text}");
        }
        assert_eq!(count_records(&texts[4]), 3);
        // Every cut of a text of several blocks.
        let all = &texts[5];
        for end in (0..=all.len()).filter(|&k| all.is_char_boundary(k)) {
            assert_eq!(count_records(&all[..end]), read(&all[..end]).len(), "{}", &all[..end]);
        }
    }

    #[test]
    fn blocks_in_a_page_with_variations_and_comments() {
        let page = "<html><div>[DhtmlXQ][DhtmlXQ_title]A[/DhtmlXQ_title][DhtmlXQ_result]W[/DhtmlXQ_result]\
            [DhtmlXQ_movelist]774770627967[/DhtmlXQ_movelist][DhtmlXQ_move_0_2_1]10221927[/DhtmlXQ_move_0_2_1]\
            [DhtmlXQ_move_1_3_2]7967[/DhtmlXQ_move_1_3_2][DhtmlXQ_comment0]开局||说明[/DhtmlXQ_comment0]\
            [DhtmlXQ_comment1_3]变着[/DhtmlXQ_comment1_3][/DhtmlXQ]</div>\n\
            <p>[DhtmlXQiFrame][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQiFrame]</p>";
        let games = read(page);
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!((g.tag("Title"), g.written_result()), (Some("A"), Some(GameResult::RedWins)));
        let t = g.tree();
        assert_eq!(t.node(t.root()).comment(), Some("开局\n说明"));
        assert_eq!(t.main_line().count(), 3);
        assert_eq!(t.variation_count(), 2);
        let r = replay(g);
        assert!(r.is_valid(), "{:?}", r.error);
        assert_eq!(r.variation_plies, 3);
        // Branch 1 replaces ply 2 (h9g7) with b9c7, then b0c2; branch 2 replaces its ply 3 with h0g2.
        let alt = t.children(t.main_line().next().unwrap()).nth(1).unwrap();
        let third = t.main_child(alt).unwrap();
        assert_eq!(t.node(third).comment(), Some("变着"));
        assert!(t.node(third).mv.as_ref().unwrap().at.line == 1);
        assert!(games[1].warnings().is_empty());
    }

    #[test]
    fn branches_whose_parent_never_comes_are_told_in_the_same_order_every_time() {
        // No main line: every branch waits for a parent that never comes;
        // branch 1 is given twice, hanging from two branches (in separate
        // maps, so a map's order would show).
        let block = "[DhtmlXQ]\n[DhtmlXQ_move_0_3_1]7747[/DhtmlXQ_move_0_3_1]\n\
            [DhtmlXQ_move_2_2_1]1022[/DhtmlXQ_move_2_2_1]\n[DhtmlXQ_move_5_1_3]7747[/DhtmlXQ_move_5_1_3]\n\
            [DhtmlXQ_move_9_4_1]7747[/DhtmlXQ_move_9_4_1]\n[/DhtmlXQ]";
        for _ in 0..32 {
            let game = &read(block)[0];
            let lines: Vec<u32> = game.warnings().iter().map(|w| w.at.line).collect();
            assert_eq!(lines, [2, 3, 5, 4], "{:?}", game.warnings());
        }
    }

    #[test]
    fn a_mention_of_the_block_name_is_not_a_record() {
        assert!(read("The export uses `[DhtmlXQiFrame]` (not `[DhtmlXQ]`).").is_empty());
        assert!(
            read("inline, one line (`[DhtmlXQ][DhtmlXQ_title]…`), and `[DhtmlXQ_move_a_b_c]` tags")
                .is_empty()
        );
        let two = read("[DhtmlXQ][/DhtmlXQ] [DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]");
        assert_eq!(two.len(), 1);
    }

    #[test]
    fn a_closing_tag_cut_at_the_end_is_read() {
        // Found by fuzzing: a closing tag without ']' before a multi-byte character.
        let games = read("[DhtmlXQ][DhtmlXQ_][/DhtmlXQ_\u{fffd}");
        assert_eq!(games.len(), 1);
        assert!(
            games[0].warnings().iter().any(|w| w.message.contains("[/DhtmlXQ_\u{fffd}]")),
            "{:?}",
            games[0].warnings()
        );
    }

    #[test]
    fn mismatched_closing_tags_and_absent_pieces() {
        let text = "[DhtmlXQ]\r\n[DhtmlXQ_blacktime][/DhtmlXQ_time]\r\n\
            [DhtmlXQ_binit]9999999949999999999999999999999999999999999999999999999999999999[/DhtmlXQ_binit]\r\n\
            [/DhtmlXQ]";
        let g = &read(text)[0];
        assert!(g.warnings()[0].message.contains("closed by [/DhtmlXQ_time]"), "{:?}", g.warnings());
        assert_eq!(g.warnings()[0].at.line, 2);
        // Only the red king, on e0 (column 4, row 9): not a valid position, but read.
        assert_eq!(g.fen(), Some("9/9/9/9/9/9/9/9/9/4K4 w - - 0 1"));
        let bad = &read("[DhtmlXQ][DhtmlXQ_binit]123[/DhtmlXQ_binit][/DhtmlXQ]")[0];
        assert!(bad.unreadable().unwrap().message.contains("64 digits"));
    }
}

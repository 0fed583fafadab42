//! PGN records: many games per file, tags, move text in Chinese, WXF or
//! ICCS notation with comments, variations, NAGs and results.
//!
//! The reader works on decoded text (see [`super::encoding`]) and is
//! forgiving in the ways real files need:
//! - tag names in any case; a line holding only tags starts a new game once
//!   the current one has moves; tags inside move text (`[Score "10=0"]`)
//!   are skipped;
//! - move numbers with or without dots (`1.`, `1...`, `1．`, right-aligned
//!   or attached: `1.炮二平五`), continuation lines (`3.          马８进７`),
//!   placeholders (`....`, `…………`);
//! - `{}` comments over several lines, `;` comments, `()` variations to any
//!   depth, NAGs (`$1`);
//! - results `1-0 0-1 1/2-1/2 ½-½ *`, or none; separator lines of `=` and
//!   whatever follows a result up to the next tags (ElephantEye's footer).
//!
//! Moves are kept as text; the notation of each move is worked out when
//! the game is replayed, since real files mislabel `[Format]`.
//!
//! ```
//! use qipu::formats::pgn;
//! let games = pgn::read("[Event \"x\"]\n1. 炮二平五 {center} 马８进７ (1... 象３进５) 2. 马二进三 *\n");
//! assert_eq!(games.len(), 1);
//! let g = &games[0];
//! assert_eq!(g.tag("event"), Some("x"));
//! assert_eq!(g.tree.main_line().count(), 3);
//! assert_eq!(g.tree.variation_count(), 1);
//! ```

use nom::IResult;
use nom::Parser;
use nom::bytes::complete::{escaped_transform, is_not, take_while1};
use nom::character::complete::{char, space0};
use nom::combinator::{opt, value};
use nom::sequence::delimited;

use crate::record::{GameResult, NodeId, Record, RecordedMove, Span, Warning};

/// Reads every game of a PGN text.
pub fn read(text: &str) -> Vec<Record> {
    let mut games = Vec::new();
    read_in_batches(text, usize::MAX, |batch| games.extend(batch));
    games
}

/// Reads the games of a PGN text and hands them to `f` in batches of at
/// most `batch` games, in order, so that a large file is never held as
/// records all at once.
pub fn read_in_batches(text: &str, batch: usize, mut f: impl FnMut(Vec<Record>)) {
    let mut reader = LineReader::default();
    for line in text.lines() {
        reader.push_line(line);
        if reader.ready() >= batch {
            f(reader.take_games());
        }
    }
    let rest = reader.finish();
    if !rest.is_empty() {
        f(rest);
    }
}

/// A PGN reader fed text a piece at a time (each piece ending at a line
/// end, but for the last), for texts too large to hold at once.
///
/// ```
/// use qipu::formats::pgn::LineReader;
/// let mut reader = LineReader::default();
/// reader.push("[Event \"a\"]\n1. h2e2 *\n");
/// reader.push("[Event \"b\"]\n1. h2e2 *\n");
/// assert_eq!(reader.take_games().len(), 1); // the second may go on
/// assert_eq!(reader.finish().len(), 1);
/// ```
#[derive(Debug, Default)]
pub struct LineReader {
    reader: Reader,
    lines: u32,
}

impl LineReader {
    /// A reader whose first line is line `line` of its source (1-based):
    /// for move text cut out of a larger text.
    pub fn starting_at_line(line: u32) -> LineReader {
        LineReader { lines: line.saturating_sub(1), ..LineReader::default() }
    }

    /// Reads the lines of `text`.
    pub fn push(&mut self, text: &str) {
        for line in text.lines() {
            self.push_line(line);
        }
    }

    /// Reads one line (without its line end; a final `\r` is dropped).
    pub fn push_line(&mut self, line: &str) {
        self.lines += 1;
        self.reader.line(self.lines, line.strip_suffix('\r').unwrap_or(line));
    }

    /// How many games are complete and waiting.
    pub fn ready(&self) -> usize {
        self.reader.games.len()
    }

    /// The games completed so far.
    pub fn take_games(&mut self) -> Vec<Record> {
        std::mem::take(&mut self.reader.games)
    }

    /// Ends the text: the games still open.
    pub fn finish(self) -> Vec<Record> {
        self.reader.finish()
    }

    /// Skips a line too long to read (see [`crate::formats::stream`]): the
    /// game it falls in is unreadable, with the line's number.
    pub fn skip_overlong_line(&mut self, limit: usize) {
        self.lines += 1;
        let game = &mut self.reader.game;
        if game.unreadable.is_none() {
            game.unreadable = Some(Warning {
                at: Span { line: self.lines, column: 1 },
                message: format!("line longer than {} MB: not read", limit >> 20),
            });
        }
        self.reader.has_moves = true;
    }
}

/// Whether the text has a line of PGN tags.
pub fn has_tags(text: &str) -> bool {
    text.lines().any(|l| l.trim_start().starts_with('[') && tag_line(l).is_some())
}

/// One `[Name "value"]` pair.
fn tag_pair(input: &str) -> IResult<&str, (String, String)> {
    let name = take_while1(|c: char| c.is_alphanumeric() || c == '_' || c == '-');
    let quoted = delimited(
        char('"'),
        opt(escaped_transform(
            is_not("\\\""),
            '\\',
            nom::branch::alt((value("\\", char('\\')), value("\"", char('"')))),
        )),
        char('"'),
    );
    let (rest, (_, _, name, _, value, _, _)) =
        (space0, char('['), name, space0, quoted, space0, char(']')).parse(input)?;
    Ok((rest, (name.to_string(), value.unwrap_or_default())))
}

/// The tags of a line made of tags only, if it is one.
fn tag_line(line: &str) -> Option<Vec<(String, String)>> {
    let mut rest = line;
    let mut tags = Vec::new();
    while !rest.trim().is_empty() {
        let (r, tag) = tag_pair(rest).ok()?;
        tags.push(tag);
        rest = r;
    }
    (!tags.is_empty()).then_some(tags)
}

/// The column (in characters) of the `[FEN` tag in a line of tags.
fn fen_tag_column(line: &str) -> u32 {
    let at = line
        .match_indices('[')
        .find(|(i, _)| line[i + 1..].trim_start().get(..3).is_some_and(|n| n.eq_ignore_ascii_case("FEN")))
        .map_or(0, |(i, _)| i);
    line[..at].chars().count() as u32 + 1
}

/// A comment's text without the padding of `{ text }`: at most one ASCII
/// white-space character at each end.
fn unpadded(text: &str) -> &str {
    let text = text.strip_prefix(|c: char| c.is_ascii_whitespace()).unwrap_or(text);
    text.strip_suffix(|c: char| c.is_ascii_whitespace()).unwrap_or(text)
}

/// A comment as written between braces: padded with a space at each end
/// when it starts or ends with white space (see `unpadded`), `}` written
/// as the full-width `｝` (a PGN comment cannot hold it).
fn braced(comment: &str) -> String {
    let text = super::clean::lines(comment).replace('}', "｝");
    let text = super::encoding::guard_references(&text).into_owned();
    let text = guard_tag_lines(&text);
    let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_whitespace());
    if edge(text.chars().next()) || edge(text.chars().next_back()) {
        format!("{{ {text} }}")
    } else {
        format!("{{{text}}}")
    }
}

/// A comment's text with the `[` of each line that would read as a line of
/// tags after an empty line (which ends a comment left open) written as
/// the full-width `［`.
fn guard_tag_lines(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("\n\n") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut after_blank = false;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if after_blank && tag_line(line).is_some() {
            out.push_str(&line.replacen('[', "［", 1));
        } else {
            out.push_str(line);
        }
        after_blank = line.trim().is_empty();
    }
    out.into()
}

/// Reader state across lines.
#[derive(Debug, Default)]
struct Reader {
    games: Vec<Record>,
    game: Record,
    /// The game has move text (or a result): the next tag line starts a new game.
    has_moves: bool,
    /// After a result or a separator: skip lines up to the next tags.
    ended: bool,
    cursor: Option<NodeId>,
    variations: Vec<NodeId>,
    /// An open `{` comment: its text so far and where it started.
    comment: Option<(String, Span)>,
    /// A comment at the start of a variation, for its first move.
    pending_before: Option<String>,
    /// The line before was empty.
    after_blank: bool,
    /// Lines of text after the game's result that are not read (a footer):
    /// how many, and the first one's number.
    footer: Option<(u32, u32)>,
    /// The hashes of the names of the game's tags (in lower case), once
    /// it has more than [`FEW_TAGS`]: a game of many tags is read in linear
    /// time and little memory.
    tag_names: std::collections::HashSet<u64>,
    /// The hasher of `tag_names` (random keys: no text can make names
    /// collide on purpose).
    tag_hasher: std::hash::RandomState,
    /// Warnings of this game past [`MAX_WARNINGS`].
    unlisted_warnings: usize,
}

/// Up to this many tags, a game's tags are looked through one by one.
const FEW_TAGS: usize = 32;

/// A game lists at most this many warnings; the rest are counted.
const MAX_WARNINGS: usize = 20;

impl Reader {
    fn line(&mut self, number: u32, line: &str) {
        // `&#39532;` for 马: what tools write for a character their encoding lacks.
        let line = &*super::encoding::unescape_references(line);
        let after_blank = std::mem::replace(&mut self.after_blank, line.trim().is_empty());
        // A comment without end would take every later game: a line of tags
        // after an empty line ends it (end_game warns of it).
        if (self.comment.is_none() || after_blank)
            && let Some(tags) = tag_line(line)
        {
            // A tag the game already has starts the next game too: a game
            // without moves is followed directly by the next one's tags.
            let repeated = tags.iter().any(|(name, _)| self.has_tag(name));
            if self.has_moves || self.ended || repeated {
                self.end_game();
            }
            if self.game.tags.is_empty() {
                self.game.at = Span { line: number, column: 1 };
            }
            if tags.iter().any(|(name, _)| name.eq_ignore_ascii_case("FEN")) {
                self.game.start_at = Some(Span { line: number, column: fen_tag_column(line) });
            }
            self.add_tags(tags);
            return;
        }
        if self.ended {
            // Move text that starts again at move 1, or moves without
            // numbers, after a result are the next game, written without
            // tags; anything else up to the next tags is a footer, told in a
            // warning with its size and place.
            if self.comment.is_none() && (starts_at_move_one(line) || unnumbered_moves(line)) {
                self.end_game();
                self.game.at = Span { line: number, column: 1 };
                self.movetext(number, line);
            } else if !line.trim().is_empty() {
                let (lines, _) = self.footer.get_or_insert((0, number));
                *lines += 1;
            }
            return;
        }
        let trimmed = line.trim();
        if self.comment.is_none() && trimmed.len() >= 3 && trimmed.chars().all(|c| c == '=') {
            self.ended = true;
            return;
        }
        self.movetext(number, line);
    }

    /// Whether the game has a tag called `name` (in any case).
    fn has_tag(&self, name: &str) -> bool {
        if self.game.tags.len() <= FEW_TAGS {
            self.game.tags.iter().any(|(n, _)| n.eq_ignore_ascii_case(name))
        } else {
            self.tag_names.contains(&self.name_hash(name))
        }
    }

    /// The hash of a tag name, in any case.
    fn name_hash(&self, name: &str) -> u64 {
        use std::hash::{BuildHasher, Hasher};
        let mut h = self.tag_hasher.build_hasher();
        for b in name.bytes() {
            h.write_u8(b.to_ascii_lowercase());
        }
        h.finish()
    }

    fn add_tags(&mut self, tags: Vec<(String, String)>) {
        let before = self.game.tags.len();
        self.game.tags.extend(tags);
        if self.game.tags.len() > FEW_TAGS {
            let from = if before > FEW_TAGS { before } else { 0 };
            for k in from..self.game.tags.len() {
                let hash = self.name_hash(&self.game.tags[k].0);
                self.tag_names.insert(hash);
            }
        }
    }

    fn cursor(&self) -> NodeId {
        self.cursor.unwrap_or(self.game.tree.root())
    }

    /// Notes a problem worked around; past [`MAX_WARNINGS`] a game's
    /// problems are only counted.
    fn warn(&mut self, at: Span, message: impl Into<String>) {
        if self.game.warnings.len() < MAX_WARNINGS {
            self.game.warnings.push(Warning { at, message: message.into() });
        } else {
            self.unlisted_warnings += 1;
        }
    }

    fn movetext(&mut self, number: u32, line: &str) {
        let bytes = line.as_bytes();
        if bytes.is_empty() {
            // An empty line inside a comment is part of it.
            if let Some((text, _)) = &mut self.comment {
                append_capped(text, "\n");
            }
            return;
        }
        let mut i = 0; // byte offset
        let mut column = 1u32; // its column, in characters
        while i < bytes.len() {
            if let Some((text, _)) = &mut self.comment {
                match memchr::memchr(b'}', &bytes[i..]) {
                    Some(k) => {
                        append_capped(text, &line[i..i + k]);
                        column += char_count(&bytes[i..i + k + 1]);
                        i += k + 1;
                        self.close_comment(true);
                    }
                    None => {
                        append_capped(text, &line[i..]);
                        append_capped(text, "\n");
                        return;
                    }
                }
                continue;
            }
            let at = Span { line: number, column };
            let b = bytes[i];
            if b >= 0x80 {
                let c = line[i..].chars().next().expect("not at the end");
                if c.is_whitespace() {
                    i += c.len_utf8();
                    column += 1;
                    continue;
                }
            }
            match b {
                b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r' => {
                    i += 1;
                    column += 1;
                }
                b'{' => {
                    self.comment = Some((String::new(), at));
                    self.has_moves = true;
                    i += 1;
                    column += 1;
                }
                b';' => {
                    let text = line[i + 1..].to_string();
                    self.add_comment(text);
                    return;
                }
                b'(' => {
                    let cur = self.cursor();
                    match self.game.tree.node(cur).parent {
                        Some(parent) => {
                            self.variations.push(cur);
                            self.cursor = Some(parent);
                        }
                        None => {
                            self.warn(at, "variation before the first move: read as a continuation");
                            self.variations.push(cur);
                        }
                    }
                    i += 1;
                    column += 1;
                }
                b')' => {
                    match self.variations.pop() {
                        Some(cur) => self.cursor = Some(cur),
                        None => self.warn(at, "')' closes no variation"),
                    }
                    i += 1;
                    column += 1;
                }
                b'}' => {
                    self.warn(at, "'}' closes no comment");
                    i += 1;
                    column += 1;
                }
                b'[' => {
                    // A tag inside move text (`[Score "10=0"]`): skip it.
                    let end = memchr::memchr(b']', &bytes[i..]).map_or(line.len(), |k| i + k + 1);
                    column += char_count(&bytes[i..end]);
                    i = end;
                }
                _ => {
                    let (end, chars) = token_end(line, i);
                    let token = &line[i..end];
                    column += chars;
                    i = end;
                    if self.token(token, at) {
                        return; // a result: the rest of the line is not move text
                    }
                }
            }
        }
    }

    /// Handles one token; true when it ends the game's move text.
    fn token(&mut self, token: &str, at: Span) -> bool {
        self.has_moves = true;
        // Results open with 0, 1, * or ½ (0xC2 0xBD).
        if matches!(token.as_bytes()[0], b'0' | b'1' | b'*' | 0xC2)
            && let Some(result) = GameResult::parse(token)
        {
            self.game.result = Some(result);
            self.ended = true;
            return true;
        }
        if let Some(nag) = token.strip_prefix('$') {
            match nag.parse::<u8>() {
                Ok(n) => self.game.tree.node_mut(self.cursor()).notes_mut().nags.push(n),
                Err(_) => self.warn(at, format!("{token:?} is not a NAG")),
            }
            return false;
        }
        let (number_len, rest) = strip_move_number(token);
        let rest = rest.trim_start_matches(['.', '…', '．', '。']);
        if rest.is_empty() || rest == "--" {
            return false;
        }
        let column = at.column + token[..number_len].chars().count() as u32;
        // Remark marks (`!`, `?!`, ...) become NAGs, so they survive rewriting.
        let (text, nag) = split_remark(rest);
        let mv = RecordedMove::text(text, at.line, column);
        let node = self.game.tree.add_child(self.cursor(), mv);
        if let Some(before) = self.pending_before.take() {
            self.game.tree.node_mut(node).notes_mut().comment_before = Some(before);
        }
        if let Some(nag) = nag {
            self.game.tree.node_mut(node).notes_mut().nags.push(nag);
        }
        self.cursor = Some(node);
        false
    }

    /// Ends the open comment, if any, and gives it to its move: `closed`
    /// by its `}`, or not (at the end of the game). That it was not closed,
    /// and that it was cut at [`MAX_COMMENT`], is told whatever the count
    /// of warnings.
    fn close_comment(&mut self, closed: bool) {
        let Some((text, at)) = self.comment.take() else { return };
        let warnings = &mut self.game.warnings;
        if !closed {
            warnings.push(Warning { at, message: "comment not closed with '}'".into() });
        }
        if text.len() >= MAX_COMMENT {
            warnings.push(Warning { at, message: "comment longer than 1 MB: the rest is left out".into() });
        }
        // A comment without end ends where the reader stopped it: the line
        // ends before that are layout.
        let text =
            if closed { text } else { text.trim_end_matches(|c: char| c.is_ascii_whitespace()).to_string() };
        self.add_comment(text);
    }

    fn add_comment(&mut self, text: String) {
        // One ASCII white-space character at each end is the padding of
        // `{ text }`; the rest is the author's (qipu writes a comment that
        // starts or ends with white space padded, so that it reads back the
        // same). An empty comment says nothing.
        let text = unpadded(&text);
        if text.is_empty() {
            return;
        }
        let text = text.to_string();
        let cur = self.cursor();
        // Right after `(`, a comment belongs to the variation's first move.
        let starts_variation =
            self.variations.last().is_some_and(|&v| self.game.tree.node(v).parent == Some(cur));
        if starts_variation && cur != self.game.tree.root() {
            let before = self.pending_before.get_or_insert_with(String::new);
            if !before.is_empty() {
                before.push('\n');
            }
            before.push_str(&text);
            return;
        }
        let notes = self.game.tree.node_mut(cur).notes_mut();
        match &mut notes.comment {
            Some(c) => {
                c.push('\n');
                c.push_str(&text);
            }
            None => notes.comment = Some(text),
        }
    }

    fn end_game(&mut self) {
        self.close_comment(false);
        if let Some((lines, first)) = self.footer.take() {
            let message = format!("{lines} line(s) of text after the result, not moves: not read");
            self.game.warnings.push(Warning { at: Span { line: first, column: 1 }, message });
        }
        // These are told whatever the count.
        if !self.variations.is_empty() {
            let message = format!("{} variation(s) not closed with ')'", self.variations.len());
            self.game.warnings.push(Warning { at: self.game.at, message });
        }
        if self.unlisted_warnings > 0 {
            let message = format!("and {} more warning(s) of this game, not listed", self.unlisted_warnings);
            self.game.warnings.push(Warning { at: self.game.at, message });
            self.unlisted_warnings = 0;
        }
        // The next game is likely about as long as this one: room for its
        // moves is made once rather than grown move by move.
        let room = self.game.tree.len() + 8;
        let game = std::mem::replace(
            &mut self.game,
            Record { tree: crate::record::MoveTree::with_capacity(room), ..Record::default() },
        );
        if !game.tags.is_empty() || !game.tree.is_empty() || game.result.is_some() {
            self.games.push(game);
        }
        self.has_moves = false;
        self.ended = false;
        self.cursor = None;
        self.variations.clear();
        self.tag_names.clear();
        self.pending_before = None;
    }

    fn finish(mut self) -> Vec<Record> {
        self.end_game();
        self.games
    }
}

/// Comments are kept up to this size (a comment without end would
/// otherwise hold the rest of the file).
const MAX_COMMENT: usize = 1 << 20;

/// Appends `piece` to a comment, up to [`MAX_COMMENT`] bytes (cut at a
/// character boundary).
fn append_capped(text: &mut String, piece: &str) {
    let room = MAX_COMMENT.saturating_sub(text.len());
    if piece.len() <= room {
        text.push_str(piece);
    } else {
        let mut end = room;
        while !piece.is_char_boundary(end) {
            end -= 1;
        }
        text.push_str(&piece[..end]);
    }
}

/// Characters in a piece of UTF-8: the bytes that do not continue one.
fn char_count(bytes: &[u8]) -> u32 {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count() as u32
}

/// Where the token starting at byte `start` of `line` ends (at white space,
/// a comment, a variation bracket or a tag), and its length in characters.
fn token_end(line: &str, start: usize) -> (usize, u32) {
    let bytes = line.as_bytes();
    let mut end = start;
    let mut chars = 0;
    while end < bytes.len() {
        let b = bytes[end];
        if b < 0x80 {
            if b.is_ascii_whitespace() || matches!(b, 0x0B | b'{' | b'}' | b'(' | b')' | b';' | b'[') {
                break;
            }
            end += 1;
        } else {
            let c = line[end..].chars().next().expect("not at the end");
            if c.is_whitespace() {
                break;
            }
            end += c.len_utf8();
        }
        chars += 1;
    }
    (end, chars)
}

/// A move and the NAG of the remark marks after it (`C2.5!?` is `C2.5`
/// and 5); marks that are no NAG, or a text of marks only, stay as written.
pub(crate) fn split_remark(text: &str) -> (&str, Option<u8>) {
    let marks = text.len() - text.trim_end_matches(['!', '?', '！', '？']).len();
    match remark_nag(&text[text.len() - marks..]) {
        Some(nag) if marks < text.len() => (&text[..text.len() - marks], Some(nag)),
        _ => (text, None),
    }
}

/// The NAG of a remark mark: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6
/// (full-width marks too).
fn remark_nag(marks: &str) -> Option<u8> {
    let ascii: String = marks
        .chars()
        .map(|c| match c {
            '！' => '!',
            '？' => '?',
            c => c,
        })
        .collect();
    let nag = crate::record::REMARK_MARKS.iter().position(|&m| m == ascii)?;
    (nag > 0).then_some(nag as u8)
}

/// Whether a line opens with move 1: `1.`, `1...` or `1．` (alone or
/// joined to the move), or a bare `1` followed by a move.
fn starts_at_move_one(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else { return false };
    let Some(after) = first.strip_prefix('1') else { return false };
    if after.is_empty() {
        return words.next().is_some_and(crate::notation::is_move_text);
    }
    let rest = after.trim_start_matches(['.', '…', '．', '。']);
    rest.len() < after.len()
        && (rest.is_empty() || crate::notation::is_move_text(rest.trim_end_matches(['!', '?', '！', '？'])))
}

/// Whether a line is moves without numbers (`炮二平五 马８进７ 马二进三 1-0`):
/// two moves or more, and nothing but moves and a result.
fn unnumbered_moves(line: &str) -> bool {
    let mut moves = 0;
    for word in line.split_whitespace() {
        if GameResult::parse(word).is_some() {
            continue;
        }
        if !crate::notation::is_move_text(word.trim_end_matches(['!', '?', '！', '？'])) {
            return false;
        }
        moves += 1;
    }
    moves >= 2
}

/// Splits a move number (`12.`, `12...`, `12．`) off the front of a token;
/// returns its length in bytes and the rest. `33.4` is a WXF move, not a
/// number.
pub(crate) fn strip_move_number(token: &str) -> (usize, &str) {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return (0, token);
    }
    let rest = &token[digits..];
    let b = token.as_bytes();
    if b.len() == 4 && digits == 2 && matches!(b[2], b'.' | b'=' | b'+' | b'-') && b[3].is_ascii_digit() {
        return (0, token);
    }
    let after = rest.trim_start_matches(['.', '…', '．', '。']);
    if after.len() == rest.len() {
        // Digits without dots: a bare move number (`1 炮二平五`), or a
        // token of its own such as WXF `15=6`.
        return if rest.is_empty() { (token.len(), "") } else { (0, token) };
    }
    (token.len() - after.len(), after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_comment_is_kept_up_to_a_megabyte() {
        let line = "中".repeat(100_000); // 300 KB a line
        let text = format!("[Event \"x\"]\n1. h2e2 {{{}}} h9g7 *\n", [line.as_str(); 8].join("\n"));
        let games = read(&text);
        let comment = games[0].tree.node(games[0].tree.main_line().next().unwrap()).comment().unwrap();
        assert!(comment.len() <= 1 << 20 && comment.len() > (1 << 20) - 4, "{}", comment.len());
        assert!(games[0].warnings.iter().any(|w| w.message.contains("comment longer than 1 MB")));
        assert_eq!(games[0].tree.main_line().count(), 2, "the moves after it are read");
        // Without its end, both are told.
        let text = format!("[Event \"x\"]\n1. h2e2 {{{}\n", [line.as_str(); 8].join("\n"));
        let warnings: Vec<String> = read(&text)[0].warnings.iter().map(|w| w.message.clone()).collect();
        assert_eq!(
            warnings,
            ["comment not closed with '}'", "comment longer than 1 MB: the rest is left out"]
        );
    }
    use crate::record::MoveText;

    fn moves(r: &Record) -> Vec<String> {
        r.tree
            .main_line()
            .map(|id| match &r.tree.node(id).mv.as_ref().unwrap().text {
                MoveText::Text(t) => t.to_string(),
                MoveText::Coords(m) => m.to_string(),
            })
            .collect()
    }

    #[test]
    fn empty_lines_inside_a_comment_are_kept() {
        let g = &read("1. h2e2 {first\n\nthird} *")[0];
        let first = g.tree.main_line().next().unwrap();
        assert_eq!(g.tree.node(first).comment(), Some("first\n\nthird"));
    }

    #[test]
    fn tags_and_moves() {
        let text = "[Game \"Chinese Chess\"]\r\n[Red \"许银川\"][Black \"吕钦\"]\r\n[Result \"1-0\"]\r\n\r\n  1. 炮二平五 马８进７\r\n  2. 马二进三\r\n  2.          车９平８\r\n 10. 兵七进一 1-0\r\n";
        let games = read(text);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tag("red"), Some("许银川"));
        assert_eq!(g.tag("BLACK"), Some("吕钦"));
        assert_eq!(moves(g), ["炮二平五", "马８进７", "马二进三", "车９平８", "兵七进一"]);
        assert_eq!(g.result, Some(GameResult::RedWins));
        let first = g.tree.main_line().next().unwrap();
        assert_eq!(g.tree.node(first).mv.as_ref().unwrap().at, Span { line: 5, column: 6 });
    }

    #[test]
    fn several_games_footer_and_separators() {
        let text = "[Event \"a\"]\n1. h2e2 h9g7 1-0\n====\n欢迎访问《象棋百科全书》网站\n[Event \"b\"]\n1. C2.5 H8+7\n=========\n[Event \"c\"]\n1.炮二平五 2.马二进三\n";
        let games = read(text);
        assert_eq!(games.len(), 3);
        assert_eq!(moves(&games[0]), ["h2e2", "h9g7"]);
        assert_eq!(moves(&games[1]), ["C2.5", "H8+7"]);
        assert_eq!(moves(&games[2]), ["炮二平五", "马二进三"]);
        assert_eq!(games[1].result, None);
    }

    #[test]
    fn a_game_without_tags_after_a_result_is_the_next_game() {
        let text =
            "[Event \"a\"]\n1. h2e2 h9g7 *\n\n1. b2e2 b9c7 1-0\n1...h9g7 2. h2e2 0-1\n1 炮二平五 马８进７\n";
        let games = read(text);
        assert_eq!(games.len(), 4);
        assert_eq!(moves(&games[1]), ["b2e2", "b9c7"]);
        assert_eq!(games[1].at.line, 4);
        assert_eq!(games[1].tags.len(), 0);
        assert_eq!(moves(&games[2]), ["h9g7", "h2e2"]);
        assert_eq!(moves(&games[3]), ["炮二平五", "马８进７"]);
        // Footers are not games: neither text nor other move numbers.
        let footer = "[Event \"a\"]\n1. h2e2 1-0\n欢迎访问\n12. h2e2\n1-0\n10.5 points\n";
        assert_eq!(read(footer).len(), 1);
    }

    #[test]
    fn a_comment_without_end_stops_at_tags_after_an_empty_line() {
        let text = "[Event \"a\"]\n1. h2e2 {open\n[not a tag line]\n[Event \"in the comment\"]\n\n[Event \"b\"]\n1. h2e2 *\n";
        let games = read(text);
        assert_eq!(games.len(), 2);
        let first = games[0].tree.main_line().next().unwrap();
        assert_eq!(
            games[0].tree.node(first).comment(),
            Some("open\n[not a tag line]\n[Event \"in the comment\"]")
        );
        assert_eq!(games[0].warnings[0].message, "comment not closed with '}'");
        assert_eq!(games[1].tag("Event"), Some("b"));
    }

    #[test]
    fn warnings_are_listed_up_to_a_count() {
        let text = format!("1. h2e2 {} *", ")".repeat(1000));
        let g = &read(&text)[0];
        assert_eq!(g.warnings.len(), MAX_WARNINGS + 1);
        assert_eq!(g.warnings[0].message, "')' closes no variation");
        assert_eq!(g.warnings[MAX_WARNINGS].message, "and 980 more warning(s) of this game, not listed");
    }

    #[test]
    fn comments_variations_nags() {
        let text = "{start}\n1. h2e2!? {a\nlong comment} h9g7 $1 (1... b9c7 {alt} (1... h7e7)) 2. h0g2 ; rest of line\n(2. b0c2 {x}) *";
        let g = &read(text)[0];
        let t = &g.tree;
        assert_eq!(t.node(t.root()).comment(), Some("start"));
        assert_eq!(moves(g), ["h2e2", "h9g7", "h0g2"]);
        let ids: Vec<_> = t.main_line().collect();
        assert_eq!(t.node(ids[0]).comment(), Some("a\nlong comment"));
        assert_eq!(t.node(ids[0]).nags(), [5]);
        assert_eq!(moves(g)[0], "h2e2");
        assert_eq!(t.node(ids[1]).nags(), [1]);
        assert_eq!(t.node(ids[2]).comment(), Some("rest of line"));
        let alts: Vec<_> = t.children(ids[0]).collect();
        assert_eq!(alts.len(), 3);
        assert_eq!(t.node(alts[1]).comment(), Some("alt"));
        assert_eq!(t.variation_count(), 3);
        assert!(g.warnings.is_empty(), "{:?}", g.warnings);
    }

    #[test]
    fn move_numbers() {
        assert_eq!(strip_move_number("12."), (3, ""));
        assert_eq!(strip_move_number("12..."), (5, ""));
        assert_eq!(strip_move_number("1.炮二平五"), (2, "炮二平五"));
        assert_eq!(strip_move_number("1．炮二平五"), (4, "炮二平五"));
        assert_eq!(strip_move_number("33.4"), (0, "33.4"));
        assert_eq!(strip_move_number("15=6"), (0, "15=6"));
        assert_eq!(strip_move_number("7"), (1, ""));
        assert_eq!(strip_move_number("C2.5"), (0, "C2.5"));
    }

    #[test]
    fn broken_text_is_read_with_warnings() {
        let g = &read("1. h2e2 {open comment\n2. h0g2")[0];
        assert_eq!(moves(g), ["h2e2"]);
        assert_eq!(g.warnings.len(), 1);
        let g = &read("1. h2e2 ) (h9g7")[0];
        assert_eq!(g.warnings.len(), 2);
        let g = &read("1. h2e2 }h9g7")[0];
        assert_eq!(moves(g), ["h2e2", "h9g7"]);
        assert_eq!(g.warnings.len(), 1);
        assert!(read("").is_empty());
        assert!(read("\n\n   \n").is_empty());
    }

    #[test]
    fn a_game_without_moves_ends_at_the_next_games_tags() {
        let games = read("[Event \"a\"]\n[Result \"*\"]\n\n[Event \"b\"]\n1. h2e2 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("a"));
        assert!(games[0].tree.is_empty());
        assert_eq!(games[1].tag("Event"), Some("b"));
    }

    #[test]
    fn tags_inside_move_text_are_skipped() {
        let g = &read("[Title \"x\"]\n[Score \"10=0\"] 1.H2-E2  [Score \"10=0\"] H9-G7\n")[0];
        assert_eq!(moves(g), ["H2-E2", "H9-G7"]);
        assert_eq!(g.tags.len(), 1);
    }
}

/// The tags qipu writes first, in this order (the xqbase order); the
/// others follow in the order they were read.
const TAG_ORDER: [&str; 15] = [
    "Game",
    "Event",
    "Round",
    "Date",
    "Site",
    "RedTeam",
    "Red",
    "BlackTeam",
    "Black",
    "Result",
    "ECCO",
    "Opening",
    "Variation",
    "FEN",
    "Format",
];

/// Writes a record as PGN with moves in `notation`, given what replaying
/// it settled (`resolution`): tags in the
/// xqbase order, the start position as `[FEN]` when it is not the standard
/// one, comments, NAGs and variations kept. Moves that did not replay (at
/// and after an illegal move) are written as they were read.
///
/// ```
/// use qipu::analysis::replay::replay;
/// use qipu::formats::pgn;
/// use qipu::notation::Notation;
/// let record = &pgn::read("[Event \"x\"]\n1. h2e2 {center} h9g7 (1... b9c7) *")[0];
/// let replayed = replay(record);
/// let text = pgn::write(record, &replayed.resolution, Notation::Wxf);
/// assert!(text.contains("1. C2.5 {center} 1... H8+7 (1... H2+3) *"), "{text}");
/// let again = &pgn::read(&text)[0];
/// assert_eq!(again.tree.len(), record.tree.len());
/// ```
pub fn write(
    record: &Record,
    resolution: &crate::record::Resolution,
    notation: crate::notation::Notation,
) -> String {
    let mut out = String::new();
    write_to(record, resolution, notation, &mut out);
    out
}

/// Appends the PGN of a record to `out` (see [`write()`]).
pub fn write_to(
    record: &Record,
    resolution: &crate::record::Resolution,
    notation: crate::notation::Notation,
    out: &mut String,
) {
    use std::fmt::Write;
    let result = record.result().unwrap_or(GameResult::Unknown);
    let standard = resolution.is_standard_start();
    let value = |name: &str| -> Option<String> {
        match name {
            "Game" => Some(record.tag("Game").unwrap_or("Chinese Chess").to_string()),
            "Result" => Some(result.as_str().to_string()),
            // The placement as read, legal or not; a FEN that does not
            // parse is kept as it was written.
            "FEN" => match &resolution.setup {
                Some(setup) => (!standard || record.fen().is_some()).then(|| setup.to_fen()),
                None => record.fen().map(str::to_string),
            },
            "Format" => Some(notation.pgn_format().to_string()),
            _ => record.tag(name).map(str::to_string),
        }
    };
    for name in TAG_ORDER {
        if let Some(v) = value(name) {
            let _ = writeln!(out, "[{name} \"{}\"]", escape(&v));
        }
    }
    for (name, v) in &record.tags {
        if !TAG_ORDER.iter().any(|t| t.eq_ignore_ascii_case(name)) {
            let _ = writeln!(out, "[{name} \"{}\"]", escape(v));
        }
    }
    out.push('\n');
    let mut text = MovetextWriter::default();
    let tree = &record.tree;
    if let Some(c) = tree.node(tree.root()).comment() {
        text.comment(c);
    }
    enum Task {
        Move { id: NodeId, pos: Box<crate::Position>, force_number: bool },
        Raw { id: NodeId },
        Open,
        Close,
    }
    let mut stack = Vec::new();
    if let Some(first) = tree.main_child(tree.root()) {
        stack.push(match &resolution.start {
            Some(start) => Task::Move { id: first, pos: Box::new(start.clone()), force_number: true },
            None => Task::Raw { id: first },
        });
    }
    let mut word = String::new();
    while let Some(task) = stack.pop() {
        match task {
            Task::Open => text.word("("),
            Task::Close => text.word(")"),
            Task::Raw { id } => {
                let node = tree.node(id);
                if let Some(mv) = &node.mv {
                    match &mv.text {
                        crate::record::MoveText::Text(t) => text.word(t),
                        crate::record::MoveText::Coords(m) => text.word(&m.to_string()),
                    }
                }
                text.annotations(node);
                let children: Vec<NodeId> = tree.children(id).collect();
                if let Some((main, alts)) = children.split_first() {
                    stack.push(Task::Raw { id: *main });
                    for &alt in alts.iter().rev() {
                        stack.push(Task::Close);
                        stack.push(Task::Raw { id: alt });
                        stack.push(Task::Open);
                    }
                }
            }
            Task::Move { id, pos, force_number } => {
                let node = tree.node(id);
                let Some(m) = resolution.move_of(id) else {
                    stack.push(Task::Raw { id });
                    continue;
                };
                if let Some(c) = node.comment_before() {
                    text.comment(c);
                }
                // The number and its move stay on one line: one word, built
                // in a buffer kept from move to move.
                word.clear();
                if pos.turn() == crate::Color::Red {
                    let _ = write!(word, "{}. ", pos.fullmoves());
                } else if force_number || node.comment_before().is_some() {
                    let _ = write!(word, "{}... ", pos.fullmoves());
                }
                notation.write_to(&pos, m, &mut word);
                text.word(&word);
                text.annotations(node);
                // Alternatives to this move, when it is its parent's main continuation.
                let parent = node.parent.expect("a move has a parent");
                let alts: Vec<NodeId> = if tree.main_child(parent) == Some(id) {
                    tree.children(parent).skip(1).collect()
                } else {
                    Vec::new()
                };
                // Alternatives are laid out before the main continuation goes on.
                let alt_tasks: Vec<Task> = alts
                    .iter()
                    .rev()
                    .flat_map(|&alt| {
                        [
                            Task::Close,
                            Task::Move { id: alt, pos: pos.clone(), force_number: true },
                            Task::Open,
                        ]
                    })
                    .collect();
                if let Some(next) = tree.main_child(id) {
                    let force = !alts.is_empty() || node.comment().is_some() || !node.nags().is_empty();
                    // The position goes on with the main line: no copy.
                    let mut after = pos;
                    let _ = after.play_unchecked(m);
                    stack.push(Task::Move { id: next, pos: after, force_number: force });
                }
                stack.extend(alt_tasks);
            }
        }
    }
    text.word(result.as_str());
    out.push_str(&text.finish());
    out.push('\n');
}

/// A tag value as written between quotes: one line, `\` and `"` escaped,
/// a literal `&#` kept from reading as a character reference.
fn escape(v: &str) -> String {
    super::encoding::guard_references(&super::clean::one_line(v)).replace('\\', "\\\\").replace('"', "\\\"")
}

/// Lays out move-text words in lines of at most 80 columns.
#[derive(Default)]
struct MovetextWriter {
    out: String,
    line: usize,
    open_paren: bool,
}

impl MovetextWriter {
    fn word(&mut self, w: &str) {
        let width = w.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum::<usize>();
        let glue = self.open_paren || w == ")";
        if self.line > 0 && !glue {
            if self.line + 1 + width > 80 {
                self.out.push('\n');
                self.line = 0;
            } else {
                self.out.push(' ');
                self.line += 1;
            }
        }
        self.open_paren = w == "(";
        self.out.push_str(w);
        self.line += width;
    }

    fn comment(&mut self, c: &str) {
        self.word(&braced(c));
        if c.contains('\n') {
            self.line = 80; // continue on a new line
        }
    }

    fn annotations(&mut self, node: &crate::record::Node) {
        for nag in node.nags() {
            self.word(&format!("${nag}"));
        }
        if let Some(c) = node.comment() {
            self.comment(c);
        }
    }

    fn finish(self) -> String {
        self.out
    }
}

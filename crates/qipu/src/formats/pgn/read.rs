//! Reading PGN text into a visitor's games.

use std::borrow::Cow;
use std::ops::ControlFlow;

use crate::record::{GameResult, MAX_MOVES, Record, RecordBuilder, Span, Visitor, Warning, too_many_moves};

/// Reads every game of a PGN text into records.
pub fn read(text: &str) -> Vec<Record> {
    read_with(text, &mut RecordBuilder::default())
}

/// Reads every game of a PGN text with `visitor`: what it makes of each
/// game, in order.
pub fn read_with<V: Visitor>(text: &str, visitor: &mut V) -> Vec<V::Output> {
    let mut reader = LineReader::with(visitor);
    for line in text.lines() {
        reader.push_line(line);
    }
    reader.finish()
}

/// A PGN reader fed text a line at a time, for texts too large to hold at
/// once; it hands each game to its visitor (a [`RecordBuilder`] unless told
/// otherwise) as it is read.
#[derive(Debug)]
pub(crate) struct LineReader<V: Visitor = RecordBuilder> {
    visitor: V,
    state: State,
    games: Vec<V::Output>,
    lines: u32,
    /// Common tokens are read by their shortcut (always, but in a test of
    /// the shortcut).
    shortcuts: bool,
}

impl Default for LineReader<RecordBuilder> {
    fn default() -> LineReader<RecordBuilder> {
        LineReader::with(RecordBuilder::default())
    }
}

impl<V: Visitor> LineReader<V> {
    /// A reader that gives its games to `visitor`.
    pub fn with(visitor: V) -> LineReader<V> {
        LineReader { visitor, state: State::default(), games: Vec::new(), lines: 0, shortcuts: true }
    }

    /// A reader whose first line is line `line` of its source (1-based):
    /// for move text cut out of a larger text.
    pub(crate) fn starting_at_line(mut self, line: u32) -> LineReader<V> {
        self.lines = line.saturating_sub(1);
        self
    }

    /// The reader without the shortcuts for common tokens: what they must
    /// agree with.
    #[cfg(test)]
    pub(super) fn without_shortcuts(mut self) -> LineReader<V> {
        self.shortcuts = false;
        self
    }

    /// Reads the lines of `text`.
    #[cfg(test)]
    pub(crate) fn push(&mut self, text: &str) {
        for line in text.lines() {
            self.push_line(line);
        }
    }

    /// Reads one line (without its line end; a final `\r` is dropped).
    pub(crate) fn push_line(&mut self, line: &str) {
        self.lines = self.lines.saturating_add(1);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut reader = Reader {
            visitor: &mut self.visitor,
            state: &mut self.state,
            games: &mut self.games,
            shortcuts: self.shortcuts,
        };
        reader.line(self.lines, line);
    }

    /// The visitor, to change what it will do with the games to come.
    pub(crate) fn visitor_mut(&mut self) -> &mut V {
        &mut self.visitor
    }

    /// The games completed so far.
    pub(crate) fn take_games(&mut self) -> Vec<V::Output> {
        std::mem::take(&mut self.games)
    }

    /// Ends the text: the games still open.
    pub fn finish(mut self) -> Vec<V::Output> {
        let mut reader = Reader {
            visitor: &mut self.visitor,
            state: &mut self.state,
            games: &mut self.games,
            shortcuts: self.shortcuts,
        };
        reader.end_game();
        self.games
    }

    /// Skips a line too long to read (see [`crate::formats::stream`]): the
    /// game it falls in is unreadable, with the line's number.
    pub(crate) fn skip_overlong_line(&mut self, limit: usize) {
        self.lines = self.lines.saturating_add(1);
        let at = Span { line: self.lines, column: 1 };
        let message = format!("line longer than {} MB: not read", limit >> 20);
        let mut reader = Reader {
            visitor: &mut self.visitor,
            state: &mut self.state,
            games: &mut self.games,
            shortcuts: self.shortcuts,
        };
        reader.unreadable(Warning { at, message });
        reader.state.has_moves = true;
    }
}

/// Whether the text has a line of PGN tags.
pub(crate) fn has_tags(text: &str) -> bool {
    text.lines().any(is_tag_line)
}

/// One tag of a line of tags: its name and its value, unescaped (borrowed
/// from the line when it holds no escape).
pub(crate) type TagRef<'a> = (&'a str, Cow<'a, str>);

/// Reads a line made of tags only (`[Event "x"] [Date "2020"]`) onto `out`
/// (emptied first); false when the line is not one. A tag is `[`, a name of
/// letters, digits, `_` and `-`, spaces or tabs, a value in double quotes
/// where `\\` and `\"` stand for `\` and `"`, spaces or tabs, `]`;
/// spaces and tabs may stand before each tag, and white space after the
/// last.
pub(crate) fn scan_tags<'a>(line: &'a str, out: &mut Vec<TagRef<'a>>) -> bool {
    out.clear();
    let b = line.as_bytes();
    let spaces = |mut i: usize| {
        while i < b.len() && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        i
    };
    let mut i = 0;
    while !is_blank(&line[i..]) {
        i = spaces(i);
        if b.get(i) != Some(&b'[') {
            return false;
        }
        i += 1;
        let name_at = i;
        while i < b.len() {
            if b[i] < 0x80 {
                if !(b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
                    break;
                }
                i += 1;
            } else {
                match line[i..].chars().next() {
                    Some(c) if c.is_alphanumeric() => i += c.len_utf8(),
                    _ => break,
                }
            }
        }
        if i == name_at {
            return false;
        }
        let name = &line[name_at..i];
        i = spaces(i);
        if b.get(i) != Some(&b'"') {
            return false;
        }
        i += 1;
        // The value, up to the closing quote; escapes copy it.
        let mut owned: Option<String> = None;
        let mut piece = i;
        let end = loop {
            let Some(k) = memchr::memchr2(b'"', b'\\', &b[i..]).map(|k| i + k) else { return false };
            if b[k] == b'"' {
                break k;
            }
            let escaped = match b.get(k + 1) {
                Some(&c @ (b'\\' | b'"')) => c as char,
                _ => return false,
            };
            let text = owned.get_or_insert_with(String::new);
            text.push_str(&line[piece..k]);
            text.push(escaped);
            i = k + 2;
            piece = i;
        };
        let value = match owned {
            None => Cow::Borrowed(&line[piece..end]),
            Some(mut text) => {
                text.push_str(&line[piece..end]);
                Cow::Owned(text)
            }
        };
        i = spaces(end + 1);
        if b.get(i) != Some(&b']') {
            return false;
        }
        i += 1;
        out.push((name, value));
    }
    !out.is_empty()
}

/// Whether a line is made of PGN tags only (`[Event "x"] [Date "2020"]`).
pub(crate) fn is_tag_line(line: &str) -> bool {
    line.trim_start().starts_with('[') && scan_tags(line, &mut Vec::new())
}

/// The tags of a line made of tags only, if it is one (owned: for the
/// tests that hold the reader to its grammar).
#[cfg(test)]
pub(crate) fn tag_line(line: &str) -> Option<Vec<(String, String)>> {
    let mut tags = Vec::new();
    scan_tags(line, &mut tags)
        .then(|| tags.into_iter().map(|(name, value)| (name.to_string(), value.into_owned())).collect())
}

/// Whether a text is white space only (what `trim` removes), looked at
/// only up to its first other character: an empty line to the reader.
pub(super) fn is_blank(text: &str) -> bool {
    text.chars().all(char::is_whitespace)
}

/// Whether a line is a separator of games: three `=` or more, with white
/// space around.
fn is_separator(line: &str) -> bool {
    let text = line.trim_start();
    text.starts_with('=') && {
        let text = text.trim_end();
        text.len() >= 3 && text.bytes().all(|b| b == b'=')
    }
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

/// What the reader knows of the game being read, beyond what it has told
/// the visitor.
#[derive(Debug, Default)]
struct State {
    /// `begin_game` was called for the game.
    began: bool,
    /// Where the game starts (its first tag line, or the line where move
    /// text starts again at move 1).
    game_at: Span,
    /// Events met before `begin_game`, given right after it.
    early: Vec<Early>,
    /// The game has a tag, a move or a result: it is a game.
    content: bool,
    /// The game has move text (or a result): the next tag line starts a new game.
    has_moves: bool,
    /// After a result or a separator: skip lines up to the next tags.
    ended: bool,
    /// Moves from the start to where the next move is played.
    depth: usize,
    /// Moves met in the game, variations' too: past [`MAX_MOVES`] the
    /// game is not read.
    moves: usize,
    /// The open variations: the depth to go back to, or `None` for one
    /// opened before any move (read as a continuation).
    variations: Vec<Option<usize>>,
    /// The variations from this one on are skipped by the visitor.
    skip_from: Option<usize>,
    /// The visitor stopped the game's moves.
    stopped: bool,
    /// An open `{` comment: its text so far and where it started.
    comment: Option<(String, Span)>,
    /// The line before was empty.
    after_blank: bool,
    /// Lines of text after the game's result that are not read (a footer):
    /// how many, and the first one's number.
    footer: Option<(u32, u32)>,
    /// The names of the game's tags while they are few.
    tags: Names,
    /// The hashes of the names of the game's tags (in lower case), once
    /// it has more than [`FEW_TAGS`]: a game of many tags is read in linear
    /// time and little memory.
    tag_names: std::collections::HashSet<u64>,
    /// The hasher of `tag_names` (random keys: no text can make names
    /// collide on purpose).
    tag_hasher: std::hash::RandomState,
    /// Warnings told of this game.
    warnings: usize,
    /// Warnings of this game past [`MAX_WARNINGS`].
    unlisted_warnings: usize,
}

/// A few names kept in one buffer, so that a game's tags cost no
/// allocation each.
#[derive(Debug, Default)]
struct Names {
    text: String,
    ends: Vec<usize>,
}

impl Names {
    fn push(&mut self, name: &str) {
        self.text.push_str(name);
        self.ends.push(self.text.len());
    }

    fn iter(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(self.ends.iter()).map(|(start, &end)| &self.text[start..end])
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }
}

/// An event met before the game began (a comment or a problem before its
/// first tag or move).
#[derive(Debug)]
enum Early {
    Comment(String),
    Warning(Warning),
    Unreadable(Warning),
}

/// Up to this many tags, a game's tags are looked through one by one.
const FEW_TAGS: usize = 32;

/// A game lists at most this many warnings; the rest are counted.
const MAX_WARNINGS: usize = 20;

/// The reader at work on a line: its state, its visitor and the games done.
struct Reader<'a, V: Visitor> {
    visitor: &'a mut V,
    state: &'a mut State,
    games: &'a mut Vec<V::Output>,
    shortcuts: bool,
}

impl<V: Visitor> Reader<'_, V> {
    fn line(&mut self, number: u32, line: &str) {
        // `&#39532;` for 马: what tools write for a character their encoding lacks.
        let line = &*crate::formats::encoding::unescape_references(line);
        let after_blank = std::mem::replace(&mut self.state.after_blank, is_blank(line));
        // A comment without end would take every later game: a line of tags
        // after an empty line ends it (end_game warns of it).
        let mut tags = Vec::new();
        if (self.state.comment.is_none() || after_blank) && scan_tags(line, &mut tags) {
            // A tag the game already has starts the next game too: a game
            // without moves is followed directly by the next one's tags.
            let repeated = tags.iter().any(|(name, _)| self.has_tag(name));
            if self.state.has_moves || self.state.ended || repeated {
                self.end_game();
            }
            if !self.state.began && self.state.tags.is_empty() && self.state.tag_names.is_empty() {
                self.state.game_at = Span { line: number, column: 1 };
            }
            self.begin();
            self.state.content = true;
            for (name, value) in &tags {
                let column = if name.eq_ignore_ascii_case("FEN") { fen_tag_column(line) } else { 1 };
                // Not when the line itself holds the `Red…` tag.
                let red =
                    self.red_name(name).filter(|red| !tags.iter().any(|(n, _)| n.eq_ignore_ascii_case(red)));
                self.visitor.tag(red.as_deref().unwrap_or(name), value, Span { line: number, column });
            }
            for (name, _) in &tags {
                self.add_tag(name);
            }
            return;
        }
        if self.state.ended {
            // Move text that starts again at move 1, or moves without
            // numbers, after a result are the next game, written without
            // tags; anything else up to the next tags is a footer, told in a
            // warning with its size and place.
            if self.state.comment.is_none() && (starts_at_move_one(line) || unnumbered_moves(line)) {
                self.end_game();
                self.state.game_at = Span { line: number, column: 1 };
                self.movetext(number, line);
            } else if !is_blank(line) {
                let (lines, _) = self.state.footer.get_or_insert((0, number));
                *lines = lines.saturating_add(1);
            }
            return;
        }
        if self.state.comment.is_none() && is_separator(line) {
            self.state.ended = true;
            return;
        }
        self.movetext(number, line);
    }

    /// Begins the game, if it has not begun: `begin_game`, then what was
    /// met before it.
    #[inline]
    fn begin(&mut self) {
        if !self.state.began {
            self.begin_now();
        }
    }

    #[cold]
    fn begin_now(&mut self) {
        self.state.began = true;
        self.visitor.begin_game(self.state.game_at);
        for early in std::mem::take(&mut self.state.early) {
            match early {
                Early::Comment(c) => self.visitor.comment(&c),
                Early::Warning(w) => self.visitor.warning(w),
                Early::Unreadable(w) => self.visitor.unreadable(w),
            }
        }
    }

    /// The name a `White…` tag is read under: `Red…` (`White` is `Red`,
    /// `WhiteElo` is `RedElo`), the first player of a Xiangqi game, as the
    /// PGN of chess programs (pychess, WinBoard) names Red; `None` for other
    /// tags, and when the game already has the `Red…` tag.
    fn red_name(&self, name: &str) -> Option<String> {
        let rest = name.get(..5).filter(|w| w.eq_ignore_ascii_case("White")).map(|_| &name[5..])?;
        let red = format!("Red{rest}");
        (!self.has_tag(&red)).then_some(red)
    }

    /// Whether the game has a tag called `name` (in any case).
    fn has_tag(&self, name: &str) -> bool {
        if self.state.tag_names.is_empty() {
            self.state.tags.iter().any(|n| n.eq_ignore_ascii_case(name))
        } else {
            self.state.tag_names.contains(&self.name_hash(name))
        }
    }

    /// The hash of a tag name, in any case.
    fn name_hash(&self, name: &str) -> u64 {
        use std::hash::{BuildHasher, Hasher};
        let mut h = self.state.tag_hasher.build_hasher();
        for b in name.bytes() {
            h.write_u8(b.to_ascii_lowercase());
        }
        h.finish()
    }

    fn add_tag(&mut self, name: &str) {
        if self.state.tag_names.is_empty() && self.state.tags.len() < FEW_TAGS {
            self.state.tags.push(name);
            return;
        }
        if self.state.tag_names.is_empty() {
            let names: Vec<u64> = self.state.tags.iter().map(|n| self.name_hash(n)).collect();
            self.state.tag_names.extend(names);
            self.state.tags.clear();
        }
        let hash = self.name_hash(name);
        self.state.tag_names.insert(hash);
    }

    /// Whether the visitor is told of moves, comments and variations here.
    fn telling(&self) -> bool {
        !self.state.stopped && self.state.skip_from.is_none()
    }

    /// Tells a problem worked around; past [`MAX_WARNINGS`] a game's
    /// problems are only counted.
    fn warn(&mut self, at: Span, message: impl Into<String>) {
        if self.state.warnings < MAX_WARNINGS {
            self.tell_warning(Warning { at, message: message.into() });
        } else {
            self.state.unlisted_warnings += 1;
        }
    }

    /// Tells a warning, whatever the count.
    fn tell_warning(&mut self, warning: Warning) {
        self.state.warnings += 1;
        if self.state.began {
            self.visitor.warning(warning);
        } else {
            self.state.early.push(Early::Warning(warning));
        }
    }

    /// Tells that the game cannot be read.
    fn unreadable(&mut self, why: Warning) {
        if self.state.began {
            self.visitor.unreadable(why);
        } else {
            self.state.early.push(Early::Unreadable(why));
        }
    }

    fn movetext(&mut self, number: u32, line: &str) {
        let bytes = line.as_bytes();
        if bytes.is_empty() {
            // An empty line inside a comment is part of it.
            if let Some((text, _)) = &mut self.state.comment {
                append_capped(text, "\n");
            }
            return;
        }
        let mut i = 0; // byte offset
        let mut column = 1u32; // its column, in characters
        while i < bytes.len() {
            if let Some((text, _)) = &mut self.state.comment {
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
                let n = wide_space_len(bytes, i);
                if n > 0 {
                    i += n;
                    column += 1;
                    continue;
                }
            }
            match b {
                b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r' => {
                    i += 1;
                    column += 1;
                    while i < bytes.len() && bytes[i] == b' ' {
                        i += 1;
                        column += 1;
                    }
                }
                b'{' => {
                    self.state.comment = Some((String::new(), at));
                    self.state.has_moves = true;
                    i += 1;
                    column += 1;
                }
                b';' => {
                    let text = line[i + 1..].to_string();
                    self.add_comment(text);
                    return;
                }
                b'(' => {
                    self.open_variation(at);
                    i += 1;
                    column += 1;
                }
                b')' => {
                    self.close_variation(at);
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
                    // The common tokens, read without the general steps
                    // (each gives what `token` would): a move number
                    // (`12.`, `12...`), and a word of ASCII letters and
                    // signs that opens with a letter and ends with no
                    // remark mark (`h2e2`, `H2-E2`, `C2.5`): a move.
                    if self.shortcuts
                        && let Some((end, is_move)) = ascii_token(bytes, i)
                    {
                        self.state.has_moves = true;
                        column += (end - i) as u32;
                        if is_move {
                            self.move_token(&line[i..end], at, None);
                        }
                        i = end;
                        continue;
                    }
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

    /// `(`: an alternative to the move just read; before any move of the
    /// line, it is read as a continuation.
    fn open_variation(&mut self, at: Span) {
        if self.state.depth == 0 {
            self.warn(at, "variation before the first move: read as a continuation");
            self.state.variations.push(None);
            return;
        }
        let depth = self.state.depth;
        self.state.variations.push(Some(depth));
        self.state.depth -= 1;
        if self.telling() {
            self.begin();
            if self.visitor.begin_variation().0 {
                self.state.skip_from = Some(self.state.variations.len());
            }
        }
    }

    /// `)`: the variation ends, and the line it left goes on.
    fn close_variation(&mut self, at: Span) {
        let open = self.state.variations.len();
        match self.state.variations.pop() {
            None => self.warn(at, "')' closes no variation"),
            Some(None) => {}
            Some(Some(depth)) => {
                self.state.depth = depth;
                match self.state.skip_from {
                    Some(from) if from == open => self.state.skip_from = None,
                    Some(_) => {}
                    None if !self.state.stopped => self.visitor.end_variation(),
                    None => {}
                }
            }
        }
    }

    /// Handles one token; true when it ends the game's move text.
    fn token(&mut self, token: &str, at: Span) -> bool {
        self.state.has_moves = true;
        // Results open with 0, 1, * or ½ (0xC2 0xBD).
        if matches!(token.as_bytes()[0], b'0' | b'1' | b'*' | 0xC2)
            && let Some(result) = GameResult::parse(token)
        {
            self.begin();
            self.state.content = true;
            self.visitor.result(result);
            self.state.ended = true;
            return true;
        }
        if let Some(nag) = token.strip_prefix('$') {
            match nag.parse::<u8>() {
                Ok(n) => {
                    if self.telling() {
                        self.begin();
                        self.visitor.nag(n);
                    }
                }
                Err(_) => self.warn(at, format!("{token:?} is not a NAG")),
            }
            return false;
        }
        let (number_len, rest) = strip_move_number(token);
        // Dots after a number (`1...`, `1．`): `.`, or `…`, `．`, `。`, which
        // open with 0xE2, 0xEF and 0xE3.
        let rest = match rest.as_bytes().first() {
            Some(b'.' | 0xE2 | 0xEF | 0xE3) => rest.trim_start_matches(['.', '…', '．', '。']),
            _ => rest,
        };
        if rest.is_empty() || rest == "--" {
            return false;
        }
        let column = at.column + token[..number_len].chars().count() as u32;
        // Remark marks (`!`, `?!`, ...) become NAGs, so they survive rewriting.
        let (text, nag) = split_remark(rest);
        self.move_token(text, Span { line: at.line, column }, nag);
        false
    }

    /// Tells the move `text` written at `at`, and the NAG of its remark.
    fn move_token(&mut self, text: &str, at: Span, nag: Option<u8>) {
        self.begin();
        self.state.content = true;
        self.state.depth += 1;
        self.state.moves += 1;
        if self.state.moves > MAX_MOVES {
            if !self.state.stopped {
                self.state.stopped = true;
                self.visitor.unreadable(Warning { at: self.state.game_at, message: too_many_moves() });
            }
            return;
        }
        if self.telling() {
            if let ControlFlow::Break(()) = self.visitor.move_text(text, at) {
                self.state.stopped = true;
            }
            if let Some(nag) = nag {
                self.visitor.nag(nag);
            }
        }
    }

    /// Ends the open comment, if any, and tells it: `closed` by its `}`,
    /// or not (at the end of the game). That it was not closed, and that
    /// it was cut at [`MAX_COMMENT`], is told whatever the count of
    /// warnings.
    fn close_comment(&mut self, closed: bool) {
        let Some((text, at)) = self.state.comment.take() else { return };
        if !closed {
            self.tell_warning(Warning { at, message: "comment not closed with '}'".into() });
        }
        if text.len() >= MAX_COMMENT {
            self.tell_warning(Warning {
                at,
                message: "comment longer than 1 MB: the rest is left out".into(),
            });
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
        if text.is_empty() || !self.telling() {
            return;
        }
        if self.state.began {
            self.visitor.comment(text);
        } else {
            self.state.early.push(Early::Comment(text.to_string()));
        }
    }

    fn end_game(&mut self) {
        self.close_comment(false);
        if let Some((lines, first)) = self.state.footer.take() {
            let message = format!("{lines} line(s) of text after the result, not moves: not read");
            self.tell_warning(Warning { at: Span { line: first, column: 1 }, message });
        }
        // These are told whatever the count.
        let game_at = self.state.game_at;
        if !self.state.variations.is_empty() {
            let message = format!("{} variation(s) not closed with ')'", self.state.variations.len());
            self.tell_warning(Warning { at: game_at, message });
        }
        if self.state.unlisted_warnings > 0 {
            let message =
                format!("and {} more warning(s) of this game, not listed", self.state.unlisted_warnings);
            self.tell_warning(Warning { at: game_at, message });
        }
        if self.state.began {
            // Variations left open are closed for the visitor.
            let open = match self.state.skip_from {
                Some(from) => from - 1,
                None => self.state.variations.len(),
            };
            if !self.state.stopped {
                for variation in self.state.variations.iter().take(open) {
                    if variation.is_some() {
                        self.visitor.end_variation();
                    }
                }
            }
            let game = self.visitor.end_game();
            if self.state.content {
                self.games.push(game);
            }
        }
        let state = std::mem::take(self.state);
        // The hasher and the room made for names are kept.
        self.state.tag_hasher = state.tag_hasher;
        self.state.tags = state.tags;
        self.state.tags.clear();
        self.state.tag_names = state.tag_names;
        self.state.tag_names.clear();
        self.state.after_blank = state.after_blank;
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

/// A token of ASCII only at byte `start` of `line` that reads the same
/// without the general steps of [`Reader::token`]: where it ends, and
/// whether it is a move (else a move number: digits and dots). `None` for
/// any other token.
#[inline]
fn ascii_token(bytes: &[u8], start: usize) -> Option<(usize, bool)> {
    let ends = |k: usize| match bytes.get(k) {
        None => Some(true),
        Some(&b) if b < 0x80 => Some(ENDS_TOKEN[b as usize]),
        Some(_) => None, // a wide space, or a character of the token
    };
    let first = bytes[start];
    if first.is_ascii_digit() {
        let mut k = start + 1;
        while k < bytes.len() && bytes[k].is_ascii_digit() {
            k += 1;
        }
        if bytes.get(k) != Some(&b'.') {
            return None;
        }
        while k < bytes.len() && bytes[k] == b'.' {
            k += 1;
        }
        return ends(k)?.then_some((k, false));
    }
    if !first.is_ascii_alphabetic() {
        return None;
    }
    let mut k = start + 1;
    while k < bytes.len() && GOES_ON_ASCII[bytes[k] as usize] {
        k += 1;
    }
    // A character other than ASCII goes on the token (or is a wide space):
    // the general steps read it.
    if k < bytes.len() && bytes[k] >= 0x80 {
        return None;
    }
    (!matches!(bytes[k - 1], b'!' | b'?')).then_some((k, true))
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
            if ENDS_TOKEN[b as usize] {
                break;
            }
            end += 1;
        } else {
            if wide_space_len(bytes, end) > 0 {
                break;
            }
            end += utf8_len(b);
        }
        chars += 1;
    }
    (end.min(bytes.len()), chars)
}

/// The ASCII bytes that end a token: white space (vertical tab and form
/// feed too), comment and variation brackets, `;` and `[`.
static ENDS_TOKEN: [bool; 128] = {
    let mut table = [false; 128];
    let ends = b" \t\n\r\x0B\x0C{}();[";
    let mut i = 0;
    while i < ends.len() {
        table[ends[i] as usize] = true;
        i += 1;
    }
    table
};

/// The ASCII bytes that go on a token (all but those of [`ENDS_TOKEN`]).
static GOES_ON_ASCII: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 128 {
        table[i] = !ENDS_TOKEN[i];
        i += 1;
    }
    table
};

/// The length of the UTF-8 character whose first byte is `lead` (1 for a
/// byte that continues one, so that a scan always moves on).
#[inline]
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

/// The length in bytes of the white-space character at byte `i` of a
/// UTF-8 text, at or above U+0080, or 0 when it is not white space.
/// Such characters open with 0xC2 (U+0085, U+00A0), 0xE1 (U+1680), 0xE2
/// (U+2000-U+205F) or 0xE3 (U+3000): most characters, and all CJK ones,
/// are told apart by their first byte alone.
#[inline]
fn wide_space_len(bytes: &[u8], i: usize) -> usize {
    if !matches!(bytes[i], 0xC2 | 0xE1 | 0xE2 | 0xE3) {
        return 0;
    }
    let n = utf8_len(bytes[i]);
    match std::str::from_utf8(&bytes[i..(i + n).min(bytes.len())]) {
        Ok(s) if s.chars().next().is_some_and(char::is_whitespace) => n,
        _ => 0,
    }
}

/// A move and the NAG of the remark marks after it (`C2.5!?` is `C2.5`
/// and 5); marks that are no NAG, or a text of marks only, stay as written.
pub(crate) fn split_remark(text: &str) -> (&str, Option<u8>) {
    // Marks end with `!`, `?` or the last byte of `！` (EF BC 81) or `？`
    // (EF BC 9F): most moves have none.
    if !matches!(text.as_bytes().last(), Some(b'!' | b'?' | 0x81 | 0x9F)) {
        return (text, None);
    }
    let marks = text.len() - text.trim_end_matches(['!', '?', '！', '？']).len();
    match remark_nag(&text[text.len() - marks..]) {
        Some(nag) if marks < text.len() => (&text[..text.len() - marks], Some(nag)),
        _ => (text, None),
    }
}

/// The NAG of a remark mark: `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6
/// (full-width marks too).
pub(crate) fn remark_nag(marks: &str) -> Option<u8> {
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

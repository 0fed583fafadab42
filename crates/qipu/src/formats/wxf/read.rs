//! Reading WXF game files: each game read into a [`Game`] and told to a
//! visitor.

use std::collections::HashSet;

use crate::formats::pgn;
use crate::formats::tree::Game;
use crate::record::{GameResult, Record, RecordBuilder, RecordedMove, Span, Visitor, Warning};

use super::{block_opening, header_line, is_known, setup_opening};

/// Reads every game of a WXF file into a record, in order.
pub fn read(text: &str) -> Vec<Record> {
    read_from(text, 1)
}

/// [`read`] for a text whose first line is line `first_line` of its input
/// (a piece of a larger text, cut where `GameStarts` says a game
/// starts).
pub(crate) fn read_from(text: &str, first_line: u32) -> Vec<Record> {
    let mut builder = RecordBuilder::default();
    let mut games = Vec::new();
    read_each(text, first_line, |game| games.push(game.tell(&mut builder)));
    games
}

/// Reads every game of a WXF file with `visitor`, as [`read`] reads them:
/// what the visitor makes of each game's events, in order. No [`Record`]
/// is built (unless the visitor builds them).
pub fn read_with<V: Visitor>(text: &str, visitor: &mut V) -> Vec<V::Output> {
    let mut games = Vec::new();
    read_each(text, 1, |game| games.push(game.tell(visitor)));
    games
}

/// Reads every game of a WXF text whose first line is line `first_line`
/// of its input, handing each to `each` as it is read.
pub(crate) fn read_each(text: &str, first_line: u32, each: impl FnMut(Game)) {
    let mut reader = Reader::new(each);
    for (n, line) in text.lines().enumerate() {
        let number = u32::try_from(n).unwrap_or(u32::MAX).saturating_add(first_line.max(1));
        reader.line(number, line.trim_start_matches('\u{feff}'));
    }
    reader.finish();
}

/// The tag name of a header key: `RED` is `Red`, `RED_TEAM` is `RedTeam`,
/// `FEN` stays `FEN`.
fn tag_name(key: &str) -> String {
    if key.eq_ignore_ascii_case("FEN") {
        return "FEN".into();
    }
    let mut name = String::with_capacity(key.len());
    for part in key.split('_') {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            name.push(first.to_ascii_uppercase());
            name.extend(chars.map(|c| c.to_ascii_lowercase()));
        }
    }
    name
}

/// The words of `text` split at white space: each with its byte offset in
/// `text` and its column, counting `column` for the first character.
fn words(text: &str, column: u32) -> impl Iterator<Item = (usize, u32, &str)> {
    let mut at = 0;
    let mut col = column;
    std::iter::from_fn(move || {
        let rest = &text[at..];
        let skip = rest.find(|c: char| !c.is_whitespace())?;
        col += rest[..skip].chars().count() as u32;
        let word_start = at + skip;
        let rest = &text[word_start..];
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..len];
        let found = (word_start, col, word);
        col += word.chars().count() as u32;
        at = word_start + len;
        Some(found)
    })
}

/// The parts of a word of the block, in order, each with whether it is a
/// run of glyphs (`!`, `?`, also full-width): `h8+7!!12.` is `h8+7`, `!!`
/// and `12.`.
fn glyph_runs(word: &str) -> impl Iterator<Item = (&str, bool)> {
    let is_glyph = |c: char| matches!(c, '!' | '?' | '！' | '？');
    let mut rest = word;
    std::iter::from_fn(move || {
        let first = rest.chars().next()?;
        let glyphs = is_glyph(first);
        let len = rest.find(|c: char| is_glyph(c) != glyphs).unwrap_or(rest.len());
        let (part, after) = rest.split_at(len);
        rest = after;
        Some((part, glyphs))
    })
}

/// Where the reader is in a game.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// Header lines, before the block.
    #[default]
    Header,
    /// Inside `START{`, opened at that place.
    Moves(Span),
    /// Inside a `SETUP{` block, up to its `}`.
    Setup,
    /// After `}END`.
    After,
}

/// Reader state across lines.
#[derive(Debug)]
struct Reader<F> {
    /// Takes each game as it ends.
    each: F,
    game: Game,
    part: Part,
    /// The last move read, the next one's parent (the root before the
    /// first).
    cursor: u32,
    /// The game has a header line or a block: a `FORMAT` line ends it.
    started: bool,
    /// A result written in the block, and where.
    block_result: Option<(GameResult, Span)>,
    /// Header lines that are not `KEY value`: the comment before the moves.
    notes: Vec<String>,
    /// Text after `}END` was told of (once a game).
    told_trailing: bool,
    /// The header keys of the game, upper case: one seen again starts the
    /// next game.
    keys: HashSet<String>,
}

impl<F: FnMut(Game)> Reader<F> {
    /// A reader handing its games to `each`.
    fn new(each: F) -> Reader<F> {
        Reader {
            each,
            game: Game::default(),
            part: Part::default(),
            cursor: 0,
            started: false,
            block_result: None,
            notes: Vec::new(),
            told_trailing: false,
            keys: HashSet::new(),
        }
    }

    /// Reads line `number` of the text.
    fn line(&mut self, number: u32, line: &str) {
        match self.part {
            Part::Moves(open) => {
                if header_line(line).is_some_and(|(key, _)| key.eq_ignore_ascii_case("FORMAT")) {
                    self.warn(
                        open,
                        "START{ is not closed with }END: the moves up to the next FORMAT line are read",
                    );
                    self.part = Part::Header;
                    self.end_game();
                    self.outside_block(number, line);
                } else {
                    self.move_text(number, line, 0);
                }
            }
            Part::Setup => {
                if line.contains('}') {
                    self.part = Part::Header;
                }
            }
            Part::Header | Part::After => self.outside_block(number, line),
        }
    }

    /// A line of the header, or after `}END`.
    fn outside_block(&mut self, number: u32, line: &str) {
        if line.trim().is_empty() {
            return;
        }
        let at = Span { line: number, column: 1 };
        if let Some(from) = block_opening(line) {
            if self.part == Part::After {
                self.end_game(); // a second block: the next game, without header
            }
            self.begin(at);
            self.part = Part::Moves(at);
            self.move_text(number, line, from);
        } else if let Some(from) = setup_opening(line) {
            self.begin(at);
            let message = "a SETUP{ } position: not read (qipu reads the position from a FEN line)";
            if self.game.unreadable.is_none() {
                self.game.unreadable = Some(Warning { at, message: message.into() });
            }
            self.part = if line[from..].contains('}') { Part::Header } else { Part::Setup };
        } else if let Some((key, value)) =
            header_line(line).filter(|(key, _)| self.part == Part::Header || is_known(key))
        {
            self.key_line(key, value, at);
        } else if self.part == Part::After {
            if !std::mem::replace(&mut self.told_trailing, true) {
                self.warn(at, "text after }END: not read");
            }
        } else {
            self.begin(at);
            self.notes.push(line.trim().to_string());
        }
    }

    /// A `KEY value` line at `at`: the next game's first line after `}END`,
    /// or at a `FORMAT` line or a key this game already has; else one more
    /// line of this game's header.
    fn key_line(&mut self, key: &str, value: &str, at: Span) {
        let key = key.to_ascii_uppercase();
        let repeated = self.keys.contains(&key);
        if self.part == Part::After || (self.started && (key == "FORMAT" || repeated)) {
            self.end_game();
        }
        self.begin(at);
        self.header(&key, value, at);
        self.keys.insert(key);
    }

    /// Marks the game begun at `at`, its first line.
    fn begin(&mut self, at: Span) {
        if !self.started {
            self.game.at = at;
            self.started = true;
        }
    }

    /// Sets the tags of one header line (`key` in upper case).
    fn header(&mut self, key: &str, value: &str, at: Span) {
        match key {
            "RED" | "BLACK" => self.player(&tag_name(key), value),
            "EVENT" => {
                let (event, time) = value.split_once(';').unwrap_or((value, ""));
                self.tag("Event", event);
                self.tag("TimeControl", time);
            }
            "RESULT" => match GameResult::parse(value) {
                Some(result) => self.tag("Result", result.as_str()),
                None => {
                    self.tag("Result", value);
                    if !value.is_empty() {
                        self.warn(at, format!("RESULT {value:?} is not 1-0, 0-1, 1/2-1/2 or *"));
                    }
                }
            },
            _ => self.tag(&tag_name(key), value),
        }
    }

    /// `Red`/`Black` from `name ; rating ; …`: the name, the rating as
    /// `RedElo`/`BlackElo`, further fields as `RedInfo`/`BlackInfo`.
    fn player(&mut self, side: &str, value: &str) {
        let mut fields = value.split(';').map(str::trim);
        self.tag(side, fields.next().unwrap_or(""));
        self.tag(&format!("{side}Elo"), fields.next().unwrap_or(""));
        let rest: Vec<&str> = fields.filter(|f| !f.is_empty()).collect();
        self.tag(&format!("{side}Info"), &rest.join("; "));
    }

    /// Adds a tag, unless its value is empty.
    fn tag(&mut self, name: &str, value: &str) {
        let value = value.trim();
        if !value.is_empty() {
            self.game.tag(name.to_string(), value.to_string());
        }
    }

    /// Notes a problem of the game, worked around.
    fn warn(&mut self, at: Span, message: impl Into<String>) {
        self.game.warn(at, message);
    }

    /// Reads the move text of `line` from byte `from`, up to the block's
    /// end (`}`) if it is on this line.
    fn move_text(&mut self, number: u32, line: &str, from: usize) {
        let text = &line[from..];
        let column = line[..from].chars().count() as u32 + 1;
        for (at, col, word) in words(text, column) {
            let Some(close) = word.find('}') else {
                self.word(word, Span { line: number, column: col });
                continue;
            };
            if close > 0 {
                self.word(&word[..close], Span { line: number, column: col });
            }
            let after = &text[at + close + 1..];
            let rest =
                after.get(..3).filter(|end| end.eq_ignore_ascii_case("END")).map_or(after, |_| &after[3..]);
            self.part = Part::After;
            let trailing = rest.trim_start();
            if !trailing.is_empty() {
                self.told_trailing = true;
                let column = column + text[..text.len() - trailing.len()].chars().count() as u32;
                self.warn(Span { line: number, column }, "text after }END: not read");
            }
            return;
        }
    }

    /// One word of the block: a move number, a result or a move, and
    /// annotation glyphs (`!`, `?`, `!!`, `??`, `!?`, `?!`) anywhere among
    /// them: `C2.5!`, `!!12.`, `12.!?`, `h8+7!!12.`. A glyph is the move's
    /// before it (the last move read).
    fn word(&mut self, word: &str, at: Span) {
        if let Some(result) = GameResult::parse(word) {
            self.block_result = Some((result, at));
            return;
        }
        let mut column = at.column;
        for (part, glyphs) in glyph_runs(word) {
            if glyphs {
                self.glyphs(part, Span { line: at.line, column });
            } else {
                self.number_or_move(part, Span { line: at.line, column });
            }
            column += part.chars().count() as u32;
        }
    }

    /// A part of a word without glyphs: a move number, a move, or both
    /// (`12.C2.5`).
    fn number_or_move(&mut self, part: &str, at: Span) {
        let (_, rest) = pgn::strip_move_number(part);
        let rest = rest.trim_start_matches(['.', '…', '．', '。']);
        if rest.is_empty() || rest == "--" {
            return;
        }
        let column = at.column + part[..part.len() - rest.len()].chars().count() as u32;
        let node = self.game.moves.add_child(self.cursor, RecordedMove::text(rest, at.line, column));
        self.cursor = node;
    }

    /// A run of glyphs: the last move's annotation.
    fn glyphs(&mut self, run: &str, at: Span) {
        match pgn::remark_nag(run) {
            Some(nag) if self.cursor != self.game.moves.root() => self.game.moves.add_nag(self.cursor, nag),
            Some(_) => self.warn(at, format!("{run:?} before the first move annotates no move: left out")),
            None => {
                self.warn(at, format!("{run:?} is not an annotation glyph (!, ?, !!, ??, !?, ?!): left out"))
            }
        }
    }

    /// Ends the game read so far, if there is one, and starts the next.
    fn end_game(&mut self) {
        if let Part::Moves(open) = self.part {
            self.warn(open, "START{ is not closed with }END: the moves up to the end of the text are read");
        }
        if let Some((result, at)) = self.block_result.take() {
            let line = self.game.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case("Result"));
            let line = line.and_then(|(_, value)| GameResult::parse(value));
            if let Some(said) = line.filter(|&said| said != result && said != GameResult::Unknown) {
                let message = format!("the result {result} after the moves contradicts RESULT {said}");
                self.warn(at, message);
            }
            self.game.result = Some(result);
        }
        if !self.notes.is_empty() {
            let root = self.game.moves.root();
            self.game.moves.set_comment(root, &self.notes.join("\n"));
            self.notes.clear();
        }
        let game = std::mem::take(&mut self.game);
        if self.started {
            (self.each)(game);
        }
        self.part = Part::Header;
        self.cursor = 0;
        self.started = false;
        self.told_trailing = false;
        self.keys.clear();
    }

    /// Ends the text: every game read.
    fn finish(mut self) {
        self.end_game();
    }
}

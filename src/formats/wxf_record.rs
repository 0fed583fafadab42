//! WXF game files, as PlayOK and XieXie write them: header lines of a key
//! and a value, then the moves between `START{` and `}END`.
//!
//! ```text
//! FORMAT  WXF
//! RED     jugador rojo ; 1200 ;;
//! BLACK   jugador negro ; 1240 ;;
//! RESULT  0-1
//! DATE    2020-02-02 02:02:02
//! EVENT   PlayOK Game ; 10m+0s
//! START{
//!  1. C2.5 h8+7   2. H2+3 r9.8   3. R1.2 h2+3
//! ...
//! 27. R7.6 r4+1 }END
//! ```
//!
//! What is known of the format, and where from:
//! - It comes from the "Chinese Chess File Format" drafted by Huayong Yang
//!   with Peter Sung, Xi Chen and Tie Zeng (published by the WXF,
//!   `wxf-xiangqi.org/images/computer-xiangqi/chinese-chess-file-format.pdf`;
//!   a copy at kipdf.com, "chinese-chess-file-format"): the file opens with
//!   `FORMAT format, piece_symbols`, the format being ICCS (the default),
//!   AXF (the WXF letters, `C2=5`), LALG or SALG, and a remark may follow a
//!   move: `!`, `?`, `!!`, `!?`, `??`, `+` (check), `++` (checkmate).
//! - PlayOK's export ("Download" of a game; the file above, also in
//!   hartwork/xiangqi-setup as `doc/demo-with-history-playok.wxf`): keys
//!   padded with spaces to column 9; `RED` and `BLACK` hold the name, the
//!   rating and an empty third field, `;`-separated; `DATE` has the time
//!   too; `EVENT` has the time control after a `;` (`10m+0s`); three moves
//!   a line, numbered `1.` to `27.`, right-aligned; Black's moves in lower
//!   case and `.` for sideways (also noted in gbtami/pychess-variants#437);
//!   the last line ends with ` }END`, so its moves share the line with the
//!   end of the block (a game of odd length ends `28. E3+5 }END`). No
//!   result is written in the block: the `RESULT` line holds it. LF line
//!   ends.
//! - XieXie's export (hartwork/xiangqi-setup#2, "FEN-based WXF file input
//!   (as produced by XieXie)", and `doc/demo.wxf`, `doc/initial.wxf` there):
//!   a tab after the key, `GAME` with no value, `RED ;;;` and `BLACK ;;;`
//!   when the players have no name, `DATE 2-8-2014` or `2014-07-16`, the
//!   position as `FEN <placement> r|b` (letters `H` and `E` for horse and
//!   elephant, `r` or `b` to move), a blank line, and `START{` and `}END`
//!   on lines of their own, with nothing between them when the file is a
//!   position. xiangqi-setup's reader notes that XieXie writes Black's
//!   moves in upper case too.
//! - xiangqi-setup's reader also knows a `SETUP{ … }` block (pieces as
//!   `Rh0`, `MOVE n`, `RED`/`BLACK`); no file with one was found, and qipu
//!   does not read it: such a game is unreadable, with its place.
//! - No real file with `ROUND`, `TITLE`, `SITE` or `COMMENT` keys, comments
//!   in the block, or several games was found; they are read all the same.
//!
//! How qipu reads it:
//! - Header keys in any case; the value is the rest of the line. `RED` and
//!   `BLACK` give `Red` and `Black` (the name), `RedElo` and `BlackElo`
//!   (the rating), and `RedInfo`/`BlackInfo` for any further field; `EVENT`
//!   gives `Event` and `TimeControl`; `RESULT` the `Result` tag; `FEN`,
//!   `DATE`, `ROUND`, `GAME`, `TITLE`, `SITE` and any other key are kept
//!   as a tag of the title-cased name (`RED_TEAM` is `RedTeam`). Empty
//!   values are left out. Other lines of the header are the comment before
//!   the first move.
//! - Every word of the block is a move but for move numbers (`1.`,
//!   `1...`), placeholders (`...`) and results (`1-0`, `0-1`, `1/2-1/2`,
//!   `*`); the notation of each move (WXF in either case, or any other) is
//!   worked out when the game is replayed, from the side to move. Remark
//!   marks `!` and `?` become NAGs, as in PGN. The block ends at `}`
//!   (`}END`), wherever it stands on its line.
//! - A `FORMAT` line, or a line of a key real files use (`RED`, `FEN`, …)
//!   after `}END`, starts the next game; so does a key the game already
//!   has. A game without a block, or with an empty one, is a position: a
//!   record without moves.
//! - A block left open runs to the next `FORMAT` line or the end of the
//!   text, with a warning; a result in the block that contradicts the
//!   `RESULT` line, and text after `}END`, are warned of too.
//!
//! ```
//! use qipu::formats::wxf_record;
//! let text = "FORMAT  WXF\nRED     jugador rojo ; 1200 ;;\nRESULT  1-0\nSTART{\n 1. C2.5 h8+7   2. H2+3 }END\n";
//! assert!(wxf_record::is_wxf(text));
//! let games = wxf_record::read(text);
//! assert_eq!(games.len(), 1);
//! assert_eq!(games[0].tag("Red"), Some("jugador rojo"));
//! assert_eq!(games[0].tag("RedElo"), Some("1200"));
//! assert_eq!(games[0].tree.main_line().count(), 3);
//! assert_eq!(games[0].result(), Some(qipu::record::GameResult::RedWins));
//! ```

use std::collections::HashSet;

use super::pgn;
use crate::record::{GameResult, NodeId, Record, RecordedMove, Span, Warning};

/// Header keys that real files hold: a text made of lines of these and a
/// `START{` block is a WXF file even without its `FORMAT` line, and after
/// `}END` one of these starts the next game.
const KNOWN_KEYS: [&str; 11] =
    ["FORMAT", "GAME", "RED", "BLACK", "RESULT", "DATE", "EVENT", "ROUND", "SITE", "TITLE", "FEN"];

/// The move formats a `FORMAT` line names (WXF and its older name AXF,
/// and ICCS, the draft's default).
const MOVE_FORMATS: [&str; 3] = ["WXF", "AXF", "ICCS"];

/// Whether `text` is a WXF game file: its first line that is not blank
/// is `FORMAT WXF` (any case and spacing; `AXF` and `ICCS` too), or its
/// lines up to a `START{` line are all header lines of the keys real files
/// use (`RED`, `BLACK`, `FEN`, ...), at least one of them.
pub fn is_wxf(text: &str) -> bool {
    let mut headers = 0;
    for line in text.lines() {
        let line = line.trim_start_matches('\u{feff}');
        if line.trim().is_empty() {
            continue;
        }
        if block_opening(line).is_some() {
            return headers > 0;
        }
        let Some((key, value)) = header_line(line) else { return false };
        if headers == 0 && key.eq_ignore_ascii_case("FORMAT") && names_a_move_format(value) {
            return true;
        }
        if !is_known(key) {
            return false;
        }
        headers += 1;
    }
    false
}

/// Whether `key` is one of [`KNOWN_KEYS`] (any case).
fn is_known(key: &str) -> bool {
    KNOWN_KEYS.iter().any(|k| k.eq_ignore_ascii_case(key))
}

/// Whether the value of a `FORMAT` line names a move format this file
/// format is written in (`WXF`, `AXF, K(K) R(C) …`, `ICCS`).
fn names_a_move_format(value: &str) -> bool {
    let first = value.split(|c: char| c.is_whitespace() || c == ',').next().unwrap_or("");
    MOVE_FORMATS.iter().any(|f| f.eq_ignore_ascii_case(first))
}

/// Reads every game of a WXF file, in order.
pub fn read(text: &str) -> Vec<Record> {
    let mut reader = Reader::default();
    for (n, line) in text.lines().enumerate() {
        let number = u32::try_from(n + 1).unwrap_or(u32::MAX);
        reader.line(number, line.trim_start_matches('\u{feff}'));
    }
    reader.finish()
}

/// A line `KEY value`: the key (ASCII letters, digits and `_`, opening
/// with a letter) and the value, trimmed; `None` when the line is not one.
fn header_line(line: &str) -> Option<(&str, &str)> {
    let line = line.trim_start();
    let end = line.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(line.len());
    let (key, rest) = line.split_at(end);
    let opens_with_letter = key.starts_with(|c: char| c.is_ascii_alphabetic());
    let separated = rest.is_empty() || rest.starts_with(char::is_whitespace);
    (opens_with_letter && key.len() >= 2 && separated).then(|| (key, rest.trim()))
}

/// Where the move text starts on a line opening a block, `START{` (any
/// case, spaces allowed before the `{`): the byte after the `{`.
fn block_opening(line: &str) -> Option<usize> {
    opening(line, "START")
}

/// Like [`block_opening`], for a `SETUP{` block.
fn setup_opening(line: &str) -> Option<usize> {
    opening(line, "SETUP")
}

/// The byte after `{` on a line that opens with `word{`.
fn opening(line: &str, word: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    let head = trimmed.get(..word.len())?;
    if !head.eq_ignore_ascii_case(word) {
        return None;
    }
    let after = trimmed[word.len()..].trim_start();
    after.strip_prefix('{')?;
    Some(line.len() - after.len() + 1)
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
#[derive(Debug, Default)]
struct Reader {
    games: Vec<Record>,
    game: Record,
    part: Part,
    /// The last move read, the next one's parent.
    cursor: Option<NodeId>,
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

impl Reader {
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
            self.game.unreadable.get_or_insert(Warning { at, message: message.into() });
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
            self.game.tags.push((name.to_string(), value.to_string()));
        }
    }

    /// Notes a problem of the game, worked around.
    fn warn(&mut self, at: Span, message: impl Into<String>) {
        self.game.warnings.push(Warning { at, message: message.into() });
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

    /// One word of the block: a move number, a result or a move.
    fn word(&mut self, word: &str, at: Span) {
        if let Some(result) = GameResult::parse(word) {
            self.block_result = Some((result, at));
            return;
        }
        let (number_len, rest) = pgn::strip_move_number(word);
        let rest = rest.trim_start_matches(['.', '…', '．', '。']);
        if rest.is_empty() || rest == "--" {
            return;
        }
        let column = at.column + word[..number_len].chars().count() as u32;
        let (text, nag) = pgn::split_remark(rest);
        let parent = self.cursor.unwrap_or(self.game.tree.root());
        let node = self.game.tree.add_child(parent, RecordedMove::text(text, at.line, column));
        if let Some(nag) = nag {
            self.game.tree.node_mut(node).notes_mut().nags.push(nag);
        }
        self.cursor = Some(node);
    }

    /// Ends the game read so far, if there is one, and starts the next.
    fn end_game(&mut self) {
        if let Part::Moves(open) = self.part {
            self.warn(open, "START{ is not closed with }END: the moves up to the end of the text are read");
        }
        if let Some((result, at)) = self.block_result.take() {
            let line = self.game.tag("Result").and_then(GameResult::parse);
            if let Some(said) = line.filter(|&said| said != result && said != GameResult::Unknown) {
                let message = format!("the result {result} after the moves contradicts RESULT {said}");
                self.warn(at, message);
            }
            self.game.result = Some(result);
        }
        if !self.notes.is_empty() {
            let root = self.game.tree.root();
            self.game.tree.node_mut(root).notes_mut().comment = Some(self.notes.join("\n"));
            self.notes.clear();
        }
        let game = std::mem::take(&mut self.game);
        if self.started {
            self.games.push(game);
        }
        self.part = Part::Header;
        self.cursor = None;
        self.started = false;
        self.told_trailing = false;
        self.keys.clear();
    }

    /// Ends the text: every game read.
    fn finish(mut self) -> Vec<Record> {
        self.end_game();
        self.games
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::MoveText;

    fn moves(r: &Record) -> Vec<String> {
        r.tree
            .main_line()
            .map(|id| match &r.tree.node(id).mv.as_ref().map(|m| &m.text) {
                Some(MoveText::Text(t)) => t.to_string(),
                other => format!("{other:?}"),
            })
            .collect()
    }

    fn spans(r: &Record) -> Vec<(u32, u32)> {
        r.tree
            .main_line()
            .filter_map(|id| r.tree.node(id).mv.as_ref())
            .map(|m| (m.at.line, m.at.column))
            .collect()
    }

    #[test]
    fn playok_header_and_moves() {
        let text = "FORMAT  WXF\nRED     jugador rojo ; 1200 ;;\nBLACK   jugador negro ; 1240 ;;\nRESULT  0-1\nDATE    2020-02-02 02:02:02\nEVENT   PlayOK Game ; 10m+0s\nSTART{\n 1. C2.5 h8+7   2. H2+3 r9.8\n 3. R1.2 h2+3 }END\n";
        let games = read(text);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        let tags: Vec<(&str, &str)> = g.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            tags,
            [
                ("Format", "WXF"),
                ("Red", "jugador rojo"),
                ("RedElo", "1200"),
                ("Black", "jugador negro"),
                ("BlackElo", "1240"),
                ("Result", "0-1"),
                ("Date", "2020-02-02 02:02:02"),
                ("Event", "PlayOK Game"),
                ("TimeControl", "10m+0s"),
            ]
        );
        assert_eq!(moves(g), ["C2.5", "h8+7", "H2+3", "r9.8", "R1.2", "h2+3"]);
        assert_eq!(spans(g)[..2], [(8, 5), (8, 10)]);
        assert_eq!(spans(g)[4..], [(9, 5), (9, 10)]);
        assert_eq!(g.result(), Some(GameResult::BlackWins));
        assert_eq!(g.at, Span { line: 1, column: 1 });
        assert!(g.warnings.is_empty(), "{:?}", g.warnings);
        assert!(g.tree.node(g.tree.root()).comment().is_none());
    }

    #[test]
    fn xiexie_position_without_moves() {
        let text = "FORMAT  \tWXF\nGAME    \nRED     \t;;;\nBLACK   \t;;;\nDATE    \t2021-03-04\nFEN  \t\t3akae2/9/4e4/p3p3p/9/2P6/P3P3P/4E4/4A4/2EAK4 b\n\nSTART{\n}END\n";
        assert!(is_wxf(text));
        let games = read(text);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tag("FEN"), Some("3akae2/9/4e4/p3p3p/9/2P6/P3P3P/4E4/4A4/2EAK4 b"));
        assert_eq!(g.tag("Date"), Some("2021-03-04"));
        assert_eq!((g.tag("Game"), g.tag("Red"), g.tag("RedElo")), (None, None, None));
        assert!(g.tree.is_empty());
        assert!(g.warnings.is_empty() && g.unreadable.is_none());
    }

    #[test]
    fn several_games_crlf_and_joined_end() {
        let text = "FORMAT WXF\r\nRED a\r\nSTART{\r\n1. C2.5 h8+7\r\n2. H2+3 r9.8}END\r\n\r\nFORMAT WXF\r\nRED b\r\nRESULT 1-0\r\nSTART{ 1. P7+1 1-0 }END\r\nFORMAT WXF\r\nRED c\r\n";
        let games = read(text);
        assert_eq!(games.len(), 3);
        assert_eq!(moves(&games[0]), ["C2.5", "h8+7", "H2+3", "r9.8"]);
        assert_eq!(spans(&games[0])[3], (5, 9));
        assert_eq!(games[1].tag("Red"), Some("b"));
        assert_eq!(games[1].at.line, 7);
        assert_eq!(moves(&games[1]), ["P7+1"]);
        assert_eq!(spans(&games[1]), [(10, 11)]);
        assert_eq!(games[1].result, Some(GameResult::RedWins));
        assert!(games[1].warnings.is_empty(), "{:?}", games[1].warnings);
        assert_eq!(games[2].tag("Red"), Some("c"));
        assert!(games[2].tree.is_empty());
    }

    #[test]
    fn numbers_placeholders_and_remarks() {
        let text = "FORMAT WXF\nSTART{\n1... h8+7 2. C2.5!? ... 3.H2+3 *\n}END\n";
        let g = &read(text)[0];
        assert_eq!(moves(g), ["h8+7", "C2.5", "H2+3"]);
        assert_eq!(spans(g)[2], (3, 27));
        let second = g.tree.main_line().nth(1).unwrap();
        assert_eq!(g.tree.node(second).nags(), [5]);
        assert_eq!(g.result, Some(GameResult::Unknown));
    }

    #[test]
    fn a_block_left_open_and_text_after_the_end() {
        let text = "FORMAT WXF\nSTART{\n1. C2.5 h8+7\nFORMAT WXF\nSTART{ 1. H2+3 }END trailing\nfooter\n";
        let games = read(text);
        assert_eq!(games.len(), 2);
        assert_eq!(moves(&games[0]), ["C2.5", "h8+7"]);
        assert!(games[0].warnings[0].message.contains("not closed"), "{:?}", games[0].warnings);
        assert_eq!(games[0].warnings[0].at, Span { line: 2, column: 1 });
        assert_eq!(games[1].warnings.len(), 1, "told once: {:?}", games[1].warnings);
        assert_eq!(games[1].warnings[0].at, Span { line: 5, column: 21 });
        let open = read("FORMAT WXF\nSTART{ 1. C2.5\n");
        assert_eq!(moves(&open[0]), ["C2.5"]);
        assert!(open[0].warnings[0].message.contains("end of the text"));
    }

    #[test]
    fn results_in_the_block_and_on_the_result_line() {
        let g = &read("FORMAT WXF\nRESULT 1-0\nSTART{ 1. C2.5 0-1 }END\n")[0];
        assert_eq!(g.result(), Some(GameResult::BlackWins));
        assert!(g.warnings[0].message.contains("contradicts RESULT 1-0"), "{:?}", g.warnings);
        let g = &read("FORMAT WXF\nRESULT red wins\nSTART{ }END\n")[0];
        assert_eq!(g.tag("Result"), Some("red wins"));
        assert_eq!(g.result(), None);
        assert_eq!(g.warnings.len(), 1);
    }

    #[test]
    fn other_keys_and_lines_of_the_header() {
        let text = "FORMAT WXF\nTITLE 对局\nRED_TEAM 北京\nROUND 3\n象棋 note\nSTART{ }END\n";
        let g = &read(text)[0];
        assert_eq!(g.tag("Title"), Some("对局"));
        assert_eq!(g.tag("RedTeam"), Some("北京"));
        assert_eq!(g.tag("Round"), Some("3"));
        assert_eq!(g.tree.node(g.tree.root()).comment(), Some("象棋 note"));
    }

    #[test]
    fn a_repeated_key_or_a_second_block_is_the_next_game() {
        let games = read("FORMAT WXF\nRED a\nRED b\nSTART{ 1. C2.5 }END\nSTART{ 1. H2+3 }END\n");
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].tag("Red"), Some("a"));
        assert!(games[0].tree.is_empty());
        assert_eq!(moves(&games[1]), ["C2.5"]);
        assert_eq!(moves(&games[2]), ["H2+3"]);
        assert_eq!(games[2].at.line, 5);
    }

    #[test]
    fn a_setup_block_is_unreadable_with_its_place() {
        let games = read("FORMAT WXF\nSETUP{ Ke0 ke9\nRa0 }\nSTART{ }END\nFORMAT WXF\nSTART{ 1. C2.5 }END\n");
        assert_eq!(games.len(), 2);
        let why = games[0].unreadable.as_ref().expect("unreadable");
        assert_eq!(why.at, Span { line: 2, column: 1 });
        assert!(games[1].unreadable.is_none());
    }

    #[test]
    fn detection() {
        assert!(is_wxf("\n  format\twxf\nRED x\n"));
        assert!(is_wxf("FORMAT AXF, K(K) R(C)\n"));
        assert!(is_wxf("\u{feff}RED x\nBLACK y\n\nSTART{\n}END"));
        assert!(!is_wxf("START{\n}END"), "a block alone");
        assert!(!is_wxf("[Event \"x\"]\nFORMAT WXF\n"));
        assert!(!is_wxf("1. C2.5 h8+7\nSTART{"));
        assert!(!is_wxf("RED x\nBLACK y\n1. C2.5\nSTART{"));
        assert!(!is_wxf("Format: WXF\n"));
        assert!(!is_wxf("FORMAT PGN\nRED x\n"));
        assert!(!is_wxf("吉林洪智  红先和  上海林宏敏\n"));
        assert!(!is_wxf(""));
    }

    #[test]
    fn broken_text_never_panics() {
        for text in [
            "START{",
            "FORMAT WXF\nSTART{}",
            "FORMAT WXF\nSTART{ }E",
            "FORMAT WXF\nSTART {}END}",
            "FORMAT\n}\n",
            "中{}END",
            "FORMAT WXF\nSTART{ 中}END 中",
        ] {
            let _ = read(text);
            let _ = is_wxf(text);
        }
        assert!(read("").is_empty());
    }
}

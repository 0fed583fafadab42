//! Plain-text Chinese records: moves without PGN tags, as the rules text
//! writes them (`1.炮二平五 马8进7 2.马二进三`, `1 炮25 马87`), tournament
//! text files (a header line `吉林洪智  红先和  上海林宏敏`, then numbered
//! moves, several a line) and XQStudio's text export (`标题: …`, `红方: …`
//! header lines).
//!
//! Lines whose every word is a move, a move number or a result are move
//! lines; other lines are headers. A header after move lines starts the
//! next game. Headers that name the players and result fill the tags; the
//! others are kept as the comment before the first move.
//!
//! ```
//! use qipu::formats::text;
//! let games = text::read("吉林洪智  红先和  上海林宏敏\n  1. 兵七进一  炮２平３    2. 炮八平五  炮８平５\n");
//! assert_eq!(games.len(), 1);
//! assert_eq!(games[0].tag("Red"), Some("吉林洪智"));
//! assert_eq!(games[0].tag("Result"), Some("1/2-1/2"));
//! assert_eq!(games[0].tree().main_line().count(), 4);
//! ```

use std::ops::ControlFlow;

use super::pgn;
use crate::record::{GameResult, Record, RecordBuilder, RecordedMove, Skip, Span, Visitor, Warning};

/// Reads every game of a plain-text record file. Lines after the last
/// move line that no move line follows start no game: the last game
/// warns that they are not read (they may hold moves among words).
pub fn read(text: &str) -> Vec<Record> {
    read_from(text, 1)
}

/// [`read`] for a text whose first line is line `first_line` of its input
/// (a piece of a larger text, cut where `GameStarts` says a game starts).
pub(crate) fn read_from(text: &str, first_line: u32) -> Vec<Record> {
    let mut games = Vec::new();
    read_each(text, first_line, &mut RecordBuilder::default(), |game| games.push(game));
    games
}

/// Reads every game of a plain-text record file with `visitor`, as
/// [`read`] reads them: what the visitor makes of each game's events, in
/// order. No [`Record`] is built (unless the visitor builds them).
///
/// ```
/// use qipu::formats::text;
/// use qipu::record::RecordBuilder;
/// let games = text::read_with("甲  红先胜  乙\n1. 炮二平五 马８进７\n", &mut RecordBuilder::default());
/// assert_eq!(games, text::read("甲  红先胜  乙\n1. 炮二平五 马８进７\n"));
/// ```
pub fn read_with<V: Visitor>(text: &str, visitor: &mut V) -> Vec<V::Output> {
    let mut games = Vec::new();
    read_each(text, 1, visitor, |game| games.push(game));
    games
}

/// Reads every game of a plain text whose first line is line `first_line`
/// of its input with `visitor`, handing what it makes of each game to
/// `each` as the game is read.
///
/// The move lines of a run (with no header line between them) are read
/// as PGN move text, the header before them telling the first game's tags
/// and comment. A run is read once the next move line comes, or the text
/// ends: only then is it known whether its last game is the text's last,
/// which takes the warning about lines after the last moves.
pub(crate) fn read_each<V: Visitor>(
    text: &str,
    first_line: u32,
    visitor: &mut V,
    mut each: impl FnMut(V::Output),
) {
    let first_line = first_line.max(1) as usize;
    let mut header: Vec<&str> = Vec::new();
    let mut header_lines: Vec<usize> = Vec::new();
    let mut moves: Vec<(usize, &str)> = Vec::new();
    // The last run read, with its header, not told yet.
    let mut held: Option<Run<'_>> = None;
    for (k, line) in text.lines().enumerate() {
        // Lines counted from 0 in the input.
        let n = k + first_line - 1;
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if is_move_line(t) {
            if let Some(run) = held.take() {
                run.tell(None, visitor, &mut each);
            }
            moves.push((n, line));
        } else {
            if !moves.is_empty() {
                held = Some(Run { header: std::mem::take(&mut header), moves: std::mem::take(&mut moves) });
                header_lines.clear();
            }
            header.push(t);
            header_lines.push(n);
        }
    }
    match held {
        // Lines after the last run: its last game tells of them.
        Some(run) => run.tell(unread_lines(&header, &header_lines), visitor, &mut each),
        None => Run { header, moves }.tell(None, visitor, &mut each),
    }
}

/// The warning about `header`, lines after the last moves of a text (at
/// lines `header_lines`, counted from 0), when they hold more than rules
/// and XQStudio's footer.
fn unread_lines(header: &[&str], header_lines: &[usize]) -> Option<Warning> {
    // Rules and XQStudio's footer (`棋谱由XQStudio生成 (http://…)`) hold nothing.
    let nothing = |h: &&str| is_rule(h) || h.starts_with("棋谱由XQStudio生成");
    let k = header.iter().position(|h| !nothing(h))?;
    let first = header[k];
    let shown: String = first.chars().take(40).collect();
    let more = if shown.len() < first.len() { "…" } else { "" };
    Some(Warning {
        at: Span { line: u32::try_from(header_lines[k] + 1).unwrap_or(u32::MAX), column: 1 },
        message: format!(
            "{} line(s) of text after the last moves, with no move line after them: not read ({shown:?}{more})",
            header.iter().filter(|h| !nothing(h)).count()
        ),
    })
}

/// A run of move lines (each with its number, counted from 0) and the
/// header lines before it.
struct Run<'a> {
    header: Vec<&'a str>,
    moves: Vec<(usize, &'a str)>,
}

impl Run<'_> {
    /// Reads the run with `visitor`, as PGN move text: move text that
    /// starts again at move 1 after a result holds more games, and the
    /// header belongs to the first. `last` is told to the last game.
    fn tell<V: Visitor>(self, last: Option<Warning>, visitor: &mut V, each: &mut impl FnMut(V::Output)) {
        let Some(&(first, _)) = self.moves.first() else { return };
        let headed = Headed::new(visitor, Header::of(&self.header));
        // Keep line numbers: the move text starts on its own line of the file
        // (and blank lines between move lines are kept).
        let mut reader =
            pgn::LineReader::with(headed).starting_at_line(u32::try_from(first + 1).unwrap_or(u32::MAX));
        let mut line = first;
        for &(n, l) in &self.moves {
            for _ in line + 1..n {
                reader.push_line("");
            }
            reader.push_line(l);
            line = n;
        }
        for game in reader.take_games() {
            each(game);
        }
        // The game still open is the run's last.
        reader.visitor_mut().last = last;
        for game in reader.finish() {
            each(game);
        }
    }
}

/// What the header lines before a run of moves say: tags (a tag set twice
/// keeps its first place and takes the last value), and the other lines,
/// rules left out, as the comment about the game.
#[derive(Debug, Default)]
struct Header {
    tags: Vec<(&'static str, String)>,
    notes: Option<String>,
}

impl Header {
    fn of(lines: &[&str]) -> Header {
        let mut header = Header::default();
        let mut notes: Vec<&str> = Vec::new();
        for h in lines {
            if !header.apply(h) && !is_rule(h) {
                notes.push(h);
            }
        }
        header.notes = (!notes.is_empty()).then(|| notes.join("\n"));
        header
    }

    /// Sets tag `name` to `value`: in the place it has, or last.
    fn set_tag(&mut self, name: &'static str, value: &str) {
        let value = value.to_string();
        match self.tags.iter_mut().find(|(k, _)| *k == name) {
            Some((_, v)) => *v = value,
            None => self.tags.push((name, value)),
        }
    }

    /// Fills tags from a header line; false when the line is not one qipu
    /// understands.
    fn apply(&mut self, line: &str) -> bool {
        for (word, result) in [("红先胜", "1-0"), ("红先负", "0-1"), ("红先和", "1/2-1/2")] {
            if let Some((red, black)) = line.split_once(word) {
                self.set_tag("Red", red.trim());
                self.set_tag("Black", black.trim());
                self.set_tag("Result", result);
                return true;
            }
        }
        let Some((key, value)) = line.split_once([':', '：']) else { return false };
        let tag = match key.trim() {
            "标题" => "Title",
            "赛事" => "Event",
            "日期" => "Date",
            "地点" => "Site",
            "红方" => "Red",
            "黑方" => "Black",
            "评论" => "Annotator",
            "作者" => "Author",
            "结果" => {
                let v = value.trim();
                let result = match v {
                    "红胜" | "红先胜" | "1-0" => "1-0",
                    "黑胜" | "红先负" | "0-1" => "0-1",
                    "和" | "和棋" | "红先和" | "1/2-1/2" => "1/2-1/2",
                    _ => {
                        self.set_tag("ResultText", v);
                        return true;
                    }
                };
                self.set_tag("Result", result);
                return true;
            }
            _ => return false,
        };
        self.set_tag(tag, value.trim());
        true
    }
}

/// The visitor a run's move text is read with: the caller's, told the
/// header's tags right after the first game begins, and its notes as the
/// start of that game's comment about the game; the last game is told the
/// warning set in `last` before it ends.
///
/// The comment about each game (what comes before its first move) is told
/// once, joined by line ends, when its first move (or anything after the
/// comments about the game) comes, as a record of the game would tell it.
struct Headed<V> {
    inner: V,
    /// The header, until the first game begins.
    header: Option<Header>,
    /// The comment about the game, not told yet.
    about: Option<String>,
    /// The game's moves have begun: comments are told as they come.
    moving: bool,
    /// The warning for the game that ends next.
    last: Option<Warning>,
}

impl<V: Visitor> Headed<V> {
    fn new(inner: V, header: Header) -> Headed<V> {
        Headed { inner, header: Some(header), about: None, moving: false, last: None }
    }

    /// Tells the comment about the game, if not told yet: the moves begin.
    fn moves_begin(&mut self) {
        if !std::mem::replace(&mut self.moving, true)
            && let Some(about) = self.about.take()
        {
            self.inner.comment(&about);
        }
    }
}

impl<V: Visitor> Visitor for Headed<V> {
    type Output = V::Output;

    fn begin_game(&mut self, at: Span) {
        self.inner.begin_game(at);
        self.moving = false;
        self.about = None;
        if let Some(header) = self.header.take() {
            for (name, value) in &header.tags {
                self.inner.tag(name, value, at);
            }
            self.about = header.notes;
        }
    }

    fn tag(&mut self, name: &str, value: &str, at: Span) {
        self.inner.tag(name, value, at)
    }

    fn mv(&mut self, mv: &RecordedMove) -> ControlFlow<()> {
        self.moves_begin();
        self.inner.mv(mv)
    }

    fn move_text(&mut self, text: &str, at: Span) -> ControlFlow<()> {
        self.moves_begin();
        self.inner.move_text(text, at)
    }

    fn nag(&mut self, nag: u8) {
        self.moves_begin();
        self.inner.nag(nag)
    }

    fn comment(&mut self, text: &str) {
        if self.moving {
            return self.inner.comment(text);
        }
        match &mut self.about {
            Some(about) => {
                about.push('\n');
                about.push_str(text);
            }
            None => self.about = Some(text.to_string()),
        }
    }

    fn comment_before(&mut self, text: &str) {
        self.moves_begin();
        self.inner.comment_before(text)
    }

    fn begin_variation(&mut self) -> Skip {
        self.moves_begin();
        self.inner.begin_variation()
    }

    fn end_variation(&mut self) {
        self.inner.end_variation()
    }

    fn result(&mut self, result: GameResult) {
        self.moves_begin();
        self.inner.result(result)
    }

    fn warning(&mut self, warning: Warning) {
        self.inner.warning(warning)
    }

    fn unreadable(&mut self, why: Warning) {
        self.inner.unreadable(why)
    }

    fn end_game(&mut self) -> V::Output {
        self.moves_begin();
        if let Some(last) = self.last.take() {
            self.inner.warning(last);
        }
        self.inner.end_game()
    }
}

/// Where games start in a plain text read line by line: the places at
/// which a text may be cut so that each piece, read alone with
/// [`read_from`], gives the games the whole text gives.
///
/// A game starts at the first header line after move lines. A place is
/// told only once a move line follows its header lines: the last game of
/// a text takes the warning about lines after the last moves, so header
/// lines with no moves after them are never cut off from it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GameStarts<P> {
    /// The last line that is not blank was a move line.
    in_moves: bool,
    /// The first header line after move lines, no move line after it yet.
    pending: Option<P>,
}

impl<P: Copy> GameStarts<P> {
    /// Looks at the next line of the text (at place `at`, of the caller's
    /// choosing, e.g. a byte offset); returns the place where a game
    /// surely starts, when this line makes it sure.
    pub(crate) fn line(&mut self, at: P, line: &str) -> Option<P> {
        let t = line.trim();
        if t.is_empty() {
            return None;
        }
        if is_move_line(t) {
            self.in_moves = true;
            return self.pending.take();
        }
        if std::mem::replace(&mut self.in_moves, false) {
            self.pending = Some(at);
        }
        None
    }

    /// The place where a game starts if a move line follows.
    pub(crate) fn pending(&self) -> Option<P> {
        self.pending
    }

    /// The place told as pending moved: `f` maps it (when the caller drops
    /// what came before it).
    pub(crate) fn map_pending(&mut self, f: impl FnOnce(P) -> Option<P>) {
        self.pending = self.pending.and_then(f);
    }

    /// Forgets what was seen: the next line is read as a text's first.
    pub(crate) fn reset(&mut self) {
        self.in_moves = false;
        self.pending = None;
    }
}

/// Whether every word of the line is a move, a move number or a result.
///
/// A move number has one to three digits (`1`, `12.`, `01.`, `1、`); a
/// bare number has no leading zero, and a number runs into its move without
/// a dot only before a Chinese one (`1炮二平五`). So the offsets and bytes
/// of a hex dump (`000002a0: 0000 …`) are not move lines.
pub(crate) fn is_move_line(line: &str) -> bool {
    let mut any = false;
    for word in line.split_whitespace() {
        if GameResult::parse(word).is_some() {
            continue;
        }
        let Some(rest) = after_number(word) else { return false };
        // A move number alone, or a result after one (`45.1-0`).
        if rest.is_empty() || GameResult::parse(rest).is_some() {
            continue;
        }
        if !crate::notation::is_move_text(rest) {
            return false;
        }
        any = true;
    }
    any
}

/// What follows the move number that starts `word` (all of it when there
/// is none); `None` when the digits are not a move number.
fn after_number(word: &str) -> Option<&str> {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return Some(word);
    }
    let rest = &word[digits..];
    let separated = rest.trim_start_matches(['.', '．', '、']);
    let dotted = separated.len() < rest.len();
    let leading_zero = word.starts_with('0');
    let fits = digits <= 3
        && match (dotted, rest.is_empty()) {
            (true, _) => true,
            (false, true) => !leading_zero,
            (false, false) => !leading_zero && rest.chars().next().is_some_and(|c| !c.is_ascii()),
        };
    fits.then_some(separated)
}

/// Whether a line is a rule (`-----`, `=====`) that holds nothing.
fn is_rule(line: &str) -> bool {
    line.chars().all(|c| matches!(c, '-' | '—' | '=' | '─'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::told::{Recorder, Told, rebuild};
    use crate::notation::{Notation, chinese};

    /// Texts of every part the reader knows: header notes and a rule,
    /// tags set twice, a run of move lines holding two games (it starts
    /// again at move 1 after a result), lines after the last moves (one
    /// with moves among words), XQStudio's export and footer, text after a
    /// result that is not a game.
    const TRICKY: [&str; 7] = [
        "第一轮\n甲 红先胜 乙\n红方: 丙\n-----\n说明\n1. 炮二平五 马8进7 2. 马二进三 *\n\n丁 红先负 戊\n1. 炮二平五 马８进７ 0-1\n1. 相三进五 象３进５ *\n对局结束\n再见\n",
        "第二站2001·8·15（下午） \r\n吉林洪智  红先和  上海林宏敏\r\n \r\n  1. 兵七进一  炮２平３    2. 炮八平五  炮８平５\r\n  \r\n火车头金波红先负 湖南张申宏\r\n  1. 炮二平五  马８进７\r\n",
        "1. 炮二平五 马8进7 *\n\n-----\n\n{a note} 1. 炮八平五 马2进3 *\n对局结束\n",
        "----------\n标题: 顺炮局\n红方: 甲\n黑方: 乙\n结果: 红胜\n结果: 怪\n----------\n 1. 炮二平五 炮８平５\n棋谱由XQStudio生成\n",
        "甲 红先和 乙\n1. 炮二平五 马８进７ 1/2-1/2\n1. 相三进五 象３进５ *\n说明一\n说明二\n",
        "1. 炮二平五 马8进7 1-0\n2. 马二进三\n甲 红先胜 乙\n1 炮25 马87\n\n\n2 马23\n",
        "1.炮二平五 马8进7 2.马二进三 马2进3 3.车一平二 车9平8\n",
    ];

    /// Every game's events, built by `RecordBuilder`.
    fn rebuilt(text: &str, visitor: &mut Recorder) -> Vec<Record> {
        read_with(text, visitor).iter().map(|told| rebuild(told)).collect()
    }

    fn tags(record: &Record) -> Vec<(&str, &str)> {
        record.tags().iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
    }

    #[test]
    fn the_events_told_build_the_records_read() {
        for text in TRICKY {
            let games = read(text);
            assert!(!games.is_empty(), "{text:?}");
            assert_eq!(rebuilt(text, &mut Recorder::default()), games, "{text:?}");
            let mut skipping = Recorder::skipping();
            assert_eq!(rebuilt(text, &mut skipping), games, "{text:?}");
            // Each piece from a place where a game starts reads as the whole does.
            let mut starts = GameStarts::default();
            let lines: Vec<&str> = text.lines().collect();
            let cuts: Vec<usize> = lines.iter().enumerate().filter_map(|(k, l)| starts.line(k, l)).collect();
            let mut pieces = Vec::new();
            for (k, &from) in std::iter::once(&0).chain(&cuts).enumerate() {
                let to = cuts.get(k).copied().unwrap_or(lines.len());
                pieces.extend(read_from(&lines[from..to].join("\n"), from as u32 + 1));
            }
            assert_eq!(pieces, games, "{text:?}");
        }
        // What they read, as the reader of records read them.
        let games = read(TRICKY[0]);
        assert_eq!(games.len(), 3);
        assert_eq!(tags(&games[0]), [("Red", "丙"), ("Black", "乙"), ("Result", "1-0")]);
        assert_eq!(games[0].tree().node(games[0].tree().root()).comment(), Some("第一轮\n说明"));
        assert_eq!(tags(&games[1]), [("Red", "丁"), ("Black", "戊"), ("Result", "0-1")]);
        assert!(tags(&games[2]).is_empty() && games[1].warnings().is_empty());
        let w = games[2].warnings();
        assert_eq!(w.len(), 1, "the last game tells of the lines after it: {w:?}");
        assert_eq!(w[0].at, Span { line: 11, column: 1 });
        assert!(w[0].message.starts_with("2 line(s) of text after the last moves"), "{}", w[0].message);
        let games = read(TRICKY[3]);
        assert_eq!(
            tags(&games[0]),
            [("Title", "顺炮局"), ("Red", "甲"), ("Black", "乙"), ("Result", "1-0"), ("ResultText", "怪")]
        );
        let games = read(TRICKY[4]);
        assert_eq!(games.len(), 2);
        assert!(games[0].warnings().is_empty());
        assert_eq!(games[1].warnings()[0].at, Span { line: 4, column: 1 });
        // After a result, a line that does not start again at move 1 is the game's footer.
        let games = read(TRICKY[5]);
        assert_eq!(games.len(), 2);
        assert!(games[0].warnings()[0].message.contains("after the result"), "{:?}", games[0].warnings());
        let second = games[1].tree().main_line().nth(2).unwrap();
        assert_eq!(games[1].tree().node(second).mv.as_ref().unwrap().at.line, 7);
    }

    #[test]
    fn a_visitor_that_stops_is_told_the_rest_of_the_game() {
        for text in TRICKY {
            let whole = read(text);
            let told = read_with(text, &mut Recorder::stopping_at(1));
            assert_eq!(told.len(), whole.len());
            for (told, whole) in told.iter().zip(&whole) {
                assert_eq!(told.iter().filter(|e| matches!(e, Told::Move(_))).count(), 1, "{text:?}");
                let stopped = rebuild(told);
                assert_eq!(stopped.tags(), whole.tags());
                assert_eq!(stopped.warnings(), whole.warnings(), "{text:?}");
                assert_eq!(stopped.written_result(), whole.written_result());
                let root = |r: &Record| r.tree().node(r.tree().root()).comment().map(str::to_string);
                assert_eq!(root(&stopped), root(whole));
            }
        }
    }

    #[test]
    fn the_comment_about_the_game_is_told_once() {
        let told = read_with(TRICKY[0], &mut Recorder::default());
        let comments: Vec<&Told> = told[0].iter().filter(|e| matches!(e, Told::Comment(_))).collect();
        assert_eq!(comments, [&Told::Comment("第一轮\n说明".into())]);
        let first = told[0].iter().position(|e| matches!(e, Told::Move(_))).unwrap();
        assert!(told[0][..first].iter().all(|e| !matches!(e, Told::Move(_))));
        assert!(matches!(told[0][1], Told::Tag(..)), "the tags right after the game begins: {:?}", told[0]);
    }

    #[test]
    fn random_legal_games_written_as_text_read_back() {
        let mut state = 361u64;
        let mut next = || {
            let (s, out) = crate::rules::zobrist::splitmix64(state);
            state = s;
            out
        };
        let style = Notation::Chinese(chinese::Style::Simplified);
        let mut text = String::new();
        // Each game's moves, and whether it has the header of its run.
        let mut games: Vec<(Vec<crate::Move>, bool)> = Vec::new();
        for i in 0..80 {
            // A game after a result may start again at move 1 on the next
            // line: the same run of move lines, without a header.
            let joined = i > 0 && next() % 4 == 0;
            if !joined {
                text.push_str(&format!("\nr{i} 红先胜 b{i}\n"));
                if next() % 3 == 0 {
                    text.push_str("第一轮 说明\n-----\n");
                }
            }
            let mut pos = crate::Position::start();
            let mut played = Vec::new();
            for k in 0..1 + next() % 100 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[(next() % moves.len() as u64) as usize];
                if k % 2 == 0 {
                    text.push_str(&format!("{}. ", k / 2 + 1));
                }
                text.push_str(&style.write(&pos, m).unwrap());
                text.push_str(if k % 4 == 3 { "\n" } else { " " });
                played.push(m);
                pos.play_unchecked(m);
            }
            text.push_str("*\n");
            games.push((played, !joined));
        }
        text.push_str("对局结束 谢谢\n");
        let read = read(&text);
        assert_eq!(read.len(), games.len());
        for (k, (record, (played, headed))) in read.iter().zip(&games).enumerate() {
            let replayed = record.replayed();
            assert!(replayed.is_valid(), "game {k}: {:?}", replayed.error);
            assert_eq!(&replayed.moves, played, "game {k}");
            assert_eq!(record.tag("Result").is_some(), *headed, "game {k}");
            assert_eq!(record.warnings().len(), usize::from(k + 1 == games.len()), "game {k}");
        }
        assert_eq!(rebuilt(&text, &mut Recorder::default()), read);
    }

    #[test]
    fn a_game_starts_at_header_lines_that_moves_follow() {
        let mut starts = GameStarts::default();
        let lines =
            ["甲 红先胜 乙", "1. 炮二平五 马8进7", "丙 红先负 丁", "", "1. 炮八平五 马2进3", "对局结束"];
        let told: Vec<Option<usize>> = lines.iter().enumerate().map(|(k, l)| starts.line(k, l)).collect();
        assert_eq!(told, [None, None, None, None, Some(2), None]);
        // Cut there, each piece reads as the whole does.
        let whole = read(&lines.join("\n"));
        let mut pieces = read(&lines[..2].join("\n"));
        pieces.extend(read_from(&lines[2..].join("\n"), 3));
        assert_eq!(whole, pieces);
        assert_eq!(whole[1].warnings().len(), 1, "the line after the last moves is told");
    }

    #[test]
    fn tournament_file() {
        let text = "第二站2001·8·15（下午） \r\n吉林洪智  红先和  上海林宏敏\r\n \r\n  1. 兵七进一  炮２平３    2. 炮八平五  炮８平５\r\n  \r\n火车头金波红先负 湖南张申宏\r\n  1. 炮二平五  马８进７\r\n";
        let games = read(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Black"), Some("上海林宏敏"));
        assert_eq!(games[0].tree().node(games[0].tree().root()).comment(), Some("第二站2001·8·15（下午）"));
        assert_eq!(games[1].tag("Red"), Some("火车头金波"));
        assert_eq!(games[1].tag("Result"), Some("0-1"));
        let first = games[1].tree().main_line().next().unwrap();
        assert_eq!(games[1].tree().node(first).mv.as_ref().unwrap().at.line, 7);
    }

    #[test]
    fn rules_text_forms() {
        for text in ["1.炮二平五 马8进7 2.马二进三", "1 炮二平五 马8进7\n2 马二进三", "1 炮25 马87\n2 马23"]
        {
            let games = read(text);
            assert_eq!(games.len(), 1, "{text}");
            assert_eq!(games[0].tree().main_line().count(), 3, "{text}");
        }
    }

    #[test]
    fn move_lines_that_start_again_after_a_result_are_more_games() {
        let text = "甲  红先胜  乙\n1. 炮二平五 马８进７ 1-0\n\n1. 相三进五 象３进５ *\n";
        let games = read(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Red"), Some("甲"));
        assert_eq!(games[1].tag("Red"), None);
        assert_eq!(games[1].tree().main_line().count(), 2);
        assert_eq!(
            games[1].tree().node(games[1].tree().main_line().next().unwrap()).mv.as_ref().unwrap().at.line,
            4
        );
    }

    #[test]
    fn lines_after_the_last_moves_are_told_not_read() {
        let games = read("1. 炮二平五 马8进7 *\n\n-----\n\n{a note} 1. 炮八平五 马2进3 *\n对局结束\n");
        assert_eq!(games.len(), 1);
        let w = games[0].warnings();
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(w[0].at, Span { line: 5, column: 1 });
        assert!(
            w[0].message.starts_with(
                "2 line(s) of text after the last moves, with no move line after them: not read"
            ),
            "{}",
            w[0].message
        );
        assert!(w[0].message.contains("{a note} 1. 炮八平五"), "{}", w[0].message);
        // Rules and XQStudio's footer are no loss.
        let games =
            read("1. 炮二平五 马8进7 *\n-----\n棋谱由XQStudio生成 (http://www.qipaile.net/xqstudio)\n");
        assert!(games[0].warnings().is_empty());
        // A header before moves is the next game's: nothing to tell.
        let games = read("1. 炮二平五 马8进7 *\n甲 红先胜 乙\n1. 炮八平五 马2进3\n");
        assert_eq!(games.len(), 2);
        assert!(games.iter().all(|g| g.warnings().is_empty()));
    }

    #[test]
    fn xqstudio_export() {
        let text = "----------\n标题: 顺炮局\n红方: 甲\n黑方: 乙\n结果: 红胜\n----------\n 1. 炮二平五 炮８平５\n棋谱由XQStudio生成\n";
        let games = read(text);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tag("Title"), Some("顺炮局"));
        assert_eq!(games[0].tag("Result"), Some("1-0"));
        assert_eq!(games[0].tree().node(games[0].tree().root()).comment(), None);
    }
}

//! JSON records: one object per game, for programs.
//!
//! ```json
//! {"tags":[["Event","x"]],"fen":"rnbakabnr/... w - - 0 1","result":"1-0","comment":null,
//!  "nodes":[{"id":1,"parent":0,"move":"h2e2","text":"炮二平五","comment":null,"comment_before":null,"nags":[]}]}
//! ```
//!
//! `nodes` lists every move of the tree depth first (a move before its
//! continuations, the main continuation before the alternatives); `id` 0 is
//! the start position, so `parent` 0 marks the first moves. `move` is the
//! move in lower-case ICCS coordinates, `null` for a move that did not
//! replay; `text` is the move as read.
//!
//! A move whose comment holds an engine evaluation
//! ([`Evaluation::find`]) has an `eval` object too, after `nags`:
//! `{"cp":38,"depth":19}` or `{"mate":-3}`, from Red's side, `depth` left
//! out when unknown. It is derived from the comment: [`read`] ignores it.
//!
//! [`read`] takes such lines back into records: the moves as `move` gives
//! them, or as `text` where `move` is null. A record's moves are added to
//! its game as its nodes are read, so that a line too long to hold is read
//! as it comes (see [`crate::formats::stream`]), whatever its length.

use serde::{Deserialize, Serialize};

use std::borrow::Cow;

use super::tree::Game;
use crate::record::{
    Evaluation, GameResult, MoveText, NodeId, Record, RecordBuilder, RecordedMove, Span, Visitor,
};

#[derive(Serialize)]
struct JsonRecord<'a> {
    tags: &'a [(String, String)],
    fen: Option<String>,
    result: Option<&'static str>,
    comment: Option<&'a str>,
    nodes: Vec<JsonNode<'a>>,
}

#[derive(Serialize)]
struct JsonNode<'a> {
    id: usize,
    parent: usize,
    #[serde(rename = "move")]
    mv: Option<Coords>,
    text: MoveWord<'a>,
    comment: Option<&'a str>,
    comment_before: Option<&'a str>,
    nags: &'a [u8],
    /// The evaluation the comment holds ([`Evaluation::json`]'s object):
    /// derived, left out when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    eval: Option<Evaluation>,
}

/// A move in lower-case coordinates (`h2e2`), written without an allocation.
struct Coords(crate::Move);

impl Serialize for Coords {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Cannot fail: files and ranks are ASCII letters and digits.
        s.serialize_str(std::str::from_utf8(&self.0.iccs_bytes()).expect("ASCII coordinates"))
    }
}

/// A move as written in the record: its text, or its coordinates.
enum MoveWord<'a> {
    Text(&'a str),
    Coords(Coords),
}

impl Serialize for MoveWord<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            MoveWord::Text(t) => s.serialize_str(t),
            MoveWord::Coords(c) => c.serialize(s),
        }
    }
}

/// Writes a record as one line of JSON, given what replaying it settled.
/// (A node whose move was taken away, its `mv` set to `None`, is written
/// with an empty `text`.)
///
/// # Panics
///
/// Never: what is written is strings, numbers, lists and nulls, which
/// always serialize.
pub fn write(record: &Record) -> String {
    let resolution = &record.replayed().resolution;
    let tree = record.tree();
    let mut nodes = Vec::with_capacity(tree.len().saturating_sub(1));
    // Depth first, as `MoveTree::depth_first` goes, each node with the one
    // it is played from by the tree's own links.
    let root = tree.root();
    let mut stack: Vec<(NodeId, NodeId)> = tree.children(root).map(|c| (c, root)).collect();
    stack.reverse();
    while let Some((id, parent)) = stack.pop() {
        let first = stack.len();
        stack.extend(tree.children(id).map(|c| (c, id)));
        stack[first..].reverse();
        let node = tree.node(id);
        nodes.push(JsonNode {
            id: id.index(),
            parent: parent.index(),
            mv: resolution.move_of(id).map(Coords),
            text: match node.mv.as_ref().map(|mv| &mv.text) {
                Some(MoveText::Text(t)) => MoveWord::Text(t),
                Some(MoveText::Coords(m)) => MoveWord::Coords(Coords(*m)),
                None => MoveWord::Text(""),
            },
            comment: node.comment(),
            comment_before: node.comment_before(),
            nags: node.nags(),
            eval: node.evaluation(),
        });
    }
    let json = JsonRecord {
        tags: record.tags(),
        fen: resolution.setup.as_ref().map(crate::Setup::to_fen),
        result: record.result().map(|r| r.as_str()),
        comment: tree.node(tree.root()).comment(),
        nodes,
    };
    // Cannot fail: every field is a string, a number, a list or null.
    serde_json::to_string(&json).expect("records serialize")
}

#[derive(Deserialize)]
struct OwnedNode {
    id: usize,
    parent: usize,
    #[serde(rename = "move")]
    mv: Option<String>,
    text: Option<String>,
    comment: Option<String>,
    comment_before: Option<String>,
    #[serde(default)]
    nags: Vec<u8>,
}

/// Whether a text holds qipu's JSON records: its first line that is not
/// blank is a JSON object (a PGN text that opens with a `{comment}` is not),
/// or opens like one of qipu's records (`{"tags":`) though it is damaged.
pub(crate) fn looks_like_json(text: &str) -> bool {
    let Some(first) = text.lines().map(|l| l.trim_start_matches('\u{feff}').trim()).find(|l| !l.is_empty())
    else {
        return false;
    };
    first.starts_with("{\"tags\"")
        || (first.starts_with('{')
            && serde_json::from_str::<serde::de::IgnoredAny>(first).is_ok()
            && first.ends_with('}'))
}

/// Reads JSON records, one object per line (blank lines skipped). A line
/// that is not a record is an unreadable record, with its line and the
/// reason: one damaged line costs one game.
///
/// ```
/// use qipu::formats::json;
/// let games = json::read(r#"{"tags":[["Red","许银川"]],"fen":null,"result":"1-0","comment":null,"nodes":[{"id":1,"parent":0,"move":"h2e2","text":"炮二平五","comment":"中炮","comment_before":null,"nags":[]}]}
/// {"tags":[["Red","吕"#);
/// assert_eq!(games[0].tag("Red"), Some("许银川"));
/// assert_eq!(games[0].tree().main_line().count(), 1);
/// assert!(games[1].unreadable().is_some());
/// ```
pub fn read(text: &str) -> Vec<Record> {
    read_with(text, &mut RecordBuilder::default())
}

/// Reads JSON records with `visitor`, as [`read`] reads them: what the
/// visitor makes of each game's events, in order. No [`Record`] is built.
pub fn read_with<V: Visitor>(text: &str, visitor: &mut V) -> Vec<V::Output> {
    let mut reader = LineReader::default();
    let mut games = Vec::new();
    for line in text.lines() {
        reader.push_line(line);
        reader.tell_games(visitor, |game| games.push(game));
    }
    games
}

/// A reader of JSON records fed a line at a time, for texts too large to
/// hold at once.
#[derive(Debug, Default)]
pub(crate) struct LineReader {
    lines: u32,
    pub(crate) games: Vec<Game>,
}

impl LineReader {
    /// A reader whose first line is line `line` of its source (1-based).
    pub(crate) fn starting_at_line(mut self, line: u32) -> LineReader {
        self.lines = line.saturating_sub(1);
        self
    }

    /// Reads one line (without its line end).
    pub(crate) fn push_line(&mut self, line: &str) {
        self.lines = self.lines.saturating_add(1);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let line = if self.lines == 1 { line.trim_start_matches('\u{feff}') } else { line };
        if line.trim().is_empty() {
            return;
        }
        let mut de = serde_json::Deserializer::from_str(line);
        self.games.push(parse(&mut de, self.lines));
    }

    /// Takes a record read apart (see [`read_line`]) as the next line's.
    pub(crate) fn push_game(&mut self, game: Game) {
        self.lines = self.lines.saturating_add(1);
        self.games.push(game);
    }

    /// Skips a line too long to read: an unreadable record at its line.
    pub(crate) fn skip_overlong_line(&mut self, limit: usize) {
        self.lines = self.lines.saturating_add(1);
        let at = Span { line: self.lines, column: 1 };
        let message = format!("line longer than {} MB: not read", limit >> 20);
        self.games.push(Game {
            at,
            unreadable: Some(crate::record::Warning { at, message }),
            ..Game::default()
        });
    }

    /// Tells the games read so far to `visitor`, handing what it makes of
    /// each to `each`.
    pub(crate) fn tell_games<V: Visitor>(&mut self, visitor: &mut V, mut each: impl FnMut(V::Output)) {
        for game in self.games.drain(..) {
            each(game.tell(visitor));
        }
    }
}

/// Why a line of JSON is not one of qipu's records (the message of the
/// unreadable record it stands for, after `JSON record: `).
#[derive(Debug, thiserror::Error)]
enum BadRecord {
    /// Not JSON, or not a record's fields: serde_json's words, without
    /// the place.
    #[error("{0}")]
    Json(String),
    /// A result other than PGN's four.
    #[error("result {0:?} is not 1-0, 0-1, 1/2-1/2 or *")]
    Result(String),
    /// A node before its parent.
    #[error("node {node}: parent {parent} not listed before it")]
    Parent {
        /// The node's id.
        node: usize,
        /// Its parent's.
        parent: usize,
    },
    /// A node whose move is not coordinates.
    #[error("node {node}: {text:?} is not a move")]
    NotAMove {
        /// The node's id.
        node: usize,
        /// Its move.
        text: String,
    },
    /// A node with neither a move nor its text.
    #[error("node {0}: neither move nor text")]
    Empty(usize),
    /// A node id given twice.
    #[error("node id {0} listed twice")]
    Twice(usize),
}

/// Reads one record, line `line` of its source, from `de`: the game, or
/// an unreadable one that says why. The moves are added to the tree as
/// they are read, so a record read from a stream (see [`read_line`]) takes
/// what its game needs, not a copy of its text as well.
fn parse<'de, R: serde_json::de::Read<'de>>(de: &mut serde_json::Deserializer<R>, line: u32) -> Game {
    let mut at = Span { line, column: 1 };
    let read = serde::de::DeserializeSeed::deserialize(RecordSeed { line }, &mut *de)
        .and_then(|built| de.end().map(|()| built))
        .map_err(|e| {
            // The line is the record's: the place is a column of it.
            at.column = u32::try_from(e.column().max(1)).unwrap_or(u32::MAX);
            let text = e.to_string();
            BadRecord::Json(text.rsplit_once(" at line ").map_or(text.clone(), |(what, _)| what.to_string()))
        })
        .and_then(Built::finish);
    read.unwrap_or_else(|reason| Game {
        at: Span { line, column: 1 },
        unreadable: Some(crate::record::Warning { at, message: format!("JSON record: {reason}") }),
        ..Game::default()
    })
}

/// Reads one record, line `line` of its source, from `line_bytes`, the
/// UTF-8 bytes of that line (without its end), as they come: what a line
/// too long to hold costs is its game, and a line that is not JSON is
/// read no further than its first byte that cannot be JSON's.
///
/// # Errors
///
/// The error of reading `line_bytes` (a record that is not one is an
/// unreadable game, not an error).
pub(crate) fn read_line(line_bytes: impl std::io::Read, line: u32) -> std::io::Result<Game> {
    let mut error = None;
    // Buffered outside, which `serde_json` reads a byte at a time fastest.
    let source =
        std::io::BufReader::with_capacity(64 << 10, IoFailure { inner: line_bytes, error: &mut error });
    let game = parse(&mut serde_json::Deserializer::from_reader(source), line);
    match error {
        Some(e) => Err(e),
        None => Ok(game),
    }
}

/// A reader that keeps its error apart, for the caller to tell it from a
/// record that is not one.
struct IoFailure<'e, R> {
    inner: R,
    error: &'e mut Option<std::io::Error>,
}

impl<R: std::io::Read> std::io::Read for IoFailure<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            // The error itself is kept (a source may give a typed one).
            let told = std::io::Error::new(e.kind(), e.to_string());
            self.error.get_or_insert(e);
            told
        })
    }
}

/// A record as its fields are read: its game (moves added as they come),
/// and what is checked at its end.
struct Built {
    game: Game,
    fen: Option<String>,
    result: Option<String>,
    comment: Option<String>,
    /// The first node that could not be added (later ones are not).
    bad: Option<BadRecord>,
}

impl Built {
    /// The game, once every field is read: a result that is not one comes
    /// before a node that is not one, as the fields are checked in order.
    fn finish(self) -> Result<Game, BadRecord> {
        let Built { mut game, fen, result, comment, bad } = self;
        let has_fen = game
            .tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("FEN"))
            .is_some_and(|(_, v)| !v.trim().is_empty());
        if let Some(fen) = fen
            && !has_fen
            && fen != crate::fen::START
        {
            game.set_tag("FEN", fen);
        }
        game.result = match result.as_deref() {
            None => None,
            Some(r) => Some(GameResult::parse(r).ok_or_else(|| BadRecord::Result(r.to_string()))?),
        };
        if let Some(bad) = bad {
            return Err(bad);
        }
        if let Some(c) = comment {
            let tree = &mut game.moves;
            tree.set_comment(tree.root(), &c);
        }
        Ok(game)
    }
}

/// Reads a record's fields into a [`Built`].
struct RecordSeed {
    line: u32,
}

/// A field of a record.
enum Field {
    Tags,
    Fen,
    Result,
    Comment,
    Nodes,
    Other,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Field, D::Error> {
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = Field;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("field identifier")
            }
            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<Field, E> {
                Ok(match name {
                    "tags" => Field::Tags,
                    "fen" => Field::Fen,
                    "result" => Field::Result,
                    "comment" => Field::Comment,
                    "nodes" => Field::Nodes,
                    _ => Field::Other,
                })
            }
        }
        de.deserialize_identifier(Name)
    }
}

const FIELDS: &[&str] = &["tags", "fen", "result", "comment", "nodes"];

impl<'de> serde::de::DeserializeSeed<'de> for RecordSeed {
    type Value = Built;

    fn deserialize<D: serde::Deserializer<'de>>(self, de: D) -> Result<Built, D::Error> {
        de.deserialize_struct("OwnedRecord", FIELDS, self)
    }
}

impl<'de> serde::de::Visitor<'de> for RecordSeed {
    type Value = Built;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("struct OwnedRecord")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Built, A::Error> {
        use serde::de::Error as _;
        let line = self.line;
        let mut game = Game { at: Span { line, column: 1 }, ..Game::default() };
        let (mut tags, mut fen, mut result, mut comment) = (None, None, None, None);
        let mut nodes = Nodes { game: &mut game, ids: std::collections::HashMap::new(), bad: None, line };
        let mut nodes_read = false;
        while let Some(field) = map.next_key::<Field>()? {
            match field {
                Field::Tags if tags.is_some() => return Err(A::Error::duplicate_field("tags")),
                Field::Tags => tags = Some(map.next_value::<Vec<(String, String)>>()?),
                Field::Fen if fen.is_some() => return Err(A::Error::duplicate_field("fen")),
                Field::Fen => fen = Some(map.next_value::<Option<String>>()?),
                Field::Result if result.is_some() => return Err(A::Error::duplicate_field("result")),
                Field::Result => result = Some(map.next_value::<Option<String>>()?),
                Field::Comment if comment.is_some() => return Err(A::Error::duplicate_field("comment")),
                Field::Comment => comment = Some(map.next_value::<Option<String>>()?),
                Field::Nodes if nodes_read => return Err(A::Error::duplicate_field("nodes")),
                Field::Nodes => {
                    map.next_value_seed(&mut nodes)?;
                    nodes_read = true;
                }
                Field::Other => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        let bad = nodes.bad;
        game.tags =
            tags.unwrap_or_default().into_iter().map(|(name, value)| (Cow::Owned(name), value)).collect();
        Ok(Built { game, fen: fen.flatten(), result: result.flatten(), comment: comment.flatten(), bad })
    }
}

/// Adds a record's nodes to its game as they are read.
struct Nodes<'g> {
    game: &'g mut Game,
    /// JSON node ids to tree nodes; a parent is listed before its children.
    ids: std::collections::HashMap<usize, u32>,
    bad: Option<BadRecord>,
    line: u32,
}

impl Nodes<'_> {
    /// Adds `node` to the tree, unless a node before could not be added.
    fn add(&mut self, node: OwnedNode) {
        if self.bad.is_none()
            && let Err(bad) = self.try_add(node)
        {
            self.bad = Some(bad);
        }
    }

    fn try_add(&mut self, node: OwnedNode) -> Result<(), BadRecord> {
        let tree = &mut self.game.moves;
        if self.ids.is_empty() {
            self.ids.insert(0, tree.root());
        }
        let parent =
            *self.ids.get(&node.parent).ok_or(BadRecord::Parent { node: node.id, parent: node.parent })?;
        let text = match (node.mv, node.text) {
            (Some(m), _) => {
                let not_a_move = || BadRecord::NotAMove { node: node.id, text: m.clone() };
                MoveText::Coords(m.parse().map_err(|_| not_a_move())?)
            }
            (None, Some(t)) => MoveText::Text(t.as_str().into()),
            (None, None) => return Err(BadRecord::Empty(node.id)),
        };
        let id = tree.add_child(parent, RecordedMove { text, at: Span { line: self.line, column: 1 } });
        if self.ids.insert(node.id, id).is_some() {
            return Err(BadRecord::Twice(node.id));
        }
        if let Some(c) = &node.comment {
            tree.set_comment(id, c);
        }
        if let Some(c) = &node.comment_before {
            tree.set_comment_before(id, c);
        }
        if !node.nags.is_empty() {
            tree.set_nags(id, &node.nags);
        }
        Ok(())
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for &mut Nodes<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for &mut Nodes<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(node) = seq.next_element::<OwnedNode>()? {
            self.add(node);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_whose_comment_holds_an_evaluation_have_it_and_reading_ignores_it() {
        let record =
            &crate::formats::pgn::read("1. h2e2 {好棋 +0.38/19} h9g7 {[%eval #-3]} 2. h0g2 {中局} *")[0];
        let line = write(record);
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        let evals: Vec<String> = value["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|node| node.get("eval").map_or("-".to_string(), |e| e.to_string()))
            .collect();
        assert_eq!(evals, [r#"{"cp":38,"depth":19}"#, r#"{"mate":-3}"#, "-"]);
        // Written as `Evaluation::json` writes it.
        assert!(line.contains(r#""nags":[],"eval":{"cp":38,"depth":19}}"#), "{line}");
        // Read back: the comments are kept, an `eval` key is not read (one
        // that says otherwise than the comment changes nothing).
        let edited = line.replacen(r#""eval":{"cp":38,"depth":19}"#, r#""eval":{"cp":-500}"#, 1);
        let back = &read(&edited)[0];
        let tree = back.tree();
        let comments: Vec<_> = tree.main_line().map(|id| tree.node(id).comment()).collect();
        assert_eq!(comments, [Some("好棋 +0.38/19"), Some("[%eval #-3]"), Some("中局")]);
        assert!(write(back).contains(r#""eval":{"cp":38,"depth":19}"#));
    }
}

//! `qipu explore INDEX --format html`: one self-contained page (inline
//! CSS, SVG and script; nothing fetched) that shows the explored position
//! on the board of [`svg_frame`] and lets the reader click through the
//! tree of moves played from it.
//!
//! qipu computes every figure: the page embeds the explorer's answer
//! ([`Index::explore`]) for the position asked and for the positions after
//! its moves, a tree built best first (the most played move not yet
//! expanded next) down to `depth` plies, expanding only moves played in at
//! least `min_games` games, until `max_nodes` positions are held. The
//! script only shows them. A position reached by two move orders is one
//! node.
//!
//! The data is one JSON object in a `<script type="application/json"
//! id="qp-explore">` element, made safe there by
//! [`script_json`](qipu::formats::html::script_json):
//!
//! ```json
//! {"index":"games.qidx","mirror":false,"notation":"chinese","depth":6,"min_games":2,"max_nodes":500,
//!  "nodes":[{"f":"FEN","g":1413,"w":3,"d":0,"l":0,"s":1.0,"y":1989.0,"e":0,
//!            "m":[{"t":"炮二平五","i":"h2e2","g":806,"w":3,"d":0,"l":0,"s":1.0,"y":1989.0,"b":0,"p":0,"c":1}]}],
//!  "games":[{"s":"source","n":1,"r":"Red","k":"Black","e":"Event","d":"Date","x":"1-0"}]}
//! ```
//!
//! A node: `f` its FEN, `g` its games, `w` Red's wins, `d` draws, `l`
//! Red's losses, `s` Red's score (0 to 1, `null` when no game has a
//! result), `y` the mean year (`null` when none is known), `e` the games
//! that end there, `m` its moves, the most played first. A move: `t` in
//! the page's notation, `i` in ICCS, the same figures, `b` its best-known
//! game (in `games`) and `p` the ply it is played at in that game, then
//! `c` the node it leads to, or, when it is not expanded, `f` the FEN
//! after it. A game: `s` its source, `n` its number in it from 1, `r` and
//! `k` the players, `e` the event, `d` the date, `x` the result (each
//! `null` when the game has no such tag).

use std::collections::{BinaryHeap, HashMap};
use std::io;

use qipu::diagram::svg::{SvgStyle, svg_frame};
use qipu::formats::html::script_json;
use qipu::formats::markup::escape;
use qipu::index::{Explored, Hit, Index, Tally};
use qipu::notation::Notation;
use qipu::{Move, Position};
use serde_json::{Value, json};

/// How far the page's tree goes.
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// Moves are listed down to this many plies after the position asked.
    pub depth: usize,
    /// A move is expanded only when played in at least this many games.
    pub min_games: u64,
    /// At most this many positions are held.
    pub max_nodes: usize,
}

/// A position of the tree.
struct Node {
    pos: Position,
    ply: usize,
    explored: Explored,
    /// The node each move leads to, when expanded.
    children: Vec<Option<usize>>,
}

/// The placement and the side to move: what makes two positions one node.
fn key(pos: &Position) -> String {
    pos.fen().split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// The tree of explored positions from `root`.
fn tree(index: &Index, root: &Position, mirror: bool, limits: &Limits) -> io::Result<Vec<Node>> {
    let explore = |pos: &Position| index.explore(pos.board(), pos.turn(), mirror);
    let mut nodes = vec![Node { pos: root.clone(), ply: 0, explored: explore(root)?, children: Vec::new() }];
    nodes[0].children = vec![None; nodes[0].explored.moves.len()];
    let mut seen: HashMap<String, usize> = HashMap::from([(key(root), 0)]);
    // Moves waiting to be expanded: the most played first, then the first
    // met (a larger negated sequence number).
    let mut waiting: BinaryHeap<(u64, i64, usize, usize)> = BinaryHeap::new();
    let mut met: i64 = 0;
    let mut offer = |waiting: &mut BinaryHeap<_>, nodes: &[Node], at: usize| {
        let node: &Node = &nodes[at];
        if node.ply + 1 >= limits.depth {
            return;
        }
        for (k, c) in node.explored.moves.iter().enumerate() {
            if c.tally.games >= limits.min_games.max(1) {
                met += 1;
                waiting.push((c.tally.games, -met, at, k));
            }
        }
    };
    offer(&mut waiting, &nodes, 0);
    while let Some((_, _, at, k)) = waiting.pop() {
        if nodes.len() >= limits.max_nodes {
            break;
        }
        let mut pos = nodes[at].pos.clone();
        let _ = pos.play_unchecked(nodes[at].explored.moves[k].mv);
        let key = key(&pos);
        if let Some(&known) = seen.get(&key) {
            nodes[at].children[k] = Some(known);
            continue;
        }
        let explored = explore(&pos)?;
        let children = vec![None; explored.moves.len()];
        let id = nodes.len();
        let ply = nodes[at].ply + 1;
        nodes.push(Node { pos, ply, explored, children });
        nodes[at].children[k] = Some(id);
        seen.insert(key, id);
        offer(&mut waiting, &nodes, id);
    }
    Ok(nodes)
}

/// `x` rounded to `places` decimals.
fn rounded(x: Option<f64>, places: i32) -> Value {
    let scale = 10f64.powi(places);
    x.map_or(Value::Null, |x| json!((x * scale).round() / scale))
}

fn figures(value: &mut serde_json::Map<String, Value>, t: &Tally) {
    value.insert("g".into(), t.games.into());
    value.insert("w".into(), t.red_wins.into());
    value.insert("d".into(), t.draws.into());
    value.insert("l".into(), t.black_wins.into());
    value.insert("s".into(), rounded(t.red_score(), 4));
    value.insert("y".into(), rounded(t.mean_year(), 1));
}

/// The best-known games, each once.
#[derive(Default)]
struct Games {
    listed: Vec<Value>,
    by_game: HashMap<(String, u32), usize>,
}

impl Games {
    fn of(&mut self, index: &Index, hit: &Hit) -> io::Result<usize> {
        let info = index.game(hit);
        let key = (info.source.clone(), info.index);
        if let Some(&k) = self.by_game.get(&key) {
            return Ok(k);
        }
        let tags = index.tags(hit)?;
        let tag = |n: &str| tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(n)).map(|(_, v)| v.clone());
        self.listed.push(json!({
            "s": info.source,
            "n": info.index + 1,
            "r": tag("Red"),
            "k": tag("Black"),
            "e": tag("Event"),
            "d": tag("Date"),
            "x": info.result.as_str(),
        }));
        self.by_game.insert(key, self.listed.len() - 1);
        Ok(self.listed.len() - 1)
    }
}

/// The page's data: one JSON object (see the module's docs).
pub fn data(
    index: &Index,
    index_name: &str,
    root: &Position,
    mirror: bool,
    notation: Notation,
    notation_name: &str,
    limits: &Limits,
) -> io::Result<Value> {
    let nodes = tree(index, root, mirror, limits)?;
    let mut games = Games::default();
    let mut listed = Vec::with_capacity(nodes.len());
    for node in &nodes {
        let mut moves = Vec::with_capacity(node.explored.moves.len());
        for (c, child) in node.explored.moves.iter().zip(&node.children) {
            let mut value = serde_json::Map::new();
            let text: String = notation.write(&node.pos, c.mv).unwrap_or_else(|_| c.mv.to_string());
            value.insert("t".into(), text.into());
            value.insert("i".into(), iccs(c.mv).into());
            figures(&mut value, &c.tally);
            value.insert("b".into(), games.of(index, &c.best)?.into());
            value.insert("p".into(), c.best.ply.into());
            match child {
                Some(id) => {
                    value.insert("c".into(), (*id).into());
                }
                None => {
                    let mut after = node.pos.clone();
                    let _ = after.play_unchecked(c.mv);
                    value.insert("f".into(), after.fen().into());
                }
            }
            moves.push(Value::Object(value));
        }
        let mut value = serde_json::Map::new();
        value.insert("f".into(), node.pos.fen().into());
        figures(&mut value, &node.explored.total);
        value.insert("e".into(), node.explored.ended.games.into());
        value.insert("m".into(), moves.into());
        listed.push(Value::Object(value));
    }
    Ok(json!({
        "index": index_name,
        "mirror": mirror,
        "notation": notation_name,
        "depth": limits.depth,
        "min_games": limits.min_games,
        "max_nodes": limits.max_nodes,
        "nodes": listed,
        "games": games.listed,
    }))
}

/// A move in lower-case ICCS coordinates (`h2e2`), as the board's script
/// reads them.
fn iccs(m: Move) -> String {
    m.to_string().to_ascii_lowercase()
}

/// The page: `data` (from [`data`]) shown on a board, titled `title`.
pub fn page(data: &Value, title: &str) -> String {
    let data = script_json(&data.to_string());
    let mut out = String::with_capacity(24_000 + data.len());
    out.push_str("<!DOCTYPE html>\n<html lang=\"zh\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"generator\" content=\"qipu\">\n<title>");
    out.push_str(&escape(title));
    out.push_str("</title>\n<style>\n");
    out.push_str(include_str!("explore_html.css"));
    out.push_str("</style>\n</head>\n<body>\n<main>\n<div id=\"qp-left\">\n<div id=\"qp-board\">");
    out.push_str(&svg_frame(&SvgStyle::default()));
    out.push_str("</div>\n");
    out.push_str(concat!(
        "<div id=\"qp-controls\">",
        "<button id=\"qp-back\" title=\"back (ArrowLeft)\">\u{25c0} back</button> ",
        "<button id=\"qp-root\" title=\"the position asked (Home)\">|\u{25c0}</button></div>\n",
        "<div id=\"qp-fen-row\"><label for=\"qp-fen\">FEN</label> ",
        "<input id=\"qp-fen\" readonly spellcheck=\"false\"></div>\n</div>\n",
        "<div id=\"qp-side\">\n<nav id=\"qp-path\" aria-label=\"moves played\"></nav>\n",
        "<div id=\"qp-summary\"></div>\n<div id=\"qp-unexpanded\" hidden></div>\n",
        "<table id=\"qp-table\"><thead><tr><th>move</th><th>games</th><th>1-0</th>",
        "<th>draws</th><th>0-1</th><th>Red</th><th>year</th><th>best-known game</th></tr></thead>",
        "<tbody></tbody></table>\n",
        "<p id=\"qp-help\">Click a move, or \u{2191} \u{2193} to choose one and \u{2192} or Enter to ",
        "play it; \u{2190} back, Home to the start.</p>\n</div>\n</main>\n",
    ));
    out.push_str("<script type=\"application/json\" id=\"qp-explore\">");
    out.push_str(&data);
    out.push_str("</script>\n<script>\n");
    out.push_str(include_str!("explore_html.js"));
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

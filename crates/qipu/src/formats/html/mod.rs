//! A game viewer in one self-contained HTML page: the board (inline SVG,
//! [`diagram::svg::svg_frame`](crate::diagram::svg::svg_frame), both ways up),
//! the tags, the move list with comments and variations, stepped with the
//! arrow keys or by clicking a move, or played a move a second (▷ play or
//! the key `p`); the FEN of the position shown with a button that copies
//! it; a badge, with a way back, when the position is off the main line; a
//! chooser and a search box over it when the page holds several games.
//! Nothing is fetched: the style, the script and every game's data are
//! inside the page.
//!
//! qipu computes every position: each game's data ([`Game`], written by
//! [`game`]) holds its move tree with the FEN after each move, and the
//! page's script only shows them. A move that does not replay ends its
//! line: the page shows the game up to the last move that replayed and
//! marks where and why it stops.
//!
//! A page holds every game it is given, each game's data in a
//! `<script type="application/json">` element read when the game is
//! chosen: about 100 bytes a move (a 100-ply game about 10 KB), so a page
//! of 1,000 games is about 10 MB.
//!
//! ```
//! use qipu::formats::{html, pgn};
//! use qipu::notation::{Notation, chinese::Style};
//! let record = &pgn::read("[Red \"许银川\"]\n1. h2e2 h9g7 (1... b9c7) 2. h0g2 *")[0];
//! let game = html::game(record, Notation::Chinese(Style::Simplified));
//! assert!(game.data.contains(r#""t":"炮二平五""#));
//! let page = html::page(&[game], "许银川");
//! assert!(page.starts_with("<!DOCTYPE html>") && page.contains("<title>许银川</title>"));
//! ```

mod data;

use crate::diagram::svg::{SvgStyle, svg_frame};
use crate::formats::markup::escape;
use crate::notation::Notation;
use crate::record::Record;

/// A JSON text made safe to stand inside an HTML `<script>` element, as
/// the viewer page's data is written: `<`, `>`, `&` (so no `</script>` or
/// `<!--` ever appears), U+2028 and U+2029 written as `\u` escapes. These
/// characters can only stand inside the text's strings, where the escape
/// means the same character: the value read back is the same.
///
/// ```
/// use qipu::formats::html::script_json;
/// let json = "{\"red\":\"</script><script>alert(1)</script> & \u{2028}\"}";
/// assert_eq!(script_json(json), r#"{"red":"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e \u0026 \u2028"}"#);
/// ```
pub fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + json.len() / 16);
    for c in json.chars() {
        // C0 control characters stand in a JSON text only as white space
        // between its tokens (inside a string they are escaped already):
        // they are left as they are.
        if data::escaped_in_script(c) && c > '\u{1f}' {
            use std::fmt::Write;
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// One game's part of a viewer page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The game's data: one JSON object (tags, result, start FEN, the
    /// replay's error, and the move tree with each move's FEN), safe to
    /// stand inside a `<script>` element: `<`, `>`, `&`, U+2028 and U+2029
    /// are written as `\u` escapes.
    pub data: String,
    /// The game's name in the chooser: its title, else its players, event
    /// and date, and its result; empty when it has none of these tags.
    pub label: String,
}

/// The part of a page for `record`, its moves in `notation`.
pub fn game(record: &Record, notation: Notation) -> Game {
    Game { data: data::game_json(record, notation), label: label(record) }
}

/// The name of a game in the chooser.
fn label(record: &Record) -> String {
    let tag = |name: &str| record.tag(name).map(str::trim).filter(|v| !v.is_empty());
    let mut parts: Vec<String> = Vec::new();
    if let Some(title) = tag("Title") {
        parts.push(title.to_string());
    } else {
        match (tag("Red"), tag("Black")) {
            (Some(red), Some(black)) => parts.push(format!("{red} – {black}")),
            (Some(one), None) | (None, Some(one)) => parts.push(one.to_string()),
            (None, None) => {}
        }
        parts.extend(["Event", "Date"].iter().filter_map(|n| tag(n)).map(str::to_string));
    }
    if let Some(result) = record.result().map(|r| r.as_str()).filter(|r| *r != "*") {
        parts.push(result.to_string());
    }
    parts.join(", ")
}

/// A viewer page of `games`, in UTF-8, titled `title` (else its first
/// game's name).
pub fn page(games: &[Game], title: &str) -> String {
    let data: usize = games.iter().map(|g| g.data.len() + g.label.len() + 80).sum();
    let mut out = String::with_capacity(24_000 + data);
    let title = if title.trim().is_empty() {
        games.first().map(|g| g.label.as_str()).filter(|l| !l.is_empty()).unwrap_or("qipu")
    } else {
        title
    };
    out.push_str("<!DOCTYPE html>\n<html lang=\"zh\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"generator\" content=\"qipu\">\n<title>");
    out.push_str(&escape(title));
    out.push_str("</title>\n<style>\n");
    out.push_str(include_str!("viewer.css"));
    out.push_str("</style>\n</head>\n<body>\n");
    if games.len() > 1 {
        out.push_str("<header><select id=\"qp-games\" aria-label=\"game\">\n");
        for (i, game) in games.iter().enumerate() {
            let label = if game.label.is_empty() { "game" } else { game.label.as_str() };
            out.push_str(&format!("<option>{}. {}</option>\n", i + 1, escape(label)));
        }
        out.push_str(concat!(
            "</select>\n<input id=\"qp-search\" type=\"search\" placeholder=\"search the games\" ",
            "aria-label=\"search the games (players, event, date…)\" autocomplete=\"off\"> ",
            "<span id=\"qp-found\" aria-live=\"polite\"></span></header>\n",
        ));
    }
    out.push_str("<main>\n<div id=\"qp-left\">\n<div id=\"qp-board\">");
    out.push_str(&svg_frame(&SvgStyle::default()));
    out.push_str("</div>\n<template id=\"qp-board-other\">");
    out.push_str(&svg_frame(&SvgStyle { flip: true, ..SvgStyle::default() }));
    out.push_str("</template>\n");
    out.push_str(concat!(
        "<div id=\"qp-controls\">",
        "<button data-key=\"Home\" title=\"Home\">|\u{25c0}</button> ",
        "<button data-key=\"ArrowLeft\" title=\"Left\">\u{25c0}</button> ",
        "<button data-key=\"ArrowRight\" title=\"Right\">\u{25b6}</button> ",
        "<button data-key=\"End\" title=\"End\">\u{25b6}|</button> ",
        "<button id=\"qp-play\" title=\"play the line (p)\" aria-label=\"play\" aria-pressed=\"false\">",
        "\u{25b7} play</button> ",
        "<button id=\"qp-flip\" title=\"flip the board\">\u{21c5}</button></div>\n",
        "<div id=\"qp-in-var\" hidden><span>in a variation</span> ",
        "<button id=\"qp-main\" title=\"back to where the variation leaves the main line\">",
        "\u{21a9} main line</button></div>\n",
        "<div id=\"qp-status\"></div>\n<div id=\"qp-comment\"></div>\n",
        "<div id=\"qp-fen-row\"><label for=\"qp-fen\">FEN</label> ",
        "<input id=\"qp-fen\" readonly spellcheck=\"false\"> ",
        "<button id=\"qp-copy\" title=\"copy the FEN\">copy</button> ",
        "<span id=\"qp-copied\" aria-live=\"polite\"></span></div>\n</div>\n",
        "<div id=\"qp-side\">\n<div id=\"qp-error\" hidden></div>\n<table id=\"qp-tags\"></table>\n",
        "<div id=\"qp-moves\"></div>\n</div>\n</main>\n",
    ));
    for game in games {
        out.push_str("<script type=\"application/json\" class=\"qp-game\">");
        out.push_str(&game.data);
        out.push_str("</script>\n");
    }
    out.push_str("<script>\n");
    out.push_str(include_str!("viewer.js"));
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

/// A viewer page of one game, its moves in `notation` (what
/// [`write()`](super::write()) writes for
/// [`WriteFormat::Html`](super::write::WriteFormat::Html)).
pub fn write(record: &Record, notation: Notation) -> String {
    page(&[game(record, notation)], "")
}

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

use serde::Serialize;

use crate::record::{MoveText, Record, Resolution};

#[derive(Serialize)]
struct JsonRecord<'a> {
    tags: &'a [(String, String)],
    fen: String,
    result: Option<&'static str>,
    comment: Option<&'a str>,
    nodes: Vec<JsonNode<'a>>,
}

#[derive(Serialize)]
struct JsonNode<'a> {
    id: usize,
    parent: usize,
    #[serde(rename = "move")]
    mv: Option<String>,
    text: String,
    comment: Option<&'a str>,
    comment_before: Option<&'a str>,
    nags: &'a [u8],
}

/// Writes a record as one line of JSON, given what replaying it settled.
pub fn write(record: &Record, resolution: &Resolution) -> String {
    let tree = &record.tree;
    let nodes = tree
        .depth_first()
        .skip(1)
        .map(|id| {
            let node = tree.node(id);
            let mv = node.mv.as_ref().expect("a move node");
            JsonNode {
                id: id.index(),
                parent: node.parent.expect("a move has a parent").index(),
                mv: resolution.move_of(id).map(|m| m.to_string()),
                text: match &mv.text {
                    MoveText::Text(t) => t.to_string(),
                    MoveText::Coords(m) => m.to_string(),
                },
                comment: node.comment(),
                comment_before: node.comment_before(),
                nags: node.nags(),
            }
        })
        .collect();
    let json = JsonRecord {
        tags: &record.tags,
        fen: resolution.start.fen(),
        result: record.result().map(|r| r.as_str()),
        comment: tree.node(tree.root()).comment(),
        nodes,
    };
    serde_json::to_string(&json).expect("records serialize")
}

//! Readers and writers: round trips, robustness, properties, the batch pipeline and typed
//! errors, and the formats checked against other programs' readers.

#[path = "../common/mod.rs"]
mod common;

mod batch;
mod ccbridge_cchess;
mod errors;
mod online_formats;
mod pgn_robustness;
mod pgn_roundtrip;
mod properties;
mod quoted_blocks;
mod san_dialects;
mod visitor;
mod vschess_formats;
mod writers_keep;
mod zip_properties;

//! What is done with records: FEN trails (and their lines as
//! `qipu fen` writes them), statistics (and their
//! page of charts), openings, opening suites, and readying records to be
//! written.

pub mod annotate;
pub(crate) mod chart;
pub mod ecco;
#[cfg(feature = "serde")]
pub mod fen_lines;
pub mod openings;
pub mod prepare;
pub mod stats;
pub mod stats_html;
pub mod suite;
pub mod trail;

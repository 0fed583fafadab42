//! What is done with records: replay, FEN trails, statistics, openings,
//! opening suites, and readying records to be written.

pub mod ecco;
pub mod openings;
pub mod prepare;
pub mod replay;
pub mod stats;
pub mod suite;
pub mod trail;

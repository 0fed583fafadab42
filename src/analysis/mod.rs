//! What is done with records: replay, FEN trails, statistics, openings
//! and opening suites.

pub mod ecco;
pub mod openings;
pub mod replay;
pub mod stats;
pub mod suite;
pub mod trail;

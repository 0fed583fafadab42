//! What is done with records: replay, and (as they are added) FEN trails,
//! statistics and openings.

pub mod ecco;
pub mod openings;
pub mod replay;
pub mod stats;
pub mod suite;

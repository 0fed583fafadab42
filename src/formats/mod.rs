//! File formats: one module per format, each a reader (bytes -> records)
//! and, where qipu writes the format, a writer.

pub mod encoding;
pub mod pgn;

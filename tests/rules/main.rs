//! The rules: move generation, perft, notation, FEN, repetition rulings and ECCO codes, on
//! hand-built positions and against recorded oracles (Fairy-Stockfish, ccboard, xqbase).

#[path = "../common/mod.rs"]
mod common;

mod ecco_xqbase;
mod fen_robustness;
mod fen_trail_pyffish;
mod movegen_pyffish;
mod notation;
mod notation_pyffish;
mod notation_robustness;
mod notation_roundtrip;
mod perft;
mod playouts;
mod rules;
mod rulings_fixture;
mod rulings_generated;
mod rulings_oracles;

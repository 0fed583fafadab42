//! qipu (棋谱) reads, checks and converts Xiangqi (Chinese chess) game
//! records.
//!
//! Records are read from PGN, plain text, XQF, DhtmlXQ, 象棋桥 CBR, CBL
//! and CBF, and WXF game files ([`formats`]) into one model ([`record`]), replayed move by move
//! ([`analysis::replay`]) and written as PGN, JSON, XQF or DhtmlXQ.
//!
//! Underneath is the rules engine that every record is replayed through: the board vocabulary ([`Square`], [`Piece`], [`Board`]), FEN,
//! [`Setup`] (any placement) and [`Position`] (validated), legal move
//! generation with every rule of play (palace, river, elephant eye, horse
//! leg, cannon screen, flying general), checkmate and stalemate (both a
//! loss for the side to move), the natural move limit, repetition with
//! perpetual check ([`History`]), Zobrist hashing and [`perft`].
//!
//! Data flow of the whole tool, as the layers are added:
//!
//! ```text
//! bytes -> formats::detect -> decode text -> parse records (move text)
//!       -> analysis::replay (notation resolves each move on a rules::Position)
//!       -> writers, FEN trails, statistics, openings
//! ```
//!
//! Layers only depend downwards: `rules` <- `notation` <- `record` <-
//! `formats` <- `analysis` <- `cli`.
//!
//! ```
//! use qipu::{Position, perft};
//! let pos = Position::start();
//! assert_eq!(pos.legal_moves().len(), 44);
//! assert_eq!(perft(&pos, 3), 79_666);
//! ```

#![warn(missing_docs, missing_debug_implementations)]

pub mod analysis;
pub mod batch;
pub mod formats;
pub mod notation;
pub mod record;
pub mod rules;

pub use rules::{
    Board, Color, File, FromFenError, History, Illegality, Move, MoveList, Outcome, Piece, Position,
    PositionError, Rank, Repetition, Role, Setup, Square, divide, fen, perft, zobrist,
};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

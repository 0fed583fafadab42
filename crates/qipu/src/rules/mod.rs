//! The rules of Xiangqi: board vocabulary, positions, legal moves, outcomes
//! and hashing. Knows nothing of notation or files.

mod arbiter;
mod board;
pub mod fen;
mod history;
mod illegality;
pub mod judge;
mod material;
mod movegen;
mod moves;
mod perft;
mod piece;
mod position;
mod setup;
mod square;
pub(crate) mod tables;
pub mod zobrist;

pub use arbiter::Arbiter;
pub use board::{Board, SquareSet};
pub use fen::ParseFenError;
pub use history::{COUNTED_CHECKS, History, Repetition};
pub use illegality::Illegality;
pub use judge::{RuleSet, Ruling, Verdict, Violation};
pub use moves::{Move, MoveList, ParseIccsError};
pub use perft::{divide, perft};
pub use piece::{Color, Piece, Role};
pub use position::{
    FromFenError, IllegalMoveError, NATURAL_MOVE_LIMIT, Outcome, Position, PositionError, Undo,
};
pub use setup::Setup;
pub use square::{File, ParseSquareError, Rank, Square};

//! The rules of Xiangqi: board vocabulary, positions, legal moves, outcomes
//! and hashing. Knows nothing of notation or files.

mod board;
pub mod fen;
mod history;
mod illegality;
mod movegen;
mod moves;
mod perft;
mod piece;
mod position;
mod setup;
mod square;
pub(crate) mod tables;
pub mod zobrist;

pub use board::{Board, SquareSet};
pub use fen::ParseFenError;
pub use history::{History, Repetition};
pub use illegality::Illegality;
pub use moves::{Move, MoveList, ParseMoveError};
pub use perft::{divide, perft};
pub use piece::{Color, Piece, Role};
pub use position::{
    FromFenError, IllegalMoveError, NATURAL_MOVE_LIMIT, Outcome, Position, PositionError, Undo,
};
pub use setup::Setup;
pub use square::{File, ParseSquareError, Rank, Square};

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
pub use board::Board;
pub use board::SquareSet;
pub use fen::ParseFenError;
pub use history::{History, Repetition};
pub use illegality::Illegality;
pub use judge::{RuleSet, Ruling, Verdict, Violation};
pub use moves::ParseIccsError;
pub use moves::{Move, MoveList};
pub use perft::{divide, perft};
pub use piece::{Color, Piece, Role};
pub(crate) use position::NATURAL_MOVE_LIMIT;
pub use position::Undo;
pub use position::{FromFenError, IllegalMoveError, Outcome, Position, PositionError};
pub use setup::Setup;
pub use square::ParseSquareError;
pub use square::{File, Rank, Square};

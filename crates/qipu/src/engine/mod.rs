//! Xiangqi engines as processes of their own, searching the positions of
//! games: UCI engines (Pikafish; Fairy-Stockfish, told by its
//! `UCI_Variant` option, set to `xiangqi`) and UCCI engines (ElephantEye),
//! the protocol given or told from the engine's answer.
//!
//! - [`protocol`]: the lines engines read and write, as text;
//! - [`Engine`]: one started engine, searching one position at a time,
//!   with a deadline on every answer;
//! - [`Pool`]: several engines searching the main lines of games in
//!   parallel, each game annotated ([`crate::analysis::annotate`]) and
//!   handed back in the order given; an engine that fails is started
//!   again and the position tried once more;
//! - `cache` (with the `obs` feature, which brings SQLite): searches kept
//!   in a file, so that a position is searched once.
//!
//! Engine processes never outlive qipu: each is killed when its [`Engine`]
//! is dropped, and on Linux when the thread that started it ends.

#[cfg(feature = "obs")]
pub mod cache;
mod pool;
mod process;
pub mod protocol;
mod session;

pub use pool::SearchFailure;
pub use pool::{Analysed, Counts, Pool, PoolConfig, SearchStore, StoreTrouble};
pub use session::{Engine, EngineConfig, Line, Search};

/// Why an engine gave no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error("cannot start `{command}`: {reason}")]
    Start {
        /// The command.
        command: String,
        /// Why.
        reason: String,
    },
    /// The engine ended (its exit status, when known).
    #[error("the engine stopped{}", .0.as_ref().map(|s| format!(" ({s})")).unwrap_or_default())]
    Died(Option<String>),
    /// No answer came in the time allowed for the handshake.
    #[error("no answer in time")]
    Timeout,
    /// A search took longer than the timeout.
    #[error("no best move within {} ms", .0.as_millis())]
    Hung(std::time::Duration),
    /// The engine wrote what cannot be read.
    #[error("unreadable answer: {0}")]
    Unreadable(String),
    /// The engine refused the position.
    #[error("refused the position: {0}")]
    Refused(String),
    /// The engine answered neither protocol.
    #[error("{0}")]
    Handshake(String),
}

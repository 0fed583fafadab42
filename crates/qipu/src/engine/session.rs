//! A started engine: the handshake (the protocol told from its answer when
//! not given), its options set, and searches of positions.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::EngineError;
use super::process::Process;
use super::protocol::{self, BestMove, Coordinates, Info, Limit, Protocol};
use crate::{Move, Position};

/// The most lines an engine may write before its `uciok` (`ucciok`): more
/// is not an engine answering the protocol (real ones write a few hundred
/// at most).
const HANDSHAKE_LINES: usize = 10_000;

/// How to start an engine and what to ask of it: one for every engine of
/// a pool.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The protocol; `None`: UCI when the engine answers `uci`, else UCCI.
    pub protocol: Option<Protocol>,
    /// The search limit.
    pub limit: Limit,
    /// Hash table size in MB (`Hash`, UCCI `hashsize`), when given.
    pub hash_mb: Option<u32>,
    /// Search threads (`Threads`), when given.
    pub threads: Option<u32>,
    /// Lines searched (`MultiPV`; UCI only); 1 is the usual search.
    pub multipv: u32,
    /// Other options, set in order (`setoption`).
    pub options: Vec<(String, String)>,
    /// The longest a search may take before the engine is deemed hung.
    pub timeout: Duration,
    /// The longest the handshake (and `isready`) may take.
    pub(crate) handshake_timeout: Duration,
}

impl EngineConfig {
    /// A configuration for `command` searching to `limit`, everything
    /// else as the engine has it; the timeout as `default_timeout`.
    pub fn new(command: Vec<String>, limit: Limit) -> EngineConfig {
        EngineConfig {
            command,
            protocol: None,
            limit,
            hash_mb: None,
            threads: None,
            multipv: 1,
            options: Vec::new(),
            timeout: default_timeout(limit),
            handshake_timeout: Duration::from_secs(10),
        }
    }

    /// What, besides the engine's name, makes its answers what they are:
    /// the protocol, the options, the lines and the limit (the key of the
    /// cache of analyses, with the `obs` feature).
    pub fn setup(&self) -> String {
        let mut s = format!("{}", self.limit);
        if let Some(h) = self.hash_mb {
            s += &format!(" hash={h}");
        }
        if let Some(t) = self.threads {
            s += &format!(" threads={t}");
        }
        if self.multipv > 1 {
            s += &format!(" multipv={}", self.multipv);
        }
        for (n, v) in &self.options {
            s += &format!(" {n}={v}");
        }
        s
    }
}

/// The time a search may take before the engine is deemed hung: ten times
/// a move time plus a second; two minutes for a depth or node limit.
pub(crate) fn default_timeout(limit: Limit) -> Duration {
    match limit {
        Limit::MoveTime(ms) => Duration::from_millis(ms.saturating_mul(10).saturating_add(1000)),
        Limit::Depth(_) | Limit::Nodes(_) => Duration::from_secs(120),
    }
}

pub use crate::analysis::annotate::{Line, Search};

/// A running engine after its handshake.
///
/// ```no_run
/// use qipu::engine::{Engine, EngineConfig, protocol::Limit};
/// let config = EngineConfig::new(vec!["pikafish".into()], Limit::Depth(12));
/// let mut engine = Engine::start(&config)?;
/// let search = engine.search(&qipu::Position::start())?;
/// println!("{} {:?}", engine.name(), search.best().score);
/// # Ok::<(), qipu::engine::EngineError>(())
/// ```
pub struct Engine {
    process: Process,
    protocol: Protocol,
    coordinates: Coordinates,
    name: String,
    config: Arc<EngineConfig>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("name", &self.name)
            .field("protocol", &self.protocol)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// Starts the engine of `config` and makes it ready: the handshake
    /// (trying UCI, then UCCI, when the protocol is not given), its
    /// options, `isready`.
    pub fn start(config: &EngineConfig) -> Result<Engine, EngineError> {
        let config = Arc::new(config.clone());
        match config.protocol {
            Some(p) => Engine::start_as(config, p),
            None => match Engine::start_as(config.clone(), Protocol::Uci) {
                Ok(engine) => Ok(engine),
                Err(EngineError::Start { command, reason }) => Err(EngineError::Start { command, reason }),
                Err(uci) => Engine::start_as(config, Protocol::Ucci).map_err(|ucci| {
                    EngineError::Handshake(format!("answers neither uci ({uci}) nor ucci ({ucci})"))
                }),
            },
        }
    }

    fn start_as(config: Arc<EngineConfig>, protocol: Protocol) -> Result<Engine, EngineError> {
        let mut process = Process::spawn(&config.command)?;
        process.send(protocol.name())?;
        let deadline = Instant::now() + config.handshake_timeout;
        // Only the options qipu sets by itself are kept.
        let (mut name, mut options) = (None, Vec::new());
        let mut lines = 0;
        loop {
            let line = process.recv(deadline)?;
            if protocol.is_ready_answer(&line) {
                break;
            }
            lines += 1;
            if lines > HANDSHAKE_LINES {
                return Err(EngineError::Handshake(format!(
                    "no {}ok in its first {HANDSHAKE_LINES} lines",
                    protocol.name()
                )));
            }
            if let Some(n) = protocol::parse_id_name(&line) {
                name = Some(n.to_string());
            } else if let Some(o) = protocol::parse_option_name(&line, protocol)
                && ["UCI_Variant", "usebook"].iter().any(|n| o.eq_ignore_ascii_case(n))
                && !options.iter().any(|k: &String| k.eq_ignore_ascii_case(o))
            {
                options.push(o.to_string());
            }
        }
        let offers = |n: &str| options.iter().any(|o| o.eq_ignore_ascii_case(n));
        let mut engine = Engine {
            process,
            protocol,
            coordinates: Coordinates::FromZero,
            name: name.unwrap_or_else(|| config.command[0].clone()),
            config: config.clone(),
        };
        let set = |engine: &mut Engine, n: &str, v: &str| engine.process.send(&protocol.set_option(n, v));
        match protocol {
            Protocol::Uci => {
                // Fairy-Stockfish plays many games; its ranks count from 1.
                if offers("UCI_Variant") {
                    set(&mut engine, "UCI_Variant", "xiangqi")?;
                    engine.coordinates = Coordinates::FromOne;
                }
                if let Some(h) = config.hash_mb {
                    set(&mut engine, "Hash", &h.to_string())?;
                }
                if let Some(t) = config.threads {
                    set(&mut engine, "Threads", &t.to_string())?;
                }
                if config.multipv > 1 {
                    set(&mut engine, "MultiPV", &config.multipv.to_string())?;
                }
            }
            Protocol::Ucci => {
                // A book move comes with the book's weight, not a score.
                if offers("usebook") {
                    set(&mut engine, "usebook", "false")?;
                }
                if let Some(h) = config.hash_mb {
                    set(&mut engine, "hashsize", &h.to_string())?;
                }
                if let Some(t) = config.threads {
                    set(&mut engine, "threads", &t.to_string())?;
                }
            }
        }
        for (n, v) in &config.options {
            set(&mut engine, n, v)?;
        }
        engine.ready()?;
        Ok(engine)
    }

    /// Waits for `readyok`.
    fn ready(&mut self) -> Result<(), EngineError> {
        self.process.send("isready")?;
        let deadline = Instant::now() + self.config.handshake_timeout;
        while self.process.recv(deadline)?.trim() != "readyok" {}
        Ok(())
    }

    /// The engine's name (its `id name`, else its program).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The protocol it speaks.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// How it writes moves.
    pub fn coordinates(&self) -> Coordinates {
        self.coordinates
    }

    /// Tells the engine a new game starts (UCI `ucinewgame`) and waits
    /// until it is ready.
    pub(crate) fn new_game(&mut self) -> Result<(), EngineError> {
        if self.protocol == Protocol::Uci {
            self.process.send("ucinewgame")?;
        }
        self.ready()
    }

    /// Searches `position` to the configured limit: `position fen …`, the
    /// `go` line, and the engine's lines until its best move.
    pub fn search(&mut self, position: &Position) -> Result<Search, EngineError> {
        let protocol = self.protocol;
        self.process.send(&format!("position fen {}", position.fen()))?;
        self.process.send(&self.config.limit.go(protocol))?;
        let deadline = Instant::now() + self.config.timeout;
        // The last scored line of each multipv number (1-based).
        let mut latest: Vec<Option<Info>> = vec![None; self.config.multipv.max(1) as usize];
        let best = loop {
            let line = self.process.recv(deadline).map_err(|e| match e {
                EngineError::Timeout => EngineError::Hung(self.config.timeout),
                e => e,
            })?;
            if let Some(info) = protocol::parse_info(&line, protocol) {
                let k = info.multipv as usize - 1;
                if let Some(slot) = latest.get_mut(k)
                    && !(info.bound && slot.is_some())
                {
                    *slot = Some(info);
                }
                continue;
            }
            if let Some(best) = protocol::parse_bestmove(&line) {
                break best;
            }
            if line.trim_start().starts_with("bestmove") {
                return Err(EngineError::Unreadable(line));
            }
        };
        let best = match best {
            BestMove::Move(m) => {
                Some(self.coordinates.read(&m).filter(|&m| position.is_legal(m)).ok_or_else(|| {
                    EngineError::Unreadable(format!("bestmove {m}: not a legal move in {}", position.fen()))
                })?)
            }
            BestMove::None => None,
        };
        let mut lines = Vec::new();
        for info in latest.into_iter().flatten() {
            let pv = self.legal_prefix(position, &info.pv);
            lines.push(Line { score: info.score, depth: info.depth.unwrap_or(0), pv });
        }
        match (lines.first_mut(), best) {
            (None, _) => Err(EngineError::Refused(match best {
                Some(m) => format!("bestmove {m} with no score"),
                None => "no move and no score".into(),
            })),
            (Some(first), Some(best)) => {
                if first.pv.first() != Some(&best) {
                    first.pv = vec![best];
                }
                Ok(Search { lines })
            }
            (Some(_), None) => Ok(Search { lines }),
        }
    }

    /// The moves of `pv` that are legal one after another from `position`.
    fn legal_prefix(&self, position: &Position, pv: &[String]) -> Vec<Move> {
        let mut pos = position.clone();
        let mut moves = Vec::new();
        for text in pv {
            match self.coordinates.read(text) {
                Some(m) if pos.is_legal(m) => {
                    let _ = pos.play_unchecked(m);
                    moves.push(m);
                }
                _ => break,
            }
        }
        moves
    }
}

//! A progress line on standard error: drawn only when standard error is a
//! terminal and the work has taken more than a second; never into pipes.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Counts inputs and games and redraws one status line now and then.
#[derive(Debug)]
pub struct Progress {
    enabled: bool,
    start: Instant,
    last: Instant,
    drawn: bool,
    inputs_total: usize,
    inputs: usize,
    games: usize,
}

impl Progress {
    /// A progress line for `inputs_total` inputs.
    pub fn new(inputs_total: usize) -> Progress {
        let now = Instant::now();
        Progress {
            enabled: std::io::stderr().is_terminal(),
            start: now,
            last: now,
            drawn: false,
            inputs_total,
            inputs: 0,
            games: 0,
        }
    }

    /// Counts `n` more games.
    pub fn games(&mut self, n: usize) {
        self.games += n;
        self.tick();
    }

    /// Counts one more input done.
    pub fn input_done(&mut self) {
        self.inputs += 1;
        self.tick();
    }

    fn tick(&mut self) {
        if !self.enabled
            || self.start.elapsed() < Duration::from_secs(1)
            || self.last.elapsed() < Duration::from_millis(200)
        {
            return;
        }
        self.last = Instant::now();
        let rate = self.games as f64 / self.start.elapsed().as_secs_f64();
        eprint!(
            "\r{}/{} inputs, {} games ({rate:.0} games/s)\x1b[K",
            self.inputs, self.inputs_total, self.games
        );
        let _ = std::io::stderr().flush();
        self.drawn = true;
    }

    /// Clears the line before the final messages.
    pub fn finish(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[K");
            let _ = std::io::stderr().flush();
            self.drawn = false;
        }
    }
}

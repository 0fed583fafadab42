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

/// The games of a batch command that writes its output and tells its
/// problems on standard error: how many there were, and how many had a
/// problem (an illegal move, a game not written, an unreadable input).
#[derive(Debug)]
pub struct Tally {
    /// Games seen, unreadable inputs counted as one.
    pub games: usize,
    /// Games with a problem.
    pub bad: usize,
    progress: Progress,
}

impl Tally {
    /// A tally with a progress line for `inputs_total` inputs.
    pub fn new(inputs_total: usize) -> Tally {
        Tally { games: 0, bad: 0, progress: Progress::new(inputs_total) }
    }

    /// `n` more games are about to be written.
    pub fn batch(&mut self, n: usize) {
        self.progress.games(n);
    }

    /// One more game; with a problem, it is told.
    pub fn game(&mut self, problem: Option<&str>) {
        self.games += 1;
        if let Some(p) = problem {
            self.bad += 1;
            self.tell(p);
        }
    }

    /// An input from which nothing could be read: one game with a problem.
    pub fn unreadable(&mut self, source: &str, reason: &str) {
        self.game(Some(&format!("{source}: unreadable: {reason}")));
    }

    /// A message on standard error, below a cleared progress line.
    pub fn tell(&mut self, message: &str) {
        self.progress.finish();
        eprintln!("{message}");
    }

    /// One more input done.
    pub fn input_done(&mut self) {
        self.progress.input_done();
    }

    /// Clears the progress line before the summary.
    pub fn finish(&mut self) {
        self.progress.finish();
    }

    /// The exit code: 1 when a game had a problem, else 0.
    pub fn code(&self) -> i32 {
        if self.bad > 0 { 1 } else { 0 }
    }
}

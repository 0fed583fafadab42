//! Warnings told again and again: the text reports tell the first
//! [`SHOWN`] warnings of one message in full and count the others, told at
//! the end of the run in one line (`--all-warnings` tells them all; JSON
//! reports keep every one).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use qipu::batch::{ProblemLine, Severity};

/// How many warnings of one message are told in full.
pub(crate) const SHOWN: usize = 5;

static ALL: AtomicBool = AtomicBool::new(false);

/// Sets whether every warning is told (`--all-warnings`).
pub(crate) fn set_all(all: bool) {
    ALL.store(all, Ordering::Relaxed);
}

/// The warnings of a run, counted by message.
#[derive(Debug, Default)]
pub(crate) struct Repeats {
    /// Each message, in the order first told, and how many times it came.
    seen: Vec<(String, usize)>,
    at: HashMap<String, usize>,
}

impl Repeats {
    /// Counts `problem`; whether to tell it: every error and note, and a
    /// warning among the first [`SHOWN`] of its message.
    pub(crate) fn tell(&mut self, problem: &ProblemLine) -> bool {
        if problem.severity != Severity::Warning || ALL.load(Ordering::Relaxed) {
            return true;
        }
        let i = *self.at.entry(problem.reason.clone()).or_insert_with(|| {
            self.seen.push((problem.reason.clone(), 0));
            self.seen.len() - 1
        });
        self.seen[i].1 += 1;
        self.seen[i].1 <= SHOWN
    }

    /// One line for each message of which some warnings were not told:
    /// `warning: N more like "MESSAGE" not shown`.
    pub(crate) fn untold(&self) -> Vec<String> {
        self.seen
            .iter()
            .filter(|(_, n)| *n > SHOWN)
            .map(|(message, n)| format!("warning: {} more like \"{message}\" not shown", n - SHOWN))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_of_a_message_are_told_then_counted() {
        let mut repeats = Repeats::default();
        let w = |game| ProblemLine::warning("a.pgn", None, Some(game), "cut short");
        let told = (0..8).filter(|&g| repeats.tell(&w(g))).count();
        assert_eq!(told, SHOWN);
        assert!(repeats.tell(&ProblemLine::warning("a.pgn", None, Some(9), "another")));
        assert!(repeats.tell(&ProblemLine::game_error("a.pgn", 9, "cut short")));
        assert_eq!(repeats.untold(), ["warning: 3 more like \"cut short\" not shown"]);
    }
}

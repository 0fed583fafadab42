//! `-q/--quiet`, decided once for the process: when set, commands print
//! only problems and the summary (no progress line, no informational lines).

use std::sync::atomic::{AtomicBool, Ordering};

static QUIET: AtomicBool = AtomicBool::new(false);

/// Sets whether the process is quiet.
pub(crate) fn set(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether the process is quiet (`-q`).
pub(crate) fn on() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// Prints an informational line on standard error, unless `-q` is given.
macro_rules! info {
    ($($arg:tt)*) => {
        if !$crate::cli::quiet::on() {
            eprintln!($($arg)*);
        }
    };
}
pub(crate) use info;

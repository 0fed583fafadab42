//! Whether the command colours what it writes: `--color auto|always|never`,
//! decided once for the process. `auto` colours a stream that is a terminal
//! when the `NO_COLOR` environment variable is unset or empty.

use std::io::IsTerminal;
use std::sync::OnceLock;

/// When to colour output.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour a terminal, unless `NO_COLOR` is set.
    #[default]
    Auto,
    /// Always colour, even into a pipe or a file.
    Always,
    /// Never colour.
    Never,
}

static CHOICE: OnceLock<ColorChoice> = OnceLock::new();

/// Sets the choice for the process (the first call wins; later ones are ignored).
pub(crate) fn set_choice(choice: ColorChoice) {
    let _ = CHOICE.set(choice);
}

/// The choice set, `Auto` when none was.
pub(crate) fn choice() -> ColorChoice {
    CHOICE.get().copied().unwrap_or_default()
}

/// Whether to colour standard output.
pub(crate) fn stdout() -> bool {
    wanted(std::io::stdout().is_terminal())
}

/// Whether to colour standard error.
#[allow(dead_code)] // read by the commands that colour
pub(crate) fn stderr() -> bool {
    wanted(std::io::stderr().is_terminal())
}

fn wanted(terminal: bool) -> bool {
    match choice() {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

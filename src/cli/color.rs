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

/// A problem line (`SOURCE: error: …`) with its severity coloured in the
/// inks of the board diagrams: `error` bold red, `warning` bold yellow,
/// `note` bold. The first severity word of the line is the one coloured; a
/// line without one is returned as it is.
pub(crate) fn problem(line: &str) -> String {
    let found = [(": error: ", "\x1b[1;31m"), (": warning: ", "\x1b[1;33m"), (": note: ", "\x1b[1m")]
        .into_iter()
        .filter_map(|(word, ink)| line.find(word).map(|at| (at, word, ink)))
        .min_by_key(|&(at, ..)| at);
    match found {
        Some((at, word, ink)) => {
            let name = &word[2..word.len() - 2];
            format!("{}: {ink}{name}\x1b[0m: {}", &line[..at], &line[at + word.len()..])
        }
        None => line.to_string(),
    }
}

/// `line` coloured as [`problem`] colours it when `colored`, else as it is.
pub(crate) fn problem_if(colored: bool, line: &str) -> String {
    if colored { problem(line) } else { line.to_string() }
}

#[cfg(test)]
mod tests {
    use super::problem;

    #[test]
    fn the_first_severity_word_is_coloured() {
        assert_eq!(
            problem("a.pgn:1:2: error: game 1: bad"),
            "a.pgn:1:2: \x1b[1;31merror\x1b[0m: game 1: bad"
        );
        assert_eq!(
            problem("a.pgn: warning: game 1: an error: here"),
            "a.pgn: \x1b[1;33mwarning\x1b[0m: game 1: an error: here"
        );
        assert_eq!(problem("3 game(s): 3 valid"), "3 game(s): 3 valid");
    }
}

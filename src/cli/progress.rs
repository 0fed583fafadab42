//! A progress line on standard error: drawn only when standard error is a
//! terminal, `-q` is not given and the work has taken more than a second;
//! never into pipes.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use qipu::batch::{ProblemLine, Status};

use super::output::room;
use super::repeats::Repeats;

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
    /// What the line is about, before the counts (may be empty).
    label: &'static str,
    /// What the command adds after the counts (may be empty).
    note: String,
}

impl Progress {
    /// A progress line for `inputs_total` inputs.
    pub fn new(inputs_total: usize) -> Progress {
        let now = Instant::now();
        Progress {
            enabled: std::io::stderr().is_terminal() && !super::quiet::on(),
            start: now,
            last: now,
            drawn: false,
            inputs_total,
            inputs: 0,
            games: 0,
            label: "",
            note: String::new(),
        }
    }

    /// A progress line for `inputs_total` inputs read for `label`
    /// (`finding copies: `).
    pub fn labelled(inputs_total: usize, label: &'static str) -> Progress {
        Progress { label, ..Progress::new(inputs_total) }
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

    /// Sets what the line adds after the counts, and redraws it.
    pub fn note(&mut self, note: String) {
        self.note = note;
        self.tick();
    }

    /// The inputs done, and how many there are.
    pub fn inputs(&self) -> (usize, usize) {
        (self.inputs, self.inputs_total)
    }

    /// The time since the work started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
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
            "\r{}{}/{} inputs, {} games ({rate:.0} games/s){}\x1b[K",
            self.label, self.inputs, self.inputs_total, self.games, self.note
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

/// What became of each game of a batch command, with its problems told
/// on standard error as they come and a progress line meanwhile. Every game
/// read, and every input that could not be read, is counted once: games =
/// valid + illegal + unreadable.
#[derive(Debug)]
pub struct Tally {
    /// Games seen (an unreadable input counts as one).
    pub games: usize,
    /// Games that replayed to the end.
    pub valid: usize,
    /// Games with a move that does not replay.
    pub illegal: usize,
    /// Games, or inputs, that could not be read.
    pub unreadable: usize,
    /// Games read and replayed but not written (convert).
    pub not_written: usize,
    /// Inputs found while walking folders that hold no record.
    pub no_record: usize,
    /// Illegal or unreadable games that were not selected: counted, not
    /// told, and no cause for exit code 1.
    bad_left_out: usize,
    /// Games written (convert).
    written: usize,
    /// Games not written because the output had no room left (see
    /// [`Tally::write_failed`]): writing stopped at the first.
    no_room: usize,
    /// Warnings of what the format written could not keep (convert).
    lost: usize,
    inputs: usize,
    /// An input's games are being counted (it is not done yet).
    open: bool,
    /// Problems are counted, not told (the command reports them itself).
    quiet: bool,
    /// Warnings told, by message: the first of each in full.
    repeats: Repeats,
    progress: Progress,
}

/// How one game fared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It replayed to the end.
    Valid,
    /// A move does not replay: what to tell.
    Illegal(String),
    /// It could not be read: what to tell.
    Unreadable(String),
    /// The input holds no record (not a game): what to tell.
    NoRecord(String),
}

impl Outcome {
    /// The game's status; `None` for an input that holds no record.
    pub fn status(&self) -> Option<Status> {
        match self {
            Outcome::Valid => Some(Status::Valid),
            Outcome::Illegal(_) => Some(Status::Illegal),
            Outcome::Unreadable(_) => Some(Status::Unreadable),
            Outcome::NoRecord(_) => None,
        }
    }

    /// How a replayed record fared, as `validate` counts it
    /// ([`Status::judged`]): unreadable when it could not be read, illegal
    /// when a move (main line or variation) does not replay. The problem is
    /// told as every command tells it (a [`ProblemLine`]), with `note` after
    /// the reason of an illegal game.
    pub fn of(
        source: &str,
        index: usize,
        unreadable: Option<&qipu::record::Warning>,
        error: Option<&qipu::record::replay::ReplayError>,
        note: &str,
    ) -> Outcome {
        match (Status::judged(unreadable.is_some(), error.is_some()), unreadable, error) {
            (Status::Unreadable, Some(why), _) => {
                Outcome::Unreadable(ProblemLine::unreadable_game(source, index, why).to_string())
            }
            (Status::Illegal, _, Some(e)) => {
                Outcome::Illegal(ProblemLine::replay(source, index, e, note).to_string())
            }
            _ => Outcome::Valid,
        }
    }

    /// How a game checked as it was read fared: [`Outcome::of`] its
    /// problem, told with `note` when it is an illegal move.
    pub fn checked<T>(source: &str, index: usize, game: &qipu::batch::Checked<T>, note: &str) -> Outcome {
        Outcome::of(source, index, game.unreadable.as_ref(), game.replayed.error.as_ref(), note)
    }
}

impl Tally {
    /// A tally over `inputs_total` inputs.
    pub fn new(inputs_total: usize) -> Tally {
        Tally {
            games: 0,
            valid: 0,
            illegal: 0,
            unreadable: 0,
            not_written: 0,
            no_record: 0,
            bad_left_out: 0,
            written: 0,
            no_room: 0,
            lost: 0,
            inputs: 0,
            open: false,
            quiet: false,
            repeats: Repeats::default(),
            progress: Progress::new(inputs_total),
        }
    }

    /// A tally that counts the problems of the games without telling them
    /// (`validate` reports them in its output).
    pub fn quiet(self) -> Tally {
        Tally { quiet: true, ..self }
    }

    /// Counts a batch of `n` games for the progress line.
    pub fn batch(&mut self, n: usize) {
        self.progress.games(n);
    }

    /// Counts one game and tells its problem (or an input that holds no
    /// record, which is not a game).
    pub fn game(&mut self, outcome: Outcome) {
        self.game_as(outcome, true);
    }

    /// Counts one game, which was `selected` or left out: the problem of
    /// a game left out is counted, not told.
    pub fn game_as(&mut self, outcome: Outcome, selected: bool) {
        self.open = true;
        if let Outcome::NoRecord(p) = outcome {
            self.no_record += 1;
            if selected && !self.quiet {
                self.tell(&p);
            }
            return;
        }
        self.games += 1;
        let problem = match outcome {
            Outcome::Valid => {
                self.valid += 1;
                return;
            }
            Outcome::Illegal(p) => {
                self.illegal += 1;
                p
            }
            Outcome::Unreadable(p) => {
                self.unreadable += 1;
                p
            }
            Outcome::NoRecord(_) => return,
        };
        if !selected {
            self.bad_left_out += 1;
        } else if !self.quiet {
            self.tell(&problem);
        }
    }

    /// A game counted already that could not be written, and why.
    pub fn not_written(&mut self, why: &str) {
        self.not_written += 1;
        self.tell(why);
    }

    /// A game counted already that could not be written, told by `line`
    /// (the output and why), the error `e`. When the output has no room
    /// left ([`room::no_room`]), the first is told, with `; no more games
    /// are written`, and writing stops: every game after is counted as not
    /// written ([`Tally::skip_write`]), untold.
    pub fn write_failed(&mut self, line: &str, e: &std::io::Error) {
        if !room::no_room(e) {
            self.not_written(line);
            return;
        }
        if self.no_room == 0 {
            self.tell(&format!("{line}; no more games are written"));
            room::set_told();
        }
        self.skip_write();
    }

    /// Whether writing stopped: the output had no room left.
    pub fn writing_stopped(&self) -> bool {
        self.no_room > 0
    }

    /// Counts every game written as not written: writing stopped, and the
    /// output file that held them is removed.
    pub fn none_kept(&mut self) {
        let written = std::mem::take(&mut self.written);
        self.not_written += written;
        self.no_room += written;
    }

    /// Counts a game not written because writing stopped, untold.
    pub fn skip_write(&mut self) {
        self.not_written += 1;
        self.no_room += 1;
    }

    /// Counts an input that cannot be read at all, `selected` or left out.
    pub fn unreadable_as(&mut self, source: &str, reason: impl std::fmt::Display, selected: bool) {
        self.game_as(
            Outcome::Unreadable(ProblemLine::unreadable_input(source, reason).to_string()),
            selected,
        );
    }

    /// Counts an input that holds no record, told unless games are being
    /// selected.
    pub fn no_record_as(&mut self, source: &str, reason: impl std::fmt::Display, told: bool) {
        self.game_as(Outcome::NoRecord(ProblemLine::no_record(source, reason).to_string()), told);
    }

    /// Tells a message, clearing the progress line first; control
    /// characters of the message are escaped (see [`escaped`]).
    pub fn tell(&mut self, message: &str) {
        self.progress.finish();
        eprintln!("{}", super::color::problem_if(super::color::stderr(), &escaped(message)));
    }

    /// Tells a problem line, unless it is one more warning of a message
    /// told [`SHOWN`](super::repeats::SHOWN) times already (counted, told
    /// at the end in one line).
    pub fn warn(&mut self, problem: &ProblemLine) {
        if self.repeats.tell(problem) {
            self.tell(&problem.to_string());
        }
    }

    /// Counts an input as done.
    pub fn input_done(&mut self) {
        self.inputs += 1;
        self.open = false;
        self.progress.input_done();
    }

    /// Clears the progress line. An input whose games were being counted
    /// when the batch stopped (at `--limit`) counts as read.
    pub fn finish(&mut self) {
        if std::mem::take(&mut self.open) {
            self.inputs += 1;
        }
        self.progress.finish();
        for line in std::mem::take(&mut self.repeats).untold() {
            eprintln!("{}", super::color::problem_if(super::color::stderr(), &escaped(&line)));
        }
    }

    /// The summary line: `N game(s): V valid, I illegal, U unreadable (K input(s))`,
    /// as `validate` writes it.
    pub fn summary(&self) -> String {
        summary_line(self.games, self.valid, self.illegal, self.unreadable, self.inputs, self.no_record)
    }

    /// The progress line (to add a note to it).
    pub fn progress(&mut self) -> &mut Progress {
        &mut self.progress
    }

    /// Counts a game written (convert).
    pub fn wrote(&mut self) {
        self.written += 1;
    }

    /// Tells what the format written could not keep of game `index` of
    /// `source` (a tag, a text): a warning, counted.
    pub fn lost(&mut self, source: &str, index: Option<usize>, what: &qipu::formats::write::WriteWarning) {
        self.lost += what.count();
        self.warn(&ProblemLine::warning(source, None, index, what));
    }

    /// The end of convert's summary line: `N written`, and when the
    /// formats written could not keep everything, `; W warning(s) of
    /// what was not kept`; `note` (say, what the games written are) right
    /// after `N written`.
    pub fn written_summary_noting(&self, note: &str) -> String {
        let mut line = format!("{} written{note}", self.written);
        if self.no_room > 0 {
            line.push_str(&format!("; {} not written (no room left on the output)", self.no_room));
        }
        if self.lost > 0 {
            line.push_str(&format!("; {} warning(s) of what was not kept", self.lost));
        }
        line
    }

    /// The exit code: 2 when writing stopped (no room left on the
    /// output), else 1 when a game selected was illegal, unreadable or not
    /// written.
    pub fn code(&self) -> i32 {
        if self.no_room > 0 {
            return 2;
        }
        if self.illegal + self.unreadable + self.not_written > self.bad_left_out { 1 } else { 0 }
    }
}

/// `N game(s): V valid, I illegal, U unreadable (K input(s))`, and when
/// some inputs found in folders hold no record, `; M input(s) hold no
/// record`, and when some files of the inputs were not read (told as
/// they were met: see [`super::unread`]), `; P input(s) not read (named
/// twice, or written by this run)`, K counting them: the summary line
/// every batch command ends with.
pub fn summary_line(
    games: usize,
    valid: usize,
    illegal: usize,
    unreadable: usize,
    inputs: usize,
    no_record: usize,
) -> String {
    let unread = super::unread::count();
    let inputs = inputs + unread;
    let mut line = format!(
        "{games} game(s): {valid} valid, {illegal} illegal, {unreadable} unreadable ({inputs} input(s))"
    );
    if no_record > 0 {
        line.push_str(&format!("; {no_record} input(s) hold no record"));
    }
    if unread > 0 {
        line.push_str(&format!("; {unread} input(s) not read (named twice, or written by this run)"));
    }
    line
}

/// A line of a text report with its control characters escaped (`\n`,
/// `\u{1}`), and the invisible characters that change how a terminal
/// shows the text around them (bidirectional overrides and isolates,
/// zero-width marks, the byte-order mark: `\u{202e}`): text taken from a
/// record (a move, a tag, a name) can neither break the line, nor make one
/// of its own, nor show itself as something else.
pub fn escaped(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.chars().any(hidden) {
        return line.into();
    }
    let mut out = String::with_capacity(line.len() + 8);
    for c in line.chars() {
        if hidden(c) { out.extend(c.escape_debug()) } else { out.push(c) }
    }
    out.into()
}

/// A control character, or an invisible one that reorders or hides text.
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FEFF}' | '\u{061C}')
}

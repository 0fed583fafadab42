//! An engine process: its lines in and out, a deadline on every answer,
//! and no process left behind (killed when dropped, and on Linux when
//! qipu itself dies).
//!
//! What an engine writes never grows qipu's memory: its lines are read one
//! at a time and handed over through a queue of [`QUEUED`] lines, so that
//! an engine that talks faster than qipu reads waits on its own pipe; a
//! line longer than [`MAX_LINE`] is a fault, told at once, and nothing
//! more of that engine is read.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::thread;
use std::time::Instant;

use super::EngineError;

/// The longest line read from an engine; a longer one is a fault of the
/// engine (no engine writes such lines).
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// The lines read ahead of the engine's reader: beyond them, the reading
/// thread waits (and so does the engine, its pipe full).
const QUEUED: usize = 64;

/// How often a wait for a line looks whether the engine has ended.
const WATCH: std::time::Duration = std::time::Duration::from_millis(50);

/// How long the lines an engine wrote before it ended are waited for once
/// it has ended (its output still open, held by a process it started).
const LAST_WORDS: std::time::Duration = std::time::Duration::from_millis(200);

/// What the reading thread hands over.
#[derive(Debug, PartialEq, Eq)]
enum Output {
    /// A line, without its end.
    Line(String),
    /// A line went past [`MAX_LINE`]: the thread stops reading.
    TooLong,
}

/// A running engine: lines written to its standard input, lines read from
/// its standard output by a thread of its own.
pub(crate) struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Output>,
}

impl Process {
    /// Starts `command` (the program, then its arguments). Its standard
    /// error is discarded; it runs in a process group of its own, so that
    /// Ctrl-C reaches qipu only (which then ends it).
    pub(crate) fn spawn(command: &[String]) -> Result<Process, EngineError> {
        let (program, args) = command.split_first().ok_or_else(|| EngineError::Start {
            command: String::new(),
            reason: "no engine command".into(),
        })?;
        let mut cmd = Command::new(program);
        cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
            #[cfg(target_os = "linux")]
            // SAFETY: prctl is async-signal-safe, and the closure touches
            // nothing of the parent's memory.
            unsafe {
                cmd.pre_exec(|| {
                    // The engine is killed when the thread that started it
                    // (and so qipu) ends, however it ends.
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    Ok(())
                });
            }
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Start { command: command.join(" "), reason: e.to_string() })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Start { command: command.join(" "), reason: "no pipes".into() });
        };
        let (send, lines) = mpsc::sync_channel(QUEUED);
        thread::Builder::new()
            .name("qipu-engine-reader".into())
            .spawn(move || read_lines(stdout, &send))
            .map_err(|e| EngineError::Start { command: command.join(" "), reason: e.to_string() })?;
        Ok(Process { child, stdin, lines })
    }

    /// Writes `line` and a newline.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.stdin.write_all(&bytes).and_then(|()| self.stdin.flush()).map_err(|_| self.died())
    }

    /// The next line, waiting until `deadline` at most: past it, a
    /// timeout, however many lines the engine has written.
    pub(crate) fn recv(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let now = Instant::now();
        if now >= deadline {
            return Err(EngineError::Timeout);
        }
        // Waited on in slices, the engine's life looked at between them: an
        // engine that has ended while a process it started holds its
        // output open is told dead at once, not at the deadline.
        let mut ended: Option<(Instant, std::process::ExitStatus)> = None;
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineError::Timeout);
            }
            match self.lines.recv_timeout((deadline - now).min(WATCH)) {
                Ok(Output::Line(line)) => return Ok(line),
                Ok(Output::TooLong) => {
                    return Err(EngineError::Unreadable(format!(
                        "a line longer than {} KB",
                        MAX_LINE / 1024
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.died()),
                Err(RecvTimeoutError::Timeout) => match ended {
                    // What it wrote before it ended has had time to come.
                    Some((at, status)) if at.elapsed() >= LAST_WORDS => {
                        return Err(EngineError::Died(Some(status.to_string())));
                    }
                    Some(_) => {}
                    None => {
                        if let Ok(Some(status)) = self.child.try_wait() {
                            ended = Some((Instant::now(), status));
                        }
                    }
                },
            }
        }
    }

    /// The engine is gone: how it ended, when it has.
    fn died(&mut self) -> EngineError {
        // The pipe closes a moment before the process is reaped.
        let until = Instant::now() + std::time::Duration::from_millis(200);
        while Instant::now() < until {
            if let Ok(Some(status)) = self.child.try_wait() {
                return EngineError::Died(Some(status.to_string()));
            }
            thread::sleep(std::time::Duration::from_millis(5));
        }
        EngineError::Died(None)
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.stdin.flush();
        // A polite engine ends at `quit`; give it a moment, then kill it.
        let until = Instant::now() + std::time::Duration::from_millis(50);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(std::time::Duration::from_millis(1));
        }
        self.kill();
    }
}

impl Process {
    /// Kills the engine and every process it started that stayed in its
    /// process group (helpers that would hold its output open and outlive
    /// it), then reaps it.
    fn kill(&mut self) {
        #[cfg(unix)]
        {
            // The engine leads a group of its own (`process_group(0)`), so
            // its id is the group's. Done before the engine is reaped, while
            // the id is surely still its own; if it has ended on its own and
            // been reaped, its group (the processes it started) lives on
            // under the same id, which nothing else takes while they live.
            if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
                // SAFETY: killpg has no memory effects; a group that is gone
                // is an error (ESRCH), ignored.
                unsafe {
                    libc::killpg(group, libc::SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The reading thread: the engine's lines, one at a time, into `send`,
/// until the output ends, a line is too long, or nobody listens.
fn read_lines(stdout: impl io::Read, send: &SyncSender<Output>) {
    let mut reader = BufReader::new(stdout);
    while let Ok(Some(output)) = read_line(&mut reader) {
        let stop = output == Output::TooLong;
        if send.send(output).is_err() || stop {
            break;
        }
    }
}

/// Reads a line (without its end); [`Output::TooLong`] as soon as it
/// passes [`MAX_LINE`] bytes (the rest of it unread); `None` at the end of
/// the output.
fn read_line(reader: &mut impl BufRead) -> io::Result<Option<Output>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then(|| Output::Line(text(line))));
        }
        any = true;
        let (take, end) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        if line.len() + take > MAX_LINE {
            return Ok(Some(Output::TooLong));
        }
        line.extend_from_slice(&buf[..take]);
        reader.consume(take + usize::from(end));
        if end {
            return Ok(Some(Output::Line(text(line))));
        }
    }
}

/// A line's bytes as text, its carriage return dropped.
fn text(mut line: Vec<u8>) -> String {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    match String::from_utf8(line) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_deadline_holds_while_lines_keep_coming() {
        let mut yes = Process::spawn(&["yes".to_string()]).unwrap();
        let deadline = Instant::now() + std::time::Duration::from_millis(300);
        let mut lines = 0;
        let error = loop {
            match yes.recv(deadline) {
                Ok(line) => {
                    assert_eq!(line, "y");
                    lines += 1;
                }
                Err(e) => break e,
            }
        };
        assert_eq!(error, EngineError::Timeout);
        assert!(lines > 100, "{lines}");
        assert!(Instant::now() < deadline + std::time::Duration::from_secs(1));
    }

    fn line(s: &str) -> Option<Output> {
        Some(Output::Line(s.into()))
    }

    #[test]
    fn lines_are_read_without_their_ends_up_to_the_limit() {
        let mut text = vec![b'x'; MAX_LINE];
        text.extend_from_slice(b"\nbestmove h2e2\r\nlast");
        let mut reader = BufReader::with_capacity(1000, &text[..]);
        assert_eq!(read_line(&mut reader).unwrap(), Some(Output::Line("x".repeat(MAX_LINE))));
        assert_eq!(read_line(&mut reader).unwrap(), line("bestmove h2e2"));
        assert_eq!(read_line(&mut reader).unwrap(), line("last"));
        assert_eq!(read_line(&mut reader).unwrap(), None);
        let mut bad = BufReader::new(&b"\xff\xfe ok\n"[..]);
        assert_eq!(read_line(&mut bad).unwrap(), line("\u{fffd}\u{fffd} ok"));
    }

    #[test]
    fn a_longer_line_is_told_at_once_and_reading_stops() {
        let mut text = b"uciok\n".to_vec();
        text.extend_from_slice(&vec![b'x'; MAX_LINE + 1]);
        text.extend_from_slice(b"\nbestmove h2e2\n");
        let (send, lines) = mpsc::sync_channel(QUEUED);
        read_lines(&text[..], &send);
        drop(send);
        assert_eq!(lines.iter().collect::<Vec<_>>(), [Output::Line("uciok".into()), Output::TooLong]);
    }

    /// An endless source of bytes without a newline, counting what is read.
    struct Endless(std::sync::Arc<std::sync::atomic::AtomicUsize>);

    impl io::Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            buf.fill(b'x');
            self.0.fetch_add(buf.len(), std::sync::atomic::Ordering::Relaxed);
            Ok(buf.len())
        }
    }

    #[test]
    fn a_line_without_end_is_read_no_further_than_the_limit() {
        let read = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (send, lines) = mpsc::sync_channel(QUEUED);
        read_lines(Endless(read.clone()), &send);
        assert_eq!(lines.try_recv(), Ok(Output::TooLong));
        assert!(read.load(std::sync::atomic::Ordering::Relaxed) <= MAX_LINE + 8192);
    }

    #[test]
    fn a_flood_of_lines_waits_for_the_reader() {
        let read = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        struct Flood(std::sync::Arc<std::sync::atomic::AtomicUsize>);
        impl io::Read for Flood {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                for (k, b) in buf.iter_mut().enumerate() {
                    *b = if k % 8 == 7 { b'\n' } else { b'y' };
                }
                self.0.fetch_add(buf.len(), std::sync::atomic::Ordering::Relaxed);
                Ok(buf.len())
            }
        }
        let (send, lines) = mpsc::sync_channel(QUEUED);
        let counter = read.clone();
        let reader = thread::spawn(move || read_lines(Flood(counter), &send));
        thread::sleep(std::time::Duration::from_millis(200));
        // The queue is full, and the thread waits: no more was read than
        // the queue and one buffer hold.
        let before = read.load(std::sync::atomic::Ordering::Relaxed);
        assert!(before <= 8 * (QUEUED + 1) + 8192, "{before}");
        assert_eq!(lines.recv(), Ok(Output::Line("yyyyyyy".into())));
        // Nobody listens: the thread ends.
        drop(lines);
        reader.join().unwrap();
    }
}

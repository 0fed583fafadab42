//! An engine process: its lines in and out, a deadline on every answer,
//! and no process left behind (killed when dropped, and on Linux when
//! qipu itself dies).

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Instant;

use super::EngineError;

/// The longest line read from an engine; a longer one is cut there (and
/// cannot be read as anything but garbage).
const MAX_LINE: usize = 64 * 1024;

/// A running engine: lines written to its standard input, lines read from
/// its standard output by a thread of its own.
pub(crate) struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
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
        let (send, lines) = mpsc::channel();
        thread::Builder::new()
            .name("qipu-engine-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                while let Ok(Some(line)) = read_line(&mut reader) {
                    if send.send(line).is_err() {
                        break;
                    }
                }
            })
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

    /// The next line, waiting until `deadline` at most.
    pub(crate) fn recv(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(self.died()),
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
                return;
            }
            thread::sleep(std::time::Duration::from_millis(1));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads a line (without its end), at most [`MAX_LINE`] bytes of it kept;
/// `None` at the end of the output.
fn read_line(reader: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then(|| text(line)));
        }
        any = true;
        let (take, end) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&buf[..take.min(room)]);
        reader.consume(take + usize::from(end));
        if end {
            return Ok(Some(text(line)));
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

    #[test]
    fn lines_are_cut_at_the_limit_and_ends_dropped() {
        let mut long = vec![b'x'; MAX_LINE * 3];
        long.extend_from_slice(b"\r\nbestmove h2e2\r\nlast");
        let mut reader = BufReader::with_capacity(1000, &long[..]);
        assert_eq!(read_line(&mut reader).unwrap().unwrap().len(), MAX_LINE);
        assert_eq!(read_line(&mut reader).unwrap().unwrap(), "bestmove h2e2");
        assert_eq!(read_line(&mut reader).unwrap().unwrap(), "last");
        assert_eq!(read_line(&mut reader).unwrap(), None);
        let mut bad = BufReader::new(&b"\xff\xfe ok\n"[..]);
        assert_eq!(read_line(&mut bad).unwrap().unwrap(), "\u{fffd}\u{fffd} ok");
    }
}

//! `qipu analyse` with engines that never stop talking (tests/engines/fake_engine.py, python3,
//! and `yes`): info lines without end and no best move, a line that never ends, no answer at
//! all, lines without end in answer to the handshake. Each is a fault of the engine, told as
//! the others are; none grows qipu's memory: the peak of each run (its `ru_maxrss`, from
//! `wait4`) stays under 64 MB.
//!
//! A test binary of its own, kept small: on Linux a child started by `posix_spawn` (vfork)
//! counts in its `ru_maxrss` the high-water mark of its parent's memory, which it ran on until
//! `exec`. Among the other tests of the command (some read Parquet files back in the test
//! process) the measure was the test process's, not qipu's; each run checks that this
//! process's high-water mark is far below the bound.
#![cfg(target_os = "linux")]

#[path = "common/mod.rs"]
mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use qipu::formats;
use qipu::record::Record;

/// An eight-ply game.
const GAME: &str = "[Event \"t\"]\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b2b6 c6c5 *\n";

/// The most memory a run may take, in KB.
const MAX_KB: u64 = 64 * 1024;

/// The fake engine's command line with `args`.
fn engine(args: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fake_engine.py");
    assert!(
        Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success()),
        "these tests need python3 to run the scripted engine"
    );
    format!("python3 '{}' {args}", script.display())
}

fn scratch(name: &str) -> PathBuf {
    let dir = common::scratch(&format!("bounded-{name}"));
    std::fs::write(dir.join("games.pgn"), GAME).unwrap();
    dir
}

/// The first two fields of the FEN after ply 3 of [`GAME`].
fn after3() -> String {
    let fen = formats::pgn::read(GAME)[0].positions().nth(3).unwrap().fen();
    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// A finished run: its exit code, its standard error, its peak memory in KB
/// and how long it took.
struct Run {
    code: Option<i32>,
    stderr: String,
    peak_kb: u64,
    took: Duration,
}

/// Runs `qipu analyse` with `args` and measures it.
#[allow(clippy::zombie_processes, reason = "reaped by wait4, which gives its rusage")]
fn analyse(args: &[&str]) -> Run {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_qipu"))
        .arg("analyse")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        pipe.read_to_string(&mut text).unwrap();
        text
    });
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: rusage is plain data, filled by wait4.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the child is ours and not yet waited for; wait4 reaps it
    // (std's Child is not waited for again).
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4: {}", std::io::Error::last_os_error());
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let stderr = reader.join().unwrap();
    eprintln!("{stderr}");
    let run = Run { code, stderr, peak_kb: u64::try_from(usage.ru_maxrss).unwrap(), took: started.elapsed() };
    // The peak is qipu's only if this process's memory is far smaller (see the top of the
    // file): its high-water mark (`VmHWM`; its own `ru_maxrss` counts cargo's in turn).
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let own_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/self/status");
    assert!(own_kb < MAX_KB / 4, "the test process took {own_kb} KB: the measure would be its own");
    eprintln!("peak {} KB in {:?}", run.peak_kb, run.took);
    run
}

/// Whether a process with `marker` in its command line is running.
fn running(marker: &str) -> bool {
    let o = Command::new("pgrep").args(["-f", marker]).output().unwrap();
    !o.stdout.is_empty()
}

fn records(path: &Path) -> Vec<Record> {
    formats::read(&std::fs::read(path).unwrap(), None).unwrap().records
}

#[test]
fn engines_that_never_answer_are_faults_within_64_mb() {
    let dir = scratch("search");
    let game = dir.join("games.pgn");
    let marker = format!("bounded-{}", std::process::id());
    let cases = [
        ("spam", "uci", "no best move within 500 ms; then: no best move within 500 ms"),
        ("spam", "ucci", "no best move within 500 ms; then: no best move within 500 ms"),
        (
            "endless",
            "uci",
            "unreadable answer: a line longer than 64 KB; then: unreadable answer: a line longer than 64 KB",
        ),
        ("hang", "uci", "no best move within 500 ms; then: no best move within 500 ms"),
    ];
    for (mode, protocol, why) in cases {
        let cmd = engine(&format!(
            "--protocol {protocol} --mode {mode} --fen-prefix '{}' --name {marker}",
            after3()
        ));
        let out = dir.join(format!("{mode}-{protocol}.pgn"));
        let run = analyse(&[
            game.to_str().unwrap(),
            "--engine",
            &cmd,
            "--timeout",
            "500",
            "-o",
            out.to_str().unwrap(),
        ]);
        let stderr = &run.stderr;
        assert_eq!(run.code, Some(1), "{mode} {protocol}: {stderr}");
        assert!(
            stderr.contains(&format!("game 1: the position after ply 3: left without annotation ({why})")),
            "{mode} {protocol}: {stderr}"
        );
        assert!(
            stderr.contains("8 searched, 0 from the cache, 1 failed (2 engine restart(s))"),
            "{mode} {protocol}: {stderr}"
        );
        assert!(run.peak_kb < MAX_KB, "{mode} {protocol}: {} KB", run.peak_kb);
        assert!(run.took < Duration::from_secs(30), "{mode} {protocol}: {:?}", run.took);
        // The game is written, its third move without an evaluation.
        let g = &records(&out)[0];
        let tree = g.tree();
        let evals: Vec<_> = tree.main_line().map(|n| tree.node(n).evaluation()).collect();
        assert_eq!(
            evals.iter().map(Option::is_none).collect::<Vec<_>>(),
            [false, false, true, false, false, false, false, false]
        );
        assert!(!running(&marker), "{mode} {protocol}: an engine outlived qipu");
    }
}

#[test]
fn an_engine_spamming_once_is_started_again_and_answers() {
    let dir = scratch("once");
    let game = dir.join("games.pgn");
    let once = dir.join("spam.once");
    let cmd = engine(&format!("--mode spam --fen-prefix '{}' --once '{}'", after3(), once.display()));
    let out = dir.join("out.pgn");
    let run =
        analyse(&[game.to_str().unwrap(), "--engine", &cmd, "--timeout", "500", "-o", out.to_str().unwrap()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "game 1: the position after ply 3: the engine was started again and answered (no best move within 500 ms)"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("9 searched, 0 from the cache, 0 failed (1 engine restart(s))"),
        "{}",
        run.stderr
    );
    assert!(run.peak_kb < MAX_KB, "{} KB", run.peak_kb);
}

#[test]
fn engines_spamming_the_handshake_do_not_start_within_64_mb() {
    let dir = scratch("handshake");
    let game = dir.join("games.pgn");
    for cmd in [engine("--spam-handshake"), engine("--spam-handshake --protocol ucci"), "yes".to_string()] {
        let out = dir.join("out.pgn");
        let run = analyse(&[game.to_str().unwrap(), "--engine", &cmd, "-o", out.to_str().unwrap()]);
        let stderr = &run.stderr;
        assert_eq!(run.code, Some(2), "{cmd}: {stderr}");
        // (A UCCI engine leaves at `uci`, as ElephantEye does.)
        assert!(stderr.contains("answers neither uci ("), "{cmd}: {stderr}");
        assert!(stderr.contains("nor ucci (no ucciok in its first 10000 lines)"), "{cmd}: {stderr}");
        assert!(run.peak_kb < MAX_KB, "{cmd}: {} KB", run.peak_kb);
        // Well within the handshake's ten seconds: told by its lines.
        assert!(run.took < Duration::from_secs(8), "{cmd}: {:?}", run.took);
        assert!(!out.exists(), "{cmd}");
    }
}

#[test]
fn an_engine_started_again_that_spams_its_handshake_leaves_the_positions_unannotated() {
    let dir = scratch("restart");
    let game = dir.join("games.pgn");
    let crashed = dir.join("crashed");
    // It crashes at the position after ply 3; started again, it answers `uci` with info lines
    // without end.
    let cmd = engine(&format!(
        "--mode crash --fen-prefix '{}' --once '{c}' --spam-handshake-if '{c}'",
        after3(),
        c = crashed.display()
    ));
    let out = dir.join("out.pgn");
    let run = analyse(&[
        game.to_str().unwrap(),
        "--engine",
        &cmd,
        "--timeout",
        "500",
        "--ply-range",
        "1..4",
        "-o",
        out.to_str().unwrap(),
    ]);
    let stderr = &run.stderr;
    assert_eq!(run.code, Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "the position after ply 3: left without annotation (the engine stopped (exit status: 3); \
             then: no uciok in its first 10000 lines)"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "the position after ply 4: left without annotation (no uciok in its first 10000 lines; \
             then: no uciok in its first 10000 lines)"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("5 position(s): 3 searched, 0 from the cache, 2 failed (4 engine restart(s))"),
        "{stderr}"
    );
    assert!(run.peak_kb < MAX_KB, "{} KB", run.peak_kb);
    assert_eq!(records(&out).len(), 1);
}

//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::PathBuf;

/// The folder `sub` of the corpus beside the project (`../shared/corpus/SUB`;
/// `""` for the corpus itself), or `None` when it is not there: the test is
/// then skipped, with one line on standard error that libtest does not
/// capture (`skipped: TEST: ../shared/corpus/SUB is not there`). With
/// `QIPU_REQUIRE_CORPUS=1` (as CI sets it) a missing corpus fails the test
/// instead.
pub fn corpus(sub: &str) -> Option<PathBuf> {
    let shown =
        if sub.is_empty() { "../shared/corpus".to_string() } else { format!("../shared/corpus/{sub}") };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(&shown);
    if dir.is_dir() {
        return Some(dir);
    }
    let test = std::thread::current().name().unwrap_or("a test").to_string();
    if std::env::var_os("QIPU_REQUIRE_CORPUS").is_some_and(|v| v == "1") {
        panic!("{test}: {shown} is not there, and QIPU_REQUIRE_CORPUS=1 requires it");
    }
    // Written, not printed: libtest captures print! and eprint!, so that a
    // skipped test that passes would say nothing.
    let _ = writeln!(std::io::stderr(), "skipped: {test}: {shown} is not there");
    None
}

/// Reads a gzip-compressed text file from `tests/data`.
pub fn read_gz(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut text).expect("gzip text");
    text
}

/// The data lines of a fixture (no `#` comments, no blank lines), with
/// their 1-based line numbers.
pub fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
}

/// The FENs of the move-generation fixture.
pub fn movegen_fens() -> Vec<String> {
    let text = read_gz("movegen-pyffish.txt.gz");
    data_lines(&text).map(|(_, l)| l.split(';').next().expect("FEN").to_string()).collect()
}

/// The distinct FENs of the WXF notation fixture (positions rich in tandem
/// pieces and pawn files).
pub fn notation_fens() -> Vec<String> {
    let text = read_gz("notation-pyffish-wxf.txt.gz");
    let mut fens: Vec<String> =
        data_lines(&text).map(|(_, l)| l.split(';').next().expect("FEN").to_string()).collect();
    fens.dedup();
    fens
}

/// A small deterministic generator (xorshift64*), so runs are repeatable.
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Every file below `dir`, sorted by path.
pub fn files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() { walk(&p, out) } else { out.push(p) }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("qipu-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `qipu`, the command this build made (assert_cmd's, for its asserts).
pub fn qipu() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("qipu").unwrap()
}

/// `qipu` as a standard process, to give it pipes, files or a wait of its own.
pub fn qipu_process() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_qipu"))
}

/// Standard output of a finished command, as text (lossy).
pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error of a finished command, as text (lossy).
pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

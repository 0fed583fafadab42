//! The position index of the whole corpus: the games `qipu search` finds
//! by position (plain and with its mirror) are those `qipu validate
//! --position` finds by reading every file (skipped, with a message, when
//! the corpus is absent).

use std::path::Path;

use assert_cmd::Command;

use crate::common;

fn qipu() -> Command {
    Command::cargo_bin("qipu").unwrap()
}

/// The games `validate --position` selects.
fn validated(corpus: &Path, fen: &str, mirror: bool) -> u64 {
    let mut cmd = qipu();
    cmd.arg("validate").arg(corpus).args(["--position", fen, "-q", "--jobs", "2"]);
    if mirror {
        cmd.arg("--mirror");
    }
    let out = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let summary = text.lines().last().unwrap_or_default().to_string();
    let selected = summary.rsplit("; ").next().and_then(|part| part.split(" selected").next());
    selected.and_then(|n| n.trim().parse().ok()).unwrap_or_else(|| panic!("no count in {summary:?}"))
}

/// The games `search --fen` finds.
fn searched(index: &Path, fen: &str, mirror: bool) -> u64 {
    let mut cmd = qipu();
    cmd.arg("search").arg(index).args(["--fen", fen, "--count"]);
    if mirror {
        cmd.arg("--mirror");
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.split(" game(s)").next().unwrap().trim().parse().unwrap_or_else(|_| panic!("{text}"))
}

#[test]
fn corpus_index_finds_what_validate_finds() {
    let Some(corpus) = common::corpus("") else { return };
    let index = Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpus_index.qidx");
    let _ = std::fs::remove_dir_all(&index);
    let out = qipu()
        .args(["index", "build"])
        .arg(&corpus)
        .arg("-o")
        .arg(&index)
        .args(["-q", "--jobs", "2"])
        .output()
        .unwrap();
    let told = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(told.contains("the index holds"), "{told}");
    let mut found = 0;
    for fen in [
        // After 炮二平五, its mirror 炮八平五, 马八进七 马2进3, and the start with Black to move.
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b",
        "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/9/R1BAKABNR w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b",
    ] {
        for mirror in [false, true] {
            let expected = validated(&corpus, fen, mirror);
            assert_eq!(searched(&index, fen, mirror), expected, "{fen} mirror {mirror}");
            found += expected;
        }
    }
    // The central cannon alone opens about half the corpus' games.
    assert!(found > 10_000, "{found}");
    let _ = std::fs::remove_dir_all(&index);
}

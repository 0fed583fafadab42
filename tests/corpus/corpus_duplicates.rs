//! The duplicate figures of the whole corpus, as `scripts/corpus-duplicates.sh` computes them
//! (skipped, with a message, when the corpus is absent).

use std::path::Path;

use assert_cmd::Command;

use crate::common;

/// The summary line of `qipu duplicates` on the `corpus` with `args`.
fn summary(corpus: &Path, args: &[&str]) -> String {
    let out = Command::cargo_bin("qipu")
        .unwrap()
        .arg("duplicates")
        .arg(corpus)
        .args(["--format", "json"])
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    stderr.lines().last().unwrap_or_default().to_string()
}

#[test]
fn corpus_duplicate_figures() {
    let Some(corpus) = common::corpus("") else { return };
    // 12,833 games of 10 plies or more (valid, or illegal keyed on the moves before the wrong
    // one): the 2,264 copies in 1,694 groups, one pair whose FEN tags differ only in
    // the move number, and 8 .mxq games whose XQF twins stand in the same collection (7 new
    // pairs, and one pair of XQF files that becomes three); then the 1,038 .SG games, 241 of
    // them copies of XQF, PGN or .SG games.
    assert_eq!(
        summary(&corpus, &[]),
        "14551 game(s): 14520 valid, 28 illegal, 3 unreadable (9857 input(s)); 2 input(s) hold no record; \
         13868 of 10 plies or more: 1908 group(s), 2514 copies"
    );
    // 163 more games are truncated copies of a longer one.
    assert!(summary(&corpus, &["--by", "line,truncated"]).ends_with("2677 copies"));
}

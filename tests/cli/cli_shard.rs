//! `--shard K/N`: N processes given the same paths read every game once
//! between them, each its own part of the inputs (whole files, shared out
//! by size).

use crate::common::{qipu, stderr, stdout};

/// The `source index status` of each report line `validate --format json`
/// writes for `paths`, with `--shard` when given, sorted.
fn reports(paths: &[&str], shard: Option<&str>) -> Vec<String> {
    let mut cmd = qipu();
    cmd.args(["validate", "--format", "json", "-q"]).args(paths);
    if let Some(shard) = shard {
        cmd.args(["--shard", shard]);
    }
    let out = cmd.output().unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
    let mut lines: Vec<String> = stdout(&out)
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            format!("{} {} {}", v["source"], v["index"], v["status"])
        })
        .collect();
    lines.sort();
    lines
}

#[test]
fn the_shards_of_a_folder_hold_every_game_once() {
    let paths = ["fixtures", "tests/data"];
    let whole = reports(&paths, None);
    assert!(whole.len() > 1400, "{} reports", whole.len());
    let mut parts = Vec::new();
    for k in 0..3 {
        let part = reports(&paths, Some(&format!("{k}/3")));
        assert!(!part.is_empty() && part.len() < whole.len(), "part {k}: {} reports", part.len());
        parts.extend(part);
    }
    parts.sort();
    assert_eq!(parts, whole);
}

#[test]
fn a_shard_that_is_not_one_of_n_is_a_usage_error() {
    for bad in ["3/3", "1/0", "two"] {
        let out = qipu().args(["validate", "fixtures/pgn", "--shard", bad]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(stderr(&out).contains("--shard"), "{bad}: {}", stderr(&out));
    }
}

//! Every `.SG` file of the corpus reads, every game replays legally, the
//! results agree with the file names of the files that hold one game,
//! and the games the collection also holds as XQF files have the same
//! moves (which settles how the format's points are read: mirrored, the
//! games would be as legal but would match none). Skipped when the corpus
//! is not beside the project.

use crate::common;

use std::collections::HashMap;

use qipu::formats;

#[test]
fn every_sg_file_of_the_corpus_reads_and_replays() {
    let Some(root) = common::corpus("sg") else { return };
    let paths = common::files(&root);
    assert_eq!(paths.len(), 48);
    let (mut games, mut plies, mut named) = (0, 0, 0);
    let mut lines = Vec::new();
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(bytes.len() % 1192, 0, "{}", path.display());
        let parsed = formats::read(&bytes, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(parsed.format.name(), "sg");
        assert_eq!(parsed.records.len(), bytes.len() / 1192, "{}: one game a record", path.display());
        for (k, record) in parsed.records.iter().enumerate() {
            let replayed = record.replayed();
            assert!(replayed.is_valid(), "{} game {k}: {:?}", path.display(), replayed.error);
            assert!(record.warnings().is_empty(), "{} game {k}: {:?}", path.display(), record.warnings());
            assert!(record.tag("Date").is_some(), "{}", path.display());
            plies += replayed.plies;
            lines.push(replayed.moves.clone());
        }
        games += parsed.records.len();
        // One game a file: its name is `RED 先胜|先负|先和 BLACK`.
        let name = path.file_stem().unwrap().to_string_lossy();
        if let [record] = &parsed.records[..] {
            let said = [("先胜", "1-0"), ("先负", "0-1"), ("先和", "1/2-1/2")]
                .iter()
                .find_map(|(mark, result)| name.contains(mark).then_some(*result));
            match record.tag("Result") {
                Some(result) => assert_eq!(Some(result), said, "{name}"),
                None => assert_eq!(&bytes[0x40..0x43], b"---", "{name}"),
            }
            named += 1;
        }
    }
    assert_eq!((games, named), (1_038, 40));
    assert_eq!(plies, PLIES, "main-line plies of the 1,038 records");

    // The same games saved as XQF in the collection.
    let Some(xqf_root) = common::corpus("xqf/hbsxcjp__cchess_qt") else { return };
    let mut xqf: HashMap<Vec<qipu::Move>, usize> = HashMap::new();
    for path in common::files(&xqf_root) {
        let Ok(parsed) = formats::read(&std::fs::read(&path).unwrap(), None) else { continue };
        for record in &parsed.records {
            let moves = record.replayed().moves.clone();
            if moves.len() >= 20 {
                *xqf.entry(moves).or_default() += 1;
            }
        }
    }
    let twins = lines.iter().filter(|l| xqf.contains_key(*l)).count();
    let mirrored: Vec<Vec<qipu::Move>> =
        lines.iter().map(|l| l.iter().map(|m| m.flip_horizontal()).collect()).collect();
    let mirror_twins = mirrored.iter().filter(|l| xqf.contains_key(*l)).count();
    // Read as the module says, 131 games are found among the XQF files;
    // mirrored, 3 (games the collection also holds mirrored).
    assert_eq!(
        (twins, mirror_twins),
        (131, 3),
        "games of 20 plies or more also held as XQF, as read and mirrored"
    );
}

/// Main-line plies of the corpus's `.SG` records.
const PLIES: usize = 89_451;

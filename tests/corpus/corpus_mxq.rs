//! Every `.mxq` file of the corpus reads, with its players, result and
//! termination, every game replays legally, and the 7 games the
//! collection also holds as XQF files of the same name have the same
//! moves and players. Skipped when the corpus is
//! not beside the project.

use crate::common;

use std::path::Path;

use qipu::formats;

#[test]
fn every_mxq_file_of_the_corpus_reads_and_replays() {
    let Some(root) = common::corpus("mxq") else { return };
    let paths = common::files(&root);
    assert_eq!(paths.len(), 50);
    let (mut plies, mut twins) = (0, 0);
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let parsed = formats::read(&bytes, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(parsed.format.name(), "mxq");
        let [record] = &parsed.records[..] else { panic!("{}: one game a file", path.display()) };
        let replayed = record.replayed();
        assert!(replayed.is_valid(), "{}: {:?}", path.display(), replayed.error);
        plies += replayed.plies;
        // The file's name is RED-RESULT-BLACK DATE: the tags say the same.
        let name = path.file_stem().unwrap().to_string_lossy();
        let (red, black) = (record.tag("Red").unwrap(), record.tag("Black").unwrap());
        assert!(name.starts_with(red) && name.contains(&format!("-{black} ")), "{name}: {red} / {black}");
        let result = record.tag("Result").unwrap();
        let mark = match result {
            "1-0" => "-胜-",
            "0-1" => "-负-",
            _ => "-和-",
        };
        assert!(name.contains(mark), "{name}: {result}");
        assert!(record.tag("Termination").is_some() && record.tag("RedElo").is_some(), "{name}");
        // The same game saved as XQF beside it in the collection: the same moves.
        let twin = path.to_string_lossy().replacen("/mxq/", "/xqf/", 1);
        let twin = Path::new(&twin).with_extension("XQF");
        if let Ok(bytes) = std::fs::read(&twin) {
            let xqf = &formats::read(&bytes, None).unwrap().records[0];
            assert_eq!(xqf.replayed().moves, replayed.moves, "{}", twin.display());
            assert_eq!((xqf.tag("Red"), xqf.tag("Black")), (Some(red), Some(black)), "{}", twin.display());
            twins += 1;
        }
    }
    assert_eq!(twins, 7, "games the collection also holds as XQF files of the same name");
    assert_eq!(plies, 4_237, "main-line plies of the 50 files (the move strings between Moves and Ends)");
}

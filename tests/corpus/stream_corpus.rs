//! The corpus's DhtmlXQ and CCBridge files read a piece at a time give
//! exactly what reading them whole gives (every record compared, spans,
//! warnings and errors included), with heads and pieces small enough to
//! put boundaries everywhere. Skipped when the corpus is not beside the
//! project; how many files were read in chunks, and how many only whole
//! (a CBR or CBF record, a text whose head tells no DhtmlXQ block), is
//! printed and checked against the number of files.

use crate::common;

use qipu::formats::{self, stream};
use qipu::record::{Record, RecordBuilder};

/// Reads `bytes` a piece at a time: whether it was cut into chunks, and
/// what it gave.
fn streamed(
    bytes: &[u8],
    head: usize,
    piece: usize,
) -> (bool, Result<(formats::Read, Vec<Record>), formats::UnreadableReason>) {
    let split = match stream::split_sized(bytes, None, head, piece) {
        Ok(split) => split,
        Err(e) => return (false, Err(e.reason)),
    };
    let chunked = matches!(split, stream::Split::Chunks(_));
    let mut records = Vec::new();
    let read = stream::read_split(split, &mut RecordBuilder::default(), |r| records.push(r));
    (chunked, read.map(|read| (read, records)).map_err(|e| e.reason))
}

#[test]
fn corpus_dhtmlxq_and_ccbridge_files_read_in_chunks_as_whole() {
    let Some(root) = common::corpus("") else { return };
    let (mut files, mut chunked, mut records) = (0, 0, 0);
    for folder in ["dhtmlxq", "ccbridge"] {
        for path in common::files(&root.join(folder)) {
            let bytes = std::fs::read(&path).unwrap();
            let whole = formats::read(&bytes, None).map_err(|e| e.reason);
            files += 1;
            let mut in_chunks = false;
            for head in [16, 64, 4096, bytes.len() / 2] {
                for piece in [1, 100, 4096, 1 << 20] {
                    let (cut, streamed) = streamed(&bytes, head, piece);
                    in_chunks |= cut;
                    let at = format!("{}: head {head}, piece {piece}", path.display());
                    match (&whole, streamed) {
                        (Ok(whole), Ok((read, streamed))) => {
                            assert_eq!((whole.format, whole.encoding), (read.format, read.encoding), "{at}");
                            assert_eq!(whole.records.len(), streamed.len(), "{at}");
                            assert!(whole.records == streamed, "{at}: the records differ");
                        }
                        (Err(a), Err(b)) => assert_eq!(a, &b, "{at}"),
                        (a, b) => panic!("{at}: whole {:?}, streamed {:?}", a.is_ok(), b.map(|r| r.1.len())),
                    }
                }
            }
            chunked += usize::from(in_chunks);
            records += whole.map_or(0, |p| p.records.len());
        }
    }
    eprintln!("{files} files ({records} records): {chunked} read in chunks, {} only whole", files - chunked);
    // 22 DhtmlXQ files, 2 plain and 16 compressed libraries; the 2 CBR and 2 CBF records are
    // read whole.
    assert_eq!((files, chunked), (44, 40));
}

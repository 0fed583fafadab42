//! The streaming replay (a `Replayer` on a reader's events, no tree) and the
//! replay of a built record say the same of every game: on every PGN and
//! text file of the corpus, and on generated games with variations, wrong
//! moves and comments. And a record's own events build the same record.

use crate::common;

use proptest::prelude::*;
use qipu::formats::{self, pgn};
use qipu::record::replay::{Replayed, Replayer, replay};
use qipu::record::{Record, RecordBuilder};
use qipu::{Move, Position};

/// What a replay says, but for the moves of each node (which only a replay
/// of a record knows).
fn said(mut r: Replayed) -> Replayed {
    r.resolution.moves.clear();
    r
}

#[test]
fn streaming_and_record_replays_agree_on_the_corpus() {
    let Some(root) = common::corpus("") else { return };
    let (mut files, mut games) = (0, 0);
    for dir in ["pgn", "text"] {
        for path in common::files(&root.join(dir)) {
            let bytes = std::fs::read(&path).unwrap();
            let Ok(parsed) = formats::read(&bytes, None) else { continue };
            if parsed.format != formats::detect::Format::Pgn {
                continue;
            }
            let text = formats::encoding::decode(&bytes, None).text.into_owned();
            let streamed = pgn::read_with(&text, &mut Replayer::default());
            let records = pgn::read(&text);
            assert_eq!(streamed.len(), records.len(), "{}", path.display());
            for (s, r) in streamed.into_iter().zip(&records) {
                assert_eq!(said(s), said(replay(r)), "{}", path.display());
                assert_eq!(&r.visit(&mut RecordBuilder::default()), r, "{}", path.display());
            }
            files += 1;
            games += records.len();
        }
    }
    eprintln!("{files} files, {games} games replayed both ways");
    assert!(games > 7000, "{games}");
}

/// A game from the start with variations and comments, wrong moves where
/// `wrong` says: each choice picks a legal move (or, when wrong, an
/// illegal one).
fn game(choices: &[(u8, bool, u8)]) -> String {
    let mut pos = Position::start();
    let mut text = String::from("[Event \"g\"]\n");
    let mut stack: Vec<Position> = Vec::new();
    for (ply, &(c, wrong, shape)) in choices.iter().enumerate() {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[c as usize % legal.len()];
        let shown = if wrong { Move::new(m.to, m.from) } else { m };
        text.push_str(&format!("{shown} "));
        match shape % 6 {
            0 => text.push_str("{c} "),
            1 if ply > 0 => {
                // An alternative to this move, of one or two moves.
                let other = legal[(c as usize + 1) % legal.len()];
                text.push_str(&format!("( {other} "));
                let mut alt = pos.clone();
                let _ = alt.play_unchecked(other);
                let reply = alt.legal_moves();
                if let Some(&r) = reply.first() {
                    text.push_str(&format!("{r} "));
                }
                text.push_str(") ");
            }
            2 if !stack.is_empty() => {
                stack.pop();
            }
            _ => {}
        }
        if !wrong {
            stack.push(pos.clone());
            let _ = pos.play_unchecked(m);
        }
    }
    text.push_str("*\n");
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn streaming_and_record_replays_agree(
        choices in prop::collection::vec((any::<u8>(), prop::bool::weighted(0.05), any::<u8>()), 0..80),
    ) {
        let text = game(&choices);
        let streamed = pgn::read_with(&text, &mut Replayer::default());
        let records: Vec<Record> = pgn::read(&text);
        prop_assert_eq!(streamed.len(), records.len());
        for (s, r) in streamed.into_iter().zip(&records) {
            prop_assert_eq!(said(s), said(replay(r)), "{}", text);
            prop_assert_eq!(&r.visit(&mut RecordBuilder::default()), r);
        }
    }
}

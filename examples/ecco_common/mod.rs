//! What the ECCO study examples share: a game's opening plies written as
//! xqbase's classifier reads them.

use qipu::analysis::ecco;
use qipu::notation::wxf;
use qipu::{Move, Position};

/// The first 20 plies of a game from the standard start in WXF, mirrored
/// as the classifier reads them (`ecco::as_read`), each move padded to
/// four characters, with the letters xqbase's tools write (horse `N`,
/// elephant `B`).
pub fn classifier_text(moves: &[Move]) -> String {
    let mut pos = Position::start();
    let mut text = String::new();
    for m in ecco::as_read(moves) {
        let w: String = wxf::write(&pos, m)
            .expect("a move played has a piece on its origin")
            .chars()
            .map(|c| match c {
                'H' => 'N',
                'E' => 'B',
                c => c,
            })
            .collect();
        text.push_str(&format!("{w:<4}"));
        pos.play_unchecked(m);
    }
    text
}

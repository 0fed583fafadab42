//! The rules of movement, one at a time, on hand-built positions.

use qipu::{Color, Move, Outcome, Position, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves from one point, as sorted ICCS strings.
fn moves_from(p: &Position, from: &str) -> Vec<String> {
    let from: Square = from.parse().unwrap();
    let mut v: Vec<String> =
        p.legal_moves().iter().filter(|m| m.from == from).map(|m| m.to_string()).collect();
    v.sort();
    v
}

#[test]
fn horse_leg_blocks() {
    // Black pawn on e5 blocks the horse's northern leg.
    let p = pos("5k3/9/9/9/4p4/4N4/9/9/9/3K5 w");
    assert_eq!(moves_from(&p, "e4"), ["e4c3", "e4c5", "e4d2", "e4f2", "e4g3", "e4g5"]);
}

#[test]
fn elephant_eye_blocks_and_river_stops() {
    // Red horse on d3 blocks the eye towards c4.
    let p = pos("5k3/9/9/9/9/9/3N5/4B4/9/3K5 w");
    assert_eq!(moves_from(&p, "e2"), ["e2c0", "e2g0", "e2g4"]);
    // From c4 the elephant cannot cross the river to a6 or e6.
    let p = pos("5k3/9/9/9/9/2B6/9/9/9/3K5 w");
    assert_eq!(moves_from(&p, "c4"), ["c4a2", "c4e2"]);
}

#[test]
fn cannon_needs_exactly_one_screen() {
    let start = Position::start();
    assert_eq!(
        moves_from(&start, "b2"),
        ["b2a2", "b2b1", "b2b3", "b2b4", "b2b5", "b2b6", "b2b9", "b2c2", "b2d2", "b2e2", "b2f2", "b2g2"]
    );
    let p = pos("r4k3/9/9/p8/9/9/P8/C8/9/3K5 w");
    // The red pawn on a3 is the screen: the cannon captures the black pawn on a6 and
    // cannot reach the rook on a9 behind it.
    assert_eq!(
        moves_from(&p, "a2"),
        ["a2a0", "a2a1", "a2a6", "a2b2", "a2c2", "a2d2", "a2e2", "a2f2", "a2g2", "a2h2", "a2i2"]
    );
    // One screen: the cannon captures the first piece behind it, not beyond.
    let p = pos("r4k3/9/n8/9/9/9/P8/C8/9/3K5 w");
    assert!(moves_from(&p, "a2").contains(&"a2a7".to_string()));
    assert!(!moves_from(&p, "a2").contains(&"a2a9".to_string()));
}

#[test]
fn rook_slides_and_captures() {
    let p = pos("5k3/9/9/9/9/9/9/p8/9/R2K5 w");
    assert_eq!(moves_from(&p, "a0"), ["a0a1", "a0a2", "a0b0", "a0c0"]);
}

#[test]
fn pawns_before_and_after_the_river() {
    let p = pos("5k3/4P4/9/9/2P6/9/4P4/9/9/3K5 w");
    assert_eq!(moves_from(&p, "e3"), ["e3e4"]);
    assert_eq!(moves_from(&p, "c5"), ["c5b5", "c5c6", "c5d5"]);
    assert_eq!(moves_from(&p, "e8"), ["e8d8", "e8e9", "e8f8"]);
    // On the last rank a pawn only moves sideways.
    let p = pos("3k4P/9/9/9/9/9/9/9/9/4K4 w");
    assert_eq!(moves_from(&p, "i9"), ["i9h9"]);
    // Black pawns move down the board.
    let p = pos("3k5/9/9/4p4/9/6p2/9/9/9/4K4 b");
    assert_eq!(moves_from(&p, "e6"), ["e6e5"]);
    assert_eq!(moves_from(&p, "g4"), ["g4f4", "g4g3", "g4h4"]);
}

#[test]
fn king_and_advisors_stay_in_the_palace() {
    let p = pos("5k3/9/9/9/9/9/9/3A5/4A4/3K5 w");
    assert_eq!(moves_from(&p, "d0"), ["d0d1", "d0e0"]);
    // d0 and d2 hold red pieces; the advisor cannot leave the palace.
    assert_eq!(moves_from(&p, "e1"), ["e1f0", "e1f2"]);
    assert_eq!(moves_from(&p, "d2"), Vec::<String>::new());
}

#[test]
fn flying_general() {
    // d0-e0 would put the kings face to face.
    let p = pos("4k4/9/9/9/9/9/9/9/9/3K5 w");
    assert_eq!(p.legal_moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["d0d1"]);
    // The cannon alone between the kings may only move along the file, and cannot
    // capture the king without a screen.
    let p = pos("4k4/9/9/9/4c4/9/9/9/9/4K4 b");
    assert_eq!(moves_from(&p, "e5"), ["e5e1", "e5e2", "e5e3", "e5e4", "e5e6", "e5e7", "e5e8"]);
    // A horse alone between the kings cannot move at all.
    let p = pos("4k4/9/9/9/4n4/9/9/9/9/4K4 b");
    assert!(moves_from(&p, "e5").is_empty());
}

#[test]
fn no_move_into_check() {
    // The black rook on d9 covers d0, and f0 would face the black king on f9.
    let p = pos("3r1k3/9/9/9/9/9/9/9/9/4K4 w");
    assert_eq!(moves_from(&p, "e0"), ["e0e1"]);
    // A pinned horse cannot leave the line between a rook and its king.
    let p = pos("4r4/9/3k5/9/9/9/9/9/4N4/4K4 w");
    assert!(moves_from(&p, "e1").is_empty());
}

#[test]
fn checkmate_and_stalemate() {
    let mate = pos("R2k5/1R7/9/9/9/9/9/9/9/4K4 b");
    assert!(mate.is_check());
    assert!(mate.is_checkmate());
    assert!(!mate.is_stalemate());
    assert_eq!(mate.outcome(), Some(Outcome::Checkmate { winner: Color::Red }));

    let stale = pos("3k5/4P4/4P4/9/9/9/9/9/9/4K4 b");
    assert!(!stale.is_check());
    assert!(stale.is_stalemate());
    assert!(!stale.is_checkmate());
    assert_eq!(stale.outcome(), Some(Outcome::Stalemate { winner: Color::Red }));
    assert_eq!(stale.outcome().map(Outcome::winner), Some(Color::Red));

    assert_eq!(Position::start().outcome(), None);
}

#[test]
fn natural_move_limit() {
    let mut p = pos("3k5/9/9/9/p8/9/9/9/9/R3K4 w - - 118 70");
    assert!(!p.is_natural_limit());
    let _ = p.play(Move::new(Square::A0, Square::A1)).unwrap();
    assert_eq!(p.halfmoves(), 119);
    assert!(!p.is_natural_limit());
    let _ = p.play(Move::new(Square::D9, Square::D8)).unwrap();
    assert_eq!(p.halfmoves(), 120);
    assert!(p.is_natural_limit());
    // A capture resets the count.
    let _ = p.play(Move::new(Square::A1, Square::A5)).unwrap();
    assert_eq!(p.halfmoves(), 0);
    assert!(!p.is_natural_limit());
}

//! Groups made of real games and of made-up keys.

use super::*;
use crate::batch::Checker;
use crate::formats::pgn;
use std::sync::Arc;

const GAME: &str = "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h6 c6c5 5. h6g6 a9b9 6. b0c2 b9b8";

/// The entries of the games of `text`, and, with `truncated`, their
/// prefixes told.
fn collection(text: &str, kinds: Kinds) -> Collection {
    let games = pgn::read_with(text, &mut Annotations::new(Checker::following(Keyer::default())));
    let mut c = Collection::new(kinds);
    for (checked, annotation) in &games {
        c.push(Entry { key: checked.followed.unwrap_or_default(), annotation: *annotation });
    }
    if kinds.truncated {
        let lines = Arc::new(c.lines());
        let found = pgn::read_with(
            text,
            &mut Checker::following(Prefixes::new(lines, kinds.min_plies, kinds.mirror)),
        );
        for (g, checked) in found.iter().enumerate() {
            c.prefixes(g as u32, &checked.followed);
        }
    }
    c
}

/// A member: its game, whether kept, and its link.
type Shape = (u32, bool, Option<(u32, Why, bool)>);

fn members(groups: &Groups) -> Vec<Vec<Shape>> {
    groups
        .groups()
        .iter()
        .map(|g| {
            g.members.iter().map(|m| (m.game, m.kept, m.link.map(|l| (l.with, l.why, l.mirrored)))).collect()
        })
        .collect()
}

fn mirrored(line: &str) -> String {
    line.split(' ')
        .map(|w| match w.parse::<crate::Move>() {
            Ok(m) if w.len() == 4 => m.flip_horizontal().to_string(),
            _ => w.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn copies_of_a_line_whatever_the_tags() {
    let text = format!("[Red \"甲\"]\n{GAME} *\n\n{GAME} 7. g6g7 *\n\n[Event \"x\"]\n{{c}} {GAME} 1-0\n");
    let groups = collection(&text, Kinds::default()).groups(Keep::First);
    assert_eq!(members(&groups), [vec![(0, true, None), (2, false, Some((0, Why::Line, false)))]]);
    assert_eq!(groups.copies(), 1);
    assert_eq!(groups.verdict(2), Verdict::Copy { group: 0, kept: 0 });
}

#[test]
fn keep_policies() {
    // Game 1 has most tags and a comment; game 2 is the longest of the
    // same final position (by `final`, another order of moves).
    let text = format!("{GAME} *\n\n[Red \"a\"]\n[Black \"b\"]\n{{c}} {GAME} *\n\n{GAME} *\n");
    let c = collection(&text, Kinds::default());
    let kept = |keep| c.groups(keep).groups()[0].kept().game;
    assert_eq!((kept(Keep::First), kept(Keep::MostAnnotated), kept(Keep::Longest)), (0, 1, 0));
    let text = format!("{GAME} *\n\n{GAME} 7. g6g7 *\n\n{GAME} 7. g6g7 *\n");
    let kinds = Kinds { truncated: true, ..Kinds::default() };
    let c = collection(&text, kinds);
    // The longer games are kept, even with `first`: the first is truncated.
    assert_eq!(c.groups(Keep::First).groups()[0].kept().game, 1);
    assert_eq!(c.groups(Keep::Longest).groups()[0].kept().game, 1);
}

#[test]
fn truncated_copies_only_when_asked() {
    let text = format!("{GAME} *\n\n{GAME} 7. g6g7 c9e7 *\n");
    assert!(collection(&text, Kinds::default()).groups(Keep::First).groups().is_empty());
    let kinds = Kinds { truncated: true, ..Kinds::default() };
    let groups = collection(&text, kinds).groups(Keep::First);
    assert_eq!(members(&groups), [vec![(0, false, Some((1, Why::Truncated, false))), (1, true, None)]]);
    // A prefix shorter than --min-plies is no copy.
    let kinds = Kinds { truncated: true, min_plies: 13, ..Kinds::default() };
    assert!(collection(&text, kinds).groups(Keep::First).groups().is_empty());
}

#[test]
fn mirrored_copies_only_with_mirror() {
    let text = format!("{GAME} *\n\n{} *\n", mirrored(GAME));
    assert!(collection(&text, Kinds::default()).groups(Keep::First).groups().is_empty());
    let kinds = Kinds { mirror: true, ..Kinds::default() };
    let groups = collection(&text, kinds).groups(Keep::First);
    assert_eq!(members(&groups), [vec![(0, true, None), (1, false, Some((0, Why::Line, true)))]]);
    // A truncated mirrored copy, and a mirrored final position.
    let text = format!("{} *\n\n{GAME} 7. g6g7 *\n", mirrored(GAME));
    let kinds = Kinds { mirror: true, truncated: true, ..Kinds::default() };
    let groups = collection(&text, kinds).groups(Keep::First);
    assert_eq!(members(&groups), [vec![(0, false, Some((1, Why::Truncated, true))), (1, true, None)]]);
}

#[test]
fn the_same_final_position_in_another_order() {
    let other = "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 c6c5 4. h0h6 b9c7 5. h6g6 a9b9 6. b0c2 b9b8";
    let text = format!("{GAME} *\n\n{other} *\n");
    assert!(collection(&text, Kinds::default()).groups(Keep::First).groups().is_empty());
    let kinds = Kinds { end: true, ..Kinds::default() };
    let groups = collection(&text, kinds).groups(Keep::First);
    assert_eq!(members(&groups), [vec![(0, true, None), (1, false, Some((0, Why::End, false)))]]);
    let kinds = Kinds { end: true, mirror: true, line: false, ..Kinds::default() };
    let text = format!("{GAME} *\n\n{} *\n", mirrored(other));
    let groups = collection(&text, kinds).groups(Keep::First);
    assert_eq!(members(&groups), [vec![(0, true, None), (1, false, Some((0, Why::End, true)))]]);
}

#[test]
fn another_start_with_the_same_moves_is_no_copy() {
    let fen = "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w\"]";
    let text = format!("{GAME} *\n\n{fen}\n{GAME} *\n");
    let kinds = Kinds { end: false, mirror: true, truncated: true, ..Kinds::default() };
    assert!(collection(&text, kinds).groups(Keep::First).groups().is_empty());
}

#[test]
fn links_are_chains_from_the_kept_member() {
    // 0 and 2 share a line; 1 ends as 2 does (another order): 1 links to
    // the member it matches, whichever is kept.
    let other = "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 c6c5 4. h0h6 b9c7 5. h6g6 a9b9 6. b0c2 b9b8";
    let text = format!("{GAME} *\n\n{other} *\n\n[Red \"a\"]\n{GAME} *\n");
    let kinds = Kinds { end: true, ..Kinds::default() };
    let groups = collection(&text, kinds).groups(Keep::MostAnnotated);
    let group = &members(&groups)[0];
    assert_eq!(group[2], (2, true, None));
    assert_eq!(group[0], (0, false, Some((2, Why::Line, false))));
    assert!(matches!(group[1], (1, false, Some((_, Why::End, false)))));
}

#[test]
fn one_pass_dedupe_agrees_on_plain_copies() {
    let text = format!("{GAME} *\n\n{} *\n\n{GAME} *\n\n1. h2e2 *\n\n1. h2e2 *\n", mirrored(GAME));
    let games = pgn::read_with(&text, &mut Checker::following(Keyer::default()));
    let mut dedupe = Dedupe::new(Kinds { mirror: true, ..Kinds::default() });
    let verdicts: Vec<_> =
        games.iter().map(|c| dedupe.next(c.followed.as_ref()).map(|l| (l.with, l.mirrored))).collect();
    assert_eq!(verdicts, [None, Some((0, true)), Some((0, false)), None, None]);
}

#[test]
fn made_up_keys_with_the_same_hash_and_another_length_do_not_match() {
    let entry = |line, plies| Entry { key: Key { line, plies, ..Key::default() }, annotation: 0 };
    let mut c = Collection::new(Kinds { min_plies: 0, ..Kinds::default() });
    for e in [entry(5, 10), entry(5, 11), entry(9, 0), entry(9, 0)] {
        c.push(e);
    }
    // --min-plies 0 is read as 1: keyless games (0 plies) never match.
    assert!(c.groups(Keep::First).groups().is_empty());
}

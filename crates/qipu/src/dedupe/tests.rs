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
    let entry = |line, plies| Entry { key: GameKey { line, plies, ..GameKey::default() }, annotation: 0 };
    let mut c = Collection::new(Kinds { min_plies: 0, ..Kinds::default() });
    for e in [entry(5, 10), entry(5, 11), entry(9, 0), entry(9, 0)] {
        c.push(e);
    }
    // --min-plies 0 is read as 1: keyless games (0 plies) never match.
    assert!(c.groups(Keep::First).groups().is_empty());
}

#[test]
fn only_the_hashes_the_kinds_need_are_kept() {
    let key = GameKey { line: 1, mirrored_line: 2, end: 3, mirrored_end: 4, plies: 20 };
    let kept = |kinds: Kinds| {
        let mut c = Collection::new(kinds);
        c.push(Entry { key, annotation: 7 });
        c.entry(0).unwrap()
    };
    let line = kept(Kinds::default());
    assert_eq!(
        (line.key.line, line.key.mirrored_line, line.key.end, line.key.plies, line.annotation),
        (1, 0, 0, 20, 7)
    );
    assert_eq!(kept(Kinds { mirror: true, ..Kinds::default() }).key.mirrored_line, 2);
    let end = kept(Kinds { end: true, ..Kinds::default() }).key;
    assert_eq!((end.end, end.mirrored_end), (3, 0));
    assert_eq!(kept(Kinds { end: true, mirror: true, ..Kinds::default() }).key, key);
}

#[test]
fn lines_sharing_their_high_bits_are_told_apart() {
    let entry = |line, plies| Entry { key: GameKey { line, plies, ..GameKey::default() }, annotation: 0 };
    let (a, b) = (7u64 << 32 | 1, 7u64 << 32 | 2);
    let mut c = Collection::new(Kinds::default());
    for e in [entry(b, 20), entry(a, 20), entry(b, 20), entry(a, 20), entry(a, 21), entry(b, 20)] {
        c.push(e);
    }
    let groups = c.groups(Keep::First);
    let games: Vec<Vec<u32>> =
        groups.groups().iter().map(|g| g.members.iter().map(|m| m.game).collect()).collect();
    // Game 4 has line a but another length: no copy.
    assert_eq!(games, [vec![0, 2, 5], vec![1, 3]]);
    assert_eq!(groups.verdict(5), Verdict::Copy { group: 0, kept: 0 });
    assert_eq!(groups.verdict(4), Verdict::Keep);
}

#[test]
fn a_thousand_copies_of_one_game_make_one_group() {
    let entry =
        |line| Entry { key: GameKey { line, plies: 30, end: 5, ..GameKey::default() }, annotation: 0 };
    let mut c = Collection::new(Kinds { end: true, mirror: true, ..Kinds::default() });
    for g in 0..1000u64 {
        c.push(entry(if g % 2 == 0 { 11 } else { 12 }));
    }
    let groups = c.groups(Keep::First);
    assert_eq!(groups.groups().len(), 1);
    assert_eq!(groups.copies(), 999);
    // The odd games share the even ones' final position only.
    let member = groups.groups()[0].members[1];
    assert_eq!(member.link.map(|l| (l.with, l.why)), Some((0, Why::End)));
}

#[test]
fn stopping_at_the_lead_finds_what_every_prefix_finds() {
    let cut = "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h6 c6c5 5. h6g6 a9b9";
    let other = "1. c3c4 b9c7 2. b0c2 a9b9 3. a0b0 h9g7 4. b2b6 g6g5 5. h2e2 i9h9 6. h0g2";
    let text = format!("{GAME} *\n\n{cut} *\n\n{} *\n\n{other} *\n\n{} *\n", mirrored(cut), mirrored(GAME));
    let keyed = pgn::read_with(&text, &mut Checker::following((Keyer::default(), Lead::new(10))));
    let lines = Arc::new(Lines::new(keyed.iter().map(|c| c.followed.0.unwrap().line).collect()));
    let leads = Arc::new(Leads::new(keyed.iter().map(|c| c.followed.1.unwrap().0).collect()));
    for mirror in [false, true] {
        let every = pgn::read_with(&text, &mut Checker::following(Prefixes::new(lines.clone(), 10, mirror)));
        let every: Vec<Vec<Prefix>> = every.into_iter().map(|c| c.followed).collect();
        let scan = Prefixes::new(lines.clone(), 10, mirror).with_leads(leads.clone());
        let scanned = pgn::read_with(&text, &mut PrefixScan::new(scan));
        assert_eq!(scanned, every);
        assert_eq!(every[0].len(), if mirror { 2 } else { 1 });
        assert!(every[3].is_empty());
    }
    // The game of its own lead holds no other: no more of it is looked at.
    let (lead, mirrored_lead) = keyed[3].followed.1.unwrap();
    assert!(!leads.may_hold(lead, Some(mirrored_lead)));
    assert!(leads.may_hold(keyed[0].followed.1.unwrap().0, None));
}

//! Groups of copies in a whole collection: each game's [`Entry`] (its key
//! and how annotated it is) in input order, then the groups of games that
//! match by the kinds of sameness asked for, and which member of each is
//! kept.
//!
//! Games are numbered in input order from 0 (the `n`-th entry pushed is
//! game `n`). Matches join groups transitively: a game that matches two
//! groups joins them. Each member is linked to one other member it matches
//! ([`Link`]), along the shortest chain of matches from the kept one.

use super::key::GameKey;

/// A game of the collection: its key and how annotated it is.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// Its key; a game without one (unreadable, a bad start) has a default
    /// key of 0 plies, too short to match.
    pub key: GameKey,
    /// Its comments, variations and tags, counted (for `Keep::MostAnnotated`).
    pub annotation: u32,
}

/// The kinds of sameness looked for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Kinds {
    /// The same main line from the same start.
    pub line: bool,
    /// The same final position after as many plies.
    pub end: bool,
    /// One game's main line is a prefix of another's (needs a second pass:
    /// see [`Collection::lines`](super::Collection::lines)).
    pub truncated: bool,
    /// The kinds asked for match the left–right mirror of a game too.
    pub mirror: bool,
    /// Games shorter than this are never copies (at least 1).
    pub min_plies: u32,
}

impl Default for Kinds {
    /// The same line, of 10 plies or more.
    fn default() -> Kinds {
        Kinds { line: true, end: false, truncated: false, mirror: false, min_plies: 10 }
    }
}

/// Which member of a group is kept.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Keep {
    /// The first in input order.
    #[default]
    First,
    /// The one with most plies (the first of those).
    Longest,
    /// The one with most comments, variations and tags together (the first
    /// of those).
    MostAnnotated,
}

/// How two games match.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Why {
    /// The same main line from the same start.
    Line,
    /// The same final position after as many plies.
    End,
    /// This game's line is a prefix of the other's.
    Truncated,
    /// The other game's line is a prefix of this one's.
    Longer,
}

impl Why {
    /// `line`, `final`, `truncated` or `longer`: the name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Why::Line => "line",
            Why::End => "final",
            Why::Truncated => "truncated",
            Why::Longer => "longer",
        }
    }
}

/// Which member a member matches, and how.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The game it matches.
    pub with: u32,
    /// How.
    pub why: Why,
    /// Whether it matches the other game's mirror.
    pub mirrored: bool,
}

/// A member of a group.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The game, numbered in input order.
    pub game: u32,
    /// Whether it is the one kept.
    pub kept: bool,
    /// The member it matches (the kept one has none).
    pub link: Option<Link>,
}

/// A group of copies: at least two members, in input order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The members.
    pub members: Vec<Member>,
}

impl Group {
    /// The member kept.
    pub fn kept(&self) -> &Member {
        self.members.iter().find(|m| m.kept).unwrap_or(&self.members[0])
    }
}

/// What to do with a game: keep it, or leave it out as a copy of another.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not a copy, or the copy kept.
    Keep,
    /// A copy: of group `group` (from 0), whose kept game is `kept`.
    Copy {
        /// The group.
        group: u32,
        /// The game kept of it.
        kept: u32,
    },
}

/// The groups made of `matches` (a game, the game it matches, and how),
/// taken in order: each joins two groups only if they were apart. `kept`
/// says which of a group's games (in input order) is kept.
///
/// Only the games that match are numbered apart: whatever the collection's
/// size, this takes memory for the matches only.
pub(super) fn assemble(matches: Vec<(u32, u32, Link)>, kept: impl Fn(&[u32]) -> u32) -> Groups {
    let mut games: Vec<u32> = matches.iter().flat_map(|&(a, b, _)| [a, b]).collect();
    games.sort_unstable();
    games.dedup();
    games.shrink_to_fit();
    let index = |g: u32| games.binary_search(&g).unwrap_or(0) as u32;
    let mut sets = Sets::new(games.len());
    let mut edges: Vec<(u32, (u32, u32, Link))> = Vec::new();
    for m in matches {
        if sets.union(index(m.0), index(m.1)) {
            edges.push((0, m));
        }
    }
    for e in &mut edges {
        e.0 = sets.find(index(e.1.0));
    }
    edges.sort_unstable_by_key(|e| (e.0, e.1.0));
    // The members of each set, in input order (the games are sorted).
    let mut members: Vec<(u32, u32)> =
        (0..games.len() as u32).map(|i| (sets.find(i), games[i as usize])).collect();
    drop(sets);
    members.sort_unstable();
    let mut groups = Vec::new();
    let mut at = 0;
    for run in members.chunk_by(|a, b| a.0 == b.0) {
        if run.len() < 2 {
            continue;
        }
        let root = run[0].0;
        let games: Vec<u32> = run.iter().map(|&(_, g)| g).collect();
        while at < edges.len() && edges[at].0 < root {
            at += 1;
        }
        let start = at;
        while at < edges.len() && edges[at].0 == root {
            at += 1;
        }
        let kept = kept(&games);
        let links = links_from(kept, &games, edges[start..at].iter().map(|e| e.1));
        let members =
            games.iter().zip(links).map(|(&game, link)| Member { game, kept: game == kept, link }).collect();
        groups.push(Group { members });
    }
    groups.sort_unstable_by_key(|g| g.members[0].game);
    let mut copies: Vec<(u32, u32, u32)> = Vec::new();
    for (k, group) in groups.iter().enumerate() {
        let kept = group.kept().game;
        copies.extend(group.members.iter().filter(|m| !m.kept).map(|m| (m.game, k as u32, kept)));
    }
    copies.sort_unstable();
    Groups { groups, copies }
}

/// Each of `games` (sorted) linked to a neighbour on a shortest chain of
/// `edges` from `kept` (a breadth-first walk); an edge `(a, b, link)` says
/// `a` matches `b` as `link` tells, and `b` matches `a` the other way.
fn links_from(kept: u32, games: &[u32], edges: impl Iterator<Item = (u32, u32, Link)>) -> Vec<Option<Link>> {
    let index = |g: u32| games.binary_search(&g).unwrap_or(0);
    let mut adjacent: Vec<(usize, u32, Link)> = Vec::new();
    for (a, b, link) in edges {
        adjacent.push((index(a), b, link));
        let back = match link.why {
            Why::Truncated => Why::Longer,
            Why::Longer => Why::Truncated,
            why => why,
        };
        adjacent.push((index(b), a, Link { with: a, why: back, mirrored: link.mirrored }));
    }
    adjacent.sort_unstable_by_key(|e| e.0);
    let mut links = vec![None; games.len()];
    let mut seen = vec![false; games.len()];
    let mut queue = std::collections::VecDeque::from([kept]);
    seen[index(kept)] = true;
    while let Some(g) = queue.pop_front() {
        let i = index(g);
        let from = adjacent.partition_point(|e| e.0 < i);
        for &(_, other, link) in adjacent[from..].iter().take_while(|e| e.0 == i) {
            let j = index(other);
            if !seen[j] {
                seen[j] = true;
                // `other` matches `g`: the link seen from `other`.
                let why = match link.why {
                    Why::Truncated => Why::Longer,
                    Why::Longer => Why::Truncated,
                    why => why,
                };
                links[j] = Some(Link { with: g, why, mirrored: link.mirrored });
                queue.push_back(other);
            }
        }
    }
    links
}

/// The groups of a collection, and which games are copies.
#[derive(Clone, Debug, Default)]
pub struct Groups {
    groups: Vec<Group>,
    /// (game, group, kept game) of each copy not kept, by game.
    copies: Vec<(u32, u32, u32)>,
}

impl Groups {
    /// The groups, in the order of their first members.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Whether `game` is kept or left out as a copy.
    pub fn verdict(&self, game: u32) -> Verdict {
        match self.copies.binary_search_by_key(&game, |c| c.0) {
            Ok(i) => Verdict::Copy { group: self.copies[i].1, kept: self.copies[i].2 },
            Err(_) => Verdict::Keep,
        }
    }

    /// How many games are copies left out.
    pub fn copies(&self) -> usize {
        self.copies.len()
    }
}

/// Disjoint sets of games (union by size, path halving).
#[derive(Clone, Debug)]
struct Sets {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl Sets {
    fn new(n: usize) -> Sets {
        Sets { parent: (0..n as u32).collect(), size: vec![1; n] }
    }

    fn find(&mut self, mut g: u32) -> u32 {
        while self.parent[g as usize] != g {
            let up = self.parent[self.parent[g as usize] as usize];
            self.parent[g as usize] = up;
            g = up;
        }
        g
    }

    /// Joins the sets of `a` and `b`; whether they were apart.
    fn union(&mut self, a: u32, b: u32) -> bool {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        let (big, small) = if self.size[a as usize] >= self.size[b as usize] { (a, b) } else { (b, a) };
        self.parent[small as usize] = big;
        self.size[big as usize] += self.size[small as usize];
        true
    }
}

//! The pass that finds truncated copies, planned from each game's lead
//! (see [`Leads`]): only the games whose lead another game shares (or
//! whose mirrored lead is another game's) may hold another game's whole
//! line, and only the lines of such games may be found.

use std::sync::Arc;

use super::collection::Collection;
use super::group::Kinds;
use super::prefix::{Leads, Lines, PrefixScan, Prefixes};

/// What the pass for truncated copies looks for, and in which games.
#[derive(Clone, Debug)]
pub struct Truncation {
    leads: Arc<Leads>,
    lines: Arc<Lines>,
    holders: Vec<u32>,
    min_plies: u32,
    mirror: bool,
}

impl Truncation {
    /// The plan for `collection`, whose game `g` has the lead and
    /// mirrored lead `leads[g]` (as [`Lead`](super::Lead) follows them, of
    /// `kinds.min_plies` plies; anything for a game too short to match).
    pub fn plan(collection: &Collection, leads: &[(u32, u32)], kinds: Kinds) -> Truncation {
        let min_plies = kinds.min_plies.max(1);
        let eligible = |g: usize| collection.plies(g as u32) >= min_plies;
        let of_eligible = |pick: fn(&(u32, u32)) -> u32| {
            Leads::new(leads.iter().enumerate().filter(|&(g, _)| eligible(g)).map(|(_, l)| pick(l)).collect())
        };
        let all = of_eligible(|l| l.0);
        let holders = (0..leads.len())
            .filter(|&g| eligible(g) && all.may_hold(leads[g].0, kinds.mirror.then_some(leads[g].1)))
            .map(|g| g as u32)
            .collect();
        // The lines that may be found: of a lead another game shares, or
        // that is another game's mirrored lead.
        let mirrored = if kinds.mirror { of_eligible(|l| l.1) } else { Leads::default() };
        let found = (0..leads.len())
            .filter(|&g| eligible(g))
            .filter(|&g| {
                all.count(leads[g].0) >= 2
                    || mirrored.count(leads[g].0) > usize::from(leads[g].0 == leads[g].1)
            })
            .map(|g| collection.entry(g as u32).map_or(0, |e| e.key.line))
            .collect();
        Truncation {
            leads: Arc::new(all),
            lines: Arc::new(Lines::new(found)),
            holders,
            min_plies,
            mirror: kinds.mirror,
        }
    }

    /// The games that may hold another game's whole line, in input order:
    /// the pass need read no other.
    pub fn holders(&self) -> &[u32] {
        &self.holders
    }

    /// A visitor for the pass: what it finds of a game is told to
    /// [`Collection::prefixes`].
    pub fn scan(&self) -> PrefixScan {
        PrefixScan::new(
            Prefixes::new(self.lines.clone(), self.min_plies, self.mirror).with_leads(self.leads.clone()),
        )
    }
}

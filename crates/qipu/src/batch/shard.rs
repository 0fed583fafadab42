//! One part of a batch's inputs, for work spread over processes or
//! machines: [`Shard`].

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::str::FromStr;

use super::input::{Expanded, Input};

/// Part `index` (from 0) of `count` parts of a batch's inputs: each part
/// holds whole inputs (files, archive members, bytes), about as many bytes
/// as the others, and every input is in exactly one part.
///
/// Every worker of a cluster lists the same paths ([`expand`](super::expand))
/// and keeps its own part, so no list of files has to be handed out: the
/// parts are made the same way from the same listing. The inputs must not
/// change while the parts are read (a file that grows between two workers'
/// listings can move to another part). Standard input, and paths that are
/// not read (a broken link, a pipe met in a folder), go to part 0, so that
/// their counts are told once. A part is written `K/N` (`0/4` … `3/4`).
///
/// ```
/// use qipu::batch::{Shard, expand};
/// let inputs = expand(&["fixtures".into()]).inputs;
/// let parts: Vec<_> = (0..3).map(|k| Shard::new(k, 3).unwrap().of(inputs.clone())).collect();
/// assert_eq!(parts.iter().map(Vec::len).sum::<usize>(), inputs.len());
/// assert_eq!("1/3".parse::<Shard>().unwrap(), Shard::new(1, 3).unwrap());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: usize,
    count: usize,
}

/// Why a [`Shard`] cannot be made: its count is 0, or its index is not below
/// its count, or its text is not `K/N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ShardError(String);

impl Shard {
    /// Part `index` of `count` (from 0 to `count - 1`).
    ///
    /// # Errors
    ///
    /// When `count` is 0 or `index` is not below it.
    pub fn new(index: usize, count: usize) -> Result<Shard, ShardError> {
        if count == 0 {
            return Err(ShardError("a shard count of 0: there must be at least one part".into()));
        }
        if index >= count {
            return Err(ShardError(format!(
                "shard {index} of {count}: parts are numbered from 0 to {}",
                count - 1
            )));
        }
        Ok(Shard { index, count })
    }

    /// Which part it is, from 0.
    pub fn index(self) -> usize {
        self.index
    }

    /// How many parts there are.
    pub fn count(self) -> usize {
        self.count
    }

    /// The inputs of this part, in the order given: the largest input goes
    /// to the part holding fewest bytes so far (the lower part on a tie),
    /// then the next largest, and so on.
    pub fn of(self, inputs: Vec<Input>) -> Vec<Input> {
        let parts = self.parts(&inputs);
        inputs.into_iter().zip(parts).filter(|(_, p)| *p == self.index).map(|(input, _)| input).collect()
    }

    /// The inputs of this part of an expansion as [`of`](Shard::of) gives
    /// them, each with its place below its folder; part 0 keeps the notes
    /// of what is not read (a file named twice, a link looping back), so
    /// that they are told once.
    pub fn of_expanded(self, expanded: Expanded) -> Expanded {
        let Expanded { inputs, loops, unread, within } = expanded;
        let parts = self.parts(&inputs);
        let (inputs, within) = inputs
            .into_iter()
            .zip(within)
            .zip(parts)
            .filter(|(_, p)| *p == self.index)
            .map(|(kept, _)| kept)
            .unzip();
        let first = self.index == 0;
        Expanded {
            inputs,
            within,
            loops: if first { loops } else { Vec::new() },
            unread: if first { unread } else { Vec::new() },
        }
    }

    /// The part of each input.
    fn parts(self, inputs: &[Input]) -> Vec<usize> {
        let mut part = vec![0; inputs.len()];
        if self.count == 1 {
            return part;
        }
        let mut order: Vec<usize> = (0..inputs.len()).collect();
        order.sort_by_key(|&k| (Reverse(inputs[k].weight()), k));
        let mut loads: BinaryHeap<Reverse<(u64, usize)>> = (0..self.count).map(|p| Reverse((0, p))).collect();
        for k in order {
            let Some(weight) = inputs[k].weight() else { continue };
            let Reverse((load, p)) = loads.pop().expect("a part");
            part[k] = p;
            loads.push(Reverse((load.saturating_add(weight.max(1)), p)));
        }
        part
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad =
            || ShardError(format!("{text:?} is not a shard: write K/N, part K (from 0) of N parts, as 0/4"));
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index = index.trim().parse().map_err(|_| bad())?;
        let count = count.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count)
    }
}

impl Input {
    /// The bytes an input holds, by which inputs are shared out among
    /// [`Shard`]s; `None` for one that goes to part 0 whatever its size
    /// (standard input, a path that is not read).
    fn weight(&self) -> Option<u64> {
        match self {
            Input::File { len, .. } => Some(len.unwrap_or(0)),
            Input::Member(member) => Some(member.size().unwrap_or(0)),
            Input::Bytes { bytes, .. } => Some(bytes.len() as u64),
            Input::Stdin | Input::KeptStdin { .. } | Input::Problem { .. } | Input::Skipped { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, len: u64) -> Input {
        Input::File { path: name.into(), found: true, len: Some(len) }
    }

    fn names(inputs: &[Input]) -> Vec<String> {
        inputs.iter().map(Input::name).collect()
    }

    #[test]
    fn every_input_is_in_one_part_in_the_order_given() {
        let inputs: Vec<Input> =
            (0..40).map(|k| file(&format!("{k:02}.pgn"), (k * 37 % 11) as u64 * 1000)).collect();
        let mut all = Vec::new();
        for k in 0..4 {
            let part = Shard::new(k, 4).unwrap().of(inputs.clone());
            let mut sorted = names(&part);
            sorted.sort();
            assert_eq!(sorted, names(&part), "part {k} keeps the order given");
            all.extend(names(&part));
        }
        all.sort();
        assert_eq!(all, names(&inputs));
    }

    #[test]
    fn parts_hold_about_as_many_bytes() {
        // 10, 9, 8, ... 1 KB over three parts: the largest first to the
        // lightest part gives 19, 18 and 18 KB.
        let inputs: Vec<Input> = (1..=10).map(|k| file(&format!("{k}.pgn"), k * 1000)).collect();
        let loads: Vec<u64> = (0..3)
            .map(|k| Shard::new(k, 3).unwrap().of(inputs.clone()).iter().map(|i| i.weight().unwrap()).sum())
            .collect();
        assert_eq!(loads, [19_000, 18_000, 18_000]);
    }

    #[test]
    fn what_is_not_a_file_goes_to_the_first_part() {
        let inputs = vec![
            file("a.pgn", 10),
            Input::Stdin,
            Input::Problem { path: "gone.pgn".into(), reason: crate::formats::UnreadableReason::NotFound },
            file("b.pgn", 20),
        ];
        assert_eq!(names(&Shard::new(0, 2).unwrap().of(inputs.clone())), ["-", "gone.pgn", "b.pgn"]);
        assert_eq!(names(&Shard::new(1, 2).unwrap().of(inputs)), ["a.pgn"]);
    }

    #[test]
    fn a_shard_is_read_from_k_slash_n() {
        assert_eq!("3/8".parse::<Shard>().unwrap().to_string(), "3/8");
        for bad in ["8/8", "1/0", "1", "a/b", "-1/2"] {
            let e = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(e.contains("shard") || e.contains("parts"), "{bad}: {e}");
        }
    }
}

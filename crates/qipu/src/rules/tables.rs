//! Move and attack tables, computed at compile time.
//!
//! Every table is indexed by point index (0…89). Lists are padded with
//! unused entries and carry their length.

/// Up to `N` destinations from one point, each with the point that must be
/// empty for the step (horse leg, elephant eye; unused for other pieces).
#[derive(Copy, Clone)]
pub(crate) struct Steps<const N: usize> {
    pub len: u8,
    pub to: [u8; N],
    pub via: [u8; N],
}

impl<const N: usize> Steps<N> {
    const EMPTY: Steps<N> = Steps { len: 0, to: [0; N], via: [0; N] };

    const fn push(mut self, to: u8, via: u8) -> Steps<N> {
        self.to[self.len as usize] = to;
        self.via[self.len as usize] = via;
        self.len += 1;
        self
    }
}

/// The points in one direction from a point, nearest first.
#[derive(Copy, Clone)]
pub(crate) struct Ray {
    pub len: u8,
    pub squares: [u8; 9],
    /// The same points as a set.
    pub(crate) mask: u128,
}

const fn at(sq: usize, df: i32, dr: i32) -> Option<u8> {
    let f = (sq % 9) as i32 + df;
    let r = (sq / 9) as i32 + dr;
    if f < 0 || f > 8 || r < 0 || r > 9 { None } else { Some((r * 9 + f) as u8) }
}

/// Palace of the half of the board that `sq` is in: 0 = Red's, 1 = Black's.
const fn palace_of(sq: u8) -> Option<usize> {
    let f = sq % 9;
    let r = sq / 9;
    if f < 3 || f > 5 {
        None
    } else if r <= 2 {
        Some(0)
    } else if r >= 7 {
        Some(1)
    } else {
        None
    }
}

/// Directions: north (towards Black), south, east (towards file i), west.
pub(crate) const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

const fn palace_steps(diagonal: bool) -> [Steps<4>; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        if let Some(home) = palace_of(sq as u8) {
            let mut d = 0;
            while d < 4 {
                let (df, dr) = if diagonal { [(1, 1), (1, -1), (-1, 1), (-1, -1)][d] } else { DIRS[d] };
                if let Some(to) = at(sq, df, dr)
                    && let Some(p) = palace_of(to)
                    && p == home
                {
                    t[sq] = t[sq].push(to, 0);
                }
                d += 1;
            }
        }
        sq += 1;
    }
    t
}

/// King steps: one point orthogonally, staying inside the palace.
pub(crate) static KING: [Steps<4>; 90] = palace_steps(false);
/// Advisor steps: one point diagonally, staying inside the palace.
pub(crate) static ADVISOR: [Steps<4>; 90] = palace_steps(true);

const fn elephant_steps() -> [Steps<4>; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let red_half = sq / 9 <= 4;
        let mut d = 0;
        while d < 4 {
            let (df, dr) = [(2, 2), (2, -2), (-2, 2), (-2, -2)][d];
            if let Some(to) = at(sq, df, dr)
                && ((to / 9) <= 4) == red_half
                && let Some(eye) = at(sq, df / 2, dr / 2)
            {
                t[sq] = t[sq].push(to, eye);
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Elephant steps: two points diagonally, never across the river; `via` is
/// the eye that must be empty.
pub(crate) static ELEPHANT: [Steps<4>; 90] = elephant_steps();

const HORSE_JUMPS: [(i32, i32, i32, i32); 8] = [
    // (df, dr, leg_df, leg_dr)
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

const fn horse_steps() -> [Steps<8>; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut j = 0;
        while j < 8 {
            let (df, dr, lf, lr) = HORSE_JUMPS[j];
            if let Some(to) = at(sq, df, dr)
                && let Some(leg) = at(sq, lf, lr)
            {
                t[sq] = t[sq].push(to, leg);
            }
            j += 1;
        }
        sq += 1;
    }
    t
}

/// Horse jumps; `via` is the leg that must be empty.
pub(crate) static HORSE: [Steps<8>; 90] = horse_steps();

const fn horse_attackers() -> [Steps<8>; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut from = 0;
    while from < 90 {
        let s = HORSE_TABLE[from];
        let mut i = 0;
        while i < s.len as usize {
            let to = s.to[i] as usize;
            t[to] = t[to].push(from as u8, s.via[i]);
            i += 1;
        }
        from += 1;
    }
    t
}

const HORSE_TABLE: [Steps<8>; 90] = horse_steps();

/// For a target point, the points a horse can attack it from (`to`) and the
/// leg that must be empty for that (`via`).
pub(crate) static HORSE_ATTACKERS: [Steps<8>; 90] = horse_attackers();

const fn pawn_steps(red: bool) -> [Steps<3>; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let rank = sq / 9;
        let forward = if red { 1 } else { -1 };
        let crossed = if red { rank >= 5 } else { rank <= 4 };
        if let Some(to) = at(sq, 0, forward) {
            t[sq] = t[sq].push(to, 0);
        }
        if crossed {
            if let Some(to) = at(sq, -1, 0) {
                t[sq] = t[sq].push(to, 0);
            }
            if let Some(to) = at(sq, 1, 0) {
                t[sq] = t[sq].push(to, 0);
            }
        }
        sq += 1;
    }
    t
}

const PAWN_TABLE: [[Steps<3>; 90]; 2] = [pawn_steps(true), pawn_steps(false)];

/// Pawn steps by colour (0 = Red): forward, and sideways once across the river.
pub(crate) static PAWN: [[Steps<3>; 90]; 2] = PAWN_TABLE;

const fn pawn_attackers(color: usize) -> [Steps<3>; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut from = 0;
    while from < 90 {
        let s = PAWN_TABLE[color][from];
        let mut i = 0;
        while i < s.len as usize {
            let to = s.to[i] as usize;
            t[to] = t[to].push(from as u8, 0);
            i += 1;
        }
        from += 1;
    }
    t
}

/// For a pawn colour (0 = Red) and a target point, the points from which a
/// pawn of that colour attacks the target.
pub(crate) static PAWN_ATTACKERS: [[Steps<3>; 90]; 2] = [pawn_attackers(0), pawn_attackers(1)];

const fn rays() -> [[Ray; 4]; 90] {
    let mut t = [[Ray { len: 0, squares: [0; 9], mask: 0 }; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            let mut n = 1;
            while let Some(to) = at(sq, df * n, dr * n) {
                let r = &mut t[sq][d];
                r.squares[r.len as usize] = to;
                r.len += 1;
                r.mask |= 1u128 << to;
                n += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

const fn line_masks<const N: usize>(file: bool) -> [u128; N] {
    let mut t = [0u128; N];
    let mut sq = 0;
    while sq < 90 {
        let i = if file { sq % 9 } else { sq / 9 };
        t[i] |= 1u128 << sq;
        sq += 1;
    }
    t
}

/// The ten points of each file, `a` to `i`.
pub(crate) static FILE_MASKS: [u128; 9] = line_masks::<9>(true);

/// The four rays from each point, in the order of [`DIRS`].
pub(crate) static RAYS: [[Ray; 4]; 90] = rays();

/// No direction: the two points are not on one file or rank, or are one point.
pub(crate) const NO_DIRECTION: u8 = u8::MAX;

const fn directions() -> [[u8; 90]; 90] {
    let mut table = [[NO_DIRECTION; 90]; 90];
    let mut a = 0;
    while a < 90 {
        let mut b = 0;
        while b < 90 {
            let (a_file, a_rank, b_file, b_rank) = (a % 9, a / 9, b % 9, b / 9);
            table[a][b] = if a == b {
                NO_DIRECTION
            } else if a_file == b_file {
                if b_rank > a_rank { 0 } else { 1 }
            } else if a_rank == b_rank {
                if b_file > a_file { 2 } else { 3 }
            } else {
                NO_DIRECTION
            };
            b += 1;
        }
        a += 1;
    }
    table
}

/// `DIRECTIONS[a][b]`: the ray of `RAYS[a]` (north, south, east, west) that
/// reaches `b`, or `NO_DIRECTION`.
pub(crate) static DIRECTIONS: [[u8; 90]; 90] = directions();

/// Single-point sets: `BIT[n]` holds point `n` alone (a table lookup costs
/// less than a variable 128-bit shift).
pub(crate) static BIT: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        t[sq] = 1u128 << sq;
        sq += 1;
    }
    t
};

/// Flags of [`PAIRS`]: what point `b` is to point `a`.
pub(crate) mod pair {
    /// Bits 0-1: with `LINE`, the ray of `RAYS[a]` (north, south, east,
    /// west) that reaches `b`; with `DIAG`, the diagonal step from `a` to `b`.
    pub(crate) const DIR: u32 = 0b11;
    /// `b` is another point of `a`'s file or rank.
    pub(crate) const LINE: u32 = 1 << 2;
    /// `b` touches `a` diagonally: it is the leg of a horse attacking `a`
    /// from one of the two points given by `HORSE_1` and `HORSE_2`.
    pub(crate) const DIAG: u32 = 1 << 3;
    /// A pawn of the side (index by colour) on `a` steps to `b`.
    pub(crate) const PAWN: [u32; 2] = [1 << 4, 1 << 5];
    /// A king on `a` steps to `b`.
    pub(crate) const KING: u32 = 1 << 6;
    /// An advisor on `a` steps to `b`.
    pub(crate) const ADVISOR: u32 = 1 << 7;
    /// A horse on `a` jumps to `b` over the leg given by `VIA`.
    pub(crate) const HORSE: u32 = 1 << 8;
    /// An elephant on `a` jumps to `b` over the eye given by `VIA`.
    pub(crate) const ELEPHANT: u32 = 1 << 9;
    /// Shift of the leg or eye (with `HORSE`, `ELEPHANT`) and of the first
    /// horse point (with `DIAG`; `u8::MAX` when off the board).
    pub(crate) const VIA: u32 = 16;
    /// Shift of the second horse point (with `DIAG`).
    pub(crate) const HORSE_2: u32 = 24;
}

const fn pairs() -> [[u32; 90]; 90] {
    let mut t = [[0u32; 90]; 90];
    let dirs = directions();
    let king = palace_steps(false);
    let advisor = palace_steps(true);
    let elephant = elephant_steps();
    let mut a = 0;
    while a < 90 {
        let mut b = 0;
        while b < 90 {
            if dirs[a][b] != NO_DIRECTION {
                t[a][b] |= pair::LINE | dirs[a][b] as u32;
            }
            b += 1;
        }
        let mut d = 0;
        while d < 4 {
            let (df, dr) = [(1, 1), (1, -1), (-1, 1), (-1, -1)][d];
            if let Some(n) = at(a, df, dr) {
                let h1 = match at(a, 2 * df, dr) {
                    Some(s) => s,
                    None => u8::MAX,
                };
                let h2 = match at(a, df, 2 * dr) {
                    Some(s) => s,
                    None => u8::MAX,
                };
                t[a][n as usize] |=
                    pair::DIAG | d as u32 | (h1 as u32) << pair::VIA | (h2 as u32) << pair::HORSE_2;
            }
            d += 1;
        }
        let mut i = 0;
        while i < king[a].len as usize {
            t[a][king[a].to[i] as usize] |= pair::KING;
            i += 1;
        }
        i = 0;
        while i < advisor[a].len as usize {
            t[a][advisor[a].to[i] as usize] |= pair::ADVISOR;
            i += 1;
        }
        let mut c = 0;
        while c < 2 {
            let pawn = PAWN_TABLE[c][a];
            i = 0;
            while i < pawn.len as usize {
                t[a][pawn.to[i] as usize] |= pair::PAWN[c];
                i += 1;
            }
            c += 1;
        }
        let horse = HORSE_TABLE[a];
        i = 0;
        while i < horse.len as usize {
            t[a][horse.to[i] as usize] |= pair::HORSE | (horse.via[i] as u32) << pair::VIA;
            i += 1;
        }
        i = 0;
        while i < elephant[a].len as usize {
            t[a][elephant[a].to[i] as usize] |= pair::ELEPHANT | (elephant[a].via[i] as u32) << pair::VIA;
            i += 1;
        }
        a += 1;
    }
    t
}

/// `PAIRS[a][b]`: the [`pair`] flags of point `b` seen from point `a`, with
/// the leg, eye or horse points they need, in one load.
pub(crate) static PAIRS: [[u32; 90]; 90] = pairs();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes() {
        let total = |t: &[Steps<4>; 90]| t.iter().map(|s| s.len as usize).sum::<usize>();
        // King: 2 palaces × (4 corners × 2 + 4 edges × 3 + centre 4) = 48.
        assert_eq!(total(&KING), 48);
        // Advisor, from the five points an advisor can stand on: 4 corners
        // × 1 + centre 4, in each palace.
        let advisor_points = [3, 5, 13, 21, 23, 66, 68, 76, 84, 86];
        assert_eq!(advisor_points.iter().map(|&s| ADVISOR[s].len as usize).sum::<usize>(), 16);
        assert_eq!(HORSE[0].len, 2);
        assert_eq!(HORSE[40].len, 8);
        // The elephant on e2 reaches c0, g0, c4, g4 but not across the river.
        assert_eq!(ELEPHANT[22].len, 4);
        assert_eq!(ELEPHANT[38].len, 2); // c4: a2, e2 only
        assert_eq!(PAWN[0][27].len, 1); // red pawn a3: forward only
        assert_eq!(PAWN[0][49].len, 3); // red pawn e5: forward and sideways
        assert_eq!(PAWN[0][85].len, 2); // red pawn e9: sideways only
        assert_eq!(RAYS[0][0].len, 9);
        assert_eq!(RAYS[0][2].len, 8);
    }

    #[test]
    fn directions_agree_with_rays() {
        for (a, row) in DIRECTIONS.iter().enumerate() {
            for (b, &dir) in row.iter().enumerate() {
                let on_ray = (0..4).find(|&d| RAYS[a][d].mask & (1u128 << b) != 0);
                let expected = on_ray.map_or(NO_DIRECTION, |d| d as u8);
                assert_eq!(dir, expected, "{a} -> {b}");
                let rel = PAIRS[a][b];
                assert_eq!(rel & pair::LINE != 0, on_ray.is_some(), "{a} -> {b}");
                if rel & pair::LINE != 0 {
                    assert_eq!(rel & pair::DIR, dir as u32);
                }
            }
        }
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // points index several tables
    fn pairs_agree_with_step_tables() {
        let has = |steps: &[u8], b: usize| steps.contains(&(b as u8));
        for a in 0..90 {
            for b in 0..90 {
                let rel = PAIRS[a][b];
                let flag = |f: u32| rel & f != 0;
                assert_eq!(flag(pair::KING), has(&KING[a].to[..KING[a].len as usize], b));
                assert_eq!(flag(pair::ADVISOR), has(&ADVISOR[a].to[..ADVISOR[a].len as usize], b));
                for c in 0..2 {
                    let p = &PAWN[c][a];
                    assert_eq!(flag(pair::PAWN[c]), has(&p.to[..p.len as usize], b));
                }
                for (steps, f) in [(&HORSE[a].to[..], pair::HORSE), (&ELEPHANT[a].to[..], pair::ELEPHANT)] {
                    let n = if f == pair::HORSE { HORSE[a].len } else { ELEPHANT[a].len } as usize;
                    let i = steps[..n].iter().position(|&s| s as usize == b);
                    assert_eq!(flag(f), i.is_some(), "{a} -> {b}");
                    if let Some(i) = i {
                        let via = if f == pair::HORSE { HORSE[a].via[i] } else { ELEPHANT[a].via[i] };
                        assert_eq!(rel >> pair::VIA & 0xff, via as u32);
                    }
                }
                // Diagonal neighbours: the horses that would use `b` as
                // their leg to reach `a`.
                let (fa, ra, fb, rb) = (a % 9, a / 9, b % 9, b / 9);
                let diagonal = fa.abs_diff(fb) == 1 && ra.abs_diff(rb) == 1;
                assert_eq!(flag(pair::DIAG), diagonal, "{a} -> {b}");
                if diagonal {
                    let mut expected: Vec<u32> = (0..HORSE_ATTACKERS[a].len as usize)
                        .filter(|&i| HORSE_ATTACKERS[a].via[i] as usize == b)
                        .map(|i| HORSE_ATTACKERS[a].to[i] as u32)
                        .collect();
                    let mut got: Vec<u32> = [rel >> pair::VIA & 0xff, rel >> pair::HORSE_2]
                        .into_iter()
                        .filter(|&s| s < 90)
                        .collect();
                    expected.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, expected, "{a} -> {b}");
                }
                assert!(!(flag(pair::LINE) && flag(pair::DIAG)));
            }
        }
        for (sq, bit) in BIT.iter().enumerate() {
            assert_eq!(*bit, 1u128 << sq);
        }
    }
}

//! Reading the published ECCO definitions into patterns over the first 20
//! plies of a game.
//!
//! A definition is read as one or more alternatives (`／` between whole
//! lines), each made of:
//! - numbered steps (`3. 车一平二，马８进７`): the move at a fixed ply, `……`
//!   for any move, `卒７进１／卒３进１` for either;
//! - lettered steps (`n. ……，炮８进４`): a move the side plays at some later
//!   ply, every move of that side before it being one the clauses
//!   `(此前可走 X、Y 和 Z)` allow (any move when no clause names that side);
//! - `从C30局面开始`: the first Red and Black moves, in any order, are those
//!   of the named position (notation.md §6.2, item 5).
//!
//! Codes whose definition continues a subgroup's opening (`n. 马八进七` under
//! C0) are read after that opening (§6.2, item 6). `(不包括 …)` exclusions
//! need no reading: a more specific code matches more of the game and wins.
//!
//! Errata of the published text, each applied here (§6.2, item 7):
//! - B21 writes 象七进九 for a Red move: the move key is the same for 相;
//! - B32 is read as in the xqbase tree: 1. 炮二平五，马２进３ 2. 兵七进一，炮８平６ 3. 马八进七;
//! - C76 starts from the C72 position (no C73 position is defined);
//! - D34 reads 5. 马八进九: its subgroup fixes 4. 兵三进一, and its name
//!   (进三兵 … 红左边马) says the same;
//! - E43–E45 have no `／` between their two lines: a move number lower than
//!   the one before starts a new line.

use crate::{Color, Move, Position, Role};

/// A move as the definitions write it, reduced to what tells it apart in
/// an opening: the piece kind, the file it leaves (numbered for its side),
/// the direction, and the number after it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    role: Role,
    file: u8,
    action: u8,
    to: u8,
}

impl Key {
    /// The key of the legal move `m` of `pos`.
    pub fn of(pos: &Position, m: Move) -> Option<Key> {
        let piece = pos.board().piece_at(m.from)?;
        let color = piece.color;
        let file = m.from.file().number_for(color);
        let (from_rank, to_rank) = (m.from.rank().index() as i32, m.to.rank().index() as i32);
        let forward = if color == Color::Red { to_rank - from_rank } else { from_rank - to_rank };
        let (action, to) = match forward {
            0 => (b'.', m.to.file().number_for(color)),
            d => {
                let action = if d > 0 { b'+' } else { b'-' };
                let diagonal = matches!(piece.role, Role::Horse | Role::Elephant | Role::Advisor);
                (action, if diagonal { m.to.file().number_for(color) } else { d.unsigned_abs() as u8 })
            }
        };
        Some(Key { role: piece.role, file, action, to })
    }

    /// Reads four characters such as `马８进７` or `炮二平五`; the side is
    /// told by the digits (Chinese numerals for Red, Arabic for Black).
    const fn parse([piece, file, action, to]: [char; 4]) -> Option<(Key, Color)> {
        let role = match piece {
            '车' | '車' | '俥' => Role::Rook,
            '马' | '馬' | '傌' => Role::Horse,
            '相' | '象' => Role::Elephant,
            '仕' | '士' => Role::Advisor,
            '帅' | '将' | '帥' | '將' => Role::King,
            '炮' | '砲' | '包' => Role::Cannon,
            '兵' | '卒' => Role::Pawn,
            _ => return None,
        };
        let action = match action {
            '进' | '進' => b'+',
            '退' => b'-',
            '平' => b'.',
            _ => return None,
        };
        match (digit(file), digit(to)) {
            (Some((file, color)), Some((to, _))) => Some((Key { role, file, action, to }, color)),
            _ => None,
        }
    }
}

/// The key of a move written as four characters (`炮二平五`, `马８进７`),
/// for texts fixed in the code: computed in a constant, a text that is not
/// such a move fails the build.
pub(crate) const fn key(text: &str) -> Key {
    let b = text.as_bytes();
    let mut chars = ['\0'; 4];
    let (mut i, mut n) = (0, 0);
    while i < b.len() && n < 4 {
        // `text` is UTF-8: decode one character of 1 to 3 bytes.
        let (c, len) = match b[i] {
            0x00..=0x7F => (b[i] as u32, 1),
            0xC0..=0xDF => (((b[i] & 0x1F) as u32) << 6 | (b[i + 1] & 0x3F) as u32, 2),
            _ => {
                (((b[i] & 0x0F) as u32) << 12 | ((b[i + 1] & 0x3F) as u32) << 6 | (b[i + 2] & 0x3F) as u32, 3)
            }
        };
        chars[n] = match char::from_u32(c) {
            Some(c) => c,
            None => panic!("not a move"),
        };
        i += len;
        n += 1;
    }
    match Key::parse(chars) {
        Some((key, _)) if i == b.len() && n == 4 => key,
        _ => panic!("not a move"),
    }
}

/// A digit and the side that writes it so.
const fn digit(c: char) -> Option<(u8, Color)> {
    let red = match c {
        '一' => 1,
        '二' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => 0,
    };
    if red > 0 {
        return Some((red, Color::Red));
    }
    match c {
        '１'..='９' => Some(((c as u32 - '０' as u32) as u8, Color::Black)),
        '1'..='9' => Some(((c as u32 - '0' as u32) as u8, Color::Black)),
        _ => None,
    }
}

/// Every move written in `text`, with its side.
fn moves_in(text: &str) -> Vec<(Key, Color)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 4 <= chars.len() {
        match Key::parse([chars[i], chars[i + 1], chars[i + 2], chars[i + 3]]) {
            Some(found) => {
                out.push(found);
                i += 4;
            }
            None => i += 1,
        }
    }
    out
}

/// The positions that codes start from (`从C30局面开始`): the first Red
/// moves and the first Black moves, in any order.
const POSITIONS: [(&str, &str, &str); 4] = [
    ("C20", "炮二平五 马二进三 车一平二 车二进六 马八进七", "马８进７ 车９平８ 卒７进１ 马２进３ 卒３进１"),
    ("C30", "炮二平五 马二进三 车一平二 车二进六 兵七进一", "马８进７ 车９平８ 卒７进１ 马２进３"),
    ("C61", "炮二平五 马二进三 车一平二 马八进九 炮八平七", "马８进７ 车９平８ 卒７进１ 马２进３"),
    (
        "C72",
        "炮二平五 马二进三 车一平二 兵三进一 马八进九 炮八平七",
        "马８进７ 车９平８ 马２进３ 卒３进１ 卒１进１ 马３进２",
    ),
];

/// The opening a subgroup's codes continue, when theirs does not start
/// with the first move (§6.2, item 6).
fn subgroup_opening(code: &str) -> Option<&'static str> {
    const C0: &str = "1. 炮二平五，马８进７ n. ……，马２进３ ／ 1. 炮二平五，马２进３ n. ……，马８进７ \
                      (此前可走车９平８、卒７进１和卒３进１)";
    Some(match &code[..2] {
        "B2" => "1. 炮二平五，马８进７ m. ……，车９平８ n. ……，炮８平９ (此前可以走卒３进１和卒７进１)",
        "C0" | "C1" | "C5" | "C6" | "C7" | "C8" | "C9" => C0,
        "D1" => "1. 炮二平五，炮８平５ 2. 马二进三，马８进７ 3. 车一平二",
        "D2" => {
            "1. 炮二平五，炮８平５ 2. 马二进三，马８进７ 3. 车一平二，车９进１ ／ \
             2. 马二进三，车９进１ 3. 车一平二，马８进７"
        }
        "D3" => "1. 炮二平五，马８进７ 2. 马二进三，车９平８ 3. 车一平二，炮８进４ 4. 兵三进一，炮２平５",
        "D4" => {
            "1. 炮二平五，马８进７ l. ……，车９平８ m. ……，炮８平９ n. ……，炮２平５ \
             (此前可以走车８进５、卒３进１和卒７进１)"
        }
        "D5" => "1. 炮二平五，马８进７ n. ……，炮２平５ (此前可走车９平８、卒７进１和卒３进１)",
        _ => return None,
    })
}

/// The definition as read, with the errata of the published text applied.
fn corrected(code: &str, definition: &str) -> String {
    match code {
        "B32" => "1. 炮二平五，马２进３ 2. 兵七进一，炮８平６ 3. 马八进七".to_string(),
        "C76" => definition.replace("从C73局面开始", "从C72局面开始"),
        "D34" => definition.replace("4. 马八进九", "5. 马八进九"),
        // xqbase: after 炮八进四, a 车二进六 before the horse decides C91.
        "C92" | "C93" | "C94" | "C95" | "C96" => {
            definition.replace("红此前可走马二进三、车一平二和车二进六", "红此前可走马二进三和车一平二")
        }
        // xqbase: 象７进５ comes before the other black move.
        "C82" | "C83" => definition.replace("不分先后，黑此前可走", "黑此前可走"),
        _ => read_as_xqbase(code).unwrap_or(definition).to_string(),
    }
}

/// Definitions read as xqbase's classifier reads them where the published
/// text says less or other (notation.md §6.2: "the VS tree's
/// interpretation"; each checked against the tags of the CCPD games):
/// - A53 is both Red horses out, in either order, whatever Black's second
///   move;
/// - B01 is any 1. 炮二平五，马２进３ that no other code takes (Red's second
///   move does not matter), and B02, B03 and B04 are decided by Black's
///   moves whatever Red's second and third are;
/// - C50 is 炮八平六 after the moves that leave the subgroup open, with or
///   without 马八进七; C71 is 马３进２ with or without 卒３进１ before;
/// - D01 gives way to D03–D05 (Red's 车一进一 decides first);
/// - C11 needs 车一进一 before 马七进六 (马八进七 may come any time);
/// - C82 and C83 need 象７进５ before the other black move, and C92–C96
///   take no 车二进六 before the horse (it makes C91);
/// - C85 is 5. …，马７进８ whatever Red's sixth move;
/// - B11 comes before B30 (Black's third move decides it first), and B30
///   is what is left of 1. 炮二平五，马２进３ with 炮８平６ played after
///   only pawn moves: no 马８进７ needed;
/// - B21–B25 give way to D40–D43 (a 炮２平５ after 炮８平９ makes 列炮);
/// - B40 lets Red play 车一平二 and 马八进七 before 炮八平六, and B45 lets
///   Red play only pawns between 炮八平六 and 马八进九;
/// - C01–C04 give way to C50–C99 too (炮八平六, 炮八平七, 炮八进二, 炮八进四
///   and 炮八平九 decide the subgroup before 马八进七 does);
/// - C10 lets Red play 马八进七 and 马八进九 before 车一进一;
/// - C51 lets Red play 车二进六 before (the first of 马八进九 and 车二进六
///   decides between C51 and C54);
/// - C25 has one line: 8. 兵三进一 … 9. 兵七进一 (the other is never
///   reached: 8. 兵七进一 is C24);
/// - D04 and D05 have their first line only: after 2. 车一进一 the tree
///   asks for 2. …，车９平８, which the horse on 8 forbids, so the game is D03;
/// - D21–D27 are decided by the first of Red's moves from the 4th on that
///   is not 马八进七 or a third or seventh pawn's step;
/// - D43 lets Red play 马二进三 before the pawns.
fn read_as_xqbase(code: &str) -> Option<&'static str> {
    Some(match code {
        "A53" => {
            "1. 炮二平四，炮２平５ l. 马八进七 n. 马二进三 (不分先后，此前可以走车九平八、兵三进一和兵七进一)"
        }
        "B01" => "1. 炮二平五，马２进３ (不包括B02~C99)",
        "B02" => "1. 炮二平五，马２进３ 2. ……，卒７进１／卒３进１ 3. ……，士６进５／士４进５",
        "B03" => "1. 炮二平五，马２进３ 2. ……，卒７进１／卒３进１ 3. ……，车９进２",
        "B04" => "1. 炮二平五，马２进３ 2. ……，炮２平１",
        "C11" => {
            "m. 车一进一，…… n. 马七进六 (此前可走马二进三、马八进七、车一平四／车一平六、兵三进一和兵七进一)"
        }
        "C85" => {
            "1. 炮二平五，马８进７ 2. 马二进三，车９平８ 3. 兵七进一，卒７进１ 4. 马八进七，马２进３ \
             5. 炮八进二(不论先后) 5. ……，马７进８ (不包括C86)"
        }
        "B11" => "1. 炮二平五，马２进３ 2. ……，炮８平６ 3. ……，马８进９／车９进１",
        "B30" => "1. 炮二平五，马２进３ n. ……，炮８平６ (此前可走卒７进１和卒３进１，不包括B11，B31~B56)",
        "B21" => "m. ……，车８进５ n. 象七进九(此前可走马二进三、马八进七、兵三进一和兵七进一，不包括D40~D43)",
        "B22" => "n. 车一进一(此前可走马二进三、马八进七、兵三进一和兵七进一，不包括D40~D43)",
        "B23" => "n. 炮八进二(此前可走马二进三、马八进七、兵三进一和兵七进一，不包括D40~D43)",
        "B24" => "n. 炮八进四(此前可走马二进三、马八进七、兵三进一和兵七进一，不包括D40~D43)",
        "B25" => {
            "m. 兵三进一，…… n. 兵七进一／ m. 兵七进一，…… n. 兵三进一(此前可走马二进三和马八进七，不包括D40~D43)"
        }
        "B40" => {
            "1. 炮二平五，马２进３ l. ……，炮８平６ m. ……，马８进７ (此前可走象７进５／象３进５、卒７进１和卒３进１) \
             n. 炮八平六 (此前红可走马二进三、马八进七、马八进九、车一平二、兵三进一和兵七进一，不包括B41~B45)"
        }
        "B45" => {
            "1. 炮二平五，马２进３ 2. 马二进三，炮８平６ 3. 车一平二，马８进７ m. 炮八平六，…… n. 马八进九／ \
             m. 马八进九，…… n. 炮八平六 (此前可走兵三进一和兵七进一)"
        }
        "C01" => {
            "n. 马八进七(此前可走马二进三、车一平二、兵三进一和兵七进一) (不包括C02~C04，C10~C19，C50~C99)"
        }
        "C02" => {
            "m. 马八进七，…… n. 马七进六 (此前可走马二进三、车一平二、兵三进一和兵七进一，不包括C10~C19，C50~C99)"
        }
        "C03" => {
            "m. 马八进七，…… n. 兵五进一 (此前可走马二进三、车一平二、兵三进一和兵七进一，不包括C04，C10~C19，C50~C99)"
        }
        "C04" => {
            "k. 马八进七，…… l. 兵五进一 (此前红可走马二进三、车一平二、兵三进一和兵七进一) m. ……，炮８进４ n. ……，炮２进４／ \
             m. ……，炮２进４ n. ……，炮８进４ (此前可走车９平８、卒７进１和卒３进１，不包括C10~C19，C50~C99)"
        }
        "C51" => {
            "m.马八进九，…… n. 炮八平六 (不分先后，此前可走马二进三、车一平二、车二进六、兵三进一和兵七进一，不包括C52~C56)"
        }
        "C50" => "n. 炮八平六 (此前可走马二进三、马八进七、马八进九、车一平二、车二进六、兵三进一和兵七进一)",
        "C71" => {
            "l. 炮八平七，…… (红此前可走马二进三、马八进九、车一平二、车二进六、兵三进一和兵七进一) \
             n. ……，马３进２(黑此前可走车９平８和卒３进１，不包括C72~C79)"
        }
        "D01" => {
            "1. 炮二平五，炮８平５ 2. 马二进三，马８进７ 3. ……，车９进１／ \
             1. 炮二平五，炮８平５ 2. 马二进三，车９进１ 3. ……(不包括D03~D05，D20~D29)"
        }
        "C10" => "n. 车一进一(此前可走马二进三、马八进七、马八进九、兵三进一和兵七进一，不包括C11~C14)",
        "C25" => "从C20局面开始：6. 车九进一，炮２进１ 7. 车二退二，象３进５ 8. 兵三进一，…… 9. 兵七进一",
        "D04" => "1. 炮二平五，炮８平５ 2. 马二进三，马８进７ 3. 车一进一，车９平８(不包括D05)",
        "D05" => "1. 炮二平五，炮８平５ 2. 马二进三，马８进７ 3. 车一进一，车９平８ 4. ……，车８进４",
        "D21" => "n. 仕四进五／仕六进五(此前可走马八进七、兵三进一和兵七进一)",
        "D22" => "n. 马八进九(此前可走马八进七、兵三进一和兵七进一)",
        "D23" => "n. 车二进四(此前可走马八进七、兵三进一和兵七进一)",
        "D24" => "n. 车二进六(此前可走马八进七、兵三进一和兵七进一)",
        "D25" => "n. 炮八平六(此前可走马八进七、兵三进一和兵七进一)",
        "D26" => "n. 兵三进一(此前可走马八进七，不包括D28)",
        "D27" => "n. 兵七进一(此前可走马八进七，不包括D28)",
        "D43" => "m. 兵三进一，…… n. 兵七进一／ m. 兵七进一，…… n. 兵三进一(此前可走马二进三和马八进七)",
        _ => return None,
    })
}

/// One way a game can match a code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The moves at fixed plies: the ply, and the moves allowed there.
    pub fixed: Vec<(usize, Vec<Key>)>,
    /// For each side (Red, Black), the moves it plays at some later ply,
    /// each given by its alternatives.
    pub later: [Vec<Vec<Key>>; 2],
    /// For each later move, the written sequence it belongs to (a
    /// subgroup's opening, or the code's own steps): the order is kept
    /// within a sequence, not across.
    pub chain: [Vec<u8>; 2],
    /// For each later move, its place in its sequence: a move comes after
    /// those of its sequence with a lower place; moves of one place (those
    /// written before a `(不分先后)`) come in any order.
    pub rank: [Vec<u16>; 2],
    /// For each side, the moves it may play before those (`None`: any).
    pub allowed: [Option<Vec<Key>>; 2],
    /// The first Red and Black moves, in any order.
    pub position: Option<[Vec<Key>; 2]>,
}

impl Line {
    /// How much of a game this line pins down: a match of a more specific
    /// line beats that of a less specific one.
    /// A move at a fixed ply pins down more than one played at some ply.
    pub fn weight(&self) -> u32 {
        let mut w = 3 * self.fixed.len() as u32;
        w += 2 * (self.later[0].len() + self.later[1].len()) as u32;
        if let Some([red, black]) = &self.position {
            w += 3 * (red.len() + black.len()) as u32;
        }
        w
    }

    /// Whether the game whose first plies have `keys` follows this line.
    pub fn matches(&self, keys: &[Key]) -> bool {
        let mut scan_from = [0usize; 2];
        if let Some(position) = &self.position {
            // The positions all grow out of the first Red move of their
            // set (炮二平五): the family is chosen on it first (§6.2, item 4).
            if position[0].first().is_some_and(|first| keys.first() != Some(first)) {
                return false;
            }
            for (side, set) in position.iter().enumerate() {
                let plies: Vec<Key> = keys.iter().skip(side).step_by(2).take(set.len()).copied().collect();
                if plies.len() < set.len() || !same_multiset(&plies, set) {
                    return false;
                }
                scan_from[side] = side + 2 * set.len();
            }
        }
        for (ply, allowed) in &self.fixed {
            match keys.get(*ply) {
                Some(k) if allowed.contains(k) => {}
                _ => return false,
            }
            let side = ply % 2;
            scan_from[side] = scan_from[side].max(ply + 2);
        }
        for (side, later) in self.later.iter().enumerate() {
            if later.is_empty() {
                continue;
            }
            let mut found = vec![false; later.len()];
            let mut left = later.len();
            let mut ply = scan_from[side].max(side);
            if ply % 2 != side {
                ply += 1;
            }
            while left > 0 {
                let Some(k) = keys.get(ply) else { return false };
                let chain = &self.chain[side];
                let rank = &self.rank[side];
                let ready = |i: usize| (0..i).all(|j| chain[j] != chain[i] || rank[j] >= rank[i] || found[j]);
                match later.iter().enumerate().position(|(i, alts)| !found[i] && alts.contains(k) && ready(i))
                {
                    Some(i) => {
                        found[i] = true;
                        left -= 1;
                    }
                    None => {
                        if let Some(allowed) = &self.allowed[side]
                            && !allowed.contains(k)
                        {
                            return false;
                        }
                    }
                }
                ply += 2;
            }
        }
        true
    }
}

/// Whether two lists hold the same moves, as many times each.
fn same_multiset(a: &[Key], b: &[Key]) -> bool {
    let mut rest = b.to_vec();
    a.iter().all(|k| match rest.iter().position(|r| r == k) {
        Some(i) => {
            rest.swap_remove(i);
            true
        }
        None => false,
    })
}

/// The codes a definition's `(不包括 …)` clauses set aside: when the game
/// also follows one of them, that one is its code. Ranges (`B02~C99`) are
/// given by their ends.
pub fn exclusions(code: &str, definition: &str) -> Vec<(String, String)> {
    let definition = corrected(code, definition);
    let mut out = Vec::new();
    for (at, _) in definition.match_indices("不包括") {
        let clause = &definition[at..];
        let clause = &clause[..clause.find(')').unwrap_or(clause.len())];
        let codes: Vec<(usize, &str)> = (0..clause.len().saturating_sub(2))
            .filter(|&i| {
                let b = clause.as_bytes();
                (b'A'..=b'E').contains(&b[i]) && b[i + 1].is_ascii_digit() && b[i + 2].is_ascii_digit()
            })
            .map(|i| (i, &clause[i..i + 3]))
            .collect();
        let mut k = 0;
        while k < codes.len() {
            let (i, code) = codes[k];
            let ranged = clause[i + 3..].starts_with('~') && k + 1 < codes.len();
            if ranged {
                out.push((code.to_string(), codes[k + 1].1.to_string()));
                k += 2;
            } else {
                out.push((code.to_string(), code.to_string()));
                k += 1;
            }
        }
    }
    out
}

/// The lines of one code's definition.
pub fn lines(code: &str, definition: &str) -> Vec<Line> {
    let text = corrected(code, definition);
    let own = read_lines(&text);
    let starts_whole = text.trim_start().starts_with("1.") || text.contains("局面开始");
    match subgroup_opening(code).filter(|_| !starts_whole) {
        None => own,
        Some(opening) => {
            let mut out = Vec::new();
            for before in read_lines(opening) {
                for line in &own {
                    out.push(join(&before, line));
                }
            }
            out
        }
    }
}

/// A subgroup's opening followed by a code's own line.
fn join(before: &Line, line: &Line) -> Line {
    let mut out = before.clone();
    for (ply, moves) in &line.fixed {
        match out.fixed.iter_mut().find(|(p, _)| p == ply) {
            // The code restates a ply of the opening more narrowly.
            Some((_, existing)) => existing.retain(|k| moves.contains(k)),
            None => out.fixed.push((*ply, moves.clone())),
        }
    }
    for side in 0..2 {
        // The code's own later moves, but for those the opening has: in
        // their own order, not after the opening's.
        for (target, &rank) in line.later[side].iter().zip(&line.rank[side]) {
            if !out.later[side].contains(target) {
                out.later[side].push(target.clone());
                out.chain[side].push(1);
                out.rank[side].push(rank);
            }
        }
        out.allowed[side] = match (&out.allowed[side], &line.allowed[side]) {
            (Some(a), Some(b)) => Some(a.iter().chain(b).copied().collect()),
            (a, b) => a.clone().or_else(|| b.clone()),
        };
    }
    if line.position.is_some() {
        out.position = line.position.clone();
    }
    out
}

/// A step of a written line: its label and the text after it.
struct Step<'a> {
    label: Label,
    text: &'a str,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Label {
    Number(usize),
    Letter(char),
}

/// Reads a definition (or a subgroup's opening) into its lines.
fn read_lines(text: &str) -> Vec<Line> {
    // The clauses in brackets: which moves each side may play before a
    // lettered step.
    let mut allowed: [Option<Vec<Key>>; 2] = [None, None];
    let mut body = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        body.push_str(&rest[..open]);
        body.push(' ');
        let close = rest[open..].find(')').map_or(rest.len(), |k| open + k);
        let clause = &rest[open + 1..close];
        if clause.contains("不分先后") || clause.contains("不论先后") {
            // The numbered moves so far may come in any order, and so may
            // the lettered ones.
            body.push(ANY_ORDER);
            body.push(' ');
        }
        if let Some(at) = clause.find("可走").or_else(|| clause.find("可以走")) {
            let list = &clause[at..];
            let list = list.split("不包括").next().unwrap_or(list);
            for (key, color) in moves_in(list) {
                allowed[color.index()].get_or_insert_with(Vec::new).push(key);
            }
        }
        rest = rest.get(close + 1..).unwrap_or("");
    }
    body.push_str(rest);
    let mut position = None;
    if let Some(at) = body.find("局面开始") {
        let name = body[..at].trim().trim_start_matches('从');
        if let Some((_, red, black)) = POSITIONS.iter().find(|(code, _, _)| *code == name) {
            let keys = |s: &str| moves_in(s).into_iter().map(|(k, _)| k).collect::<Vec<_>>();
            position = Some([keys(red), keys(black)]);
        }
        body = body[at + "局面开始".len()..].trim_start_matches(['：', ':']).to_string();
    }
    // The written lines: split at a `／` before a label, and where a move
    // number goes back (E43–E45 have no `／` there).
    let mut written: Vec<Vec<Step>> = Vec::new();
    for part in split_lines(&body) {
        let mut last_number = 0;
        let mut current: Vec<Step> = Vec::new();
        for step in steps(part) {
            if let Label::Number(n) = step.label {
                if n < last_number && !current.is_empty() {
                    written.push(std::mem::take(&mut current));
                }
                last_number = n;
            }
            current.push(step);
        }
        written.push(current);
    }
    // A later line starting at label L takes the first line's steps
    // before its first step labelled L.
    let mut out = Vec::new();
    for (i, line) in written.iter().enumerate() {
        let mut all: Vec<&Step> = Vec::new();
        if i > 0
            && let Some(start) = line.first()
        {
            let first = &written[0];
            let k = first.iter().position(|s| s.label == start.label).unwrap_or(first.len());
            all.extend(&first[..k]);
        }
        all.extend(line.iter());
        let mut l = Line { allowed: allowed.clone(), position: position.clone(), ..Line::default() };
        let mut group_start = [0usize; 2];
        for (n, step) in all.into_iter().enumerate() {
            add_step(&mut l, step, n as u16);
            if step.text.contains(ANY_ORDER) {
                if !l.fixed.is_empty() && l.position.is_none() {
                    l.position = Some(numbered_in_any_order(&mut l.fixed));
                }
                // The lettered moves written since the last such clause
                // take one place: any order among them.
                for side in 0..2 {
                    let ranks = &mut l.rank[side];
                    if let Some(&first) = ranks.get(group_start[side]) {
                        ranks[group_start[side]..].iter_mut().for_each(|r| *r = first);
                    }
                    group_start[side] = ranks.len();
                }
            }
        }
        out.push(l);
    }
    out
}

/// Marks where `(不分先后)` stood in a definition.
const ANY_ORDER: char = '※';

/// The numbered moves read so far, taken out as the first moves of each
/// side in any order (`5. 炮八平六(不分先后)`: Red's first five moves are
/// these five, in some order).
fn numbered_in_any_order(fixed: &mut Vec<(usize, Vec<Key>)>) -> [Vec<Key>; 2] {
    let mut sets = [Vec::new(), Vec::new()];
    fixed.sort_by_key(|(ply, _)| *ply);
    for (ply, moves) in fixed.drain(..) {
        if let Some(&first) = moves.first() {
            sets[ply % 2].push(first);
        }
    }
    sets
}

/// A label (`3.`, `n.`) at byte `at` of `text`: the label and where its
/// text starts.
fn label_at(text: &str, at: usize) -> Option<(Label, usize)> {
    let bytes = text.as_bytes();
    if at > 0 && bytes[at - 1].is_ascii_alphanumeric() {
        return None;
    }
    let mut i = at;
    let label = if bytes.get(i)?.is_ascii_digit() {
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        Label::Number(text[at..i].parse().ok()?)
    } else if bytes[i].is_ascii_lowercase() {
        i += 1;
        Label::Letter(bytes[at] as char)
    } else {
        return None;
    };
    (bytes.get(i) == Some(&b'.')).then_some((label, i + 1))
}

/// Splits a definition at each `／` that comes before a label: `／` between
/// moves (`卒７进１／卒３进１`) offers moves for one ply and stays.
fn split_lines(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut from = 0;
    for (at, _) in body.match_indices('／') {
        let after = at + '／'.len_utf8();
        let next = after + (body[after..].len() - body[after..].trim_start().len());
        if label_at(body, next).is_some() {
            out.push(&body[from..at]);
            from = after;
        }
    }
    out.push(&body[from..]);
    out
}

/// The steps of a written line: each label and the text up to the next.
fn steps(line: &str) -> Vec<Step<'_>> {
    let mut marks = Vec::new(); // (label start, text start, label)
    for (at, _) in line.char_indices() {
        if let Some((label, text)) = label_at(line, at) {
            marks.push((at, text, label));
        }
    }
    marks
        .iter()
        .enumerate()
        .map(|(k, &(_, text, label))| Step {
            label,
            text: &line[text..marks.get(k + 1).map_or(line.len(), |m| m.0)],
        })
        .collect()
}

/// Adds a written step (`3. 车一平二，马８进７`, `n. ……，炮８进４`) to a line.
fn add_step(line: &mut Line, step: &Step, place: u16) {
    let mut halves = step.text.splitn(2, ['，', ',']);
    let red = halves.next().unwrap_or("");
    let black = halves.next();
    for (side, half) in [(0usize, Some(red)), (1, black)] {
        let Some(half) = half else { continue };
        let moves: Vec<Key> = moves_in(half).into_iter().map(|(k, _)| k).collect();
        if moves.is_empty() {
            continue; // `……`: any move
        }
        match step.label {
            Label::Number(n) if n >= 1 => {
                let ply = 2 * (n - 1) + side;
                match line.fixed.iter_mut().find(|(p, _)| *p == ply) {
                    Some((_, existing)) => existing.extend(moves),
                    None => line.fixed.push((ply, moves)),
                }
            }
            _ => {
                line.later[side].push(moves);
                line.chain[side].push(0);
                line.rank[side].push(place);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_with_their_side() {
        let found = moves_in("1. 炮二平五，马８进７ (此前可走车９平８、卒７进１和卒３进１)");
        assert_eq!(found.len(), 5);
        assert_eq!(found[0].1, Color::Red);
        assert!(found[1..].iter().all(|(_, c)| *c == Color::Black));
    }

    #[test]
    fn numbered_and_lettered_steps() {
        let lines =
            read_lines("1. 炮二平五，马８进７ m. ……，车９平８ n. ……，炮８进４ (此前可走卒３进１和卒７进１)");
        assert_eq!(lines.len(), 1);
        let l = &lines[0];
        assert_eq!(l.fixed.len(), 2);
        assert_eq!(l.later[1].len(), 2);
        assert!(l.later[0].is_empty());
        assert_eq!(l.allowed[1].as_ref().map(Vec::len), Some(2));
        assert_eq!(l.allowed[0], None);
    }

    #[test]
    fn whole_line_alternatives_take_the_first_lines_opening() {
        let lines = read_lines(
            "1. 相三进五，炮８平５ 2. 马二进三，…… n. 马八进七(此前可以走车一平二、兵三进一和兵七进一)／ \
             2. 马八进七，…… n. 马二进三(此前可以走兵三进一和兵七进一)",
        );
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1].fixed.len(), 3, "{:?}", lines[1]);
        assert_eq!(lines[1].later[0].len(), 1);
        // Slot alternatives stay in one line.
        let lines = read_lines(
            "1. 炮二平五，马２进３ 2. 马二进三，卒７进１／卒３进１ 3. 车一平二，士６进５／士４进５",
        );
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].fixed[3].1.len(), 2);
        // A move number that goes back starts a line.
        let lines = read_lines(
            "1. 兵三进一，卒３进１ 2. 马二进三，马２进３ 3. 车一进一 1. 兵三进一，马２进３ 2. 马二进三，卒３进１ 3. 车一进一",
        );
        assert_eq!(lines.len(), 2);
    }
}

//! Reading the published ECCO definitions into patterns over the first 20
//! plies of a game.
//!
//! A definition is read as one or more alternatives (`／` between whole
//! lines), each made of:
//! - numbered steps (`3. 车一平二，马８进７`): the move at a fixed ply, `……`
//!   for any move, `卒７进１／卒３进１` for either;
//! - lettered steps (`n. ……，炮８进４`): a move the side plays at some later
//!   ply, looked for after the numbered moves written before it. A side's
//!   lettered moves come in the order written (the two sides' are not
//!   ordered against each other), and before each the side plays only
//!   moves of the list of the `(此前可走 X、Y 和 Z)` clause written after it:
//!   a clause gives its list to the lettered moves of its side written
//!   before it that have none yet; those after the last clause naming their
//!   side take the lists of all the clauses that name it; with no clause for
//!   a side, any move. A lettered move played again (a pawn's next step,
//!   兵三进一 once more) is a move allowed before the others;
//! - `(不分先后)` after a numbered step: the numbered moves so far come in
//!   any order, each of a side's first moves being one of them (as often as
//!   it comes); after a lettered step: the lettered moves since the last
//!   such clause come in any order;
//! - a Red lettered move written right after a Black one, with no clause
//!   between (`m. ……，车８进５ n. 象七进九`), answers it: it is Red's very
//!   next move; so is the Black half of a lettered step to its Red half
//!   (`n. 兵五进一，炮２平５`);
//! - `从C30局面开始`: the first Red and Black moves are those of the named
//!   position, each once, in any order (notation.md §6.2, item 5).
//!
//! Moves are compared by [`Key`]: piece, file, direction and number, as the
//! Chinese text writes them. A piece that shares its file with another of
//! its kind is written by its place (前车, WXF `R+`): its move matches none
//! of a definition's.
//!
//! Codes whose definition continues a subgroup's opening (`n. 马八进七` under
//! C0) are read after that opening (§6.2, item 6), and so are those that
//! start from a position or whose numbered moves come in any order. The
//! opening's lettered moves and the code's own are two sequences, each
//! looked for after its own numbered moves and each with its own lists; the
//! moves the opening names (its plies of one move, its lettered moves) are
//! not moves before the code's own. `(不包括 …)` exclusions are applied by
//! the classifier: a code gives way to those it names when the game also
//! follows one of them.
//!
//! Errata of the published text, each applied here (§6.2, item 7):
//! - B21 writes 象七进九 for a Red move: the move key is the same for 相;
//! - B32 is read as in the xqbase tree: 1. 炮二平五，马２进３ 2. 兵七进一，炮８平６ 3. 马八进七;
//! - C76 starts from the C72 position (no C73 position is defined);
//! - D34 reads 5. 马八进九: its subgroup fixes 4. 兵三进一, and its name
//!   (进三兵 … 红左边马) says the same;
//! - E43–E45 have no `／` between their two lines: a move number lower than
//!   the one before starts a new line.
//!
//! Where xqbase's classifier (the tree vschess implements) reads a
//! definition otherwise than its text, qipu reads it as the classifier does;
//! `subgroup_opening` and `read_as_xqbase` list each such reading. On
//! the games `examples/ecco_walk.rs` makes (every code's lines and their
//! neighbours, random games) the two agree but where the classifier's
//! result contradicts the table, and qipu follows the table:
//! - a scan of one side's moves runs to the end of the 20 plies (or, in the
//!   屏风马 subgroup, past Red's ninth move, its tenth being never read)
//!   without a move that ends it: the classifier then returns a fixed code
//!   that forgets the moves it has found (C00 when it has found 马八进七,
//!   马八进九 or 车二进六; D50, which is 1. …，炮２平５, at the end of the
//!   后补列炮 scan; B30 when it has found 马８进７; B05 when it has found
//!   炮８平９ or 炮８进４; C80 when it has found 象７进５; C10 when the scan
//!   after 车二进四 runs into the one after 车一进一);
//! - C70: a 卒７进１ after 卒３进１, Red without 兵七进一, makes C60, which
//!   gives way to C70 by the table;
//! - C24: 8. 兵七进一 … 9. 兵七进一 (the same pawn again) makes C25, whose
//!   two lines push both pawns;
//! - B07: a 炮８平９ of the cannon that went 炮８进４ makes 三步虎 (B20–B25,
//!   D40–D43), whose opening allows no 炮８进４ before 炮８平９.

use crate::notation::chinese::{BLACK_NUMERALS, RED_NUMERALS, direction_of, piece_of};
use crate::notation::{Direction, Distinction, distinction, motion};
use crate::{Color, Move, Position, Role};

/// A move as the definitions write it, reduced to what tells it apart in
/// an opening: the piece kind, the file it leaves (numbered for its side),
/// the direction, and the number after it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    role: Role,
    file: u8,
    direction: Direction,
    to: u8,
}

impl Key {
    /// The key of the legal move `m` of `pos`. A piece that shares its file
    /// with another of its kind is written by its place on the file (前车,
    /// `R+`), not by the file: its key has file 0, and matches no move of a
    /// definition.
    pub fn of(pos: &Position, m: Move) -> Option<Key> {
        let color = pos.board().piece_at(m.from)?.color;
        let file = match distinction(pos, m.from) {
            Distinction::File => m.from.file().number_for(color),
            _ => 0,
        };
        let (role, direction, to) = motion(pos, m);
        Some(Key { role, file, direction, to })
    }

    /// Reads four characters such as `马８进７` or `炮二平五`, pieces and
    /// directions as the Chinese notation reads them; the side is told by
    /// the digits (Chinese numerals for Red, Arabic for Black).
    const fn parse([piece, file, direction, to]: [char; 4]) -> Option<(Key, Color)> {
        match (piece_of(piece), direction_of(direction), digit(file), digit(to)) {
            (Some(role), Some(direction), Some((file, color)), Some((to, _))) => {
                Some((Key { role, file, direction, to }, color))
            }
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

/// A digit and the side that writes it so: the writer's numerals of
/// either side, and ASCII digits for Black.
const fn digit(c: char) -> Option<(u8, Color)> {
    let mut i = 0;
    while i < 9 {
        let number = i as u8 + 1;
        if c == RED_NUMERALS[i] {
            return Some((number, Color::Red));
        }
        if c == BLACK_NUMERALS[i] || c as u32 == '1' as u32 + i as u32 {
            return Some((number, Color::Black));
        }
        i += 1;
    }
    None
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
/// with the first move (§6.2, item 6), as xqbase's classifier reads it:
/// - 屏风马 (C0–C9): after 1. …，马８进７, 马２进３ with only 车９平８,
///   车８进５ and the pawns 7 and 3 before; after 1. …，马２进３, 马８进７
///   as Black's second move, or third after a pawn;
/// - 反宫马 (B3–B5): 炮８平６ as Black's second move, or third after a
///   pawn, as the B1 codes read Black's second move;
/// - 三步虎 and 列炮 (B2, D3–D5): 车９平８ is one of the moves allowed
///   before, not one required (and so is 车８进５ after it).
fn subgroup_opening(code: &str) -> Option<&'static str> {
    const C0: &str = "1. 炮二平五，马８进７ n. ……，马２进３ (此前可走车９平８、车８进５、卒７进１和卒３进１) ／ \
                      1. 炮二平五，马２进３ 2. ……，马８进７ ／ \
                      1. 炮二平五，马２进３ 2. ……，卒７进１／卒３进１ 3. ……，马８进７";
    const B3: &str = "1. 炮二平五，马２进３ 2. ……，炮８平６ ／ \
                      1. 炮二平五，马２进３ 2. ……，卒７进１／卒３进１ 3. ……，炮８平６";
    Some(match &code[..2] {
        "B2" => "1. 炮二平五，马８进７ n. ……，炮８平９ (此前可以走车９平８、车８进５、卒３进１和卒７进１)",
        "B3" | "B4" | "B5" => B3,
        "C0" | "C1" | "C2" | "C3" | "C4" | "C5" | "C6" | "C7" | "C8" | "C9" => C0,
        "D1" => "1. 炮二平五，炮８平５ 2. 马二进三，马８进７ 3. 车一平二",
        "D2" => {
            "1. 炮二平五，炮８平５ 2. 马二进三，马８进７ 3. 车一平二，车９进１ ／ \
             2. 马二进三，车９进１ 3. 车一平二，马８进７"
        }
        "D3" => "1. 炮二平五，马８进７ 2. 马二进三，车９平８ 3. 车一平二，炮８进４ 4. 兵三进一，炮２平５",
        "D4" => {
            "1. 炮二平五，马８进７ m. ……，炮８平９ n. ……，炮２平５ \
             (此前可以走车９平８、车８进５、卒３进１和卒７进１)"
        }
        "D5" => "1. 炮二平五，马８进７ n. ……，炮２平５ (此前可走车９平８、车８进５、卒７进１和卒３进１)",
        _ => return None,
    })
}

/// The definition as read, with the errata of the published text applied.
fn corrected(code: &str, definition: &str) -> String {
    let text = match code {
        "B32" => "1. 炮二平五，马２进３ 2. 兵七进一，炮８平６ 3. 马八进七 (不包括B11)".to_string(),
        "C76" => definition.replace("从C73局面开始", "从C72局面开始"),
        "D34" => definition.replace("4. 马八进九", "5. 马八进九"),
        // xqbase: after 炮八进四, a 车二进六 before the horse decides C91.
        "C91" => five_eight_cannon(None, "(黑此前可走车９平８，不包括C92~C98)"),
        "C92" => five_eight_cannon(Some("m. 马八进七 (不分先后，"), "(黑此前可走车９平８)"),
        "C93" => five_eight_cannon(Some("m. 马八进九 (不分先后，"), "(黑此前可走车９平８，不包括C94~C97)"),
        "C98" => five_eight_cannon(Some("m. 炮八平七 ("), "(黑此前可走车９平８)"),
        // xqbase: after 炮八平六, 车一进一 and 车二进六 are moves before 马八进七.
        "B42" | "B43" | "B44" => definition.replace(
            "n. 马八进七 (此前可走兵三进一和兵七进一",
            "n. 马八进七 (此前可走兵三进一、兵七进一、车一进一和车二进六",
        ),
        // xqbase: 马八进九 may come before 炮八进二 (as 马八进七 may), and
        // 象７进５ comes before the other black move.
        "C80" | "C81" | "C82" | "C83" | "C84" => definition
            .replace("马二进三、马八进七、车一平二", "马二进三、马八进七、马八进九、车一平二")
            .replace("不分先后，黑此前可走", "黑此前可走"),
        // xqbase: a 卒７进１ after 卒３进１ is still C68's.
        "C70" => definition.replace("不包括C71~C79", "不包括C68，C71~C79"),
        "C94" => c93_then("士６进５／士４进５", ""),
        "C95" => c93_then("卒７进１", ""),
        "C96" => c93_then("卒１进１", " (不包括C97)"),
        "C97" => c93_then("卒１进１", " 7. 炮八平七"),
        _ => read_as_xqbase(code).unwrap_or(definition).to_string(),
    };
    // The 反宫马 codes' 炮８平６ is their subgroup's opening; those whose
    // first moves come in any order still need 马８进７ as B31 does.
    if matches!(code, "B54" | "B55" | "B56") {
        return format!("m. ……，马８进７ (黑此前可走象７进５／象３进５、卒７进１和卒３进１) {text}");
    }
    match code.get(..2) {
        Some("B3" | "B4" | "B5") => {
            let rest = text.strip_prefix("1. 炮二平五，马２进３ ").and_then(|rest| {
                let (label, rest) = rest.split_once(". ")?;
                (label.len() == 1).then_some(rest)?.strip_prefix("……，炮８平６ ")
            });
            rest.map_or_else(|| text.clone(), str::to_string)
        }
        _ => text,
    }
}

/// Definitions read as xqbase's classifier reads them where the published
/// text says less or other (notation.md §6.2: "the VS tree's
/// interpretation"; each checked against the classifier on the games of
/// `examples/ecco_walk.rs` and against the tags of the CCPD games). Some
/// are applied by `corrected`, as a change to the text:
/// - A28 and A53 are both Red horses out, in either order, after the moves
///   the text allows (A53 whatever Black's second move);
/// - B01 is any 1. 炮二平五，马２进３ that no other code takes (Red's second
///   move does not matter), and B02, B03 and B04 are decided by Black's
///   moves whatever Red's second and third are; B11 comes before B30
///   (Black's third move decides it first), B30 is what is left of the
///   反宫马 opening, and B32 gives way to B11;
/// - B06, B07 and D30 allow 车９平８ and 车８进５ before, as their openings
///   do (`subgroup_opening`);
/// - B21–B25 give way to D40–D43 (a 炮２平５ after 炮８平９ makes 列炮),
///   B21 to B25 and D41 to D43 (the second of 兵三进一 and 兵七进一 decides
///   first); B25 and D43 allow the pawns' further steps before the second;
/// - B40 lets Red play 车一平二 and 马八进七 before 炮八平六; in B41–B45,
///   after 炮八平六, 车一进一 and 车二进六 may come before the horse, and
///   B41 and B45 take 炮八平六 and the horse in either order;
/// - B54–B56 need 马８进７ as B31 does, and in B54 炮八平七 may come at any
///   ply after the moves B50 allows;
/// - C01 gives way to C50–C99 too (炮八平六, 炮八平七, 炮八进二, 炮八进四 and
///   炮八平九 decide the subgroup before 马八进七 does);
/// - C10 lets Red play 马八进七 and 马八进九 before 车一进一, and C11 needs
///   车一进一 before 马七进六 (马八进七 may come any time);
/// - C25 has one line: 8. 兵三进一 … 9. 兵七进一 (the other is never
///   reached: 8. 兵七进一 is C24); C46 is 车１平２ as Black's eighth or
///   ninth move after 8. 炮八平九;
/// - C50 is 炮八平六 after the moves that leave the subgroup open, with or
///   without 马八进七; the first of 马八进九 and 车二进六 decides between C51
///   and C54;
/// - C68 lets Red play 兵三进一 and 兵七进一 before 炮八平七, but not before
///   兵七进一, and Black 卒３进１ before 卒７进１; C70 gives way to it; C71
///   is 马３进２ with or without 卒３进１ before (a capture can free it);
/// - C80–C84 let Red play 马八进九 before 炮八进二, and C82 and C83 need
///   象７进５ before the other black move;
/// - C85 is 5. …，马７进８ whatever Red's sixth move;
/// - C91–C98: 兵三进一 and 炮八进四 each after their own list of moves, then
///   马八进七, 马八进九 or 炮八平七 with no 车二进六 before (it makes C91);
///   C94–C97 are decided by Black's fifth move (its sixth after an elephant
///   move), C97 by Red's seventh;
/// - D01 gives way to D03–D05 (Red's 车一进一 decides first);
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
        "A28" => {
            "1. 相三进五，炮８平５ l. 马二进三 n. 马八进七 (不分先后，此前可以走车一平二、兵三进一和兵七进一)"
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
        "B30" => "(不包括B11，B31~B56)",
        "B06" => "1. 炮二平五，马８进７ n. ……，车９进１ (此前可走卒７进１和卒３进１)",
        "B07" => {
            "1. 炮二平五，马８进７ n. ……，炮８进４ (此前可走车９平８、车８进５、卒３进１和卒７进１，不包括D30~D36)"
        }
        "D30" => {
            "1. 炮二平五，马８进７ m. ……，炮８进４ n. ……，炮２平５ \
             (此前可走车９平８、车８进５、卒３进１和卒７进１，不包括D31~D36)"
        }
        "B21" => {
            "m. ……，车８进５ n. 象七进九(此前可走马二进三、马八进七、兵三进一和兵七进一，不包括B25，D40~D43)"
        }
        "D41" => {
            "m. ……，车８进５ n. 兵五进一，炮２平５ (此前红可走马二进三、马八进七、兵三进一和兵七进一，不包括D43)"
        }
        "C71" => {
            "l. 炮八平七，…… (红此前可走马二进三、马八进九、车一平二、车二进六、兵三进一和兵七进一) \
             n. ……，马３进２(黑此前可走车９平８和卒３进１，不包括C72~C79)"
        }
        "B25" => {
            "m. 兵三进一，…… n. 兵七进一 (不分先后，此前可走马二进三、马八进七、兵三进一和兵七进一，不包括D40~D43)"
        }
        "B40" => {
            "1. 炮二平五，马２进３ l. ……，炮８平６ m. ……，马８进７ (此前可走象７进５／象３进５、卒７进１和卒３进１) \
             n. 炮八平六 (此前红可走马二进三、马八进七、马八进九、车一平二、兵三进一和兵七进一，不包括B41~B45)"
        }
        "B54" => {
            "1. 炮二平五，马２进３ 2. 马二进三，炮８平６ 3. 车一平二，马８进７ 4. 兵三进一，卒３进１ 5. 马八进九，……(不分先后) \
             n. 炮八平七 (此前可走马二进三、马八进九、车一平二、兵三进一和兵七进一，不包括B55~B56)"
        }
        "B41" => {
            "1. 炮二平五，马２进３ 2. 马二进三，炮８平６ 3. 车一平二，马８进７ m. 炮八平六 (此前可走兵三进一和兵七进一) \
             n. 马八进七 (不分先后，此前可走兵三进一、兵七进一、车一进一和车二进六，不包括B42~B45)"
        }
        "B45" => {
            "1. 炮二平五，马２进３ 2. 马二进三，炮８平６ 3. 车一平二，马８进７ m. 炮八平六 (此前可走兵三进一和兵七进一) \
             n. 马八进九 (不分先后，此前可走兵三进一、兵七进一、车一进一和车二进六)"
        }
        "C68" => {
            "l. 炮八平七 (红此前可走马二进三、马八进九、车一平二、车二进六、兵三进一和兵七进一) \
             m. 兵七进一 (不分先后，红此前可走马二进三、马八进九、车一平二和车二进六) \
             n. ……，卒７进１(黑此前可走车９平８和卒３进１)"
        }
        "C01" => {
            "n. 马八进七(此前可走马二进三、车一平二、兵三进一和兵七进一) (不包括C02~C04，C10~C19，C50~C99)"
        }
        "C51" => {
            "m. 马八进九 (此前可走马二进三、车一平二、兵三进一和兵七进一) \
             n. 炮八平六 (不分先后，此前可走马二进三、车一平二、车二进六、兵三进一和兵七进一，不包括C52~C56)"
        }
        "C54" => {
            "k. 马二进三，…… l. 车一平二，…… m. 车二进六 (此前可走兵三进一和兵七进一) \
             n. 炮八平六 (不分先后，此前可走马八进九、兵三进一和兵七进一，不包括C55~C56)"
        }
        "C50" => "n. 炮八平六 (此前可走马二进三、马八进七、马八进九、车一平二、车二进六、兵三进一和兵七进一)",
        "D01" => {
            "1. 炮二平五，炮８平５ 2. 马二进三，马８进７ 3. ……，车９进１／ \
             1. 炮二平五，炮８平５ 2. 马二进三，车９进１ 3. ……(不包括D03~D05，D20~D29)"
        }
        "C10" => "n. 车一进一(此前可走马二进三、马八进七、马八进九、兵三进一和兵七进一，不包括C11~C14)",
        "C46" => {
            "从C30局面开始：5. ……，炮８平９ 6. 车二平三，炮９退１ 7. 马八进七，士４进５ 8. 炮八平九，车１平２／ \
             8. 炮八平九，…… 9. ……，车１平２"
        }
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
        "D43" => "m. 兵三进一，…… n. 兵七进一 (不分先后，此前可走马二进三、马八进七、兵三进一和兵七进一)",
        _ => return None,
    })
}

/// A move a line asks of one side at some later ply (a lettered step,
/// `n. 炮八平六`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Later {
    /// The moves that play it (`马八进七／马八进九`: either).
    pub moves: Vec<Key>,
    /// The written sequence it belongs to: [`OPENING`] for a subgroup's
    /// opening, or for the code's own steps when it continues none;
    /// [`OWN`] for the code's own steps after a subgroup's opening.
    pub sequence: usize,
    /// Its place in its sequence: it comes after the moves of its sequence
    /// with a lower place; moves of one place (those written before a
    /// `(不分先后)`) come in any order.
    pub place: u16,
    /// The other side's later move that this one answers: it is played on
    /// the ply right after that one.
    pub answers: Option<usize>,
    /// The moves the side may play before this one (`None`: any): the
    /// list of the `(此前可走 …)` clause written after it.
    pub allowed: Option<Vec<Key>>,
}

/// The most later moves a line asks of one side (the table asks at most
/// four; [`lines`] checks it).
pub const MAX_LATER: usize = 8;

/// The sequence of a subgroup's opening (or of a code that continues none).
pub const OPENING: usize = 0;
/// The sequence of a code's own steps after its subgroup's opening.
pub const OWN: usize = 1;

/// C91–C98 as xqbase's classifier reads them: 兵三进一 and 炮八进四 in
/// any order, each after its own list of moves (炮八进四 ends the moves
/// that leave the 屏风马 subgroup open; 兵三进一 comes before any other
/// move but the horses and rooks'); then `third` (马八进七, 马八进九 in
/// any order with them, or 炮八平七 after them) with only 马二进三,
/// 车一平二 and those two before it (a 车二进六 makes C91); and Black's
/// 卒３进１ with the clause `black`.
fn five_eight_cannon(third: Option<&str>, black: &str) -> String {
    let pawn = "k. 兵三进一 (红此前可走马二进三、马八进七、马八进九、车一平二、车二进六和炮八进四)";
    let cannon =
        "l. 炮八进四 (红此前可走马二进三、马八进七、马八进九、车一平二、车二进六、兵三进一和兵七进一)";
    let black = format!("n. ……，卒３进１{black}");
    match third {
        None => format!("{pawn} {cannon} (不分先后) {black}"),
        Some(third) if third.contains("炮八平七") => {
            format!(
                "{pawn} {cannon} (不分先后) {third}红此前可走马二进三、车一平二、炮八进四和兵三进一) {black}"
            )
        }
        Some(third) => {
            format!("{pawn} {cannon} {third}红此前可走马二进三、车一平二、炮八进四和兵三进一) {black}")
        }
    }
}

/// C93 and then Black's fifth move `black` (its sixth after an elephant
/// move), and `more`: C94–C97 as xqbase's classifier reads them.
fn c93_then(black: &str, more: &str) -> String {
    let first = five_eight_cannon(Some("m. 马八进九 (不分先后，"), "(黑此前可走车９平８)");
    format!("{first} 5. ……，{black}{more} ／ 5. ……，象７进５／象３进５ 6. ……，{black}{more}")
}

/// One way a game can match a code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The moves at fixed plies: the ply, and the moves allowed there.
    pub fixed: Vec<(usize, Vec<Key>)>,
    /// For each side (Red, Black), the moves it plays at some later ply.
    pub later: [Vec<Later>; 2],
    /// For each sequence and side, the first ply at which its later moves
    /// are looked for: the one after the sequence's own numbered moves.
    pub from: [[usize; 2]; 2],
    /// The plies the subgroup's opening fixes: to the code's own sequence
    /// they are moves of the opening, not moves before its own.
    pub opening_plies: Vec<usize>,
    /// The first Red and Black moves, in any order.
    pub position: Option<[Vec<Key>; 2]>,
    /// Whether each of those first moves is only one of the position's,
    /// as often as it comes (numbered moves `(不分先后)`, as xqbase's
    /// classifier reads them), rather than the position's moves each once
    /// (`从C20局面开始`).
    pub loose_position: bool,
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
        self.start_matches(keys) && self.later_moves_match(keys)
    }

    /// Whether the fixed plies and the position match.
    fn start_matches(&self, keys: &[Key]) -> bool {
        if !self.fixed.iter().all(|(ply, allowed)| keys.get(*ply).is_some_and(|k| allowed.contains(k))) {
            return false;
        }
        let Some(position) = &self.position else { return true };
        // The positions all grow out of the first Red move of their set
        // (炮二平五): the family is chosen on it first (§6.2, item 4).
        if position[0].first().is_some_and(|first| keys.first() != Some(first)) {
            return false;
        }
        position.iter().enumerate().all(|(side, set)| {
            let plies = || keys.iter().skip(side).step_by(2).take(set.len());
            plies().count() == set.len()
                && if self.loose_position {
                    plies().all(|k| set.contains(k))
                } else {
                    same_multiset(plies(), set)
                }
        })
    }

    /// Whether the later moves are all played, each side playing before
    /// each only the moves its list allows.
    fn later_moves_match(&self, keys: &[Key]) -> bool {
        let mut progress = Progress { line: self, found: [[None; MAX_LATER]; 2] };
        let mut left = self.later[0].len() + self.later[1].len();
        for (ply, key) in keys.iter().enumerate() {
            if left == 0 {
                break;
            }
            let side = ply % 2;
            let hit = progress.hits(side, ply, key);
            if progress.answer_missed(side, ply, hit) || !progress.allows(side, ply, key, hit) {
                return false;
            }
            for i in hit.into_iter().flatten() {
                progress.found[side][i] = Some(ply);
                left -= 1;
            }
        }
        left == 0
    }
}

/// How far a game has come through a line's later moves.
struct Progress<'a> {
    line: &'a Line,
    /// For each side and later move, the ply it was played on.
    found: [[Option<usize>; MAX_LATER]; 2],
}

impl Progress<'_> {
    /// Whether later move `i` of `side` answers the other side's move of
    /// the ply before `ply`.
    fn due(&self, side: usize, i: usize, ply: usize) -> bool {
        let answers = self.line.later[side][i].answers;
        answers.is_some_and(|j| self.found[1 - side][j].is_some_and(|p| p + 1 == ply))
    }

    /// Whether later moves of `sequence` are looked for at `ply`.
    fn scanned(&self, side: usize, sequence: usize, ply: usize) -> bool {
        ply >= self.line.from[sequence][side]
    }

    /// Whether later move `i` of `side` may be played at `ply`: not played
    /// yet, looked for, after those of its sequence with a lower place, and
    /// right after the move it answers.
    fn ready(&self, side: usize, i: usize, ply: usize) -> bool {
        let steps = &self.line.later[side];
        let step = &steps[i];
        let before_done = (0..i).all(|j| {
            steps[j].sequence != step.sequence
                || steps[j].place >= step.place
                || self.found[side][j].is_some()
        });
        self.found[side][i].is_none()
            && self.scanned(side, step.sequence, ply)
            && before_done
            && (step.answers.is_none() || self.due(side, i, ply))
    }

    /// For each sequence, the later move of `side` that `key` plays at
    /// `ply`, if any.
    fn hits(&self, side: usize, ply: usize, key: &Key) -> [Option<usize>; 2] {
        let steps = &self.line.later[side];
        [OPENING, OWN].map(|sequence| {
            (0..steps.len()).find(|&i| {
                steps[i].sequence == sequence && steps[i].moves.contains(key) && self.ready(side, i, ply)
            })
        })
    }

    /// Whether a move that had to answer the other side's last move is not
    /// the one played (`hit`).
    fn answer_missed(&self, side: usize, ply: usize, hit: [Option<usize>; 2]) -> bool {
        (0..self.line.later[side].len())
            .any(|i| self.found[side][i].is_none() && self.due(side, i, ply) && !hit.contains(&Some(i)))
    }

    /// Whether every later move of `side` still to come allows `key` before
    /// it: its list names it, or it plays a later move of its sequence
    /// (`hit`), or one played already (a pawn's next step), or, for the
    /// code's own moves, a move the subgroup's opening names.
    fn allows(&self, side: usize, ply: usize, key: &Key, hit: [Option<usize>; 2]) -> bool {
        let steps = &self.line.later[side];
        let opening_move = || self.line.opening_plies.contains(&ply) || hit[OPENING].is_some();
        let again =
            || (0..steps.len()).any(|j| self.found[side][j].is_some() && steps[j].moves.contains(key));
        steps.iter().enumerate().all(|(i, step)| {
            self.found[side][i].is_some()
                || step.allowed.as_ref().is_none_or(|allowed| allowed.contains(key))
                || !self.scanned(side, step.sequence, ply)
                || hit[step.sequence].is_some()
                || (step.sequence == OWN && opening_move())
                || again()
        })
    }
}

/// Whether `played` holds the moves of `set` (at most [`MAX_LATER`] * 2),
/// as many times each.
fn same_multiset<'a>(mut played: impl Iterator<Item = &'a Key>, set: &[Key]) -> bool {
    let mut used = [false; 2 * MAX_LATER];
    played.all(|k| match (0..set.len()).find(|&i| !used[i] && set[i] == *k) {
        Some(i) => {
            used[i] = true;
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
    let out = match subgroup_opening(code) {
        None => own,
        Some(opening) => {
            // A line written from the first move stands alone, unless its
            // moves come in any order (a position): it is reached through
            // the opening.
            let whole = text.trim_start().starts_with("1.");
            let openings = read_lines(opening);
            let mut out = Vec::new();
            for line in &own {
                if whole && line.position.is_none() {
                    out.push(line.clone());
                } else {
                    out.extend(openings.iter().map(|before| join(before, line)));
                }
            }
            out
        }
    };
    let fits = |l: &Line| {
        l.later.iter().all(|s| s.len() <= MAX_LATER)
            && l.position.as_ref().is_none_or(|p| p.iter().all(|s| s.len() <= 2 * MAX_LATER))
    };
    assert!(out.iter().all(fits), "{code}: more moves than MAX_LATER");
    out
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
    // The code's own later moves, in their own order, not after the
    // opening's; a move the opening has already is the opening's.
    let index: [Vec<usize>; 2] = [0, 1].map(|side| {
        let steps = &mut out.later[side];
        let mut at_of = |later: &Later| match steps.iter().position(|l| l.moves == later.moves) {
            Some(at) => at,
            None => {
                steps.push(Later { sequence: OWN, ..later.clone() });
                steps.len() - 1
            }
        };
        line.later[side].iter().map(&mut at_of).collect()
    });
    for side in 0..2 {
        for (later, &at) in line.later[side].iter().zip(&index[side]) {
            if let Some(j) = later.answers {
                out.later[side][at].answers = Some(index[1 - side][j]);
            }
        }
    }
    out.from[OWN] = line.from[OPENING];
    // A ply where the opening offers a choice (卒７进１／卒３进１) plays a
    // move allowed before it, not one of its own.
    out.opening_plies =
        before.fixed.iter().filter(|(_, moves)| moves.len() == 1).map(|(ply, _)| *ply).collect();
    if line.position.is_some() {
        out.position = line.position.clone();
        out.loose_position = line.loose_position;
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
    let (body, lists) = take_clauses(text);
    let (position, body) = take_position(&body);
    let written = written_lines(body);
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
        out.push(line_of(&all, &lists, position.clone()));
    }
    out
}

/// A clause's lists: the moves each side may play before a lettered step.
type Lists = [Option<Vec<Key>>; 2];

/// The text without its clauses in brackets, each marked where it stood by
/// its number (and `(不分先后)` by [`ANY_ORDER`]), and the clauses' lists.
fn take_clauses(text: &str) -> (String, Vec<Lists>) {
    let mut lists: Vec<Lists> = Vec::new();
    let mut body = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        body.push_str(&rest[..open]);
        body.push(' ');
        let close = rest[open..].find(')').map_or(rest.len(), |k| open + k);
        let clause = &rest[open + 1..close];
        body.push(CLAUSE);
        body.push_str(&lists.len().to_string());
        body.push(' ');
        if clause.contains("不分先后") || clause.contains("不论先后") {
            body.push(ANY_ORDER);
            body.push(' ');
        }
        let mut list: Lists = [None, None];
        if let Some(at) = clause.find("可走").or_else(|| clause.find("可以走")) {
            let moves = &clause[at..];
            let moves = moves.split("不包括").next().unwrap_or(moves);
            for (key, color) in moves_in(moves) {
                list[color.index()].get_or_insert_with(Vec::new).push(key);
            }
        }
        lists.push(list);
        rest = rest.get(close + 1..).unwrap_or("");
    }
    body.push_str(rest);
    (body, lists)
}

/// The position a text starts from (`从C30局面开始：`), and the text after it.
fn take_position(body: &str) -> (Option<[Vec<Key>; 2]>, &str) {
    let Some(at) = body.find("局面开始") else { return (None, body) };
    let name = body[..at].trim().trim_start_matches('从');
    let position = POSITIONS.iter().find(|(code, _, _)| *code == name).map(|(_, red, black)| {
        let keys = |s: &str| moves_in(s).into_iter().map(|(k, _)| k).collect::<Vec<_>>();
        [keys(red), keys(black)]
    });
    (position, body[at + "局面开始".len()..].trim_start_matches(['：', ':']))
}

/// The written lines: split at a `／` before a label, and where a move
/// number goes back (E43–E45 have no `／` there).
fn written_lines(body: &str) -> Vec<Vec<Step<'_>>> {
    let mut written: Vec<Vec<Step>> = Vec::new();
    for part in split_lines(body) {
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
    written
}

/// The line of a written line's steps, with the clauses' `lists`.
fn line_of(all: &[&Step], lists: &[Lists], position: Option<[Vec<Key>; 2]>) -> Line {
    let mut l = Line { position, ..Line::default() };
    // The later moves that no clause has given a list to yet.
    let mut unlisted: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    let mut group_start = [0usize; 2];
    let mut black_before: Option<usize> = None;
    let mut from = None;
    for (n, step) in all.iter().enumerate() {
        if matches!(step.label, Label::Letter(_)) && from.is_none() {
            from = Some(numbered_end(&l));
        }
        let [red, black] = add_step(&mut l, step, n as u16);
        for (side, added) in [red, black].into_iter().enumerate() {
            unlisted[side].extend(added);
        }
        // A clause gives its list to the moves of its side before it.
        for k in clauses_in(step.text) {
            for side in 0..2 {
                if let Some(list) = &lists[k][side] {
                    for i in unlisted[side].drain(..) {
                        l.later[side][i].allowed = Some(list.clone());
                    }
                }
            }
        }
        // A Red move written right after a Black one answers it, and so
        // does a Black move its Red move in one step (`n. 兵五进一，炮２平５`).
        if let Some(red) = red {
            l.later[0][red].answers = black_before;
        }
        if let (Some(red), Some(black)) = (red, black) {
            l.later[1][black].answers = Some(red);
        }
        black_before = black.filter(|_| red.is_none() && !step.text.contains(CLAUSE));
        if step.text.contains(ANY_ORDER) {
            in_any_order(&mut l, step, &mut group_start);
        }
    }
    // Moves after the last clause of their side take the lists of all the
    // clauses that name it.
    for side in 0..2 {
        let all: Vec<Key> = lists.iter().filter_map(|l| l[side].as_ref()).flatten().copied().collect();
        let any_clause = lists.iter().any(|l| l[side].is_some());
        for i in std::mem::take(&mut unlisted[side]) {
            l.later[side][i].allowed = any_clause.then(|| all.clone());
        }
    }
    // Lettered moves are looked for after the numbered moves written
    // before them.
    l.from[OPENING] = from.unwrap_or_else(|| numbered_end(&l));
    l.from[OWN] = l.from[OPENING];
    l
}

/// Applies a `(不分先后)` written after `step`: after a numbered step, the
/// numbered moves so far come in any order; after a lettered one, the
/// lettered moves written since the last such clause (from `group_start`).
fn in_any_order(l: &mut Line, step: &Step, group_start: &mut [usize; 2]) {
    if matches!(step.label, Label::Number(_)) && !l.fixed.is_empty() && l.position.is_none() {
        l.position = Some(numbered_in_any_order(&mut l.fixed));
        l.loose_position = true;
    }
    for side in 0..2 {
        let steps = &mut l.later[side];
        if let Some(first) = steps.get(group_start[side]).map(|s| s.place) {
            steps[group_start[side]..].iter_mut().for_each(|s| s.place = first);
        }
        group_start[side] = steps.len();
    }
}

/// For each side, the ply after the numbered moves and the position of a
/// line: where its lettered moves are looked for from.
fn numbered_end(line: &Line) -> [usize; 2] {
    let mut end = [0, 1];
    if let Some(position) = &line.position {
        for side in 0..2 {
            end[side] = side + 2 * position[side].len();
        }
    }
    for (ply, _) in &line.fixed {
        end[ply % 2] = end[ply % 2].max(ply + 2);
    }
    end
}

/// Marks where `(不分先后)` stood in a definition.
const ANY_ORDER: char = '※';

/// Marks where a clause in brackets stood in a definition, before its
/// number.
const CLAUSE: char = '¶';

/// The numbers of the clauses marked in a step's text, in order.
fn clauses_in(text: &str) -> Vec<usize> {
    text.split(CLAUSE)
        .skip(1)
        .filter_map(|rest| rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .collect()
}

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
fn add_step(line: &mut Line, step: &Step, place: u16) -> [Option<usize>; 2] {
    let mut halves = step.text.splitn(2, ['，', ',']);
    let red = halves.next().unwrap_or("");
    let black = halves.next();
    let mut added = [None, None];
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
                line.later[side].push(Later {
                    moves,
                    sequence: OPENING,
                    place,
                    answers: None,
                    allowed: None,
                });
                added[side] = Some(line.later[side].len() - 1);
            }
        }
    }
    added
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
        assert!(l.later[1].iter().all(|s| s.allowed.as_ref().map(Vec::len) == Some(2)));
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

//! The definitions as qipu reads them where that is not the published
//! text: the errata of the ECCO 2004 table, and the readings of xqbase's
//! classifier. Each is a change of the text that the grammar
//! ([`super::grammar`]) then reads, or the opening a subgroup's codes
//! continue.
//!
//! Errata of the published text (§6.2, item 7):
//! - B21 writes 象七进九 for a Red move: the move key ([`super::key`]) is
//!   the same for 相;
//! - B32 is read as in the xqbase tree: 1. 炮二平五，马２进３ 2. 兵七进一，炮８平６ 3. 马八进七;
//! - C76 starts from the C72 position (no C73 position is defined);
//! - D34 reads 5. 马八进九: its subgroup fixes 4. 兵三进一, and its name
//!   (进三兵 … 红左边马) says the same;
//! - E43–E45 have no `／` between their two lines: in the grammar
//!   ([`super::grammar`]), a move number lower than the one before starts a
//!   new line.
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

/// The opening a subgroup's codes continue, when theirs does not start
/// with the first move (§6.2, item 6), as xqbase's classifier reads it:
/// - 屏风马 (C0–C9): after 1. …，马８进７, 马２进３ with only 车９平８,
///   车８进５ and the pawns 7 and 3 before; after 1. …，马２进３, 马８进７
///   as Black's second move, or third after a pawn;
/// - 反宫马 (B3–B5): 炮８平６ as Black's second move, or third after a
///   pawn, as the B1 codes read Black's second move;
/// - 三步虎 and 列炮 (B2, D3–D5): 车９平８ is one of the moves allowed
///   before, not one required (and so is 车８进５ after it).
pub(super) fn subgroup_opening(code: &str) -> Option<&'static str> {
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
pub(super) fn corrected(code: &str, definition: &str) -> String {
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

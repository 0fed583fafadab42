//! The traditional names players give openings (中炮, 屏风马, 仙人指路 …):
//! what they search a collection for. Each name is a test on the first 20
//! plies, read after mirroring as for ECCO (Red's opening on the right
//! wing); Black's formations are recognised on either wing.

use super::key::{MoveKey, key};

/// The key of a fixed move text, computed when the program is built.
macro_rules! k {
    ($text:literal) => {{
        const KEY: MoveKey = key($text);
        KEY
    }};
}

/// The names of the traditional openings and formations found in the
/// opening plies `keys` (see [`super::opening_keys`]), in a fixed order:
/// Red's opening move first, then Black's answer, then later formations.
///
/// ```
/// use qipu::analysis::ecco::{opening_keys, terms::opening_terms};
/// use qipu::{Position, notation::chinese};
/// let mut pos = Position::start();
/// let mut moves = Vec::new();
/// for text in ["炮二平五", "马８进７", "马二进三", "车９平８", "车一平二", "马２进３", "车二进六"] {
///     let m = chinese::parse(text).unwrap().resolve(&pos).unwrap();
///     pos.play_unchecked(m);
///     moves.push(m);
/// }
/// let terms = opening_terms(&opening_keys(&Position::start(), &moves));
/// assert_eq!(terms, ["中炮", "屏风马", "过河车"]);
/// ```
pub fn opening_terms(keys: &[MoveKey]) -> Vec<&'static str> {
    let red = || keys.iter().step_by(2);
    let black = || keys.iter().skip(1).step_by(2);
    let red_has = |key: MoveKey| red().any(|&k| k == key);
    let black_has = |key: MoveKey| black().any(|&k| k == key);
    let first_red = keys.first().copied();
    let first_black = keys.get(1).copied();
    let mut terms = Vec::new();
    let opening_move = [
        (k!("炮二平五"), "中炮"),
        (k!("兵三进一"), "仙人指路"),
        (k!("相三进五"), "飞相局"),
        (k!("马二进三"), "起马局"),
        (k!("炮二平六"), "过宫炮"),
        (k!("炮二平四"), "士角炮"),
    ];
    for (key, name) in opening_move {
        if first_red == Some(key) {
            terms.push(name);
        }
    }
    let central = first_red == Some(k!("炮二平五"));
    if central && first_black == Some(k!("炮８平５")) {
        terms.push("顺炮");
    }
    if central && first_black == Some(k!("炮２平５")) {
        terms.push("列炮");
    }
    if first_red == Some(k!("兵三进一")) && first_black == Some(k!("炮８平７")) {
        terms.push("卒底炮");
    }
    // Black's formations, on either wing: the move and its mirror.
    let both_horses = black_has(k!("马８进７")) && black_has(k!("马２进３"));
    let palace_cannon = black_has(k!("炮８平６")) || black_has(k!("炮２平４"));
    if both_horses && palace_cannon {
        terms.push("反宫马");
    } else if both_horses {
        terms.push("屏风马");
    }
    let edge_horse = (black_has(k!("马２进３")) && black_has(k!("马８进９")))
        || (black_has(k!("马８进７")) && black_has(k!("马２进１")));
    if edge_horse && !both_horses {
        terms.push("单提马");
    }
    let tiger = |moves: [MoveKey; 3]| moves.iter().all(|m| black().take(3).any(|k| k == m));
    if tiger([k!("马８进７"), k!("炮８平９"), k!("车９平８")])
        || tiger([k!("马２进３"), k!("炮２平１"), k!("车１平２")])
    {
        terms.push("三步虎");
    }
    if central && red_has(k!("炮八平六")) {
        terms.push("五六炮");
    }
    if central && red_has(k!("炮八平七")) {
        terms.push("五七炮");
    }
    // Red's rook to its own river bank, onto the river line, across it.
    if red_has(k!("车二进四")) || red_has(k!("车八进四")) {
        terms.push("巡河车");
    }
    if red_has(k!("车二进五")) || red_has(k!("车八进五")) {
        terms.push("骑河车");
    }
    if red_has(k!("车二进六")) || red_has(k!("车八进六")) {
        terms.push("过河车");
    }
    terms
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::ecco::opening_keys;
    use crate::notation::chinese;
    use crate::{Move, Position};

    fn terms(texts: &[&str]) -> Vec<&'static str> {
        let mut pos = Position::start();
        let moves: Vec<Move> = texts
            .iter()
            .map(|t| {
                let m = chinese::parse(t).unwrap().resolve(&pos).unwrap();
                pos.play_unchecked(m);
                m
            })
            .collect();
        opening_terms(&opening_keys(&Position::start(), &moves))
    }

    #[test]
    fn names_of_the_rules_text() {
        assert_eq!(terms(&["炮二平五", "炮８平５"]), ["中炮", "顺炮"]);
        assert_eq!(terms(&["炮八平五", "炮８平５"]), ["中炮", "列炮"], "mirrored: 炮二平五 炮２平５");
        assert_eq!(terms(&["兵七进一", "炮２平３"]), ["仙人指路", "卒底炮"]);
        assert_eq!(terms(&["相三进五"]), ["飞相局"]);
        assert_eq!(terms(&["马二进三"]), ["起马局"]);
        assert_eq!(terms(&["炮二平六"]), ["过宫炮"]);
        assert_eq!(terms(&["炮八平六"]), ["士角炮"], "mirrored: 炮二平四");
        assert_eq!(
            terms(&["炮二平五", "马２进３", "马二进三", "炮８平６", "车一平二", "马８进７"]),
            ["中炮", "反宫马"]
        );
        assert_eq!(
            terms(&["炮二平五", "马８进７", "马二进三", "炮８平９", "车一平二", "车９平８"]),
            ["中炮", "三步虎"]
        );
        assert_eq!(terms(&["炮二平五", "马２进３", "马二进三", "马８进９"]), ["中炮", "单提马"]);
        assert_eq!(
            terms(&[
                "炮二平五",
                "马８进７",
                "马二进三",
                "马２进３",
                "车一平二",
                "车９平８",
                "车二进四",
                "卒７进１",
                "马八进九",
                "卒３进１",
                "炮八平七"
            ]),
            ["中炮", "屏风马", "五七炮", "巡河车"]
        );
        assert_eq!(
            terms(&["炮二平五", "马８进７", "马二进三", "车９平８", "车一平二", "马２进３", "车二进五"]),
            ["中炮", "屏风马", "骑河车"]
        );
        assert_eq!(terms(&["兵五进一"]), Vec::<&str>::new());
    }
}

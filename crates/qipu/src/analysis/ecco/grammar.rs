//! Reading the published ECCO definitions into lines ([`Line`]), patterns
//! over the first 20 plies of a game. The text read is the definition with
//! the errata and xqbase's readings applied (`super::errata`).
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
//! Codes whose definition continues a subgroup's opening (`n. 马八进七` under
//! C0) are read after that opening (§6.2, item 6), and so are those that
//! start from a position or whose numbered moves come in any order. The
//! opening's lettered moves and the code's own are two sequences, each
//! looked for after its own numbered moves and each with its own lists; the
//! moves the opening names (its plies of one move, its lettered moves) are
//! not moves before the code's own. `(不包括 …)` exclusions are applied by
//! the classifier: a code gives way to those it names when the game also
//! follows one of them.

use super::errata::{corrected, subgroup_opening};
use super::key::{MoveKey, keys_in, moves_in};
use super::matching::{Later, Line, MAX_LATER, OPENING, OWN};

/// The codes a definition's `(不包括 …)` clauses set aside: when the game
/// also follows one of them, that one is its code. Ranges (`B02~C99`) are
/// given by their ends.
pub(crate) fn exclusions(code: &str, definition: &str) -> Vec<(String, String)> {
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
type Lists = [Option<Vec<MoveKey>>; 2];

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
fn take_position(body: &str) -> (Option<[Vec<MoveKey>; 2]>, &str) {
    let Some(at) = body.find("局面开始") else { return (None, body) };
    let name = body[..at].trim().trim_start_matches('从');
    let position = POSITIONS
        .iter()
        .find(|(code, _, _)| *code == name)
        .map(|(_, red, black)| [keys_in(red), keys_in(black)]);
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
fn line_of(all: &[&Step], lists: &[Lists], position: Option<[Vec<MoveKey>; 2]>) -> Line {
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
        let all: Vec<MoveKey> = lists.iter().filter_map(|l| l[side].as_ref()).flatten().copied().collect();
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
fn numbered_in_any_order(fixed: &mut Vec<(usize, Vec<MoveKey>)>) -> [Vec<MoveKey>; 2] {
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
        let moves = keys_in(half);
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

//! What a writer gives: the bytes written, and what of the record the
//! format could not keep ([`WriteWarning`]), the one type every writer
//! reports through (re-exported by [`write`](mod@super::write)).

use super::encoding::Encoding;

/// A record written, and what of it the format could not keep: each
/// [`WriteWarning`] once per game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// What was cut or left out.
    pub warnings: Vec<WriteWarning>,
}

/// Something of a record that the format written cannot hold as it is,
/// told once per game: a tag left out or cut, characters the output
/// encoding lacks. Every writer reports through this one type, and
/// `qipu convert` tells each as a warning naming the game and counts them
/// in its summary.
///
/// ```
/// use qipu::formats::write::WriteWarning;
/// let w = WriteWarning::TagLeftOut { tag: "Elo".into(), format: "XQF" };
/// assert_eq!(w.to_string(), "tag Elo: XQF has no field for it; not written");
/// assert_eq!(w.tag(), Some("Elo"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WriteWarning {
    /// A tag that the format has no field for and that cannot be kept in
    /// the game's comment either: not written.
    TagLeftOut {
        /// The tag's name.
        tag: String,
        /// The format, as users name it (`XQF`).
        format: &'static str,
    },
    /// A tag whose name the format cannot write so that it reads back (a
    /// name with a space, in PGN): not written.
    TagNameUnwritable {
        /// The tag's name.
        tag: String,
        /// The format, as users name it.
        format: &'static str,
    },
    /// A tag given again under the name of an earlier one (in any case),
    /// which the format holds once: not written (the first is).
    TagRepeated {
        /// The tag's name.
        tag: String,
        /// The format, as users name it.
        format: &'static str,
    },
    /// A tag whose name the output encoding cannot hold (with
    /// [`Unmappable::Replace`](super::write::Unmappable::Replace): a name with `?` would not read as one):
    /// not written.
    TagNameUnmappable {
        /// The tag's name.
        tag: String,
        /// The encoding written.
        encoding: Encoding,
    },
    /// Text cut, on a character boundary, to the size of its field.
    Cut {
        /// The tag cut, or `None` for another text (a library's title).
        tag: Option<String>,
        /// Characters kept.
        kept: usize,
        /// Characters the text has.
        of: usize,
        /// The field, as users name it (`XQF's field of 15 bytes of GBK`).
        field: String,
    },
    /// Characters that the output encoding cannot hold, each written as
    /// `?` ([`Unmappable::Replace`](super::write::Unmappable::Replace)).
    Replaced {
        /// The characters, each once, in the order met (at most 5).
        characters: Vec<char>,
        /// How many characters were replaced.
        count: usize,
        /// The encoding written.
        encoding: Encoding,
    },
    /// A record written past a limit of qipu's readers (see
    /// [`limits`](super::limits)): written whole, but it will not read back.
    WontReadBack {
        /// The format, as users name it.
        format: &'static str,
        /// What is too large: `line`, `game` or `file`.
        what: &'static str,
        /// Its size in bytes.
        size: usize,
        /// The limit in bytes.
        limit: usize,
        /// What the limit is of, as the message names it (`lines`).
        reads: &'static str,
    },
    /// The start position's half-move clock (the plies since the last
    /// capture, which the natural move limit counts from), which the format
    /// has no field for: written as if it were 0, and read back so.
    ClockLeftOut {
        /// The clock of the record's start position.
        halfmoves: u32,
        /// The format, as users name it.
        format: &'static str,
    },
    /// More warnings of one kind about the same game, past the first
    /// `MAX_TOLD_ALIKE` of their kind: told as one (a record of 600,000
    /// tags that PGN cannot name is six lines, not 600,000).
    More(
        /// The warnings it stands for, in order, all of one kind.
        Vec<WriteWarning>,
    ),
    /// A warning about game `game` (from 1) of a library.
    InGame {
        /// The game, from 1.
        game: usize,
        /// What was not kept of it.
        warning: Box<WriteWarning>,
    },
    /// Game `game` (from 1) of a library could not be written: why.
    GameLeftOut {
        /// The game, from 1.
        game: usize,
        /// Why it was not written.
        why: String,
    },
}

/// How many warnings of one kind (a tag left out, a tag not named, a text
/// cut) are told one by one about a game; the rest are told as one
/// [`WriteWarning::More`].
pub(crate) const MAX_TOLD_ALIKE: usize = 5;

impl WriteWarning {
    /// How many warnings this one stands for: those of a
    /// [`WriteWarning::More`], else 1.
    pub fn count(&self) -> usize {
        match self {
            WriteWarning::More(all) => all.len(),
            WriteWarning::InGame { warning, .. } => warning.count(),
            _ => 1,
        }
    }

    /// The warnings this one stands for: those of a [`WriteWarning::More`],
    /// else itself.
    pub fn each(&self) -> &[WriteWarning] {
        match self {
            WriteWarning::More(all) => all,
            other => std::slice::from_ref(other),
        }
    }

    /// The kind of a warning that may be told many times about one game
    /// (once a tag or text), for [`summarise`]; `None` for the others.
    fn alike(&self) -> Option<u8> {
        match self {
            WriteWarning::TagLeftOut { .. } => Some(0),
            WriteWarning::TagNameUnwritable { .. } => Some(1),
            WriteWarning::TagNameUnmappable { .. } => Some(2),
            WriteWarning::Cut { .. } => Some(3),
            WriteWarning::TagRepeated { .. } => Some(4),
            _ => None,
        }
    }

    /// The tag the warning names, if it names one.
    pub fn tag(&self) -> Option<&str> {
        match self {
            WriteWarning::TagLeftOut { tag, .. }
            | WriteWarning::TagNameUnwritable { tag, .. }
            | WriteWarning::TagNameUnmappable { tag, .. }
            | WriteWarning::TagRepeated { tag, .. } => Some(tag),
            WriteWarning::Cut { tag, .. } => tag.as_deref(),
            WriteWarning::InGame { warning, .. } => warning.tag(),
            _ => None,
        }
    }
}

impl std::fmt::Display for WriteWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteWarning::TagLeftOut { tag, format } => {
                write!(f, "tag {tag}: {format} has no field for it; not written")
            }
            WriteWarning::TagNameUnwritable { tag, format } => {
                write!(f, "tag {tag}: {format} cannot write a tag of that name; not written")
            }
            WriteWarning::TagNameUnmappable { tag, encoding } => {
                write!(f, "tag {tag}: its name cannot be written in {encoding}; not written")
            }
            WriteWarning::TagRepeated { tag, format } => {
                write!(
                    f,
                    "tag {tag}: given again; {format} holds a tag of a name once; the first written, not this one"
                )
            }
            WriteWarning::Cut { tag, kept, of, field } => {
                match tag {
                    Some(tag) => write!(f, "tag {tag}")?,
                    None => write!(f, "title")?,
                }
                write!(f, ": cut to {kept} of its {of} characters, the size of {field}")
            }
            WriteWarning::Replaced { characters, count, encoding } => {
                write!(f, "{count} character(s) that {encoding} cannot hold written as '?': ")?;
                for (k, c) in characters.iter().enumerate() {
                    let sep = if k == 0 { "" } else { ", " };
                    write!(f, "{sep}{c:?} (U+{:04X})", *c as u32)?;
                }
                Ok(())
            }
            WriteWarning::WontReadBack { format, what, size, limit, reads } => {
                // Whole megabytes, unless that would read as the limit.
                let (mb, limit) = (1 << 20, limit >> 20);
                write!(f, "written as a {format} {what} of ")?;
                if size / mb > limit {
                    write!(f, "{}", size / mb)?;
                } else {
                    write!(f, "{}.{}", size / mb, (size % mb * 10).div_ceil(mb).min(9))?;
                }
                write!(f, " MB; qipu reads {reads} up to {limit} MB, so it will not read back")
            }
            WriteWarning::ClockLeftOut { halfmoves, format } => write!(
                f,
                "the start position's half-move clock ({halfmoves}): {format} has no field for it; read back as 0"
            ),
            WriteWarning::More(all) => match (all.len(), all.last()) {
                (_, None) => Ok(()),
                (count, Some(like)) => match like {
                    WriteWarning::TagLeftOut { format, .. } => {
                        write!(f, "and {count} more tag(s) that {format} has no field for; not written")
                    }
                    WriteWarning::TagNameUnwritable { format, .. } => {
                        write!(f, "and {count} more tag(s) whose names {format} cannot write; not written")
                    }
                    WriteWarning::TagNameUnmappable { encoding, .. } => {
                        write!(
                            f,
                            "and {count} more tag(s) whose names cannot be written in {encoding}; not written"
                        )
                    }
                    WriteWarning::Cut { .. } => {
                        write!(f, "and {count} more text(s) cut to the size of their fields")
                    }
                    WriteWarning::TagRepeated { format, .. } => {
                        write!(
                            f,
                            "and {count} more tag(s) given again, which {format} holds once; not written"
                        )
                    }
                    other => write!(f, "and {count} more like: {other}"),
                },
            },
            WriteWarning::InGame { game, warning } => write!(f, "game {game}: {warning}"),
            WriteWarning::GameLeftOut { game, why } => write!(f, "game {game}: not written: {why}"),
        }
    }
}

/// The warnings about one game with those of a kind past the first
/// [`MAX_TOLD_ALIKE`] told as one [`WriteWarning::More`], in the place of
/// the first of them left out; the others as they are, in order.
pub(crate) fn summarise(warnings: Vec<WriteWarning>) -> Vec<WriteWarning> {
    let mut seen = [0usize; 5];
    if warnings.iter().all(|w| {
        w.alike().is_none_or(|k| {
            seen[usize::from(k)] += 1;
            seen[usize::from(k)] <= MAX_TOLD_ALIKE
        })
    }) {
        return warnings;
    }
    let mut told = Vec::new();
    // Where each kind's summary stands in `told`.
    let mut more: [Option<usize>; 5] = [None; 5];
    let mut kept = [0usize; 5];
    for warning in warnings {
        let Some(k) = warning.alike().map(usize::from) else {
            told.push(warning);
            continue;
        };
        if kept[k] < MAX_TOLD_ALIKE {
            kept[k] += 1;
            told.push(warning);
            continue;
        }
        match more[k] {
            Some(at) => {
                if let WriteWarning::More(all) = &mut told[at] {
                    all.push(warning);
                }
            }
            None => {
                more[k] = Some(told.len());
                told.push(WriteWarning::More(vec![warning]));
            }
        }
    }
    told
}

#[cfg(test)]
mod examples {
    #[test]
    fn summarise_as_its_docs_showed() {
        use crate::formats::written::{WriteWarning, summarise};
        let tag = |k: usize| WriteWarning::TagNameUnwritable { tag: format!("a b{k}"), format: "PGN" };
        let told = summarise((0..600_000).map(tag).collect());
        assert_eq!(told.len(), 6);
        assert_eq!(told[5].to_string(), "and 599995 more tag(s) whose names PGN cannot write; not written");
        assert_eq!(told.iter().map(WriteWarning::count).sum::<usize>(), 600_000);
    }
}

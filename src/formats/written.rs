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

impl WriteWarning {
    /// The tag the warning names, if it names one.
    pub fn tag(&self) -> Option<&str> {
        match self {
            WriteWarning::TagLeftOut { tag, .. }
            | WriteWarning::TagNameUnwritable { tag, .. }
            | WriteWarning::TagNameUnmappable { tag, .. } => Some(tag),
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
            WriteWarning::InGame { game, warning } => write!(f, "game {game}: {warning}"),
            WriteWarning::GameLeftOut { game, why } => write!(f, "game {game}: not written: {why}"),
        }
    }
}

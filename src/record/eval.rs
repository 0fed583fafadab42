//! Evaluations: engine scores.

/// An engine's score of a position, for one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// In centipawns.
    Centipawns(i32),
    /// Mate in this many moves by the side the score is for; negative: mated.
    Mate(i32),
}

impl Score {
    /// The same score for the other side.
    pub fn negated(self) -> Score {
        match self {
            Score::Centipawns(c) => Score::Centipawns(-c),
            Score::Mate(n) => Score::Mate(-n),
        }
    }
}

/// An evaluation as comments hold it: a score from Red's side and the depth.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// From Red's side.
    pub score: Score,
    /// The depth searched.
    pub depth: Option<u32>,
}

/// How an evaluation is written into a comment.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalStyle {
    /// `+0.38/19`.
    #[default]
    Plain,
    /// `[%eval 0.38,19]`.
    Lichess,
}

impl Evaluation {
    /// The evaluation a comment holds.
    pub fn find(_comment: &str) -> Option<Evaluation> {
        None
    }

    /// As written into a comment.
    pub fn write(&self, style: EvalStyle) -> String {
        let d = self.depth.map(|d| format!("/{d}")).unwrap_or_default();
        match (style, self.score) {
            (EvalStyle::Plain, Score::Centipawns(c)) => format!(
                "{}{}.{:02}{d}",
                if c > 0 {
                    "+"
                } else if c < 0 {
                    "-"
                } else {
                    ""
                },
                c.unsigned_abs() / 100,
                c.unsigned_abs() % 100
            ),
            (EvalStyle::Plain, Score::Mate(n)) => format!("#{n}{d}"),
            (EvalStyle::Lichess, _) => String::new(),
        }
    }
}

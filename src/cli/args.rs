//! Argument groups many commands share, flattened into their `Args`:
//! what a batch command reads ([`ReadArgs`]), with its output and
//! selection ([`BatchArgs`]), and how a command writes moves
//! ([`NotationArgs`]).

use std::io::Write;
use std::path::PathBuf;

use qipu::batch::{Batch, Input};
use qipu::formats::encoding::Encoding;

use super::output::{OutputArgs, Sink};
use super::select::{Chooser, SelectArgs};
use super::{ChineseStyle, Failure, MoveNotation};

/// The inputs of a batch command and how they are read: the paths,
/// `--encoding` and `--jobs`.
#[derive(Debug, Clone, clap::Args)]
pub struct ReadArgs {
    /// Files, directories (searched recursively) or `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Read text in this encoding instead of detecting it.
    #[arg(long)]
    pub encoding: Option<Encoding>,
    /// Worker threads (default: all cores).
    #[arg(short, long)]
    pub jobs: Option<usize>,
    /// Read only part K of N parts of the inputs (K from 0): whole files shared out by size, the
    /// same way by every process given the same paths, so N processes or machines given 0/N to
    /// N-1/N read every game once between them.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<qipu::batch::Shard>,
}

impl ReadArgs {
    /// The inputs the paths expand to, but for the files the command
    /// writes: standard output and those of `written` (`-o FILE`, `None`
    /// when not given; see [`super::expanded`]).
    pub fn inputs(&self, written: &[Option<&std::path::Path>]) -> Vec<Input> {
        self.expanded(written).inputs
    }

    /// The inputs the paths expand to, with each one's place below the
    /// folder it was found in, but for the files the command writes (see
    /// [`ReadArgs::inputs`]).
    pub fn expanded(&self, written: &[Option<&std::path::Path>]) -> qipu::batch::Expanded {
        let written: Vec<&std::path::Path> =
            written.iter().flatten().copied().filter(|p| p.as_os_str() != "-").collect();
        let expanded = super::expanded(&self.paths, &written);
        match self.shard {
            Some(shard) => shard.of_expanded(expanded),
            None => expanded,
        }
    }

    /// The batch `--jobs` and `--encoding` ask for.
    pub fn batch(&self) -> Result<Batch, Failure> {
        super::batch(self.jobs, self.encoding)
    }
}

/// `--notation` and `--chinese`. Each command gives `--notation` its own
/// help and default: `#[command(mut_arg("notation", |a| a.help(…).default_value(…)))]`
/// on its `Args`.
#[derive(Debug, Clone, clap::Args)]
pub struct NotationArgs {
    /// How moves are written.
    #[arg(long, value_enum, required = false)]
    pub notation: MoveNotation,
    /// Characters for --notation chinese.
    #[arg(long, value_enum, default_value_t = ChineseStyle::Simplified)]
    pub chinese: ChineseStyle,
}

impl NotationArgs {
    /// The notation, with the Chinese characters chosen.
    pub fn notation(&self) -> qipu::notation::Notation {
        self.notation.with(self.chinese)
    }
}

/// What every batch command that selects games takes, last of its
/// arguments: its inputs, its output (`-o`, `--force`) and the selection
/// flags.
#[derive(Debug, clap::Args)]
pub struct BatchArgs {
    #[command(flatten)]
    pub read: ReadArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub select: SelectArgs,
}

/// A batch command under way: its inputs, its output, its batch and its
/// chooser, copies planned ([`BatchArgs::open`]).
pub struct Opened<'a> {
    /// The inputs the paths expand to (standard input kept in a file when
    /// the plan read it).
    pub inputs: Vec<Input>,
    /// Where the command writes.
    pub sink: Sink<'a>,
    /// The batch `--jobs` and `--encoding` ask for.
    pub batch: Batch,
    /// The selection, its copies planned.
    pub chooser: Chooser,
}

impl BatchArgs {
    /// Expands the inputs, opens the output, makes the batch and the
    /// chooser and plans its copies, in this order (the first error met is
    /// the one told).
    pub fn open<'a>(&self, stdout: &'a mut dyn Write) -> Result<Opened<'a>, Failure> {
        let mut inputs = self.read.inputs(&[self.output.output.as_deref()]);
        let sink = self.output.open(&inputs, stdout)?;
        let batch = self.read.batch()?;
        let mut chooser = Chooser::new(&self.select)?;
        chooser.plan(&mut inputs, &batch)?;
        Ok(Opened { inputs, sink, batch, chooser })
    }
}

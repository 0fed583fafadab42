//! `qipu export PATH... --to parquet|arrow`: the games of a collection,
//! and with `--positions` their main-line positions, as tables for data
//! tools ([`qipu::table`] makes the rows and names the columns).
//!
//! Games are replayed on every core; this thread appends what each gives
//! to the tables and writes a record batch every few thousand rows, so
//! that memory stays bounded whatever the collection's size. Parquet
//! files are written under a temporary name and given theirs at the end;
//! a partitioned folder keeps at most [`OPEN_PARTS`] files of a table open,
//! closing the least recently used (its partition goes on in a new part).

use std::io::Write;
#[cfg(feature = "parquet")]
use std::path::{Path, PathBuf};

use super::Failure;

/// What `export` writes.
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Parquet files (zstd): `-o DIR` (games.parquet, positions.parquet) or `-o FILE.parquet`.
    Parquet,
    /// An Arrow IPC stream of one table, on standard output or into -o FILE.
    Arrow,
}

/// The column a partitioned folder is split by.
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PartitionBy {
    /// The input's name.
    Source,
    /// The year of the Date tag.
    Year,
    /// The Event tag.
    Event,
}

/// Arguments of `qipu export`.
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
#[derive(Debug, clap::Args)]
#[command(mut_arg("output", |a| a.help(
    "Write here: a folder (one that exists, or a path ending in `/`) for games.parquet and with \
     --positions positions.parquet; a FILE.parquet for one table; for --to arrow a file \
     (default: standard output). Never one of the inputs; written under a temporary name and \
     given its name when complete"
).value_name("DIR|FILE")))]
pub struct Args {
    /// What to write.
    #[arg(long, value_enum, default_value_t = ExportFormat::Parquet)]
    pub to: ExportFormat,
    /// The table of positions too (with -o DIR), or instead of games (-o FILE, --to arrow): a row
    /// per main-line position of each game.
    #[arg(long)]
    pub positions: bool,
    /// A Hive-partitioned folder: DIR/games/KEY=VALUE/part-0.parquet (and DIR/positions/...),
    /// the partition's column left out of the files; a game with no value goes under
    /// __HIVE_DEFAULT_PARTITION__.
    #[arg(long, value_enum, value_name = "COLUMN")]
    pub partition_by: Option<PartitionBy>,
    #[command(flatten)]
    pub batch: super::args::BatchArgs,
}

/// The most files of a table a partitioned export keeps open at once.
#[cfg(feature = "parquet")]
pub const OPEN_PARTS: usize = 32;

/// Exports the games of the inputs.
#[cfg(not(feature = "parquet"))]
pub fn run(_: &Args, _: &mut impl Write) -> Result<i32, Failure> {
    Err(Failure::usage("export needs qipu built with the feature `parquet` (it is on by default)"))
}

/// Exports the games of the inputs.
#[cfg(feature = "parquet")]
pub fn run(args: &Args, stdout: &mut impl Write) -> Result<i32, Failure> {
    use super::progress::{Outcome, Tally};
    use qipu::select::PassEvent;

    let output = args.batch.output.output.as_deref().filter(|p| p.as_os_str() != "-");
    let plan = Plan::of(args, output)?;
    if plan.holds_much_at_once() {
        return_freed_memory();
    }
    let written: Vec<Option<&Path>> = plan.written().into_iter().map(Some).collect();
    let mut inputs = args.batch.read.inputs(&written);
    let batch = args.batch.read.batch()?;
    let mut out = writing::Out::open(&plan, args.batch.output.force, &inputs, stdout)?;
    let mut tally = Tally::new(inputs.len());
    let mut chooser = super::select::Chooser::new(&args.batch.select)?;
    chooser.plan(&mut inputs, &batch)?;
    let selection = chooser.selection().clone();
    let positions = plan.has_positions();
    let follower = || selection.checker_keeping_all(plan.follower());
    chooser.pass(&batch, &inputs, &mut tally, follower, |meta, event, tally| {
        match event {
            PassEvent::Game { index, game, selected } => {
                let in_main_line = game.replayed.error.as_ref().is_some_and(|e| !e.in_variation());
                let stops = if in_main_line && positions { " (its positions stop there)" } else { "" };
                tally.game_as(Outcome::checked(&meta.source, index, &game, stops), selected);
                if selected {
                    out.game(meta, index, &game)?;
                }
            }
            PassEvent::Unreadable { reason, selected: true } => out.unreadable(meta, &reason.to_string())?,
            _ => {}
        }
        Ok(())
    })?;
    out.finish()?;
    eprintln!("{}{}", tally.summary(), chooser.summary());
    Ok(tally.code())
}

/// Has glibc's allocator give memory back as it is freed. A row group's
/// buffers are freed together when it is written, on the thread writing
/// it, while the replaying threads allocate: by default glibc raises its
/// threshold for mapping blocks of their own after such frees, and keeps
/// what it freed. With both tables written at once (two writing threads)
/// that took the peak of an export of 1 GB of PGN from about 124 MB to
/// 186 MB. Fixed thresholds of 128 KB keep it near the memory in use, for
/// more system time: each large buffer is mapped afresh, its pages
/// faulted in (1 GB with both tables: 7.0 s of system time, 1.6 s without).
/// Other settings measured on that export: one or two arenas (150, 157
/// MB), a trimming threshold of 1 to 32 MB (127 to 131 MB, and still 5 to
/// 6 s), a mapping threshold of 256 KB to 8 MB (132 to 176 MB). One table
/// alone holds much less at once, and glibc's defaults serve it better: 1
/// GB of PGN exported to positions alone peaked at 110 MB with them (92
/// MB with these settings) in 14.2 s where it took 18.5 s (7.7 s of system
/// time, 0.9 s with the defaults); to games alone, 121 MB, a tenth less
/// CPU time than with these settings. So only an export of both tables,
/// or of positions into a partitioned folder (many files open at once),
/// sets them.
#[cfg(feature = "parquet")]
fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets two parameters of the allocator, which
    // takes them at any time (it locks its own state).
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 << 10);
    }
}

/// Where the tables go, as the arguments ask.
#[cfg(feature = "parquet")]
#[derive(Debug)]
enum Plan {
    /// Parquet files, each of one table.
    Files(Vec<(qipu::table::Table, PathBuf)>),
    /// A partitioned folder of these tables.
    Partitioned { dir: PathBuf, by: PartitionBy, tables: Vec<qipu::table::Table> },
    /// An Arrow IPC stream of one table, into a file or standard output.
    Stream(qipu::table::Table, Option<PathBuf>),
}

#[cfg(feature = "parquet")]
impl Plan {
    fn of(args: &Args, output: Option<&Path>) -> Result<Plan, Failure> {
        use qipu::table::Table;
        let one = if args.positions { Table::Positions } else { Table::Games };
        let tables = if args.positions { vec![Table::Games, Table::Positions] } else { vec![Table::Games] };
        if args.to == ExportFormat::Arrow {
            if args.partition_by.is_some() {
                return Err(Failure::usage("--partition-by writes Parquet files: not with --to arrow"));
            }
            if let Some(path) = output
                && is_folder(path)
            {
                return Err(Failure::usage(format!(
                    "{}: --to arrow writes one stream: -o FILE, or standard output",
                    path.display()
                )));
            }
            return Ok(Plan::Stream(one, output.map(Path::to_path_buf)));
        }
        let Some(path) = output else {
            return Err(Failure::usage(
                "export --to parquet writes files: give -o DIR (games.parquet, positions.parquet) or -o FILE.parquet",
            ));
        };
        let folder = is_folder(path);
        if let Some(by) = args.partition_by {
            if !folder {
                return Err(Failure::usage(format!(
                    "{}: --partition-by writes a folder: give -o DIR/ (an existing folder or a path ending in /)",
                    path.display()
                )));
            }
            return Ok(Plan::Partitioned { dir: path.to_path_buf(), by, tables });
        }
        if folder {
            return Ok(Plan::Files(
                tables.into_iter().map(|t| (t, path.join(format!("{}.parquet", t.name())))).collect(),
            ));
        }
        Ok(Plan::Files(vec![(one, path.to_path_buf())]))
    }

    /// The files (or folders) written, which the inputs leave out.
    fn written(&self) -> Vec<&Path> {
        match self {
            Plan::Files(files) => files.iter().map(|(_, p)| p.as_path()).collect(),
            Plan::Partitioned { dir, .. } => vec![dir.as_path()],
            Plan::Stream(_, path) => path.iter().map(PathBuf::as_path).collect(),
        }
    }

    /// What each game's replay gathers: only what the tables written need.
    fn follower(&self) -> qipu::table::TableFollower {
        use qipu::table::{Table, TableFollower};
        match (self.tables().contains(&Table::Games), self.has_positions()) {
            (false, _) => Table::Positions.follower(),
            (true, positions) => TableFollower::new(positions),
        }
    }

    /// The tables written.
    fn tables(&self) -> Vec<qipu::table::Table> {
        match self {
            Plan::Files(files) => files.iter().map(|(t, _)| *t).collect(),
            Plan::Partitioned { tables, .. } => tables.clone(),
            Plan::Stream(table, _) => vec![*table],
        }
    }

    /// Whether the export holds a lot at once: both tables written
    /// side by side, or positions into many parts (see
    /// [`return_freed_memory`]).
    fn holds_much_at_once(&self) -> bool {
        match self {
            Plan::Files(files) => files.len() > 1,
            Plan::Partitioned { .. } => self.has_positions(),
            Plan::Stream(..) => false,
        }
    }

    fn has_positions(&self) -> bool {
        use qipu::table::Table;
        match self {
            Plan::Files(files) => files.iter().any(|(t, _)| *t == Table::Positions),
            Plan::Partitioned { tables, .. } => tables.contains(&Table::Positions),
            Plan::Stream(table, _) => *table == Table::Positions,
        }
    }
}

/// Whether `path` names a folder: one that exists, or a path ending in `/`.
#[cfg(feature = "parquet")]
fn is_folder(path: &Path) -> bool {
    path.is_dir()
        || path.as_os_str().to_string_lossy().ends_with(std::path::MAIN_SEPARATOR)
        || path.as_os_str().to_string_lossy().ends_with('/')
}

#[cfg(feature = "parquet")]
mod writing {
    //! The writers of each plan.

    use std::collections::HashMap;
    use std::io::{IsTerminal, Write};
    use std::path::{Path, PathBuf};
    use std::sync::mpsc::{SyncSender, sync_channel};
    use std::thread::JoinHandle;

    use qipu::batch::{Checked, Input, Meta};
    use qipu::output::{InputFiles, OutputFile};
    use qipu::table::hive::{self, Partition};
    use qipu::table::ipc::StreamWriter;
    use qipu::table::parquet::{self, ArrowWriter, WriterProperties};
    use qipu::table::{GamesTable, MainLine, PositionsTable, RecordBatch, SchemaRef, Table, Tables};

    use super::{OPEN_PARTS, PartitionBy, Plan};
    use crate::cli::Failure;
    use crate::cli::output::{Sink, told};

    /// A Parquet file being written.
    pub(super) struct ParquetFile {
        path: PathBuf,
        writer: ArrowWriter<OutputFile>,
    }

    impl ParquetFile {
        fn create(
            path: &Path,
            schema: SchemaRef,
            props: WriterProperties,
            force: bool,
            inputs: &InputFiles,
        ) -> Result<ParquetFile, Failure> {
            let refused = |e: std::io::Error| Failure::usage(format!("{}: {}", path.display(), told(&e)));
            inputs.refuse(path).map_err(refused)?;
            let file = OutputFile::create(path, force).map_err(refused)?;
            let writer = ArrowWriter::try_new(file, schema, Some(props))
                .map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
            Ok(ParquetFile { path: path.to_path_buf(), writer })
        }

        fn write(&mut self, batch: &RecordBatch) -> Result<(), Failure> {
            self.writer.write(batch).map_err(|e| self.failed(e))
        }

        fn failed(&self, e: impl std::fmt::Display) -> Failure {
            Failure::usage(format!("{}: cannot write: {e}", self.path.display()))
        }

        /// Ends the file and gives it its name.
        fn commit(self) -> Result<(), Failure> {
            let path = self.path;
            let file = self
                .writer
                .into_inner()
                .map_err(|e| Failure::usage(format!("{}: cannot write: {e}", path.display())))?;
            file.commit().map_err(|e| Failure::usage(format!("{}: {}", path.display(), told(&e))))
        }
    }

    /// What the thread of a [`Background`] file is sent.
    enum ToWriter {
        /// A record batch to write.
        Batch(RecordBatch),
        /// The end: the file is complete and takes its name.
        Commit,
    }

    /// A Parquet file written on a thread of its own: encoding and
    /// compressing the rows takes about as long as replaying the games,
    /// and goes on beside it. A file left without [`Background::commit`]
    /// (the export stopped) is never given its name.
    pub(super) struct Background {
        path: PathBuf,
        batches: Option<SyncSender<ToWriter>>,
        thread: Option<JoinHandle<Result<(), Failure>>>,
    }

    impl Background {
        fn start(mut file: ParquetFile) -> Result<Background, Failure> {
            let path = file.path.clone();
            // One batch waiting beside the one being written: memory stays bounded.
            let (send, batches) = sync_channel::<ToWriter>(1);
            let thread = std::thread::Builder::new()
                .name("qipu-parquet".into())
                .spawn(move || {
                    for message in batches {
                        match message {
                            ToWriter::Batch(batch) => file.write(&batch)?,
                            ToWriter::Commit => return file.commit(),
                        }
                    }
                    // Stopped before the end: the file is dropped, unnamed.
                    Ok(())
                })
                .map_err(|e| Failure::usage(format!("{}: cannot start writing: {e}", path.display())))?;
            Ok(Background { path, batches: Some(send), thread: Some(thread) })
        }

        fn write(&mut self, batch: RecordBatch) -> Result<(), Failure> {
            self.send(ToWriter::Batch(batch))
        }

        fn send(&mut self, message: ToWriter) -> Result<(), Failure> {
            let sent = self.batches.as_ref().is_some_and(|s| s.send(message).is_ok());
            if sent { Ok(()) } else { Err(self.end().err().unwrap_or_else(|| self.stopped())) }
        }

        fn stopped(&self) -> Failure {
            Failure::usage(format!("{}: writing stopped", self.path.display()))
        }

        /// Waits for the thread: what it ended in.
        fn end(&mut self) -> Result<(), Failure> {
            self.batches = None;
            match self.thread.take().map(JoinHandle::join) {
                Some(Ok(ended)) => ended,
                Some(Err(_)) => Err(self.stopped()),
                None => Ok(()),
            }
        }

        /// Ends the file and gives it its name.
        fn commit(mut self) -> Result<(), Failure> {
            self.send(ToWriter::Commit)?;
            self.end()
        }
    }

    impl Drop for Background {
        fn drop(&mut self) {
            // Without a commit the thread drops the file; wait for it.
            let _ = self.end();
        }
    }

    /// Where the rows go.
    pub(super) enum Out<'a> {
        /// Parquet files of whole tables.
        Files { tables: Tables, files: Vec<(Table, Background)> },
        /// A partitioned folder.
        Partitioned(Box<Partitioned>),
        /// An Arrow IPC stream.
        Stream { tables: Tables, table: Table, writer: Box<StreamWriter<Sink<'a>>> },
    }

    impl<'a> Out<'a> {
        /// Opens every output of `plan`, so that a refused one is told
        /// before any game is read.
        pub(super) fn open(
            plan: &Plan,
            force: bool,
            inputs: &[Input],
            stdout: &'a mut dyn Write,
        ) -> Result<Out<'a>, Failure> {
            let input_files = InputFiles::of(inputs);
            match plan {
                Plan::Files(files) => {
                    let mut opened = Vec::new();
                    for (table, path) in files {
                        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                            make_folder(dir)?;
                        }
                        let props = parquet::properties(*table, None);
                        let file = ParquetFile::create(path, table.schema(), props, force, &input_files)?;
                        opened.push((*table, Background::start(file)?));
                    }
                    Ok(Out::Files { tables: Tables::for_parquet(), files: opened })
                }
                Plan::Partitioned { dir, by, tables } => {
                    make_folder(dir)?;
                    let by = match by {
                        PartitionBy::Source => Partition::Source,
                        PartitionBy::Year => Partition::Year,
                        PartitionBy::Event => Partition::Event,
                    };
                    Ok(Out::Partitioned(Box::new(Partitioned::new(dir, by, tables, force, input_files))))
                }
                Plan::Stream(table, path) => {
                    if path.is_none() && std::io::stdout().is_terminal() {
                        return Err(Failure::usage(
                            "--to arrow writes binary data: redirect standard output (> games.arrows, | a program) or give -o FILE",
                        ));
                    }
                    let sink = Sink::open(path.as_deref(), force, inputs, stdout)?;
                    let writer = StreamWriter::try_new(sink, &table.schema())
                        .map_err(|e| Failure::usage(format!("cannot write the stream: {e}")))?;
                    Ok(Out::Stream { tables: Tables::new(), table: *table, writer: Box::new(writer) })
                }
            }
        }

        /// A game, selected.
        pub(super) fn game(
            &mut self,
            meta: &Meta,
            index: usize,
            game: &Checked<MainLine>,
        ) -> Result<(), Failure> {
            match self {
                Out::Files { tables, files } => {
                    for (table, file) in files.iter_mut() {
                        match table {
                            Table::Games => tables.games.push(meta, index, game),
                            Table::Positions => tables.positions.push(meta, index, game),
                        }
                        if tables.len(*table) >= table.batch_rows() {
                            file.write(tables.finish(*table))?;
                        }
                    }
                    Ok(())
                }
                Out::Partitioned(parts) => parts.game(meta, index, game),
                Out::Stream { tables, table, writer } => {
                    match table {
                        Table::Games => tables.games.push(meta, index, game),
                        Table::Positions => tables.positions.push(meta, index, game),
                    }
                    if tables.len(*table) >= table.batch_rows() {
                        write_stream(writer, &tables.finish(*table))?;
                    }
                    Ok(())
                }
            }
        }

        /// An input that cannot be read, selected: a row of games.
        pub(super) fn unreadable(&mut self, meta: &Meta, reason: &str) -> Result<(), Failure> {
            match self {
                Out::Files { tables, .. } => tables.games.push_unreadable(meta, reason),
                Out::Partitioned(parts) => parts.unreadable(meta, reason)?,
                Out::Stream { tables, table: Table::Games, .. } => tables.games.push_unreadable(meta, reason),
                Out::Stream { .. } => {}
            }
            Ok(())
        }

        /// Writes the rows left and ends every output.
        pub(super) fn finish(self) -> Result<(), Failure> {
            match self {
                Out::Files { mut tables, files } => {
                    for (table, mut file) in files {
                        if tables.len(table) > 0 {
                            file.write(tables.finish(table))?;
                        }
                        file.commit()?;
                    }
                    Ok(())
                }
                Out::Partitioned(parts) => parts.finish(),
                Out::Stream { mut tables, table, mut writer } => {
                    if tables.len(table) > 0 {
                        write_stream(&mut writer, &tables.finish(table))?;
                    }
                    writer.finish().map_err(stream_failed)?;
                    let sink = writer.into_inner().map_err(stream_failed)?;
                    sink.commit()
                }
            }
        }
    }

    fn stream_failed(e: qipu::table::ArrowError) -> Failure {
        match e {
            qipu::table::ArrowError::IoError(_, e) => Failure::from(e),
            e => Failure::usage(format!("cannot write the stream: {e}")),
        }
    }

    fn write_stream<W: Write>(writer: &mut StreamWriter<W>, batch: &RecordBatch) -> Result<(), Failure> {
        writer.write(batch).map_err(stream_failed)
    }

    /// Makes the folder `dir` (and those above it) when it is not there.
    fn make_folder(dir: &Path) -> Result<(), Failure> {
        std::fs::create_dir_all(dir).map_err(|e| Failure::usage(format!("{}: {}", dir.display(), told(&e))))
    }

    /// The rows of one table of one partition, waiting to be written.
    enum Rows {
        Games(Box<GamesTable>),
        Positions(Box<PositionsTable>),
    }

    impl Rows {
        fn len(&self) -> usize {
            match self {
                Rows::Games(t) => t.len(),
                Rows::Positions(t) => t.len(),
            }
        }

        fn finish(&mut self) -> RecordBatch {
            match self {
                Rows::Games(t) => t.finish(),
                Rows::Positions(t) => t.finish(),
            }
        }
    }

    /// An open part of a partition: its rows and its file.
    struct Part {
        rows: Rows,
        file: ParquetFile,
        /// When it was last written to (a count of games).
        used: u64,
    }

    /// A partitioned folder being written.
    pub(super) struct Partitioned {
        dir: PathBuf,
        by: Partition,
        tables: Vec<Table>,
        force: bool,
        inputs: InputFiles,
        /// The open parts, by table and folder.
        open: HashMap<(Table, String), Part>,
        /// The next part's number of each partition.
        next: HashMap<(Table, String), usize>,
        clock: u64,
    }

    /// The rows of a part written at a time (its row groups hold four
    /// times as many): row groups stay small, since many parts are open at
    /// once.
    fn part_rows(table: Table) -> usize {
        match table {
            Table::Games => 2048,
            Table::Positions => 8192,
        }
    }

    impl Partitioned {
        fn new(dir: &Path, by: Partition, tables: &[Table], force: bool, inputs: InputFiles) -> Partitioned {
            Partitioned {
                dir: dir.to_path_buf(),
                by,
                tables: tables.to_vec(),
                force,
                inputs,
                open: HashMap::new(),
                next: HashMap::new(),
                clock: 0,
            }
        }

        /// The columns of `table` that its files keep: all but the
        /// partition's.
        fn kept(&self, table: Table) -> Vec<usize> {
            let schema = table.schema();
            (0..schema.fields().len()).filter(|&k| schema.field(k).name() != self.by.key()).collect()
        }

        /// The open part of `table` for `folder`, opened (and another
        /// closed when too many are) when it is not.
        fn part(&mut self, table: Table, folder: &str) -> Result<&mut Part, Failure> {
            self.clock += 1;
            let key = (table, folder.to_string());
            if !self.open.contains_key(&key) {
                if self.open.keys().filter(|(t, _)| *t == table).count() >= OPEN_PARTS {
                    let oldest = self
                        .open
                        .iter()
                        .filter(|((t, _), _)| *t == table)
                        .min_by_key(|(_, part)| part.used)
                        .map(|(k, _)| k.clone())
                        .expect("a part is open");
                    let part = self.open.remove(&oldest).expect("the part is open");
                    self.close(part)?;
                }
                let n = self.next.entry(key.clone()).or_insert(0);
                let number = *n;
                *n += 1;
                let place = self.dir.join(table.name()).join(folder);
                make_folder(&place)?;
                let kept = self.kept(table);
                let schema =
                    std::sync::Arc::new(table.schema().project(&kept).expect("columns of the schema"));
                let props = parquet::properties(table, Some(part_rows(table) * 4));
                let file = ParquetFile::create(
                    &place.join(format!("part-{number}.parquet")),
                    schema,
                    props,
                    self.force,
                    &self.inputs,
                )?;
                let rows = match table {
                    Table::Games => Rows::Games(Box::new(GamesTable::for_parquet())),
                    Table::Positions => Rows::Positions(Box::new(PositionsTable::for_parquet())),
                };
                self.open.insert(key.clone(), Part { rows, file, used: 0 });
            }
            let clock = self.clock;
            let part = self.open.get_mut(&key).expect("the part is open");
            part.used = clock;
            Ok(part)
        }

        /// Writes the rows a part holds.
        fn flush(by: Partition, part: &mut Part) -> Result<(), Failure> {
            if part.rows.len() == 0 {
                return Ok(());
            }
            let batch = part.rows.finish();
            let schema = batch.schema();
            let kept: Vec<usize> =
                (0..schema.fields().len()).filter(|&k| schema.field(k).name() != by.key()).collect();
            let batch = batch.project(&kept).map_err(|e| part.file.failed(e))?;
            part.file.write(&batch)
        }

        fn close(&self, mut part: Part) -> Result<(), Failure> {
            Partitioned::flush(self.by, &mut part)?;
            part.file.commit()
        }

        fn game(&mut self, meta: &Meta, index: usize, game: &Checked<MainLine>) -> Result<(), Failure> {
            let folder = hive::folder(self.by, self.by.value(meta, game).as_deref());
            let by = self.by;
            for table in self.tables.clone() {
                let part = self.part(table, &folder)?;
                match &mut part.rows {
                    Rows::Games(t) => t.push(meta, index, game),
                    Rows::Positions(t) => t.push(meta, index, game),
                }
                if part.rows.len() >= part_rows(table) {
                    Partitioned::flush(by, part)?;
                }
            }
            Ok(())
        }

        fn unreadable(&mut self, meta: &Meta, reason: &str) -> Result<(), Failure> {
            let value = match self.by {
                Partition::Source => Some(meta.json_source.as_str()),
                _ => None,
            };
            let folder = hive::folder(self.by, value);
            let by = self.by;
            let part = self.part(Table::Games, &folder)?;
            if let Rows::Games(t) = &mut part.rows {
                t.push_unreadable(meta, reason);
            }
            if part.rows.len() >= part_rows(Table::Games) {
                Partitioned::flush(by, part)?;
            }
            Ok(())
        }

        fn finish(mut self) -> Result<(), Failure> {
            // In the order of their folders: the same run closes them alike.
            let mut open: Vec<((Table, String), Part)> = self.open.drain().collect();
            open.sort_by(|a, b| (a.0.0.name(), &a.0.1).cmp(&(b.0.0.name(), &b.0.1)));
            for (_, part) in open {
                self.close(part)?;
            }
            Ok(())
        }
    }
}

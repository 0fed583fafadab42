//! The games of a batch's inputs as an iterator: [`Games`], what a program
//! loops over where [`Batch::run`] would call it back.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, sync_channel};
use std::thread::JoinHandle;

use crate::formats::UnreadableReason;
use crate::record::{Record, RecordBuilder, Visitor};

use super::input::Input;
use super::run::{Batch, Event, Meta};

/// One thing [`Games`] gives, in input order: a game, or an input that
/// gives no (more) games and why, or the end of an input.
#[derive(Debug)]
pub enum Item<R> {
    /// Game `index` (from 0) of the input `meta` tells of: what the
    /// visitor made of it.
    Game {
        /// The input it was read from (shared by its games).
        meta: Arc<Meta>,
        /// The game's number in its input, from 0.
        index: usize,
        /// What the visitor made of the game.
        game: R,
    },
    /// No more game can be read from the input, and why: counted as one
    /// unreadable game.
    Unreadable {
        /// The input.
        meta: Arc<Meta>,
        /// Why.
        reason: UnreadableReason,
    },
    /// The input was found while walking a folder and holds no record
    /// at all (prose, an image): not a game, not a problem.
    NoRecord {
        /// The input.
        meta: Arc<Meta>,
        /// Why it holds none.
        reason: UnreadableReason,
    },
    /// The input is finished.
    Done(
        /// The input.
        Arc<Meta>,
    ),
}

impl<R> Item<R> {
    /// The input the item tells of.
    pub fn meta(&self) -> &Meta {
        match self {
            Item::Game { meta, .. } | Item::Unreadable { meta, .. } | Item::NoRecord { meta, .. } => meta,
            Item::Done(meta) => meta,
        }
    }
}

/// Inputs of at most this many bytes in all (files and bytes held) are
/// read on the calling thread when the iterator is made: a loop that
/// reads one small file at a time starts no thread a file.
const AT_ONCE: u64 = 1 << 20;

/// Runs of items read but not yet taken, at most: how far the reading
/// threads run ahead of the loop (a run is what a file gives, or a chunk
/// of a large one), which bounds memory.
const AHEAD: usize = 4;

/// The games of any inputs (files, folders searched recursively, zip
/// archives, gzip data, bytes held in memory, standard input) as an
/// iterator of [`Item`]s in input order, read on every core in bounded
/// memory: a few chunks ahead of the game taken, never the whole input.
/// Each game is what a [`Visitor`] makes of it (a [`Record`] with
/// [`Games::of`]); an input that cannot be read is one [`Item::Unreadable`].
///
/// Small inputs (up to 1 MB in all) are read when the iterator is made,
/// on the calling thread; larger ones by a thread that [`Batch::run`]s them and hands runs of games over a bounded
/// channel. Dropping the iterator stops the reading. A panic of the
/// visitor is raised again in the caller's thread.
///
/// ```
/// use qipu::batch::{Games, Item};
/// let (mut games, mut moves) = (0, 0);
/// for item in Games::of(&["fixtures/pgn".into(), "no/such.pgn".into()]) {
///     match item {
///         Item::Game { game, .. } => (games, moves) = (games + 1, moves + game.replayed().moves.len()),
///         Item::Unreadable { meta, reason } => println!("{}: {reason}", meta.source),
///         _ => {}
///     }
/// }
/// assert_eq!((games, moves), (1391, 120357));
/// ```
pub struct Games<R> {
    /// Items read already, the next first.
    ready: VecDeque<Item<R>>,
    /// Where the items come from until they are all read.
    source: Source<R>,
}

/// Where [`Games`] takes its items from.
enum Source<R> {
    /// A reading thread, with the runs it sends.
    Thread { runs: Receiver<Vec<Item<R>>>, thread: Option<JoinHandle<()>> },
    /// Everything is read.
    Ended,
}

impl Games<Record> {
    /// The records of the files and folders at `paths` (`-`: standard
    /// input), on every core, as [`expand`](super::expand) finds them.
    pub fn of(paths: &[PathBuf]) -> Games<Record> {
        Games::new(Batch::new(), super::expand(paths).inputs, RecordBuilder::default)
    }
}

impl<R: Send + 'static> Games<R> {
    /// What visitors from `make` (one for each job) make of the games of
    /// `inputs`, read by `batch`.
    pub fn new<V>(batch: Batch, inputs: Vec<Input>, make: impl Fn() -> V + Send + Sync + 'static) -> Games<R>
    where
        V: Visitor<Output = R>,
    {
        // Bytes that hold a zip archive are its members.
        let inputs: Vec<Input> = inputs
            .into_iter()
            .flat_map(|input| match input {
                Input::Bytes { name, bytes } => Input::of_bytes(name, bytes),
                other => vec![other],
            })
            .collect();
        if small(&inputs) {
            return read_at_once(&batch, &inputs, make);
        }
        let (send, runs) = sync_channel::<Vec<Item<R>>>(AHEAD);
        let thread = std::thread::spawn(move || {
            // The loop is gone when the channel is closed: reading stops.
            read(&batch, &inputs, make, &mut |run| send.send(run).map_err(|_| ()));
        });
        Games { ready: VecDeque::new(), source: Source::Thread { runs, thread: Some(thread) } }
    }
}

impl<R: Send> Games<R> {
    /// Runs `body` on the games of `inputs` (as given: see
    /// [`Input::of_bytes`] for bytes of a zip archive) read by `batch` with
    /// visitors from `make`, which, unlike those of [`Games::new`], may
    /// borrow what the caller holds: the reading thread ends before this
    /// returns. Dropping the iterator stops the reading; a panic of a
    /// visitor is raised again here once `body` has returned.
    ///
    /// ```
    /// use qipu::batch::{self, Batch, Games, Item};
    /// use qipu::record::RecordBuilder;
    /// let inputs = batch::expand(&["fixtures/pgn".into()]).inputs;
    /// let plies = 60; // borrowed by the visitors
    /// let long = Games::scoped(&Batch::new(), &inputs, RecordBuilder::default, |games| {
    ///     games.filter(|item| matches!(item, Item::Game { game, .. } if game.replayed().plies >= plies)).count()
    /// });
    /// assert_eq!(long, 1081); // of the 1,391 games, as `qipu validate --format json` counts them
    /// ```
    pub fn scoped<V, T>(
        batch: &Batch,
        inputs: &[Input],
        make: impl Fn() -> V + Sync,
        body: impl FnOnce(Games<R>) -> T,
    ) -> T
    where
        V: Visitor<Output = R>,
    {
        if small(inputs) {
            return body(read_at_once(batch, inputs, make));
        }
        std::thread::scope(|scope| {
            let (send, runs) = sync_channel::<Vec<Item<R>>>(AHEAD);
            let make = &make;
            let thread = scope.spawn(move || {
                read(batch, inputs, make, &mut |run| send.send(run).map_err(|_| ()));
            });
            let out = body(Games { ready: VecDeque::new(), source: Source::Thread { runs, thread: None } });
            match thread.join() {
                Ok(()) => out,
                Err(panic) => std::panic::resume_unwind(panic),
            }
        })
    }
}

impl<R> Games<R> {
    /// The next item if it is read already, without waiting for the
    /// reading threads (`None` then does not mean the end: see
    /// [`next`](Iterator::next)). A binding that releases a lock while
    /// it waits (Python's) takes the items at hand without releasing it.
    pub fn next_read(&mut self) -> Option<Item<R>> {
        if self.ready.is_empty()
            && let Source::Thread { runs, .. } = &self.source
            && let Ok(run) = runs.try_recv()
        {
            self.ready.extend(run);
        }
        self.ready.pop_front()
    }
}

impl<R> Iterator for Games<R> {
    type Item = Item<R>;

    fn next(&mut self) -> Option<Item<R>> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Some(item);
            }
            match &mut self.source {
                Source::Ended => return None,
                Source::Thread { runs, thread } => match runs.recv() {
                    Ok(run) => self.ready.extend(run),
                    Err(_) => {
                        let thread = thread.take();
                        self.source = Source::Ended;
                        // The thread has ended: raise its panic here.
                        if let Some(Err(panic)) = thread.map(JoinHandle::join) {
                            std::panic::resume_unwind(panic);
                        }
                    }
                },
            }
        }
    }
}

impl<R> std::fmt::Debug for Games<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let source = match self.source {
            Source::Thread { .. } => "reading",
            Source::Ended => "read",
        };
        f.debug_struct("Games").field("ready", &self.ready.len()).field("source", &source).finish()
    }
}

/// Whether `inputs` are files or bytes (not standard input, not archive
/// members) of at most [`AT_ONCE`] bytes in all.
fn small(inputs: &[Input]) -> bool {
    let mut total = 0u64;
    for input in inputs {
        match input {
            Input::File { len: Some(len), .. } => total = total.saturating_add(*len),
            Input::Bytes { bytes, .. } => total = total.saturating_add(bytes.len() as u64),
            Input::Problem { .. } | Input::Skipped { .. } => {}
            _ => return false,
        }
    }
    total <= AT_ONCE
}

/// The games of `inputs` read whole, on the calling thread (inputs that
/// are [`small`]).
fn read_at_once<V: Visitor>(batch: &Batch, inputs: &[Input], make: impl Fn() -> V + Sync) -> Games<V::Output>
where
    V::Output: Send,
{
    let mut ready = VecDeque::new();
    read(&batch.clone().threads(1), inputs, make, &mut |run| {
        ready.extend(run);
        Ok(())
    });
    Games { ready, source: Source::Ended }
}

/// Reads `inputs` with `batch`, handing each run of items to `send`;
/// stops at its first error.
fn read<V: Visitor>(
    batch: &Batch,
    inputs: &[Input],
    make: impl Fn() -> V + Sync,
    send: &mut impl FnMut(Vec<Item<V::Output>>) -> Result<(), ()>,
) where
    V::Output: Send,
{
    // One `Meta` shared by the items of an input.
    let mut shared: Option<Arc<Meta>> = None;
    // The items of the piece of work under way, handed on together at its
    // end: one hand-over for a group of small files, not two a file.
    let run = std::cell::RefCell::new(Vec::new());
    let _ = batch.run_in_pieces(
        inputs,
        make,
        |meta, event| {
            let meta = match &shared {
                Some(known) if **known == *meta => known.clone(),
                _ => shared.insert(Arc::new(meta.clone())).clone(),
            };
            let mut run = run.borrow_mut();
            match event {
                Event::Games { first, games } => {
                    run.extend(games.into_iter().zip(first..).map(|(game, index)| Item::Game {
                        meta: meta.clone(),
                        index,
                        game,
                    }))
                }
                Event::Unreadable(reason) => run.push(Item::Unreadable { meta, reason }),
                Event::NoRecord(reason) => run.push(Item::NoRecord { meta, reason }),
                Event::Done => run.push(Item::Done(meta)),
            }
            Ok(())
        },
        || {
            let items = std::mem::take(&mut *run.borrow_mut());
            if items.is_empty() { Ok(()) } else { send(items) }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text of `n` games, each of two moves.
    fn games(n: usize) -> Vec<u8> {
        (0..n).map(|k| format!("[Event \"{k}\"]\n1. h2e2 h9g7 *\n\n")).collect::<String>().into_bytes()
    }

    fn bytes(name: &str, bytes: Vec<u8>) -> Input {
        Input::Bytes { name: name.into(), bytes: bytes.into() }
    }

    /// What the items tell, in order.
    fn told(items: impl Iterator<Item = Item<Record>>) -> Vec<String> {
        items
            .map(|item| match item {
                Item::Game { meta, index, game } => {
                    format!("{} {index} {}", meta.source, game.tag("Event").unwrap())
                }
                Item::Unreadable { meta, reason } => format!("{} unreadable: {reason}", meta.source),
                Item::NoRecord { meta, .. } => format!("{} no record", meta.source),
                Item::Done(meta) => format!("{} done", meta.source),
            })
            .collect()
    }

    #[test]
    fn small_inputs_are_read_when_the_iterator_is_made() {
        let inputs =
            vec![bytes("a", games(2)), bytes("b", b"\x00\x01 not a record".to_vec()), bytes("c", games(1))];
        let games = Games::new(Batch::new(), inputs, RecordBuilder::default);
        assert!(matches!(games.source, Source::Ended));
        assert_eq!(games.ready.len(), 7);
        let all = told(games);
        assert_eq!(all[..3], ["a 0 0", "a 1 1", "a done"]);
        assert!(all[3].starts_with("b unreadable: "), "{all:?}");
        assert_eq!(all[4..], ["b done", "c 0 0", "c done"]);
    }

    #[test]
    fn large_inputs_are_read_in_order_on_other_threads() {
        // Over the size read at the call, and in chunks: games come in runs.
        let big = games(60_000);
        assert!(big.len() as u64 > AT_ONCE);
        let inputs = vec![bytes("big", big), bytes("small", games(3))];
        let games = Games::new(Batch::new().threads(2), inputs, RecordBuilder::default);
        assert!(matches!(games.source, Source::Thread { .. }));
        let all = told(games);
        assert_eq!(all.len(), 60_000 + 1 + 3 + 1);
        for (k, line) in all[..60_000].iter().enumerate() {
            assert_eq!(*line, format!("big {k} {k}"));
        }
        assert_eq!(all[60_000..], ["big done", "small 0 0", "small 1 1", "small 2 2", "small done"]);
    }

    #[test]
    fn a_group_of_small_files_is_handed_over_at_once() {
        // Items cross threads a piece of work at a time (a group of small
        // files), not an input's games and its end apart.
        let dir = std::env::temp_dir().join(format!("qipu-games-group-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for k in 0..300 {
            std::fs::write(dir.join(format!("{k:03}.pgn")), games(1)).unwrap();
        }
        let inputs = crate::batch::expand(std::slice::from_ref(&dir)).inputs;
        let (mut runs, mut items) = (0, Vec::new());
        read(&Batch::new().threads(2), &inputs, RecordBuilder::default, &mut |run| {
            runs += 1;
            items.extend(run);
            Ok(())
        });
        std::fs::remove_dir_all(&dir).unwrap();
        let all = told(items.into_iter());
        assert_eq!(all.len(), 600);
        assert!(all[598].ends_with("299.pgn 0 0") && all[599].ends_with("299.pgn done"), "{:?}", &all[598..]);
        assert!(runs <= 10, "{runs} hand-overs for 300 small files");
    }

    #[test]
    fn bytes_of_a_zip_archive_are_its_members() {
        use std::io::Write;
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let stored =
            zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
        for (name, n) in [("b.pgn", 2), ("a/c.pgn", 1)] {
            zip.start_file(name, stored).unwrap();
            zip.write_all(&games(n)).unwrap();
        }
        let archive = zip.finish().unwrap().into_inner();
        let mut damaged = archive.clone();
        damaged.truncate(archive.len() - 30);
        let inputs = vec![bytes("games.zip", archive), bytes("cut.zip", damaged)];
        let all = told(Games::new(Batch::new(), inputs, RecordBuilder::default));
        let members = ["games.zip:a/c.pgn 0 0", "games.zip:a/c.pgn done", "games.zip:b.pgn 0 0"];
        assert_eq!(all[..3], members);
        assert_eq!(all[3..5], ["games.zip:b.pgn 1 1", "games.zip:b.pgn done"]);
        assert_eq!(all.len(), 7, "{all:?}");
        assert!(all[5].starts_with("cut.zip unreadable: a damaged zip archive"), "{all:?}");
    }

    #[test]
    fn a_loop_that_stops_early_stops_the_reading() {
        let inputs = vec![bytes("big", games(200_000))];
        let mut games = Games::new(Batch::new().threads(2), inputs, RecordBuilder::default);
        assert_eq!(told(games.by_ref().take(3)), ["big 0 0", "big 1 1", "big 2 2"]);
        // The rest of the run is at hand.
        assert_eq!(told(games.next_read().into_iter()), ["big 3 3"]);
        let Source::Thread { thread, .. } = &mut games.source else { panic!("read on a thread") };
        let thread = thread.take().unwrap();
        drop(games);
        // The reader sees the loop gone at its next run and ends.
        thread.join().unwrap();
    }

    #[test]
    fn a_scoped_loop_borrows_and_stops_early() {
        let dir = std::env::temp_dir().join(format!("qipu-games-scoped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("many.pgn");
        std::fs::write(&path, games(60_000)).unwrap();
        let inputs = crate::batch::expand(&[path]).inputs;
        let made = std::sync::atomic::AtomicUsize::new(0);
        let make = || {
            made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            RecordBuilder::default()
        };
        let first = Games::scoped(&Batch::new().threads(2), &inputs, make, |games| {
            games
                .filter_map(|item| if let Item::Game { index, .. } = item { Some(index) } else { None })
                .take(3)
                .collect::<Vec<_>>()
        });
        assert_eq!(first, [0, 1, 2]);
        assert!(made.load(std::sync::atomic::Ordering::Relaxed) > 0);
        let all = Games::scoped(&Batch::new().threads(2), &inputs, make, |games| games.count());
        assert_eq!(all, 60_001); // and the end of the input
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_scoped_visitors_panic_is_raised_with_its_message() {
        for n in [20, 60_000] {
            let panics_at_13 = || {
                crate::record::visit::Map::new(RecordBuilder::default(), |record: Record| {
                    assert!(record.tag("Event") != Some("13"), "the visitor's own panic");
                    record
                })
            };
            let inputs = [bytes("a", games(n))];
            let caught = std::panic::catch_unwind(|| {
                Games::scoped(&Batch::new().threads(2), &inputs, panics_at_13, |games| games.count())
            });
            let panic = caught.expect_err("the panic reaches the caller");
            let message = match panic.downcast_ref::<&str>() {
                Some(text) => text.to_string(),
                None => panic.downcast_ref::<String>().cloned().unwrap_or_default(),
            };
            assert!(message.contains("the visitor's own panic"), "{n}: {message:?}");
        }
    }

    #[test]
    fn a_visitors_panic_is_raised_in_the_loop() {
        for n in [20, 60_000] {
            let panics_at_13 = || {
                crate::record::visit::Map::new(RecordBuilder::default(), |record: Record| {
                    assert!(record.tag("Event") != Some("13"), "the visitor's own panic");
                    record
                })
            };
            let input = vec![bytes("a", games(n))];
            let caught =
                std::panic::catch_unwind(|| Games::new(Batch::new().threads(2), input, panics_at_13).count());
            let panic = caught.expect_err("the panic reaches the loop");
            let message = match panic.downcast_ref::<&str>() {
                Some(text) => text.to_string(),
                None => panic.downcast_ref::<String>().cloned().unwrap_or_default(),
            };
            assert!(message.contains("the visitor's own panic"), "{n}: {message:?}");
        }
    }
}

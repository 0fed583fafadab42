//! The command-line interface: argument definitions and one module per
//! subcommand. No rules or format logic lives here.

use std::io::{self, Write};

use clap::{Parser, Subcommand};

use qipu::batch::ProblemLine;
use qipu::formats::encoding::Encoding;
use qipu::{FromFenError, Position};

mod analyse;
mod args;
mod book;
mod classify;
pub(crate) mod color;
mod completions;
mod convert;
mod duplicates;
mod duplicates_tags;
mod explore;
mod explore_html;
mod export;
mod fen;
mod index;
mod man;
mod moves;
mod openings;
pub mod output;
mod perft;
mod progress;
pub(crate) mod quiet;
pub(crate) mod repeats;
mod search;
mod select;
mod shape;
mod show;
mod spool;
mod stats;
mod suite;
mod unread;
mod validate;

/// qipu (棋谱): read, check and convert Xiangqi (Chinese chess) game records.
#[derive(Debug, Parser)]
#[command(
    name = "qipu",
    version,
    about,
    long_about = None,
    propagate_version = true,
    after_help = "Examples:\n  qipu validate fixtures/pgn                 # replay every game; report the wrong ones\n  qipu convert fixtures/pgn --to pgn --notation chinese -o games.pgn\n  qipu fen fixtures/pgn/Hu_Ronghua_1391_UCI_games.pgn --format csv\n  qipu stats fixtures/pgn\n  qipu duplicates fixtures/pgn -q\n  qipu moves startpos --notation chinese\n\n`qipu help COMMAND` tells more of each command."
)]
pub struct Cli {
    /// When to colour output: auto (a terminal, unless NO_COLOR is set), always or never.
    #[arg(long, global = true, value_enum, default_value_t = color::ColorChoice::Auto)]
    pub color: color::ColorChoice,
    /// Print only problems and the summary: no progress line, no other information.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Print every warning in text reports: by default a warning whose message was printed 5
    /// times already is counted, and one line at the end tells how many were not shown (JSON
    /// reports, `--format json`, keep every warning).
    #[arg(long, global = true)]
    pub all_warnings: bool,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay every game of the inputs and report each illegal or unreadable one.
    ///
    /// Reads PGN (Chinese, WXF or ICCS moves, in UTF-8, GBK or Big5, detected), plain-text
    /// records, XQF (every version), DhtmlXQ (alone or in web pages), 象棋桥 CBR, CBL and CBF,
    /// WXF game files (PlayOK, XieXie), EPD and UCI/UCCI position lines (`position startpos
    /// moves h2e2 ...`, `FEN moves ...`; one game a line) and qipu's JSON records, told apart by content; files,
    /// whole directories (recursively) or standard input (`-`). Every move of the main line and
    /// of every variation is checked; the first wrong move of a line is reported with the game,
    /// the ply, the line and column, and why. Valid games print nothing in text mode; a summary
    /// line ends the output. Exit code 0 when every game is valid, 1 when some game is illegal
    /// or unreadable, 2 on a usage or I/O error.
    #[command(
        after_help = "Examples:\n  qipu validate games.pgn\n  qipu validate collection/ --format json > report.jsonl\n  cat game.pgn | qipu validate -"
    )]
    Validate(validate::Args),
    /// Convert records to PGN (moves in Chinese, WXF or ICCS), JSON, DhtmlXQ or XQF, keeping
    /// tags, comments and variations, or to UCI position lines (main line only), or show them
    /// in one self-contained HTML viewer page.
    ///
    /// Every game is replayed first, so moves are written canonically in the notation asked
    /// for; a game with an illegal move is still converted, its moves from that one on kept as
    /// they were written (--to html: shown up to that move, marked), and reported on standard
    /// error (exit code 1); --to uci, which
    /// writes only moves that replay, does not write such a game and names it. Output goes to
    /// standard output or to -o FILE, never over an input file.
    #[command(
        after_help = "Examples:\n  qipu convert games.pgn --to pgn --notation wxf\n  qipu convert collection/ --to json -o games.jsonl\n  qipu convert big5.pgn --to pgn --chinese traditional --output-encoding big5\n  qipu convert games.pgn --to xqf -o xqf/ --xqf-version 18\n  qipu convert games.pgn --to cbr -o cbr/\n  qipu convert games.pgn --to cbl -o games.cbl\n  qipu convert page.html --to dhtmlxq\n  qipu convert games.pgn --to html -o games.html   # a game viewer page\n  qipu convert games.pgn --to uci -o games.txt   # position startpos moves h2e2 h9g7 ...\n  qipu convert collection/ --to pgn -o games.pgn --split-by red"
    )]
    Convert(convert::Args),
    /// Print the FEN trail of each game: the position after every ply of the main line (of every
    /// line with --all-lines).
    ///
    /// Ply 0 is the start position (move `-`), as the record gives it even when it is not a legal
    /// one. Each line names the source, the game (numbered from 1 in text and EPD; the 0-based
    /// `index` in JSON and CSV), the ply, the move in --notation (ICCS by default) and the FEN;
    /// JSON and CSV add the side to move (`side`: red or black) and the game's result
    /// (`result`: 1-0, 0-1, 1/2-1/2, or * when the game states none).
    ///
    /// EPD lines give the position (placement, side, `- -`) and the opcodes `hmvc` and `fmvn`
    /// (the clocks), `ply`, `move` (the move that led there; none at ply 0), `source` (the file,
    /// quoted), `game` (from 1), `result`, and `ecco` (the ECCO code of the game's opening; left
    /// out for games that do not start from the standard position); with --all-lines, `line`.
    ///
    /// With --all-lines, each variation's positions follow the move it is an alternative to,
    /// and each position names its line: `0` for the main line; the variations that branch off
    /// a line are numbered 1, 2, 3 ... in the order the record gives them, a variation's id
    /// being the id of the line it branches off followed by its number (`2`, then `2.1` for
    /// the first variation within it). The ply counts from the start of the game. Variations
    /// nested more than 64 deep are left out, and said so on standard error.
    ///
    /// With --format sf-plain, engine training data as Stockfish's and Pikafish's tools write
    /// their "plain" text: for each main-line position a move was played from, the lines
    /// `fen`, `move` (that move, UCI coordinates: h2e2), `score`, `ply`, `result` and `e`. The
    /// score is the evaluation the comment of the move that led there holds (comments give
    /// Red's view), in centipawns from the side to move's view; a mate in n for the side to
    /// move is 32000 - (2n - 1), mated in n -(32000 - 2n); 32002 (Stockfish's VALUE_NONE) when
    /// the record gives none. The result is the game's from the side to move's view (1 win,
    /// 0 draw, -1 loss): games without one are skipped, and counted on standard error.
    /// --skip-check, --skip-capture (the move played from the position takes a piece),
    /// --min-ply and --require-eval leave positions out; they go with sf-plain only, and
    /// --all-lines does not.
    ///
    /// A game whose main line stops at a wrong move gives its trail up to that move and a
    /// message on standard error; the exit code is then 1 (as it is for a wrong move in a
    /// variation, whose line stops there).
    #[command(
        after_help = "Examples:\n  qipu fen game.pgn\n  qipu fen collection/ --format json --notation chinese\n  qipu fen games.pgn --format csv > positions.csv\n  qipu fen games.pgn --format epd -o positions.epd\n  qipu fen annotated.pgn --all-lines --format json\n  qipu fen analysed.pgn --format sf-plain --skip-check --skip-capture --min-ply 8 -o train.plain"
    )]
    Fen(fen::Args),
    /// Write the games of a collection as tables for data tools: Parquet files (DuckDB, Polars,
    /// pandas) or an Arrow IPC stream.
    ///
    /// The table of games has a row for each game, as `qipu validate` counts them (valid,
    /// illegal, and unreadable inputs, each with its status and error as validate's JSON gives
    /// them): source, index, format, status, result, plies, the computed ECCO code, a key that
    /// copies share (line_key), the start FEN (null for the standard start), the main line's
    /// moves (a list, ICCS like h2e2), the tags with columns of their own (event, site, date,
    /// year, round, red, black, red_team, black_team, red_elo, black_elo, opening, variation)
    /// and every other tag in a map (tags). With --positions, the table of positions has a row
    /// for each position of each game's main line: source, index (they join the games), ply,
    /// fen, the move played from there (null at the last), the side to move, the game's result,
    /// and the evaluation a move's comment gives (eval in centipawns, or mate, from Red's side).
    /// docs/guide.md lists every column.
    ///
    /// Parquet files are compressed with zstd and written as games come, in bounded memory;
    /// --partition-by writes a Hive-partitioned folder. --to arrow writes one table as an Arrow
    /// IPC stream, never onto a terminal. Problems and the summary go to standard error as
    /// validate tells them; the exit code is validate's (1 when some game is illegal or
    /// unreadable). Output is never written over an input, nor over an existing file without
    /// --force.
    #[command(
        after_help = "Examples:\n  qipu export collection/ -o out/                  # out/games.parquet\n  qipu export collection/ -o out/ --positions      # and out/positions.parquet\n  qipu export games.pgn -o games.parquet --red 胡荣华\n  qipu export collection/ -o out/ --partition-by year   # out/games/year=1990/part-0.parquet\n  qipu export games.pgn --to arrow --positions > positions.arrows\n  duckdb -c \"SELECT red, count(*) FROM 'out/games.parquet' GROUP BY red\""
    )]
    Export(export::Args),
    /// Statistics of a collection: formats, validity, results against the computed end, game
    /// lengths, first moves with scores, captures, material at the end, players and events.
    ///
    /// Every game is replayed. Material uses the rules text's values: rook 9, cannon 4.5,
    /// horse 4, elephant and advisor 2, pawn 1 before the river, 2 across it, 1 on the last
    /// rank. First moves are counted for games from the standard start position.
    ///
    /// With --format html, one self-contained page (inline CSS and SVG, no script): the
    /// summary as tables, and charts of game lengths, results by year (the Date tag), Red's
    /// first moves and ECCO families and codes.
    #[command(
        after_help = "Examples:\n  qipu stats collection/\n  qipu stats games.pgn --format json --top 20\n  qipu stats collection/ --format html -o stats.html"
    )]
    Stats(stats::Args),
    /// Name each game's opening by ECCO 2004 (code, opening, variation),
    /// beside the `[ECCO]` tag it carries.
    ///
    /// Every game is replayed; a game from the standard start position is classified by its
    /// first moves (a game with an illegal move, by the moves before it), and its traditional
    /// names (中炮, 屏风马 …) are given too. Text output is one tab-separated line per game:
    /// source, game number, ECCO code (`-` when the game does not start from the standard
    /// position), opening, variation, the record's `[ECCO]` tag and the traditional names; JSON
    /// gives one object per game, with its status and error as `validate` tells them. Standard
    /// error ends with the summary line and how many games were classified and how many of
    /// their tags agree. Exit code 1 when some game is illegal or unreadable.
    #[command(
        after_help = "Examples:\n  qipu classify games.pgn\n  qipu classify collection/ --format json > openings.jsonl"
    )]
    Classify(classify::Args),
    /// The opening tree of a collection: the first plies of every game from
    /// the standard start, transpositions merged, each position with its
    /// games, results, Red's score and the ECCO code most of them have; or,
    /// with --suite, an opening suite for engine matches (EPD or PGN).
    ///
    /// Every game from the standard start position adds its first --depth main-line plies (a
    /// game with an illegal move, the plies before it); positions reached by different move
    /// orders are one node. Text output is an indented tree, each move with its games, wins,
    /// draws and losses, Red's score and ECCO code; moves played in fewer than --min-games
    /// games are left out. --format json gives one object per position; --to pgn writes the
    /// tree as one PGN game whose variations are the other moves, counts in comments, which
    /// other programs load as a book. With --suite, the positions --at-ply plies in, chosen by
    /// the selection flags, are written as an opening suite (EPD lines, or PGN games with
    /// --to pgn) for engine matches. Standard error ends with the summary line. Exit code 1
    /// when some game is illegal or unreadable.
    #[command(
        after_help = "Examples:\n  qipu openings collection/ --depth 8 --min-games 20\n  qipu openings games.pgn --format json > tree.jsonl\n  qipu openings collection/ --to pgn > book.pgn\n  qipu openings masters/ --suite --at-ply 8 --dedupe --plies 40.. --result 1-0,0-1,draw --score 0.35..0.65 --mirror -o suite.epd\n  qipu openings masters/ --suite --at-ply 10 --min-games 5 --shuffle --seed 42 --positions 500 --to pgn --notation iccs -o suite.pgn"
    )]
    Openings(openings::Args),
    /// Find copies of the same game: groups of games with the same main line from the same
    /// start (whatever their tags, format or encoding), and with --by final, truncated and
    /// --mirror, other kinds of sameness.
    ///
    /// Each group lists its members (source, game number, Red – Black, date, plies) with the
    /// one kept and how each matches another member. Valid games and illegal ones (keyed on
    /// the main-line moves that replayed before the wrong one) are compared; unreadable games
    /// and games whose start is no legal position never are. Games shorter than --min-plies
    /// are never copies. A summary line on standard error counts the games, groups and copies.
    /// Exit code 0 whether or not there are copies, 1 when some game is illegal or unreadable.
    #[command(
        after_help = "Examples:\n  qipu duplicates collection/\n  qipu duplicates a.pgn b/ --by line,truncated --mirror --keep longest\n  qipu duplicates collection/ --format json > groups.jsonl\n  qipu duplicates collection/ --duplicates-out copies.pgn"
    )]
    Duplicates(duplicates::Args),
    /// Opening books engines read: build ElephantEye's BOOK.DAT or an OOBS book (.obs.db3)
    /// from the selected games, or list a book's moves for a position.
    ///
    /// `qipu book build` replays the selected games and writes their first plies as a book
    /// (the format told by the name of -o, or --format); `qipu book probe` lists the moves a
    /// book holds for a position, heaviest first. See `qipu help book build` and `qipu help
    /// book probe`.
    #[command(
        after_help = "Examples:\n  qipu book build collection/ -o BOOK.DAT --depth 24 --min-games 3\n  qipu book build games.pgn -o book.obs.db3\n  qipu book probe BOOK.DAT startpos"
    )]
    Book(book::Args),
    /// A position index of a collection, for `qipu search` and `qipu explore`.
    ///
    /// `qipu index build PATH... -o NAME.qidx` makes one, or brings it up to date: inputs it
    /// holds unchanged are not read again, new ones are added, changed ones replace what it
    /// held of them. `qipu index info NAME.qidx` tells its games, positions, inputs and size.
    /// Every main-line position of every game is kept under its Zobrist key (8 bytes), each
    /// game's moves at 2 bytes a move, its tags in a dictionary; the index is a folder of
    /// segments, one a build, and a manifest.
    #[command(
        subcommand,
        after_help = "Examples:\n  qipu index build collection/ -o games.qidx\n  qipu index info games.qidx --inputs"
    )]
    Index(index::IndexCommand),
    /// The games of an index (`qipu index build`) that reach a position (--fen, --moves: looked
    /// up by key), a sub-position (--pieces), a material balance (--material), an imbalance
    /// (--imbalance) or a run of moves (--sequence): every game replayed from the index, on every
    /// core. Of them, those the selection flags select (answered by the index where it can, else
    /// by reading the games found again from their inputs).
    ///
    /// Each answer is a position of a game: its source, the game's number, the ply, the move
    /// played from there and the result (--format json adds the year, Elo, termination and
    /// tags); or, with --to, the games themselves as `qipu convert` writes them. --fen and
    /// --moves give every time a game reaches the position; the other questions the first
    /// position of each game where all of them hold. A summary goes to standard error.
    #[command(
        after_help = "Examples:\n  qipu search games.qidx --fen 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b'\n  qipu search games.qidx --moves '炮二平五 马8进7' --count\n  qipu search games.qidx --pieces 'R@?7 k@e9 !a@??' --side red --format json\n  qipu search games.qidx --material 'RP* vs R' --result 1-0\n  qipu search games.qidx --imbalance 'R vs NC' --red 胡荣华 --to pgn -o found.pgn\n  qipu search games.qidx --sequence 'h2e2 h9g7 h0g2' --mirror"
    )]
    Search(search::Args),
    /// The moves played from a position in the games of an index (`qipu index build`): for each,
    /// its games, Red's wins, draws and losses, Red's score, the mean year and the best-known
    /// game (the players' highest mean Elo, then the latest).
    ///
    /// The position is a FEN (its words, or quoted), `startpos` (the default) or --moves. A game
    /// counts each time it reaches the position. Moves are written in Chinese unless --notation
    /// says otherwise; --format json gives every figure and the best game's players, event and
    /// date.
    ///
    /// --format html writes one self-contained page (inline CSS, SVG and script; nothing
    /// fetched), into -o FILE or a redirected standard output, never onto a terminal: the
    /// position on a board, its moves in a table, and the positions after them, to click
    /// through (a move in the table, or ↑ ↓ and → or Enter; ← or the back button goes back; the
    /// moves played from the position asked are a breadcrumb). The page holds the explorer's
    /// answer for the position and, as a tree, for the positions after its moves, down to
    /// --depth plies (default 6), the most played moves expanded first: a move played in fewer
    /// than --min-games games (default 2) is not expanded, and the page holds at most
    /// --max-nodes positions (default 500; a position takes about 0.2 to 0.4 KB a move listed:
    /// a page of a few MB at most, however many games the index holds). A move not expanded shows its figures and the command line
    /// that explores from it. Each node holds the FEN, the games, results, Red's score, mean year
    /// and games that end there; each move its figures and best-known game (source, game number,
    /// players, event, date, result).
    #[command(
        after_help = "Examples:\n  qipu explore games.qidx\n  qipu explore games.qidx --moves '炮二平五 马8进7'\n  qipu explore games.qidx 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b' --format json\n  qipu explore games.qidx --mirror --notation wxf\n  qipu explore games.qidx --format html -o explore.html\n  qipu explore games.qidx --moves '炮二平五' --format html --depth 10 --min-games 5 -o central-cannon.html"
    )]
    Explore(explore::Args),
    /// Annotate games with an engine: every main-line position searched by UCI or UCCI
    /// engines (Pikafish, Fairy-Stockfish, ElephantEye), each move's evaluation written into its
    /// comment, inaccuracies, mistakes and blunders marked, the engine's line added after a
    /// mistake, and each player's average centipawn loss and accuracy as tags.
    ///
    /// Evaluations are written after a move's own comment, never in its place: `{+0.38/19}`
    /// (pawns from Red's side / depth; mates `#5`, `#-3`), or `[%eval 0.38,19]` with
    /// --eval-style lichess. A move is judged by the winning chances it loses against the
    /// engine's best move (as lichess does: 0.1 an inaccuracy `?!`, 0.2 a mistake `?`, 0.3 a
    /// blunder `??`; see --inaccuracy, --mistake, --blunder); a move that already has a remark
    /// keeps it. Tags added: Annotator (after the record's own annotator, which is kept),
    /// RedACPL, RedAccuracy, RedInaccuracies, RedMistakes, RedBlunders, and the same for Black.
    ///
    /// --engines K engines search in parallel; games are written in input order as they are
    /// done. An engine that will not start, dies, hangs past --timeout, writes what cannot be
    /// read or refuses a position is started again and the position tried once more; then the
    /// move is left without annotation and a warning names the game and the ply (exit code 1).
    /// Every game is written whatever happened to its analysis. Ctrl-C ends the searches under
    /// way and leaves a valid output holding the games done; --resume continues it. --cache
    /// keeps every search in an SQLite file, so that positions met again (openings, a second
    /// run) are not searched again. The summary line counts the positions searched, taken
    /// from the cache and failed.
    #[command(
        after_help = "Examples:\n  qipu analyse games.pgn --engine pikafish --depth 14 -o annotated.pgn\n  qipu analyse collection/ --engine ./eleeye --protocol ucci --movetime 200 --engines 2 -o out.pgn\n  qipu analyse games.pgn --engine fairy-stockfish --depth 12 --cache evals.db3 -o out.pgn --resume\n  qipu analyse games.pgn --engine pikafish --nodes 200000 --format json -o out.pgn > reports.jsonl"
    )]
    Analyse(analyse::Args),
    /// Print the legal moves of a position, one lower-case ICCS move (h2e2) a line, sorted.
    ///
    /// --notation writes them in ICCS (H2-E2), Chinese (炮二平五) or WXF (C2.5) instead. The position is a FEN (quoted or not) or `startpos`. Letters K A B N R C P (upper case
    /// = Red), E/H accepted for elephant/horse, side w/r (Red) or b (Black); missing trailing
    /// fields default to `w - - 0 1`. A position with no legal move prints nothing and says
    /// on standard error whether it is checkmate or stalemate (both lose for the side to
    /// move).
    #[command(
        after_help = "Examples:\n  qipu moves startpos\n  qipu moves 4k4/9/9/9/9/9/9/9/9/3K5 w\n  qipu moves startpos --notation chinese --chinese traditional"
    )]
    Moves(moves::Args),
    /// Count the leaf nodes of the legal move tree to a given depth (perft).
    ///
    /// Used to check move generation against published numbers: the start position gives
    /// 44, 1920, 79666, 3290240 and 133312995 nodes at depths 1 to 5. With --divide, prints
    /// each legal move with the nodes below it, then the total.
    #[command(
        after_help = "Examples:\n  qipu perft startpos 4\n  qipu perft '4k4/9/9/9/9/9/9/9/9/3K5 w' 3 --divide"
    )]
    Perft(perft::Args),
    /// Draw a board diagram of a position: for the terminal (box drawing) or as SVG.
    ///
    /// The position is a FEN (quoted or not), `startpos`, or a record file of any format qipu
    /// reads (gzip data and zip archives too): then the position after --ply N plies of the main line of game --game K (both
    /// counted as `fen` counts them: game 1 is the first, ply 0 the start; by default the last
    /// position of the main line), with the move that led to it marked. A game whose main line
    /// stops at an illegal move shows the position before it and says so on standard error
    /// (exit code 1). The terminal board puts Black at the top (--flip: Red), brackets the last
    /// move ([炮] where it went, (┼) where it came from), and is coloured on a terminal (see
    /// --color); without colour Black's rook, horse and cannon are written 車馬砲. --format svg writes a standalone SVG drawing, --size pixels wide; with -o FILE
    /// into that file, never over an input.
    #[command(
        after_help = "Examples:\n  qipu show startpos\n  qipu show rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b\n  qipu show game.pgn --ply 20 --flip\n  qipu show games.pgn --game 3 --format svg --size 600 -o game3.svg"
    )]
    Show(show::Args),
    /// Print a shell's completion script for qipu (bash, zsh, fish, powershell, elvish).
    ///
    /// The script completes commands, options and their values. Write it where the shell
    /// looks for completions (see the README's Install section), or load it at start-up.
    #[command(
        after_help = "Examples:\n  qipu completions bash > ~/.local/share/bash-completion/completions/qipu\n  qipu completions zsh > ~/.zfunc/_qipu\n  qipu completions fish > ~/.config/fish/completions/qipu.fish"
    )]
    Completions(completions::Args),
    /// Print qipu's manual page (roff) on standard output, or one command's page.
    ///
    /// The page is made from the same definitions as --help: the commands, their options and
    /// their descriptions. `qipu man COMMAND` prints that command's page (qipu-COMMAND(1)).
    #[command(
        after_help = "Examples:\n  qipu man | man -l -\n  qipu man > ~/.local/share/man/man1/qipu.1\n  qipu man validate > ~/.local/share/man/man1/qipu-validate.1"
    )]
    Man(man::Args),
}

/// How a command writes moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MoveNotation {
    /// Lower-case coordinates without hyphen: h2e2 (UCCI).
    Uci,
    /// ICCS: H2-E2.
    Iccs,
    /// Chinese: 炮二平五 (red numerals 一…九, black digits １…９).
    Chinese,
    /// WXF: C2.5.
    Wxf,
}

impl MoveNotation {
    /// The notation, with the Chinese characters chosen.
    pub fn with(self, style: ChineseStyle) -> qipu::notation::Notation {
        use qipu::notation::{Notation, chinese::Style};
        match self {
            MoveNotation::Uci => Notation::Uci,
            MoveNotation::Iccs => Notation::Iccs,
            MoveNotation::Wxf => Notation::Wxf,
            MoveNotation::Chinese => Notation::Chinese(match style {
                ChineseStyle::Simplified => Style::Simplified,
                ChineseStyle::Traditional => Style::Traditional,
            }),
        }
    }
}

/// Which characters Chinese notation is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ChineseStyle {
    /// 车马炮帅 / 将, 进退平, 后.
    Simplified,
    /// 車馬砲帥 / 將, 進退平, 後.
    Traditional,
}

/// Output for people or for programs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Lines for people.
    Text,
    /// One JSON object per line (`jsonl` is accepted too).
    #[value(alias = "jsonl")]
    Json,
}

/// At most this many threads per core: more only share the cores.
const JOBS_PER_CORE: usize = 4;

/// What `paths` expand to, with each input's place below the folder it was
/// found in (see [`qipu::batch::Expanded`]), leaving out standard output
/// and the files of `written` (`-o FILE`: see [`qipu::batch::Outputs`]).
/// Each link back to a folder already read, and each file not read (named
/// twice, or written by the command), is told on standard error; the files
/// not read are counted for the summary line ([`unread`]).
pub(crate) fn expanded(paths: &[std::path::PathBuf], written: &[&std::path::Path]) -> qipu::batch::Expanded {
    let outputs = written.iter().fold(qipu::batch::Outputs::new().with_stdout(), |o, p| o.with_file(p));
    let expanded = qipu::batch::expand_writing(paths, &outputs);
    for path in &expanded.loops {
        let why =
            "a link to a folder already read (a loop, or the same folder under another name): not read again";
        let line = ProblemLine::warning(&qipu::batch::escaped_name(path), None, None, why).to_string();
        eprintln!("{}", color::problem_if(color::stderr(), &line));
    }
    for unread in &expanded.unread {
        let line = unread.note().to_string();
        eprintln!("{}", color::problem_if(color::stderr(), &progress::escaped(&line)));
    }
    unread::set(expanded.unread.len());
    expanded
}

/// The number of threads `--jobs` asks for: all cores when `None`, at most
/// [`JOBS_PER_CORE`] times the cores (a larger number is capped, with a
/// message).
pub(crate) fn jobs(jobs: Option<usize>) -> Result<usize, Failure> {
    let cores = qipu::batch::cores();
    match jobs {
        None => Ok(cores),
        Some(0) => Err(Failure::usage("--jobs must be at least 1")),
        Some(n) if n > cores * JOBS_PER_CORE => {
            let most = cores * JOBS_PER_CORE;
            eprintln!(
                "{}",
                warning_line(format!(
                    "--jobs {n} is more than {JOBS_PER_CORE} a core ({cores} cores): using {most}"
                ))
            );
            Ok(most)
        }
        Some(n) => Ok(n),
    }
}

/// A batch on the threads `--jobs` asks for, reading text in `encoding`.
pub(crate) fn batch(jobs: Option<usize>, encoding: Option<Encoding>) -> Result<qipu::batch::Batch, Failure> {
    Ok(qipu::batch::Batch::new().threads(self::jobs(jobs)?).encoding(encoding))
}

/// A problem of the command itself (not of an input) as a problem line:
/// `qipu: error: MESSAGE`.
pub fn error_line(message: impl std::fmt::Display) -> String {
    ProblemLine::input_error("qipu", message).to_string()
}

/// A warning of the command itself as a problem line: `qipu: warning: MESSAGE`.
pub(crate) fn warning_line(message: impl std::fmt::Display) -> String {
    ProblemLine::warning("qipu", None, None, message).to_string()
}

/// An error that ends a command, with the exit code it maps to.
#[derive(Debug)]
pub struct Failure {
    /// What to tell the user (empty when there is nothing to say).
    pub message: String,
    /// The process exit code: 1 for invalid records, 2 for usage and I/O errors.
    pub code: i32,
}

impl Failure {
    /// A usage error (exit code 2).
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure { message: message.into(), code: 2 }
    }
}

impl From<io::Error> for Failure {
    /// A write error on standard output. A closed pipe (`qipu ... | head`)
    /// is not an error: the reader has all it wanted; an output with no
    /// room left that was told already is not told again.
    fn from(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure { message: String::new(), code: 0 }
        } else if output::room::no_room(&e) && output::room::told() {
            // Told once already, where writing stopped.
            Failure { message: String::new(), code: 2 }
        } else {
            Failure { message: format!("cannot write output: {e}"), code: 2 }
        }
    }
}

/// Writes `value` as JSON into `out`. A closed output (`| head`) is the
/// quiet end that [`Failure::from`] makes of it, like any write error.
pub(crate) fn write_json(
    out: &mut (impl Write + ?Sized),
    value: &impl serde::Serialize,
) -> Result<(), Failure> {
    serde_json::to_writer(&mut *out, value).map_err(|e| match e.io_error_kind() {
        Some(kind) => Failure::from(io::Error::from(kind)),
        None => Failure::usage(format!("cannot write JSON: {e}")),
    })
}

/// Runs a parsed command line; returns the exit code (0, or 1 when some
/// game is illegal or unreadable).
pub fn run(cli: Cli) -> Result<i32, Failure> {
    color::set_choice(cli.color);
    quiet::set(cli.quiet);
    repeats::set_all(cli.all_warnings);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let code = match cli.command {
        Command::Moves(args) => moves::run(&args, &mut out).map(|_| 0),
        Command::Perft(args) => perft::run(&args, &mut out).map(|_| 0),
        Command::Validate(args) => validate::run(&args, &mut out),
        Command::Fen(args) => fen::run(&args, &mut out),
        Command::Export(args) => export::run(&args, &mut out),
        Command::Index(command) => index::run(&command, &mut out),
        Command::Search(args) => search::run(&args, &mut out),
        Command::Explore(args) => explore::run(&args, &mut out),
        Command::Convert(args) => convert::run(&args, &mut out),
        Command::Stats(args) => stats::run(&args, &mut out),
        Command::Classify(args) => classify::run(&args, &mut out),
        Command::Openings(args) => openings::run(&args, &mut out),
        Command::Duplicates(args) => duplicates::run(&args, &mut out),
        Command::Book(args) => book::run(&args, &mut out),
        Command::Show(args) => show::run(&args, &mut out),
        Command::Analyse(args) => analyse::run(&args, &mut out),
        Command::Completions(args) => completions::run(&args, &mut out).map(|_| 0),
        Command::Man(args) => man::run(&args, &mut out).map(|_| 0),
    }?;
    out.flush()?;
    Ok(code)
}

/// Reads a position argument: `startpos` or a FEN given as one or more words.
pub(crate) fn position_arg(words: &[String]) -> Result<Position, Failure> {
    let text = words.join(" ");
    if text.trim() == "startpos" {
        return Ok(Position::start());
    }
    Position::from_fen(&text).map_err(|e| {
        let what = match e {
            FromFenError::Syntax(_) => "invalid FEN",
            FromFenError::Position(_) => "FEN is not a valid position",
        };
        Failure::usage(format!("{what} {text:?}: {e}"))
    })
}

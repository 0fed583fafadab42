//! Writes N random legal games (fixed seed) as PGN with ICCS moves, for the
//! throughput benchmark: `cargo run --release --example gen_iccs_games -- 100000 > games.pgn`.
//!
//! With `--uci`, the same games are written as UCI position lines instead,
//! one a line (`position startpos moves h2e2 ...`), to measure reading UCI
//! lines against reading the ICCS PGN of the same games. With `--epd`, the
//! final position of each game is written as an EPD line with `id`, `bm`
//! (the last move played), `hmvc` and `fmvn` opcodes.
//!
//! With `--copies K` (K at least 2), every K-th game is instead a copy of a
//! random one of the last 4,096 games before it, in rotation: an exact
//! copy, a truncated copy (a prefix of at least 10 plies and fewer than
//! the whole; an exact copy of a game of 10 plies or fewer), the left–right mirror (a<->i, b<->h, ...) and the same moves
//! under other tags: what `qipu duplicates --by line,final,truncated
//! --mirror` is measured on. The other games are random ones drawn as
//! without the option.
//!
//! With `--openings`, the games are instead made for the position index and
//! the opening explorer: each starts with a line of an opening book and
//! goes on with random legal moves, captures and checks more often than
//! quiet moves, to a random length (30 to 150 plies, about 85 on average
//! once games that end early are counted). A game stops early where a side
//! has no legal move (mate or stalemate: that side loses, as the result
//! says), where a repetition is ruled, at the natural move limit or when
//! neither side can win (`1/2-1/2`, or the ruling's result); the others get
//! a random result, draws a little more often. The book is ECCO 2004's
//! lines as qipu reads them, each played once in a way qipu classifies as
//! its code and drawn Zipf-like (a few openings common, many rare), a
//! quarter of them with two of one side's moves swapped (the same
//! positions in another order); with `--openings FILE`, it is the first 4
//! to 16 plies of each game of FILE from the standard start, each as likely
//! as any other. The tags: Event (40 names), Date (1980 to 2025), Red and
//! Black (3,600 players, some with many games), RedElo and BlackElo (1,800
//! to 2,700) and Result. Each game is drawn from its own seed, on all
//! threads; `--uci`, `--epd` and `--copies` do not apply.
//! `cargo run --release --example gen_iccs_games -- 1000000 --openings > g1m.pgn`

use std::collections::VecDeque;
use std::io::Write;

use qipu::notation::iccs;
use qipu::{Move, Position};

/// How many earlier games a copy may be made of.
const WINDOW: usize = 4096;

/// A xorshift generator with a fixed seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A random legal game of 60 to 159 plies (fewer if it ends).
fn random_game(rng: &mut Rng) -> Vec<Move> {
    let mut pos = Position::start();
    let plies = 60 + (rng.next() % 100) as usize;
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[(rng.next() % legal.len() as u64) as usize];
        moves.push(m);
        let _ = pos.play_unchecked(m);
    }
    moves
}

/// The movetext of `moves` in ICCS, each followed by a space.
fn movetext(moves: &[Move]) -> String {
    let mut text = String::new();
    for (ply, &m) in moves.iter().enumerate() {
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(&iccs::write(m, iccs::Style::Iccs));
        text.push(' ');
    }
    text
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    if let Some(i) = args.iter().position(|a| a == "--openings") {
        let file = args.get(i + 1).filter(|a| !a.starts_with("--"));
        let book = match file {
            Some(path) => openings::Book::from_file(path),
            None => openings::Book::ecco(),
        };
        openings::write_games(n, &book);
        return;
    }
    let copies: Option<usize> = args
        .iter()
        .position(|a| a == "--copies")
        .and_then(|i| args.get(i + 1))
        .and_then(|k| k.parse().ok())
        .filter(|&k| k >= 2);
    let uci = args.iter().any(|a| a == "--uci");
    let epd = args.iter().any(|a| a == "--epd");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut copy_rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut recent: VecDeque<(usize, Vec<Move>)> = VecDeque::with_capacity(WINDOW);
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for g in 0..n {
        let copy_kind = copies.filter(|&k| g % k == k - 1 && !recent.is_empty()).map(|k| g / k % 4);
        let (tags, moves) = match copy_kind {
            None => {
                let moves = random_game(&mut rng);
                if copies.is_some() {
                    if recent.len() == WINDOW {
                        recent.pop_front();
                    }
                    recent.push_back((g, moves.clone()));
                }
                (format!("[Event \"random {g}\"]\n"), moves)
            }
            Some(kind) => {
                let (of, moves) = &recent[(copy_rng.next() % recent.len() as u64) as usize];
                match kind {
                    1 if moves.len() > 10 => {
                        let cut = 10 + (copy_rng.next() % (moves.len() as u64 - 10)) as usize;
                        (format!("[Event \"random {of}, cut at {cut}\"]\n"), moves[..cut].to_vec())
                    }
                    0 | 1 => (format!("[Event \"random {of}\"]\n"), moves.clone()),
                    2 => {
                        let mirrored = moves.iter().map(|m| m.flip_horizontal()).collect();
                        (format!("[Event \"random {of}, mirrored\"]\n"), mirrored)
                    }
                    _ => (
                        format!("[Event \"copy {g}\"]\n[Red \"red {g}\"]\n[Black \"black {g}\"]\n"),
                        moves.clone(),
                    ),
                }
            }
        };
        if epd {
            use qipu::formats::epd::{Operand, push_opcode, push_position};
            let mut pos = Position::start();
            for &m in &moves {
                let _ = pos.play_unchecked(m);
            }
            let mut line = String::new();
            push_position(&mut line, pos.board(), pos.turn());
            push_opcode(&mut line, "id", &[Operand::Text(&format!("random {g}"))]);
            if let Some(&last) = moves.last() {
                push_opcode(&mut line, "bm", &[Operand::Word(&iccs::write(last, iccs::Style::Uci))]);
            }
            push_opcode(&mut line, "hmvc", &[Operand::Number(0)]);
            push_opcode(&mut line, "fmvn", &[Operand::Number(moves.len() as u64 / 2 + 1)]);
            writeln!(out, "{line}").unwrap();
            continue;
        }
        if uci {
            let mut line = String::from("position startpos");
            if !moves.is_empty() {
                line.push_str(" moves");
            }
            for &m in &moves {
                line.push(' ');
                iccs::write_to(m, iccs::Style::Uci, &mut line);
            }
            writeln!(out, "{line}").unwrap();
            continue;
        }
        let text = movetext(&moves);
        writeln!(out, "[Game \"Chinese Chess\"]\n{tags}[Format \"ICCS\"]\n\n{text}*\n").unwrap();
    }
}

/// `--openings`: games that start with a line of an opening book and go on
/// with random legal moves, under tags of their own (event, date, players,
/// ratings, result).
mod openings {
    use std::collections::HashSet;
    use std::io::Write;

    use qipu::analysis::ecco::{self, grammar, key::MoveKey, matching::Line, table};
    use qipu::formats;
    use qipu::notation::iccs;
    use qipu::record::replay;
    use qipu::rules::{Arbiter, RuleSet, Verdict};
    use qipu::{Color, Move, Position};

    /// A xorshift64* generator; each game has its own, seeded from its
    /// number, so that games can be made on several threads and come out
    /// the same.
    struct Rng(u64);

    impl Rng {
        /// The generator of game `g` (or of any other numbered thing).
        fn of(g: u64, salt: u64) -> Rng {
            // splitmix64 of the number: well-mixed, never 0 after `| 1`.
            let mut z = g.wrapping_add(salt).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            Rng((z ^ (z >> 31)) | 1)
        }

        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        /// A number below `n` (`n` > 0).
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        /// True `percent` times in a hundred.
        fn chance(&mut self, percent: u64) -> bool {
            self.next() % 100 < percent
        }
    }

    /// The opening lines, all from the standard start, and how often each
    /// is drawn.
    pub struct Book {
        lines: Vec<Vec<Move>>,
        /// Running sums of the lines' weights.
        cumulative: Vec<u64>,
    }

    /// How many ways of playing an ECCO line are tried before it is left
    /// out of the book.
    const TRIES: usize = 40;

    /// The Zipf exponent of the ECCO book: the line of rank r (in a fixed
    /// shuffled order) is drawn with a weight of 1/r^s.
    const ZIPF: f64 = 1.0;

    impl Book {
        /// The book of ECCO 2004: for every line of every code's definition
        /// (`ecco::grammar::lines`), one way of playing it that qipu's
        /// classifier gives that code, its gaps (`……`, moves before a
        /// lettered one) filled with moves the definitions name. The lines
        /// are put in a fixed shuffled order and drawn Zipf-like, so that a
        /// few openings are common and many rare.
        pub fn ecco() -> Book {
            let lines: Vec<(&str, Line)> = table::ROWS
                .iter()
                .flat_map(|row| {
                    grammar::lines(row.code, row.definition).into_iter().map(move |l| (row.code, l))
                })
                .collect();
            let vocab = vocabulary(&lines);
            let start = Position::start();
            let mut seen = HashSet::new();
            let mut book = Vec::new();
            for (i, (code, line)) in lines.iter().enumerate() {
                let mut rng = Rng::of(i as u64, 0xeccc_0000);
                let found = (0..TRIES).map(|_| realize(line, &vocab, &mut rng)).find(|moves| {
                    !moves.is_empty() && ecco::classify(&start, moves).is_some_and(|e| e.code == *code)
                });
                if let Some(moves) = found.filter(|m| seen.insert(m.clone())) {
                    book.push(moves);
                }
            }
            let mut rng = Rng::of(0, 0x5bd1_e995);
            for i in (1..book.len()).rev() {
                book.swap(i, rng.below(i + 1));
            }
            let weights = (1..=book.len()).map(|r| (1e9 / (r as f64).powf(ZIPF)) as u64).collect();
            Book::new(book, weights)
        }

        /// The book of a file's games from the standard start with at least
        /// 4 plies: the first 4 to 16 plies of each (a fixed random number),
        /// each game's line drawn as often as any other, so that the lines
        /// common in the file are common in the games made.
        pub fn from_file(path: &str) -> Book {
            let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let parsed = formats::read(&bytes, None).unwrap_or_else(|e| panic!("{path}: {e}"));
            let start = Position::start().fen();
            let mut rng = Rng::of(0, 0xf11e);
            let lines: Vec<Vec<Move>> = parsed
                .records
                .iter()
                .filter_map(|record| replay::opening(record, 16))
                .filter(|(pos, moves)| moves.len() >= 4 && pos.fen() == start)
                .map(|(_, mut moves)| {
                    moves.truncate(4 + rng.below(13));
                    moves
                })
                .collect();
            assert!(!lines.is_empty(), "{path}: no game from the standard start with 4 plies or more");
            let weights = vec![1; lines.len()];
            Book::new(lines, weights)
        }

        fn new(lines: Vec<Vec<Move>>, weights: Vec<u64>) -> Book {
            let cumulative = weights
                .iter()
                .scan(0u64, |sum, w| {
                    *sum += w.max(&1);
                    Some(*sum)
                })
                .collect();
            Book { lines, cumulative }
        }

        /// A line drawn by weight.
        fn draw(&self, rng: &mut Rng) -> &[Move] {
            let total = *self.cumulative.last().expect("a book of one line or more");
            let at = rng.next() % total;
            &self.lines[self.cumulative.partition_point(|&c| c <= at)]
        }
    }

    /// The keys that the definitions name: moves a player of these openings
    /// plays.
    fn vocabulary(lines: &[(&str, Line)]) -> HashSet<MoveKey> {
        let mut keys = HashSet::new();
        for (_, line) in lines {
            keys.extend(line.fixed.iter().flat_map(|(_, k)| k.iter().copied()));
            keys.extend(line.position.iter().flatten().flatten().copied());
            for later in line.later.iter().flatten() {
                keys.extend(later.moves.iter().copied());
                keys.extend(later.allowed.iter().flatten().copied());
            }
        }
        keys
    }

    /// A random legal move of `pos` whose key `wanted` accepts.
    fn move_among(pos: &Position, wanted: impl Fn(&MoveKey) -> bool, rng: &mut Rng) -> Option<Move> {
        let among: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| MoveKey::of(pos, m).is_some_and(|k| wanted(&k)))
            .collect();
        (!among.is_empty()).then(|| among[rng.below(among.len())])
    }

    /// One way of playing `line` from the standard start, or nothing when
    /// this try gets stuck: its fixed plies as written (a choice among
    /// alternatives), each side's lettered moves in the order written as
    /// soon as they are due and legal, and where the line asks nothing of
    /// the side to move, a move its list allows before its next lettered
    /// one, or else one the definitions name.
    fn realize(line: &Line, vocab: &HashSet<MoveKey>, rng: &mut Rng) -> Vec<Move> {
        let mut at: Vec<Option<Vec<MoveKey>>> = vec![None; ecco::PLIES];
        if let Some(position) = &line.position {
            for (side, keys) in position.iter().enumerate() {
                for (k, key) in keys.iter().enumerate() {
                    if let Some(slot) = at.get_mut(side + 2 * k) {
                        *slot = Some(vec![*key]);
                    }
                }
            }
        }
        for (ply, keys) in &line.fixed {
            if let Some(slot) = at.get_mut(*ply) {
                *slot = Some(keys.clone());
            }
        }
        let last_fixed = at.iter().rposition(Option::is_some);
        let mut pending: [Vec<_>; 2] = [0, 1].map(|side| line.later[side].iter().collect());
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for (ply, fixed) in at.iter().enumerate() {
            let side = ply % 2;
            if last_fixed.is_none_or(|l| ply > l) && pending.iter().all(Vec::is_empty) {
                return moves;
            }
            let m = match fixed {
                Some(keys) => move_among(&pos, |k| keys.contains(k), rng),
                None => {
                    let due = pending[side].first().filter(|l| ply >= line.from[l.sequence][side]);
                    match due.and_then(|l| move_among(&pos, |k| l.moves.contains(k), rng)) {
                        Some(m) => {
                            pending[side].remove(0);
                            Some(m)
                        }
                        None => {
                            let allowed = pending[side].first().and_then(|l| l.allowed.as_ref());
                            allowed
                                .and_then(|a| move_among(&pos, |k| a.contains(k), rng))
                                .or_else(|| move_among(&pos, |k| vocab.contains(k), rng))
                        }
                    }
                }
            };
            let Some(m) = m else { return Vec::new() };
            let _ = pos.play_unchecked(m);
            moves.push(m);
        }
        if pending.iter().all(Vec::is_empty) { moves } else { Vec::new() }
    }

    /// The chance, in percent, that a capture is played when there is one.
    const CAPTURE_PERCENT: u64 = 30;
    /// How many random moves are drawn for a quiet move; the first that
    /// gives check is played, else the first drawn.
    const CHECK_DRAWS: usize = 3;
    /// The chance, in percent, that a drawn book line is played with two of
    /// one side's moves swapped (when the swap stays legal): the same
    /// positions reached in another order.
    const SWAP_PERCENT: u64 = 25;

    /// How a game ends.
    enum Ending {
        /// The side to move has no legal move (mate or stalemate): it loses.
        NoMove(Color),
        /// A repetition ruled, the natural move limit reached, or material
        /// left that cannot win: the game stops there with this result.
        Ruled(&'static str),
        /// It was cut at its length: any result.
        Open,
    }

    /// A game: a line of `book`, perhaps in another order, then random
    /// legal moves up to a random length (30 to 150 plies, 90 on average),
    /// captures and checks more often than at random; it stops early when
    /// a side has no legal move or the rules end it.
    fn game(book: &Book, rng: &mut Rng) -> (Vec<Move>, Ending) {
        let mut line = book.draw(rng).to_vec();
        if rng.chance(SWAP_PERCENT) && line.len() >= 3 {
            let i = rng.below(line.len() - 2);
            let j = i + 2 * (1 + rng.below((line.len() - 1 - i) / 2));
            let mut swapped = line.clone();
            swapped.swap(i, j);
            if replays(&swapped) {
                line = swapped;
            }
        }
        let length = 30 + rng.below(61) + rng.below(61);
        let mut pos = Position::start();
        let mut arbiter = Arbiter::new(RuleSet::default(), &pos);
        let mut moves = Vec::with_capacity(length);
        let mut captures = Vec::new();
        while moves.len() < length {
            let m = match line.get(moves.len()) {
                Some(&m) => m,
                None => {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        return (moves, Ending::NoMove(pos.turn()));
                    }
                    pick(&mut pos, &legal, &mut captures, rng)
                }
            };
            let _ = pos.play_unchecked(m);
            arbiter.push(&pos, m);
            moves.push(m);
            if let Some(ruling) = arbiter.rulings().last() {
                let result = match ruling.verdict {
                    Verdict::Draw => "1/2-1/2",
                    Verdict::Loses(Color::Red) => "0-1",
                    Verdict::Loses(Color::Black) => "1-0",
                };
                return (moves, Ending::Ruled(result));
            }
            if arbiter.move_limit_at().is_some() || arbiter.dead_draw_at().is_some() {
                return (moves, Ending::Ruled("1/2-1/2"));
            }
        }
        match pos.outcome() {
            Some(_) => (moves, Ending::NoMove(pos.turn())),
            None => (moves, Ending::Open),
        }
    }

    /// Whether `moves` are legal from the standard start, one after another.
    fn replays(moves: &[Move]) -> bool {
        let mut pos = Position::start();
        moves.iter().all(|&m| pos.play(m).is_ok())
    }

    /// A random move among `legal` (not empty): a capture `CAPTURE_PERCENT`
    /// times in a hundred when there is one, else the first of
    /// `CHECK_DRAWS` random moves that gives check, or the first of them.
    fn pick(pos: &mut Position, legal: &[Move], captures: &mut Vec<Move>, rng: &mut Rng) -> Move {
        captures.clear();
        captures.extend(legal.iter().copied().filter(|m| pos.board().piece_at(m.to).is_some()));
        if !captures.is_empty() && rng.chance(CAPTURE_PERCENT) {
            return captures[rng.below(captures.len())];
        }
        let first = legal[rng.below(legal.len())];
        let checks = |m: Move, pos: &mut Position| {
            let undo = pos.play_unchecked(m);
            let check = pos.is_check();
            pos.undo(undo);
            check
        };
        if checks(first, pos) {
            return first;
        }
        (1..CHECK_DRAWS).map(|_| legal[rng.below(legal.len())]).find(|&m| checks(m, pos)).unwrap_or(first)
    }

    /// Event names: a few dozen.
    const EVENT_KINDS: [&str; 8] =
        ["National", "Provincial", "City", "Open", "Masters", "Youth", "Team", "Rapid"];
    const EVENT_NAMES: [&str; 5] = ["Championship", "Cup", "League", "Invitational", "Tournament"];

    /// Player names: every surname with every given name, 3,600 players.
    const SURNAMES: [&str; 60] = [
        "Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Zhou", "Xu", "Sun", "Ma",
        "Zhu", "Hu", "Guo", "He", "Lin", "Gao", "Luo", "Zheng", "Liang", "Xie", "Song", "Tang", "Han",
        "Feng", "Deng", "Cao", "Peng", "Zeng", "Xiao", "Tian", "Dong", "Pan", "Yuan", "Cai", "Jiang", "Yu",
        "Du", "Ye", "Cheng", "Wei", "Su", "Lu", "Ding", "Ren", "Shen", "Yao", "Jin", "Fu", "Zhong", "Lv",
        "Tan", "Wen", "Lai", "Hong", "Meng", "Qin", "Bai",
    ];
    const GIVEN_NAMES: [&str; 60] = [
        "Wei", "Fang", "Na", "Min", "Jing", "Lei", "Qiang", "Jun", "Yang", "Yong", "Yan", "Jie", "Tao",
        "Ming", "Chao", "Xiuying", "Hua", "Hui", "Gang", "Ping", "Bin", "Hao", "Kai", "Peng", "Long", "Fei",
        "Xin", "Yu", "Lin", "Bo", "Dan", "Lan", "Zhen", "Rong", "Jian", "Guang", "Tianyi", "Zhiqiang",
        "Haifeng", "Jianguo", "Xiaoming", "Dawei", "Yifan", "Zihao", "Yuxuan", "Haoran", "Mingyu", "Junjie",
        "Wenbo", "Shuai", "Liang", "Kun", "Xiang", "Rui", "Tong", "Hong", "Quan", "Sheng", "Zhiyuan",
        "Yiming",
    ];

    /// How many players there are.
    const PLAYERS: usize = SURNAMES.len() * GIVEN_NAMES.len();

    /// Player `p`'s name.
    fn player(p: usize) -> String {
        format!("{} {}", SURNAMES[p % SURNAMES.len()], GIVEN_NAMES[p / SURNAMES.len()])
    }

    /// A player drawn at random, lower numbers more often (the smaller of
    /// two draws): some players have many games, most a few.
    fn draw_player(rng: &mut Rng) -> usize {
        rng.below(PLAYERS).min(rng.below(PLAYERS))
    }

    /// A rating of player `p` in one game: the player's own (1,830 to
    /// 2,670) give or take 30.
    fn rating(p: usize, rng: &mut Rng) -> u64 {
        let own = 1830 + Rng::of(p as u64, 0xe10).next() % 841;
        own + rng.next() % 61 - 30
    }

    /// Appends game `g` as PGN: its tags, its moves in ICCS and its result.
    fn push_game(g: u64, book: &Book, out: &mut String) {
        use std::fmt::Write;
        let mut rng = Rng::of(g, 0x9e37_79b9_7f4a_7c15);
        let (moves, ending) = game(book, &mut rng);
        let result = match ending {
            Ending::NoMove(Color::Red) => "0-1",
            Ending::NoMove(Color::Black) => "1-0",
            Ending::Ruled(result) => result,
            Ending::Open => match rng.below(100) {
                0..35 => "1-0",
                35..62 => "0-1",
                _ => "1/2-1/2",
            },
        };
        let event = format!("{} {}", EVENT_KINDS[rng.below(8)], EVENT_NAMES[rng.below(5)]);
        let (year, month, day) = (1980 + rng.below(46), 1 + rng.below(12), 1 + rng.below(28));
        let red = draw_player(&mut rng);
        let mut black = draw_player(&mut rng);
        if black == red {
            black = (red + 1) % PLAYERS;
        }
        let (red_elo, black_elo) = (rating(red, &mut rng), rating(black, &mut rng));
        let _ = write!(
            out,
            "[Game \"Chinese Chess\"]\n[Event \"{event}\"]\n[Date \"{year}.{month:02}.{day:02}\"]\n\
             [Red \"{}\"]\n[Black \"{}\"]\n[RedElo \"{red_elo}\"]\n[BlackElo \"{black_elo}\"]\n\
             [Result \"{result}\"]\n[Format \"ICCS\"]\n\n",
            player(red),
            player(black)
        );
        for (ply, &m) in moves.iter().enumerate() {
            if ply % 2 == 0 {
                let _ = write!(out, "{}. ", ply / 2 + 1);
            }
            iccs::write_to(m, iccs::Style::Iccs, out);
            out.push(' ');
        }
        out.push_str(result);
        out.push_str("\n\n");
    }

    /// How many games a batch has: each batch is shared out among the
    /// threads and written in order.
    const BATCH: u64 = 16_384;

    /// Writes `n` games of `book` to standard output.
    pub fn write_games(n: usize, book: &Book) {
        let threads = std::thread::available_parallelism().map_or(1, |t| t.get()) as u64;
        let out = std::io::stdout();
        let mut out = std::io::BufWriter::with_capacity(1 << 20, out.lock());
        let n = n as u64;
        let mut first = 0;
        while first < n {
            let end = (first + BATCH).min(n);
            let per = (end - first).div_ceil(threads);
            let texts: Vec<String> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        let (from, to) = ((first + t * per).min(end), (first + (t + 1) * per).min(end));
                        s.spawn(move || {
                            let mut text = String::with_capacity((to - from) as usize * 1024);
                            (from..to).for_each(|g| push_game(g, book, &mut text));
                            text
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a generating thread")).collect()
            });
            texts.iter().for_each(|t| out.write_all(t.as_bytes()).expect("writable"));
            first = end;
        }
        out.flush().expect("writable");
    }
}

//! Cutting a text into chunks of whole lines, at places where every
//! reading of it starts a new game (see the [module docs](super)).

use crate::formats::detect::Format;
use crate::formats::dhtmlxq::{self, Block};
use crate::formats::encoding::{self, Encoding, TextEncoding};
#[cfg(feature = "serde")]
use crate::formats::json;
use crate::formats::sighted::Sighted;
use crate::formats::tree::Game;
use crate::formats::{Unreadable, UnreadableReason, lines, pgn, text as plain, wxf};
use crate::record::{Span, Visitor, Warning};

use super::{CutShort, MAX_LINE, cannot_read, cannot_read_cut, decode};

/// Cuts a text into chunks of whole games as it is read.
#[derive(Debug)]
pub(super) struct TextChunks<R> {
    pub(super) source: R,
    pub(super) format: Format,
    pub(super) encoding: Encoding,
    /// The encoding each line is decoded from (UTF-8 for UTF-16, decoded
    /// as it comes).
    pub(super) lines_in: TextEncoding,
    pub(super) utf16: Option<encoding_rs::Decoder>,
    /// Bytes read and not yet in a chunk.
    pub(super) raw: Vec<u8>,
    /// Where in `raw` the complete lines looked at end.
    scanned: usize,
    /// The last place in `raw` where a chunk may end, and how many lines of
    /// the input come before it.
    cut: Option<(usize, u32)>,
    /// Lines of the input looked at (or skipped, when too long).
    lines: u32,
    /// The lines of the chunk being made, before `raw`.
    parts: Vec<Part>,
    first_line: u32,
    /// What the line scan knows of the line before.
    last_blank: bool,
    /// The game being scanned has moves (or a separator ended it), as
    /// the PGN reader will find: a line of tags after an empty line then
    /// starts the next game.
    game_has_moves: bool,
    /// Surely no comment is open after the line scanned last.
    comment_closed: bool,
    /// The DhtmlXQ block open after the line scanned last.
    block: Option<Block>,
    /// Where the games of a WXF text start.
    wxf: wxf::GameStarts,
    /// Where the games of a plain text start: places in `raw`, with the
    /// lines of the input before them.
    plain: plain::GameStarts<(usize, u32)>,
    /// A game too long to hold is being dropped, up to the next place a
    /// chunk may start at: it is the chunk's first part.
    dropping: bool,
    /// How long a run of lines without a place to cut may be before it is
    /// dropped as one game too long to read.
    max_game: usize,
    /// Within a line too long to read: its rest is dropped up to its end.
    skipping: bool,
    /// JSON lines longer than this (the head's size) are read as they
    /// come, not held.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    json_held: usize,
    /// The last bytes of the line too long to read dropped so far, for a
    /// block's opening tag cut between two pieces.
    skipped_tail: Vec<u8>,
    piece: Vec<u8>,
    piece_size: usize,
    done: bool,
    /// The input was cut short (see [`CutShort`]): the error to give once
    /// the games before the cut are handed on, and whether what was read
    /// before it is whole (else the game the cut falls in is not read).
    cut_short: Option<(Unreadable, bool)>,
}

/// Whole lines of a text, the games of which read alone as they do in the
/// whole text.
#[derive(Debug)]
pub(super) struct TextChunk {
    pub(super) format: Format,
    pub(super) encoding: Encoding,
    lines_in: TextEncoding,
    /// The number of the chunk's first line in its input.
    first_line: u32,
    parts: Vec<Part>,
}

/// Part of a chunk: bytes of whole lines, or a line too long to read.
#[derive(Debug)]
enum Part {
    Lines(Vec<u8>),
    /// A line too long to read; in a DhtmlXQ text, whether a block was
    /// open before it or may open in it (it is then an unreadable game).
    Overlong {
        block: bool,
    },
    /// A JSON record on a line longer than the head, read as it came
    /// (always a chunk's last part); taken when the chunk is read.
    #[cfg(feature = "serde")]
    Record(std::sync::Mutex<Option<Game>>),
    /// Lines with no place between them where a game surely starts, more
    /// than a game may hold: one unreadable game (always a chunk's first
    /// part). `lines` is how many, known once they end.
    TooLong {
        lines: u32,
        /// The most a game may hold.
        most: usize,
    },
}

/// The longest tag that opens a DhtmlXQ block, `[DhtmlXQiFrame]`, less one
/// byte: what is kept of a line too long to read to find such a tag cut
/// between two pieces.
const BLOCK_TAG_TAIL: usize = 14;

impl<R: std::io::Read> TextChunks<R> {
    /// Chunks of `raw` (the head, without a byte-order mark, as UTF-8 when
    /// the text is UTF-16) and what follows it in `source`.
    pub(super) fn new(
        source: R,
        (format, encoding, lines_in): (Format, Encoding, TextEncoding),
        utf16: Option<encoding_rs::Decoder>,
        raw: Vec<u8>,
        (piece_size, max_game, json_held): (usize, usize, usize),
    ) -> TextChunks<R> {
        TextChunks {
            source,
            format,
            encoding,
            lines_in,
            utf16,
            raw,
            scanned: 0,
            cut: None,
            lines: 0,
            parts: Vec::new(),
            first_line: 1,
            last_blank: false,
            game_has_moves: false,
            comment_closed: true,
            block: None,
            wxf: wxf::GameStarts::default(),
            plain: plain::GameStarts::default(),
            dropping: false,
            max_game: max_game.max(1),
            skipping: false,
            json_held: json_held.max(1),
            skipped_tail: Vec::new(),
            piece: vec![0u8; piece_size.max(1)],
            piece_size: piece_size.max(1),
            done: false,
            cut_short: None,
        }
    }

    /// Notes that the input was cut short before its rest, as `e` says
    /// (see [`CutShort`]): its games before the cut are read, then `e` is
    /// given.
    pub(super) fn cut_short(&mut self, e: &std::io::Error) {
        let whole = CutShort::of(e).is_some_and(|cut| cut.whole);
        self.cut_short = Some((cannot_read_cut(e), whole));
        self.done = true;
    }

    /// Looks at the complete lines of `raw` not looked at yet, noting the
    /// last place a chunk may end.
    fn scan(&mut self) {
        while let Some(k) = memchr::memchr(b'\n', &self.raw[self.scanned..]) {
            if self.dropping && self.cut.is_some() {
                // The game too long to read ends there.
                return;
            }
            let start = self.scanned;
            #[cfg(feature = "serde")]
            if self.format == Format::Json && k > self.json_held && !self.dropping {
                // Held whole already: read from its text.
                let line = self.lines.saturating_add(1);
                let text = self.line_text(&self.raw[start..start + k]);
                // (A blank line is no record; text in memory cannot fail
                // to read.)
                let game = match text.trim().is_empty() {
                    true => None,
                    false => Some(json::read_line(text.as_bytes(), line).unwrap_or_default()),
                };
                self.push_record(start, game);
                self.raw.drain(..=k);
                return;
            }
            if k > MAX_LINE {
                // A line too long to read, whole in `raw`: it is dropped.
                self.overlong(start);
                let opens = dhtmlxq::has_block_open(&self.raw[..k]);
                self.mark_overlong(opens);
                self.raw.drain(..=k);
                continue;
            }
            let line = &self.raw[start..start + k];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let blank = line.iter().all(u8::is_ascii_whitespace);
            match self.format {
                Format::Json | Format::Epd | Format::Uci => self.cut = Some((start, self.lines)),
                Format::Dhtmlxq => {
                    if self.block.is_none() || dhtmlxq::block_open_at(line).is_some() {
                        self.cut = Some((start, self.lines));
                    }
                    self.block = self.block_after(line);
                }
                Format::Wxf => {
                    let line = self.line_text(line);
                    if self.wxf.line(&line) {
                        self.cut = Some((start, self.lines));
                    }
                }
                Format::Text => {
                    let line = self.line_text(line);
                    let line = encoding::unescape_references(&line);
                    if let Some(cut) = self.plain.line((start, self.lines), &line) {
                        self.cut = Some(cut);
                    }
                }
                _ if !blank => {
                    let (cut, has_moves, comment_closed) = self.scan_pgn_line(line);
                    if cut {
                        self.cut = Some((start, self.lines));
                    }
                    self.game_has_moves = has_moves;
                    self.comment_closed = comment_closed;
                }
                _ => {}
            }
            self.last_blank = blank;
            self.lines = self.lines.saturating_add(1);
            self.scanned = start + k + 1;
        }
    }

    /// The DhtmlXQ block open after a line of a DhtmlXQ text: a chunk may
    /// start before a line when none is open, or when the line starts with
    /// a block's opening tag (a block not closed runs up to it). A line's
    /// first byte is never the second byte of a character; in GBK and Big5
    /// others can be, so tags are looked for in the decoded line.
    fn block_after(&self, line: &[u8]) -> Option<Block> {
        if !dhtmlxq::has_block_tag(line) {
            return self.block;
        }
        if self.lines_in.encoding == Encoding::Utf8 || line.is_ascii() {
            return dhtmlxq::open_after(line, self.block);
        }
        dhtmlxq::open_after(self.decoded(line).as_bytes(), self.block)
    }

    /// Looks at a non-empty line of PGN: whether a chunk may start at it,
    /// and after it whether the game surely has moves and no comment is
    /// surely open. A chunk may start at a line of tags that the reader
    /// reads as tags (outside a comment, or after an empty line, which ends
    /// one) when the game before it has moves: the reader then surely
    /// starts a new game there.
    fn scan_pgn_line(&self, line: &[u8]) -> (bool, bool, bool) {
        let bracket = line.trim_ascii_start().first() == Some(&b'[');
        // A line opening with `[` tells the same whether it is tags or not
        // when the game has no moves yet and no brace can open a comment:
        // no cut, no moves, no comment open. The test (which decodes a
        // line in GBK or Big5) is spared for all but a game's first line.
        if bracket
            && !self.game_has_moves
            && self.comment_closed
            && memchr::memchr2(b'{', b'}', line).is_none()
        {
            return (false, false, true);
        }
        let tags = bracket && (self.last_blank || self.comment_closed) && self.is_tag_line(line);
        if tags {
            return (self.game_has_moves, false, true);
        }
        let moves = has_moves(line).unwrap_or(self.game_has_moves);
        // The reader opens a comment at a `{` and closes it at the next
        // `}`: when a line's last brace is `}`, no comment is open after
        // it; when it is `{`, one may be.
        let closed = self.last_brace(line).map_or(self.comment_closed, |brace| brace == b'}');
        (false, moves, closed)
    }

    /// Whether a line is a line of tags.
    fn is_tag_line(&self, line: &[u8]) -> bool {
        match std::str::from_utf8(line) {
            Ok(text) if self.lines_in.encoding == Encoding::Utf8 || text.is_ascii() => pgn::is_tag_line(text),
            _ => pgn::is_tag_line(&self.decoded(line)),
        }
    }

    /// A line as text: as it is when it is UTF-8 in a UTF-8 text or ASCII,
    /// else decoded.
    fn line_text<'a>(&self, line: &'a [u8]) -> std::borrow::Cow<'a, str> {
        match std::str::from_utf8(line) {
            Ok(text) if self.lines_in.encoding == Encoding::Utf8 || text.is_ascii() => text.into(),
            _ => self.decoded(line).into(),
        }
    }

    /// A line decoded.
    fn decoded(&self, line: &[u8]) -> String {
        let mut text = String::new();
        self.lines_in.decode_onto(line, &mut text);
        text
    }

    /// The last `{` or `}` of a line, as characters (in GBK and Big5 their
    /// bytes can be the second byte of another character).
    fn last_brace(&self, line: &[u8]) -> Option<u8> {
        let k = memchr::memrchr2(b'{', b'}', line)?;
        if self.lines_in.encoding == Encoding::Utf8 || line.is_ascii() {
            return Some(line[k]);
        }
        let text = self.decoded(line);
        text.rfind(['{', '}']).map(|k| text.as_bytes()[k])
    }

    /// Reads the next piece of the input onto `raw`; false at its end.
    fn read_piece(&mut self) -> Result<bool, Unreadable> {
        let n = match self.source.read(&mut self.piece) {
            Ok(n) => n,
            Err(e) if CutShort::of(&e).is_some() => {
                self.cut_short(&e);
                return Ok(false);
            }
            Err(e) => return Err(cannot_read(e)),
        };
        match &mut self.utf16 {
            Some(decoder) => {
                let mut text = String::new();
                decode(decoder, &self.piece[..n], &mut text, n == 0);
                self.raw.extend_from_slice(text.as_bytes());
            }
            None => self.raw.extend_from_slice(&self.piece[..n]),
        }
        Ok(n > 0)
    }

    /// The next chunk: at least a piece's worth of whole games, or the rest
    /// of the input.
    pub(super) fn next_chunk(&mut self) -> Result<Option<TextChunk>, Unreadable> {
        loop {
            if self.skipping {
                let end = memchr::memchr(b'\n', &self.raw);
                let dropped = end.map_or(self.raw.len(), |k| k + 1);
                self.skip_overlong(dropped);
                if end.is_some() {
                    self.skipping = false;
                }
                self.scanned = 0;
                self.cut = None;
            }
            if !self.skipping {
                self.scan();
            }
            #[cfg(feature = "serde")]
            if matches!(self.parts.last(), Some(Part::Record(_))) {
                // A chunk ends with a record read as it came: its game is
                // not held longer than it must be.
                return Ok(Some(self.take(0, self.lines)));
            }
            if self.dropping
                && let Some(chunk) = self.drop_too_long()
            {
                return Ok(Some(chunk));
            }
            if let Some((cut, lines)) = self.cut
                && (cut > 0 || !self.parts.is_empty())
                && self.chunk_len() + cut >= self.piece_size
            {
                return Ok(Some(self.take(cut, lines)));
            }
            // Lines since the last place to cut, more than a game may hold:
            // what comes before that place is a chunk; what follows it is
            // one game too long to read, dropped up to the next place.
            let cut = self.cut.map_or(0, |(cut, _)| cut);
            if !self.dropping && self.chunk_len() + self.scanned - cut > self.max_game {
                if let Some((cut, lines)) = self.cut
                    && (cut > 0 || !self.parts.is_empty())
                {
                    return Ok(Some(self.take(cut, lines)));
                }
                self.start_dropping();
                continue;
            }
            #[cfg(feature = "serde")]
            if self.format == Format::Json
                && !self.skipping
                && !self.dropping
                && !self.done
                && self.raw.len() - self.scanned > self.json_held
            {
                // A JSON record too long to hold as text: read as it comes.
                self.stream_record();
                if !self.parts.is_empty() {
                    return Ok(Some(self.take(0, self.lines)));
                }
                continue;
            }
            if !self.skipping && self.raw.len() - self.scanned > MAX_LINE {
                // A line too long to read, not ended yet: it is dropped up
                // to its end.
                let start = self.scanned;
                self.overlong(start);
                self.skipped_tail.clear();
                let all = self.raw.len();
                self.skip_overlong(all);
                self.skipping = true;
            }
            if self.done {
                if let Some((_, false)) = self.cut_short
                    && !self.dropping
                {
                    // The game the cut falls in is not read: what follows
                    // the last place a game surely starts (all that is
                    // not in a chunk yet, when there is none).
                    let (cut, lines) = self.last_start().unwrap_or_else(|| {
                        let scanned = memchr::memchr_iter(b'\n', &self.raw[..self.scanned]).count();
                        (0, self.lines.saturating_sub(u32::try_from(scanned).unwrap_or(u32::MAX)))
                    });
                    let lost = !self.raw[cut..].iter().all(u8::is_ascii_whitespace);
                    self.raw.truncate(cut);
                    self.scanned = self.scanned.min(cut);
                    self.plain.reset();
                    self.lines = lines;
                    if let Some((e, whole)) = &mut self.cut_short {
                        *whole = true;
                        if lost && let UnreadableReason::CannotRead { message, .. } = &mut e.reason {
                            message.push_str(&format!(
                                "; the game from line {} on is cut and not read",
                                lines.saturating_add(1)
                            ));
                        }
                    }
                }
                if self.dropping {
                    // The game too long to read runs to the end.
                    let lines = self.lines.saturating_add(u32::from(!self.raw.is_empty()));
                    self.raw.clear();
                    self.scanned = 0;
                    return Ok(Some(self.end_too_long(lines)));
                }
                if self.raw.is_empty() && self.parts.is_empty() {
                    return match self.cut_short.take() {
                        Some((e, _)) => Err(e),
                        None => Ok(None),
                    };
                }
                let (all, lines) = (self.raw.len(), self.lines);
                return Ok(Some(self.take(all, lines)));
            }
            if !self.read_piece()? {
                self.done = true;
            }
        }
    }

    /// The last place in `raw` where a game surely starts, with the lines
    /// of the input before it, once the input is cut short: a record a
    /// line starts at the line cut; a PGN game at a line of tags cut, as
    /// the lines before it tell, when it opens with `[` after a game's
    /// moves and an empty line or a closed comment.
    fn last_start(&self) -> Option<(usize, u32)> {
        let partial = &self.raw[self.scanned..];
        match self.format {
            Format::Json | Format::Epd | Format::Uci => Some((self.scanned, self.lines)),
            Format::Dhtmlxq | Format::Wxf | Format::Text => self.cut,
            _ if partial.trim_ascii_start().first() == Some(&b'[')
                && self.game_has_moves
                && (self.last_blank || self.comment_closed) =>
            {
                Some((self.scanned, self.lines))
            }
            // Cut at a line's end after a result: the game is whole.
            _ if partial.iter().all(u8::is_ascii_whitespace)
                && ends_with_result(&self.raw[..self.scanned]) =>
            {
                Some((self.scanned, self.lines))
            }
            _ => self.cut,
        }
    }

    /// Ends the lines of the chunk being made before the line that starts
    /// at `raw[start]`, a JSON record read apart as `game` (`None`: a
    /// blank line); the caller drops the line from `raw`.
    #[cfg(feature = "serde")]
    fn push_record(&mut self, start: usize, game: Option<Game>) {
        let before: Vec<u8> = self.raw.drain(..start).collect();
        if !before.is_empty() {
            self.parts.push(Part::Lines(before));
        }
        if let Some(game) = game {
            self.parts.push(Part::Record(std::sync::Mutex::new(Some(game))));
        }
        self.lines = self.lines.saturating_add(1);
        self.scanned = 0;
        self.cut = None;
        self.last_blank = false;
    }

    /// Reads the JSON record on the line that starts at `raw[scanned]`, not
    /// ended yet, as the rest of it comes: no more of it is held than a
    /// piece, and a line that is not a record is read no further than
    /// where it stops being one (its rest is dropped up to its end).
    #[cfg(feature = "serde")]
    fn stream_record(&mut self) {
        let start = self.scanned;
        let line = self.lines.saturating_add(1);
        self.push_record(start, Some(Game::default()));
        // `raw` now starts with the line.
        let mut rest = LineRest { chunks: self, pos: 0, end: 0, ended: false, blank: true };
        rest.find_end();
        let read = if rest.chunks.lines_in.encoding == Encoding::Utf8 {
            json::read_line(&mut rest, line)
        } else {
            let decoder = rest.chunks.lines_in.encoding.decoder();
            json::read_line(
                Decoded {
                    inner: &mut rest,
                    decoder,
                    bytes: Vec::new(),
                    text: Vec::new(),
                    at: 0,
                    ended: false,
                },
                line,
            )
        };
        let (pos, end, ended, blank) = (rest.pos, rest.end, rest.ended, rest.blank);
        let game = match read {
            // A line of white space is no record.
            Ok(_) if blank => {
                self.parts.pop();
                Game::default()
            }
            Ok(game) => game,
            Err(_) => {
                // The source failed (see `LineRest`, which keeps its error
                // for the chunks to give): the record cut is not read.
                self.parts.pop();
                self.lines = line.saturating_sub(1);
                self.raw.clear();
                if let Some((e, whole)) = &mut self.cut_short {
                    *whole = true;
                    if let UnreadableReason::CannotRead { message, .. } = &mut e.reason {
                        message.push_str(&format!("; the game from line {line} on is cut and not read"));
                    }
                }
                return;
            }
        };
        if let Some(Part::Record(slot)) = self.parts.last_mut() {
            *slot = std::sync::Mutex::new(Some(game));
        }
        if ended && pos == end {
            // The whole line was read: it is dropped with its `\n`.
            self.raw.drain(..(end + 1).min(self.raw.len()));
        } else {
            // The rest of the line, not JSON, is dropped up to its end.
            self.raw.drain(..pos);
            self.skipping = !self.done;
            if self.done {
                self.raw.clear();
            }
        }
        self.scanned = 0;
    }

    /// Starts dropping the lines of the chunk being made, and those after
    /// them up to the next place a chunk may start at, as one game too long
    /// to read.
    fn start_dropping(&mut self) {
        self.parts.clear();
        self.parts.push(Part::TooLong { lines: 0, most: self.max_game });
        self.dropping = true;
        self.drop_scanned(self.droppable());
        self.cut = None;
    }

    /// Drops what is scanned of the game too long to read; where the next
    /// chunk may start is found, the game ends there and the chunk goes on
    /// with the lines after it.
    fn drop_too_long(&mut self) -> Option<TextChunk> {
        match self.cut.take() {
            None => {
                self.drop_scanned(self.droppable());
                None
            }
            Some((cut, lines)) => {
                self.drop_scanned(cut);
                Some(self.end_too_long(lines))
            }
        }
    }

    /// The chunk of the game too long to read, which ends where `lines`
    /// lines of the input end.
    fn end_too_long(&mut self, lines: u32) -> TextChunk {
        self.dropping = false;
        let dropped = lines.saturating_sub(self.first_line.saturating_sub(1));
        self.parts = vec![Part::TooLong { lines: dropped, most: self.max_game }];
        self.take(0, lines)
    }

    /// How much of `raw` a game too long to read may drop: what is
    /// scanned, but for the header lines of a plain text that may start the
    /// next game (kept until the lines after them tell).
    fn droppable(&self) -> usize {
        self.plain.pending().map_or(self.scanned, |(at, _)| at.min(self.scanned))
    }

    /// Drops `raw[..end]`, scanned lines of a game too long to read.
    fn drop_scanned(&mut self, end: usize) {
        self.raw.drain(..end);
        self.scanned -= end;
        self.plain.map_pending(|(at, lines)| at.checked_sub(end).map(|at| (at, lines)));
    }

    /// Drops `raw[..end]`, bytes of a line too long to read, noting whether
    /// they hold a DhtmlXQ block's opening tag (perhaps begun in the bytes
    /// dropped before).
    fn skip_overlong(&mut self, end: usize) {
        if self.format == Format::Dhtmlxq {
            let bytes = &self.raw[..end];
            let mut seam = std::mem::take(&mut self.skipped_tail);
            seam.extend_from_slice(&bytes[..bytes.len().min(BLOCK_TAG_TAIL)]);
            let opens = dhtmlxq::has_block_open(&seam) || dhtmlxq::has_block_open(bytes);
            seam.extend_from_slice(&bytes[bytes.len().min(BLOCK_TAG_TAIL)..]);
            seam.drain(..seam.len().saturating_sub(BLOCK_TAG_TAIL));
            self.skipped_tail = seam;
            self.mark_overlong(opens);
        }
        self.raw.drain(..end);
    }

    /// Notes that the line too long to read last told of may open a
    /// DhtmlXQ block.
    fn mark_overlong(&mut self, opens: bool) {
        if let Some(Part::Overlong { block }) = self.parts.last_mut() {
            *block |= opens;
        }
    }

    /// Ends the lines of the chunk being made before the line too long to
    /// read that starts at `raw[start]`, which is told as such; the caller
    /// drops it from `raw`.
    fn overlong(&mut self, start: usize) {
        let before: Vec<u8> = self.raw.drain(..start).collect();
        if !self.dropping {
            // (A game too long to read takes the line in.)
            if !before.is_empty() {
                self.parts.push(Part::Lines(before));
            }
            self.parts.push(Part::Overlong { block: self.block.is_some() });
        }
        self.lines = self.lines.saturating_add(1);
        self.scanned = 0;
        self.cut = None;
        self.last_blank = false;
        self.game_has_moves = false;
        self.comment_closed = false;
        self.block = None;
        self.wxf = wxf::GameStarts::default();
        self.plain.reset();
    }

    /// The bytes in the chunk being made.
    fn chunk_len(&self) -> usize {
        part_bytes(&self.parts)
    }

    /// The chunk of the parts made and `raw[..end]`, where `lines` lines
    /// of the input end.
    fn take(&mut self, end: usize, lines: u32) -> TextChunk {
        let rest = self.raw.split_off(end);
        let bytes = std::mem::replace(&mut self.raw, rest);
        if !bytes.is_empty() {
            self.parts.push(Part::Lines(bytes));
        }
        let chunk = TextChunk {
            format: self.format,
            encoding: self.encoding,
            lines_in: self.lines_in,
            first_line: self.first_line,
            parts: std::mem::take(&mut self.parts),
        };
        self.first_line = lines.saturating_add(1);
        self.scanned -= end.min(self.scanned);
        self.cut = None;
        self.plain.map_pending(|(at, lines)| at.checked_sub(end).map(|at| (at, lines)));
        chunk
    }
}

/// The rest of a line of a text being cut, read from its `raw` bytes and
/// then from its source a piece at a time, up to the line's `\n` (not
/// read), as a reader: what it has read of `raw` is dropped as it goes.
/// An error of the source (the input cut short, or any other) is kept by
/// the chunks, to give once the lines before are handed on; the line then
/// fails to read.
#[cfg(feature = "serde")]
struct LineRest<'c, R> {
    chunks: &'c mut TextChunks<R>,
    /// Where the bytes not read yet begin in `raw`.
    pos: usize,
    /// Where the line's bytes in `raw` end.
    end: usize,
    /// The line's end (or the input's) is at `end`.
    ended: bool,
    /// What was read of the line is ASCII white space.
    blank: bool,
}

#[cfg(feature = "serde")]
impl<R: std::io::Read> LineRest<'_, R> {
    fn find_end(&mut self) {
        let raw = &self.chunks.raw;
        match memchr::memchr(b'\n', &raw[self.pos..]) {
            Some(k) => (self.end, self.ended) = (self.pos + k, true),
            None => self.end = raw.len(),
        }
    }
}

#[cfg(feature = "serde")]
impl<R: std::io::Read> std::io::Read for LineRest<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if self.pos < self.end {
                let n = buf.len().min(self.end - self.pos);
                buf[..n].copy_from_slice(&self.chunks.raw[self.pos..self.pos + n]);
                self.pos += n;
                self.blank = self.blank && buf[..n].iter().all(u8::is_ascii_whitespace);
                return Ok(n);
            }
            if self.ended || self.chunks.done {
                return Ok(0);
            }
            // All of `raw` is read: the next piece takes its place.
            self.chunks.raw.clear();
            (self.pos, self.end) = (0, 0);
            match self.chunks.read_piece() {
                Ok(true) => self.find_end(),
                Ok(false) => {
                    self.chunks.done = true;
                    // Cut short where what was read is not whole: the line
                    // is not whole either.
                    if let Some((e, false)) = &self.chunks.cut_short {
                        return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, e.to_string()));
                    }
                    return Ok(0);
                }
                Err(e) => {
                    // Kept for the chunks to give once the lines before are
                    // handed on.
                    let message = e.to_string();
                    self.chunks.cut_short = Some((e, true));
                    self.chunks.done = true;
                    return Err(std::io::Error::other(message));
                }
            }
        }
    }
}

/// A reader of text in another encoding than UTF-8, decoded to UTF-8 as it
/// is read.
#[cfg(feature = "serde")]
struct Decoded<R> {
    inner: R,
    decoder: encoding_rs::Decoder,
    bytes: Vec<u8>,
    /// Decoded text not read yet, from `at`.
    text: Vec<u8>,
    at: usize,
    /// Whether the input has ended and the decoder been told so (it takes
    /// nothing more: what it held back is in `text`).
    ended: bool,
}

#[cfg(feature = "serde")]
impl<R: std::io::Read> std::io::Read for Decoded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.text.len() {
            if self.ended {
                return Ok(0);
            }
            self.bytes.resize(16 << 10, 0);
            let n = self.inner.read(&mut self.bytes)?;
            let mut text = String::new();
            // At the end, the decoder gives what it held back (a character
            // cut short, as U+FFFD) once: it must not be used again.
            self.ended = n == 0;
            decode(&mut self.decoder, &self.bytes[..n], &mut text, self.ended);
            (self.text, self.at) = (text.into_bytes(), 0);
        }
        let n = buf.len().min(self.text.len() - self.at);
        buf[..n].copy_from_slice(&self.text[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Whether the last line of PGN `text` that is not blank ends with a
/// result, which ends a game.
fn ends_with_result(text: &[u8]) -> bool {
    let text = text.trim_ascii_end();
    let line = &text[memchr::memrchr(b'\n', text).map_or(0, |k| k + 1)..];
    ["1-0", "0-1", "1/2-1/2", "*"].iter().any(|r| line.ends_with(r.as_bytes()))
}

/// The bytes of the lines among `parts`.
fn part_bytes(parts: &[Part]) -> usize {
    parts.iter().map(|p| if let Part::Lines(b) = p { b.len() } else { 0 }).sum()
}

/// What a non-empty line of PGN tells of whether its game has moves, as
/// the PGN reader finds (any word of move text, a result, or a `{`
/// comment, outside a comment; a `===` separator ends the game too): `Some(true)`
/// when it surely has them from this line on, `Some(false)` when a new
/// game may begin at it (a line that opens with `[`: tags, most likely),
/// `None` when it says nothing sure (a `;` comment, a variation, a character
/// other than ASCII first). Inside a comment the game has moves already,
/// since the `{` that opened it counts.
fn has_moves(line: &[u8]) -> Option<bool> {
    let line = line.trim_ascii();
    match line.first()? {
        b'[' => Some(false),
        b'=' if line.len() >= 3 && line.iter().all(|&b| b == b'=') => Some(true),
        b if b.is_ascii_alphanumeric() || matches!(b, b'{' | b'*' | b'$') => Some(true),
        _ => None,
    }
}

impl TextChunk {
    /// How many bytes the chunk holds.
    pub(super) fn len(&self) -> usize {
        part_bytes(&self.parts)
    }

    /// Whether the chunk holds nothing.
    pub(super) fn is_empty(&self) -> bool {
        self.len() == 0 && self.parts.is_empty()
    }

    /// Reads the chunk's games with `visitor` (see [`super::Chunk::read_with`]).
    pub(super) fn read_with<V: Visitor>(&self, visitor: &mut V, mut each: impl FnMut(V::Output, bool)) {
        let mut text = String::new();
        let (mut first_line, mut parts) = (self.first_line, &self.parts[..]);
        if let [Part::TooLong { lines, most }, rest @ ..] = parts {
            each(too_long_game(first_line, *lines, *most).tell(visitor), true);
            first_line = first_line.saturating_add(*lines);
            parts = rest;
        }
        match self.format {
            #[cfg(feature = "serde")]
            Format::Json => {
                let mut reader = json::LineReader::default().starting_at_line(first_line);
                for part in parts {
                    match part {
                        Part::Lines(bytes) => {
                            text.clear();
                            self.lines_in.decode_onto(bytes, &mut text);
                            for line in text.lines() {
                                reader.push_line(line);
                                reader.tell_games(visitor, |game| each(game, true));
                            }
                        }
                        Part::Overlong { .. } => reader.skip_overlong_line(MAX_LINE),
                        Part::Record(slot) => {
                            let game = slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
                            // (Taken the first time the chunk is read.)
                            if let Some(game) = game {
                                reader.push_game(game);
                            }
                        }
                        // Only ever first, read before.
                        Part::TooLong { .. } => {}
                    }
                }
                reader.tell_games(visitor, |game| each(game, true));
            }
            format @ (Format::Epd | Format::Uci) => runs(parts, first_line, self.lines_in, |run| match run {
                Run::Lines(text, line) => {
                    lines::read_with(text, line, format, visitor, |game| each(game, true))
                }
                Run::Overlong { line, .. } => each(lines::overlong_line(line, MAX_LINE).tell(visitor), true),
            }),
            // The parts are read apart: a line too long to read ends the
            // blocks before it.
            Format::Dhtmlxq => runs(parts, first_line, self.lines_in, |run| match run {
                Run::Lines(text, line) => {
                    dhtmlxq::read_each(text, line, |game| each(game.tell(visitor), true))
                }
                Run::Overlong { line, block: true } => each(overlong_block(line).tell(visitor), true),
                Run::Overlong { block: false, .. } => {}
            }),
            // Each run of lines is read alone: a line too long to read is
            // an unreadable game between them.
            Format::Wxf => runs(parts, first_line, self.lines_in, |run| match run {
                Run::Lines(text, line) => {
                    wxf::read_each(text, line, |game| each(game.tell(visitor), true));
                }
                Run::Overlong { line, .. } => each(lines::overlong_line(line, MAX_LINE).tell(visitor), true),
            }),
            Format::Text => runs(parts, first_line, self.lines_in, |run| match run {
                Run::Lines(text, line) => {
                    let text = encoding::unescape_references(text);
                    let mut games = Sighted::new(&mut *visitor);
                    plain::read_each(&text, line, &mut games, |(game, looks)| each(game, looks));
                }
                Run::Overlong { line, .. } => each(lines::overlong_line(line, MAX_LINE).tell(visitor), true),
            }),
            _ => {
                let mut reader = pgn::LineReader::with(Sighted::new(visitor)).starting_at_line(first_line);
                for part in parts {
                    match part {
                        Part::Lines(bytes) => {
                            text.clear();
                            self.lines_in.decode_onto(bytes, &mut text);
                            for line in text.lines() {
                                reader.push_line(line);
                            }
                            for (game, looks) in reader.take_games() {
                                each(game, looks);
                            }
                        }
                        Part::Overlong { .. } => reader.skip_overlong_line(MAX_LINE),
                        // Only ever first, read before; only JSON's.
                        _ => {}
                    }
                }
                for (game, looks) in reader.finish() {
                    each(game, looks);
                }
            }
        }
    }
}

/// The unreadable game of a line too long to read, line `line` of a
/// DhtmlXQ text, in which a block is open or may open.
fn overlong_block(line: u32) -> Game {
    let at = Span { line, column: 1 };
    let message =
        format!("line longer than {} MB: not read (a DhtmlXQ block is open or opens in it)", MAX_LINE >> 20);
    Game { at, unreadable: Some(Warning { at, message }), ..Game::default() }
}

/// A run of a chunk's lines, decoded, with the number of its first line;
/// or a line too long to read (in a DhtmlXQ text, whether a block was open
/// before it or may open in it).
enum Run<'a> {
    Lines(&'a str, u32),
    Overlong { line: u32, block: bool },
}

/// Hands `each` the runs of lines of `parts`, decoded from `lines_in`, the
/// first being line `first_line` of the input.
fn runs(parts: &[Part], first_line: u32, lines_in: TextEncoding, mut each: impl FnMut(Run<'_>)) {
    let mut text = String::new();
    let mut line = first_line;
    for part in parts {
        match part {
            Part::Lines(bytes) => {
                text.clear();
                lines_in.decode_onto(bytes, &mut text);
                each(Run::Lines(&text, line));
                let lines = memchr::memchr_iter(b'\n', bytes).count();
                line = line.saturating_add(u32::try_from(lines).unwrap_or(u32::MAX));
            }
            &Part::Overlong { block } => {
                each(Run::Overlong { line, block });
                line = line.saturating_add(1);
            }
            // Only ever first, read before; only JSON's.
            _ => {}
        }
    }
}

/// The unreadable game of `lines` lines from line `line` with no place
/// between them where a game surely starts, more than `most` bytes.
fn too_long_game(line: u32, lines: u32, most: usize) -> Game {
    let at = Span { line, column: 1 };
    let size = if most >= 1 << 20 { format!("{} MB", most >> 20) } else { format!("{most} bytes") };
    let last = line.saturating_add(lines.saturating_sub(1));
    let message = format!(
        "more than {size} of text with no place where the next game surely starts: lines {line} to {last} not read"
    );
    Game { at, unreadable: Some(Warning { at, message }), ..Game::default() }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use std::io::Read;

    use super::Decoded;
    use crate::formats::encoding::Encoding;

    /// Text that ends inside a character: the decoder gives what it held
    /// back (U+FFFD) once, at the end, and then nothing more however often
    /// it is asked (found by the `stream` fuzz target: the decoder was
    /// used again after it had finished, which panics).
    #[test]
    fn decoded_text_ends_once_after_a_character_cut_short() {
        let bytes: &[u8] = b"{\"a\":\"\xc6\xe5\"}\xb0";
        let mut decoded = Decoded {
            inner: bytes,
            decoder: Encoding::Gb18030.decoder(),
            bytes: Vec::new(),
            text: Vec::new(),
            at: 0,
            ended: false,
        };
        let mut text = String::new();
        decoded.read_to_string(&mut text).unwrap();
        assert_eq!(text, "{\"a\":\"棋\"}\u{fffd}");
        let mut buf = [0u8; 8];
        assert_eq!(decoded.read(&mut buf).unwrap(), 0);
        assert_eq!(decoded.read(&mut buf).unwrap(), 0);
    }
}

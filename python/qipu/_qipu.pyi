"""Type stubs of qipu's extension module (the Rust half of the package)."""

import os
import pathlib
from typing import IO, Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

_Path = Union[str, "os.PathLike[str]"]
# What every function that reads games takes, read by one rule: a path (a file,
# or a folder searched recursively), the bytes of a file, a file object opened
# in binary or text mode (read whole; text given to the reader as UTF-8; named
# by its ``.name`` when that is a str, else ``"<stream>"``), or a list or tuple
# of these. A path that does not exist raises ``FileNotFoundError`` (``.filename``
# set); anything else raises ``TypeError``.
_Input = Union[_Path, bytes, bytearray, memoryview, IO[bytes], IO[str]]
_Inputs = Union[_Input, Iterable[_Input]]

__version__: str

class Position:
    """A Xiangqi position, with the moves played since it was made.

    ``Position()`` is the standard start; ``Position(fen)`` any legal
    position (raises :class:`qipu.FenError` otherwise). Moves are taken in
    any notation qipu reads: ``h2e2``, ``H2-E2``, ``C2.5``, ``炮二平五``.
    """

    def __init__(self, fen: Optional[str] = None) -> None: ...
    def fen(self) -> str:
        """The FEN, with its clocks."""
    @property
    def turn(self) -> str:
        """The side to move: ``"red"`` or ``"black"``."""
    def legal_moves(self, notation: str = "uci") -> List[str]:
        """Every legal move, written in ``notation`` (``uci``, ``iccs``, ``chinese``, ``chinese-traditional``, ``wxf``)."""
    def is_legal(self, move: str) -> bool:
        """Whether ``move`` (any notation) is a legal move here."""
    def push(self, move: str) -> str:
        """Plays ``move`` (any notation); returns it as UCI coordinates.

        Raises :class:`qipu.IllegalMoveError`, :class:`qipu.AmbiguousMoveError`
        or :class:`qipu.InvalidMoveError` (all ``ValueError``).
        """
    def pop(self) -> str:
        """Takes the last move back and returns it; ``IndexError`` when none was played."""
    @property
    def move_stack(self) -> List[str]:
        """The moves played since the position was made, as UCI coordinates."""
    def move_to(self, move: str, notation: str) -> str:
        """``move`` (any notation) written in ``notation``: ``move_to("h2e2", "chinese") == "炮二平五"``."""
    def is_check(self) -> bool:
        """Whether the side to move is in check."""
    def is_checkmate(self) -> bool:
        """Whether the side to move is checkmated."""
    def is_stalemate(self) -> bool:
        """Whether the side to move has no move and is not in check (it loses)."""
    def is_repetition(self, count: int = 3) -> bool:
        """Whether this position has stood ``count`` times since the position was made."""
    def outcome(self) -> Optional[Dict[str, str]]:
        """None while the game goes on; else ``{"termination": "checkmate" | "stalemate", "winner": "red" | "black"}``."""
    def piece_at(self, square: str) -> Optional[str]:
        """The piece on ``square`` (``"e0"``) as a FEN letter (``K`` Red's king, ``k`` Black's), or None."""
    def copy(self) -> "Position":
        """A copy, with its move stack."""
    def __copy__(self) -> "Position": ...
    def svg(self, size: int = 450, flip: bool = False) -> str:
        """The board as a standalone SVG drawing (qipu's diagram), ``size`` pixels wide,
        seen from Black's side when ``flip``; the last move of ``move_stack``, if any, marked."""
    def _repr_svg_(self) -> str:
        """The drawing a notebook (Jupyter, IPython) shows: ``svg()``."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class GameError:
    """Where and why a game is wrong: the fields of the ``qipu`` command's reports."""

    @property
    def source(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def ply(self) -> int:
        """The ply of the move (1 for the first); 0: the start position or the whole file."""
    @property
    def move(self) -> str:
        """The move as written."""
    @property
    def line(self) -> int:
        """The line (from 1), or 0 in a binary file."""
    @property
    def column(self) -> int:
        """The column (from 1, in characters), or the byte offset in a binary file."""
    @property
    def offset(self) -> Optional[int]:
        """The byte offset in a binary file, else None."""
    @property
    def message(self) -> str:
        """Why, in words."""

class Node:
    """A node of a game's move tree: the start (``Game.root``), or a move with its notes and
    the moves played after it. It reads its game each time; a node removed raises ``ValueError``.
    Nodes are equal when they are the same node of the same game."""

    @property
    def game(self) -> "Game":
        """The game the node belongs to."""
    @property
    def move(self) -> Optional[str]:
        """The move in coordinates (``h2e2``); None for the root or a move that did not replay."""
    @property
    def written(self) -> Optional[str]:
        """The move as the record holds it (as read; coordinates for a move added); None for the root."""
    def move_as(self, notation: str) -> Optional[str]:
        """The move in ``notation`` (``iccs``, ``uci``, ``chinese``, ``chinese-traditional``, ``wxf``); None for the root."""
    @property
    def ply(self) -> int:
        """How many moves lead here from the start (0 for the root)."""
    @property
    def parent(self) -> Optional["Node"]:
        """The node the move is played from; None for the root."""
    @property
    def variations(self) -> List["Node"]:
        """The moves played from here, main continuation first."""
    def next(self) -> Optional["Node"]:
        """The main continuation, or None."""
    def end(self) -> "Node":
        """The last node of the line that goes on from here by main continuations."""
    def is_end(self) -> bool:
        """Whether no move is played from here."""
    def is_main_line(self) -> bool:
        """Whether the node is on the main line (the root is)."""
    def is_main_variation(self) -> bool:
        """Whether the node is its parent's main continuation (the root is)."""
    @property
    def comment(self) -> Optional[str]:
        """The comment after the move (on the root: about the game); settable, None or "" takes it away."""
    @comment.setter
    def comment(self, comment: Optional[str]) -> None: ...
    @property
    def comment_before(self) -> Optional[str]:
        """The comment written before the move (at the start of a variation)."""
    @property
    def nags(self) -> List[int]:
        """The annotation glyphs (``!`` is 1, ``?`` 2, ``!!`` 3, ``??`` 4, ``!?`` 5, ``?!`` 6); settable."""
    @nags.setter
    def nags(self, nags: Optional[List[int]]) -> None: ...
    @property
    def position(self) -> Position:
        """The position after the move, its move stack the moves from the start. ``ValueError``
        when it is not known (the start, or a move on the way, is not legal)."""
    def fen(self) -> str:
        """The FEN of the position after the move."""
    def add_variation(self, move: str) -> "Node":
        """Plays ``move`` (any notation) from here as the last alternative and returns its node (a
        move played from here already is not added twice). ``IllegalMoveError``,
        ``AmbiguousMoveError`` or ``InvalidMoveError`` leave the game unchanged."""
    def add_main_variation(self, move: str) -> "Node":
        """As :meth:`add_variation`, the move made the main continuation."""
    def promote_to_main(self) -> None:
        """Makes the move its parent's main continuation."""
    def promote(self) -> None:
        """Moves the move one place up among its parent's continuations."""
    def demote(self) -> None:
        """Moves the move one place down among its parent's continuations."""
    def remove(self) -> None:
        """Takes the move, and every move after it, out of the game (``ValueError`` for the root)."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Game:
    """One game as read (or made), and what its replay found. A game can be changed through
    its nodes, ``set_tag`` and ``result``: each change checks it again, so its report, moves
    and writers tell of it as changed."""

    def __init__(self, fen: Optional[str] = None, tags: Optional[Dict[str, str]] = None, rules: str = "asian") -> None:
        """An empty game from ``fen`` (the standard start when None) with ``tags``. ``FenError``
        for a FEN that is no position."""
    @property
    def root(self) -> Node:
        """The start of the move tree."""
    def mainline(self) -> List[Node]:
        """The main line's nodes, the first move's first."""
    def end(self) -> Node:
        """The last node of the main line (the root when there is no move)."""
    def set_tag(self, name: str, value: Optional[str]) -> None:
        """Sets tag ``name`` (any case), or takes it away (None). ``FEN`` sets the start position."""

    @property
    def source(self) -> str:
        """The file the game was read from (``"<bytes>"`` for bytes; a file object's ``.name``, or ``"<stream>"``)."""
    @property
    def index(self) -> int:
        """The game's number in its file, from 0."""
    @property
    def format(self) -> str:
        """``pgn``, ``xqf``, ``dhtmlxq``, ``cbr``, ``cbl``, ``cbf``, ``text``, ``json``, ``wxf``, ``epd``, ``uci``; ``none`` for a game made with ``Game()`` (its source is ``"<new>"``)."""
    @property
    def encoding(self) -> Optional[str]:
        """The text encoding (``utf-8``, ``gbk``, ``big5``, …), for text formats."""
    @property
    def tags(self) -> Dict[str, str]:
        """The tags in the order read."""
    def tag(self, name: str, default: Optional[str] = None) -> Optional[str]:
        """The value of tag ``name`` (any case), or ``default``."""
    @property
    def start_fen(self) -> Optional[str]:
        """The start position's FEN (as written, when it is no legal position)."""
    @property
    def result(self) -> Optional[str]:
        """``1-0``, ``0-1``, ``1/2-1/2``, ``*``, or None; settable (after the moves and as the ``Result`` tag)."""
    @result.setter
    def result(self, result: Optional[str]) -> None: ...
    @property
    def status(self) -> str:
        """``"valid"``, ``"illegal"`` or ``"unreadable"``."""
    @property
    def error(self) -> Optional[GameError]:
        """Where and why the game is wrong, or None."""
    def check(self) -> None:
        """Raises the game's error (:class:`qipu.IllegalMoveError`, :class:`qipu.UnreadableError`), if any."""
    @property
    def plies(self) -> int:
        """Main-line plies that replay."""
    @property
    def variation_plies(self) -> int:
        """Variation plies that replay."""
    @property
    def termination(self) -> Optional[str]:
        """``checkmate``, ``stalemate``, ``move-limit``, ``repetition``, ``perpetual-check``,
        ``perpetual-chase``, ``check-chase``, ``perpetual-mate-threat``, ``mate-threat-mixed``,
        ``dead-draw``, or None."""
    @property
    def rules(self) -> Optional[str]:
        """The rule book the game was judged by: ``asian`` or ``chinese``."""
    @property
    def rulings(self) -> List[Dict[str, Any]]:
        """Every repetition of the main line, ruled (the ``rulings`` of ``qipu validate --format json``)."""
    @property
    def ruling(self) -> Optional[Dict[str, Any]]:
        """The ruling the game ends in, or None."""
    @property
    def warnings(self) -> List[str]:
        """Problems the reader and the replay worked around."""
    def report_dict(self) -> Dict[str, Any]:
        """The object ``qipu validate --format json`` writes for the game."""
    def moves(self, notation: str = "iccs") -> List[str]:
        """The main-line moves that replay, in ``notation``."""
    def moves_as_written(self) -> List[str]:
        """The main-line moves as the record writes them (after a wrong one too)."""
    def fens(self) -> List[str]:
        """The FEN of the start and after each main-line move that replays."""
    @property
    def variations(self) -> List[Dict[str, Any]]:
        """Each variation: ``ply`` (of its first move), ``depth``, ``moves`` (as written), ``uci`` (None where it stops replaying)."""
    @property
    def comments(self) -> List[Dict[str, Any]]:
        """Each comment: ``ply`` (of the move it follows; 0 before the first), ``in_variation``, ``text``."""
    @property
    def evaluations(self) -> List[Optional[Dict[str, int]]]:
        """Each main-line move's engine evaluation (one per move of ``moves_as_written()``): ``None``, or from Red's side ``{"cp": 38, "depth": 19}`` or ``{"mate": -3}`` (``depth`` only when given)."""
    @property
    def ecco(self) -> Optional[Dict[str, str]]:
        """The ECCO opening by the moves (``code``, ``name``, ``opening``, ``variation``), for games from the standard start."""
    def to_pgn(self, notation: str = "chinese") -> str:
        """The game as PGN, moves in ``notation``."""
    def to_json(self) -> str:
        """The game as one line of qipu's JSON."""
    def to_dhtmlxq(self) -> str:
        """The game as a DhtmlXQ block."""
    def to_xqf(self, version: int = 10) -> bytes:
        """The game as an XQF file's bytes (version 10 or 18)."""
    def write(self, path: _Path, format: Optional[str] = None, notation: str = "chinese") -> None:
        """Writes the game to ``path`` as ``pgn`` (UTF-8, moves in ``notation``), ``xqf``, ``json``
        or ``dhtmlxq``; by default the format the extension names (``.pgn``, ``.xqf``, ``.json``, ``.dhtml``)."""
    def to_uci(self) -> str:
        """The main line as a UCI position line (``position startpos moves …``)."""
    def svg(self, size: int = 450, flip: bool = False) -> str:
        """The game's final position (after the last main-line move that replays) as
        :meth:`Position.svg` draws it, that move marked. ``ValueError`` when the game has no
        legal position (unreadable, or a start that is no legal position)."""
    def _repr_svg_(self) -> Optional[str]:
        """The drawing a notebook shows: ``svg()``, or None when there is no position to draw."""

class Reader(Iterator[Game]):
    """The games of a :func:`read` call, in input order, streamed."""

    def __iter__(self) -> "Reader": ...
    def __next__(self) -> Game: ...
    def close(self) -> None:
        """Stops reading."""
    def __enter__(self) -> "Reader": ...
    def __exit__(self, *args: Any) -> None: ...

def read(source: _Inputs, encoding: Optional[str] = None, jobs: Optional[int] = None, rules: str = "asian") -> Reader:
    """The games of a file, a folder (searched recursively), bytes, a file object, or a list of these.

    Repetitions, the natural move limit and results are judged by ``rules``: ``asian`` or ``chinese``.

    A file that cannot be read as a record gives one game whose status is ``"unreadable"``;
    a path that does not exist raises ``FileNotFoundError``.
    """

def validate(paths: _Inputs, *, jobs: Optional[int] = None, encoding: Optional[str] = None, **select: Any) -> List[Dict[str, Any]]:
    """The report of every selected game: the objects ``qipu validate --format json`` writes."""

def stats(paths: _Inputs, *, top: int = 10, jobs: Optional[int] = None, encoding: Optional[str] = None, **select: Any) -> Dict[str, Any]:
    """The statistics of the selected games: the object ``qipu stats --format json`` writes."""

def fen_columns(paths: _Inputs, *, notation: str = "iccs", jobs: Optional[int] = None, encoding: Optional[str] = None, **select: Any) -> Dict[str, List[Any]]:
    """The FEN trail as a dict of lists: ``source``, ``index``, ``ply``, ``move``, ``next_move``
    (the move played from the position, in ``notation``; None at a game's last position),
    ``fen``, ``side``, ``result`` (see :func:`qipu.fen_columns`)."""

class ArrowStream:
    """A table of games or of positions as an Arrow stream (the Arrow PyCapsule
    interface): ``pyarrow.table(s)``, ``polars.DataFrame(s)``, ``duckdb.sql("… FROM s")``.
    Read once."""

    @property
    def table(self) -> str:
        """``"games"`` or ``"positions"``."""
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...

def read_arrow(paths: _Inputs, *, positions: bool = False, jobs: Optional[int] = None, encoding: Optional[str] = None, **select: Any) -> ArrowStream:
    """The table of games (one row a game, unreadable ones included, as ``validate`` counts
    them), or with ``positions`` of main-line positions, as ``qipu export`` writes it."""

def convert(
    paths: _Inputs,
    *,
    to: str,
    output: _Path,
    notation: str = "chinese",
    output_encoding: str = "utf-8",
    set_ecco: bool = False,
    xqf_version: int = 10,
    force: bool = False,
    split: Optional[int] = None,
    split_by: Optional[str] = None,
    rejected: Optional[_Path] = None,
    jobs: Optional[int] = None,
    encoding: Optional[str] = None,
    **select: Any,
) -> Dict[str, Any]:
    """Writes the selected games as ``qipu convert --to TO -o OUTPUT`` does; returns the counts.

    ``to`` is ``pgn``, ``json``, ``dhtmlxq`` or ``uci`` (one file, written whole, never over an
    input, over another file only with ``force``), ``cbl`` (one library) or ``html`` (one viewer
    page), or ``xqf``, ``cbr`` or ``pfc`` (a file per game into the folder ``output``, in the
    folders that mirror where the inputs were found). A text target is split into files named
    after ``output`` with ``split`` (that many games a file: ``NAME-0001.EXT``, ...) or
    ``split_by`` (``ecco``, ``event``, ``result``, ``red``, ``black``, ``year`` or ``source``:
    ``NAME-VALUE.EXT``); with ``rejected``, the games left out by the selection and the illegal
    games go into that file instead. The counts: ``games``, ``valid``, ``illegal``,
    ``unreadable``, ``written``, ``rejected`` (games written into ``rejected``), ``not_written``
    (why each game that could not be written was not), ``warnings`` (what the format could not
    keep of a game written, as ``convert`` tells it: a tag without a field, a name cut to its
    field) and ``files`` (the files of a split, in the order started).
    """

def build_index(
    paths: _Inputs,
    out: _Path,
    *,
    merge_mirrors: bool = False,
    all_lines: bool = False,
    jobs: Optional[int] = None,
    encoding: Optional[str] = None,
    **select: Any,
) -> Dict[str, int]:
    """Makes a position index of the selected games of ``paths`` in the folder ``out``
    (``NAME.qidx``), or brings it up to date, as ``qipu index build PATHS -o OUT`` does: inputs
    the index holds unchanged are not read again, new ones are added, changed ones replace what
    it held of them. ``paths`` are files, folders or archives (not bytes nor file objects).
    ``merge_mirrors`` keeps each position with its left–right mirror (a new index keeps what it
    is made with: asking an index for the other raises ``ValueError``); ``all_lines`` indexes
    the positions of the games' variations too (as ``--all-lines``; the same holds). Returns
    the counts: ``games`` and ``positions`` added, ``without_positions`` (games read with no
    legal start), ``variations`` and ``variation_positions`` added, ``variations_left_out``
    (past a game's bounds), ``inputs_read``, ``inputs_unchanged``, ``inputs_replaced``,
    ``total_games``, ``total_positions``, ``total_variations``."""

class Index:
    """A position index (a folder ``NAME.qidx`` made by :func:`build_index` or ``qipu index
    build``) open for questions. ``Index(path)`` raises ``FileNotFoundError`` when it is none.

    A hit (what :meth:`find` and :meth:`search` return a list of) is a dict: ``source``,
    ``index`` (the game's number in its input, from 0), ``ply`` (0: the game's start),
    ``next`` (the move played from the position, ``"h2e2"``, or None at the game's end),
    ``result`` (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, ``"*"``), ``valid`` (False: the game
    has an illegal move, its positions stop before it), ``year``, ``red_elo``,
    ``black_elo`` (None when unknown), ``termination`` (how the rules judge the main line's
    end: ``"checkmate"``, ``"perpetual-check"``, …, or None), in an index of all lines
    ``line`` (0: the main line, else the variation's number), and with ``tags=True`` ``tags``
    (a dict): the objects ``qipu search --format json`` writes.
    """

    def __init__(self, path: _Path) -> None: ...
    @property
    def path(self) -> "pathlib.Path":
        """The folder of the index."""
    @property
    def games(self) -> int:
        """The games the index holds."""
    @property
    def positions(self) -> int:
        """The positions the index holds."""
    @property
    def mirror(self) -> bool:
        """Whether a position and its left–right mirror are kept together (``merge_mirrors``)."""
    def sources(self) -> List[Tuple[str, int]]:
        """The inputs the index holds, each as ``(name, games)``."""
    def find(self, fen: str, *, side: Optional[str] = None, mirror: bool = False, tags: bool = False) -> List[Dict[str, Any]]:
        """Every time a game reaches the position of ``fen`` (``"startpos"``: the standard start):
        a FEN with its side to move, or only its placement (then ``side``, ``"red"`` or
        ``"black"``, or either side). With ``mirror``, its left–right mirror too. Raises
        :class:`qipu.FenError` (a ``ValueError``) for a FEN that does not read."""
    def search(
        self,
        *,
        pieces: Optional[str] = None,
        material: Optional[str] = None,
        imbalance: Optional[str] = None,
        side: Optional[str] = None,
        sequence: Union[str, List[str], None] = None,
        mirror: bool = False,
        jobs: Optional[int] = None,
        tags: bool = False,
    ) -> List[Dict[str, Any]]:
        """The first position of each game where every criterion given holds: ``pieces`` (pieces
        on points: ``"C@e2 n@g7"``, ``?`` for any file or rank, ``P@c3,c4``, ``!`` for none of
        them), ``material`` (``"RCP* vs RA"``), ``imbalance`` (what one side has more, kind
        by kind: ``"R vs NC"``), ``side`` to move, ``sequence`` (moves played
        from there in a row, in coordinates: ``"h2e2 h9g7"`` or a list); with ``mirror``, their
        left–right mirror too. As ``qipu search --pieces/--material/--imbalance/--sequence``; every game is
        replayed, on ``jobs`` threads (every core by default). A pattern that does not read
        raises ``ValueError``."""
    def explore(self, fen: str = "startpos", *, mirror: bool = False, notation: str = "iccs") -> Dict[str, Any]:
        """The moves played from the position of ``fen`` in the index's games: the object
        ``qipu explore --format json`` writes. ``games``, ``red_wins``, ``draws``,
        ``black_wins``, ``red_score`` (over the decided games; None when none is),
        ``mean_year``, ``fen``, ``ended`` (games that end there), and ``moves``, the most played
        first: each with ``move`` (in ``notation``), ``iccs`` (``"h2e2"``), its own counts and
        ``best`` (the best-known game with it: ``source``, ``index``, ``ply``, ``red``,
        ``black``, ``event``, ``date``, ``result``). With ``mirror``, games that reached the
        position's mirror count too, their moves mirrored back."""

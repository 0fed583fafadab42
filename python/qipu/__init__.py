"""qipu (棋谱): read, check and convert Xiangqi (Chinese chess) game records.

Every move of every record is replayed through a complete rules engine,
written in Rust; the batch functions release the GIL and run on several
threads.

>>> import qipu
>>> pos = qipu.Position()
>>> pos.push("炮二平五")
'h2e2'
>>> pos.move_to("h9g7", "chinese")
'马８进７'
"""

from __future__ import annotations

import os
from typing import IO, Any, Dict, Iterable, List, Optional, Union

from . import _qipu
from ._qipu import (
    ArrowStream,
    Game,
    GameError,
    Index,
    Node,
    Position,
    Reader,
    build_index,
    convert,
    read,
    read_arrow,
    stats,
    validate,
)
from .errors import (
    AmbiguousMoveError,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    QipuError,
    UnreadableError,
)

__version__: str = _qipu.__version__

__all__ = [
    "Game",
    "GameError",
    "Node",
    "Position",
    "Reader",
    "read",
    "validate",
    "stats",
    "convert",
    "read_arrow",
    "ArrowStream",
    "Index",
    "build_index",
    "fen_trail",
    "fen_columns",
    "Inputs",
    "QipuError",
    "UnreadableError",
    "IllegalMoveError",
    "InvalidMoveError",
    "AmbiguousMoveError",
    "FenError",
]

#: What every function that reads games takes (one rule for all: see
#: ``_qipu.pyi``): a path (``str`` or ``os.PathLike``; a folder is searched
#: recursively), the bytes of a file (``bytes``, ``bytearray``,
#: ``memoryview``), a file object opened in binary or text mode (anything with
#: ``.read()``), or a list or tuple of these. A path that does not exist
#: raises ``FileNotFoundError``; anything else raises ``TypeError``.
Input = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes], IO[str]]
Inputs = Union[Input, Iterable[Input]]
#: The former name of :data:`Inputs`.
Paths = Inputs

_INTEGER_COLUMNS = ("index", "ply")


def fen_columns(
    paths: Inputs,
    *,
    notation: str = "iccs",
    jobs: Optional[int] = None,
    encoding: Optional[str] = None,
    numpy: Optional[bool] = None,
    **select: Any,
) -> Dict[str, Any]:
    """The position after every main-line ply of every selected game, as columns.

    A dict of equal-length columns: ``source``, ``index`` (the game's number in
    its file, from 0), ``ply`` (0: the start as read), ``move`` (the move that
    led to the position, in ``notation``; None at ply 0), ``next_move`` (the
    move played from the position, in ``notation``: the next row's ``move``;
    None at the last position of a game), ``fen``, ``side`` (to move: "red" or
    "black") and ``result`` — the fields of ``qipu fen --format json``, and
    ``next_move``. The rows are those of ``read_arrow(paths, positions=True)``
    (the same replay, gathered by the same follower), the moves written in
    ``notation``.

    ``paths`` is anything :data:`Inputs` says: paths, bytes, file objects, or a
    list of them. A path that does not exist raises ``FileNotFoundError``.

    The columns are lists, or NumPy arrays (integers for ``index`` and
    ``ply``, objects for the rest) when ``numpy`` is True, or when it is None
    and NumPy is installed.
    """
    columns = _qipu.fen_columns(paths, notation=notation, jobs=jobs, encoding=encoding, **select)
    if numpy is False:
        return columns
    try:
        import numpy as np
    except ImportError:
        if numpy:
            raise
        return columns
    return {
        name: np.asarray(values, dtype=np.int64 if name in _INTEGER_COLUMNS else object)
        for name, values in columns.items()
    }


def fen_trail(
    paths: Inputs,
    *,
    notation: str = "iccs",
    jobs: Optional[int] = None,
    encoding: Optional[str] = None,
    **select: Any,
) -> List[Dict[str, Any]]:
    """The position after every main-line ply of every selected game, one dict each.

    The objects ``qipu fen --format json`` writes: ``source``, ``index``,
    ``ply``, ``move``, ``fen``, ``side``, ``result``. See :func:`fen_columns`
    for the same as columns, the form datasets want (with ``next_move``).
    ``paths`` is anything :data:`Inputs` says.
    """
    columns = _qipu.fen_columns(paths, notation=notation, jobs=jobs, encoding=encoding, **select)
    # The command's objects have no next move.
    columns.pop("next_move", None)
    names = list(columns)
    return [dict(zip(names, row)) for row in zip(*columns.values())]

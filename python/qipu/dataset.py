"""Collections as data past one machine: each worker of a cluster (Dask,
Spark, Ray, or plain processes) reads its own shard of the same inputs with
``qipu.read_arrow`` and writes it as one part of a Parquet dataset.

>>> import qipu.dataset  # doctest: +SKIP
>>> qipu.dataset.write_shard(["collection/"], 0, 8, "dataset/")  # doctest: +SKIP
{'games': 1812}

Needs ``pyarrow`` (qipu itself does not: ``read_arrow`` hands out an Arrow
stream any Arrow library takes).
"""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Sequence

from . import _qipu

__all__ = ["write_shard"]


def write_shard(
    paths: Sequence[Any],
    shard: int,
    count: int,
    out: "str | os.PathLike[str]",
    *,
    positions: bool = False,
    jobs: Optional[int] = None,
    **select: Any,
) -> Dict[str, int]:
    """Writes shard ``shard`` (from 0) of ``count`` shards of the games of
    ``paths`` (the same paths for every shard: see ``shard=`` in the batch
    functions) into the Parquet dataset at ``out``: ``out/games/part-K.parquet``
    and, with ``positions``, ``out/positions/part-K.parquet`` (zstd), record
    batch by record batch (memory stays bounded). Takes the selection keyword
    arguments of the batch functions. Returns the rows written to each table.

    Run for every ``shard`` in ``range(count)``, anywhere, the parts together
    hold every game once: as many rows of ``games`` as ``qipu validate``
    counts games of the same paths.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    written: Dict[str, int] = {}
    for table in ("games", "positions") if positions else ("games",):
        stream = _qipu.read_arrow(
            list(paths), positions=(table == "positions"), jobs=jobs, shard=(shard, count), **select
        )
        reader = pa.RecordBatchReader.from_stream(stream)
        folder = os.path.join(os.fspath(out), table)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"part-{shard:05d}.parquet")
        rows = 0
        with pq.ParquetWriter(path + ".partial", reader.schema, compression="zstd") as writer:
            for batch in reader:
                writer.write_batch(batch)
                rows += batch.num_rows
        os.replace(path + ".partial", path)
        written[table] = rows
    return written

"""``shard=(k, n)``: n workers given the same paths read every game once
between them, as the command's ``--shard k/n`` shares them out."""

import pytest

import qipu
from conftest import ROOT, json_lines


def _key(report):
    return (report["source"], report["index"], report["status"])


def test_the_shards_hold_every_game_once_as_the_command_shares_them(cli):
    paths = [str(ROOT / "fixtures")]
    whole = sorted(map(_key, qipu.validate(paths)))
    parts = []
    for k in range(3):
        part = qipu.validate(paths, shard=(k, 3))
        assert 0 < len(part) < len(whole)
        assert part == json_lines(cli("validate", "--format", "json", "--shard", f"{k}/3", *paths))
        parts += map(_key, part)
    assert sorted(parts) == whole
    assert qipu.validate(paths, shard="1/3") == qipu.validate(paths, shard=(1, 3))


@pytest.mark.parametrize("bad, error", [((3, 3), ValueError), ((0, 0), ValueError), ("x", ValueError), (1.5, TypeError)])
def test_a_shard_not_one_of_n_is_refused(bad, error):
    with pytest.raises(error, match="shard"):
        qipu.validate(str(ROOT / "fixtures" / "pgn"), shard=bad)

#!/bin/sh
# Writes tests/data/ecco-xqbase.txt.gz: games from the standard start with the
# ECCO code xqbase's classifier gives them, for tests/rules/ecco_xqbase.rs.
#
# The games are those of examples/ecco_walk.rs (seed 2004, 400 games a line,
# 40,000 random games: about 250,000 distinct games). xqbase's classifier is
# vschess's function.wxfToEcco.js (LGPL-3.0, not part of qipu) at the commit
# below, run by node as scripts/ecco-oracle.js runs it; it is fetched into a
# temporary directory, or read from $ECCO_CLASSIFIER when that names a copy.
#
# Kept in the fixture, of the games where qipu and xqbase agree: for each
# line the generator walks and each code xqbase gives its games, the first
# such game; for each code, up to 40 more of its games (evenly spaced in the
# generator's order); up to 2,000 of the random games. And the first game of
# each class of difference listed in KNOWN below (each listed, with its
# reason, in the test's EXCEPTIONS). On standard error: how many games, how many agree, and the
# differences by qipu's code and xqbase's.
#
# Usage (from the repository root; a minute or two after the release build):
#   scripts/gen-ecco-fixture.sh [OUT]      # OUT defaults to tests/data/ecco-xqbase.txt.gz
set -eu

COMMIT=766813ac6730b63ccd4f0952a7e9b8d0f21bccf4
URL=https://raw.githubusercontent.com/FastLight126/vschess/$COMMIT/vschess/develop/module/function.wxfToEcco.js
OUT=${1:-tests/data/ecco-xqbase.txt.gz}
# qipu's code:xqbase's code of the differences kept as examples, one of each
# reason (see tests/rules/ecco_xqbase.rs).
KNOWN="C01:C00 D52:D50 B31:B30 B20:B05 C81:C80 C15:C10 C70:C60 C24:C25 B07:B20"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

classifier=${ECCO_CLASSIFIER:-}
if [ -z "$classifier" ]; then
    classifier=$tmp/function.wxfToEcco.js
    curl -fsSL "$URL" -o "$classifier"
fi

cargo run -q --release --example ecco_walk -- 2004 400 40000 > "$tmp/games.tsv"
node scripts/ecco-oracle.js "$classifier" "$tmp/games.tsv" > "$tmp/oracle.tsv"

python3 - "$tmp/oracle.tsv" "$KNOWN" "$COMMIT" <<'EOF' | gzip -9 -n > "$OUT"
import sys
from collections import Counter, defaultdict

path, known, commit = sys.argv[1], sys.argv[2].split(), sys.argv[3]
rows = [line.rstrip("\n").split("\t") for line in open(path, encoding="utf-8")]
# tag, qipu, xqbase, wxf, source
by_code, by_line = defaultdict(list), {}
randoms, examples, differ = [], {}, Counter()
for _tag, qipu, xqbase, wxf, source in rows:
    if qipu != xqbase:
        differ[(qipu, xqbase)] += 1
        examples.setdefault(f"{qipu}:{xqbase}", wxf)
    elif source.startswith("random"):
        randoms.append((wxf, xqbase))
    else:
        by_code[xqbase].append((wxf, xqbase))
        # `walk C45/1 order+insert`: the line is `C45/1`.
        by_line.setdefault((source.split()[1], xqbase), (wxf, xqbase))


def spaced(items, n):
    return items if len(items) <= n else [items[i * len(items) // n] for i in range(n)]


kept = list(by_line.values())
kept += [game for code in sorted(by_code) for game in spaced(by_code[code], 40)]
kept += spaced(randoms, 2000)
# A mirrored game reads as the game it mirrors: keep each text once.
kept = list(dict(kept).items())
missing = [k for k in known if k not in examples]
if missing:
    sys.exit(f"no game differs as {missing}: update KNOWN and the test's EXCEPTIONS")
kept += [(examples[k], k.split(":")[1]) for k in known]

agree = len(rows) - sum(differ.values())
print(f"# ECCO codes of xqbase's classifier (vschess {commit}, function.wxfToEcco.js) for games")
print("# made by examples/ecco_walk.rs (seed 2004); written by scripts/gen-ecco-fixture.sh.")
print(f"# {len(rows)} games made, qipu = xqbase on {agree}; kept {len(kept)}.")
print("# Each line: the first 20 plies in WXF as the classifier reads them (mirrored), TAB, its code.")
for wxf, code in kept:
    print(f"{wxf}\t{code}")

print(f"{len(rows)} games, qipu = xqbase on {agree}; {len(kept)} kept", file=sys.stderr)
for (qipu, xqbase), n in differ.most_common():
    print(f"  {n:6} qipu {qipu} xqbase {xqbase}", file=sys.stderr)
print("examples of the known differences (the test's EXCEPTIONS):", file=sys.stderr)
for k in known:
    print(f"  {k} {examples[k]}", file=sys.stderr)
EOF
echo "wrote $OUT" >&2

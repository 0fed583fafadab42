#!/usr/bin/env bash
# Builds a ~1 GB DhtmlXQ text and a ~1 GB CBL library out of the corpus (in DIR, default
# /tmp/qipu-big: generated files, never to be committed) and reports the peak memory (maximum
# resident set size) and the wall time of `qipu validate` on each, with --jobs 1 and --jobs 2.
#
#   bash scripts/big-inputs.sh [QIPU] [DIR]      (from the repository root)
#
# The DhtmlXQ text is every PGN game of ../shared/corpus converted by qipu to DhtmlXQ blocks,
# repeated, in a web page; the library is the index and records of the corpus's largest plain
# CBL repeated (index entries and slots rewritten by python3). BIG_SIZE=BYTES sets the size.
# Wall times depend on what else the machine runs; the user time (CPU seconds) less so.
set -euo pipefail
qipu=${1:-target/release/qipu}
dir=${2:-/tmp/qipu-big}
corpus=../shared/corpus
size=${BIG_SIZE:-$((1 << 30))}
mkdir -p "$dir"

if [ ! -s "$dir/big.dhtml" ]; then
  "$qipu" convert --to dhtmlxq "$corpus/pgn" > "$dir/seed.dhtml" 2> /dev/null || true
  python3 - "$dir/seed.dhtml" "$dir/big.dhtml" "$size" << 'EOF'
import sys
seed, out, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
blocks = open(seed, 'rb').read()
page = b'<html><head><meta charset="utf-8"><title>qipu</title></head><body>\n<pre>\n' + blocks + b'</pre>\n</body></html>\n'
with open(out, 'wb') as f:
    written = 0
    while written < size:
        f.write(page)
        written += len(page)
EOF
  rm -f "$dir/seed.dhtml"
fi

if [ ! -s "$dir/big.cbl" ]; then
  python3 - "$corpus/ccbridge/walker8088__cchess/tests/data/1956年全国象棋锦标赛93局.CBL" "$dir/big.cbl" "$size" << 'EOF'
import struct, sys
source, out, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
INDEX_AT, ENTRY, SLOT = 66624, 276, 4096
lib = open(source, 'rb').read()
capacity = struct.unpack_from('<I', lib, 60)[0]
records, at = [], INDEX_AT + capacity * ENTRY
for i in range(capacity):
    entry = lib[INDEX_AT + i * ENTRY:INDEX_AT + (i + 1) * ENTRY]
    state, length = struct.unpack_from('<I', entry, 0)[0], struct.unpack_from('<I', entry, 12)[0]
    if state == 0:
        continue
    slots = max(1, -(-length // SLOT)) * SLOT
    if state != 5:
        records.append((entry, lib[at:at + slots]))
    at += slots
per_copy = sum(len(slot) + ENTRY for _, slot in records)
copies = max(1, size // per_copy)
header = bytearray(lib[:INDEX_AT])
struct.pack_into('<I', header, 60, copies * len(records))
with open(out, 'wb') as f:
    f.write(header)
    for _ in range(copies):
        for entry, _ in records:
            f.write(entry)
    for _ in range(copies):
        for _, slot in records:
            f.write(slot)
EOF
fi

for input in "$dir/big.dhtml" "$dir/big.cbl"; do
  for jobs in 1 2; do
    "/usr/bin/time" -v "$qipu" validate --jobs "$jobs" "$input" > "$dir/validate.out" 2> "$dir/time.txt" || true
    rss=$(grep -F 'Maximum resident set size' "$dir/time.txt" | grep -oE '[0-9]+$')
    wall=$(grep -F 'Elapsed (wall clock)' "$dir/time.txt" | grep -oE '[0-9:.]+$')
    user=$(grep -F 'User time (seconds)' "$dir/time.txt" | grep -oE '[0-9.]+$')
    summary=$(grep -E '^[0-9]+ game\(s\)' "$dir/validate.out" | tail -1)
    printf '%s (%s MB), --jobs %s: peak %s MB, wall %s, user %s s; %s\n' "$(basename "$input")" \
      "$(($(stat -c %s "$input") >> 20))" "$jobs" "$((rss / 1024))" "$wall" "$user" "$summary"
  done
done

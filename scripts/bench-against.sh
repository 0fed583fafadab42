#!/usr/bin/env bash
# The one-pass figures: this tree's dist binary beside the binary of an earlier commit (default
# 072af77, where the one-pass work started) built from the same repository, in the same run, best
# of five, on every core count asked.
#
#   bash scripts/bench-against.sh [REV]          (from the repository root)
#   SECTIONS="speed scaling fen memory python" picks sections (default: all of them)
#   BIG_SIZE=BYTES sets the size of the memory inputs (default 1 GiB)
#   QIPU=PATH takes that binary for this tree's (else `cargo build --profile dist`, the fat-LTO
#   build published figures come from); the binary of REV is built once into
#   ${TMPDIR:-/tmp}/qipu-bench/qipu-REV, in REV's dist profile (its release profile before there
#   was one, when release was the fat-LTO build)
#
# Inputs (built in ${TMPDIR:-/tmp}/qipu-bench on first use; generated, never committed):
#   xqf-corpus     ../shared/corpus/xqf (5,111 files)
#   xqf-100k/      the 100,000 games of iccs-100k.pgn written as XQF files by this binary
#   dhtmlxq-100k/  the same games as one-game DhtmlXQ files (--split 1), 11,111 files of 9 games
#   iccs-100k.cbl  the same games as one CBL library
#   iccs-100k.pgn  100,000 generated games in ICCS (examples/gen_iccs_games, fixed seed)
#   ccpd8.pgn      the CCPD slice of the corpus eight times over (Big5, Chinese moves)
# Sections:
#   speed    validate --jobs 1 on each input, both binaries: seconds, plies/s, the ratio
#   scaling  validate --jobs 2 over --jobs 1 (this binary) on the PGN inputs and the XQF folder
#   fen      fen --format jsonl over validate (this binary, --jobs 1)
#   memory   peak resident memory of validate --jobs 2 on a BIG_SIZE input of every format read a
#            piece at a time (PGN, plain text, WXF, DhtmlXQ, CBL, JSON lines, EPD, UCI), both
#            binaries
#   python   `for p in paths: list(qipu.read(p))` over one `qipu.read(paths)` on 300 small XQF
#            files (needs the package built: python/.venv, see python/README.md)
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-072af77}
sections=${SECTIONS:-speed scaling fen memory python}
work=${TMPDIR:-/tmp}/qipu-bench
mkdir -p "$work"
if [ -n "${QIPU:-}" ]; then
  qipu=$(realpath "$QIPU") # a binary of this tree built otherwise
else
  cargo build --profile dist --locked --quiet
  qipu=$PWD/target/dist/qipu
fi
base="$work/qipu-$rev"
if [ ! -x "$base" ]; then
  tree="$work/tree-$rev"
  rm -rf "$tree"
  git worktree add --detach "$tree" "$rev" > /dev/null
  profile=release
  grep -q '^\[profile\.dist\]' "$tree/Cargo.toml" && profile=dist
  (cd "$tree" && cargo build --profile "$profile" --locked --quiet --target-dir "$work/target-$rev")
  cp "$work/target-$rev/$profile/qipu" "$base"
  git worktree remove --force "$tree"
fi
echo "this tree: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (changed)'); beside: $rev"

best() { # prints "wall cpu peak_kb" of the fastest of five runs of "$@"
  local best=999999 line start end secs user sys peak
  for _ in 1 2 3 4 5; do
    start=$(date +%s.%N)
    /usr/bin/time -o "$work/time" -f '%U %S %M' "$@" > /dev/null 2>&1 || true
    end=$(date +%s.%N)
    secs=$(echo "$end - $start" | bc -l)
    read -r user sys peak < <(tail -1 "$work/time")
    if (( $(echo "$secs < $best" | bc -l) )); then
      best=$secs
      line="$secs $(echo "$user + $sys" | bc -l) $peak"
    fi
  done
  echo "$line"
}

plies_of() { # the plies (main lines and variations) that validate reports for "$@"
  { "$qipu" validate --format json "$@" 2> /dev/null || true; } \
    | grep -o '"plies":[0-9]*\|"variation_plies":[0-9]*' | cut -d: -f2 | paste -sd+ | bc
}

iccs="$work/iccs-100k.pgn"
[ -s "$iccs" ] || cargo run --release --quiet --example gen_iccs_games -- 100000 > "$iccs"
ccpd="$work/ccpd8.pgn"
if [ ! -s "$ccpd" ]; then
  find ../shared/corpus/pgn/Yvonne761__Chinese-Chess-Practical-Dataset -type f -name '*.pgn' -print0 \
    | sort -z | xargs -0 cat > "$work/ccpd.pgn"
  for _ in 1 2 3 4 5 6 7 8; do cat "$work/ccpd.pgn"; done > "$ccpd"
fi
xqf100k="$work/xqf-100k"
if [ ! -d "$xqf100k" ]; then
  "$qipu" convert "$iccs" --to xqf -o "$xqf100k.tmp" > /dev/null 2>&1 || true
  mv "$xqf100k.tmp" "$xqf100k"
fi
dhtml="$work/dhtmlxq-100k"
if [ ! -d "$dhtml" ]; then
  mkdir -p "$dhtml.tmp"
  "$qipu" convert "$iccs" --to dhtmlxq -o "$dhtml.tmp/g.dhtml" --split 9 > /dev/null 2>&1 || true
  mv "$dhtml.tmp" "$dhtml"
fi
cbl="$work/iccs-100k.cbl"
[ -s "$cbl" ] || "$qipu" convert "$iccs" --to cbl -o "$cbl" > /dev/null 2>&1 || true

if [[ " $sections " == *" speed "* ]]; then
  echo "== validate --jobs 1, best of five: seconds, plies/s (per core), this tree over $rev"
  for input in ../shared/corpus/xqf "$xqf100k" "$dhtml" "$cbl" "$iccs" "$ccpd"; do
    plies=$(plies_of "$input")
    read -r new _ _ < <(best "$qipu" validate --jobs 1 "$input")
    read -r old _ _ < <(best "$base" validate --jobs 1 "$input")
    printf '%-16s %10d plies  %7.3f s %11.0f plies/s   %s %7.3f s %11.0f plies/s   %5.2fx\n' \
      "$(basename "$input")" "$plies" "$new" "$(echo "$plies / $new" | bc -l)" "$rev" "$old" \
      "$(echo "$plies / $old" | bc -l)" "$(echo "$old / $new" | bc -l)"
  done
fi

if [[ " $sections " == *" scaling "* ]]; then
  echo "== validate --jobs 2 over --jobs 1 (this tree), best of five"
  for input in "$iccs" "$ccpd" ../shared/corpus/xqf "$xqf100k"; do
    read -r one _ _ < <(best "$qipu" validate --jobs 1 "$input")
    read -r two _ _ < <(best "$qipu" validate --jobs 2 "$input")
    printf '%-16s jobs 1 %7.3f s  jobs 2 %7.3f s  %5.2fx\n' "$(basename "$input")" "$one" "$two" \
      "$(echo "$one / $two" | bc -l)"
  done
fi

if [[ " $sections " == *" fen "* ]]; then
  echo "== fen --format jsonl over validate (this tree, --jobs 1), best of five"
  for input in "$ccpd" "$iccs"; do
    read -r v _ _ < <(best "$qipu" validate --jobs 1 "$input")
    read -r f _ _ < <(best "$qipu" fen --format jsonl --jobs 1 "$input")
    printf '%-16s validate %7.3f s  fen jsonl %7.3f s  %5.2fx\n' "$(basename "$input")" "$v" "$f" \
      "$(echo "$f / $v" | bc -l)"
  done
fi

if [[ " $sections " == *" memory "* ]]; then
  size=${BIG_SIZE:-$((1 << 30))}
  echo "== peak memory, validate --jobs 2 on $((size >> 20)) MB of each format (one run each)"
  big="$work/big"
  mkdir -p "$big"
  make_big() { # make_big NAME SEED: SEED repeated up to the size, as big/NAME
    python3 - "$2" "$big/$1" "$size" << 'EOF'
import sys
seed, out, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(seed, 'rb').read()
if not data.endswith(b'\n'):
    data += b'\n'
with open(out, 'wb') as f:
    written = 0
    while written < size:
        f.write(data)
        written += len(data)
EOF
  }
  seeds="$work/seeds"
  mkdir -p "$seeds"
  head -c 4000000 "$iccs" | sed '$d' > "$seeds/pgn"
  "$qipu" convert "$seeds/pgn" --to json > "$seeds/json" 2> /dev/null || true
  "$qipu" convert "$seeds/pgn" --to uci > "$seeds/uci" 2> /dev/null || true
  "$qipu" fen --format epd "$seeds/pgn" > "$seeds/epd" 2> /dev/null || true
  "$qipu" convert "$seeds/pgn" --to dhtmlxq > "$seeds/dhtmlxq" 2> /dev/null || true
  "$qipu" convert "$seeds/pgn" --to pgn --notation wxf > "$seeds/wxf.pgn" 2> /dev/null || true
  "$qipu" convert "$seeds/pgn" --to pgn --notation chinese > "$seeds/chinese.pgn" 2> /dev/null || true
  python3 - "$seeds/wxf.pgn" "$seeds/chinese.pgn" "$seeds/wxf" "$seeds/text" << 'EOF'
import re, sys
# WXF game files (the games in WXF moves, in START{ }END blocks) and a plain text (a header
# line a game, then its Chinese moves) out of the same games.
wxf_pgn, chinese_pgn, wxf, text = sys.argv[1:5]
def games(path):
    for g in re.split(r'\n\n(?=\[)', open(path, encoding='utf-8').read().strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', g, re.M))
        moves = ' '.join(l for l in g.splitlines() if not l.startswith('['))
        yield tags, re.sub(r'\s*(\*|1-0|0-1|1/2-1/2)\s*$', '', moves)
with open(wxf, 'w', encoding='utf-8') as w:
    for tags, moves in games(wxf_pgn):
        w.write(f"FORMAT WXF\nRED {tags.get('Red', 'red')} ;;;\nBLACK {tags.get('Black', 'black')} ;;;\nSTART{{\n{moves}\n}}END\n")
with open(text, 'w', encoding='utf-8') as t:
    for tags, moves in games(chinese_pgn):
        t.write(f"{tags.get('Red', 'red')}  红先和  {tags.get('Black', 'black')}\n{moves}\n\n")
EOF
  for format in pgn text wxf dhtmlxq json epd uci; do
    make_big "$format" "$seeds/$format"
  done
  python3 - "$cbl" "$big/cbl" "$size" << 'EOF'
import struct, sys
# The library's records repeated up to the size: one index of all their entries, then their slots.
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
  for format in pgn text wxf dhtmlxq json epd uci cbl; do
    input="$big/$format"
    for bin in "$qipu" "$base"; do
      start=$(date +%s.%N)
      /usr/bin/time -o "$work/time" -f '%U %S %M' "$bin" validate --jobs 2 "$input" > "$work/summary" 2>&1 || true
      end=$(date +%s.%N)
      read -r user sys peak < <(tail -1 "$work/time")
      printf '%-8s %-10s %7.2f s  CPU %6.2f s  peak %7.1f MB  %s\n' "$format" \
        "$([ "$bin" = "$qipu" ] && echo this || echo "$rev")" "$(echo "$end - $start" | bc -l)" \
        "$(echo "$user + $sys" | bc -l)" "$(echo "$peak / 1024" | bc -l)" "$(grep -o '^[0-9]* game(s)[^;]*' "$work/summary" | tail -1)"
    done
  done
fi

if [[ " $sections " == *" python "* ]]; then
  echo "== Python: one qipu.read call a file over one call for all, 300 small XQF files"
  py=python/.venv/bin/python
  if [ -x "$py" ] && "$py" -c 'import qipu' 2> /dev/null; then
    "$py" - "$xqf100k" << 'EOF'
import os, sys, time, qipu
folder = sys.argv[1]
paths = sorted(os.path.join(folder, n) for n in os.listdir(folder))[:300]
def best(f):
    times = []
    for _ in range(5):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)
one = best(lambda: list(qipu.read(paths)))
each = best(lambda: [list(qipu.read(p)) for p in paths])
print(f"one call {one * 1000:.1f} ms, a call a file {each * 1000:.1f} ms: {each / one:.2f}x "
      f"({(each - one) / len(paths) * 1e6:.0f} us of set-up a call)")
EOF
  else
    echo "SKIPPED: the Python package is not built (python/.venv with qipu; see python/README.md)"
  fi
fi

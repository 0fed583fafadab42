#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ for the given time each (default 900 s), two at a time
# (FUZZ_AT_ONCE=N for N at a time),
# with seed corpora from ../shared/corpus and fixtures/ built on first use (in fuzz/corpus/,
# git-ignored: the corpus files are not ours to commit). Findings go to fuzz/artifacts/<target>/;
# each run's final statistics to fuzz/logs/<target>.log.
#
# Usage: bash scripts/fuzz.sh [SECONDS] [TARGET...]   (needs cargo-fuzz: cargo install cargo-fuzz)
#
# cargo-fuzz asks for a nightly compiler; the stable one builds the targets too when told it may
# (RUSTC_BOOTSTRAP=1), without a sanitizer (qipu's own code has no unsafe block that reads
# input; libFuzzer still finds panics, hangs, slow inputs and memory blow-ups). With a nightly
# toolchain installed (FUZZ_NIGHTLY=1), it is used with the address sanitizer instead.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds=${1:-900}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(xqf any_format dhtmlxq pfc_dhj ccbridge stream fen notation pgn openings replay shape zip online book roundtrip)
if [ "${FUZZ_NIGHTLY:-0}" = 1 ]; then
  fuzz() { cargo +nightly fuzz "$@"; }
else
  fuzz() { local cmd=$1; shift; RUSTC_BOOTSTRAP=1 cargo fuzz "$cmd" --sanitizer none "$@"; }
fi
shared=../../shared/corpus

# seed DIR FIND-ARGS...: every 20th matching file under 20 KB, named by SHA-1.
seed() {
  local dir=$1 from=$2
  shift 2
  mkdir -p "corpus/$dir"
  [ -d "$from" ] || return 0
  (cd "$from" && find . -type f -size -20k "$@" -print0 | LC_ALL=C sort -z |
    awk 'BEGIN{RS="\0"; ORS="\0"} (NR-1)%20==0' |
    while IFS= read -r -d '' f; do cp "$f" "$OLDPWD/corpus/$dir/$(sha1sum "$f" | cut -c1-40)"; done)
}
if [ ! -d corpus/seeded ]; then
  seed xqf "$shared/xqf"
  for t in any_format stream pgn; do
    seed "$t" "$shared/pgn"
    seed "$t" "$shared/text"
    seed "$t" "$shared/dhtmlxq"
    seed "$t" ../fixtures
  done
  seed any_format "$shared/xqf"
  seed any_format "$shared/mxq"
  seed any_format "$shared/sg"
  seed dhtmlxq "$shared/dhtmlxq"
  seed ccbridge "$shared/ccbridge"
  mkdir -p corpus/fen corpus/notation corpus/openings
  printf 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1' > corpus/fen/start
  printf '3k5/4P4/4P4/4P4/4P4/9/9/9/9/4K4 w' > corpus/fen/pawns
  for m in 炮二平五 马８进７ 前兵进一 C2.5 H8+7 +P+1 h2e2 H2-E2 c3c4 26 15=6 Che3 E5e3 H8xe7+ Ch3-e3 A10e9 Rxh1#; do
    printf '%s' "$m" > "corpus/notation/$(printf '%s' "$m" | sha1sum | cut -c1-40)"
  done
  printf '\x01\x02\x03\x04\x05\x06' > corpus/openings/a
  mkdir -p corpus/seeded
fi
# shape: two bytes of flags and ply limit, then PGN (seeded apart: it came later).
if [ ! -d corpus/shape ]; then
  seed shape "$shared/pgn"
  seed shape ../fixtures
  printf '\x3f\x03[Event "e"]\n{c} 1. h2e2 {x} h9g7 $1 (1... b9c7 {v} 2. h0g2 (2. b0c2)) 2. h0g2 $2 *\n' > corpus/shape/variations
fi
# dhtmlxq: blocks of odd shape (seeded apart: they came later): branches that hang from none,
# a branch number given twice, tag names in capitals, white space inside a move list, tags and
# blocks not closed, a closing tag cut before its ']'.
if [ ! -f corpus/dhtmlxq/odd-shapes ]; then
  mkdir -p corpus/dhtmlxq
  printf '[DhtmlXQ]\n[DhtmlXQ_move_0_3_1]7747[/DhtmlXQ_move_0_3_1]\n[DhtmlXQ_move_2_2_1]1022[/DhtmlXQ_move_2_2_1]\n[DhtmlXQ_move_5_1_3]7747[/DhtmlXQ_move_5_1_3]\n[/DhtmlXQ]\n' > corpus/dhtmlxq/orphans
  printf '[DHTMLXQ][DhtmlXQ_MOVELIST]7747 7062\r\n79 67[/dhtmlxq_movelist][DhtmlXQ_Title]t[/DhtmlXQ_TITLE][DhtmlXQ_title]u[/DhtmlXQ_title][DhtmlXQ_move_0_2_1]1022[/DhtmlXQ_move_0_2_1][DhtmlXQ_comment1_2]c[/DhtmlXQ_comment1_2][/DHTMLXQ]' > corpus/dhtmlxq/capitals
  printf '[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist\n[DhtmlXQ_move_0_1_1]1022[/DhtmlXQ_move_0_1_1][DhtmlXQ_binit]99[DhtmlXQ]x[/DhtmlXQ' > corpus/dhtmlxq/odd-shapes
fi
# pfc_dhj: the PFC and DHJHtmlXQ fixtures vschess wrote (seeded apart: it came later).
if [ ! -d corpus/pfc_dhj ]; then
  mkdir -p corpus/pfc_dhj
  cp ../fixtures/vschess/game-*.pfc ../fixtures/vschess/game-*.dhj.txt corpus/pfc_dhj/
fi
# zip: archives of fixtures, deflated and stored, one inside another (seeded apart: it came later).
if [ ! -d corpus/zip ]; then
  mkdir -p corpus/zip
  python3 - ../fixtures/pgn corpus/zip <<'PY'
import io, os, sys, zipfile
src, out = sys.argv[1], sys.argv[2]
games = b"[Event \"x\"]\n1. h2e2 h9g7 2. h0g2 i9h9 *\n"
def archive(members, method):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in members:
            z.writestr(name, data)
    return buf.getvalue()
one = archive([("a.pgn", games), ("d/b.pgn", games), ("readme.txt", b"x")], zipfile.ZIP_DEFLATED)
open(os.path.join(out, "deflated"), "wb").write(one)
open(os.path.join(out, "stored"), "wb").write(archive([("a.pgn", games)], zipfile.ZIP_STORED))
open(os.path.join(out, "nested"), "wb").write(archive([("in.zip", one), ("c.pgn", games)], zipfile.ZIP_STORED))
PY
fi
# WXF game files (PlayOK, XieXie): none in the corpus, so two small ones written here.
for t in any_format stream; do
  mkdir -p "corpus/$t"
  [ -f "corpus/$t/wxf-playok" ] || printf 'FORMAT  WXF\nRED     a ; 1200 ;;\nBLACK   b ; 1240 ;;\nRESULT  1-0\nDATE    2020-01-01 10:00:00\nEVENT   PlayOK Game ; 10m+0s\nSTART{\n 1. C2.5 h8+7   2. H2+3 r9.8   3. R1.2 h2+3\n 4. P7+1 1-0 }END\n' > "corpus/$t/wxf-playok"
  # EPD and UCI/UCCI position lines: every form, a wrong line among them.
  [ -f "corpus/$t/epd-lines" ] || printf '4k4/9/9/9/9/9/9/9/4A4/3K5 w - - id "a \\"b\\" \\\\"; bm d0e0 d0d1; c0 "x y" z; hmvc 3; fmvn 7;\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 2 9 noop;\n4k4/9/9 w - - id x;\n' > "corpus/$t/epd-lines"
  [ -f "corpus/$t/uci-lines" ] || printf 'position startpos moves h2e2 h9g7 h0g2\nposition fen 4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1 moves d0e0\nfen 4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1 moves e9e8\n4k4/9/9/9/9/9/9/9/4A4/3K5 w moves d0e0 e9d9\nstartpos\nposition startpos\r\nposition startpos moves h2e2 h2\n' > "corpus/$t/uci-lines"
  # Several games: header notes, a repeated key, a SETUP block, a block left open, text after }END.
  [ -f "corpus/$t/wxf-games" ] || printf 'FORMAT WXF\nRED a ; 1200 ;; x\nnote\nSTART{\n 1. C2.5! h8+7?\n 2. H2+3 1-0 }END trailing\nmore\nRED b\nRED c\nSETUP{ Ke0 ke9\nRa0 }\nSTART{ 1. C8.5 }END\nSTART{ 1. H2+3\nFORMAT WXF\nRESULT 1-0\nSTART{ 1. C2.5 0-1 }END\n' > "corpus/$t/wxf-games"
  # qipu's JSON records, a line each: the stream target's heads are shorter than them, so each
  # is read as it comes (as a line over 1 MB is); a blank line, a damaged one, one not a record.
  [ -f "corpus/$t/json-lines" ] || printf '{"tags":[["Event","a"]],"fen":null,"result":"*","comment":"c","nodes":[{"id":1,"parent":0,"move":"h2e2","text":"h2e2","comment":null,"comment_before":null,"nags":[]},{"id":2,"parent":1,"move":null,"text":"\xe9\xa9\xac\xef\xbc\x98\xe8\xbf\x9b\xef\xbc\x97","comment":"x","comment_before":"y","nags":[1]},{"id":3,"parent":0,"move":"b2e2","text":"b2e2","comment":null,"comment_before":null,"nags":[]}]}\n   \n{"tags":[],"nodes":[{"id":1,"parent":0,"move":"h2e2"}\n{"tags":[],"tags":[]}  \r\n[1,2]\n{"nodes":[],"result":"1-0","eval":{"cp":3}} junk\n' > "corpus/$t/json-lines"
  [ -f "corpus/$t/wxf-xiexie" ] || printf 'FORMAT  \tWXF\nGAME    \nRED     \t;;;\nBLACK   \t;;;\nFEN  \t\trheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b\n\nSTART{\n H8+7\n}END\n' > "corpus/$t/wxf-xiexie"
done
# SAN as pychess (ranks from 1, [White]) and WinBoard (ranks from 0) write it, a move read two
# ways until the game tells, WXF glyphs around move numbers, and a bare UBB move list.
for t in any_format stream pgn; do
  mkdir -p "corpus/$t"
  [ -f "corpus/$t/san-pychess" ] || printf '[White "a"]\n[Black "b"]\n[WhiteElo "1500"]\n[Variant "xiangqi"]\n\n1. Ade2 Ra9 2. Ea3 Ra8 3. Chc3 Ch7 4. Ec1 Pi6 5. Cb4 Afe9 6. Ece3 Cc8 7. Ad1 Hi8 8. Cxc7 Ch5 9. Cb6 Ch3 10. Cc5 Cxc4 11. Ca5 Ege8 12. Pi5 Hh6 13. Cb4 Rf10 14. Cb9 Rf5 15. Eg5 Pa6 16. Ri2 Pg6 17. Cb2 Hg8 18. E5e3 Pe6 *\n' > "corpus/$t/san-pychess"
  [ -f "corpus/$t/san-winboard" ] || printf '[White "a"]\n[Variant "xiangqi"]\n\n1. Ch4 {x} (1. Ch5) Hg7 2. Hg2 Rh9 3. Rh0 *\n' > "corpus/$t/san-winboard"
done
for t in any_format stream; do
  [ -f "corpus/$t/wxf-glyphs" ] || printf 'FORMAT WXF\nSTART{\n 1. C2.5 h8+7!!2. H2+3 !?h2+3\n!!3.R1.2 r1.2  4.?! R2+6 !!! }END\n' > "corpus/$t/wxf-glyphs"
  [ -f "corpus/$t/ubb-movelist" ] || printf '77477062\n79671022\n' > "corpus/$t/ubb-movelist"
done
# The .che, .ccm and .chn fixtures (generated: no real file is at hand), whole.
for t in online any_format; do
  mkdir -p "corpus/$t"
  for f in ../fixtures/online/game*.*; do cp "$f" "corpus/$t/online-$(basename "$f")"; done
done
# Shapes the tests found readers going wrong on: a hex dump, text that starts with XQ,
# character references, comments with white space at their ends, a FEN qipu rejects, a
# diagram with the wrong side to move, a comment holding tag lines after an empty line, plain
# text whose last lines hold moves among words, plain text with header notes, a tag set twice
# and a run of move lines holding two games.
for t in any_format stream pgn; do
  mkdir -p "corpus/$t"
  [ -f "corpus/$t/hexdump" ] || printf 'XQF format

00000000: 5851 0a00 0000 0000 0000 0000 0000 0000
000002a0: 0000 0000 0000 00a0 0000 0000 0000 0000
' > "corpus/$t/hexdump"
  [ -f "corpus/$t/xq-text" ] || printf 'XQF tools 1.0
1. h2e2 h9g7 *
' > "corpus/$t/xq-text"
  [ -f "corpus/$t/untagged-variations" ] || printf '1. h2e2 h9g7 (1... b9c7 2. h0g2) 2. h0g2 *\n\n1. 炮二平五 {中炮} 马８进７ *\n' > "corpus/$t/untagged-variations"
  [ -f "corpus/$t/references" ] || printf '[Red "&#35768;&#38134;&#24029;"]
1. &#28846;二平五 &#39532;８&#x8FDB;７ *
' > "corpus/$t/references"
  [ -f "corpus/$t/text-tail" ] || printf '1. 炮二平五 马8进7 *\n\n-----\n{a note} 1. 炮八平五 马2进3 *\n棋谱由XQStudio生成\n' > "corpus/$t/text-tail"
  [ -f "corpus/$t/text-headers" ] || printf '第一轮\n甲 红先胜 乙\n红方: 丙\n-----\n说明\n1. 炮二平五 马8进7 2. 马二进三 *\n\n丁 红先负 戊\n1. 炮二平五 马８进７ 0-1\n1. 相三进五 象３进５ *\n对局结束\n' > "corpus/$t/text-headers"
  [ -f "corpus/$t/padded" ] || printf '[FEN "3a5/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1"]
{  a  } 1. d1e2 {

[Event "x"]
}

[FEN "4k4/4P4/9/9/9/9/9/9/9/3K5 w"]
*
' > "corpus/$t/padded"
  # DhtmlXQ and DHJHtmlXQ blocks quoted in a PGN comment and tag value, and in JSON records'
  # strings: each file is read as its own format (issue 50).
  [ -f "corpus/$t/quoted-blocks" ] || printf '[Event "x"]\n[Annotator "[DHJHtmlXQ][DHJHtmlXQ_34]7747[/DHJHtmlXQ_34][/DHJHtmlXQ]"]\n{see [DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]} 1. h2e2 h9g7 *\n\n[Event "y"]\n1. h2e2 *\n' > "corpus/$t/quoted-blocks"
  [ -f "corpus/$t/quoted-blocks-json" ] || printf '{"tags":[["Event","x"]],"fen":null,"result":"*","comment":"see [DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]","nodes":[{"id":1,"parent":0,"move":"h2e2","text":"h2e2","comment":null,"comment_before":null,"nags":[]}]}\n{"tags":[["Event","y"]],"fen":null,"result":"*","comment":null,"nodes":[]}\n' > "corpus/$t/quoted-blocks-json"
done
# The stream target reads libraries too: the corpus's small CCBridge files, and a plain library
# of two entries (one deleted) written here around the corpus's CBR record.
if [ ! -d corpus/stream-libraries ]; then
  seed stream "$shared/ccbridge"
  cbr="$shared/ccbridge/walker8088__cchess/tests/data/test.cbr"
  [ ! -f "$cbr" ] || python3 - "$cbr" corpus/stream/plain-library << 'EOF'
import struct, sys
record = open(sys.argv[1], 'rb').read()
slot = record + bytes(-len(record) % 4096)
library = bytearray(66624 + 2 * 276)
library[:16] = b'CCBridgeLibrary\0'
struct.pack_into('<I', library, 60, 2)
for i, state in enumerate((5, 7)):
    struct.pack_into('<I', library, 66624 + i * 276, state)
    struct.pack_into('<I', library, 66624 + i * 276 + 12, len(record))
open(sys.argv[2], 'wb').write(bytes(library) + slot + slot)
EOF
  mkdir -p corpus/stream-libraries
fi
if [ ! -d corpus/replay ]; then
  mkdir -p corpus/replay
  for i in 0 1 2 3 4 5; do printf "\\x0$i\\x01\\x02\\x03\\x04\\x05\\x06" > "corpus/replay/$i"; done
  printf '\x04\x80\x0b\x01\x01' > corpus/replay/raw
fi

# book: ElephantEye books qipu builds from the fixtures (seeded apart: it came later).
if [ ! -d corpus/book ]; then
  mkdir -p corpus/book
  (cd .. && cargo run --quiet --release -- book build fixtures/pgn --limit 20 -q -o fuzz/corpus/book/twenty.dat &&
    cargo run --quiet --release -- book build fixtures/pgn --limit 2 --depth 4 -q -o fuzz/corpus/book/two.dat) ||
    printf '\x01\x02\x03\x04\x05\x06\x07\x08' > corpus/book/one-record
fi
# roundtrip: the any_format seeds, once they are all written (seeded apart: it came later).
if [ ! -d corpus/roundtrip ]; then
  mkdir -p corpus/roundtrip
  cp corpus/any_format/* corpus/roundtrip/
fi

mkdir -p logs
fuzz build
run() {
  local t=$1
  fuzz run "$t" "corpus/$t" -- -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 > "logs/$t.log" 2>&1 && echo "$t: done" || echo "$t: FAILED (see logs/$t.log)"
}
i=0
for t in "${targets[@]}"; do
  run "$t" &
  i=$((i + 1))
  if [ $((i % ${FUZZ_AT_ONCE:-2})) -eq 0 ]; then wait; fi
done
wait
for t in "${targets[@]}"; do
  printf '%-12s %s\n' "$t" "$(grep -E '^#[0-9]+.*DONE|Done [0-9]+ runs|stat::number_of_executed_units' "logs/$t.log" | tail -1)"
done

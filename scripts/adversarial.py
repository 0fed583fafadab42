#!/usr/bin/env python3
"""Runs qipu on adversarial inputs, generated here, and prints the time and
peak memory of each (/usr/bin/time), so that a reader slower than linear or a
memory not bounded by its budget shows: every input is made at 1, 2, 4, 8 and
16 MB, and the time must double with it (the ratio column stays near 2).

Then special files and long games, and the hostile cases of output read back
as input, quoted blocks, odd tag names, caches, disks and engines, each with its
time, peak memory, exit code and what it shows (a count of games or of lines).

Usage: python3 scripts/adversarial.py [--sizes 1,2,4,8,16] [--only NAME,...]
       [--hostile-only]
(from the repository root; builds the release binary first).
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# QIPU in the environment: that binary, not built here.
QIPU = os.environ.get("QIPU") or os.path.join(ROOT, "target", "release", "qipu")
MB = 1 << 20

LEGAL = "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 h7i7 5. h0h6 b7a7 "


def repeat_to(unit, size):
    """`unit` repeated to `size` bytes (whole units)."""
    unit = unit.encode() if isinstance(unit, str) else unit
    return unit * max(1, size // len(unit))


def numbered(make, size):
    """Units made by `make(i)` up to `size` bytes."""
    out, n, i = [], 0, 0
    while n < size:
        u = make(i).encode()
        out.append(u)
        n += len(u)
        i += 1
    return b"".join(out)


# Each case: name, the file name's extension, and the bytes for a size.
CASES = {
    "dhtmlxq-open-blocks": ("txt", lambda s: repeat_to("[DhtmlXQ]", s)),
    "dhtmlxq-open-tags": ("txt", lambda s: b"[DhtmlXQ]" + repeat_to("[DhtmlXQ_title]x", s)),
    "dhtmlxq-distinct-tags": ("txt", lambda s: b"[DhtmlXQ]" + numbered(lambda i: f"[DhtmlXQ_t{i}]v[/DhtmlXQ_t{i}]", s) + b"[/DhtmlXQ]"),
    "dhtmlxq-branches": ("txt", lambda s: b"[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]" + numbered(lambda i: f"[DhtmlXQ_move_{i}_2_{i + 1}]7062[/DhtmlXQ_move_{i}_2_{i + 1}]", s) + b"[/DhtmlXQ]"),
    "dhtmlxq-comments-one-line": ("html", lambda s: b"<p>[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]" + numbered(lambda i: f"[DhtmlXQ_comment{i % 3}]c{i}[/DhtmlXQ_comment{i % 3}]", s) + b"[/DhtmlXQ]</p>"),
    "pgn-distinct-tags": ("pgn", lambda s: numbered(lambda i: f'[T{i} "v"]\n', s) + b"1. h2e2 *\n"),
    "pgn-games": ("pgn", lambda s: repeat_to(f'[Event "x"]\n{LEGAL}*\n\n', s)),
    "pgn-open-comment": ("pgn", lambda s: b'[Event "x"]\n1. h2e2 {' + repeat_to("words of a comment that never ends\n", s)),
    "pgn-comments": ("pgn", lambda s: b'[Event "x"]\n1. h2e2 ' + repeat_to("{c}\n", s) + b"*\n"),
    "pgn-open-variations": ("pgn", lambda s: b'[Event "x"]\n1. h2e2 h9g7 ' + repeat_to("(1... b9c7\n", s) + b"*\n"),
    "pgn-closed-variations": ("pgn", lambda s: b'[Event "x"]\n1. h2e2 h9g7 ' + repeat_to("(1... b9c7)\n", s) + b"*\n"),
    "pgn-nags": ("pgn", lambda s: b'[Event "x"]\n1. h2e2 ' + repeat_to("$1\n", s) + b"*\n"),
    "pgn-move-numbers": ("pgn", lambda s: b'[Event "x"]\n' + repeat_to("1.\n", s) + b"*\n"),
    "pgn-blank-lines": ("pgn", lambda s: b'[Event "x"]\n' + repeat_to("\n", s) + b"1. h2e2 *\n"),
    "pgn-stray-parens": ("pgn", lambda s: b'[Event "x"]\n1. h2e2 ' + repeat_to(")\n", s) + b"*\n"),
    "pgn-footer-after-result": ("pgn", lambda s: b'[Event "x"]\n1. h2e2 1-0\n' + repeat_to("text after the result\n", s)),
    "text-games": ("txt", lambda s: repeat_to("红方 vs 黑方\n1. 炮二平五 马８进７ 2. 马二进三 车９平８\n", s)),
    "text-untagged-variations": ("txt", lambda s: repeat_to("1. h2e2 h9g7 (1... b9c7 2. h0g2) 2. h0g2 *\n\n", s)),
    "text-one-line": ("txt", lambda s: repeat_to("炮二平五 马８进７ ", s)),
    "json-lines": ("json", lambda s: repeat_to('{"tags":[["Event","x"]],"fen":null,"result":"*","comment":null,"nodes":[{"id":1,"parent":0,"move":"h2e2","text":"h2e2"}]}\n', s)),
    "pfc-nesting": ("pfc", lambda s: b'<n version="2" m="">' + repeat_to('<n m="h2e2" c="">', s)),
    "pfc-siblings": ("pfc", lambda s: b'<n version="2" m="">' + repeat_to('<n m="h2e2" c="&quot;c&quot; &amp; d"/>\n', s) + b"</n>"),
    "dhj-open-tags": ("txt", lambda s: b"[DHJHtmlXQ]" + repeat_to("[DHJHtmlXQ_11]x", s)),
    "dhj-comments": ("txt", lambda s: b"[DHJHtmlXQ][DHJHtmlXQ_34]72427967[/DHJHtmlXQ_34]" + numbered(lambda i: f"[game_comment_0_{i % 3}]c{i}[/comment_0_{i % 3}]", s) + b"[/DHJHtmlXQ]"),
    "wxf-games": ("wxf", lambda s: repeat_to("FORMAT  WXF\nRED     a ; 1200 ;;\nRESULT  1-0\nSTART{\n 1. C2.5 h8+7   2. H2+3 r9.8 }END\n", s)),
    "wxf-distinct-keys": ("wxf", lambda s: b"FORMAT  WXF\n" + numbered(lambda i: f"K{i}   v\n", s) + b"START{\n 1. C2.5 }END\n"),
}


def run(args, stdin=None):
    """(seconds, peak KB, exit code) of qipu run with `args`."""
    seconds, kb, code, _ = run_told(args, stdin)
    return seconds, kb, code


def run_told(args, stdin=None, shell=None):
    """(seconds, peak KB, exit code, lines of standard output and error) of
    qipu run with `args`, or of the shell command `shell` (`QIPU` in it is
    the binary; the time and peak are those of the whole command)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as timing:
        if shell:
            cmd = ["/usr/bin/time", "-o", timing.name, "-f", "%e %M", "bash", "-c", shell.replace("QIPU", QIPU)]
        else:
            cmd = ["/usr/bin/time", "-o", timing.name, "-f", "%e %M", QIPU] + args
        p = subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        seconds, kb = timing.read().strip().splitlines()[-1].split()
    lines = p.stdout.decode(errors="replace").splitlines()
    return float(seconds), int(kb), p.returncode, lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1,2,4,8,16")
    parser.add_argument("--only", default="")
    parser.add_argument("--command", default="validate")
    parser.add_argument("--hostile-only", action="store_true")
    opts = parser.parse_args()
    sizes = [int(s) for s in opts.sizes.split(",")]
    only = [o for o in opts.only.split(",") if o]
    if not os.environ.get("QIPU"):
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    work = tempfile.mkdtemp(prefix="qipu-adversarial-")
    if opts.hostile_only:
        return hostile(work)
    print(f"| input | {' | '.join(f'{s} MB' for s in sizes)} | time ratio per doubling | peak memory |")
    print(f"|---|{'---|' * len(sizes)}---|---|")
    for name, (ext, make) in CASES.items():
        if only and name not in only:
            continue
        times, peaks = [], []
        for size in sizes:
            path = os.path.join(work, f"{name}-{size}.{ext}")
            with open(path, "wb") as f:
                f.write(make(size * MB))
            seconds, kb, _ = run([opts.command, path])
            times.append(seconds)
            peaks.append(kb)
            os.remove(path)
        ratios = [b / a for a, b in zip(times, times[1:]) if a >= 0.05]
        ratio = f"{max(ratios):.2f}" if ratios else "(too fast to tell)"
        cells = " | ".join(f"{t:.2f} s" for t in times)
        print(f"| {name} | {cells} | {ratio} | {max(peaks) / 1024:.0f} MB |", flush=True)
    special(work)
    hostile(work)


def special(work):
    """Special files and long games: time and peak memory, one run each."""
    print("\n| special input | command | time | peak memory | exit |")
    print("|---|---|---|---|---|")
    games = os.path.join(work, "games.pgn")
    with open(games, "wb") as f:
        f.write(repeat_to(f'[Event "x"]\n{LEGAL}*\n\n', 100 * MB))

    def row(what, args, stdin=None, shell=None):
        if shell:
            cmd = f"/usr/bin/time -f '%e %M' {QIPU} {shell} > /dev/null"
            p = subprocess.run(["bash", "-c", cmd], stderr=subprocess.PIPE)
            seconds, kb = p.stderr.decode().strip().splitlines()[-1].split()
            seconds, kb, code = float(seconds), int(kb), p.returncode
        else:
            seconds, kb, code = run(args, stdin)
        print(f"| {what} | `qipu {shell or ' '.join(args)}` | {seconds:.2f} s | {kb / 1024:.0f} MB | {code} |", flush=True)

    row("/dev/zero", ["validate", "/dev/zero"])
    row("a FIFO fed 600 MB of PGN", [], shell=f"validate <(for i in 1 2 3 4 5 6; do cat {games}; done)")
    row("100 MB PGN through a process substitution", [], shell=f"validate <(cat {games})")
    row("the same file", ["validate", games])
    many = os.path.join(work, "many")
    os.makedirs(many)
    random.seed(1)
    long_game = "[Event \"long\"]\n" + " ".join(["h0g2 h9g7 g2h0 g7h9"] * 12_500) + " *\n"
    for i in range(256):
        with open(os.path.join(many, f"{i:03}.pgn"), "w") as f:
            f.write(long_game)
    row("256 files of 500 KB, 50,000 plies a game", ["fen", "--format", "json", many])
    huge = os.path.join(work, "huge.pgn")
    with open(huge, "w") as f:
        f.write("[Event \"huge\"]\n")
        for _ in range(100):
            f.write(" ".join(["h0g2 h9g7 g2h0 g7h9"] * 25_000))
            f.write("\n")
        f.write("*\n")
    row("one game of 10,000,000 plies", ["validate", huge])
    row("one game of 10,000,000 plies", ["convert", "--to", "json", huge])
    row("--jobs 18446744073709551615", ["validate", "--jobs", "18446744073709551615", games])


def summary(lines):
    """The summary line among `lines` (the last that counts games)."""
    told = [l for l in lines if " game(s): " in l]
    return told[-1] if told else "(no summary)"


def hostile(work):
    """Output read back as input, quoted blocks deciding a format, odd tag
    names, long header text, names that would drive a terminal, caches,
    disks and engines: each case once, with what it shows."""
    print("\n| hostile case | command | time | peak memory | exit | shows |")
    print("|---|---|---|---|---|---|")
    fixtures = os.path.join(ROOT, "fixtures", "pgn")
    engine = "python3 " + os.path.join(ROOT, "tests", "engines", "fake_engine.py")

    def row(what, shell, shows):
        seconds, kb, code, lines = run_told([], shell=shell)
        told = shows(lines)
        shown = shell.replace(QIPU, "qipu").replace("QIPU", "qipu").replace(work + "/", "")
        print(f"| {what} | `{shown}` | {seconds:.2f} s | {kb / 1024:.0f} MB | {code} | {told} |", flush=True)

    folder = os.path.join(work, "folder")
    os.makedirs(folder)
    for name in sorted(os.listdir(fixtures)):
        if name.endswith(".pgn"):
            with open(os.path.join(fixtures, name), "rb") as src, open(os.path.join(folder, name), "wb") as dst:
                dst.write(src.read())
    row("a folder converted into itself", f"QIPU convert {folder} --to pgn > {folder}/out.pgn", summary)
    row("the folder after (its out.pgn a whole copy)", f"QIPU validate {folder}", summary)
    first = os.path.join(folder, sorted(os.listdir(folder))[0])
    row("an input appended to itself", f"QIPU convert {first} --to pgn >> {first}", summary)
    os.symlink(first, os.path.join(work, "link.pgn"))
    row("a file named twice, by a link and in its folder",
        f"QIPU validate {first} {work}/link.pgn {folder}", summary)

    quoted = os.path.join(work, "quoted.pgn")
    block = "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]"
    with open(quoted, "w") as f:
        for i in range(10_000):
            f.write(f'[Event "{i}"]\n[Annotator "{block}"]\n{{see {block}}} 1. h2e2 h9g7 *\n\n')
    row("PGN of 10,000 games quoting a DhtmlXQ block (tag, comment)", f"QIPU validate {quoted}", summary)
    row("the same as JSON, read back", f"QIPU convert {quoted} --to json -q -o {work}/quoted.json && QIPU validate {work}/quoted.json", summary)

    tags = os.path.join(work, "tags.json")
    with open(tags, "w") as f:
        odd = [["Event", "x"], ["Who?", "a"], ["A.B", "b"], ["new\nline", "c"], ["nul\u0000", "d"]]
        f.write(json.dumps({"tags": odd, "nodes": [{"id": 1, "parent": 0, "move": "h2e2"}]}) + "\n")
    row("tag names holding ?, ., a newline, NUL, written as PGN and read back",
        f"QIPU convert {tags} --to pgn -q -o {work}/tags.pgn && QIPU validate {work}/tags.pgn", summary)
    many = os.path.join(work, "many-tags.json")
    with open(many, "w") as f:
        f.write(json.dumps({"tags": [[f"t.{i}", "v"] for i in range(600_000)], "nodes": []}) + "\n")
    row("600,000 tag names PGN cannot hold", f"QIPU convert {many} --to pgn -o {work}/many-tags.pgn",
        lambda lines: f"{len(lines)} lines told")

    long_event = "象" * 40_000
    header = os.path.join(work, "long-header.pgn")
    with open(header, "w", encoding="utf-8") as f:
        f.write(f'[Event "{long_event}"]\n1. h2e2 h9g7 *\n')
    row("40,000 Chinese characters in a tag, written as XQF", f"QIPU convert {header} --to xqf -o {work}/long-header.xqf", summary)

    deep = os.path.join(work, "deep.pgn")
    cycle = ["h0g2", "h9g7", "g2h0", "g7h9"]
    words = ['[Event "deep"]\n', cycle[0]]
    for k in range(20_000):
        words += ["b0c2" if (k + 1) % 2 == 0 else "b9c7", "(", cycle[(k + 1) % 4]]
    words += ["b0c2" if 20_001 % 2 == 0 else "b9c7"] + [")"] * 20_000 + ["*"]
    with open(deep, "w") as f:
        f.write(" ".join(words) + "\n")
    row("variations nested 20,000 deep, as the HTML viewer (shown in Chromium by scripts/html-viewer-check.sh)",
        f"QIPU convert {deep} --to html -o {work}/deep.html", summary)

    names = os.path.join(work, "names.pgn")
    with open(names, "w") as f:
        f.write('[Red "\x1b[31mred\x1b[0m\r1391 game(s): forged"]\n[Black "\u202eevil"]\n1. h2e2 *\n')
    def raw(lines):
        out = subprocess.run([QIPU, "stats", names], capture_output=True).stdout
        bad = sum(out.count(c) for c in (b"\x1b", b"\r", "\u202e".encode()))
        return f"{bad} raw escapes, CRs or bidi overrides in the report"
    row("names driving the terminal, in stats", f"QIPU stats {names}", raw)

    big = os.path.join(work, "big-comment.json")
    with open(big, "w") as f:
        comment = ("c" * 79 + "\n") * 220_000
        f.write(json.dumps({"tags": [["Event", "x"]], "nodes": [{"id": 1, "parent": 0, "move": "h2e2", "comment": comment}]}) + "\n")
    row("a comment of 17 MB (JSON), written as JSON and read back", f"QIPU convert {big} --to json -o {work}/big.json && QIPU validate {work}/big.json", summary)
    row("the same written as PGN (a game past 16 MB): told it will not read back",
        f"QIPU convert {big} --to pgn -o {work}/big.pgn",
        lambda lines: next((l for l in lines if "will not read back" in l), "(no warning)"))
    row("disk full (standard output to /dev/full)", f"QIPU convert {folder} --to pgn > /dev/full",
        lambda lines: f"{len(lines)} lines told")

    game = os.path.join(work, "game.pgn")
    with open(game, "w") as f:
        f.write("[Event \"t\"]\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 *\n")
    cache = os.path.join(work, "cache.db3")
    run_told([], shell=f"QIPU analyse {game} --engine '{engine}' --cache {cache} -o {work}/a.pgn")
    locker = subprocess.Popen([sys.executable, "-c", "import sqlite3, sys, time\n"
                               "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                               "c.execute('BEGIN EXCLUSIVE')\nprint(flush=True)\ntime.sleep(600)\n", cache],
                              stdout=subprocess.PIPE)
    locker.stdout.readline()
    with open(game, "a") as f:
        f.write("\n[Event \"u\"]\n1. b2e2 h9g7 2. b0c2 i9h9 3. a0b0 b9c7 4. b0b6 *\n")
    row("a cache locked by another program", f"QIPU analyse {game} --engine '{engine}' --cache {cache} -o {work}/b.pgn",
        lambda lines: next((l for l in lines if "the cache failed" in l), "(no warning)"))
    locker.kill()
    row("an engine crashing while its helper holds its output (timeout 10 min)",
        f"QIPU analyse {game} --engine '{engine} --mode crash --when 3 --child adversarial-helper' --timeout 600000 -o {work}/c.pgn",
        lambda lines: summary(lines) + ("; the helper outlived qipu" if subprocess.run(["pgrep", "-f", "adversarial-helper"], capture_output=True).stdout else "; no helper left"))


if __name__ == "__main__":
    sys.exit(main())

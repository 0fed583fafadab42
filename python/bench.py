#!/usr/bin/env python3
"""Times qipu from Python, the qipu command and the cchess package on the same records.

Two inputs from the development corpus (`../shared/corpus` beside the repository):

- xqf: every `*.xqf` / `*.XQF` file under `xqf/` (one game a file);
- pgn: the CCPD set, `pgn/Yvonne761__Chinese-Chess-Practical-Dataset` (Big5, one game
  a file), which qipu reads as one concatenated file.

For each input an evenly spaced sample of `--games N` files is replayed by cchess
(`read_from_xqf` / `read_from_pgn`, then `Game.verify_moves`), by qipu from Python
(`qipu.validate(paths, jobs=1)`, and iterating `qipu.read(...)` touching `game.status`)
and by the command (`qipu validate --jobs 1 --format json PATHS`); qipu is timed again on
the games both read in full, and on the whole set. cchess runs once (it is slow), qipu
best of `--repeat` runs.

cchess reads PGN in UTF-8 with simplified Chinese moves only, one game a file, split on
single spaces; for it (and only for it, outside the timing) each CCPD game is decoded
from Big5, its traditional piece and direction characters are mapped to simplified ones
and runs of spaces are collapsed, into a file of its own.

    python3 python/bench.py [--games N] [--qipu PATH] [--corpus DIR] [--json]
"""

import argparse
import contextlib
import importlib.metadata
import io
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CCPD = "pgn/Yvonne761__Chinese-Chess-Practical-Dataset"
EXAMPLES = 5

# Traditional characters of CCPD moves and the simplified ones cchess knows.
SIMPLIFIED = str.maketrans(
    {"車": "车", "俥": "车", "馬": "马", "傌": "马", "進": "进", "後": "后",
     "帥": "帅", "將": "将", "砲": "炮", "\u3000": " "}
)


class CchessTimeout(BaseException):
    """Raised in a cchess call that ran past the per-game limit (not an Exception, so
    that cchess' own `except Exception` clauses cannot swallow it)."""


def parse_args():
    """The command line."""
    parser = argparse.ArgumentParser(
        description="Time cchess, qipu from Python and the qipu command on the same "
        "XQF and PGN records, and say where cchess and qipu disagree.",
        epilog="Example: python3 python/bench.py --games 300 --json",
    )
    parser.add_argument("--games", type=int, default=None, metavar="N",
                        help="sample size per input, timed on cchess and qipu "
                        "(default: 300 XQF and 800 PGN, about 20-30 s of cchess each)")
    parser.add_argument("--qipu", metavar="PATH", default=None,
                        help="the qipu binary (default: target/release/qipu of the repository, "
                        "else $CARGO_TARGET_DIR/release/qipu)")
    parser.add_argument("--corpus", metavar="DIR", default=str(ROOT.parent / "shared" / "corpus"),
                        help="the corpus folder (default: ../shared/corpus beside the repository)")
    parser.add_argument("--inputs", default="xqf,pgn",
                        help="which inputs, comma-separated: xqf, pgn (default: both)")
    parser.add_argument("--repeat", type=int, default=3, metavar="K",
                        help="runs of each qipu timing, the best one kept (default: 3)")
    parser.add_argument("--cchess-timeout", type=float, default=5.0, metavar="S",
                        help="seconds cchess may spend on one game before it is given up "
                        "(default: 5; some opening trees take cchess minutes)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    unknown = set(args.inputs.split(",")) - {"xqf", "pgn"}
    if unknown:
        parser.error(f"--inputs: unknown input(s): {', '.join(sorted(unknown))}")
    return args


def log(message):
    """A progress line on standard error."""
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- inputs


def list_files(folder, suffix):
    """Files under `folder` whose name ends with `suffix` (any case), sorted."""
    found = []
    for directory, _, names in os.walk(folder, followlinks=True):
        for name in names:
            if name.lower().endswith(suffix):
                path = os.path.join(directory, name)
                if os.path.isfile(path):
                    found.append(path)
    return sorted(found)


def sample(files, n):
    """`n` files spread evenly over `files` (all of them when there are fewer)."""
    if n >= len(files):
        return list(files)
    return [files[i * len(files) // n] for i in range(n)]


def concatenate(files, target):
    """Writes the bytes of `files` one after the other into `target`, a newline between
    two files when one does not end with it; returns `target`."""
    with open(target, "wb") as out:
        for path in files:
            data = Path(path).read_bytes()
            out.write(data)
            if data and not data.endswith(b"\n"):
                out.write(b"\n")
    return target


class Input:
    """One input: its files, how qipu reads a set of them, how cchess reads one."""

    def __init__(self, name, files, tmp, corpus):
        self.name = name
        self.corpus = corpus
        self.files = files
        self.tmp = tmp

    def qipu_paths(self, files, label):
        """The paths qipu is given for `files`: the files themselves for XQF, one
        concatenated file for PGN."""
        if self.name == "xqf":
            return list(files)
        return [concatenate(files, os.path.join(self.tmp, f"{label}.pgn"))]

    def unplayed(self, cchess_path, plies):
        """The first move of a PGN file cchess did not play, after `plies` of them
        (None for XQF, or when the file has no such move)."""
        if self.name != "pgn":
            return None
        results = ("*", "1-0", "0-1", "1/2-1/2")
        moves = [word for line in Path(cchess_path).read_text(encoding="utf-8").splitlines()
                 if not line.startswith("[") for word in line.split()
                 if not word.endswith(".") and word not in results]
        return moves[plies] if plies < len(moves) else None

    def cchess_paths(self, files):
        """The files cchess is given: the same XQF files; PGN rewritten in the dialect
        it reads (UTF-8, simplified characters, single spaces)."""
        if self.name == "xqf":
            return list(files)
        folder = os.path.join(self.tmp, "cchess")
        os.makedirs(folder, exist_ok=True)
        paths = []
        for i, path in enumerate(files):
            text = Path(path).read_bytes().decode("cp950", errors="replace")
            lines = (" ".join(line.translate(SIMPLIFIED).split()) for line in text.splitlines())
            target = os.path.join(folder, f"{i:05}.pgn")
            Path(target).write_text("\n".join(lines) + "\n", encoding="utf-8")
            paths.append(target)
        return paths


def find_inputs(corpus, wanted, tmp):
    """The inputs found in the corpus, by name."""
    inputs = {}
    if "xqf" in wanted:
        files = list_files(os.path.join(corpus, "xqf"), ".xqf")
        if files:
            inputs["xqf"] = Input("xqf", files, tmp, corpus)
        else:
            log(f"no XQF file under {corpus}/xqf: the xqf input is left out")
    if "pgn" in wanted:
        files = list_files(os.path.join(corpus, CCPD), ".pgn")
        if files:
            inputs["pgn"] = Input("pgn", files, tmp, corpus)
        else:
            log(f"no PGN file under {corpus}/{CCPD}: the pgn input is left out")
    return inputs


# ---------------------------------------------------------------- cchess


def load_cchess():
    """The cchess module, or None when it is not installed."""
    try:
        import cchess  # noqa: PLC0415
    except ImportError:
        return None
    return cchess


def on_alarm(signum, frame):
    """The per-game limit ran out."""
    raise CchessTimeout()


def cchess_game(cchess, kind, path, limit):
    """Reads and replays one game with cchess: (status, main-line plies, detail, seconds).
    Status is valid, illegal (verify_moves refused a move), unreadable (the reader
    failed) or timeout."""
    reader = cchess.read_from_xqf if kind == "xqf" else cchess.read_from_pgn
    start = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                game = reader(path)
            except Exception as error:  # noqa: BLE001 - any failure of cchess is counted
                return ("unreadable", 0, f"{type(error).__name__}: {error}", time.perf_counter() - start)
            if game is None:
                return ("unreadable", 0, "not read (no XQ signature)", time.perf_counter() - start)
            plies = len(game.move_line_to_list())
            try:
                game.verify_moves()
            except Exception as error:  # noqa: BLE001
                return ("illegal", plies, f"{type(error).__name__}: {error}", time.perf_counter() - start)
            return ("valid", plies, "", time.perf_counter() - start)
    except CchessTimeout:
        return ("timeout", 0, f"over {limit:g} s", time.perf_counter() - start)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def run_cchess(cchess, kind, paths, limit):
    """cchess on every path: one result tuple each."""
    previous = signal.signal(signal.SIGALRM, on_alarm)
    try:
        results = [cchess_game(cchess, kind, path, limit) for path in paths]
    finally:
        signal.signal(signal.SIGALRM, previous)
    return results


# ---------------------------------------------------------------- qipu


def load_qipu():
    """The qipu Python module, or None when it is not installed.

    The folder of this script holds the package's source (``python/qipu``),
    which Python would import first: without its built extension (after
    ``pip install ./python``) it is no package, so the installed one is
    looked for instead."""
    here = Path(__file__).resolve().parent
    if not any((here / "qipu").glob("_qipu*.so")) and not any((here / "qipu").glob("_qipu*.pyd")):
        sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    try:
        import qipu  # noqa: PLC0415
    except ImportError:
        return None
    if not hasattr(qipu, "validate") or not hasattr(qipu, "read"):
        return None
    return qipu


def qipu_binary(option):
    """The qipu binary to run, or None when there is none."""
    if option:
        return option if os.path.isfile(option) else None
    candidates = [ROOT / "target" / "release" / "qipu"]
    if os.environ.get("CARGO_TARGET_DIR"):
        candidates.append(Path(os.environ["CARGO_TARGET_DIR"]) / "release" / "qipu")
    for candidate in candidates:
        if candidate.is_file():
            return str(candidate)
    return None


def best_of(runs, work):
    """Runs `work` `runs` times: (the shortest time, the last result)."""
    best, result = None, None
    for _ in range(runs):
        start = time.perf_counter()
        result = work()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, result


def cli_validate(binary, paths):
    """`qipu validate --jobs 1 --format json PATHS`: its JSON objects."""
    done = subprocess.run([binary, "validate", "--jobs", "1", "--format", "json", *paths],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"qipu validate exited with {done.returncode}: "
                           f"{done.stderr.decode('utf-8', 'replace').strip()[:300]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith(b"{")]


def read_options(qipu):
    """`jobs=1` when `qipu.read` takes it (to compare with `--jobs 1`), else nothing."""
    try:
        qipu.read(b"", jobs=1)
    except TypeError:
        return {}
    except Exception:  # noqa: BLE001 - empty input may be refused; the keyword was taken
        return {"jobs": 1}
    return {"jobs": 1}


def py_read(qipu, paths, options):
    """Iterates `qipu.read` over the paths touching each game's status: the game count."""
    source = paths[0] if len(paths) == 1 else paths
    count = 0
    for game in qipu.read(source, **options):
        _ = game.status
        count += 1
    return count


def time_qipu(qipu, binary, paths, runs):
    """The qipu timings of one set of paths: rows (tool, games, seconds) and the errors
    of the tools that failed."""
    work = []
    if qipu is not None:
        options = read_options(qipu)
        work.append(("qipu.validate", lambda: len(qipu.validate(paths, jobs=1))))
        work.append(("qipu.read", lambda: py_read(qipu, paths, options)))
    if binary is not None:
        work.append(("qipu CLI", lambda: len(cli_validate(binary, paths))))
    rows, errors = [], []
    for tool, run in work:
        try:
            seconds, games = best_of(runs, run)
        except Exception as error:  # noqa: BLE001 - told, and the other tools still timed
            errors.append(f"{tool}: {type(error).__name__}: {error}")
            continue
        rows.append((tool, games, seconds))
    return rows, errors


# ---------------------------------------------------------------- comparison


def verdicts(binary, qipu, files):
    """qipu's verdict on each file (one game a file): {path: (status, plies)}, from one
    untimed run on the files themselves, so that every game keeps its file's name."""
    if qipu is not None:
        objects = qipu.validate(files, jobs=1)
    elif binary is not None:
        objects = cli_validate(binary, files)
    else:
        return None
    found = {}
    for item in objects:
        if item.get("index", 0) == 0:
            error = item.get("error") or {}
            found[item["source"]] = (item["status"], item.get("plies") or 0,
                                     error.get("message") or "")
    return found


def compare(item, files, cchess_files, cchess_results, qipu_verdicts):
    """Where cchess and qipu disagree on the sample: counts, examples and the files both
    read in full (cchess valid with qipu's main-line plies, qipu valid)."""
    counts, examples, both = {}, {}, []
    for path, mine, (status, plies, detail, seconds) in zip(files, cchess_files, cchess_results):
        q_status, q_plies, q_message = qipu_verdicts.get(path, ("missing", 0, ""))
        if q_status == "valid":
            if status == "valid" and plies == q_plies:
                kind = None
                both.append((path, seconds))
            elif status == "valid" and plies < q_plies:
                kind = "stopped short"
                detail = f"cchess {plies} plies, qipu {q_plies}"
                move = item.unplayed(mine, plies)
                if move:
                    detail += f"; cchess did not play {move}"
            elif status == "valid":
                kind = "more plies"
                detail = f"cchess {plies} plies, qipu {q_plies}"
            else:
                kind = {"unreadable": "failed to read", "illegal": "judged illegal",
                        "timeout": "gave up (timeout)"}[status]
        elif status == "valid":
            kind = f"valid for cchess, {q_status} for qipu"
            detail = f"cchess {plies} plies; qipu: {q_message}"
        else:
            kind = None
        if kind:
            counts[kind] = counts.get(kind, 0) + 1
            if len(examples.setdefault(kind, [])) < EXAMPLES:
                examples[kind].append(f"{os.path.relpath(path, item.corpus)}: {detail}")
    return counts, examples, both


# ---------------------------------------------------------------- report


def bench_input(item, args, cchess, qipu, binary):
    """Every timing of one input: its rows, ratios, disagreements."""
    n = args.games or {"xqf": 300, "pgn": 800}[item.name]
    picked = sample(item.files, n)
    rows, result = [], {"files": len(item.files), "sample": len(picked)}

    def add(label, tool, games, seconds):
        rows.append({"set": label, "tool": tool, "games": games, "seconds": seconds,
                     "games_per_s": games / seconds if seconds > 0 else None})

    both = None
    if cchess is not None:
        log(f"{item.name}: cchess on {len(picked)} games (one run)...")
        cchess_files = item.cchess_paths(picked)
        cchess_results = run_cchess(cchess, item.name, cchess_files, args.cchess_timeout)
        add("sample", "cchess", len(cchess_results), sum(r[3] for r in cchess_results))
        try:
            found = verdicts(binary, qipu, picked)
        except Exception as error:  # noqa: BLE001 - the comparison is information only
            log(f"{item.name}: qipu's verdicts could not be had: {error}")
            found = None
        if found is not None:
            counts, examples, both = compare(item, picked, cchess_files, cchess_results, found)
            result["disagreements"] = counts
            result["examples"] = examples
            seconds = sum(s for _, s in both)
            result["both_read"] = len(both)
            if both:
                add("both read", "cchess", len(both), seconds)
        result["cchess_statuses"] = {
            status: sum(1 for r in cchess_results if r[0] == status)
            for status in ("valid", "illegal", "unreadable", "timeout")}
    sets = [("sample", picked)]
    if both:
        sets.append(("both read", [path for path, _ in both]))
    sets.append(("whole", item.files))
    for label, files in sets:
        if qipu is None and binary is None:
            break
        log(f"{item.name}: qipu on the {label} set ({len(files)} files, best of {args.repeat})...")
        paths = item.qipu_paths(files, label.replace(" ", "-"))
        timed, errors = time_qipu(qipu, binary, paths, args.repeat)
        for tool, games, seconds in timed:
            add(label, tool, games, seconds)
        for error in errors:
            log(f"{item.name}, {label} set: {error}")
            result.setdefault("errors", []).append(f"{label} set: {error}")
    result["rows"] = rows
    result["ratios"] = ratios(rows)
    return result


SETS = ("sample", "both read", "whole")

# Each ratio: its name, the tool measured, what it is measured against, the target.
RATIOS = (
    ("qipu.validate / cchess, speed", "qipu.validate", "cchess", ">= 500x"),
    ("qipu.read / cchess, speed", "qipu.read", "cchess", ">= 500x"),
    ("qipu CLI / cchess, speed", "qipu CLI", "cchess", "(reference)"),
    ("qipu.validate / CLI, time", "qipu.validate", "qipu CLI", "<= 1.5x"),
    ("qipu.read / CLI, time", "qipu.read", "qipu CLI", "<= 1.5x"),
)


def ratios(rows):
    """Speed over cchess speed and time over CLI time, by ratio and set."""
    by = {(r["set"], r["tool"]): r for r in rows}
    found = {}
    for name, tool, other, target in RATIOS:
        values = {}
        for label in SETS:
            mine, theirs = by.get((label, tool)), by.get((label, other))
            if mine is None or theirs is None:
                continue
            if other == "cchess" and mine["games_per_s"] and theirs["games_per_s"]:
                values[label] = mine["games_per_s"] / theirs["games_per_s"]
            elif other != "cchess" and theirs["seconds"] > 0:
                values[label] = mine["seconds"] / theirs["seconds"]
        if values:
            found[name] = {"target": target, **values}
    return found


def versions(cchess, qipu, binary):
    """The versions of Python, cchess and qipu (package and binary)."""
    found = {"python": platform.python_version(), "python_executable": sys.executable}
    if cchess is not None:
        try:
            found["cchess"] = importlib.metadata.version("cchess")
        except importlib.metadata.PackageNotFoundError:
            found["cchess"] = "unknown"
    if qipu is not None:
        found["qipu_python"] = getattr(qipu, "__version__", None) or "unknown"
    if binary is not None:
        done = subprocess.run([binary, "--version"], capture_output=True, text=True, check=False)
        found["qipu_binary"] = f"{done.stdout.strip()} ({binary})"
    return found


def print_text(report):
    """The results as a table for people."""
    for key, value in report["versions"].items():
        print(f"{key}: {value}")
    for note in report["notes"]:
        print(f"note: {note}")
    for name, item in report["inputs"].items():
        print()
        print(f"== {name}: {item['files']} files, sample of {item['sample']} "
              f"(paths below relative to {report['options']['corpus']}) ==")
        print(f"{'set':<10} {'tool':<14} {'games':>6} {'seconds':>10} {'games/s':>11}")
        for row in item["rows"]:
            rate = f"{row['games_per_s']:.1f}" if row["games_per_s"] else "-"
            print(f"{row['set']:<10} {row['tool']:<14} {row['games']:>6} "
                  f"{row['seconds']:>10.4f} {rate:>11}")
        if item["ratios"]:
            print()
            print(f"{'ratio':<31} {'sample':>9} {'both read':>10} {'whole':>8}  target")
            for name, values in item["ratios"].items():
                cells = [f"{values[label]:.2f}x" if label in values else "-" for label in SETS]
                print(f"{name:<31} {cells[0]:>9} {cells[1]:>10} {cells[2]:>8}  {values['target']}")
            print()
        for error in item.get("errors", []):
            print(f"  error: {error}")
        if "cchess_statuses" in item:
            print(f"  cchess verdicts on the sample: {item['cchess_statuses']}")
        if "disagreements" in item:
            print(f"  read in full by both: {item.get('both_read', 0)} of {item['sample']}")
            for kind, count in item["disagreements"].items():
                print(f"  {kind}: {count}")
                for example in item["examples"][kind]:
                    print(f"    {example}")


def main():
    """Runs the benchmark."""
    args = parse_args()
    cchess, qipu = load_cchess(), load_qipu()
    binary = qipu_binary(args.qipu)
    notes = []
    if cchess is None:
        notes.append("cchess is not installed (pip install cchess): its timings are left out")
    if qipu is None:
        notes.append("the qipu Python package is not installed (cd python && maturin develop "
                     "--release): its timings are left out")
    if binary is None:
        notes.append(f"no qipu binary at {args.qipu or 'target/release/qipu'}: build it with "
                     "`cargo build --release` or give --qipu PATH; CLI timings are left out")
    for note in notes:
        log(note)
    report = {"versions": versions(cchess, qipu, binary), "notes": notes, "inputs": {},
              "options": {"games": args.games, "repeat": args.repeat,
                          "cchess_timeout": args.cchess_timeout, "corpus": args.corpus}}
    with tempfile.TemporaryDirectory(prefix="qipu-bench-") as tmp:
        inputs = find_inputs(args.corpus, set(args.inputs.split(",")), tmp)
        if not inputs:
            log(f"nothing to time: no input found under {args.corpus}")
            return 2
        for name, item in inputs.items():
            report["inputs"][name] = bench_input(item, args, cchess, qipu, binary)
    if args.json:
        json.dump(report, sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        print_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The batch functions and the reader release the GIL: other Python threads run
while they work, and two threads replay games at the same time (``stats``,
whose answer is small: ``validate`` builds a dict per game, with the GIL, at
its end)."""

import threading
import time

import qipu


def _paths(fixture, copies, tmp_path):
    # Copies, not the same file named again (which is read once).
    data = fixture.read_bytes()
    paths = []
    for i in range(copies):
        path = tmp_path / f"copy-{i}.pgn"
        path.write_bytes(data)
        paths.append(path)
    return paths


def test_python_runs_while_a_batch_works(fixture, tmp_path):
    # While validate runs in Rust, this thread keeps running Python code.
    done = threading.Event()
    ticks = []
    paths = _paths(fixture, 30, tmp_path)

    def work():
        qipu.validate(paths, jobs=1)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    assert len(ticks) > 20, f"only {len(ticks)} ticks while validating: the GIL was held"


def test_two_threads_replay_at_the_same_time(fixture, tmp_path):
    # Each thread notes when its call starts and ends: with the GIL held
    # through a call, the second could start only after the first ended.
    paths = _paths(fixture, 25, tmp_path)
    spans = []

    def one():
        start = time.perf_counter()
        qipu.stats(paths, jobs=1)
        spans.append((start, time.perf_counter()))

    workers = [threading.Thread(target=one) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    (a_start, a_end), (b_start, b_end) = sorted(spans)
    assert b_start < a_end, f"the calls did not overlap: {spans}"


def test_python_runs_while_an_index_builds(fixture, tmp_path):
    # build_index releases the GIL while it reads and writes.
    done = threading.Event()
    ticks = []
    paths = _paths(fixture, 30, tmp_path)

    def work():
        qipu.build_index(paths, tmp_path / "copies.qidx", jobs=1)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    assert len(ticks) > 20, f"only {len(ticks)} ticks while building an index: the GIL was held"
    assert qipu.Index(tmp_path / "copies.qidx").games > 0

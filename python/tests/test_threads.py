"""The batch functions and the reader release the GIL: other Python threads run
while they work, and two threads replaying games take less than twice one
(``stats``, whose answer is small: ``validate`` builds a dict per game, with
the GIL, at its end)."""

import threading
import time

import qipu


def _paths(fixture, copies):
    return [fixture] * copies


def test_python_runs_while_a_batch_works(fixture):
    # While validate runs in Rust, this thread keeps running Python code.
    done = threading.Event()
    ticks = []

    def work():
        qipu.validate(_paths(fixture, 30), jobs=1)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    assert len(ticks) > 20, f"only {len(ticks)} ticks while validating: the GIL was held"


def test_two_threads_replay_in_parallel(fixture):
    paths = _paths(fixture, 25)

    def one():
        qipu.stats(paths, jobs=1)

    def timed(threads):
        start = time.perf_counter()
        workers = [threading.Thread(target=one) for _ in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        return time.perf_counter() - start

    one()  # warm the caches
    # The best of three, so that a busy machine does not decide.
    single = min(timed(1) for _ in range(3))
    double = min(timed(2) for _ in range(3))
    assert double < 1.9 * single, f"one thread {single:.3f} s, two {double:.3f} s"

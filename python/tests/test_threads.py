"""The core runs without the GIL, and several threads may call it at once."""
import threading

import traincost
from traincost import _core
from conftest import EXAMPLES, exact


def test_the_gil_is_released_while_the_core_runs():
    traincost.analyze(EXAMPLES[0], samples=100)
    assert _core._last_call_held_gil() is False
    traincost.evaluate(EXAMPLES[0])
    assert _core._last_call_held_gil() is False


def test_threads_get_the_serial_results():
    expected = {path: exact(traincost.analyze(path, samples=2000, seed=3)) for path in EXAMPLES}
    results, errors = {}, []

    def work(path):
        try:
            results[path] = exact(traincost.analyze(path, samples=2000, seed=3))
        except BaseException as e:  # reported below: an exception in a thread would be lost
            errors.append(e)

    threads = [threading.Thread(target=work, args=(path,)) for path in EXAMPLES]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and results == expected

"""Times the Python package: import, one `evaluate` and one 20,000-sample `analyze` of an example
scenario (median of several calls, after one warm-up). Prints JSON for scripts/bench-packages.
Usage: PYTHONPATH=build/native/python python3 bench/packages.py SCENARIO [REPEATS]"""
import json
import statistics
import sys
import time

start = time.perf_counter()
import traincost  # noqa: E402  (timed)
import_ms = (time.perf_counter() - start) * 1000


def median_ms(fn, repeats):
    fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


path, repeats = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
with open(path, encoding="utf-8") as f:
    scenario = json.load(f)
print(json.dumps({
    "import_ms": import_ms,
    "evaluate_ms": median_ms(lambda: traincost.evaluate(scenario), repeats * 10),
    "analyze_ms": median_ms(lambda: traincost.analyze(scenario, samples=20000, seed=1), repeats),
}))

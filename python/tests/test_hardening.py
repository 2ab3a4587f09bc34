"""Issue 33, items 2, 3 and 10: the package reads files through the CLI's bounded reader, works
the same under a comma-decimal locale, and raises ScenarioError (never another exception) for
every input it cannot use."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import threading

import pytest

import traincost
from conftest import EXAMPLES, SOURCE_DIR, run_cli

LIMIT = 1 << 20
EXAMPLE = os.path.join(SOURCE_DIR, "assets", "scenarios", "llama3-8b-pretrain.json")
CONFIG = os.path.join(SOURCE_DIR, "tests", "fuzz", "corpus", "hf_config")


def refused(fn, *args, **kwargs):
    with pytest.raises(traincost.ScenarioError) as info:
        fn(*args, **kwargs)
    error = info.value
    assert len(error.problems) == 1, error.problems
    return error


def read_message(fn, target, error="invalid scenario"):
    e = refused(fn, target)
    assert e.error == error
    assert e.problems[0]["path"] == ""
    return e.problems[0]["message"]


def cli_read_message(path):
    status, out, err = run_cli("evaluate", path)
    assert status == 2 and out == ""
    assert err.startswith("traincost: ") and err.count("\n") == 1, err
    return err[len("traincost: "):-1]


# ---- item 2: one bounded reader -------------------------------------------------------------

@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_refused_unread_whatever_names_it(tmp_path, device):
    link = tmp_path / "z.json"
    link.symlink_to(device)
    for fn, error in ((traincost.evaluate, "invalid scenario"), (traincost.analyze, "invalid scenario"),
                      (traincost.encode_link, "invalid scenario"), (traincost.import_hf, "invalid config")):
        for target in (str(link), link, device, pathlib.Path(device)):
            message = read_message(fn, target, error)
            assert message.endswith(": it is a terminal or a device, not a file"), message
    # The same words as the CLI's.
    assert read_message(traincost.evaluate, str(link)) == cli_read_message(str(link))


def test_a_directory_is_refused(tmp_path):
    folder = tmp_path / "scenarios.json"
    folder.mkdir()
    for target in (str(folder), folder, str(tmp_path), tmp_path, "."):
        assert read_message(traincost.evaluate, target).endswith(": it is a directory")
    assert read_message(traincost.import_hf, folder, "invalid config").endswith(": it is a directory")
    assert read_message(traincost.evaluate, str(folder)) == cli_read_message(str(folder))


def test_a_named_pipe_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    outcome = []

    def attempt():
        for target in (str(fifo), fifo):
            try:
                traincost.evaluate(target)
                outcome.append("read")
            except traincost.ScenarioError as e:
                outcome.append(e.problems[0]["message"])
            except Exception as e:  # pragma: no cover - reported below
                outcome.append(repr(e))

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(30)
    if worker.is_alive():
        with open(fifo, "wb"):  # release the blocked reader so the test process can end
            pass
        pytest.fail("evaluate() waited on a named pipe nobody writes into")
    assert len(outcome) == 2
    for message in outcome:
        assert message.startswith(f"cannot read {fifo}: it is a named pipe"), message


@pytest.mark.parametrize("size", [LIMIT + 1, 3 << 30], ids=["1MiB+1", "sparse-3GiB"])
def test_a_file_over_1_mib_is_refused_from_its_size(tmp_path, size):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(size)  # sparse: no disk, and nothing is read
    for target in (str(big), big):
        assert read_message(traincost.evaluate, target).endswith(
            ": it is larger than 1 MiB (1048576 bytes), the most TrainCost reads")
    assert read_message(traincost.import_hf, big, "invalid config").endswith("the most TrainCost reads")
    assert read_message(traincost.evaluate, str(big)) == cli_read_message(str(big))


def test_a_file_of_exactly_1_mib_is_read(tmp_path):
    with open(EXAMPLE, "rb") as f:
        text = f.read()
    exact = tmp_path / "exact.json"
    exact.write_bytes(text + b"\n" * (LIMIT - len(text)))
    assert traincost.evaluate(exact) == traincost.evaluate(EXAMPLE) == traincost.evaluate(pathlib.Path(EXAMPLE))


def test_a_missing_or_unreadable_file_is_a_scenario_error(tmp_path):
    missing = tmp_path / "no-such.json"
    assert read_message(traincost.evaluate, str(missing)) == f"cannot read {missing}: No such file or directory"
    assert read_message(traincost.evaluate, missing) == cli_read_message(str(missing))
    if os.geteuid() != 0:
        locked = tmp_path / "locked.json"
        shutil.copy(EXAMPLE, locked)
        locked.chmod(0)
        assert read_message(traincost.evaluate, locked).endswith(": Permission denied")


def test_a_config_path_is_read_by_the_same_reader(tmp_path):
    config = os.path.join(CONFIG, "llama3-8b.json")
    if not os.path.exists(config):
        config = sorted(p for p in os.listdir(CONFIG) if not p.startswith("bad"))[0]
        config = os.path.join(CONFIG, config)
    with open(config, "rb") as f:
        assert traincost.import_hf(pathlib.Path(config)) == traincost.import_hf(f.read())


# ---- item 3: no locale reaches the numbers --------------------------------------------------

LOCALE_PROGRAM = r"""
import json, locale, sys
import traincost
example = sys.argv[1]
before = (traincost.evaluate(example), traincost.explain(example), traincost.encode_link(example),
          traincost.analyze(example, samples=200), traincost.schema())
locale.setlocale(locale.LC_ALL, sys.argv[2])
assert locale.localeconv()["decimal_point"] == ",", locale.localeconv()
after = (traincost.evaluate(example), traincost.explain(example), traincost.encode_link(example),
         traincost.analyze(example, samples=200), traincost.schema())
assert "%.2f" % 1.5 == "1.50"  # Python's own formatting is not the C library's
decoded = traincost.decode_link(after[2]["link"])
assert traincost.evaluate(decoded["scenario"]) == before[0]
print(json.dumps([before == after, json.dumps(after[0])[:0]]))
"""


def comma_locale(tmp_path_factory):
    """A locale whose decimal point is a comma: the system's de_DE.UTF-8 or fr_FR.UTF-8, else one
    built with localedef into a temporary LOCPATH. None when neither is possible."""
    import locale
    for name in ("de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8"):
        try:
            old = locale.setlocale(locale.LC_NUMERIC)
            locale.setlocale(locale.LC_NUMERIC, name)
            locale.setlocale(locale.LC_NUMERIC, old)
            return name, {}
        except locale.Error:
            pass
    localedef = shutil.which("localedef")
    if not localedef or not os.path.isdir("/usr/share/i18n/locales"):
        return None
    where = tmp_path_factory.mktemp("locales")
    done = subprocess.run([localedef, "-i", "de_DE", "-f", "UTF-8", str(where / "de_DE.UTF-8")], capture_output=True)
    if not (where / "de_DE.UTF-8").is_dir():
        return None
    return "de_DE.UTF-8", {"LOCPATH": str(where)}


@pytest.mark.parametrize("example", [EXAMPLE, os.path.join(SOURCE_DIR, "assets", "scenarios", "mixtral-moe.json")],
                         ids=["llama3-8b", "mixtral-moe"])
def test_results_and_links_do_not_depend_on_the_locale(tmp_path_factory, example):
    found = comma_locale(tmp_path_factory)
    if found is None:
        pytest.skip("no comma-decimal locale here and no localedef with /usr/share/i18n to build one")
    name, env = found
    done = subprocess.run([sys.executable, "-c", LOCALE_PROGRAM, example, name], capture_output=True, text=True,
                          env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0] is True


# ---- item 10: every bad input is a ScenarioError -------------------------------------------

def cyclic():
    d = json.load(open(EXAMPLE, encoding="utf-8"))
    d["workloads"][0]["model"]["self"] = d
    return d


def deep():
    d = {}
    for _ in range(100000):
        d = {"a": d}
    return d


class Throwing:
    def __str__(self):
        raise RuntimeError("no text")

    __repr__ = __str__


class BadPath(os.PathLike):
    def __fspath__(self):
        raise RuntimeError("no path")


@pytest.mark.parametrize("value,words", [
    (cyclic(), "Circular reference"),
    (deep(), "nested too deeply"),
    ({"version": 1, "workloads": {1, 2}}, "type set is not a JSON value"),
    ({"version": 1, (1, 2): 3}, "keys must be"),
    ({"version": 1, "name": Throwing()}, "type Throwing is not"),
    ({"version": 1, "name": "a\ud800b"}, "surrogate U+D800"),  # json.dumps escapes it: the core names the field
    ("{\"name\": \"\udfff\"}", "lone surrogate U+DFFF at character 11"),
    (BadPath(), "is not a usable path (RuntimeError: no path)"),
    (object(), "type object is not"),
], ids=["cycle", "deep", "set", "tuple-key", "throwing-str", "surrogate-in-dict", "surrogate-in-text",
        "throwing-fspath", "object"])
def test_values_that_cannot_become_json_text(value, words):
    for fn in (traincost.evaluate, traincost.explain, traincost.encode_link, traincost.analyze, traincost.sweep):
        e = refused(fn, value)
        assert e.error == "invalid scenario" and e.problems[0]["path"] in ("", "name"), e.problems
        assert words in e.problems[0]["message"], e.problems
    assert refused(traincost.import_hf, value).error == "invalid config"


@pytest.mark.parametrize("options,words", [
    ({"samples": object()}, "type object is not"),
    ({"samples": {1}}, "type set is not a JSON value"),
    ({"seed": "\ud800"}, "surrogate U+D800"),
], ids=["object", "set", "surrogate"])
def test_options_that_cannot_become_json_text(options, words):
    e = refused(traincost.analyze, EXAMPLE, **options)
    assert e.error == "invalid options" and e.problems[0]["path"] in ("options", "options.seed"), e.problems
    assert words in e.problems[0]["message"]


@pytest.mark.parametrize("link,words", [
    (Throwing(), "cannot be turned into text (RuntimeError: no text)"),
    ("#s=1.\ud800", "lone surrogate U+D800 at character 6"),
    (b"#s=1.\xff", ""),
    (12, ""),
], ids=["throwing-str", "surrogate", "bytes", "number"])
def test_links_that_cannot_be_read(link, words):
    e = refused(traincost.decode_link, link)
    assert e.error == "invalid link" and words in e.problems[0]["message"]


def test_no_other_exception_for_bad_text():
    for text in ("", "\x00", "{" * 100000, "{\"version\": 1}\x00junk", b"\xff\xfe{\x00}\x00", "x" * (LIMIT + 1)):
        with pytest.raises(traincost.ScenarioError):
            traincost.evaluate(text)

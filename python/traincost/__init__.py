"""TrainCost: what it costs to *finish* an LLM training job on AWS Trainium or on NVIDIA GPUs.

The same C++ cost core as the ``traincost`` command-line tool and the web calculator, so every
number is bit for bit what they compute. A scenario is a ``dict`` in the scenario format (see
``schema()`` and docs/scenario-format.md), its JSON text, or the path of a scenario file;
results are plain ``dict``s with the keys of the CLI's ``--format json`` output.

    >>> import traincost
    >>> s = {"version": 1,
    ...      "workloads": [{"model": {"params": 8.03e9}, "target": {"tokens": 2e12}, "runs": 6}],
    ...      "options": [{"instance": "trn2.48xlarge", "instances": 16},
    ...                  {"instance": "p5.48xlarge", "instances": 32}]}
    >>> print(traincost.evaluate(s)["workloads"][0]["verdict"])           # doctest: +SKIP

Invalid input raises ``ScenarioError``; its ``problems`` name each offending field with the
CLI's message, e.g. ``{"path": "options[1].price_usd_per_hour", "message": "must be > 0, got -3"}``.
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Mapping, Optional, Union

from . import _core

__all__ = [
    "ScenarioError",
    "evaluate",
    "analyze",
    "pilot",
    "sweep",
    "card",
    "compare",
    "explain",
    "encode_link",
    "decode_link",
    "catalog",
    "import_hf",
    "read_log",
    "schema",
    "replay",
    "version",
    "__version__",
]

#: What the functions accept as a scenario: a dict (or anything else ``json.dumps`` can write),
#: JSON text (``str`` or ``bytes``), or the path of a JSON file (``str`` or ``pathlib.Path``).
Scenario = Union[Mapping[str, Any], str, bytes, "os.PathLike[str]"]
#: A result: the JSON document the CLI prints, as nested dicts and lists.
Result = Dict[str, Any]


class ScenarioError(ValueError):
    """Invalid input: a scenario, link, Hugging Face config or analyze option the core rejects, a
    file that cannot be read (missing, a directory, a device, a named pipe, over 1 MiB), or a Python
    value that cannot become JSON text (a cycle, a set, a lone surrogate, nesting too deep). Every
    bad input raises it, never another exception.

    Attributes:
        error: what was invalid: "invalid scenario", "invalid options", "invalid link" or
            "invalid config".
        problems: every problem found, each ``{"path": ..., "message": ...}`` with the path of the
            offending field ("" for the document itself) and the message the CLI prints.
    """

    def __init__(self, error: str, problems: List[Dict[str, str]]):
        # Both in args, so the exception pickles (multiprocessing) and compares like the original.
        super().__init__(error, problems)
        self.error = error
        self.problems = problems

    def __str__(self) -> str:
        lines = [p["path"] + ": " + p["message"] if p["path"] else p["message"] for p in self.problems]
        return "\n  ".join([f"{self.error} ({len(lines)} problem{'' if len(lines) == 1 else 's'}):"] + lines)


def _jsonable(value: Any) -> Any:
    """json.dumps fallback: NumPy and pandas scalars (sweeps often produce them) as Python numbers."""
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    raise TypeError(f"type {type(value).__name__} is not a JSON value (dict, list, str, number, bool, None)")


def _refuse(error: str, path: str, message: str) -> "ScenarioError":
    return ScenarioError(error, [{"path": path, "message": message}])


def _read(name: Any, error: str) -> bytes:
    """A file's bytes through the core's reader, the CLI's: at most 1 MiB; a directory, a device
    (/dev/zero), a named pipe or a file too large is refused unread, as ScenarioError."""
    path = os.fsencode(name)
    ok, data = _core.read_file(path)
    if not ok:
        raise _refuse(error, "", f"cannot read {os.fsdecode(path)}: {data.decode('utf-8', 'replace')}")
    return data


def _utf8(text: str, error: str, path: str) -> bytes:
    """Text as UTF-8; a lone surrogate (which UTF-8 cannot hold) is refused, never replaced."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise _refuse(error, path, f"is not well-formed Unicode: a lone surrogate U+{ord(text[e.start]):04X} "
                                   f"at character {e.start + 1}") from None


def _dumps(value: Any, error: str, path: str) -> bytes:
    """A Python value as JSON text; what cannot be written (a cycle, a set, nesting deeper than
    Python recurses, a throwing __str__ of a key) is ScenarioError, like any other bad input."""
    try:
        text = json.dumps(value, default=_jsonable)
    except RecursionError:
        raise _refuse(error, path, "cannot be turned into JSON text (it is nested too deeply)") from None
    except (TypeError, ValueError, OverflowError) as e:
        raise _refuse(error, path, f"cannot be turned into JSON text ({e})") from None
    except Exception as e:  # a throwing default, __str__ or mapping method of the caller's object
        raise _refuse(error, path, f"cannot be turned into JSON text ({type(e).__name__}: {e})") from None
    return _utf8(text, error, path)


def _looks_like_a_path(text: str) -> bool:
    # Scenarios and configs start with "{" (JSON text); a name that ends in .json or names
    # something that exists (a file, a directory, a pipe) is read as a file, so a missing
    # "x.json" or a directory says so rather than giving a confusing JSON syntax error.
    if text.lstrip().startswith(("{", "[")):
        return False
    try:
        return text.endswith(".json") or os.path.lexists(text)
    except (ValueError, OSError):
        return False


def _text(document: Any, error: str = "invalid scenario") -> bytes:
    """JSON text for the core: text passes through, a file is read, anything else is serialized.
    Every input that cannot become text raises ScenarioError with `error`."""
    if isinstance(document, str):
        return _read(document, error) if _looks_like_a_path(document) else _utf8(document, error, "")
    if isinstance(document, bytes):
        return document
    if isinstance(document, bytearray):
        return bytes(document)
    if isinstance(document, os.PathLike):
        try:
            name = os.fspath(document)
        except Exception as e:
            raise _refuse(error, "", f"is not a usable path ({type(e).__name__}: {e})") from None
        return _read(name, error)
    # Anything else (a list, a number) is written as JSON too, so the core answers with the
    # CLI's message ("must be an object") rather than Python inventing one.
    return _dumps(document, error, "")


def _options(options: Mapping[str, Any]) -> bytes:
    return _dumps(options, "invalid options", "options")


def _call(name: str, *args: Union[str, bytes]) -> Any:
    ok, reply = _core.call(name, *args)
    result = json.loads(reply)
    if not ok:
        raise ScenarioError(result["error"], result["problems"])
    return result


def evaluate(scenario: Scenario) -> Result:
    """Cost of every option for every workload, the verdicts and the portfolio.

    The result is ``traincost evaluate FILE --format json``: ``workloads[i].options[j]`` holds
    ``cost_per_run_usd``, ``horizon_cost_usd``, ``wall_clock_hours``, the cost breakdown, the
    memory fit and the break-even against the reference option; ``workloads[i].verdict`` is the
    one-sentence answer; ``portfolio`` covers all workloads together.

    Raises ScenarioError when the scenario is invalid.
    """
    return _call("evaluate", _text(scenario))


def analyze(scenario: Scenario, *, samples: Optional[int] = None, seed: Optional[int] = None,
            workload: Optional[int] = None) -> Result:
    """How sure is the verdict: one-at-a-time sensitivity and a Monte Carlo over the ranged inputs.

    The result is ``traincost analyze FILE --format json`` (``sensitivity``: the tornado rows,
    largest swing first; ``monte_carlo``: probabilities and percentiles per option).

    Args:
        samples: Monte Carlo samples, 100 to 1,000,000 (default: the scenario's ``analysis.samples``).
        seed: random seed, 0 to 2**53-1 (default: the scenario's ``analysis.seed``). The same seed
            gives the same numbers here, in the CLI and in the browser.
        workload: index of the workload to analyse (default 0).

    The GIL is released while the core computes, so other threads keep running.

    Raises ScenarioError when the scenario or an option is invalid.
    """
    options = {k: v for k, v in (("samples", samples), ("seed", seed), ("workload", workload)) if v is not None}
    return _call("analyze", _text(scenario), _options(options))


def pilot(scenario: Scenario, *, workload: Optional[int] = None, candidate: Optional[int] = None,
          against: Optional[int] = None, fraction: Optional[float] = None, instances: Optional[int] = None,
          samples: Optional[int] = None, seed: Optional[int] = None) -> Result:
    """What a pilot of the candidate platform must show, what it costs, and whether it is worth
    running before deciding.

    The result is ``traincost pilot FILE --format json``: ``run`` (what to run and its cost:
    porting, compute, compilation), ``pass_marks`` (throughput, convergence and compile time the
    pilot must show; ``rows`` as the CLI prints them), ``thresholds`` (the candidate against the
    incumbent, input by input), ``value`` (the expected value of learning the candidate's throughput
    and convergence penalty, and the net value of piloting), ``recommendation`` ("worth running" or
    "not worth it: decide now") and ``summary``. ``ok`` is False, with a ``reason``, when no plan
    can be made (e.g. a pilot cluster too small to hold the job).

    Args:
        workload: index of the workload (default 0).
        candidate: option to pilot (default: of the two leading options, the one with the larger
            one-time cost, usually the port).
        against: option it is compared with (default: the other leading option).
        fraction: share of a full run's tokens the pilot trains, in (0, 1] (default: the
            candidate's validation run length).
        instances: instances of the pilot cluster, at most the planned ones (default: planned).
        samples, seed: the Monte Carlo behind the value (defaults: the scenario's analysis settings).

    Raises ScenarioError when the scenario or an option is invalid.
    """
    given = (("workload", workload), ("candidate", candidate), ("against", against), ("fraction", fraction),
             ("instances", instances), ("samples", samples), ("seed", seed))
    options = {k: v for k, v in given if v is not None}
    return _call("pilot", _text(scenario), _options(options))


def sweep(scenario: Scenario, *, workload: Optional[int] = None) -> Result:
    """Cost per run and days until the model is done over a range of cluster sizes, per option.

    The result is ``traincost sweep FILE --format json``: ``options``, each with ``points``
    (``instances``, ``days_to_model``, ``cost_per_run_usd``, ``mfu``, ``feasible``, ``in_time``,
    ``status``) at 1, 2, 3, 4, 6, 8, 12, ... instances up to the option's ``max_instances`` (4,096
    without one), and ``evaluated_instances``, the size the results are at (a deadline's, when the
    workload has one); ``deadline_days`` is the workload's deadline or None.

    Args:
        workload: index of the workload to sweep (default 0).

    Raises ScenarioError when the scenario or an option is invalid.
    """
    options = {"workload": workload} if workload is not None else {}
    return _call("sweep", _text(scenario), _options(options))


def compare(model: Union[Scenario, str], *, tokens: Optional[float] = None, instances: Optional[int] = None,
            chips: Optional[int] = None, sort: Optional[str] = None, workload: Optional[int] = None) -> Result:
    """One model on every catalog instance and every way it is priced there (on demand, commitments,
    spot, Capacity Blocks): throughput per chip, MFU, time on the chosen size, compute-only $ per
    million tokens (hardware alone, no one-time costs) and the evidence behind each row.

    The result is ``traincost compare MODEL --format json``: ``rows``, each with ``instance``,
    ``pricing``, ``tokens_per_sec_per_chip``, ``mfu``, ``wall_clock_hours``,
    ``compute_cost_per_million_tokens_usd``, ``evidence`` ("validated", "predicted" or "estimate"),
    ``cells`` (the row as the CLI's table prints it), sorted by ``sort``.

    Args:
        model: a scenario (dict, JSON text or file; its workload ``workload``), a Hugging Face
            config.json (dict or file; then ``tokens`` is required), or a workload preset's name
            ("Mixtral-8x7B-class MoE", or a unique part of it such as "mixtral").
        tokens: the target in tokens (default: the workload's own).
        instances: every row on this many instances; or ``chips``: on the fewest instances with at
            least this many chips. Neither: each sized to finish within 30 days.
        sort: "cost" (default), "time" or "throughput".

    Raises ScenarioError when the input or an option is invalid.
    """
    options = {k: v for k, v in (("tokens", tokens), ("instances", instances), ("chips", chips), ("sort", sort),
                                 ("workload", workload)) if v is not None}
    if isinstance(model, str) and not model.lstrip().startswith(("{", "[", '"')) and not _looks_like_a_path(model):
        text = _dumps(model, "invalid input", "")  # a preset's name
    else:
        text = _text(model, "invalid input")
    return _call("compare", text, _options(options))


def card(scenario: Scenario, *, format: Optional[str] = None, url: Optional[str] = None,
         styles: Optional[str] = None) -> Result:
    """A static card of the answer, for wikis that allow neither scripts nor iframes.

    The result is ``{"format", "card", "link"}``: ``card`` is what ``traincost embed FILE`` prints,
    the verdict, headline figure, what would change the answer and the results table of each
    workload, and a link that opens the scenario in the calculator; every text is escaped and
    there is no script.

    Args:
        format: ``"html"`` (default; one ``<figure>`` with inline styles) or ``"svg"`` (an image).
        url: the calculator page the card links to (default ``calculator.html``): an http(s)
            address or a relative path.
        styles: HTML only. ``"inline"`` (default) or ``"none"``: class names alone, no style
            attributes, for a page that styles the card itself.

    Raises ScenarioError when the scenario or an option is invalid.
    """
    options = {k: v for k, v in (("format", format), ("url", url), ("styles", styles)) if v is not None}
    return _call("card", _text(scenario), _options(options))


def explain(scenario: Scenario) -> Result:
    """Every formula with the scenario's numbers substituted, so each step can be checked by hand.

    The result is ``traincost explain FILE --format json``: per workload and option a list of
    ``steps`` (``quantity``, ``formula``, ``substituted``, ``result``), and ``text``, the whole
    explanation as the CLI prints it.

    Raises ScenarioError when the scenario is invalid.
    """
    return _call("explain", _text(scenario))


def encode_link(scenario: Scenario) -> Result:
    """The share link of a scenario: ``{"fragment": "s=1.…", "link": "#s=1.…"}``.

    Append ``link`` to the calculator's address (``…/calculator.html#s=1.…``); it is the link
    ``traincost link FILE`` prints. Raises ScenarioError when the scenario is invalid.
    """
    return _call("encode_link", _text(scenario))


def decode_link(link: str) -> Result:
    """The scenario in a share link: ``{"scenario": {…}, "notices": […]}``.

    Accepts the payload, ``s=…``, ``#s=…`` or a whole address. ``notices`` says, for example, that
    the link was made with an older catalog. Raises ScenarioError when the link is damaged.
    """
    if isinstance(link, (bytes, bytearray)):
        return _call("decode_link", bytes(link))
    if not isinstance(link, str):
        try:
            link = str(link)
        except Exception as e:
            raise _refuse("invalid link", "link", f"cannot be turned into text ({type(e).__name__}: {e})") from None
    return _call("decode_link", _utf8(link, "invalid link", "link"))


def catalog() -> Result:
    """The built-in hardware catalog: chips, instances and prices, defaults, each figure with its
    source and as-of date (assets/catalog.json; ``traincost catalog --format json``)."""
    return _call("catalog")


def import_hf(config: Scenario) -> Result:
    """A scenario ``model`` block from a Hugging Face ``config.json`` (dict, text or path):
    architecture and parameter count, total and active (mixture of experts). Raises ScenarioError
    when the config lacks what is needed; the problems name the config keys."""
    return _call("import_hf", _text(config, "invalid config"))


def read_log(text: Union[str, bytes]) -> Result:
    """A pilot's training log read into the figures of a scenario's ``pilot`` block (the text of
    the log, not a path): Megatron-LM/NeMo/Megatron-Bridge iteration lines, torchtitan metric
    lines, neuronx-distributed LOG lines or progress bars, a Hugging Face Trainer summary, or a CSV
    ``step,tokens,loss``. The result has ``format``, ``figures`` (each ``{key, value, from}``: which
    lines it came from), ``warmup_skipped``, ``read`` and ``notes``. Raises ScenarioError
    ("unreadable log") when a line cannot be read; the problem names the line."""
    return _call("read_log", text)


def schema() -> Result:
    """Every numeric field of the scenario format (``traincost schema --format json``):
    ``fields[i]`` has ``path``, ``label``, ``unit``, ``min``, ``max``, ``range``, ``default``,
    ``meaning`` and ``typical``."""
    return _call("schema")


def replay() -> Result:
    """Every published training run of assets/published_runs.json replayed with TrainCost's
    defaults (``traincost replay --format json``): ``summary`` (median and worst absolute error
    of predicted vs published chip-hours, over all, calibration and held-out runs) and ``runs``
    (published figures with sources, predicted chip-hours, step MFU, realized MFU, goodput)."""
    return _call("replay")


def version() -> Result:
    """Versions: ``{"traincost", "catalog", "scenario_format", "link_format"}``."""
    return _call("version")


__version__: str = version()["traincost"]

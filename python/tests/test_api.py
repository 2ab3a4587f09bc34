"""The package's surface: functions, documentation, types, and what each returns."""
import inspect
import os

import traincost
from traincost import _core
from conftest import EXAMPLES, SOURCE_DIR

PUBLIC = {"version": "version", "evaluate": "evaluate", "analyze": "analyze", "explain": "explain",
          "encode_link": "encode_link", "decode_link": "decode_link", "catalog": "catalog",
          "import_hf": "import_hf", "schema": "schema", "pilot": "pilot", "sweep": "sweep", "replay": "replay",
          "card": "card", "read_log": "read_log", "compare": "compare"}


def test_every_core_function_has_a_python_function():
    # Adding a function to the core's API (api.cpp) without its Python wrapper fails here.
    assert {name for name, _ in _core.functions()} == set(PUBLIC)
    for name in PUBLIC:
        fn = getattr(traincost, name)
        assert name in traincost.__all__
        assert inspect.getdoc(fn) and len(inspect.getdoc(fn)) > 40, f"{name} needs a docstring"


def test_help_and_stubs():
    assert "ScenarioError" in inspect.getdoc(traincost)
    assert inspect.signature(traincost.analyze).parameters["samples"].kind == inspect.Parameter.KEYWORD_ONLY
    package = os.path.dirname(traincost.__file__)
    for name in ("_core.pyi", "py.typed"):
        assert os.path.isfile(os.path.join(package, name)), name


def test_results_are_plain_data():
    result = traincost.evaluate(EXAMPLES[0])
    assert type(result) is dict and type(result["workloads"]) is list
    assert set(result) == {"traincost_version", "catalog", "workloads", "portfolio"}
    option = result["workloads"][0]["options"][0]
    assert isinstance(option["cost_per_run_usd"], float) and isinstance(option["label"], str)


def test_versions_and_catalog():
    v = traincost.version()
    assert v["traincost"] == traincost.__version__ and v["scenario_format"] == 1 and v["link_format"] == 1
    assert traincost.catalog()["catalog_version"] == v["catalog"]
    assert any(f["path"] == "options[].mfu" for f in traincost.schema()["fields"])


def test_analyze_defaults_come_from_the_scenario():
    a = traincost.analyze(EXAMPLES[0], samples=500)
    assert a["monte_carlo"]["samples"] == 500
    assert traincost.analyze(EXAMPLES[0], samples=500, seed=1) == traincost.analyze(EXAMPLES[0], samples=500, seed=1)


def test_explain_text_and_steps():
    e = traincost.explain(os.path.join(SOURCE_DIR, "assets", "scenarios", "mixtral-moe.json"))
    steps = e["workloads"][0]["options"][0]["steps"]
    assert {"quantity", "formula", "substituted", "result"} == set(steps[0])
    assert steps[0]["quantity"] in e["text"]


def test_numpy_scalars_are_accepted():
    import json
    try:
        import numpy
    except ImportError:
        return
    with open(EXAMPLES[0], encoding="utf-8") as f:
        doc = json.load(f)
    plain = traincost.evaluate(doc)
    doc["workloads"][0]["runs"] = numpy.float64(doc["workloads"][0].get("runs", 1))
    doc["options"][0]["instances"] = numpy.int64(doc["options"][0].get("instances", 1))
    assert traincost.evaluate(doc) == plain


def test_a_missing_file_is_not_taken_for_json():
    import pytest
    # Read through the CLI's reader: a missing file is a ScenarioError saying so (issue 33, item 10).
    with pytest.raises(traincost.ScenarioError, match="cannot read assets/scenarios/no-such-scenario.json: No such file"):
        traincost.evaluate("assets/scenarios/no-such-scenario.json")
    with pytest.raises(traincost.ScenarioError):
        traincost.evaluate("not json")  # text that names no file is JSON text, and invalid


def test_compare_takes_a_preset_a_scenario_and_a_config():
    # Every catalog instance and pricing is a row; compute only is the hardware per run per M tokens.
    c = traincost.compare("mixtral", tokens=1e11, instances=2, sort="time")
    assert c["workload"] == "MoE 47B total / 13B active, 100B tokens, quarterly"
    priced = sum(1 for i in traincost.catalog()["instances"] for p in i["prices"].values() if isinstance(p, dict) and "value" in p)
    assert len(c["rows"]) == priced
    times = [r["wall_clock_hours"] for r in c["rows"] if r["feasible"]]
    assert times == sorted(times)
    for r in c["rows"]:
        if r["feasible"]:
            # hand check of the definition: hardware per run / (tokens / 1e6)
            assert abs(r["compute_cost_per_million_tokens_usd"] - r["hardware_cost_per_run_usd"] / 1e5) < 1e-12
        assert r["evidence"] in ("validated", "predicted", "estimate")
    scenario = os.path.join(SOURCE_DIR, "assets", "scenarios", "llama3-8b-pretrain.json")
    assert traincost.compare(scenario, chips=64)["target_tokens"] == 2e12
    try:
        traincost.compare({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
                           "intermediate_size": 14336, "vocab_size": 128256})
        raise AssertionError("a config needs tokens")
    except traincost.ScenarioError as e:
        assert e.problems[0]["path"] == "options.tokens"


def test_card_without_inline_styles():
    # styles="none": the calculator's own card (its Content-Security-Policy forbids style attributes).
    bare = traincost.card(EXAMPLES[0], styles="none")["card"]
    assert "style=" not in bare and '<p class="verdict">' in bare
    assert "style=" in traincost.card(EXAMPLES[0])["card"]

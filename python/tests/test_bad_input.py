"""Bad input raises ScenarioError with the CLI's messages, for every kind of input."""
import glob
import json
import os
import pickle

import pytest

import traincost
from conftest import SOURCE_DIR, cli_problems, exact, problem_lines, run_cli

# The fuzz corpus and regressions (valid and invalid scenarios) and the CLI tests' bad files.
FILES = sorted(glob.glob(os.path.join(SOURCE_DIR, "tests", "fuzz", "corpus", "scenario", "*"))
               + glob.glob(os.path.join(SOURCE_DIR, "tests", "fuzz", "regressions", "scenario", "*"))
               + [os.path.join(SOURCE_DIR, "tests", "cli", "data", f) for f in ("negative-price.json", "not-json.txt")])
NEGATIVE = {"version": 1, "workloads": [{"model": {"params": 8e9}, "target": {"tokens": 1e11}}],
            "options": [{"instance": "trn2.48xlarge"}, {"instance": "p5.48xlarge", "price_usd_per_hour": -3}]}


def raises(fn, *args, **kwargs):
    with pytest.raises(traincost.ScenarioError) as info:
        fn(*args, **kwargs)
    return info.value


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_files_give_the_clis_results_or_messages(path):
    with open(path, "rb") as f:
        data = f.read()
    status, out, _ = run_cli("evaluate", path, "--format", "json")
    if status == 0:
        assert exact(traincost.evaluate(data)) == exact(json.loads(out))
        return
    expected = cli_problems("evaluate", path)
    for fn in (traincost.evaluate, traincost.analyze, traincost.pilot, traincost.explain, traincost.encode_link):
        error = raises(fn, data)
        assert error.error == "invalid scenario"
        assert problem_lines(error.problems) == expected


def test_the_field_is_named():
    error = raises(traincost.evaluate, NEGATIVE)
    assert error.problems == [{"path": "options[1].price_usd_per_hour", "message": "must be > 0, got -3"}]
    assert str(error) == "invalid scenario (1 problem):\n  options[1].price_usd_per_hour: must be > 0, got -3"
    assert isinstance(error, ValueError)
    copy = pickle.loads(pickle.dumps(error))
    assert copy.problems == error.problems and str(copy) == str(error)
    assert problem_lines(error.problems) == cli_problems("evaluate", "-", stdin=json.dumps(NEGATIVE))


@pytest.mark.parametrize("document", ["", "[]", "null", "3", '"text"', "{}", '{"version": 2}', "{" * 100],
                         ids=["empty", "array", "null", "number", "string", "empty-object", "version-2", "deep"])
def test_wrong_documents_give_the_clis_messages(document):
    assert problem_lines(raises(traincost.evaluate, document).problems) == cli_problems("evaluate", "-", stdin=document)


def test_wrong_python_values_reach_the_core():
    # A list or a number is written as JSON and rejected by the core with its message.
    assert problem_lines(raises(traincost.evaluate, [1, 2]).problems) == cli_problems("evaluate", "-", stdin="[1, 2]")
    assert raises(traincost.evaluate, float("nan")).problems  # NaN is not JSON
    # A set is not a JSON value: refused like any other bad input (issue 33, item 10).
    assert "type set is not a JSON value" in raises(traincost.evaluate, {"workloads": {1, 2}}).problems[0]["message"]


@pytest.mark.parametrize("flags,options", [
    (["--samples", "5"], {"samples": 5}),
    (["--samples", "1000001"], {"samples": 1000001}),
    (["--seed", "-1"], {"seed": -1}),
    (["--seed", "9007199254740992"], {"seed": 2**53}),
    (["--workload", "1"], {"workload": 1}),
], ids=["few-samples", "many-samples", "negative-seed", "big-seed", "no-such-workload"])
def test_analyze_options_give_the_clis_messages(flags, options):
    example = os.path.join(SOURCE_DIR, "assets", "scenarios", "llama3-8b-pretrain.json")
    status, _, err = run_cli("analyze", example, *flags)
    assert status == 1
    error = raises(traincost.analyze, example, **options)
    assert error.error == "invalid options"
    flag = flags[0]
    assert [f"traincost analyze: {flag} {p['message']}" for p in error.problems] == err.splitlines()


def test_analyze_option_types():
    example = os.path.join(SOURCE_DIR, "assets", "scenarios", "mixtral-moe.json")
    assert raises(traincost.analyze, example, samples=2000.5).problems[0]["path"] == "options.samples"
    assert raises(traincost.analyze, example, samples=True).problems[0]["path"] == "options.samples"
    assert raises(traincost.analyze, example, seed="1").problems[0]["path"] == "options.seed"


@pytest.mark.parametrize("flags,options", [
    (["--candidate", "2"], {"candidate": 2}),
    (["--against", "-1"], {"against": -1}),
    (["--fraction", "0"], {"fraction": 0}),
    (["--fraction", "1.5"], {"fraction": 1.5}),
    (["--instances", "0"], {"instances": 0}),
    (["--samples", "5"], {"samples": 5}),
], ids=["no-such-candidate", "negative-against", "zero-fraction", "fraction-above-one", "no-instances", "few-samples"])
def test_pilot_options_give_the_clis_messages(flags, options):
    example = os.path.join(SOURCE_DIR, "assets", "scenarios", "llama3-8b-pretrain.json")
    status, _, err = run_cli("pilot", example, *flags)
    assert status == 1
    error = raises(traincost.pilot, example, **options)
    assert error.error == "invalid options"
    flag = flags[0]
    assert [f"traincost pilot: {flag} {p['message']}" for p in error.problems] == err.splitlines()


def test_pilot_without_a_plan_says_why():
    example = os.path.join(SOURCE_DIR, "assets", "scenarios", "llama3-8b-pretrain.json")
    plan = traincost.pilot(example, instances=17)
    assert plan["ok"] is False and plan["recommendation"] == "no plan" and "larger" in plan["reason"]
    assert raises(traincost.pilot, example, candidate=0, against=0).problems[0]["path"] == "options.against"


def test_sweep_options_give_the_clis_messages():
    example = os.path.join(SOURCE_DIR, "assets", "scenarios", "llama3-8b-pretrain.json")
    status, _, err = run_cli("sweep", example, "--workload", "1")
    assert status == 1
    error = raises(traincost.sweep, example, workload=1)
    assert error.error == "invalid options"
    assert [f"traincost sweep: --workload {p['message']}" for p in error.problems] == err.splitlines()


def test_bad_links_and_configs():
    error = raises(traincost.decode_link, "#s=1.xyz")
    assert error.error == "invalid link"
    status, _, err = run_cli("evaluate", "--link", "#s=1.xyz")
    assert status == 2 and problem_lines(error.problems) == [l[2:] for l in err.splitlines()[1:] if l.startswith("  ")]
    config = os.path.join(SOURCE_DIR, "tests", "fuzz", "corpus", "hf_config", "bad-missing.json")
    error = raises(traincost.import_hf, config)
    assert error.error == "invalid config"
    assert problem_lines(error.problems) == cli_problems("import-hf", config)

"""Every example scenario gives, through the package, the CLI's JSON to the last bit."""
import json
import os

import traincost
from conftest import SOURCE_DIR, cli_json, exact, run_cli


def test_evaluate_equals_cli(example):
    assert exact(traincost.evaluate(example)) == exact(cli_json("evaluate", example, "--format", "json"))


def test_analyze_equals_cli_with_the_scenarios_settings(example):
    assert exact(traincost.analyze(example)) == exact(cli_json("analyze", example, "--format", "json"))


def test_analyze_equals_cli_with_options(example):
    ours = traincost.analyze(example, samples=2000, seed=9, workload=0)
    assert exact(ours) == exact(cli_json("analyze", example, "--samples", "2000", "--seed", "9", "--workload", "0", "--format", "json"))


def test_pilot_equals_cli(example):
    assert exact(traincost.pilot(example)) == exact(cli_json("pilot", example, "--format", "json"))
    ours = traincost.pilot(example, samples=2000, seed=9, fraction=0.02)
    assert exact(ours) == exact(cli_json("pilot", example, "--samples", "2000", "--seed", "9", "--fraction", "0.02", "--format", "json"))


def test_thresholds_are_in_the_results(example):
    for workload in traincost.evaluate(example)["workloads"]:
        comparison = workload["comparison"]
        assert len(comparison["thresholds"]) == 11
        if comparison["decisive_threshold"] >= 0:
            decisive = comparison["thresholds"][comparison["decisive_threshold"]]
            assert comparison["holds_while"] == "Holds while " + decisive["condition"] + "."


def test_sweep_equals_cli(example):
    assert exact(traincost.sweep(example)) == exact(cli_json("sweep", example, "--format", "json"))
    assert exact(traincost.sweep(example, workload=0)) == exact(cli_json("sweep", example, "--workload", "0", "--format", "json"))


def test_compare_equals_cli(example):
    assert exact(traincost.compare(example, instances=8)) == exact(cli_json("compare", example, "--instances", "8", "--format", "json"))


def test_explain_equals_cli(example):
    ours = traincost.explain(example)
    assert exact(ours) == exact(cli_json("explain", example, "--format", "json"))
    status, text, _ = run_cli("explain", example)
    assert status == 0 and ours["text"] == text


def test_links_equal_cli_and_round_trip(example):
    link = traincost.encode_link(example)
    assert exact(link) == exact(cli_json("link", example, "--format", "json"))
    assert link["link"] + "\n" == run_cli("link", example)[1]
    decoded = traincost.decode_link(link["link"])
    assert decoded["notices"] == []
    assert exact(traincost.evaluate(decoded["scenario"])) == exact(traincost.evaluate(example))


def test_every_way_to_pass_a_scenario_gives_the_same_bits(example):
    with open(example, encoding="utf-8") as f:
        text = f.read()
    import pathlib
    expected = exact(traincost.evaluate(example))
    for scenario in (text, text.encode(), json.loads(text), pathlib.Path(example)):
        assert exact(traincost.evaluate(scenario)) == expected


def test_catalog_schema_version_equal_cli():
    assert exact(traincost.catalog()) == exact(cli_json("catalog", "--format", "json"))
    assert exact(traincost.schema()) == exact(cli_json("schema", "--format", "json"))
    assert traincost.version()["traincost"] == run_cli("--version")[1].split()[-1] == traincost.__version__


def test_replay_equals_cli():
    replayed = traincost.replay()
    assert exact(replayed) == exact(cli_json("replay", "--format", "json"))
    assert replayed["summary"]["all"]["runs"] >= 10


def test_import_hf_equals_cli():
    config = os.path.join(SOURCE_DIR, "tests", "cli", "data", "llama3-8b-config.json")
    assert exact(traincost.import_hf(config)) == exact(cli_json("import-hf", config))
    assert traincost.import_hf(config)["params"] == 8030261248

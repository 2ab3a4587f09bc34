"""A few thousand malformed scenarios, links and configs (seeded, so every run feeds the same
ones): each call returns a result or raises ScenarioError, never anything else, and never takes
the interpreter down. A sample of them is checked against the CLI's messages."""
import copy
import json
import random

import traincost
from conftest import EXAMPLES, cli_problems, exact, problem_lines, run_cli

CASES = 3000
TOKENS = ['{', '}', '[', ']', '"', ',', ':', '-', '0', '-1', '1e309', '-1e-400', 'NaN', 'Infinity', 'null', 'true',
          '"x"', '\\u0000', '"\\ud800"', '99999999999999999999999', '{"a":', '\u00e9', '\U0001F600', '\x00', '\xff', ' ']
VALUES = [None, True, False, 0, -1, -0.0, 0.5, 1e308, -1e308, 5e-324, 2**64, "", "x" * 300, "trn2.48xlarge", [], {},
          [None], {"low": 1, "high": 0}, "\u00e9\U0001F600"]


def mutate_text(rng, text):
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(text) + 1)
        op = rng.randrange(5)
        if op == 0:
            text = text[:i] + text[i + rng.randint(1, 20):]
        elif op == 1:
            text = text[:i] + rng.choice(TOKENS) + text[i:]
        elif op == 2:
            j = rng.randrange(len(text) + 1)
            text = text[:i] + text[min(i, j):max(i, j)] + text[i:]
        elif op == 3:
            text = text[:i]
        else:
            text = text[:i] + chr(rng.randrange(32, 127)) + text[i + 1:]
    return text


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for k, v in enumerate(node):
            yield from paths(v, prefix + (k,))


def mutate_document(rng, doc):
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(list(paths(doc)))
        if not path:
            continue
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        op = rng.randrange(3)
        if op == 0:
            parent[path[-1]] = copy.deepcopy(rng.choice(VALUES))
        elif op == 1 and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent["unknown_" + str(rng.randrange(10))] = copy.deepcopy(rng.choice(VALUES))
        else:
            parent.append(copy.deepcopy(rng.choice(VALUES)))
    return doc


def corpus(seed=20250101):
    rng = random.Random(seed)
    texts = []
    for path in EXAMPLES:
        with open(path, encoding="utf-8") as f:
            texts.append(f.read())
    for n in range(CASES):
        base = texts[n % len(texts)]
        if n % 2:
            yield mutate_text(rng, base)
        else:
            yield json.dumps(mutate_document(rng, json.loads(base)), ensure_ascii=bool(n % 4))


def outcome(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except traincost.ScenarioError as e:
        assert e.problems and all(set(p) == {"path", "message"} for p in e.problems), e.problems
        return e


def test_malformed_scenarios_never_crash():
    valid = invalid = 0
    for n, text in enumerate(corpus()):
        result = outcome(traincost.evaluate, text)
        if isinstance(result, traincost.ScenarioError):
            invalid += 1
            # The same input as bytes, and through every function that reads a scenario.
            assert problem_lines(outcome(traincost.evaluate, text.encode("utf-8", "surrogatepass")).problems) == problem_lines(result.problems)
            if n % 10 == 0:
                for fn in (traincost.explain, traincost.encode_link, traincost.analyze):
                    assert isinstance(outcome(fn, text), traincost.ScenarioError)
            if n % 50 == 0:
                assert problem_lines(result.problems) == cli_problems("evaluate", "-", stdin=text), text
        else:
            valid += 1
            assert isinstance(result, dict) and "workloads" in result
            if n % 10 == 0:
                assert isinstance(outcome(traincost.analyze, text, samples=100), (dict, traincost.ScenarioError))
                link = traincost.encode_link(text)["link"]
                assert exact(traincost.evaluate(traincost.decode_link(link)["scenario"])) == exact(result)
            if n % 50 == 0:
                status, out, _ = run_cli("evaluate", "-", "--format", "json", stdin=text)
                assert status == 0 and exact(json.loads(out)) == exact(result)
    assert valid > 0 and invalid > valid  # the corpus reaches both the results and the checks


def test_malformed_links_and_configs_never_crash():
    rng = random.Random(7)
    link = traincost.encode_link(EXAMPLES[0])["link"]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=#s%"
    for _ in range(1000):
        broken = mutate_text(rng, link) if rng.randrange(2) else "".join(rng.choice(alphabet) for _ in range(rng.randrange(80)))
        assert isinstance(outcome(traincost.decode_link, broken), (dict, traincost.ScenarioError))
    config = json.dumps({"hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
                         "intermediate_size": 14336, "vocab_size": 128256, "max_position_embeddings": 8192})
    for _ in range(1000):
        broken = mutate_text(rng, config) if rng.randrange(2) else json.dumps(mutate_document(rng, json.loads(config)))
        assert isinstance(outcome(traincost.import_hf, broken), (dict, traincost.ScenarioError))

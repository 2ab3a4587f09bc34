#!/usr/bin/env python3
"""Checks that the core's includes flow one way (core/layers.txt says which).

  check_includes.py [ROOT]     check the repository at ROOT (default: this checkout)
  check_includes.py --self-test
                               build small trees with known back edges and check each is caught

Prints one line per violation and exits 1 when there is any.
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"traincost/([a-z_]+)/([a-z_]+)\.hpp"', re.M)
BUILTIN = re.compile(r'\bbuiltin_(catalog|published_runs|measurements)\s*\(')
COMMENT = re.compile(r'//[^\n]*|/\*.*?\*/', re.S)


def read_layers(root):
    layers = []
    with open(os.path.join(root, 'core', 'layers.txt'), encoding='utf-8') as f:
        for line in f:
            word = line.split('#', 1)[0].strip()
            if word:
                layers.append(word)
    return layers


def core_files(root):
    """(stage, module, path) of every header and source of the core."""
    for top, ext in (('core/include/traincost', '.hpp'), ('core/src', '.cpp')):
        base = os.path.join(root, top)
        for dirpath, _, names in os.walk(base):
            for name in sorted(names):
                if not name.endswith(ext):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), base)
                parts = rel.split(os.sep)
                stage = parts[0] if len(parts) == 2 else None
                yield stage, name[: -len(ext)], os.path.join(top, rel)


def check(root):
    layers = read_layers(root)
    rank = {name: i for i, name in enumerate(layers)}
    problems = []
    edges = {}  # module -> set of modules it includes
    for stage, module, path in core_files(root):
        if stage not in rank:
            problems.append(f'{path}: not in a stage folder listed in core/layers.txt')
            continue
        with open(os.path.join(root, path), encoding='utf-8') as f:
            text = f.read()
        me = f'{stage}/{module}'
        edges.setdefault(me, set())
        for to_stage, to_module in INCLUDE.findall(text):
            if to_stage not in rank:
                problems.append(f'{path}: includes traincost/{to_stage}/{to_module}.hpp, of no stage')
            elif rank[to_stage] > rank[stage]:
                problems.append(f'{path}: {stage}/ includes {to_stage}/{to_module}.hpp, a later stage '
                                f'(core/layers.txt: {stage} comes before {to_stage})')
            elif f'{to_stage}/{to_module}' != me:
                edges[me].add(f'{to_stage}/{to_module}')
        if stage != 'api' and BUILTIN.search(COMMENT.sub('', text)):
            problems.append(f'{path}: reads the built-in data (builtin_*()) below api/: take it as a parameter')
    problems += [f'include cycle: {" -> ".join(c)}' for c in cycles(edges)]
    return problems


def cycles(edges):
    """One cycle per strongly connected group of modules that include each other."""
    found, state, stack = [], {}, []

    def visit(node):
        state[node] = 'open'
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 'open':
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 'done'

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def self_test():
    """Each back edge the structure issue named, planted in a tree that is otherwise clean."""
    layers = ('base', 'data', 'scenario', 'model', 'evidence', 'engine', 'io', 'output', 'api')
    clean = {
        'core/include/traincost/data/catalog.hpp': '',
        'core/src/data/catalog.cpp': '#include "traincost/data/catalog.hpp"\n',
        'core/include/traincost/scenario/fields.hpp': '#include "traincost/data/catalog.hpp"\n',
        'core/include/traincost/engine/resolve.hpp': '#include "traincost/scenario/fields.hpp"\n',
        'core/src/engine/resolve.cpp': '#include "traincost/engine/resolve.hpp"\n#include "traincost/engine/deadline.hpp"\n',
        'core/include/traincost/engine/deadline.hpp': '#include "traincost/engine/resolve_pair.hpp"\n',
        'core/include/traincost/engine/resolve_pair.hpp': '',
        'core/include/traincost/engine/uncertainty.hpp': '',
        'core/src/io/scenario_json.cpp': '#include "traincost/engine/resolve_pair.hpp"\n',
        'core/include/traincost/output/present.hpp': '',
        'core/src/output/report.cpp': '#include "traincost/output/present.hpp"\n// builtin_catalog() is the api\'s\n',
        'core/src/api/api.cpp': 'const Catalog& c = builtin_catalog();\n',
    }
    planted = {
        'resolve -> deadline -> resolve': ('core/include/traincost/engine/deadline.hpp', '#include "traincost/engine/resolve.hpp"\n'),
        'scenario_json includes present': ('core/src/io/scenario_json.cpp', '#include "traincost/output/present.hpp"\n'),
        'resolve includes present': ('core/src/engine/resolve.cpp', '#include "traincost/output/present.hpp"\n'),
        'fields includes resolve': ('core/include/traincost/scenario/fields.hpp', '#include "traincost/engine/resolve.hpp"\n'),
        'catalog includes fields': ('core/src/data/catalog.cpp', '#include "traincost/scenario/fields.hpp"\n'),
        'uncertainty writes output': ('core/include/traincost/engine/uncertainty.hpp', '#include "traincost/output/present.hpp"\n'),
        'resolve reads the runs': ('core/src/engine/resolve.cpp', 'auto* r = builtin_published_runs().find(id);\n'),
        'report reads the catalog': ('core/src/output/report.cpp', 'j["catalog"] = builtin_catalog().version;\n'),
        'a file outside the stages': ('core/src/loose.cpp', ''),
    }

    def tree(files):
        d = tempfile.mkdtemp()
        os.makedirs(os.path.join(d, 'core'))
        with open(os.path.join(d, 'core', 'layers.txt'), 'w') as f:
            f.write('\n'.join(layers) + '\n')
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(d, path)), exist_ok=True)
            with open(os.path.join(d, path), 'w') as f:
                f.write(text)
        return d

    failures = []
    if check(tree(clean)):
        failures.append(f'the clean tree is flagged: {check(tree(clean))}')
    for name, (path, text) in planted.items():
        files = dict(clean)
        files[path] = files.get(path, '') + text
        if not check(tree(files)):
            failures.append(f'not caught: {name}')
    for line in failures:
        print(line)
    print(f'self-test: {len(planted)} planted back edges, {len(failures)} failures')
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    problems = check(root)
    for p in problems:
        print(p)
    print(f'core includes: {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

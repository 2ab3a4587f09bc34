#!/usr/bin/env python3
"""Prints the size of every file of the built site, raw and gzipped, and what each page transfers
on its first load. Never fails: the budgets are asserted by tests/browser/site.test.mjs, which
measures what Chromium really loads; this is the quick look after every build.

A page's first load is the page plus what its tags fetch (stylesheets, icons, scripts, images;
for a <picture>, its largest candidate) plus, for scripts, the site files they name in string
literals (calculator.js names traincost.js and the fonts, traincost.js names traincost.wasm).
Framed pages (<iframe>) are separate pages with their own budget.

With --npm DIR it also prints the npm package built there (build/wasm/npm/traincost): each file
raw and gzipped, and the size of the tarball `npm pack` would make (a gzipped tar of the files
package.json lists, measured here without running npm).

Usage: size_report.py build/wasm/site [--npm build/wasm/npm/traincost]
"""
import gzip
import io
import json
import os
import re
import sys
import tarfile

BUDGET_CALCULATOR = 562_000   # bytes gzipped, the calculator page's first load (the same as tests/browser/site.test.mjs, which gives its history)
BUDGET_PAGE = 100_000         # every other page
ALREADY_COMPRESSED = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".woff2", ".gz", ".br")


def transfer_size(path):
    """Bytes on the wire: gzip level 6 (what servers commonly use) unless the format is compressed already."""
    with open(path, "rb") as f:
        data = f.read()
    if path.lower().endswith(ALREADY_COMPRESSED):
        return len(data), len(data)
    return len(data), len(gzip.compress(data, compresslevel=6, mtime=0))


def local(root, base_dir, url):
    """The site file a relative URL names, or None for other hosts, data: URLs and fragments."""
    if re.match(r"^[a-z][a-z0-9+.-]*:|^//|^#", url, re.I):
        return None
    path = os.path.normpath(os.path.join(base_dir, url.split("#")[0].split("?")[0]))
    return path if path.startswith(root) and os.path.isfile(path) else None


# The card module (web/card/card_main.cpp): calculator.js loads it only for a scenario of the
# reader's own (a link, the autosave), before the calculator; never for the default example.
CARD_MODULE = ("traincost-card.js", "traincost-card.wasm")


def first_load(root, page, follow_scripts=True, skip=CARD_MODULE):
    """The files a page's first load fetches; `skip`: names in its scripts that it does not fetch then."""
    files = {page}
    with open(page, encoding="utf-8", errors="replace") as f:
        text = f.read()
    base_dir = os.path.dirname(page)
    # <picture>: only one candidate is fetched; count the largest.
    for pic in re.findall(r"<picture\b.*?</picture>", text, re.S | re.I):
        cands = [local(root, base_dir, u.split()[0]) for u in re.findall(r'(?:srcset|src)="([^"]+)"', pic)]
        cands = [c for c in cands if c]
        if cands:
            files.add(max(cands, key=lambda c: transfer_size(c)[1]))
    text = re.sub(r"<picture\b.*?</picture>", "", text, flags=re.S | re.I)
    for tag in re.findall(r"<(?:link|script|img|source)\b[^>]*>", text, re.I):
        for url in re.findall(r'(?:href|src)="([^"]+)"', tag):
            path = local(root, base_dir, url)
            if path:
                files.add(path)
    # Files named by the page's scripts (loaders fetch the module, the wasm and fonts).
    queue = [p for p in files if p.endswith(".js")] if follow_scripts else []
    while queue:
        with open(queue.pop(), encoding="utf-8", errors="replace") as f:
            script = f.read()
        for name in set(re.findall(r"""["']([\w./-]+\.(?:js|wasm|otf|ttf|woff2|json|png|svg))["']""", script)):
            path = local(root, root, name)
            if path and path not in files and os.path.basename(path) not in skip:
                files.add(path)
                if path.endswith(".js"):
                    queue.append(path)
    return files


def kb(n):
    return f"{n / 1000:,.1f} KB"


def npm_report(package):
    """The npm package's files and its packed size (what a project downloads to install it)."""
    try:
        with open(os.path.join(package, "package.json"), encoding="utf-8") as f:
            meta = json.load(f)
    except (OSError, ValueError):
        print(f"size_report: no npm package at {package}")
        return
    names = ["package.json"] + [n for n in meta.get("files", []) if os.path.isfile(os.path.join(package, n))]
    print(f"npm package {meta.get('name')} {meta.get('version')} in {package} (bytes; gzip -6):")
    width = max(len(n) for n in names + ["packed (.tgz)"])
    print(f"  {'file':<{width}}  {'raw':>9}  {'gzipped':>9}")
    for name in names:
        raw, gz = transfer_size(os.path.join(package, name))
        print(f"  {name:<{width}}  {raw:>9,}  {gz:>9,}")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=9) as tar:
        for name in names:
            tar.add(os.path.join(package, name), arcname="package/" + name)
    print(f"  {'packed (.tgz)':<{width}}  {len(buffer.getvalue()):>9,}")


def main():
    args = sys.argv[1:]
    npm = None
    if "--npm" in args and args.index("--npm") + 1 < len(args):
        i = args.index("--npm")
        npm = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    site_report(os.path.abspath(args[0] if args else "build/wasm/site"))
    if npm:
        npm_report(npm)


def site_report(root):
    if not os.path.isdir(root):
        print(f"size_report: no site at {root}")
        return
    files = sorted(os.path.join(d, f) for d, _, names in os.walk(root) for f in names)
    sizes = {f: transfer_size(f) for f in files}
    width = max(len(os.path.relpath(f, root)) for f in files)
    print(f"Site files in {root} (bytes; gzip -6, or raw for compressed formats):")
    print(f"  {'file':<{width}}  {'raw':>9}  {'gzipped':>9}")
    for f in files:
        raw, gz = sizes[f]
        print(f"  {os.path.relpath(f, root):<{width}}  {raw:>9,}  {gz:>9,}")
    print(f"  {'total':<{width}}  {sum(s[0] for s in sizes.values()):>9,}  {sum(s[1] for s in sizes.values()):>9,}")
    print(f"First load per page, gzipped (budget: calculator.html <= {BUDGET_CALCULATOR // 1000} KB, other pages < 100 KB):")
    for page in (f for f in files if f.endswith(".html")):
        loaded = first_load(root, page)
        total = sum(sizes[p][1] for p in loaded)
        name = os.path.relpath(page, root)
        budget = BUDGET_CALCULATOR if name == "calculator.html" else BUDGET_PAGE - 1
        flag = "" if total <= budget else "   OVER BUDGET"
        print(f"  {name:<{width}}  {kb(total):>10}  ({len(loaded)} files){flag}")
        card = [os.path.join(root, f) for f in CARD_MODULE if os.path.join(root, f) in sizes]
        if name == "calculator.html" and len(card) == len(CARD_MODULE):
            # A link or an autosaved scenario: the page, its stylesheet and script, then the card
            # module; the calculator's files follow once the card is shown (the embed's, only
            # when the reader presses "Change the inputs").
            before = first_load(root, page, follow_scripts=False) | set(card)
            shown = sum(sizes[p][1] for p in before)
            print(f"    with a link or an autosaved scenario: {kb(shown)} before the verdict (the card module: "
                  f"{kb(sum(sizes[p][1] for p in card))}), {kb(total + sum(sizes[p][1] for p in card))} with the calculator")
            print(f"    the embed (?embed=1): {kb(shown)} until the reader asks for the calculator")


if __name__ == "__main__":
    main()

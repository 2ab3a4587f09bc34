#!/usr/bin/env python3
"""Writes calculator.html with the default example's answer already in it.

The page opens on the first example scenario of assets/presets.json (web/presets.cpp). Its
answer is computed here, at build time, by the same core (the CLI's `traincost embed`, the static
card), and put into the page's <section id="first-answer">, so a visitor reads the verdict while
the calculator is still downloading. The card is written without inline styles (`--styles none`,
as the card module writes it for a link: web/card/card_main.cpp): the page's
Content-Security-Policy forbids them, and calculator.css styles the card instead.

Usage: prerender.py SHELL_HTML OUT_HTML --presets assets/presets.json --scenarios DIR --node NODE --cli CLI_JS
"""
import argparse
import json
import os
import subprocess
import sys

PLACEHOLDER = "<!--first-answer-->"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("shell")
    ap.add_argument("out")
    ap.add_argument("--presets", required=True)
    ap.add_argument("--scenarios", required=True)
    ap.add_argument("--node", required=True)
    ap.add_argument("--cli", required=True)
    args = ap.parse_args()
    with open(args.presets, encoding="utf-8") as f:
        default = json.load(f)["scenarios"][0]["file"]
    card = subprocess.run([args.node, "--no-experimental-fetch", args.cli, "embed", os.path.join(args.scenarios, default), "--format", "html",
                           "--styles", "none"],
                          capture_output=True, text=True)
    if card.returncode != 0:
        sys.exit(f"prerender.py: traincost embed failed ({card.returncode}): {card.stderr.strip()}")
    html = card.stdout.strip()
    with open(args.shell, encoding="utf-8") as f:
        page = f.read()
    if PLACEHOLDER not in page:
        sys.exit(f"prerender.py: {args.shell} has no {PLACEHOLDER}")
    text = page.replace(PLACEHOLDER, "\n" + html + "\n")
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()

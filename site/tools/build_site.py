#!/usr/bin/env python3
"""Writes the site's HTML pages into the build folder.

Each page in site/pages/ is the content of one <main>, headed by a comment giving its title and
description; site/layout.html wraps it in the shared <head> (the Content-Security-Policy, social
preview tags), header and footer. Placeholders {{name}} or {{name:argument}} are filled at build
time from the files the calculator is built from, so the pages cannot drift from it:

  {{version}} {{catalog_version}}     TrainCost and catalog versions
  {{site_url}}                        the published URL, or a stand-in when it is not known
  {{link:FILE}}                       calculator.html#s=... for assets/scenarios/FILE (the CLI's link)
  {{embed:FILE}}                      calculator.html?embed=1#s=..., the same in the compact view
  {{title:FILE}} {{verdict:FILE}}     its title in assets/presets.json; its first verdict (the CLI)
  {{markdown:FILE}}                   the CLI's Markdown report of it
  {{card:FILE}}                       the CLI's static HTML card of it (`traincost embed`), as source text
  {{validation}} {{replay}}           the CLI's tables of the step-time model's validation and of published runs replayed
  {{fig:PATH}} {{figr:PATH}}          a catalog figure (PATH like defaults/restart_minutes); figr adds its range
  {{data:chips|instances|defaults|sources|estimates|caveats|counts}}   tables of assets/catalog.json (the CLI's
                                      `catalog --format json`: each figure with its text, formatted by the core);
                                      the defaults' rows are the scenario fields that have one (`schema --format json`)
  {{cost_parts}}                      the parts of a run's cost and their sum (the CLI's `schema --format json`)
  {{price_age}}                       how old the prices are on the build date, with a warning when
                                      even the newest is more than six months old (the CLI's)

The CLI is the Emscripten (Node) build of `traincost`, so links and verdicts are byte for byte
what the calculator computes. An unknown placeholder fails the build.
"""
import argparse
import datetime
import html
import json
import os
import re
import subprocess
import sys

NAV = [("calculator.html", "Calculator"), ("methodology.html", "Methodology"), ("data.html", "Data"),
       ("embed.html", "Embed"), ("privacy.html", "Privacy")]

# The pages run no script: 'none' for scripts and fetches; the embed page frames the calculator
# from the same origin. (The calculator's own policy is in web/shell/calculator.html.)
CSP = ("default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self'; font-src 'self'; "
       "connect-src 'none'; frame-src 'self'; object-src 'none'; base-uri 'self'; form-action 'none'")

PRICING = [("on_demand", "On-demand"), ("reserved_1yr", "1-year commitment"), ("reserved_3yr", "3-year commitment"),
           ("spot", "Spot"), ("capacity_block", "Capacity Block")]
CHIP_FIGURES = [("bf16_tflops", "BF16 dense peak"), ("fp8_tflops", "FP8 dense peak"), ("hbm", "Memory (HBM)"),
                ("hbm_bandwidth_tbps", "Memory bandwidth"), ("interconnect_gbps", "Chip-to-chip interconnect (as marketed)"),
                ("scale_up_gbps", "NVLink/NeuronLink per direction"), ("scale_up_chips", "Chips in one NVLink/NeuronLink domain"),
                ("network_gbps_per_chip", "Scale-out network per chip"),
                ("mamf_bf16_tflops", "Measured matmul peak (MAMF, BF16)"), ("mamf_fp8_tflops", "Measured matmul peak (MAMF, FP8)")]
PERFORMANCE_FIGURES = [("matmul_efficiency", "Matmul efficiency (BF16)"), ("fp8_matmul_efficiency", "Matmul efficiency (FP8)"),
                       ("attention_efficiency", "Attention efficiency"), ("gemm_knee", "GEMM size knee"),
                       ("memory_bound_bytes", "Memory-bound bytes"), ("holdout_median_error", "Held-out median error"),
                       ("holdout_p90_error", "Held-out 90th-percentile error"), ("holdout_rows", "Held-out rows"),
                       ("calibration_rows", "Calibration rows")]
FAMILIES = [("trainium", "Trainium"), ("nvidia", "NVIDIA")]
# Chip generations calibrated on their own measurements (catalog performance.<key>; "chips" lists
# the chips predicted with it).
OWN_CALIBRATIONS = [("trainium2", "Trainium2")]


def as_of_text(fig):
    return fig["as_of"] + (" (month only)" if fig.get("month_only") else "")


def esc(text):
    """Text as HTML: & < > " ' as entities, and braces too, so that no text (a catalog note, a
    scenario's verdict) can form a {{placeholder}} for the pass that fills the layout's own."""
    return html.escape(str(text), quote=True).replace("{", "&#123;").replace("}", "&#125;")


def figure_text(fig, with_range=False):
    """How a figure reads in its unit, as the core writes it (`traincost catalog --format json`
    gives every figure a "text" and, with a range, a "range_text"): the site formats no number."""
    text = fig["text"]
    if with_range and "range_text" in fig:
        text += f" ({fig['range_text']})"
    return text


def default_rows(fields):
    """(catalog key, label) of every scenario field whose default is a catalog figure, in the field
    table's order: the rows of the defaults table. `fields` is `traincost schema --format json`'s."""
    rows = []
    for f in fields:
        key = f.get("catalog_default")
        if key and key not in dict(rows):
            rows.append((key, f["label"][:1].upper() + f["label"][1:]))
    return rows


class Catalog:
    def __init__(self, doc, fields):
        self.doc = doc  # assets/catalog.json as the core reads it, each figure with its text
        self.sources = self.doc["sources"]
        self.chips = {c["id"]: c for c in self.doc["chips"]}
        self.default_rows = default_rows(fields)

    def figure(self, path):
        """defaults/platform/trainium/engineer_weeks -> (key, figure); instance ids may hold dots."""
        parts = path.split("/")
        node = self.doc
        if parts[0] in ("chips", "instances"):
            node = next(x for x in self.doc[parts[0]] if x["id"] == parts[1])
            parts = parts[2:]
        for p in parts:
            node = node[p]
        if "value" not in node:
            raise KeyError(path)
        return parts[-1], node

    def source_link(self, key):
        s = self.sources[key]
        external = re.match(r"https?://", s["url"]) is not None
        # The one HTML rule of the site (docs/input-output.md): every text through esc(), and an
        # href is an http(s) address or a page of this site, never javascript: or data:.
        if not external and not re.fullmatch(r"[\w\-]+\.html(#[\w\-]*)?", s["url"]):
            sys.exit(f"build_site: source {key}: url must be http(s)://... or a page of the site, got {s['url']!r}")
        rel = ' rel="external noreferrer"' if external else ""
        secondary = ' <span class="badge">secondary</span>' if s.get("secondary") else ""
        return f'<a href="{esc(s["url"])}"{rel}>{esc(s["title"])}</a>{secondary}'

    def row(self, path, label, key, fig, head=""):
        """One figure as a table row: what, value (+ range, note, estimate mark), source, as-of."""
        estimate = fig.get("estimate", False)
        value = esc(figure_text(fig, with_range=True))
        if "per_chip_text" in fig:
            value += f' <span class="per-chip">({esc(fig["per_chip_text"])})</span>'
        if estimate:
            value += ' <span class="badge">estimate</span>'
        if fig.get("flag"):
            value += f' <span class="badge flag">{esc(fig["flag"])}</span>'
        if fig.get("convention"):
            value += f'<br><small>Counted as: {esc(fig["convention"])}</small>'
        if fig.get("note"):
            value += f'<br><small>{esc(fig["note"])}</small>'
        cls = ' class="is-estimate"' if estimate else ""
        return (f'<tr data-figure="{esc(path)}"{cls}>{head}<th scope="row">{esc(label)}</th><td>{value}</td>'
                f'<td>{self.source_link(fig["source"])}</td><td class="as-of">{esc(as_of_text(fig))}</td></tr>')

    def group(self, group_id, head_html, rows):
        """A <tbody> per chip/instance/defaults group; its first row carries the group's header cell."""
        n = len(rows)
        first = f'<th scope="rowgroup" rowspan="{n}" class="group">{head_html}</th>'
        body = [self.row(*rows[0], head=first)] + [self.row(*r) for r in rows[1:]]
        return f'<tbody id="{esc(group_id)}">' + "".join(body) + "</tbody>"

    @staticmethod
    def table(caption, first_col, tbodies):
        return ('<div class="table-wrap"><table class="figures">'
                f'<caption>{caption}</caption><thead><tr><th scope="col">{first_col}</th><th scope="col">Figure</th>'
                '<th scope="col">Value</th><th scope="col">Source</th><th scope="col">As of</th></tr></thead>'
                + "".join(tbodies) + "</table></div>")

    def chips_html(self):
        groups = []
        for c in self.doc["chips"]:
            rows = [(f"chips/{c['id']}/{k}", label, k, c[k]) for k, label in CHIP_FIGURES if k in c]
            rows += [(f"chips/{c['id']}/{k}", k.replace("_", " "), k, v) for k, v in c.items()
                     if isinstance(v, dict) and "value" in v and k not in dict(CHIP_FIGURES)]
            head = (f'<span class="name">{esc(c["name"])}</span><br><code>{esc(c["id"])}</code>'
                    f'<br><small>{esc(c["vendor"])}, {esc(dict(FAMILIES).get(c["family"], c["family"]))} family</small>')
            groups.append(self.group(f"chip-{c['id']}", head, rows))
        return self.table("Chips: peak throughput, memory and the utilization TrainCost assumes", "Chip", groups)

    def instances_html(self):
        groups = []
        for i in self.doc["instances"]:
            rows = [(f"instances/{i['id']}/chips", "Chips", "chips", i["chips"]),
                    (f"instances/{i['id']}/region", "Region of the price", "region", i["region"]),
                    (f"instances/{i['id']}/network_gbps", "Network", "network_gbps", i["network_gbps"])]
            rows += [(f"instances/{i['id']}/prices/{k}", label, k, i["prices"][k]) for k, label in PRICING if k in i["prices"]]
            # This type's own figures in place of the family defaults (Instance::defaults in the core).
            rows += [(f"instances/{i['id']}/defaults/{k}", f"{dict(self.default_rows).get(k, k)} (this type)", k, v)
                     for k, v in i.get("defaults", {}).items()]
            chip = self.chips.get(i["chip"], {"name": i["chip"]})
            head = (f'<code class="name">{esc(i["id"])}</code><br><small>{esc(i["provider"])}, {esc(i["region"]["value"])}<br>'
                    f'{i["chips"]["value"]} × <a href="#chip-{esc(i["chip"])}">{esc(chip["name"])}</a></small>')
            groups.append(self.group(f"instance-{i['id']}", head, rows))
        return self.table("Instances: hourly price per instance for each way of buying it", "Instance", groups)

    def defaults_html(self):
        """One row per scenario field whose default is a catalog figure, for all options or per family."""
        d = self.doc["defaults"]
        keys = dict(self.default_rows)
        shown = set(keys) & (set(d) | {k for p in d["platform"].values() for k in p})
        unshown = sorted(({k for k in d if k != "platform"} | {k for p in d["platform"].values() for k in p}) - shown)
        if unshown:
            sys.exit(f"build_site: catalog defaults no scenario field uses (no row on the data page): {', '.join(unshown)}")
        groups = [self.group("defaults-general", "All options",
                             [(f"defaults/{k}", label, k, d[k]) for k, label in self.default_rows if k in d])]
        for fam, name in FAMILIES:
            p = d["platform"][fam]
            groups.append(self.group(f"defaults-{fam}", f"{name} options",
                                     [(f"defaults/platform/{fam}/{k}", label, k, p[k]) for k, label in self.default_rows if k in p]))
        return self.table("Defaults for what a scenario leaves out", "Applies to", groups)

    def performance_html(self):
        perf = self.doc["performance"]
        groups = [self.group("performance-shared", "Both families", [("performance/ring_efficiency", "Ring collective efficiency",
                                                                      "ring_efficiency", perf["ring_efficiency"])])]
        for fam, name in FAMILIES:
            p = perf[fam]
            groups.append(self.group(f"performance-{fam}", f"{name} step-time model",
                                     [(f"performance/{fam}/{k}", label, k, p[k]) for k, label in PERFORMANCE_FIGURES if k in p]))
        for key, name in OWN_CALIBRATIONS:
            p = perf.get(key)
            if p:
                groups.append(self.group(f"performance-{key}", f"{name}'s own calibration ({', '.join(p['chips'])}; other factors Trainium's)",
                                         [(f"performance/{key}/{k}", label, k, p[k]) for k, label in PERFORMANCE_FIGURES if k in p]))
        return self.table("Step-time model: calibrated factors and how wrong it was on held-out runs", "Applies to", groups)

    def all_figures(self):
        """Every sourced figure as (path, key, figure), in catalog order."""
        out = []
        for c in self.doc["chips"]:
            out += [(f"chips/{c['id']}/{k}", k, v) for k, v in c.items() if isinstance(v, dict) and "value" in v]
        for i in self.doc["instances"]:
            out += [(f"instances/{i['id']}/{k}", k, i[k]) for k in ("chips", "region", "network_gbps")]
            out += [(f"instances/{i['id']}/prices/{k}", k, v) for k, v in i["prices"].items()]
            out += [(f"instances/{i['id']}/defaults/{k}", k, v) for k, v in i.get("defaults", {}).items()]
        d = self.doc["defaults"]
        out += [(f"defaults/{k}", k, v) for k, v in d.items() if k != "platform"]
        for fam, p in d["platform"].items():
            out += [(f"defaults/platform/{fam}/{k}", k, v) for k, v in p.items()]
        perf = self.doc["performance"]
        out.append(("performance/ring_efficiency", "ring_efficiency", perf["ring_efficiency"]))
        for fam, _ in FAMILIES:
            out += [(f"performance/{fam}/{k}", k, v) for k, v in perf[fam].items()]
        for key, _ in OWN_CALIBRATIONS:
            out += [(f"performance/{key}/{k}", k, v) for k, v in perf.get(key, {}).items() if isinstance(v, dict) and "value" in v]
        return out

    def sources_html(self):
        used = {}
        for _, _, fig in self.all_figures():
            used[fig["source"]] = used.get(fig["source"], 0) + 1
        items = []
        for key, s in self.sources.items():
            n = used.get(key, 0)
            items.append(f'<li id="source-{esc(key)}">{self.source_link(key)}<br><small><code>{esc(s["url"])}</code> · '
                         f'{n} figure{"" if n == 1 else "s"}</small></li>')
        return '<ol class="sources">' + "".join(items) + "</ol>"

    def estimates_html(self):
        """Every chip or instance figure marked as an estimate, with the catalog's note and a link to
        its row on the data page. (The estimated defaults are explained one by one in the prose.)"""
        rows = []
        for path, key, fig in self.all_figures():
            what = path.split("/")
            if not fig.get("estimate") or what[0] not in ("chips", "instances"):
                continue
            if what[0] == "chips":
                label = f'{self.chips[what[1]]["name"]}: {dict(CHIP_FIGURES).get(key, key)}'
                anchor = f"chip-{what[1]}"
            else:
                label = f'{what[1]}: {dict(PRICING).get(key, "network" if key == "network_gbps" else key)}'
                anchor = f"instance-{what[1]}"
            rows.append(f'<tr data-figure="{esc(path)}"><th scope="row"><a href="data.html#{esc(anchor)}">{esc(label)}</a></th>'
                        f'<td>{esc(figure_text(fig, with_range=True))}</td><td>{esc(fig.get("note", ""))}</td></tr>')
        return ('<div class="table-wrap"><table class="plain"><thead><tr><th scope="col">Figure</th><th scope="col">Value</th>'
                '<th scope="col">Why it is an estimate</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table></div>")

    def caveats_html(self):
        """Every figure the catalog flags (an expired offer, a single snapshot, an unconfirmed
        region), and how many speak only for a month."""
        rows, months = [], 0
        for path, key, fig in self.all_figures():
            months += bool(fig.get("month_only"))
            if not fig.get("flag"):
                continue
            what = path.split("/")
            anchor = f"instance-{what[1]}" if what[0] == "instances" else f"chip-{what[1]}" if what[0] == "chips" else "defaults"
            label = f'{what[1]}: {dict(PRICING).get(key, key.replace("_", " "))}' if what[0] in ("chips", "instances") else key
            rows.append(f'<tr data-figure="{esc(path)}"><th scope="row"><a href="#{esc(anchor)}">{esc(label)}</a></th>'
                        f'<td>{esc(figure_text(fig))}</td><td><span class="badge flag">{esc(fig["flag"])}</span> '
                        f'{esc(fig.get("note", ""))}</td></tr>')
        return ('<div class="table-wrap"><table class="plain"><thead><tr><th scope="col">Figure</th><th scope="col">Value</th>'
                '<th scope="col">Caveat</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table></div>"
                f"<p>{months} figures come from sources that give only a month; their date reads “(month only)”.</p>")

    def counts_html(self):
        n_est = sum(1 for _, _, f in self.all_figures() if f.get("estimate"))
        return (f"{len(self.doc['chips'])} chips, {len(self.doc['instances'])} instances, "
                f"{len(self.all_figures())} sourced figures ({n_est} of them estimates) and {len(self.sources)} sources")


class Cli:
    """The Node build of the traincost CLI, with its answers cached per scenario."""

    def __init__(self, node, script, scenarios, presets):
        self.cmd = [node, "--no-experimental-fetch", script]
        self.scenarios = scenarios
        with open(presets, encoding="utf-8") as f:
            self.titles = {s["file"]: s["title"] for s in json.load(f)["scenarios"]}
        self.cache = {}

    def run(self, *args):
        key = args
        if key not in self.cache:
            done = subprocess.run(self.cmd + list(args), capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"build_site: traincost {' '.join(args)} failed:\n{done.stderr}")
            self.cache[key] = done.stdout
        return self.cache[key]

    def scenario(self, file):
        path = os.path.join(self.scenarios, file)
        if not os.path.isfile(path):
            sys.exit(f"build_site: no scenario {path}")
        return path

    def link(self, file):
        fragment = self.run("link", self.scenario(file)).strip()
        if not fragment.startswith("#s="):
            sys.exit(f"build_site: unexpected link for {file}: {fragment[:40]}")
        return "calculator.html" + fragment

    def verdict(self, file):
        return json.loads(self.run("evaluate", self.scenario(file), "--format", "json"))["workloads"][0]["verdict"]

    def title(self, file):
        if file in self.titles:
            return self.titles[file]
        with open(self.scenario(file), encoding="utf-8") as f:
            return json.load(f).get("name", file)

    def version(self):
        return self.run("--version").split()[-1]

    def schema(self):
        """`traincost schema --format json`: the scenario fields and the parts of a run's cost."""
        return json.loads(self.run("schema", "--format", "json"))

    def price_age(self, today):
        """The core's price_age on `today`, as `traincost catalog --format json --today` gives it."""
        return json.loads(self.run("catalog", "--format", "json", "--today", today))["price_age"]


def cost_parts_html(schema):
    """The parts of a run's cost as the results' breakdown and the calculator's chart list them,
    with their symbols and their sum, from `traincost schema --format json`."""
    paid = {"per_run": "by every run", "fixed": "once over the horizon, ÷ runs"}
    rows = "".join(f'<tr id="cost-part-{esc(p["key"])}"><th scope="row"><var>{esc(p["symbol"])}</var></th><td>{esc(p["label"])}</td>'
                   f'<td>{esc(p["meaning"])}</td><td>{esc(paid[p["recurrence"]])}</td><td><code>{esc(p["key"])}</code></td></tr>'
                   for p in schema["cost_parts"])
    return ('<div class="table-wrap"><table class="plain" id="cost-parts"><thead><tr><th scope="col">Symbol</th><th scope="col">Part</th>'
            '<th scope="col">What it pays for</th><th scope="col">Paid</th><th scope="col">Key in the results</th></tr></thead>'
            f'<tbody>{rows}</tbody></table></div><figure class="formula"><code>{esc(schema["total_formula"])}</code></figure>')


def price_age_html(age):
    """The summary, dated, and the core's warning as a visible note when the prices are stale."""
    text = (f'<p class="price-age" id="price-age">{esc(age["summary"])}, counted on {esc(age["today"])}, when this '
            "page was built.</p>")
    if age["warning"]:
        text += f'<p class="price-warning" role="note"><strong>Warning:</strong> {esc(age["warning"])}</p>'
    return text


def read_page(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.match(r"\s*<!--(.*?)-->\s*", text, re.S)
    if not m:
        sys.exit(f"build_site: {path} must start with a comment giving title: and description:")
    meta = dict(re.findall(r"^\s*(\w+):\s*(.+?)\s*$", m.group(1), re.M))
    return meta, text[m.end():]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--site-src", required=True, help="site/ (layout.html and pages/)")
    ap.add_argument("--out", required=True, help="build/wasm/site")
    ap.add_argument("--presets", required=True)
    ap.add_argument("--scenarios", required=True, help="assets/scenarios")
    ap.add_argument("--node", required=True)
    ap.add_argument("--cli", required=True, help="the Node build of traincost (build/wasm/cli/traincost.js)")
    ap.add_argument("--site-url", default="", help="absolute URL the site is published at, if known")
    ap.add_argument("--build-date", help="the day prices are aged to (YYYY-MM-DD); default: $SOURCE_DATE_EPOCH's "
                                         "day if set, else today (UTC)")
    args = ap.parse_args()
    if not args.build_date:
        epoch = os.environ.get("SOURCE_DATE_EPOCH")  # reproducible builds fix the date this way
        when = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch else \
            datetime.datetime.now(datetime.timezone.utc)
        args.build_date = when.date().isoformat()

    cli = Cli(args.node, args.cli, args.scenarios, args.presets)
    schema = cli.schema()
    catalog = Catalog(json.loads(cli.run("catalog", "--format", "json")), schema["fields"])
    site_url = args.site_url.rstrip("/") + "/" if args.site_url else ""
    with open(os.path.join(args.site_src, "layout.html"), encoding="utf-8") as f:
        layout = f.read()

    def fill(text, page):
        def one(m):
            name, arg = m.group(1), m.group(2)
            if name == "version":
                return esc(cli.version())
            if name == "catalog_version":
                return esc(catalog.doc["catalog_version"])
            if name == "price_age":
                return price_age_html(cli.price_age(args.build_date))
            if name == "cost_parts":
                return cost_parts_html(schema)
            if name == "site_url":
                return esc(site_url or "https://YOUR-TRAINCOST-SITE/")
            if name == "link" and arg:
                return esc(cli.link(arg))
            if name == "embed" and arg:  # the compact view for iframes: the query goes before the fragment
                return esc(cli.link(arg).replace("#", "?embed=1#", 1))
            if name == "title" and arg:
                return esc(cli.title(arg))
            if name == "verdict" and arg:
                return esc(cli.verdict(arg))
            if name == "validation":  # the step-time model against published runs, as the CLI tables it
                return cli.run("validate", "--format", "html")
            if name == "replay":  # published training runs replayed with the defaults, as the CLI tables them
                return cli.run("replay", "--format", "html")
            if name == "card" and arg:  # linking to the published calculator when its address is known
                url = ["--url", site_url.rstrip("/") + "/calculator.html"] if site_url else []
                return esc(cli.run("embed", cli.scenario(arg), *url).rstrip())
            if name == "markdown" and arg:
                return esc(cli.run("evaluate", cli.scenario(arg), "--format", "markdown").rstrip())
            if name in ("fig", "figr") and arg:
                try:
                    key, fig = catalog.figure(arg)
                except (KeyError, StopIteration, TypeError):
                    sys.exit(f"build_site: {page}: {m.group(0)} names no figure of the catalog")
                return esc(figure_text(fig, with_range=name == "figr"))
            if name == "data" and arg in ("chips", "instances", "defaults", "performance", "sources", "estimates", "caveats", "counts"):
                return getattr(catalog, arg + "_html")()
            sys.exit(f"build_site: {page}: unknown placeholder {m.group(0)}")
        return re.sub(r"\{\{(\w+)(?::([^}]+))?\}\}", one, text)

    pages_dir = os.path.join(args.site_src, "pages")
    os.makedirs(args.out, exist_ok=True)
    for name in sorted(os.listdir(pages_dir)):
        if not name.endswith(".html"):
            continue
        meta, content = read_page(os.path.join(pages_dir, name))
        stem = name[:-5]
        current = ' aria-current="page"'
        nav = "".join(f'<li><a href="{href}"{current if href == name else ""}>{label}</a></li>' for href, label in NAV)
        # The 404 page is served for missing paths at any depth: with a known site URL a <base>
        # makes its relative links and styles work from there too.
        base = f'<base href="{esc(site_url)}">' if stem == "404" and site_url else ""
        page = layout
        for key, value in (("csp", CSP), ("base", base), ("nav", nav), ("content", fill(content, name)),
                           ("page_title", esc(meta["title"])), ("description", esc(meta["description"])),
                           ("og_image", esc(site_url + "og-image.png")),
                           ("og_url", esc(site_url + ("" if stem == "index" else name)) if site_url and stem != "404" else ""),
                           ("body_class", esc(meta.get("class", stem)))):
            page = page.replace("{{" + key + "}}", value)
        if 'og:url" content=""' in page:  # og:url needs an absolute URL; without one the tag is left out
            page = re.sub(r'\s*<meta property="og:url" content="">', "", page)
        page = fill(page, name)  # the layout's own placeholders ({{version}}, ...)
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as f:
            f.write(page)


if __name__ == "__main__":
    main()

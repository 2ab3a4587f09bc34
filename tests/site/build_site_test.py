#!/usr/bin/env python3
"""The site generator's HTML rule (issue row 5, on the site): every text of the catalog goes
through esc() and every link is http(s) or a page of the site. A catalog with hostile text in
every string the pages show must give HTML without a tag, an attribute or a URL of its own; a
javascript: or data: source URL must fail the build. Runs in the native preset (python3 only).
"""
import copy
import html.parser
import json
import os
import sys
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "site", "tools"))
import build_site  # noqa: E402

HOSTILE = [
    '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "' onmouseover='alert(1)", "&lt;b&gt;",
    "</td></tr></table><iframe src=//evil.example>", "javascript:alert(1)", "{{version}}", "\u202eevil",
]


class Collector(html.parser.HTMLParser):
    """Every tag, attribute and href of an HTML fragment."""

    def __init__(self):
        super().__init__()
        self.tags, self.attributes, self.hrefs = set(), set(), []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for name, value in attrs:
            self.attributes.add(name)
            if name == "href":
                self.hrefs.append(value)


def hostile_catalog(text):
    with open(os.path.join(ROOT, "assets", "catalog.json"), encoding="utf-8") as f:
        doc = json.load(f)
    doc = copy.deepcopy(doc)
    for chip in doc["chips"]:
        chip["name"] = text
        chip["vendor"] = text
        chip["scale_up_gbps"]["note"] = text
        chip["scale_up_gbps"]["estimate"] = True
    for inst in doc["instances"]:
        inst["provider"] = text
        inst["region"]["value"] = text
        inst["chips"]["note"] = text
    for source in doc["sources"].values():
        source["title"] = text
    return doc


def with_texts(node, text=None):
    """The catalog as `traincost catalog --format json` gives it: each figure with its "text" (and
    "range_text"), which the core writes. Here they are stand-ins, the hostile text when given
    (a region's text is its value, so a hostile region reaches the page through "text" too)."""
    if isinstance(node, list):
        for child in node:
            with_texts(child, text)
    elif isinstance(node, dict):
        if "value" in node:
            node["text"] = text if text is not None else str(node["value"])
            if "low" in node and "high" in node:
                node["range_text"] = text if text is not None else f"{node['low']} to {node['high']}"
            return node
        for child in node.values():
            with_texts(child, text)
    return node


# The scenario fields with a catalog default, as `traincost schema --format json` lists them (the
# rows of the defaults table): one per default the catalog holds, read from it so that a new
# default needs no edit here; the test needs no CLI.
def _default_keys():
    with open(os.path.join(ROOT, "assets", "catalog.json"), encoding="utf-8") as f:
        defaults = json.load(f)["defaults"]
    keys = [k for k in defaults if k != "platform"]
    for family in defaults["platform"].values():
        keys += [k for k in family if k not in keys]
    return keys


FIELDS = [{"label": key.replace("_", " "), "catalog_default": key} for key in _default_keys()]


def catalog_of(doc, text=None):
    return build_site.Catalog(with_texts(doc, text), FIELDS)


ALLOWED_TAGS = {"div", "table", "caption", "thead", "tr", "th", "td", "tbody", "span", "br", "code", "small", "a", "ol", "li"}
ALLOWED_ATTRIBUTES = {"class", "scope", "rowspan", "id", "data-figure", "href", "rel"}


class SiteHtml(unittest.TestCase):
    def test_hostile_catalog_text_stays_text(self):
        for text, catalog in [(t, c) for t in HOSTILE for c in (catalog_of(hostile_catalog(t)), catalog_of(hostile_catalog(t), t))]:
            for part in ("chips_html", "instances_html", "defaults_html", "sources_html", "estimates_html", "counts_html"):
                out = getattr(catalog, part)()
                with self.subTest(text=text, part=part):
                    collector = Collector()
                    collector.feed(out)
                    self.assertLessEqual(collector.tags, ALLOWED_TAGS)
                    self.assertLessEqual(collector.attributes, ALLOWED_ATTRIBUTES)
                    for href in collector.hrefs:
                        self.assertRegex(href, r"^(https?://|#|[\w\-]+\.html)")
                    self.assertNotIn("<script", out)
                    # No text can become a placeholder of the second pass over the page.
                    self.assertNotIn("{{", out)

    def test_source_urls_must_be_http_or_a_page_of_the_site(self):
        for url in ["javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>x</script>", "//evil.example/x",
                    "vbscript:x", "methodology.html\"onclick=\"x", " https://ok.example"]:
            doc = hostile_catalog("x")
            key = next(iter(doc["sources"]))
            doc["sources"][key]["url"] = url
            with self.subTest(url=url), self.assertRaises(SystemExit):
                catalog_of(doc).sources_html()
        doc = hostile_catalog("x")
        catalog_of(doc).sources_html()  # the real URLs pass

    def test_every_catalog_default_is_a_row(self):
        """A default of the catalog that no scenario field uses would have no row: the build fails."""
        doc = hostile_catalog("x")
        doc["defaults"]["platform"]["trainium"]["unused_default"] = dict(doc["defaults"]["usd_per_engineer_week"])
        with self.assertRaises(SystemExit):
            catalog_of(doc).defaults_html()
        out = catalog_of(hostile_catalog("x")).defaults_html()
        for field in FIELDS:
            self.assertIn(f'/{field["catalog_default"]}"', out)

    def test_cost_parts_from_the_schema(self):
        schema = {"cost_parts": [{"key": "compute", "label": "Compute", "meaning": HOSTILE[0], "recurrence": "per_run", "symbol": "Hc"},
                                 {"key": "porting", "label": HOSTILE[1], "meaning": "m", "recurrence": "fixed", "symbol": "Op"}],
                  "total_formula": "total = (Hc) + (Op) / runs"}
        out = build_site.cost_parts_html(schema)
        collector = Collector()
        collector.feed(out)
        self.assertLessEqual(collector.tags, ALLOWED_TAGS | {"var", "figure"})
        self.assertIn('id="cost-part-compute"', out)
        self.assertIn("total = (Hc) + (Op) / runs", out)


if __name__ == "__main__":
    unittest.main()

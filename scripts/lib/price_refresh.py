"""Plans and applies a price refresh of assets/catalog.json (scripts/refresh-prices).

Which figures a file may change is declared in the catalog itself: a source entry with a
"refresh" block can be refreshed, and only the instance prices whose "source" is that entry's
id are ever looked at. The block says how to read the file and how catalog ids map to the
provider's names:

  "skypilot-lambda": {"title": ..., "url": ...,
    "refresh": {"format": "skypilot-csv",            # or "vantage-json"
                "region": "us-east-1",               # optional: the row region to read for every
                                                     # instance (default: the instance's region)
                "instance_types": {"lambda-8x-b200": "gpu_8x_b200_sxm6"},  # optional: catalog id ->
                                                     # provider type (default: the catalog id)
                "platform": "linux",                 # vantage-json: the pricing platform
                "reserved_terms": {"reserved_1yr": "yrTerm1Standard.noUpfront"}}}  # vantage-json

A figure is refreshed in place: its value, its low/high when it has them (spot), and its as_of
(the snapshot date). Every other key, and every other figure, stays as it was.
"""
import math
import re
from dataclasses import dataclass, field

import price_feeds

KINDS = ("on_demand", "reserved_1yr", "reserved_3yr", "spot", "capacity_block")
FORMATS = {
    # format -> the price kinds it carries (vantage-json also the reserved terms it is given)
    "skypilot-csv": ("on_demand", "spot"),
    "vantage-json": ("on_demand", "spot"),
}


class ConfigError(Exception):
    """The catalog's refresh declarations are unusable."""


@dataclass
class Spec:
    source: str
    format: str
    region: str = ""
    instance_types: dict = field(default_factory=dict)
    platform: str = "linux"
    reserved_terms: dict = field(default_factory=dict)

    def kinds(self):
        return FORMATS[self.format] + tuple(self.reserved_terms)

    def read(self, data, label):
        if self.format == "skypilot-csv":
            return price_feeds.read_skypilot_csv(data, label)
        return price_feeds.read_vantage_json(data, label, self.platform, self.reserved_terms)


def refresh_specs(catalog):
    """source id -> Spec, for every source with a "refresh" block."""
    specs = {}
    for source, entry in catalog.get("sources", {}).items():
        block = entry.get("refresh") if isinstance(entry, dict) else None
        if block is None:
            continue
        where = f"sources.{source}.refresh"
        if not isinstance(block, dict) or block.get("format") not in FORMATS:
            raise ConfigError(f"{where}: needs \"format\": one of {', '.join(FORMATS)}")
        unknown = set(block) - {"format", "region", "instance_types", "platform", "reserved_terms"}
        if unknown:
            raise ConfigError(f"{where}: unknown key {', '.join(sorted(unknown))}")
        spec = Spec(source, block["format"], block.get("region", ""), block.get("instance_types", {}),
                    block.get("platform", "linux"), block.get("reserved_terms", {}))
        if not isinstance(spec.region, str) or not isinstance(spec.platform, str):
            raise ConfigError(f"{where}: region and platform must be strings")
        for name, mapping in (("instance_types", spec.instance_types), ("reserved_terms", spec.reserved_terms)):
            if not isinstance(mapping, dict) or not all(isinstance(v, str) for v in mapping.values()):
                raise ConfigError(f"{where}.{name}: must map names to strings")
        if spec.reserved_terms and spec.format != "vantage-json":
            raise ConfigError(f"{where}.reserved_terms: only the vantage-json format carries reserved prices")
        bad = set(spec.reserved_terms) - {"reserved_1yr", "reserved_3yr"}
        if bad:
            raise ConfigError(f"{where}.reserved_terms: {', '.join(sorted(bad))} is not a reserved price kind")
        specs[source] = spec
    return specs


def day_of(as_of):
    """'2026-08' -> (2026, 8, 1): a partial date counts from the first day it can mean."""
    m = re.fullmatch(r"(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?", as_of or "")
    if not m or (m.group(3) and not m.group(2)):
        return None
    return int(m.group(1)), int(m.group(2) or 1), int(m.group(3) or 1)


@dataclass
class Item:
    """One price figure the refresh looked at, and what it decided."""
    instance: str
    kind: str
    figure: dict
    source: str
    old: float
    new: float = None
    low: float = None     # new bounds, when the figure has bounds and the file gives samples
    high: float = None
    why: str = ""         # not touched / refused: the reason
    where: str = ""       # the row it came from
    basis: str = ""       # spot: how the value was chosen

    def change(self):
        return (self.new - self.old) / self.old * 100 if self.old else math.inf


@dataclass
class Plan:
    as_of: str
    changed: list = field(default_factory=list)    # value differs: written with --write
    unchanged: list = field(default_factory=list)  # same value: only as_of is renewed
    refused: list = field(default_factory=list)    # beyond the guard: not written without --force
    missing: list = field(default_factory=list)    # no usable price in the file: not touched
    others: int = 0                                # prices of sources not being refreshed

    def writes(self):
        return self.changed + self.unchanged


def same(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def plan_refresh(catalog, feeds, specs, as_of, max_change=60.0, force=False):
    """feeds: source id -> Feed for the sources being refreshed. Decides every price figure."""
    plan = Plan(as_of)
    for inst in catalog.get("instances", []):
        for kind, fig in inst.get("prices", {}).items():
            source = fig.get("source")
            if source not in feeds:
                plan.others += 1
                continue
            item = Item(inst["id"], kind, fig, source, fig.get("value"))
            _quote(item, inst, specs[source], feeds[source], as_of)
            if item.new is None:
                plan.missing.append(item)
            elif not isinstance(item.old, (int, float)) or item.old <= 0:
                item.why = "the catalog's value is not a positive number"
                plan.missing.append(item)
            elif not same(item.new, item.old) and abs(item.change()) > max_change and not force:
                item.why = f"{item.change():+.1f}% is beyond the ±{max_change:g}% guard"
                plan.refused.append(item)
            elif same(item.new, item.old) and not _bounds_change(item):
                plan.unchanged.append(item)
            else:
                plan.changed.append(item)
    return plan


def _quote(item, inst, spec, feed, as_of):
    """Sets the item's new value (and bounds) from the feed, or why there is none."""
    kind, fig = item.kind, item.figure
    type_ = spec.instance_types.get(inst["id"], inst["id"])
    region = spec.region or inst.get("region", {}).get("value", "")  # a cited figure: {value, source, as_of}
    offer = feed.offers.get((type_, region))
    old_day = day_of(fig.get("as_of", ""))
    if kind not in spec.kinds():
        item.why = f"the {spec.format} format of {item.source} carries no {kind} price"
    elif offer is None:
        item.why = f"no row for {type_} in {region}"
        bad = [message for t, message in feed.malformed if t == type_]
        if bad:
            item.why += f" (skipped as malformed: {bad[0]})"
    elif old_day and day_of(as_of) < old_day:
        item.why = f"the figure's as_of {fig.get('as_of')} is newer than the snapshot {as_of}"
    elif kind == "spot" and offer.spot:
        item.new, item.basis, item.where = offer.spot.value, offer.spot.basis, offer.spot.where
        if offer.spot.samples > 1:
            item.low, item.high = offer.spot.low, offer.spot.high
    elif kind in offer.prices:
        item.new = offer.prices[kind]
    elif kind in offer.bad:
        item.why = "malformed in the source: " + offer.bad[kind]
    elif kind in offer.unpublished:
        item.why = "no price published: " + offer.unpublished[kind]
    else:
        item.why = f"no {kind} price for {type_} in {region}"
    item.where = item.where or (offer.where if offer else "")
    if item.new is None or "low" not in fig or "high" not in fig:
        item.low = item.high = None  # bounds only where the figure has them
    else:
        # Without new samples the old bounds stay, widened if the new value falls outside them:
        # the loader requires low <= value <= high.
        low = fig["low"] if item.low is None else item.low
        high = fig["high"] if item.high is None else item.high
        item.low, item.high = min(low, item.new), max(high, item.new)


def _bounds_change(item):
    f = item.figure
    return (item.low is not None and not same(item.low, f["low"])) or (item.high is not None and not same(item.high, f["high"]))


DAY_UNKNOWN = "day not established"


def _drop_day_unknown(f):
    """A refreshed figure has a day: the note's "day not established: ..." clause (one of its
    "; "-separated parts, tests/structure/check_asset_dates.py) no longer holds."""
    note = f.get("note")
    if not note or DAY_UNKNOWN not in note:
        return
    kept = [part for part in note.split("; ") if not part.startswith(DAY_UNKNOWN)]
    if kept:
        f["note"] = "; ".join(kept)
    else:
        del f["note"]


def apply_plan(plan):
    """Writes the plan's decisions into the figures (the catalog dict they belong to). A number
    that does not change keeps its spelling (13 stays 13, not 13.0)."""
    for item in plan.writes():
        f = item.figure
        for key, value in (("value", item.new), ("low", item.low), ("high", item.high)):
            if value is not None and not same(value, f[key]):
                f[key] = value
        f["as_of"] = plan.as_of
        f.pop("month_only", None)  # the snapshot's day is known
        _drop_day_unknown(f)

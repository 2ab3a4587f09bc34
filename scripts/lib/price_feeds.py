"""Readers for the public price catalogs scripts/refresh-prices reads.

Each reader turns one file into offers keyed by (provider instance type, region), plus the rows
it had to skip and why. A reader never raises on a bad row: it records "FILE:LINE: reason" and
goes on, because one odd row in a 4 MB catalog must not stop a refresh. It raises FeedError only
when the file as a whole cannot be read (missing, not UTF-8, no header, not a JSON array).

Formats (see README, "Keeping prices current"):
  skypilot-csv   SkyPilot's catalogs/v*/<cloud>/vms.csv. Columns are found by header name
                 (AWS and Lambda order them differently). AWS repeats a row per availability
                 zone; Price is the region's on-demand rate, SpotPrice one sample per zone.
  vantage-json   instances.vantage.sh's instances.json: an array of objects with instance_type
                 and pricing[region][platform] = {ondemand, spot_min, spot_avg, spot_max,
                 reserved{term: rate}}, every price a string.
"""
import csv
import hashlib
import io
import json
import math
import os
import re
import stat
import statistics
import urllib.request
from dataclasses import dataclass, field

# The most a price file may hold. The largest real one (vantage's instances.json) is far below;
# the bound keeps an endless pipe or a huge file from filling memory (issue 33 item 13).
MAX_FEED_BYTES = 1 << 30
# The most a price may be, in USD per instance-hour: what a scenario's options[].price_usd_per_hour
# accepts (`traincost schema`; tests/prices checks the two agree). A larger one is a parse error,
# and no --force writes it into the catalog.
MAX_PRICE = 1e5


class FeedError(Exception):
    """The file as a whole cannot be read."""


@dataclass
class Spot:
    value: float   # what the figure takes
    low: float     # lowest sample
    high: float    # highest sample
    samples: int   # how many numbers value/low/high come from
    basis: str     # how value was chosen, for the report
    where: str     # FILE:LINE[,LINE...] of the samples


@dataclass
class Offer:
    where: str                                    # FILE:LINE of its first row
    prices: dict = field(default_factory=dict)    # kind ("on_demand", "reserved_1yr", ...) -> $/h
    unpublished: dict = field(default_factory=dict)  # kind -> why there is no price (empty cell, 0)
    bad: dict = field(default_factory=dict)       # kind -> the malformed field that was skipped
    spot: Spot = None
    spot_samples: list = field(default_factory=list)  # (price, line)


@dataclass
class Feed:
    label: str                                   # the file or URL, as given
    digest: str                                  # sha256 of the bytes read, to cite the snapshot
    offers: dict = field(default_factory=dict)   # (instance_type, region) -> Offer
    malformed: list = field(default_factory=list)  # (instance_type or "", "FILE:LINE: reason")
    notes: list = field(default_factory=list)    # what was ignored on purpose
    rows: int = 0


def read_bytes(spec, limit=MAX_FEED_BYTES):
    """A local file, or an https:// URL (a downloaded copy is the usual case), read as the CLI reads
    a scenario (cli/read_file.hpp): regular files and pipes only, directories and devices
    (/dev/zero) refused before anything is read, and never more than `limit` bytes held."""
    too_large = f"larger than {limit} bytes, the most refresh-prices reads"
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", spec):
        if not spec.lower().startswith("https://"):
            raise FeedError(f"{spec}: only https:// URLs or local files are read")
        try:
            with urllib.request.urlopen(spec, timeout=120) as response:
                data = response.read(limit + 1)
        except (OSError, ValueError) as e:
            raise FeedError(f"{spec}: cannot download: {e}") from None
        if len(data) > limit:
            raise FeedError(f"{spec}: cannot download: {too_large}")
        return data
    try:
        mode = os.stat(spec).st_mode
        if stat.S_ISDIR(mode):
            raise FeedError(f"{spec}: cannot read: it is a directory")
        if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            raise FeedError(f"{spec}: cannot read: it is a terminal or a device, not a file")
        if stat.S_ISREG(mode) and os.stat(spec).st_size > limit:
            raise FeedError(f"{spec}: cannot read: it is {too_large}")
        with open(spec, "rb") as f:
            data = f.read(limit + 1)
    except (OSError, ValueError) as e:
        raise FeedError(f"{spec}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    if len(data) > limit:
        raise FeedError(f"{spec}: cannot read: it is {too_large}")
    return data


def decode(data, label):
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise FeedError(f"{label}: not UTF-8 text (byte {e.start})") from None


def parse_price(text):
    """'21.5' -> 21.5; '' -> None (no price published). Raises ValueError with the reason otherwise.
    JSON numbers are accepted too: some copies of the vantage file do not quote them."""
    if isinstance(text, bool) or not isinstance(text, (str, int, float)):
        raise ValueError(f"expected a price, got {type(text).__name__}")
    if isinstance(text, str):
        text = text.strip()
        if text == "":
            return None
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"{text[:40]!r} is not a number") from None
    else:
        value = float(text)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{value!r} is not a price")
    if value > MAX_PRICE:  # 1e308 was written into the catalog with --force (issue 33 item 13)
        raise ValueError(f"{value!r} is more than the {MAX_PRICE:,.0f} USD per instance-hour a price may be")
    return value


# An availability zone of the region itself: use1-az4, apse4-az1. Local Zones (use1-atl2-az1)
# and Wavelength Zones carry a city part and their own prices; a region's figure ignores them.
_REGION_AZ = re.compile(r"^[a-z]+[0-9]+-az[0-9]+$")


def read_skypilot_csv(data, label):
    feed = Feed(label, hashlib.sha256(data).hexdigest())
    reader = csv.reader(io.StringIO(decode(data, label), newline=""))
    try:
        header = next(reader)
    except (StopIteration, csv.Error) as e:
        raise FeedError(f"{label}: no CSV header ({e or 'empty file'})") from None
    column = {name.strip(): i for i, name in enumerate(header)}
    missing = [c for c in ("InstanceType", "Price", "Region") if c not in column]
    if missing:
        raise FeedError(f"{label}: not a SkyPilot vms.csv: no column {', '.join(missing)} in the header")
    spot_col, az_col = column.get("SpotPrice"), column.get("AvailabilityZone")
    on_demand = {}  # key -> {price: first FILE:LINE}; more than one price is a conflict
    zones_ignored = set()
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as e:  # e.g. a NUL byte or an unterminated quote
            feed.malformed.append(("", f"{label}:{reader.line_num}: unreadable CSV ({e})"))
            continue
        if not row:
            continue
        feed.rows += 1
        where = f"{label}:{reader.line_num}"
        type_ = row[column["InstanceType"]].strip() if len(row) > column["InstanceType"] else ""
        if len(row) != len(header):
            feed.malformed.append((type_, f"{where}: {type_ or '?'}: {len(row)} fields, the header has {len(header)}"))
            continue
        if not type_:
            feed.malformed.append(("", f"{where}: no InstanceType"))
            continue
        zone = row[az_col].strip() if az_col is not None else ""
        if zone and not _REGION_AZ.match(zone):
            zones_ignored.add(zone)
            continue
        try:
            price = parse_price(row[column["Price"]])
        except ValueError as e:
            feed.malformed.append((type_, f"{where}: {type_}: Price {e}"))
            continue
        try:
            spot = parse_price(row[spot_col]) if spot_col is not None else None
        except ValueError as e:
            feed.malformed.append((type_, f"{where}: {type_}: SpotPrice {e}"))
            continue
        key = (type_, row[column["Region"]].strip())
        offer = feed.offers.setdefault(key, Offer(where))
        if price is None or price == 0:
            offer.unpublished.setdefault("on_demand", f"Price {'empty' if price is None else '0'} at {where}")
        else:
            on_demand.setdefault(key, {}).setdefault(price, where)
        if spot:
            offer.spot_samples.append((spot, reader.line_num))
    for key, prices in on_demand.items():
        offer = feed.offers[key]
        if len(prices) == 1:
            offer.prices["on_demand"] = next(iter(prices))
            offer.unpublished.pop("on_demand", None)
        else:  # zones of one region disagree: no single on-demand price to take
            listed = ", ".join(f"{p:g} ({w})" for p, w in prices.items())
            feed.malformed.append((key[0], f"{offer.where}: {key[0]} in {key[1]}: Price differs between zones: {listed}"))
            offer.unpublished["on_demand"] = "zones disagree on Price"
    for offer in feed.offers.values():
        s = [price for price, _ in offer.spot_samples]
        if s:  # the median: one zone's outlier moves it less than a mean or a midpoint
            lines = ",".join(str(line) for _, line in offer.spot_samples)
            offer.spot = Spot(round(statistics.median(s), 6), min(s), max(s), len(s),
                              f"median of {len(s)} zone sample{'s' if len(s) > 1 else ''}", f"{label}:{lines}")
    if zones_ignored:
        feed.notes.append(f"ignored rows of {len(zones_ignored)} Local/Wavelength Zone(s), e.g. {sorted(zones_ignored)[0]}")
    return feed


def _json_elements(text, label):
    """The elements of a top-level JSON array with the line each starts on."""
    decoder = json.JSONDecoder()
    ws = re.compile(r"\s*")
    i = ws.match(text, 0).end()
    if text[i:i + 1] != "[":
        raise FeedError(f"{label}: not a vantage instances.json: the top level is not a JSON array")
    i = ws.match(text, i + 1).end()
    if text[i:i + 1] == "]":
        return
    while True:
        try:
            value, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError as e:
            raise FeedError(f"{label}:{e.lineno}: not valid JSON ({e.msg})") from None
        except RecursionError:  # Python's reader gives up on deep nesting: no price file nests so
            line = text.count("\n", 0, i) + 1
            raise FeedError(f"{label}:{line}: not valid JSON (nested too deeply)") from None
        yield text.count("\n", 0, i) + 1, value
        i = ws.match(text, end).end()
        if text[i:i + 1] == ",":
            i = ws.match(text, i + 1).end()
        elif text[i:i + 1] == "]":
            return
        else:
            line = text.count("\n", 0, i) + 1
            raise FeedError(f"{label}:{line}: not valid JSON (expected ',' or ']')")


def read_vantage_json(data, label, platform="linux", reserved_terms=None):
    """reserved_terms maps a catalog price kind to the vantage reserved term that means it, e.g.
    {"reserved_1yr": "yrTerm1Standard.noUpfront"}."""
    feed = Feed(label, hashlib.sha256(data).hexdigest())
    text = decode(data, label)
    for index, (line, item) in enumerate(_json_elements(text, label)):
        feed.rows += 1
        where = f"{label}:{line}"
        if not isinstance(item, dict) or not isinstance(item.get("instance_type"), str):
            feed.malformed.append(("", f"{where}: element [{index}] has no instance_type"))
            continue
        type_ = item["instance_type"]
        pricing = item.get("pricing", {})
        if not isinstance(pricing, dict):
            feed.malformed.append((type_, f"{where}: {type_}: pricing is a {type(pricing).__name__}, not an object"))
            continue
        for region, platforms in pricing.items():
            path = f"{type_}: pricing.{region}"
            if not isinstance(platforms, dict):
                feed.malformed.append((type_, f"{where}: {path} is a {type(platforms).__name__}, not an object"))
                continue
            if platform not in platforms:
                continue
            p = platforms[platform]
            if not isinstance(p, dict):  # the scraper's type allows a bare string; it has no named prices
                feed.malformed.append((type_, f"{where}: {path}.{platform} is a {type(p).__name__}, not a pricing object"))
                continue
            offer = feed.offers.setdefault((type_, region), Offer(where))
            _vantage_prices(feed, offer, type_, p, f"{where}: {path}.{platform}", reserved_terms or {})
    return feed


def _vantage_prices(feed, offer, type_, p, where, reserved_terms):
    def price(obj, key, path, kind):
        if key not in obj:
            return None
        try:
            return parse_price(obj[key])
        except ValueError as e:
            offer.bad[kind] = f"{path}.{key}: {e}"
            feed.malformed.append((type_, offer.bad[kind]))
            return "bad"

    od = price(p, "ondemand", where, "on_demand")
    if od is None or od == 0:
        offer.unpublished["on_demand"] = f"ondemand {'absent or empty' if od is None else '0'} ({where})"
    elif od != "bad":
        offer.prices["on_demand"] = od
    reserved = p.get("reserved", {})
    if not isinstance(reserved, dict):
        message = f"{where}.reserved: is a {type(reserved).__name__}, not an object"
        feed.malformed.append((type_, message))
        offer.bad.update({kind: message for kind in reserved_terms})
        reserved = None
    for kind, term in reserved_terms.items():
        if reserved is None:
            continue
        r = price(reserved, term, where + ".reserved", kind)
        if r is None or r == 0:
            offer.unpublished[kind] = f"reserved {term} absent or empty ({where})"
        elif r != "bad":
            offer.prices[kind] = r
    lo, avg, hi, one = (price(p, k, where, "spot") for k in ("spot_min", "spot_avg", "spot_max", "spot"))
    if "bad" in (lo, avg, hi, one):
        return
    if lo and hi and lo <= hi:
        # spot_avg averages the zones' price history; without it the midpoint of min and max.
        value = avg if avg and lo <= avg <= hi else round((lo + hi) / 2, 6)
        offer.spot = Spot(value, lo, hi, 2, "spot_avg" if value == avg else "midpoint of spot_min and spot_max", where)
    elif avg or one:
        offer.spot = Spot(avg or one, avg or one, avg or one, 1, "spot_avg" if avg else "spot", where)

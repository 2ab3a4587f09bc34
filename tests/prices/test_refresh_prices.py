"""scripts/refresh-prices end to end, on a copy of the fixture catalog (tests/prices/data/catalog.json)
and the fixture files. The expected changes are read off the fixture rows by hand:
  p5.48xlarge on-demand   55.04 -> 50.5     (-8.2%: 50.5/55.04 = 0.9175)
  p4d.24xlarge spot       5.35 -> 6.1       (median of 8.0087, 6.1, 5.2; +14.0%), low/high 5.2/8.0087
  trn1.32xlarge spot      4.25 -> 5.3173    (median of 7.5346 and 3.1; +25.1%)
  lambda-8x-h100-sxm      31.92 -> 29.52    (gpu_8x_h100_sxm5 in us-east-1; -7.5%)
  p4d / trn1.2xlarge reserved_1yr from vantage: 13.921094 -> 13.5 (-3.0%), 0.82681 -> 0.8 (-3.2%)
  trn2.48xlarge spot      23.06 -> 8.5964   (-62.7%): refused by the 60% guard
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "data")
SCRIPT = os.path.join(ROOT, "scripts", "refresh-prices")
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
from catalog_format import dump  # noqa: E402
import price_refresh  # noqa: E402

ALL = [f"skypilot-aws={DATA}/aws-vms.csv", f"skypilot-lambda={DATA}/lambda-vms.csv", f"vantage-aws={DATA}/instances.json"]


@pytest.fixture
def catalog(tmp_path):
    path = tmp_path / "catalog.json"
    shutil.copy(os.path.join(DATA, "catalog.json"), path)
    return path


def run(catalog, *args):
    done = subprocess.run([sys.executable, SCRIPT, "--catalog", str(catalog), *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def lines(text):
    """Output lines with runs of spaces (the column alignment) folded."""
    return [re.sub(r"\s+", " ", line.strip()) for line in text.splitlines()]


def section(text, title):
    out, inside = [], False
    for line in lines(text):
        if line.startswith(title):
            inside = True
        elif inside and not line:
            break
        elif inside:
            out.append(line)
    return out


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def prices(path):
    doc = json.loads(read(path))
    return {(i["id"], k): f for i in doc["instances"] for k, f in i["prices"].items()}


def test_dry_run_prints_the_diff_and_writes_nothing(catalog):
    before = read(catalog)
    status, out, err = run(catalog, "--as-of", "2026-12-01", *ALL)
    assert status == 3, err  # one change was refused
    assert read(catalog) == before
    assert section(out, "Changed") == [
        "trn1.2xlarge reserved_1yr 0.82681 → 0.8 (-3.2%) as_of 2026-08-26 → 2026-12-01",
        "trn1.32xlarge spot 4.25 → 5.3173 (+25.1%) as_of 2026-08 → 2026-12-01 low 2.4 → 3.1; high 6.1 → 7.5346; "
        "median of 2 zone samples",
        "p4d.24xlarge reserved_1yr 13.921094 → 13.5 (-3.0%) as_of 2026-08-26 → 2026-12-01",
        "p4d.24xlarge spot 5.35 → 6.1 (+14.0%) as_of 2026-08 → 2026-12-01 low 2.5 → 5.2; high 8.2 → 8.0087; "
        "median of 3 zone samples",
        "p5.48xlarge on_demand 55.04 → 50.5 (-8.2%) as_of 2026-08 → 2026-12-01",
        "lambda-8x-h100-sxm on_demand 31.92 → 29.52 (-7.5%) as_of 2026-08 → 2026-12-01",
    ]
    refused = section(out, "Refused")
    assert len(refused) == 1 and refused[0].startswith("trn2.48xlarge spot 23.06 → 8.5964 (-62.7%)"), refused
    assert section(out, "Unchanged") == [
        "trn1.32xlarge on_demand 21.5 as_of 2026-08 → 2026-12-01",
        "trn1.32xlarge reserved_1yr 13.22895 as_of 2026-08-26 → 2026-12-01",
        "trn1n.32xlarge on_demand 24.78 as_of 2026-08 → 2026-12-01",
        "p4d.24xlarge on_demand 21.957642 as_of 2026-08 → 2026-12-01",
        "lambda-8x-b200 on_demand 53.52 as_of 2026-08 → 2026-12-01",
    ]
    missing = section(out, "Not touched")
    assert [" ".join(m.split()[:2]) for m in missing] == [
        "trn1.2xlarge on_demand", "trn1n.32xlarge reserved_1yr", "p5en.48xlarge on_demand", "p6-b200.48xlarge on_demand"]
    assert "no price published: Price empty at" in missing[3]
    malformed = section(out, "Malformed rows skipped (5)")
    assert any(m.endswith("aws-vms.csv:9: trn1.2xlarge: Price 'n/a' is not a number") for m in malformed), malformed
    assert any(m.endswith("instances.json:42: trn1n.32xlarge: pricing.us-east-1.linux.reserved: is a list, not an object")
               for m in malformed), malformed
    assert malformed[-1] == "and 2 of instance types the catalog does not use"  # g6.xlarge, gpu_1x_b200_sxm6
    assert "lambda-8x-h100-sxm on_demand $3.99 per GPU-hour" in section(out, "Notes kept")
    assert ("Summary: 6 changed, 1 refused, 5 unchanged, 4 not touched, 5 malformed rows skipped; "
            "5 prices of other sources left alone.") in lines(out)


def test_write_changes_only_figures_of_the_named_sources(catalog):
    before = prices(catalog)
    status, out, err = run(catalog, "--as-of", "2026-12-01", "--write", *ALL)
    assert status == 3, err
    after = prices(catalog)
    refreshed = {"skypilot-aws", "skypilot-lambda", "vantage-aws"}
    for key, fig in before.items():
        if fig["source"] not in refreshed:  # capacity blocks, vantage-trn2's trn2 on-demand, epoch's GCP
            assert after[key] == fig, key
    # vantage lists p5.48xlarge on-demand at 40.0, but that figure's source is skypilot-aws.
    assert after[("p5.48xlarge", "on_demand")]["value"] == 50.5
    assert after[("trn2.48xlarge", "spot")] == before[("trn2.48xlarge", "spot")]  # refused
    assert after[("p4d.24xlarge", "spot")] == {"value": 6.1, "low": 5.2, "high": 8.0087, "source": "skypilot-aws",
                                               "as_of": "2026-12-01", "estimate": True,
                                               "note": "spot samples 2.5-8.2 in us-east-1; midpoint"}
    renewed = {k for k in before if after[k]["as_of"] == "2026-12-01"}
    assert renewed == {("trn1.2xlarge", "reserved_1yr"), ("trn1.32xlarge", "spot"), ("p4d.24xlarge", "reserved_1yr"),
                       ("p4d.24xlarge", "spot"), ("p5.48xlarge", "on_demand"), ("lambda-8x-h100-sxm", "on_demand"),
                       ("trn1.32xlarge", "on_demand"), ("trn1.32xlarge", "reserved_1yr"), ("trn1n.32xlarge", "on_demand"),
                       ("p4d.24xlarge", "on_demand"), ("lambda-8x-b200", "on_demand")}
    assert "Wrote" in out


def test_write_keeps_every_other_byte(catalog):
    original = read(catalog).splitlines()
    run(catalog, "--as-of", "2026-12-01", "--write", *ALL)
    written = read(catalog)
    # The house style of scripts/lib/catalog_format.py, and only the 11 figure lines differ.
    assert written == dump(json.loads(written, object_pairs_hook=collections.OrderedDict)) + "\n"
    new = written.splitlines()
    assert len(new) == len(original)
    changed = [(a, b) for a, b in zip(original, new) if a != b]
    assert len(changed) == 11
    for a, b in changed:
        assert '"as_of": "2026-12-01"' in b
        assert re.sub(r'"(value|low|high|as_of)": [^,]+', "", a) == re.sub(r'"(value|low|high|as_of)": [^,]+', "", b)


def test_a_second_run_on_the_same_files_changes_nothing(catalog):
    run(catalog, "--as-of", "2026-12-01", "--write", *ALL)
    first = read(catalog)
    status, out, _ = run(catalog, "--as-of", "2026-12-01", "--write", *ALL)
    assert read(catalog) == first
    assert section(out, "Changed (0)") == [] and "Unchanged (the value is confirmed; as_of is renewed) (11):" in out


def test_force_accepts_a_change_beyond_the_guard_and_max_change_tightens_it(catalog):
    status, out, _ = run(catalog, "--as-of", "2026-12-01", "--write", "--force", ALL[0])
    assert status == 0
    assert prices(catalog)[("trn2.48xlarge", "spot")]["value"] == 8.5964
    status, out, _ = run(catalog, "--as-of", "2026-12-02", "--max-change", "5", ALL[1])
    assert status == 3 and section(out, "Refused")[0].startswith("lambda-8x-h100-sxm on_demand 31.92 → 29.52 (-7.5%)")


def test_one_source_leaves_the_other_refreshable_sources_alone(catalog):
    before = prices(catalog)
    status, out, _ = run(catalog, "--as-of", "2026-12-01", "--write", ALL[1])
    assert status == 0
    after = prices(catalog)
    assert {k for k in before if before[k] != after[k]} == {("lambda-8x-h100-sxm", "on_demand"), ("lambda-8x-b200", "on_demand")}


def test_a_snapshot_older_than_the_figure_is_not_applied(catalog):
    status, out, _ = run(catalog, "--as-of", "2026-08-25", ALL[2])
    assert "p4d.24xlarge reserved_1yr vantage-aws: the figure's as_of 2026-08-26 is newer than the snapshot 2026-08-25" \
        in section(out, "Not touched")


def test_unreadable_input_exits_non_zero_and_writes_nothing(catalog, tmp_path):
    before = read(catalog)
    status, _, err = run(catalog, "--write", f"skypilot-aws={tmp_path}/missing.csv")
    assert status == 1 and "cannot read" in err
    (tmp_path / "bad.json").write_text("[{\"instance_type\": ")
    status, _, err = run(catalog, "--write", f"vantage-aws={tmp_path}/bad.json")
    assert status == 1 and "not valid JSON" in err
    status, _, err = run(catalog, "--write", f"epoch-prices={DATA}/aws-vms.csv")
    assert status == 1 and "not a source with a refresh block" in err
    assert read(catalog) == before
    assert run(catalog, "--as-of", "2026-13-01", ALL[0])[0] == 2
    assert run(catalog, "skypilot-aws")[0] == 2


def test_text_from_the_files_is_escaped(catalog, tmp_path):
    # An escape sequence in a region name (JSON "\u001b") would clear the reviewer's terminal.
    (tmp_path / "evil.json").write_text('[{"instance_type": "p5.48xlarge", "pricing": {"us-east-1\\u001b[2J": {"linux": "1"}}}]')
    _, out, _ = run(catalog, f"vantage-aws={tmp_path}/evil.json")
    assert "\x1b" not in out and "p5.48xlarge: pricing.us-east-1\ufffd[2J.linux is a str, not a pricing object" in out


def test_the_repository_catalog_declares_usable_refresh_blocks():
    with open(os.path.join(ROOT, "assets", "catalog.json"), encoding="utf-8") as f:
        doc = json.load(f)
    specs = price_refresh.refresh_specs(doc)
    assert {"skypilot-aws", "skypilot-lambda", "vantage-aws"} <= set(specs)
    ids = {i["id"] for i in doc["instances"]}
    for spec in specs.values():
        assert set(spec.instance_types) <= ids, spec.source  # a mapping names catalog instances
    status, out, _ = run(os.path.join(ROOT, "assets", "catalog.json"), "--list")
    assert status == 0 and "skypilot-lambda: skypilot-csv, 2 price(s)" in out


# ---- Issue 33 item 13: the CLI's rules on the maintainers' tool ---------------------------------

@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "0", "-5", "abc", "1e400"])
def test_max_change_must_be_a_finite_percentage_above_zero(catalog, value):
    status, out, err = run(catalog, f"--max-change={value}", "--write", *ALL)
    assert status == 2 and "--max-change: must be a finite percentage above 0" in err, err
    assert out == ""


def test_a_tight_max_change_still_guards(catalog):
    # The -62.7% trn2 spot change is refused at 60%; at 1% so is every other change.
    status, out, _ = run(catalog, "--as-of", "2026-12-01", "--max-change", "1", *ALL)
    assert status == 3 and "Changed (0):" in out


def aws_csv_with(tmp_path, price):
    """The fixture's AWS file with p5.48xlarge's us-east-1 price replaced."""
    text = read(os.path.join(DATA, "aws-vms.csv")).replace(",50.5,", f",{price},")
    (tmp_path / "aws.csv").write_text(text)
    return f"skypilot-aws={tmp_path}/aws.csv"


@pytest.mark.parametrize("price", ["1e308", "100001", "1e6", "inf", "nan"])
def test_force_never_writes_a_price_no_scenario_accepts(catalog, tmp_path, price):
    before = prices(catalog)
    status, out, _ = run(catalog, "--as-of", "2026-12-01", "--force", "--write", aws_csv_with(tmp_path, price))
    assert status == 0
    assert prices(catalog)[("p5.48xlarge", "on_demand")] == before[("p5.48xlarge", "on_demand")]
    assert "p5.48xlarge: Price" in out  # reported among the malformed rows


def test_the_largest_price_is_the_scenarios(tmp_path):
    # scripts/lib/price_feeds.MAX_PRICE is options[].price_usd_per_hour's bound (the generated table
    # in docs/scenario-format.md, which cli.docs_schema_in_sync holds to `traincost schema`).
    import price_feeds
    row = next(line for line in read(os.path.join(ROOT, "docs", "scenario-format.md")).splitlines()
               if line.startswith("| `options[].price_usd_per_hour` |"))
    assert row.split("|")[3].strip() == f"> 0 to {price_feeds.MAX_PRICE:,.0f}"


@pytest.mark.parametrize("path,why", [
    ("/dev/zero", "it is a terminal or a device, not a file"),
    ("/dev/urandom", "it is a terminal or a device, not a file"),
    ("/dev/null", "it is a terminal or a device, not a file"),
    ("{tmp}", "it is a directory"),
    ("{tmp}/zero-link.csv", "it is a terminal or a device, not a file"),
])
def test_devices_and_directories_are_refused_before_reading(catalog, tmp_path, path, why):
    os.symlink("/dev/zero", tmp_path / "zero-link.csv")
    path = path.format(tmp=tmp_path)
    status, _, err = run(catalog, "--write", f"skypilot-aws={path}")
    assert (status, err.strip()) == (1, f"refresh-prices: {path}: cannot read: {why}")


def test_a_stream_is_read_up_to_the_limit(tmp_path):
    import threading
    import price_feeds
    fifo = tmp_path / "endless.csv"
    os.mkfifo(fifo)

    def endless():
        try:
            with open(fifo, "wb") as f:
                while True:
                    f.write(b"x" * 65536)
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=endless)
    writer.start()
    with pytest.raises(price_feeds.FeedError, match="larger than 100000 bytes, the most refresh-prices reads"):
        price_feeds.read_bytes(str(fifo), limit=100000)
    writer.join()
    big = tmp_path / "big.csv"
    with open(big, "wb") as f:
        f.truncate(3 << 30)  # sparse: refused from its size, before reading
    with pytest.raises(price_feeds.FeedError, match="it is larger than"):
        price_feeds.read_bytes(str(big))


def test_deeply_nested_json_is_refused_without_a_traceback(catalog, tmp_path):
    (tmp_path / "deep.json").write_text("[" + "[" * 200000 + "]" * 200000 + "]")
    status, _, err = run(catalog, f"vantage-aws={tmp_path}/deep.json")
    assert status == 1 and "not valid JSON (nested too deeply)" in err and "Traceback" not in err, err
    deep_catalog = tmp_path / "deep-catalog.json"
    deep_catalog.write_text("[" * 200000 + "]" * 200000)
    status, _, err = run(deep_catalog, *ALL)
    assert status == 1 and "it is nested too deeply" in err and "Traceback" not in err, err


@pytest.mark.parametrize("character", ["\u202e", "\u2028", "\u2029", "\u2066", "\u200f", "\u061c", "\u200b", "\ufeff", "\x1b", "\x85"])
def test_direction_overrides_and_line_separators_never_reach_the_terminal(catalog, tmp_path, character):
    # In a region name (a malformed row's message) and in an instance type (a note), from JSON and CSV.
    escaped = json.dumps(character)[1:-1]
    (tmp_path / "evil.json").write_text('[{"instance_type": "p5.48xlarge", "pricing": {"us-east-1' + escaped +
                                        'txt": {"linux": "1"}}}, {"instance_type": "x' + escaped + '", "pricing": 3}]')
    (tmp_path / "evil.csv").write_text("InstanceType,Price,Region\np5.48xlarge,abc" + character + "def,us-east-1\n",
                                       encoding="utf-8")
    status, out, err = run(catalog, f"vantage-aws={tmp_path}/evil.json", f"skypilot-aws={tmp_path}/evil.csv")
    assert status == 0, err
    assert character not in out and character not in err
    assert "us-east-1\ufffdtxt" in out


def test_a_refreshed_figure_drops_its_day_not_established_clause():
    # check_asset_dates.py lets a month stand only with this clause; a refresh gives the day.
    f = {"note": "spot samples 2.5-8.2; midpoint; day not established: the commit's date could not be read"}
    price_refresh._drop_day_unknown(f)
    assert f == {"note": "spot samples 2.5-8.2; midpoint"}
    g = {"note": "day not established: the commit's date could not be read"}
    price_refresh._drop_day_unknown(g)
    assert g == {}

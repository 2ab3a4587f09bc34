"""The readers of scripts/lib/price_feeds.py on small files in the real formats (tests/prices/data:
a SkyPilot AWS vms.csv with zone rows, a Local Zone row, empty and malformed rows; a SkyPilot
Lambda vms.csv; a vantage instances.json with wrong-type fields). Expected values are read off
the fixture rows by hand, as the comments say."""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "lib"))
import price_feeds  # noqa: E402
from price_feeds import FeedError, read_skypilot_csv, read_vantage_json  # noqa: E402

DATA = os.path.join(HERE, "data")
AWS_HEADER = ("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,"
              "AvailabilityZone,Arch,LocalDiskType,NVMeSupported,LocalDiskSize,LocalDiskCount\n")


def fixture(name):
    path = os.path.join(DATA, name)
    with open(path, "rb") as f:
        return f.read(), path


def aws():
    return read_skypilot_csv(*fixture("aws-vms.csv"))


def messages(feed):
    return [m for _, m in feed.malformed]


def test_aws_rows_are_merged_per_instance_type_and_region():
    feed = aws()
    p4d = feed.offers[("p4d.24xlarge", "us-east-1")]
    assert p4d.prices["on_demand"] == 21.957642
    # Zone samples 8.0087, 6.1, 5.2 (lines 2-4): median 6.1; the Local Zone row (line 5, spot 1.0,
    # on-demand 23.1) is neither a sample nor a conflicting on-demand price.
    assert (p4d.spot.value, p4d.spot.low, p4d.spot.high, p4d.spot.samples) == (6.1, 5.2, 8.0087, 3)
    assert p4d.spot.where.endswith("aws-vms.csv:2,3,4")
    assert any("use1-atl2-az1" in n for n in feed.notes)
    # p5.48xlarge: two zones at 50.5; the Seoul row is another region.
    assert feed.offers[("p5.48xlarge", "us-east-1")].prices["on_demand"] == 50.5
    assert feed.offers[("p5.48xlarge", "ap-northeast-2")].prices["on_demand"] == 75.9552
    # trn1.32xlarge: samples 7.5346 and 3.1, median = midpoint = 5.3173.
    assert feed.offers[("trn1.32xlarge", "us-east-1")].spot.value == 5.3173


def test_an_empty_price_is_no_price_never_zero():
    feed = aws()
    trn2 = feed.offers[("trn2.48xlarge", "us-east-2")]  # Price empty in both zones, one spot sample
    assert "on_demand" not in trn2.prices
    assert "empty" in trn2.unpublished["on_demand"]
    assert trn2.spot.value == 8.5964 and trn2.spot.samples == 1
    assert "on_demand" not in feed.offers[("trn1.32xlarge", "ap-southeast-4")].prices
    zero = read_skypilot_csv((AWS_HEADER + "x1.large,,,1,1,,0.0,,us-east-1,use1-az1,x86_64,ssd,True,1,1\n").encode(), "z.csv")
    assert zero.offers[("x1.large", "us-east-1")].prices == {}


def test_malformed_rows_are_reported_with_file_line_and_skipped():
    feed = aws()
    got = messages(feed)
    assert any(m.endswith("aws-vms.csv:9: trn1.2xlarge: Price 'n/a' is not a number") for m in got), got
    assert any(m.endswith("aws-vms.csv:16: p5en.48xlarge: 5 fields, the header has 15") for m in got), got
    assert any(m.endswith("aws-vms.csv:18: g6.xlarge: SpotPrice 'abc' is not a number") for m in got), got
    assert ("trn1.2xlarge", "us-east-1") not in feed.offers
    assert ("p5en.48xlarge", "us-east-1") not in feed.offers
    assert feed.rows == 17


@pytest.mark.parametrize("price,reason", [("nan", "not a price"), ("-3", "not a price"), ("inf", "not a price"),
                                          ("2\x00.0", "is not a number"), ("1,5", "fields, the header has")])
def test_prices_that_are_not_prices_are_malformed(price, reason):
    text = AWS_HEADER + f"x1.large,,,1,1,,{price},,us-east-1,use1-az1,x86_64,ssd,True,1,1\n"
    feed = read_skypilot_csv(text.encode(), "x.csv")
    assert feed.offers == {} and reason in messages(feed)[0]


def test_zones_that_disagree_on_the_on_demand_price_give_none():
    text = (AWS_HEADER + "x1.large,,,1,1,,2.0,,us-east-1,use1-az1,x86_64,ssd,True,1,1\n"
            "x1.large,,,1,1,,2.5,,us-east-1,use1-az2,x86_64,ssd,True,1,1\n")
    feed = read_skypilot_csv(text.encode(), "x.csv")
    assert "on_demand" not in feed.offers[("x1.large", "us-east-1")].prices
    assert "differs between zones" in messages(feed)[0]


def test_gpu_info_is_never_parsed():
    # A GpuInfo that is not even a Python literal does not matter to prices.
    text = AWS_HEADER + "x1.large,,,1,1,\"{'Gpus': [broken\",2.0,1.0,us-east-1,use1-az1,x86_64,ssd,True,1,1\n"
    assert read_skypilot_csv(text.encode(), "x.csv").offers[("x1.large", "us-east-1")].prices["on_demand"] == 2.0


def test_lambda_columns_are_found_by_header_name():
    feed = read_skypilot_csv(*fixture("lambda-vms.csv"))
    assert feed.offers[("gpu_8x_h100_sxm5", "us-east-1")].prices["on_demand"] == 29.52
    assert feed.offers[("gpu_8x_h100_sxm5", "us-west-1")].prices["on_demand"] == 31.92
    assert feed.offers[("gpu_8x_b200_sxm6", "us-east-1")].spot is None  # SpotPrice is always empty
    assert any(m.endswith("lambda-vms.csv:7: gpu_1x_b200_sxm6: Price '4.99.1' is not a number") for m in messages(feed))


def test_vantage_prices_are_strings_and_terms_map_to_kinds():
    feed = read_vantage_json(*fixture("instances.json"), reserved_terms={"reserved_1yr": "yrTerm1Standard.noUpfront",
                                                                         "reserved_3yr": "yrTerm3Standard.noUpfront"})
    p4d = feed.offers[("p4d.24xlarge", "us-east-1")]
    assert p4d.prices == {"on_demand": 21.957642, "reserved_1yr": 13.5, "reserved_3yr": 8.9}
    assert (p4d.spot.value, p4d.spot.low, p4d.spot.high, p4d.spot.basis) == (4.4, 2.1, 9.0, "spot_avg")
    assert feed.offers[("trn1.2xlarge", "us-east-1")].prices["reserved_1yr"] == 0.8  # an unquoted number
    assert feed.offers[("trn1.32xlarge", "cn-northwest-1")].prices["on_demand"] == 172.873412
    assert "on_demand" in feed.offers[("trn2.48xlarge", "us-east-2")].unpublished  # "ondemand": ""


def test_vantage_wrong_types_are_reported_with_their_line():
    feed = read_vantage_json(*fixture("instances.json"), reserved_terms={"reserved_1yr": "yrTerm1Standard.noUpfront"})
    trn1n = feed.offers[("trn1n.32xlarge", "us-east-1")]
    assert trn1n.prices == {"on_demand": 24.78}
    assert "is a list, not an object" in trn1n.bad["reserved_1yr"]
    assert any(m.endswith("instances.json:42: trn1n.32xlarge: pricing.us-east-1.linux.reserved: is a list, not an object")
               for m in messages(feed)), messages(feed)
    odd = b'[{"instance_type": "a", "pricing": "n/a"},\n {"instance_type": "b", "pricing": {"r": {"linux": "1.0"}}},\n' \
          b' {"instance_type": "c", "pricing": {"r": {"linux": {"ondemand": [1]}}}}, 7]'
    got = messages(read_vantage_json(odd, "v.json"))
    assert got == ["v.json:1: a: pricing is a str, not an object",
                   "v.json:2: b: pricing.r.linux is a str, not a pricing object",
                   "v.json:3: c: pricing.r.linux.ondemand: expected a price, got list",
                   "v.json:3: element [3] has no instance_type"]


@pytest.mark.parametrize("data,reason", [
    (b"", "no CSV header"), (b"\xff\xfe bad", "not UTF-8"), (b"Name,Cost\nx,1\n", "no column InstanceType, Price, Region")])
def test_a_csv_that_cannot_be_read_raises(data, reason):
    with pytest.raises(FeedError, match=reason):
        read_skypilot_csv(data, "f.csv")


@pytest.mark.parametrize("data,reason", [
    (b'{"instance_type": "x"}', "not a JSON array"), (b'[{"a": 1},\n {"b": ]', "f.json:2: not valid JSON"),
    (b'[1 2]', "expected ',' or ']'")])
def test_a_json_that_cannot_be_read_raises(data, reason):
    with pytest.raises(FeedError, match=reason):
        read_vantage_json(data, "f.json")


def test_only_files_and_https_urls_are_read(tmp_path):
    with pytest.raises(FeedError, match="cannot read"):
        price_feeds.read_bytes(str(tmp_path / "missing.csv"))
    with pytest.raises(FeedError, match="only https"):
        price_feeds.read_bytes("http://example.com/vms.csv")

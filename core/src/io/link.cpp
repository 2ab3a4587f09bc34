#include "traincost/io/link.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "traincost/base/format.hpp"
#include "traincost/base/json_text.hpp"
#include "traincost/io/scenario_json.hpp"

namespace traincost {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr size_t kMaxLinkChars = 16384;   // browsers keep far longer URLs; ours stay under 2,000
constexpr size_t kMaxJsonBytes = 65536;   // a decompressed scenario larger than this is not ours

// Link format 1's preset dictionary: the LZ coder starts as if it had already written this text,
// so the field names and common values of a scenario cost a 3-byte reference instead of their
// letters. FROZEN: changing one byte changes what every existing link decodes to. (It is a
// minimal scenario in compact form with every field, keys in the order compact_json writes.)
constexpr std::string_view kDictionary =
    R"dict({"analysis":{"default_ranges":false,"samples":100000,"seed":2},"catalog":"2026-11-30","name":"",)dict"
    R"dict("options":[{"discount":0.1,"instance":"trn2.48xlarge","instances":16,"label":"Trn2 x16","measure)dict"
    R"dict(d_tokens_per_sec_per_chip":1000,"mfu":0.35,"porting":{"compile_hours_per_run":1,"convergence_pen)dict"
    R"dict(alty":0.02,"egress_tb_per_run":10,"egress_usd_per_tb":90,"engineer_weeks":8,"maintenance_usd_per)dict"
    R"dict(_year":20000,"usd_per_engineer_week":5000,"validation_run_fraction":0.05,"validation_runs":2},"p)dict"
    R"dict(recision":"fp8","price_usd_per_hour":30,"pricing":"reserved_1yr","reliability":{"checkpoint_inte)dict"
    R"dict(rval_hours":2,"checkpoint_write_minutes":3,"mtbf_hours_per_instance":5000,"restart_minutes":10},)dict"
    R"dict("scaling_per_doubling":0.97,"scaling_reference_chips":64},{"instance":"p5.48xlarge","instances":)dict"
    R"dict(32,"label":"H100 x32 (p5)","pricing":"spot"},{"custom":{"chip":"h100","chips":8,"family":"nvidia)dict"
    R"dict(","memory_gb":80,"peak_tflops":989},"instance":"custom","label":"custom","pricing":"on_demand"},)dict"
    R"dict({"instance":"trn1.32xlarge","pricing":"reserved_3yr"},{"instance":"p5en.48xlarge","pricing":"cap)dict"
    R"dict(acity_block"},{"instance":"p6-b200.48xlarge"},{"instance":"lambda-8x-h100-sxm"}],"ranges":[{"dis)dict"
    R"dict(t":"triangular","high":0.4,"input":"options[0].mfu","low":0.2},{"dist":"uniform","high":5,"input)dict"
    R"dict(":"workloads[0].runs","low":1},{"dist":"lognormal","high":20,"input":"options[0].porting.enginee)dict"
    R"dict(r_weeks","low":4}],"reference":1,"version":1,"workloads":[{"horizon_months":24,"memory":{"bytes_)dict"
    R"dict(per_param":18,"flash_attention":false,"micro_batch":2,"tensor_parallel":8,"usable_fraction":0.85)dict"
    R"dict(},"model":{"active_params":1.29e10,"heads":32,"hidden":4096,"layers":32,"params":8.03e9,"seq_len)dict"
    R"dict(":8192,"vocab":128256},"name":"","overrides":[{"engineer_weeks":4,"option":0}],"recompute":true,)dict"
    R"dict("runs":12,"target":{"loss":2.1,"scaling_law":"besiroglu2024"}},{"model":{"params":7.06e10},"targ)dict"
    R"dict(et":{"steps":1000,"tokens_per_step":4194304}},{"model":{"params":1.24e9},"target":{"tokens":2e12)dict"
    R"dict(}}]})dict";

uint16_t checksum16(std::string_view bytes) {
  uint32_t h = 2166136261u;  // FNV-1a
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 16777619u;
  }
  return static_cast<uint16_t>((h >> 16) ^ (h & 0xFFFF));
}

// Shortest decimal spelling that reads back to the same double ("1e12", "0.35", "8030261248").
std::string shortest_number(double v) {
  std::string s;
  for (int precision = 1; precision <= 17; ++precision) {
    s = fmt::printf_c("%.*g", v, precision);
    if (fmt::parse_c(s) == v) break;
  }
  // "1e+12" -> "1e12", "1e-05" -> "1e-5"
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    out += s[i];
    if (s[i] == 'e') {
      size_t j = i + 1;
      if (j < s.size() && s[j] == '+') ++j;
      else if (j < s.size() && s[j] == '-') out += s[j++];
      while (j + 1 < s.size() && s[j] == '0') ++j;
      out += s.substr(j);
      break;
    }
  }
  return out;
}

void write_compact(const Json& j, std::string& out) {
  switch (j.type()) {
    case Json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& item : j.items()) {
        if (!first) out += ',';
        first = false;
        out += Json(item.key()).dump();
        out += ':';
        write_compact(item.value(), out);
      }
      out += '}';
      break;
    }
    case Json::value_t::array: {
      out += '[';
      for (size_t i = 0; i < j.size(); ++i) {
        if (i) out += ',';
        write_compact(j[i], out);
      }
      out += ']';
      break;
    }
    case Json::value_t::number_float: out += shortest_number(j.get<double>()); break;
    default: out += j.dump(); break;
  }
}

}  // namespace

std::string compact_json(std::string_view json_text) {
  Json j = Json::parse(json_text, nullptr, false);
  std::string out;
  if (!j.is_discarded()) write_compact(j, out);
  return out;
}

std::string base64url_encode(std::string_view bytes) {
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += kAlphabet[(buffer >> bits) & 63];
    }
  }
  if (bits > 0) out += kAlphabet[(buffer << (6 - bits)) & 63];
  return out;
}

std::optional<std::string> base64url_decode(std::string_view text, size_t* bad_position) {
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    int v;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == '-') v = 62;
    else if (c == '_') v = 63;
    else {
      if (bad_position) *bad_position = i;
      return std::nullopt;
    }
    buffer = (buffer << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  return out;
}

// LZ byte format: a sequence of tokens, each starting with a control byte c.
//   c < 0x80:  a literal run of c + 1 bytes (1..128) follows.
//   c >= 0x80: a copy of (c & 0x3F) + 3 bytes (3..66) from earlier output, at a distance given
//              by the next byte + 1 (1..256), or, when c & 0x40, by the next two bytes
//              (big-endian) + 1 (1..65536).
std::string lz_compress(std::string_view data, std::string_view dictionary) {
  // Compress `data` as the continuation of `dictionary`: matches may reach into it.
  const std::string joined = std::string(dictionary) + std::string(data);
  const std::string_view in = joined;
  std::string out;
  size_t literal_start = dictionary.size();
  auto flush_literals = [&](size_t end) {
    while (literal_start < end) {
      const size_t n = std::min<size_t>(128, end - literal_start);
      out += static_cast<char>(n - 1);
      out.append(in.substr(literal_start, n));
      literal_start += n;
    }
  };
  // Longest earlier match within 4,096 bytes; among equally long ones the nearest. Only a match
  // of 3+ bytes is ever used, and such a match starts with the same 3 bytes, so the candidates
  // are found through hash chains of 3-byte prefixes (newest first) instead of by scanning the
  // whole window: the output is exactly that of the plain scan, about 50 times sooner (the plain
  // scan took ~5 ms per link, which made the link round-trip tests slow under the sanitizers).
  constexpr int kHashBits = 13;
  std::vector<long> head(size_t{1} << kHashBits, -1), prev(in.size(), -1);
  auto hash3 = [&](size_t p) {
    const uint32_t key = static_cast<uint32_t>(static_cast<unsigned char>(in[p])) << 16 |
                         static_cast<uint32_t>(static_cast<unsigned char>(in[p + 1])) << 8 |
                         static_cast<unsigned char>(in[p + 2]);
    return (key * 2654435761u) >> (32 - kHashBits);
  };
  size_t indexed = 0;  // positions below this are in the chains
  size_t i = dictionary.size();
  while (i < in.size()) {
    for (; indexed < i; ++indexed) {
      if (indexed + 3 > in.size()) continue;
      const uint32_t h = hash3(indexed);
      prev[indexed] = head[h];
      head[h] = static_cast<long>(indexed);
    }
    size_t best_length = 0, best_distance = 0;
    const size_t window_start = i > 4096 ? i - 4096 : 0;
    if (i + 3 <= in.size()) {
      for (long c = head[hash3(i)]; c >= 0 && static_cast<size_t>(c) >= window_start; c = prev[static_cast<size_t>(c)]) {
        const size_t j = static_cast<size_t>(c);
        size_t n = 0;
        while (i + n < in.size() && n < 66 && in[j + n] == in[i + n]) ++n;
        if (n >= 3 && n > best_length) {  // newest first: a tie keeps the nearer match
          best_length = n;
          best_distance = i - j;
          if (n == 66) break;
        }
      }
    }
    if (best_length >= 3 && (best_distance <= 256 || best_length >= 4)) {
      flush_literals(i);
      const size_t d = best_distance - 1;
      if (d < 256) {
        out += static_cast<char>(0x80 | (best_length - 3));
        out += static_cast<char>(d);
      } else {
        out += static_cast<char>(0xC0 | (best_length - 3));
        out += static_cast<char>(d >> 8);
        out += static_cast<char>(d & 0xFF);
      }
      i += best_length;
      literal_start = i;
    } else {
      ++i;
    }
  }
  flush_literals(in.size());
  return out;
}

std::optional<std::string> lz_decompress(std::string_view in, std::string_view dictionary, size_t max_output) {
  std::string out(dictionary);
  max_output += dictionary.size();
  size_t i = 0;
  while (i < in.size()) {
    const auto c = static_cast<unsigned char>(in[i++]);
    if (c < 0x80) {
      const size_t n = c + 1u;
      if (i + n > in.size() || out.size() + n > max_output) return std::nullopt;
      out.append(in.substr(i, n));
      i += n;
    } else {
      const size_t n = (c & 0x3Fu) + 3u;
      size_t distance;
      if (c & 0x40) {
        if (i + 2 > in.size()) return std::nullopt;
        distance = ((static_cast<size_t>(static_cast<unsigned char>(in[i])) << 8) | static_cast<unsigned char>(in[i + 1])) + 1;
        i += 2;
      } else {
        if (i + 1 > in.size()) return std::nullopt;
        distance = static_cast<unsigned char>(in[i]) + 1u;
        i += 1;
      }
      if (distance > out.size() || out.size() + n > max_output) return std::nullopt;
      const size_t from = out.size() - distance;
      for (size_t k = 0; k < n; ++k) out += out[from + k];  // may overlap its own output
    }
  }
  return out.substr(dictionary.size());
}

std::string encode_link(const Scenario& scenario) {
  OrderedJson doc = scenario_to_json(scenario, JsonForm::Minimal);
  for (size_t i = 0; i < scenario.options.size(); ++i)
    if (scenario.options[i].sized_by_default()) doc["options"][i]["instances"] = nullptr;
  const std::string json = compact_json(doc.dump());
  std::string packed = lz_compress(json, kDictionary);
  const uint16_t sum = checksum16(packed);
  packed += static_cast<char>(sum >> 8);
  packed += static_cast<char>(sum & 0xFF);
  return std::to_string(kLinkFormat) + "." + base64url_encode(packed);
}

std::optional<Scenario> decode_link(std::string_view link, const Catalog& catalog, Problems& problems,
                                    std::vector<std::string>* notices) {
  auto fail = [&](std::string message) {
    problems.push_back({"link", std::move(message)});
    return std::nullopt;
  };
  if (link.size() > kMaxLinkChars) return fail("is " + std::to_string(link.size()) + " characters long; TrainCost links are far shorter");
  // The fragment grammar, the same for the page (which hands over location.hash as it is) and
  // the CLI, so that one URL has one meaning (docs/scenario-format.md, "Which texts are links";
  // tests/links/fragments.json):
  //   link     = WS* ( address "#" fragment / "#" fragment / fragment / payload ) WS*
  //   fragment = "s=" payload
  //   payload  = format "." data      format = "1" (no leading zero)     data = *base64url
  // A text that starts with "#", "s=" or a digit is a fragment or a payload; anything else is a
  // page's address, and the fragment is what follows its first "#". A fragment holds no second
  // "#" (a page would open what follows it, the CLI refused the whole: issue row 15) and no
  // percent-escape (links never need one; the page decoded them and the CLI did not).
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!link.empty() && space(link.front())) link.remove_prefix(1);
  while (!link.empty() && space(link.back())) link.remove_suffix(1);
  const bool fragment_first = !link.empty() && (link.front() == '#' || link.substr(0, 2) == "s=" || (link.front() >= '0' && link.front() <= '9'));
  if (!fragment_first) {
    const size_t hash = link.find('#');
    if (hash == std::string_view::npos) {
      if (link.empty()) return fail("is empty");
      return fail("is not a TrainCost scenario link (it should look like #s=1.…)");
    }
    link = link.substr(hash);  // "#" fragment; the address before it is not examined
  }
  if (!link.empty() && link.front() == '#') link.remove_prefix(1);
  if (const size_t second = link.find('#'); second != std::string_view::npos)
    return fail("holds a second \"#\" (after " + std::to_string(second) + " characters of its fragment): a link has one fragment, #s=…");
  if (const size_t percent = link.find('%'); percent != std::string_view::npos)
    return fail("holds a percent-escape (\"" + printable_bytes(link.substr(percent, 3), true) + "\" after " + std::to_string(percent) +
                " characters of its fragment): TrainCost links never need one; copy the link again from where it was made");
  if (link.substr(0, 2) == "s=") link.remove_prefix(2);
  else if (!link.empty() && !(link.front() >= '0' && link.front() <= '9'))
    return fail("is not a TrainCost scenario link (it should look like #s=1.…)");
  if (link.empty()) return fail("is empty");

  const size_t dot = link.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot > 4)
    return fail("is not a TrainCost scenario link (it should look like #s=1.…)");
  int format = 0;
  for (char c : link.substr(0, dot)) {
    if (c < '0' || c > '9') return fail("is not a TrainCost scenario link (it should look like #s=1.…)");
    format = format * 10 + (c - '0');
  }
  if (dot > 1 && link.front() == '0')
    return fail("has a format number written with a leading zero (\"" + std::string(link.substr(0, dot)) + "\"); it should look like #s=1.…");
  if (format > kLinkFormat)
    return fail("was made by a newer TrainCost (link format " + std::to_string(format) + "; this page reads up to " +
                std::to_string(kLinkFormat) + "): open it in the current calculator");
  if (format < 1) return fail("has an unknown format number " + std::to_string(format));

  size_t bad = 0;
  const std::optional<std::string> packed = base64url_decode(link.substr(dot + 1), &bad);
  if (!packed) return fail("contains a character that cannot be in a link (position " + std::to_string(dot + 1 + bad) + ")");
  if (packed->size() < 3) return fail("is damaged: too short (was it cut off when copying?)");
  const std::string_view body(packed->data(), packed->size() - 2);
  const uint16_t stored = static_cast<uint16_t>((static_cast<unsigned char>((*packed)[packed->size() - 2]) << 8) |
                                                static_cast<unsigned char>((*packed)[packed->size() - 1]));
  if (stored != checksum16(body)) return fail("is damaged: its checksum does not match (was it cut off or edited?)");
  const std::optional<std::string> json = lz_decompress(body, kDictionary, kMaxJsonBytes);
  if (!json) return fail("is damaged: its data cannot be unpacked");

  Problems inner;
  std::optional<Json> doc = parse_json(*json, inner);
  std::optional<Scenario> s;
  std::vector<bool> default_sized;
  if (doc && doc->is_object() && doc->contains("options") && (*doc)["options"].is_array())
    for (Json& o : (*doc)["options"]) {
      const bool null_size = o.is_object() && o.contains("instances") && o["instances"].is_null();
      if (null_size) o.erase("instances");
      default_sized.push_back(null_size);
    }
  if (doc) s = scenario_from_json(*doc, inner);
  if (s) default_sized.resize(s->options.size(), false);
  if (s) inner = validate(*s, catalog);
  if (!doc || !s || !inner.empty()) {
    for (const Problem& p : inner) problems.push_back({p.path.empty() ? "link" : p.path, p.message});
    return std::nullopt;
  }
  // A link leaves out `instances` for a size of 1 and writes null for a default size.
  for (size_t i = 0; i < s->options.size(); ++i) s->options[i].instances_default = default_sized[i];
  if (notices && !s->catalog.empty() && s->catalog != catalog.version)
    notices->push_back("This link was made with the catalog of " + s->catalog + "; prices and defaults now come from the catalog of " +
                       catalog.version + ", so figures may differ from what its author saw.");
  return s;
}

}  // namespace traincost

// Fuzz target: share links, the input strangers paste. Each input is used three ways:
//   1. as link text, as a user would paste it (decode_link);
//   2. as the packed bytes inside a link, with a correct checksum added, so mutations get past
//      the checksum and reach the LZ decoder, the JSON parser and the scenario reader;
//   3. as raw bytes for the codec pieces (base64url, LZ), which must round-trip exactly.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "traincost/api/builtin.hpp"
#include "traincost/io/link.hpp"

using namespace traincost;

namespace {

// The checksum of link format 1 (link.cpp): FNV-1a folded to 16 bits, appended big-endian.
std::string with_checksum(std::string_view bytes) {
  uint32_t h = 2166136261u;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 16777619u;
  }
  const auto sum = static_cast<uint16_t>((h >> 16) ^ (h & 0xFFFF));
  std::string out(bytes);
  out += static_cast<char>(sum >> 8);
  out += static_cast<char>(sum & 0xFF);
  return out;
}

void open_link(std::string_view link) {
  Problems problems;
  std::vector<std::string> notices;
  const std::optional<Scenario> s = decode_link(link, builtin_catalog(), problems, &notices);
  fuzz::check_problems(problems);
  if (!s) {
    TRAINCOST_FUZZ_CHECK(!problems.empty(), "link rejected without a problem");
    return;
  }
  // The fragment grammar (link.cpp): what opens has one fragment, without a percent-escape.
  const size_t hash = link.find('#');
  const std::string_view fragment = hash == std::string_view::npos ? link : link.substr(hash + 1);
  TRAINCOST_FUZZ_CHECK(fragment.find('#') == std::string_view::npos && fragment.find('%') == std::string_view::npos,
                       "a link with two fragments or a percent-escape opened: " + std::string(link.substr(0, 200)));
  // Whatever a link decodes to must survive being shared again.
  const std::string canonical = scenario_to_json(*s).dump();
  Problems again;
  const std::optional<Scenario> back = decode_link(encode_link(*s), builtin_catalog(), again);
  TRAINCOST_FUZZ_CHECK(back, "re-encoded link does not open:\n" + to_string(again) + canonical);
  TRAINCOST_FUZZ_CHECK(scenario_to_json(*back).dump() == canonical, "re-encoding changed the scenario:\n" + canonical);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);

  open_link(bytes);
  open_link("#s=1." + base64url_encode(with_checksum(bytes)));

  size_t bad = 0;
  (void)base64url_decode(bytes, &bad);
  const std::optional<std::string> round = base64url_decode(base64url_encode(bytes));
  TRAINCOST_FUZZ_CHECK(round && *round == bytes, "base64url round trip");

  (void)lz_decompress(bytes, {}, 1 << 16);
  (void)lz_decompress(bytes, R"({"version":1,"workloads":[)", 1 << 16);
  if (size <= 2048) {  // lz_compress scans a 4 KB window per byte: keep each run fast
    const std::optional<std::string> unpacked = lz_decompress(lz_compress(bytes, "{\"a\":"), "{\"a\":", 1 << 16);
    TRAINCOST_FUZZ_CHECK(unpacked && *unpacked == bytes, "LZ round trip");
  }
  (void)compact_json(bytes);
  return 0;
}

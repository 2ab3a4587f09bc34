#pragma once
// Share links: the whole scenario in the URL fragment, `#s=1.<payload>`.
//
// Link format 1 (frozen: links are forever; a new format gets a new number and this decoder stays):
//   payload = base64url( lz(json) ++ checksum16 )
//   json    = the scenario in its minimal JSON form (fields equal to their defaults left out,
//             numbers in their shortest round-trip spelling)
//   lz      = the small LZ77 byte format described in link.cpp, primed with a frozen dictionary
//   checksum16 = FNV-1a of lz(json), folded to 16 bits, big-endian: catches links cut short or
//             altered when copied
// Decoding never trusts the payload: every length and offset is bounds-checked, output is capped,
// and the JSON goes through the same reader and validation as a scenario file.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "traincost/data/catalog.hpp"
#include "traincost/base/problems.hpp"
#include "traincost/scenario/scenario.hpp"

namespace traincost {

// Links wrote no `instances` for a size of 1 (the minimal form leaves defaults out), so an option
// without `instances` in a link opens on one instance, as it always did; an option sized by
// default (Option::instances_default) is written as "instances":null, which only links use.
inline constexpr int kLinkFormat = 1;

// "1.eJyrVkrLz..." (what follows "#s=").
std::string encode_link(const Scenario& scenario);

// Accepts the payload, "s=<payload>", "#s=<payload>" or a whole URL containing "#s=".
// `notices` (optional) receives non-fatal remarks, e.g. that the link predates the catalog.
std::optional<Scenario> decode_link(std::string_view link, const Catalog& catalog, Problems& problems,
                                    std::vector<std::string>* notices = nullptr);

// Pieces exposed for tests and fuzzing.
std::string base64url_encode(std::string_view bytes);
std::optional<std::string> base64url_decode(std::string_view text, size_t* bad_position = nullptr);
std::string lz_compress(std::string_view bytes, std::string_view dictionary = {});
std::optional<std::string> lz_decompress(std::string_view bytes, std::string_view dictionary, size_t max_output);
std::string compact_json(std::string_view json_text);  // shortest numbers, no spaces

}  // namespace traincost

#pragma once
// The words an enum is written as in JSON (and shown as on the page), one table per enum, declared
// next to the enum. Reading, writing and describing all go through the table.
#include <optional>
#include <string_view>

namespace traincost {

template <typename E>
struct EnumWord {
  E value;
  const char* word;         // in the JSON: "on_demand"
  const char* description;  // for people: "On-demand"
};

template <typename E, size_t N>
const char* word_of(const EnumWord<E> (&table)[N], E value) {
  for (const EnumWord<E>& w : table)
    if (w.value == value) return w.word;
  return table[0].word;
}

template <typename E, size_t N>
const char* description_of(const EnumWord<E> (&table)[N], E value) {
  for (const EnumWord<E>& w : table)
    if (w.value == value) return w.description;
  return table[0].description;
}

template <typename E, size_t N>
std::optional<E> parse_word(const EnumWord<E> (&table)[N], std::string_view text) {
  for (const EnumWord<E>& w : table)
    if (text == w.word) return w.value;
  return std::nullopt;
}

}  // namespace traincost

#pragma once
// Finding an entry of a loaded table (chips, instances, sources, published runs) by its id.
#include <string_view>
#include <vector>

namespace traincost {

// The first entry whose `id` is `id`, or nullptr. Tables are tens of rows: a scan is the simplest.
template <class T>
const T* find_by_id(const std::vector<T>& entries, std::string_view id) {
  for (const T& e : entries)
    if (e.id == id) return &e;
  return nullptr;
}

}  // namespace traincost

// src/graph500/validate_text.hpp — the validators' messages and the vertices they name. A vertex id
// written with vertex_text(v) is marked in the message as it is built; failed_message() strips the
// marks and records where each id stands (validation::vertices), so that a caller can write those
// vertices its own way (by the labels of the file it read: graph500/searches.cpp) while the
// validators know nothing of labels. Unmarked numbers (counts, levels, distances, ids out of range)
// stay as written.
#pragma once

#include <string>

#include "gpu500/core/types.hpp"
#include "gpu500/graph500/pipeline.hpp"

namespace gpu500::graph500::detail {

/// Encloses a vertex id in a validator's message (a control character no message holds otherwise).
inline constexpr char vertex_mark = '\x1e';

/// Vertex v's id, marked as a vertex of the message.
inline std::string vertex_text(index_t v) { return vertex_mark + std::to_string(v) + vertex_mark; }

/// out.message and out.vertices from a message whose vertex ids are marked (vertex_text).
inline void failed_message(validation& out, const std::string& marked) {
  out.message.clear();
  out.vertices.clear();
  for (std::size_t i = 0; i < marked.size(); ++i) {
    if (marked[i] != vertex_mark) {
      out.message.push_back(marked[i]);
      continue;
    }
    const std::size_t end = marked.find(vertex_mark, i + 1);
    const std::string id = marked.substr(i + 1, end - i - 1);
    out.vertices.push_back({out.message.size(), id.size(), std::stoll(id)});
    out.message += id;
    i = end;
  }
}

/// A failed validation with this marked message.
inline validation failed(const std::string& marked, index_t nedge) {
  validation out{false, {}, nedge};
  failed_message(out, marked);
  return out;
}

}  // namespace gpu500::graph500::detail

// Minimal JSON writer used by every `--json` output.
#include "gpu500/core/json.hpp"

#include <cmath>
#include <cstdio>

#include "gpu500/core/atomic_file.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/provenance.hpp"

namespace gpu500::json {

bool value::has(std::string_view key) const {
  if (!is_object()) return false;
  for (const auto& [k, v] : std::get<object>(v_))
    if (k == key) return true;
  return false;
}

value& value::operator[](std::string_view key) {
  if (std::holds_alternative<std::nullptr_t>(v_)) v_ = object{};
  GPU500_EXPECTS(is_object(), "json: member access on a non-object");
  auto& o = std::get<object>(v_);
  for (auto& [k, v] : o)
    if (k == key) return v;
  o.emplace_back(std::string(key), value());
  return o.back().second;
}

void value::push_back(value v) {
  if (std::holds_alternative<std::nullptr_t>(v_)) v_ = array{};
  GPU500_EXPECTS(is_array(), "json: push_back on a non-array");
  std::get<array>(v_).push_back(std::move(v));
}

static void write_string(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

void value::write(std::string& out, int indent, int depth) const {
  auto newline = [&](int d) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * d), ' ');
  };
  if (std::holds_alternative<std::nullptr_t>(v_)) {
    out += "null";
  } else if (auto* b = std::get_if<bool>(&v_)) {
    out += *b ? "true" : "false";
  } else if (auto* i = std::get_if<std::int64_t>(&v_)) {
    out += std::to_string(*i);
  } else if (auto* d = std::get_if<double>(&v_)) {
    if (!std::isfinite(*d)) {
      out += "null";
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", *d);
      out += buf;
    }
  } else if (auto* s = std::get_if<std::string>(&v_)) {
    write_string(out, *s);
  } else if (auto* a = std::get_if<array>(&v_)) {
    out += '[';
    for (std::size_t k = 0; k < a->size(); ++k) {
      if (k) out += ',';
      newline(depth + 1);
      (*a)[k].write(out, indent, depth + 1);
    }
    if (!a->empty()) newline(depth);
    out += ']';
  } else {
    const auto& o = std::get<object>(v_);
    out += '{';
    for (std::size_t k = 0; k < o.size(); ++k) {
      if (k) out += ',';
      newline(depth + 1);
      write_string(out, o[k].first);
      out += indent < 0 ? ":" : ": ";
      o[k].second.write(out, indent, depth + 1);
    }
    if (!o.empty()) newline(depth);
    out += '}';
  }
}

std::string value::dump(int indent) const {
  std::string out;
  write(out, indent, 0);
  return out;
}

void check_writable(const std::string& path, const std::string& what) { atomic_file::check_writable(path, what); }

// Every document says what made it: an object gets the "provenance" member (docs/json.md) unless
// it has one already.
void write_file(const std::string& path, const value& v) {
  if (!v.is_object() || v.has("provenance")) {
    atomic_file::write_whole(path, v.dump() + "\n", "JSON file ");
    return;
  }
  value with = v;
  with["provenance"] = provenance::to_json(provenance::current());
  atomic_file::write_whole(path, with.dump() + "\n", "JSON file ");
}

}  // namespace gpu500::json

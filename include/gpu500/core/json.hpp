// gpu500/core/json.hpp — a small JSON value for `--json` output (writer only).
//
// Every benchmark writes all its figures through this type so that tools and plots read one format.
// Numbers are written with 17 significant digits (round-trip), non-finite numbers as null.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace gpu500::json {

class value {
 public:
  using array = std::vector<value>;
  using object = std::vector<std::pair<std::string, value>>;  // keeps insertion order

  value() : v_(nullptr) {}
  value(std::nullptr_t) : v_(nullptr) {}
  value(bool b) : v_(b) {}
  value(double d) : v_(d) {}
  value(float d) : v_(static_cast<double>(d)) {}
  value(int i) : v_(static_cast<std::int64_t>(i)) {}
  value(long i) : v_(static_cast<std::int64_t>(i)) {}
  value(long long i) : v_(static_cast<std::int64_t>(i)) {}
  value(unsigned i) : v_(static_cast<std::int64_t>(i)) {}
  value(unsigned long i) : v_(static_cast<std::int64_t>(i)) {}
  value(unsigned long long i) : v_(static_cast<std::int64_t>(i)) {}
  value(const char* s) : v_(std::string(s)) {}
  value(std::string s) : v_(std::move(s)) {}
  value(std::string_view s) : v_(std::string(s)) {}
  value(array a) : v_(std::move(a)) {}
  value(object o) : v_(std::move(o)) {}
  template <class T>
  value(const std::vector<T>& xs) : v_(array(xs.begin(), xs.end())) {}

  static value make_object() { return value(object{}); }
  static value make_array() { return value(array{}); }

  /// Object member access; converts null to an empty object, appends missing keys.
  value& operator[](std::string_view key);
  /// Append to an array (null becomes an empty array).
  void push_back(value v);

  [[nodiscard]] bool is_object() const { return std::holds_alternative<object>(v_); }
  [[nodiscard]] bool is_array() const { return std::holds_alternative<array>(v_); }
  /// Whether this is an object with the member `key`.
  [[nodiscard]] bool has(std::string_view key) const;

  /// Serialise; indent < 0 writes one line.
  [[nodiscard]] std::string dump(int indent = 2) const;

 private:
  void write(std::string& out, int indent, int depth) const;
  std::variant<std::nullptr_t, bool, std::int64_t, double, std::string, array, object> v_;
};

/// Write v to path under the output rule of core/atomic_file.hpp (atomically, or through a device
/// or FIFO); throws gpu500::error when the file cannot be written. An object gets the member
/// "provenance" (core/provenance.hpp: version, commit, host, libraries) unless it has one.
void write_file(const std::string& path, const value& v);
/// atomic_file::check_writable: throws usage_error naming `what` (e.g. "--json") unless a file
/// can be written at path under the output rule.
void check_writable(const std::string& path, const std::string& what);

}  // namespace gpu500::json

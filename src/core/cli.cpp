// Command-line parsing shared by the sub-commands (see gpu500/core/cli.hpp).
#include "gpu500/core/cli.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "gpu500/core/error.hpp"
#include "gpu500/core/atomic_file.hpp"

namespace gpu500::cli {

// Decimal only: "010" is ten (as in graph files and HPL.dat), "0x10" is refused.
std::int64_t parse_int(const std::string& s, const std::string& what) {
  if (s.empty()) throw usage_error(what + ": expected an integer, got an empty value");
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0')
    throw usage_error(what + ": expected an integer (decimal digits), got '" + s + "'");
  if (errno == ERANGE) throw usage_error(what + ": '" + s + "' is out of range");
  return v;
}

double parse_double(const std::string& s, const std::string& what) {
  if (s.empty()) throw usage_error(what + ": expected a number, got an empty value");
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (errno == ERANGE || !std::isfinite(v)) throw usage_error(what + ": '" + s + "' is out of range");
  if (end == s.c_str() || *end != '\0') throw usage_error(what + ": expected a number, got '" + s + "'");
  return v;
}

static std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

parser::parser(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {}

parser& parser::flag(std::string name, bool& target, std::string help) {
  opts_.push_back({split(name, '|'), std::move(help), "", false, [&target](const std::string&) { target = true; }});
  return *this;
}
parser& parser::option(std::string name, std::string& target, std::string help) {
  return option(std::move(name), [&target](const std::string& v) { target = v; }, std::move(help), "S");
}
parser& parser::output_file(std::string name, std::string& target, std::string help) {
  const std::string what = name.substr(name.rfind('|') + 1);
  return option(std::move(name), [&target, what](const std::string& v) {
    atomic_file::check_writable(v, what);
    target = v;
  }, std::move(help), "FILE");
}
parser& parser::option(std::string name, int& target, std::string help) {
  const std::string what = name;
  return option(std::move(name), [&target, what](const std::string& v) {
    const auto x = parse_int(v, what);
    if (x < INT32_MIN || x > INT32_MAX) throw usage_error(what + ": '" + v + "' is out of range");
    target = static_cast<int>(x);
  }, std::move(help), "N");
}
parser& parser::option(std::string name, std::int64_t& target, std::string help) {
  const std::string what = name;
  return option(std::move(name), [&target, what](const std::string& v) { target = parse_int(v, what); },
                std::move(help), "N");
}
parser& parser::option(std::string name, double& target, std::string help) {
  const std::string what = name;
  return option(std::move(name), [&target, what](const std::string& v) { target = parse_double(v, what); },
                std::move(help), "X");
}
parser& parser::option(std::string name, std::vector<std::int64_t>& target, std::string help) {
  const std::string what = name;
  return option(std::move(name), [&target, what](const std::string& v) {
    target.clear();
    for (const auto& part : split(v, ',')) target.push_back(parse_int(part, what));
  }, std::move(help), "A,B,...");
}
parser& parser::option(std::string name, std::function<void(const std::string&)> set, std::string help,
                       std::string metavar) {
  opts_.push_back({split(name, '|'), std::move(help), std::move(metavar), true, std::move(set)});
  return *this;
}
parser& parser::positional(std::string name, int& target, std::string help, bool required) {
  const std::string what = name;
  pos_.push_back({std::move(name), std::move(help), required, [&target, what](const std::string& v) {
                    const auto x = parse_int(v, what);
                    if (x < INT32_MIN || x > INT32_MAX) throw usage_error(what + ": '" + v + "' is out of range");
                    target = static_cast<int>(x);
                  }});
  return *this;
}
parser& parser::positional(std::string name, std::string& target, std::string help, bool required) {
  pos_.push_back({std::move(name), std::move(help), required, [&target](const std::string& v) { target = v; }});
  return *this;
}

parser::opt* parser::find(const std::string& name) {
  for (auto& o : opts_)
    for (const auto& n : o.names)
      if (n == name) return &o;
  return nullptr;
}

bool parser::given(const std::string& name) const {
  for (const auto& o : opts_)
    for (const auto& n : o.names)
      if (n == name) return o.seen;
  return false;
}

std::vector<std::string> parser::given_between(std::size_t first, std::size_t last) const {
  std::vector<std::string> out;
  for (std::size_t i = first; i < last && i < opts_.size(); ++i)
    if (opts_[i].seen) out.push_back(opts_[i].names.front());
  return out;
}

void parser::parse(int argc, const char* const* argv, int first) {
  std::vector<std::string> args;
  for (int i = first; i < argc; ++i) args.emplace_back(argv[i]);
  parse(args);
}

void parser::parse(const std::vector<std::string>& args) {
  std::size_t next_pos = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      help_ = true;
      return;
    }
    const bool looks_like_flag = a.size() > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.';
    if (looks_like_flag) {
      std::string name = a, value;
      bool inline_value = false;
      if (const auto eq = a.find('='); eq != std::string::npos && a.rfind("--", 0) == 0) {
        name = a.substr(0, eq);
        value = a.substr(eq + 1);
        inline_value = true;
      }
      opt* o = find(name);
      if (!o) throw usage_error(program_ + ": unknown option '" + name + "' (see --help)");
      if (o->takes_value) {
        if (!inline_value) {
          if (i + 1 >= args.size()) throw usage_error(program_ + ": option '" + name + "' needs a value");
          value = args[++i];
        }
      } else if (inline_value) {
        throw usage_error(program_ + ": option '" + name + "' takes no value");
      }
      // No option takes an empty value: "--json ''" or "--lf=" is a mistake, not "the default".
      if (o->takes_value && value.empty()) throw usage_error(program_ + ": option '" + name + "' has an empty value");
      o->set(value);
      o->seen = true;
      continue;
    }
    if (next_pos >= pos_.size()) throw usage_error(program_ + ": unexpected argument '" + a + "' (see --help)");
    pos_[next_pos++].set(a);
  }
  for (std::size_t k = next_pos; k < pos_.size(); ++k)
    if (pos_[k].required) throw usage_error(program_ + ": missing argument " + pos_[k].name);
}

std::string parser::help() const {
  // Help in column 28, and at least two spaces after a long name: one space would make the
  // first word of the help look like the option's value to a reader (and to scripts).
  const auto gap = [](const std::string& lhs) { return std::string(lhs.size() < 24 ? 26 - lhs.size() : 2, ' '); };
  std::ostringstream out;
  out << "usage: " << program_;
  for (const auto& p : pos_) out << (p.required ? " " : " [") << p.name << (p.required ? "" : "]");
  out << " [options]\n" << summary_ << "\n";
  if (!pos_.empty()) {
    out << "\narguments:\n";
    for (const auto& p : pos_) out << "  " << p.name << gap(p.name) << p.help << "\n";
  }
  out << "\noptions:\n";
  for (const auto& o : opts_) {
    std::string lhs;
    for (std::size_t k = 0; k < o.names.size(); ++k) lhs += (k ? ", " : "") + o.names[k];
    if (o.takes_value) lhs += " " + o.metavar;
    out << "  " << lhs << gap(lhs) << o.help << "\n";
  }
  out << "  -h, --help                help\n";
  return out.str();
}

}  // namespace gpu500::cli

// Graph files beyond the plain edge list: SNAP whitespace variants, Matrix Market (fields,
// symmetry, bounds, refused kinds), gzip of every format, the binary CSR (round trips and every
// validation), detection and --format overrides, the parallel parse against a one-chunk parse on
// many chunk boundaries (edges and error line numbers), edge lists as other tools write them
// (commas, a header line, labelled vertices, NetworkX's edge data), and the --output
// search-result file (with labels too).
#include <gtest/gtest.h>

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "gpu500/core/error.hpp"
#include "gpu500/graph/io.hpp"

using namespace gpu500;
using namespace gpu500::graph;

namespace {

/// A scratch directory removed with its files at the end of a test.
struct scratch {
  std::string dir;
  scratch() {
    char name[] = "/tmp/gpu500_iof_XXXXXX";
    dir = mkdtemp(name);
  }
  ~scratch() { std::system(("rm -rf '" + dir + "'").c_str()); }
  std::string file(const std::string& name, const std::string& bytes) const {
    const std::string p = dir + "/" + name;
    std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }
  std::string path(const std::string& name) const { return dir + "/" + name; }
};

std::string error_of(const std::string& path, read_options o = {}) {
  try {
    read_graph(path, o);
  } catch (const usage_error& e) {
    return e.what();
  }
  return "";
}

/// Edges as sorted (min, max, weight) triples: the undirected graph, whatever the orientation.
std::vector<std::tuple<std::int64_t, std::int64_t, float>> undirected(const edge_list& el) {
  std::vector<std::tuple<std::int64_t, std::int64_t, float>> e;
  for (index_t i = 0; i < el.size(); ++i)
    e.emplace_back(std::min(el.src[i], el.dst[i]), std::max(el.src[i], el.dst[i]), el.weighted() ? el.weight[i] : 0.f);
  std::sort(e.begin(), e.end());
  return e;
}

edge_list sample(bool weighted) {
  edge_list el;
  el.num_vertices = 7;
  el.src = {0, 1, 2, 3, 0, 5, 2, 1};
  el.dst = {1, 2, 3, 0, 2, 6, 2, 2};  // a self-loop (2, 2) and a duplicate edge {1, 2}
  if (weighted) el.weight = {0.5f, 0.25f, 1.f, 0.125f, 0.875f, 1e-3f, 0.1f, 3.f};
  return el;
}

}  // namespace

TEST(GraphFiles, SnapWhitespaceCommentsAndCrlf) {
  scratch s;
  const auto p = s.file("g.txt", "# FromNodeId\tToNodeId\r\n0\t1\r\n  2    5 \r\n\r\n%c\n7\t \t3 # trailing\n");
  const graph_file g = read_graph(p);
  EXPECT_EQ(g.format, file_format::snap);
  EXPECT_FALSE(g.gzip);
  EXPECT_TRUE(g.directed);
  EXPECT_EQ(g.edges.num_vertices, 8);
  EXPECT_EQ(g.edges.src, (host_vector<std::int64_t>{0, 2, 7}));
  EXPECT_EQ(g.edges.dst, (host_vector<std::int64_t>{1, 5, 3}));
  // Weights parsed but not kept when not wanted; kept otherwise.
  const auto w = s.file("w.txt", "0 1 2.5\n1 2 +1e-2\n");
  read_options o;
  o.weights = false;
  EXPECT_FALSE(read_graph(w, o).edges.weighted());
  EXPECT_EQ(read_graph(w).edges.weight, (host_vector<float>{2.5f, 0.01f}));
  EXPECT_NE(error_of(s.file("x.txt", "0 1x\n")).find(":1: expected a vertex id"), std::string::npos);
}

TEST(GraphFiles, CommasHeadersAndLabels) {
  scratch s;
  // Commas separate fields as blanks do; --header skips the first line that is not a comment.
  const auto csv = s.file("g.csv", "# exported\nsrc,dst,w\n0,1,2.5\r\n1, 2 ,0.5\n");
  read_options h;
  h.header = true;
  const graph_file g = read_graph(csv, h);
  EXPECT_EQ(g.edges.src, (host_vector<std::int64_t>{0, 1}));
  EXPECT_EQ(g.edges.dst, (host_vector<std::int64_t>{1, 2}));
  EXPECT_EQ(g.edges.weight, (host_vector<float>{2.5f, 0.5f}));
  EXPECT_TRUE(g.labels.empty());
  EXPECT_NE(error_of(csv).find(":2: expected a vertex id, got 'src,dst,w' (vertex names that are not integers: --labels)"),
            std::string::npos);
  // Labels: any token, quoted when it holds a separator, numbered in order of first appearance.
  read_options l;
  l.labels = true;
  const auto named = s.file("n.txt", "alice bob 1\n'new york' alice 2\n\"a,b\"\tbob 0\n# c\n");
  const graph_file n = read_graph(named, l);
  EXPECT_EQ(n.labels, (std::vector<std::string>{"alice", "bob", "new york", "a,b"}));
  EXPECT_EQ(n.edges.num_vertices, 4);
  EXPECT_EQ(n.edges.src, (host_vector<std::int64_t>{0, 2, 3}));
  EXPECT_EQ(n.edges.dst, (host_vector<std::int64_t>{1, 0, 1}));
  EXPECT_EQ(n.edges.weight, (host_vector<float>{1.f, 2.f, 0.f}));
  // NetworkX's write_edgelist: the data dict's 'weight', 1 where the dict has none.
  const auto nx = s.file("nx.txt", "a b {'weight': 2.5}\nb c {}\nc 7 {\"color\": \"red\", \"weight\": 4}\n");
  const graph_file x = read_graph(nx, l);
  EXPECT_EQ(x.labels, (std::vector<std::string>{"a", "b", "c", "7"}));
  EXPECT_EQ(x.edges.weight, (host_vector<float>{2.5f, 1.f, 4.f}));
  l.weights = false;
  EXPECT_FALSE(read_graph(nx, l).edges.weighted());
  l.weights = true;
  // Sparse integer names become dense ids.
  const graph_file sp = read_graph(s.file("sp.txt", "1000000000000 5\n5 77\n"), l);
  EXPECT_EQ(sp.labels, (std::vector<std::string>{"1000000000000", "5", "77"}));
  EXPECT_EQ(sp.edges.num_vertices, 3);
  // Errors name the file and line.
  EXPECT_NE(error_of(s.file("e1.txt", "a b\nc\n"), l).find("e1.txt:2: expected two vertex names"), std::string::npos);
  EXPECT_NE(error_of(s.file("e2.txt", "a b 1\nc d\n"), l).find("e2.txt:2: every edge line needs the same number of fields"),
            std::string::npos);
  EXPECT_NE(error_of(s.file("e3.txt", "a b -1\n"), l).find("finite non-negative weight"), std::string::npos);
  EXPECT_NE(error_of(s.file("e4.txt", "a b {'weight': 'x'}\n"), l).find("'weight' is not a number"), std::string::npos);
  EXPECT_NE(error_of(s.file("e5.txt", "'a b 1\n"), l).find("unclosed quote"), std::string::npos);
  EXPECT_NE(error_of(s.file("e6.txt", "u v w\na b 1\n"), l).find("--header"), std::string::npos);
  l.num_vertices = 9;
  EXPECT_NE(error_of(named, l).find("labelled vertices are counted"), std::string::npos);
}

TEST(GraphFiles, MatrixMarketFieldsAndSymmetry) {
  scratch s;
  const auto gen = s.file("a.mtx", "%%MatrixMarket matrix coordinate pattern general\n% c\n%\n\n5 5 3\n1 2\n5 1\n3 3\n");
  const graph_file g = read_graph(gen);
  EXPECT_EQ(g.format, file_format::mtx);
  EXPECT_TRUE(g.directed);
  EXPECT_EQ(g.edges.num_vertices, 5);
  EXPECT_EQ(g.edges.src, (host_vector<std::int64_t>{0, 4, 2}));
  EXPECT_EQ(g.edges.dst, (host_vector<std::int64_t>{1, 0, 2}));
  EXPECT_FALSE(g.edges.weighted());
  const auto sym = s.file("b.txt", "%%matrixmarket MATRIX coordinate real Symmetric\n4 4 2\n2 1 0.5\n4 3 1e1\n");
  const graph_file h = read_graph(sym);  // the header decides, whatever the extension
  EXPECT_FALSE(h.directed);
  EXPECT_EQ(h.edges.num_vertices, 4);
  EXPECT_EQ(h.edges.weight, (host_vector<float>{0.5f, 10.f}));
  const auto integer = s.file("c.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 3 7\n");
  EXPECT_EQ(read_graph(integer).edges.weight, (host_vector<float>{7.f}));
  // A negative value is fine for BFS (no weights kept), refused as an SSSP weight.
  const auto neg = s.file("d.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 3 -2\n");
  read_options bfs;
  bfs.weights = false;
  EXPECT_EQ(read_graph(neg, bfs).edges.size(), 1);
  EXPECT_NE(error_of(neg).find("d.mtx:3: expected a finite non-negative value"), std::string::npos) << error_of(neg);
}

TEST(GraphFiles, MatrixMarketRefusals) {
  scratch s;
  auto err = [&](const std::string& text) { return error_of(s.file("m.mtx", text)); };
  const std::string head = "%%MatrixMarket matrix coordinate pattern general\n";
  EXPECT_NE(err(head + "3 3 2\n1 2\n4 1\n").find("m.mtx:4: entry outside the size line's 1..3"), std::string::npos);
  EXPECT_NE(err(head + "3 3 1\n0 2\n").find("m.mtx:3: entry outside"), std::string::npos);
  // 2^63 and ids that wrap 64 bits: refused, with no signed overflow on the way (the id minus
  // the file's base 1 was computed from 2^63 cast to a signed integer).
  for (const std::string id : {"9223372036854775808", "18446744073709551617", "99999999999999999999999"}) {
    std::string text = head;
    text.append("3 3 1\n").append(id).append(" 1\n");
    EXPECT_NE(err(text).find("m.mtx:3: entry outside"), std::string::npos) << id;
  }
  EXPECT_NE(err(head + "3 3 2\n1 2\n").find("promises 2 entries, the file holds 1"), std::string::npos);
  EXPECT_NE(err(head + "3 4 1\n1 2\n").find("m.mtx:2: a 3 x 4 matrix is not square"), std::string::npos);
  EXPECT_NE(err(head + "3 3\n1 2\n").find("m.mtx:2: expected the size line"), std::string::npos);
  EXPECT_NE(err(head + "3 3 1\n1 2 5\n").find("m.mtx:3: an entry needs 2 numbers"), std::string::npos);
  EXPECT_NE(err("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n").find(":1: an array (dense)"), std::string::npos);
  EXPECT_NE(err("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 0\n").find(":1: complex"), std::string::npos);
  EXPECT_NE(err("%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n1 2 1\n").find(":1: hermitian"), std::string::npos);
  EXPECT_NE(err("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 1\n").find(":1: skew-symmetric"),
            std::string::npos);
  EXPECT_NE(err("%%MatrixMarket matrix coordinate real\n2 2 1\n2 1 1\n").find(":1: the header needs 4 words"), std::string::npos);
  EXPECT_NE(err("1 2\n").find("m.mtx:1: a .mtx file must start with a %%MatrixMarket header"), std::string::npos);
  // Named as an edge list, the same file is one.
  read_options snap;
  snap.format = file_format::snap;
  EXPECT_EQ(read_graph(s.file("m.mtx", "1 2\n"), snap).edges.size(), 1);
  // The vertex count is the file's own.
  read_options n;
  n.num_vertices = 10;
  EXPECT_NE(error_of(s.file("ok.mtx", head + "3 3 1\n1 2\n"), n).find("states its own"), std::string::npos);
}

TEST(GraphFiles, RoundTripsEveryFormatPlainAndGzip) {
  scratch s;
  for (const bool weighted : {false, true})
    for (const bool directed : {true, false})
      for (const std::string name : {"g.txt", "g.mtx", "g.bin", "g.txt.gz", "g.mtx.gz", "g.bin.gz"}) {
        SCOPED_TRACE(name + (weighted ? " weighted" : "") + (directed ? " directed" : " undirected"));
        const edge_list el = sample(weighted);
        write_options wo;
        wo.directed = directed;
        const std::string path = s.path(name);
        write_graph(path, el, wo);
        const graph_file g = read_graph(path);
        EXPECT_EQ(g.format, resolve_write_options(path, wo).format);
        EXPECT_EQ(g.gzip, name.ends_with(".gz"));
        EXPECT_EQ(g.edges.num_vertices, 7);
        EXPECT_EQ(g.edges.weighted(), weighted);
        EXPECT_EQ(undirected(g.edges), undirected(el));
        // Directed files keep each edge's orientation and order (binary: by tail, stable).
        if (directed && g.format != file_format::bin) {
          EXPECT_EQ(g.edges.src, el.src);
          EXPECT_EQ(g.edges.dst, el.dst);
        }
        if (g.format != file_format::snap) {
          EXPECT_EQ(g.directed, directed);
        }
      }
  // A format named explicitly wins over the name.
  write_options bin;
  bin.format = file_format::bin;
  write_graph(s.path("x.txt"), sample(true), bin);
  EXPECT_EQ(read_graph(s.path("x.txt")).format, file_format::bin);
}

TEST(GraphFiles, RoundTripsBlocksLargerThanTheWriteBuffer) {
  scratch s;
  std::mt19937_64 rng(3);
  edge_list el;
  el.num_vertices = 1 << 17;
  for (int i = 0; i < 300000; ++i) {
    el.src.push_back(static_cast<std::int64_t>(rng() % (1 << 17)));
    el.dst.push_back(static_cast<std::int64_t>(rng() % (1 << 17)));
    el.weight.push_back(static_cast<float>(rng() % 1000) / 7.f);
  }
  for (const std::string name : {"big.bin", "big.txt.gz"}) {
    write_graph(s.path(name), el, {});
    const graph_file g = read_graph(s.path(name));
    EXPECT_EQ(undirected(g.edges), undirected(el)) << name;
  }
}

TEST(GraphFiles, BinaryValidation) {
  scratch s;
  write_options wo;
  wo.directed = false;
  write_graph(s.path("u.bin"), sample(true), wo);
  std::string bytes;
  {
    std::ifstream f(s.path("u.bin"), std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    bytes = ss.str();
  }
  // Header 32 bytes, offsets 8 x 8, then int32 targets (n < 2^31), then float weights.
  const std::int64_t m = 2 * 8 - 1;  // both ways, the self-loop once
  ASSERT_EQ(bytes.size(), 32 + 8 * 8 + m * 4 + m * 4);
  auto patched = [&](std::size_t at, const void* p, std::size_t n) {
    std::string b = bytes;
    std::memcpy(b.data() + at, p, n);
    return error_of(s.file("p.bin", b));
  };
  const std::int64_t big = 99, minus = -1;
  const std::int32_t t_out = 7;
  const float nanw = std::nanf("");
  const std::uint32_t v2 = 2, flag8 = 8 | 1 | 4;
  EXPECT_NE(patched(0, "XPU500G\x01", 8).find("no GPU500G magic"), std::string::npos);
  EXPECT_NE(patched(8, &v2, 4).find("version 2"), std::string::npos);
  EXPECT_NE(patched(12, &flag8, 4).find("unknown flags"), std::string::npos);
  EXPECT_NE(patched(24, &big, 8).find("does not match its header"), std::string::npos);
  EXPECT_NE(patched(32 + 8 * 3, &minus, 8).find("offsets decrease at vertex 3"), std::string::npos);
  EXPECT_NE(patched(32 + 8 * 8 + 4 * 2, &t_out, 4).find("target of arc 2 outside [0, 7)"), std::string::npos);
  EXPECT_NE(patched(32 + 8 * 8 + 4 * m + 4, &nanw, 4).find("weight of arc 1"), std::string::npos);
  const std::int32_t self = 0;  // arc 0 (0 -> 1) made a self-loop: one more arc down than up
  EXPECT_NE(patched(32 + 8 * 8, &self, 4).find("not stored both ways"), std::string::npos);
  EXPECT_NE(error_of(s.file("short.bin", bytes.substr(0, 20))).find("too short"), std::string::npos);
  EXPECT_NE(error_of(s.file("trunc.bin", bytes.substr(0, bytes.size() - 1))).find("does not match"), std::string::npos);
  EXPECT_NE(error_of(s.file("text.bin", "0 1\n")).find("not a gpu500 binary graph"), std::string::npos);
  // A corrupt gzip stream is one line naming the file.
  EXPECT_NE(error_of(s.file("c.gz", std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage", 18))).find("c.gz: corrupt"),
            std::string::npos);
}

TEST(GraphFiles, ParallelParseEqualsSerialParse) {
  scratch s;
  std::mt19937_64 rng(7);
  std::string text = "# a header\n0 1 2.5\n";
  for (int i = 0; i < 3000; ++i) {
    const int kind = static_cast<int>(rng() % 23);
    if (kind == 0) text += "% comment 1 2\n";
    else if (kind == 1) text += "\r\n";
    else if (kind == 2) text += "   \t\n";
    else text += std::to_string(rng() % 100000) + (kind % 2 ? "\t" : "  ") + std::to_string(rng() % 100000) + " " +
                 std::to_string(static_cast<double>(rng() % 1000) / 8) + (kind % 3 ? "\n" : "\r\n");
  }
  const auto path = s.file("big.txt", text);
  read_options one;
  one.chunks = 1;
  const edge_list ref = read_graph(path, one).edges;
  for (int chunks : {2, 3, 7, 16, 61, 257, 1000, 4096}) {
    read_options o;
    o.chunks = chunks;
    const edge_list el = read_graph(path, o).edges;
    EXPECT_EQ(el.num_vertices, ref.num_vertices) << chunks;
    EXPECT_EQ(el.src, ref.src) << chunks;
    EXPECT_EQ(el.dst, ref.dst) << chunks;
    EXPECT_EQ(el.weight, ref.weight) << chunks;
  }
  // A bad line anywhere: the same message and line number from any number of chunks; a second
  // bad line later never hides the first; a two-column line after three-column ones too.
  std::vector<std::string> lines;
  for (std::istringstream in(text); std::getline(in, lines.emplace_back());) {}
  for (const std::size_t bad : {std::size_t{2}, std::size_t{17}, std::size_t{1500}, lines.size() - 2}) {
    for (const std::string& what : {std::string("1 x 2"), std::string("4 5")}) {
      std::string t;
      for (std::size_t i = 0; i < lines.size(); ++i) t += (i == bad ? what : i == bad + 300 ? "y" : lines[i]) + "\n";
      const auto p = s.file("bad.txt", t);
      const std::string want = error_of(p, one);
      ASSERT_NE(want.find(":" + std::to_string(bad + 1) + ": "), std::string::npos) << want;
      for (int chunks : {2, 5, 64, 999}) {
        read_options o;
        o.chunks = chunks;
        EXPECT_EQ(error_of(p, o), want) << chunks;
      }
    }
  }
}

TEST(GraphFiles, SearchResultFile) {
  scratch s;
  // 0 <- 1 <- 2, 3 -> root 1, 4 unreached.
  const std::vector<std::int64_t> parent{1, 1, 1, 0, -1};
  write_search_result(s.path("bfs.txt"), 1, parent, {});
  std::ifstream f(s.path("bfs.txt"));
  std::string rest((std::istreambuf_iterator<char>(f)), {});
  EXPECT_EQ(rest.substr(0, rest.find('\n') + 1), "# gpu500 bfs from root 1: vertex parent level (-1: not reached)\n");
  EXPECT_EQ(rest.substr(rest.find('\n') + 1), "0 1 1\n1 1 0\n2 1 1\n3 0 2\n4 -1 -1\n");
  const std::vector<float> dist{0.5f, 0.f, 0.25f, 1.75f, -1.f};
  write_search_result(s.path("sssp.txt"), 1, parent, dist);
  std::ifstream g(s.path("sssp.txt"));
  std::string all((std::istreambuf_iterator<char>(g)), {});
  EXPECT_EQ(all.substr(all.find('\n') + 1), "0 1 0.5\n1 1 0\n2 1 0.25\n3 0 1.75\n4 -1 -1\n");
  const std::vector<std::string> names{"a", "b", "new york", "d", "e"};
  write_search_result(s.path("named.txt"), 1, parent, dist, names);
  std::ifstream h(s.path("named.txt"));
  std::string named((std::istreambuf_iterator<char>(h)), {});
  EXPECT_EQ(named, "# gpu500 sssp from root b: vertex parent distance (-1: not reached)\n"
                   "a b 0.5\nb b 0\n\"new york\" b 0.25\nd a 1.75\ne -1 -1\n");
  // Levels the search gave are written as they are (these differ from the parents' on purpose:
  // they are not rebuilt); an unreached vertex's stays -1.
  const std::vector<std::int64_t> given{7, 0, 8, 9, 5};
  write_search_result(s.path("given.txt"), 1, parent, {}, {}, given);
  std::ifstream k(s.path("given.txt"));
  std::string kept((std::istreambuf_iterator<char>(k)), {});
  EXPECT_EQ(kept.substr(kept.find('\n') + 1), "0 1 7\n1 1 0\n2 1 8\n3 0 9\n4 -1 -1\n");
  const std::vector<std::int64_t> short_levels{0, 1};
  EXPECT_THROW(write_search_result(s.path("short.txt"), 1, parent, {}, {}, short_levels), error);
  const std::vector<std::int64_t> cycle{1, 1, 3, 2};
  EXPECT_THROW(write_search_result(s.path("bad.txt"), 1, cycle, {}), error);
  EXPECT_FALSE(std::ifstream(s.path("bad.txt")).good());
}

TEST(GraphFiles, DamagedFilesFailInOneCleanError) {
  // Random byte changes, cuts and insertions in a file of each format: each read returns a graph
  // or throws usage_error / resource_error (never another exception, a crash or a hang).
  scratch s;
  std::mt19937_64 rng(11);
  write_options sym;
  sym.directed = false;
  write_graph(s.path("a.txt"), sample(true), {});
  write_graph(s.path("a.mtx"), sample(true), sym);
  write_graph(s.path("a.bin"), sample(true), sym);
  write_graph(s.path("a.mtx.gz"), sample(false), {});
  int read = 0, refused = 0;
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);  // chunks still vary; a team per tiny file only costs its start-up
  for (const std::string name : {"a.txt", "a.mtx", "a.bin", "a.mtx.gz"}) {
    std::ifstream f(s.path(name), std::ios::binary);
    const std::string good((std::istreambuf_iterator<char>(f)), {});
    for (int trial = 0; trial < 200; ++trial) {
      std::string b = good;
      for (int k = 0, edits = 1 + static_cast<int>(rng() % 4); k < edits && !b.empty(); ++k) {
        const std::size_t at = rng() % b.size();
        switch (rng() % 4) {
          case 0: b[at] = static_cast<char>(rng()); break;  // the header words too
          case 1: b.resize(at); break;
          case 2: b.insert(at, 1, "0123456789 \n\t-.e%#\x1f\x8b\0"[rng() % 20]); break;
          default: b[at] ^= static_cast<char>(1 << (rng() % 8)); break;
        }
      }
      const std::string p = s.file("damaged", b);
      for (const bool weights : {true, false}) {
        read_options o;
        o.weights = weights;
        o.chunks = 1 + static_cast<int>(rng() % 5);
        try {
          const graph_file g = read_graph(p, o);
          for (index_t i = 0; i < g.edges.size(); ++i)
            ASSERT_TRUE(g.edges.src[i] >= 0 && g.edges.src[i] < g.edges.num_vertices && g.edges.dst[i] >= 0 &&
                        g.edges.dst[i] < g.edges.num_vertices);
          ++read;
        } catch (const usage_error& e) {
          ++refused;
          const std::string what = e.what();
          EXPECT_TRUE(std::all_of(what.begin(), what.end(), [](char c) { return c >= 0x20 && c < 0x7f; })) << what;
        } catch (const resource_error&) {
          ++refused;
        }
      }
    }
  }
  omp_set_num_threads(threads);
  EXPECT_GT(read, 100);
  EXPECT_GT(refused, 100);
}

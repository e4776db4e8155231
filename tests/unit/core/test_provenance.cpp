// Unit tests of the provenance object that json::write_file adds to every --json document
// (core/provenance.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "gpu500/config.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/core/provenance.hpp"

using namespace gpu500;

TEST(Provenance, EveryJsonDocumentSaysWhatMadeIt) {
  provenance::set_libraries("Open MPI v9.9", "2.99.1");
  const auto r = provenance::current();
  EXPECT_EQ(r.version, GPU500_VERSION);
  EXPECT_FALSE(r.commit.empty());
  EXPECT_FALSE(r.host.empty());
  EXPECT_EQ(r.blas, GPU500_BLAS);
  EXPECT_EQ(r.cuda_architectures, GPU500_CUDA_ARCHITECTURES);
  const auto path = std::filesystem::temp_directory_path() / "gpu500_test_provenance.json";
  json::value doc = json::value::make_object();
  doc["figure"] = 1;
  json::write_file(path.string(), doc);
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(path);
  EXPECT_NE(text.find("\"provenance\": {"), std::string::npos) << text;
  EXPECT_NE(text.find("\"mpi\": \"Open MPI v9.9\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"nccl\": \"2.99.1\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"commit\": \"" + r.commit + "\""), std::string::npos) << text;
  EXPECT_EQ(text.find("\"provenance\"", text.find("\"provenance\"") + 1), std::string::npos) << "written once";
  EXPECT_FALSE(doc.has("provenance")) << "the caller's document is left as it was";
}

// Tests of the energy meter's arithmetic (gpu500/core/energy.hpp) with a scripted counter and
// clock: wrap-around per channel, several wraps over a sampled window, channels summed, and the
// RAPL reader on a powercap tree written by the test; on a GPU, NVML's counter of device 0.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gpu500/core/device.hpp"
#include "gpu500/core/energy.hpp"

namespace gpu500::energy {
namespace {

// Readings scripted per call; the clock advances 0.5 s per call.
double fake_now = 0;
double fake_clock() { return fake_now += 0.5; }

class scripted final : public counter {
 public:
  scripted(std::vector<std::vector<double>> readings, std::vector<double> ranges)
      : readings_(std::move(readings)), ranges_(std::move(ranges)) {}
  [[nodiscard]] std::string name() const override { return "scripted"; }
  std::vector<double> read_joules() override { return readings_.at(next_++); }
  [[nodiscard]] std::vector<double> range_joules() const override { return ranges_; }

 private:
  std::vector<std::vector<double>> readings_;
  std::vector<double> ranges_;
  std::size_t next_ = 0;
};

TEST(Energy, DeltaWrapsAtTheRange) {
  EXPECT_DOUBLE_EQ(delta_joules(10, 25, 100), 15);
  EXPECT_DOUBLE_EQ(delta_joules(90, 5, 100), 15);  // 10 to the wrap, then 5
  EXPECT_DOUBLE_EQ(delta_joules(90, 90, 100), 0);
  EXPECT_DOUBLE_EQ(delta_joules(90, 5, 0), 0);  // no range: a reading that went back counts nothing
}

TEST(Energy, WindowSumsChannelsAcrossSeveralWraps) {
  fake_now = 0;
  // Channel 0 wraps at 100 J twice over the window; channel 1 never wraps.
  meter m(std::make_unique<scripted>(std::vector<std::vector<double>>{{80, 1000}, {20, 1010}, {90, 1020}, {30, 1030}},
                                     std::vector<double>{100, 0}),
          &fake_clock);
  m.start();                                  // t = 0.5
  EXPECT_DOUBLE_EQ(m.sample(), 0.5);          // 40 + 10
  EXPECT_DOUBLE_EQ(m.sample(), 1.0);          // 70 + 10
  const window w = m.stop();                  // 40 + 10
  EXPECT_DOUBLE_EQ(w.seconds, 1.5);
  EXPECT_DOUBLE_EQ(w.joules, 40 + 70 + 40 + 30);
  EXPECT_DOUBLE_EQ(w.watts(), 180 / 1.5);
}

TEST(Energy, RestartForgetsTheLastWindow) {
  fake_now = 0;
  meter m(std::make_unique<scripted>(std::vector<std::vector<double>>{{0}, {5}, {7}, {10}}, std::vector<double>{0}),
          &fake_clock);
  m.start();
  EXPECT_DOUBLE_EQ(m.stop().joules, 5);
  m.start();
  const window w = m.stop();
  EXPECT_DOUBLE_EQ(w.joules, 3);
  EXPECT_DOUBLE_EQ(w.seconds, 0.5);
  EXPECT_DOUBLE_EQ(window{}.watts(), 0);  // an empty window has no power, not a division by 0
}

TEST(Energy, RaplReadsPackageDomainsOnly) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("gpu500_rapl_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::remove_all(root);
  const auto domain = [&](const std::string& name, const char* uj, const char* range) {
    fs::create_directories(root / name);
    std::ofstream(root / name / "energy_uj") << uj << "\n";
    if (range != nullptr) std::ofstream(root / name / "max_energy_range_uj") << range << "\n";
  };
  std::string why;
  EXPECT_EQ(open_rapl((root / "absent").string(), &why), nullptr);
  EXPECT_NE(why.find("does not exist"), std::string::npos) << why;
  fs::create_directories(root);
  EXPECT_EQ(open_rapl(root.string(), &why), nullptr);
  EXPECT_NE(why.find("no RAPL package domain"), std::string::npos) << why;

  domain("intel-rapl:0", "262143000000", "262143328850");
  domain("intel-rapl:0:0", "5000000", "262143328850");  // a subdomain: inside package 0 already
  domain("intel-rapl:1", "2500000", nullptr);
  std::unique_ptr<counter> c = open_rapl(root.string(), &why);
  ASSERT_NE(c, nullptr) << why;
  EXPECT_EQ(c->name(), "RAPL, 2 package domains");
  const std::vector<double> j = c->read_joules(), r = c->range_joules();
  ASSERT_EQ(j.size(), 2u);
  EXPECT_DOUBLE_EQ(j[0], 262143.0);
  EXPECT_DOUBLE_EQ(j[1], 2.5);
  EXPECT_DOUBLE_EQ(r[0], 262143.32885);
  EXPECT_DOUBLE_EQ(r[1], 0);

  // Package 0 wraps between two readings: the meter adds the part before and after the wrap.
  meter m(std::move(c));
  m.start();
  std::ofstream(root / "intel-rapl:0" / "energy_uj") << "1000000\n";
  std::ofstream(root / "intel-rapl:1" / "energy_uj") << "4500000\n";
  EXPECT_NEAR(m.stop().joules, (262143.32885 - 262143.0) + 1.0 + 2.0, 1e-6);
  fs::remove_all(root);
}

TEST(Energy, GpuCounterReadsAndAdvances) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  std::string why;
  std::unique_ptr<counter> c = open_counter(source::gpu, &why);
  ASSERT_NE(c, nullptr) << why;  // Volta and newer have the counter
  EXPECT_EQ(c->name().rfind("NVML, GPU ", 0), 0u) << c->name();
  meter m(std::move(c));
  m.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const window w = m.stop();
  EXPECT_GE(w.seconds, 1.4);
  // An idle H100 draws some 60-100 W: well above 1 W and below its 700 W board limit.
  EXPECT_GT(w.watts(), 1.0) << w.joules << " J in " << w.seconds << " s";
  EXPECT_LT(w.watts(), 1500.0);
}

}  // namespace
}  // namespace gpu500::energy

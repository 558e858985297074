// A generated family's work, counted after the capture (docs/capture.md, "Work counts"): the
// "unmeasured" lines the generator wrote are replaced by the counts, so that the replay places the
// launch on the roofline.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "analyzer/capture/replay_config.hpp"
#include "analyzer/support/atomic_file.hpp"
#include "analyzer/support/errors.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

std::string wholeCount(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.0f", value);
  return text;
}

std::string countedWorkComment(const MeasuredWork& work) {
  std::string comment = "# counted by oclgrind --inst-counts from one run of the launch";
  if (work.counted_work_groups < work.total_work_groups)
    comment += ", scaled from " + std::to_string(work.counted_work_groups) + " of its " +
               std::to_string(work.total_work_groups) + " work-groups";
  comment += "\n";
  if (work.reads_launch_size && work.counted_work_groups < work.total_work_groups)
    comment += "# the kernel reads get_global_size or get_num_groups: its work in a cut launch may differ\n";
  if (!work.uncounted_calls.empty()) {
    comment += "# not counted as flops:";
    for (const InstructionCount& call : work.uncounted_calls)
      comment += " " + call.instruction + " x" + std::to_string(call.count);
    comment += "\n";
  }
  return comment;
}

void replaceOnce(std::string& text, const std::string& from, const std::string& to, const fs::path& file) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos)
    throw std::runtime_error(file.string() + " no longer holds the generated line " + from.substr(0, from.find('\n')));
  text.replace(at, from.size(), to);
}

}  // namespace

void writeFamilyWork(const fs::path& family_toml, const MeasuredWork& work) {
  std::ifstream in(family_toml, std::ios::binary);
  if (!in) throw IoError("cannot read " + family_toml.string());
  std::ostringstream read;
  read << in.rdbuf();
  std::string text = read.str();
  replaceOnce(text, kUnmeasuredFamilyWork,
              countedWorkComment(work) + "flops = \"" + wholeCount(work.flops) + "\"\nbytes = \"" +
                  wholeCount(work.bytes) + "\"\n",
              family_toml);
  replaceOnce(text, kUnmeasuredVariantWork, "global_accesses = \"" + wholeCount(work.global_accesses) + "\"\n",
              family_toml);
  writeFileAtomically(family_toml, text);
}

}  // namespace rooflab

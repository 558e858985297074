// libFuzzer target: kernel family manifests (analyzer/manifest.hpp).
// loadFamilyManifest reads a file and checks the sources beside it, so each input is written to
// <tmp>/fam/family.toml, next to the built-in kernel sources and a small k.cl, which lets seeds
// taken from kernels/*/family.toml load all the way through.
// Contract under test: loadFamilyManifest returns a manifest or throws InputError; the manifest it
// returns passes validateForParams at its defaults.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "analyzer/support/errors.hpp"
#include "analyzer/manifest/manifest.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "fuzz_defaults.hpp"

namespace fs = std::filesystem;

namespace {

const char* kKernel = R"(
kernel void scale(global const float* x, global float* y, int n, float f) {
  int i = get_global_id(0);
  if (i < n) RL_STORE(float, y, i, RL_MUL(RL_LOAD(float, x, i), f));
}
kernel void twice(global float* y, int n) { int i = get_global_id(0); if (i < n) y[i] *= 2; }
)";

struct Workspace {
  fs::path dir;
  fs::path manifest;
  Workspace() {
    std::string pattern = (fs::temp_directory_path() / "rooflab-fuzz-manifest-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) std::abort();
    dir = fs::path(pattern) / "fam";
    fs::create_directories(dir);
    manifest = dir / "family.toml";
    std::ofstream(dir / "k.cl") << kKernel;
    std::error_code ec;
    for (const auto& family : fs::directory_iterator(fs::path(ROOFLAB_SOURCE_DIR) / "kernels", ec))
      for (const auto& file : fs::directory_iterator(family.path(), ec))
        if (file.path().extension() == ".cl")
          fs::copy_file(file.path(), dir / file.path().filename(), fs::copy_options::overwrite_existing, ec);
  }
  ~Workspace() {
    std::error_code ec;
    fs::remove_all(dir.parent_path(), ec);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Workspace workspace;
  {
    std::ofstream out(workspace.manifest, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const rooflab::FamilyManifest family = rooflab::loadFamilyManifest(workspace.manifest);
    for (const auto& variant : family.variants) rooflab::validateForParams(family, variant, family.params);
  } catch (const rooflab::InputError&) {
  }
  return 0;
}

#pragma once
// A kernel family as typed values (docs/manifest.md): what manifest/ reads from a
// family.toml and the plan resolves into points. Types only.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/end_to_end.hpp"
#include "analyzer/data/what_if.hpp"
#include "analyzer/support/element_type.hpp"
#include "analyzer/support/expression.hpp"
#include "analyzer/support/host_buffer.hpp"
#include "analyzer/support/source_location.hpp"

namespace rooflab {

// An expression from a manifest, with where it was written, so that an evaluation error at run
// time still names the file, key and line.
struct ManifestExpression {
  std::string text;
  std::string key;  // "variants[1].global[0]"
  SourceLocation where;

  double evaluate(const ParamValues& params) const;
  std::int64_t count(const ParamValues& params, bool allow_zero = false) const;
};

enum class BufferAccess { read, write, read_write };

// `init = "file:<path>"` or `expect = "file:<path>"`: a buffer's bytes as they lie in a file, with
// where the key was written, so that a size that does not match names the file, line and key.
struct BufferFile {
  std::filesystem::path path;  // absolute: written relative to the family.toml's folder
  std::string written;         // "file:data/3f2a.bin", as in the manifest
  std::string key;             // "buffers[2].init"
  SourceLocation where;
};

struct BufferSpec {
  std::string name;
  ElementType type;
  ManifestExpression count;
  BufferInit init = BufferInit::random;
  BufferAccess access = BufferAccess::read;
  // [[buffers]] link: how it crosses the host link in an end-to-end run; absent, by its access (read
  // goes up before the kernel, write comes down after, read_write both).
  std::optional<BufferLink> link;
  std::optional<BufferFile> init_file;    // init = "file:...": BufferInit::file
  std::optional<BufferFile> expect_file;  // [check] reference = "outputs": the buffer's expected contents
  bool isOutput() const { return access != BufferAccess::read; }
  BufferLink crossing() const;
};

struct KernelArgSpec {
  enum class Kind { buffer, local_bytes, scalar };
  Kind kind = Kind::scalar;
  std::string buffer;        // Kind::buffer
  ManifestExpression value;  // Kind::local_bytes (bytes) and Kind::scalar
  ScalarKind scalar_type = ScalarKind::i32;
  std::string text;  // as written in the manifest
};

// `pingpong = [["a", "b"]]`: on odd repetitions of a launch, arguments naming `first` name `second`
// and the other way round (a stencil's input and output exchanged after each step).
struct BufferSwap {
  std::string first;
  std::string second;
};

struct LaunchSpec {
  std::string kernel;
  std::vector<KernelArgSpec> args;
  std::string args_key;  // "variants[0].launches[1].args": argument i is args_key[i]
  SourceLocation args_where;
  std::vector<ManifestExpression> global;
  std::vector<ManifestExpression> local;  // empty: the runtime chooses
  // `repeat`: the launch enqueued that many times in a row; absent, once. Its scalar arguments and
  // geometry may read `index`, the repetition (0, 1, ...).
  std::optional<ManifestExpression> repeat;
  std::string index = "i";
  std::vector<BufferSwap> pingpong;
  SourceLocation where;  // the entry of `launches`
};

// The most kernel launches one run of a point may enqueue, all repeats summed: more is an input
// error (a run keeps one profiling event per launch).
constexpr std::uint64_t kMaxLaunchesPerRun = 1000000;

// `"unmeasured"`, the value of [work] flops or bytes or of a variant's global_accesses when nobody
// counted it (a captured application): the point runs, but is not placed where the value is needed.
constexpr const char* kUnmeasuredWork = "unmeasured";

struct DefineSpec {
  std::string name;
  std::string value;  // literal text, or an expression when is_expression
  bool is_expression = false;
  bool is_number = false;  // written as a TOML number: like an expression, a variable of the variant's expressions
  std::string key;
  SourceLocation where;
};

// `[[variants.what_if]]`: a deliberately incorrect form of the variant with one inefficiency removed,
// run as its own point (mode "what-if") with `-D <define>=1`.
struct WhatIfSpec {
  std::string name;    // letters, digits, '-' and '_': "no-bank-conflicts"
  std::string define;  // a macro name the variant's sources test
  std::string description;
  std::optional<WhatIfExpectation> expect;
  std::string realised_by;  // a variant of the family that makes the optimisation for real
  SourceLocation where;
};

// `[variants.tune]`: the space `rooflab tune` searches for the variant (docs/manifest.md, "Tuning
// spaces"). Each dimension is a family param, a define of the variant, or a name of its own that
// becomes a define; its values are numbers or expressions over the device's limits
// (device_compute_units, ...), evaluated once the device is open.
struct TuningDimensionSpec {
  enum class Kind { param, define, new_define };
  std::string name;
  Kind kind = Kind::new_define;
  std::vector<std::string> values;  // as written: numbers, or expressions
  std::string key;                  // "variants[3].tune.params.BLOCK"
  SourceLocation where;
};

struct TuningSpaceSpec {
  std::vector<TuningDimensionSpec> dimensions;  // in the order written
  // Each must be non-zero for a configuration to run; over the dimensions, the family's params, the
  // variant's defines and the device's limits.
  std::vector<ManifestExpression> constraints;
  SourceLocation where;
};

struct VariantSpec {
  std::string name;
  std::string description;
  std::filesystem::path source;                // absolute: the first of `sources`, which names the variant's program
  std::vector<std::filesystem::path> sources;  // absolute, in order: compiled as one program
  std::filesystem::path include_dir;           // absolute: the family's folder, on the compiler's include path
  std::vector<DefineSpec> defines;
  std::string build_options;  // standard OpenCL C build options appended after the defines (e.g. -cl-denorms-are-zero)
  std::vector<LaunchSpec> launches;
  std::vector<BufferSpec> scratch;
  std::optional<ManifestExpression> flops;  // overrides [work] when given
  std::optional<ManifestExpression> bytes;
  std::optional<ManifestExpression> global_accesses;
  bool global_accesses_unmeasured = false;  // global_accesses = "unmeasured"
  std::optional<ManifestExpression> local_accesses;
  std::optional<double> tolerance;  // overrides [check] when given
  bool annotated = false;           // the source uses RL_LOAD / RL_STORE, so mutants can be built
  bool uses_atomics = false;        // its result may vary from run to run (the order of atomic updates)
  std::vector<WhatIfSpec> what_ifs;
  std::optional<TuningSpaceSpec> tune;  // `rooflab tune` only
  SourceLocation where;
};

// `[check] reference`: where a family's expected outputs come from.
struct ReferenceSpec {
  // outputs: each buffer's `expect` file holds what the application itself computed.
  enum class Kind { none, variant, cpu, outputs };
  Kind kind = Kind::none;
  std::string name;  // the reference variant, or the registered C++ function

  std::string text() const;  // as written: "variant:<name>" | "cpu:<name>" | "outputs" | "" (none)
  bool isVariant(const std::string& variant_name) const { return kind == Kind::variant && name == variant_name; }
  // "variant:<name>", "cpu:<name>" or "outputs"; nullopt for anything else.
  static std::optional<ReferenceSpec> parse(std::string_view text);
};

// [end_to_end] split: the family is element-wise over one parameter, so that an overlapped
// end-to-end run may split its data in chunks: any contiguous range of every buffer's elements, run
// at the parameter equal to the range's length, gives those elements of the result.
struct EndToEndSplit {
  std::string param;           // "N"
  ManifestExpression granule;  // chunks but the last are multiples of it (a launch's local size); "1"
  SourceLocation where;
};

struct FamilyManifest {
  std::string name;
  std::string description;
  std::filesystem::path path;  // family.toml
  ParamValues params;          // defaults
  std::vector<std::string> param_order;
  ManifestExpression flops;
  ManifestExpression bytes;
  bool flops_unmeasured = false;  // [work] flops = "unmeasured"; `flops` then stands in as 0
  bool bytes_unmeasured = false;
  // [work] type: the type the flops are computed in; absent, double when the first buffer holds
  // doubles, else float (resolvePoint's workArithmetic).
  std::optional<ElementType> work_type;
  std::vector<BufferSpec> buffers;
  ReferenceSpec reference;  // kind none: not checked
  double tolerance = 1e-5;
  std::vector<VariantSpec> variants;
  std::optional<EndToEndSplit> split;  // [end_to_end]; absent: the family cannot be chunked

  const VariantSpec* findVariant(const std::string& name) const;
  const BufferSpec* findBuffer(const std::string& name, const VariantSpec* variant = nullptr) const;
};

}  // namespace rooflab

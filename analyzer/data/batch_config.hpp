#pragma once
// A batch config as typed values (docs/config.md): what config/ reads from TOML and every
// later step is handed. Types only; config/config.hpp reads them.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/data/end_to_end.hpp"
#include "analyzer/support/source_location.hpp"

namespace rooflab {

// what_if: each of a variant's declared what-if mutations (manifest `[[variants.what_if]]`), one point
// each: the kernel as written (RL_MODE 0) plus the mutation's define.
enum class RunMode { normal, compute_only, memory_only, what_if };
std::string modeName(RunMode mode);  // "normal", "compute-only", "memory-only", "what-if"
// Compute-only and memory-only: the mutants (a what-if is the original with one define).
inline bool isMutantMode(RunMode mode) { return mode == RunMode::compute_only || mode == RunMode::memory_only; }
std::optional<RunMode> parseMode(const std::string& name);

// [run] counters: auto reads them where the device allows (NVIDIA, CUDA built in), on stops the run
// before any device work when they cannot be read, off never reads them.
enum class CountersSetting { automatic, on, off };
std::string toString(CountersSetting setting);  // "auto" | "on" | "off"
std::optional<CountersSetting> parseCountersSetting(std::string_view text);

// [run] ceilings: the device's roofs measured at the start of the run, or taken from its datasheet.
enum class CeilingsSource { measure, datasheet };
std::string toString(CeilingsSource source);  // "measure" | "datasheet"
std::optional<CeilingsSource> parseCeilingsSource(std::string_view text);

// [run] line_sampling: which records get the PC-sampling pass on NVIDIA (docs/source-lines.md): the
// originals (normal mode), every record that reads counters (mutants and what-ifs too), or none.
enum class LineSamplingSetting { originals, all, off };
std::string toString(LineSamplingSetting setting);  // "originals" | "all" | "off"
std::optional<LineSamplingSetting> parseLineSamplingSetting(std::string_view text);

// [run] device_mode: what a batch does with the several devices [run] device lists.
enum class DeviceMode {
  compare,  // every point on each device, each device placed against its own ceilings
  shard,    // the points split over identical devices, one worker per device at once
};
std::string toString(DeviceMode mode);  // "compare" | "shard"
std::optional<DeviceMode> parseDeviceMode(std::string_view text);

// What a user sets through environment variables (docs/using.md), or through the flags and [run] keys
// that take their place. The command line settles them, once, into the run's settings
// (analyzer/cli/commands.cpp), so that nothing below it reads the environment.
struct EnvironmentSettings {
  std::optional<int> build_threads;  // ROOFLAB_BUILD_THREADS (0 to 64); unset: by device type
  // Raw metrics beyond the table, parsed: --extra-metrics, else [run] extra_metrics, else
  // ROOFLAB_EXTRA_METRICS.
  std::vector<std::string> extra_metrics;
  // The libcupti loaded first: --cupti-library, else [run] cupti_library, else ROOFLAB_CUPTI_LIBRARY;
  // empty: the search of analyzer/counters/cupti_library.hpp alone.
  std::string cupti_library;
  // The range profiler left enabled from one record's range to the next of the same metric set
  // (docs/cost.md, "Counters"); ROOFLAB_PROFILER_KEEP_ENABLED=0 disables it after every range.
  bool keep_profiler_enabled = true;
  // NVIDIA's JIT cache of this run's own, when rooflab made one (CUDA_CACHE_PATH unset and counters
  // possible); empty: the user's CUDA_CACHE_PATH or the driver's default.
  std::string private_jit_cache_dir;
};

struct RunSettings {
  // One selector, or several joined by commas (`cpu,gpu`, `0:0,0:1`, `all`): analyzer/device/device.hpp.
  std::string device = "auto";
  DeviceMode device_mode = DeviceMode::compare;  // when `device` names several devices
  int repetitions = 10;                          // the floor of every point's timed runs
  // The noise target (analyzer/stats/stopping_rule.hpp), as nvbench's --max-noise, --min-time and
  // --timeout: after `repetitions`, a point is repeated until the 95% interval of its median kernel
  // time is within max_noise of the median, for at least min_time_s and at most max_time_s of wall
  // time spent on its timed runs (buffer resets included: that is what a user waits for).
  double max_noise = 0.03;
  double min_time_s = 0;
  double max_time_s = 0.25;
  // false for a results file written before noise targets: its run settings name none.
  bool noise_target_known = true;
  int warmup = 2;
  std::vector<RunMode> modes{RunMode::normal};
  CountersSetting counters = CountersSetting::automatic;
  LineSamplingSetting line_sampling = LineSamplingSetting::originals;
  std::string reference_model = "gtx670";
  CeilingsSource ceilings = CeilingsSource::measure;
  std::string out = "rooflab-out";
  std::vector<std::string> formats{"html", "png", "json", "csv"};
  // The config's own family folders, absolute, resolved against the config's folder. The built-in
  // families are always searched after them (kernelSearchPath), so they are not listed here.
  std::vector<std::filesystem::path> kernels;
  double variant_time_limit_s = 60;  // a point running longer is stopped and reported
  std::size_t max_points = 10000;    // a batch planning more points is refused (exit 2)
  std::uint64_t seed = 20121;        // buffer contents are a function of this seed
  std::string binaries_dir;          // when set, each built program's binary (PTX on NVIDIA) is kept here
  // [run] extra_metrics and cupti_library as the config gives them; unset: the environment's. The
  // command line settles them into `environment`, which the run reads.
  std::optional<std::vector<std::string>> extra_metrics;
  std::optional<std::string> cupti_library;
  EnvironmentSettings environment;  // not part of the config file
};

// A study param given as a rule instead of numbers (docs/config.md, "Size rules"): `N = "fill"` or
// `N = { rule = "fill", waves = 4, ... }`. Its value depends on the device (its compute units, its
// allocation limit, its roofs), so it is chosen once the device is open (plan/size_rules.hpp).
struct SizeRuleSpec {
  std::string param;
  std::string rule = "fill";  // the only rule: a size that fills the device
  // Work-groups per compute unit that every studied variant's largest launch must reach.
  double waves = 4;
  // The kernel time the family's [work] takes at the device's roofs, at least: well above the
  // latency of a launch.
  double min_kernel_us = 200;
  std::optional<double> min;  // bounds of the chosen value
  std::optional<double> max;
  double memory_fraction = 0.5;  // of the device's global memory that a point's buffers may take
  // Sweep from this value up to the chosen one, each step `sweep_factor` times the last (rounded as
  // the chosen value is): the rate-versus-size chart on any device.
  std::optional<double> sweep_from;
  double sweep_factor = 2;
  SourceLocation where;
};

struct StudySpec {
  std::string family;
  std::vector<std::string> variants{"*"};                           // names or glob patterns (* and ?)
  std::vector<std::pair<std::string, std::vector<double>>> params;  // swept as a cartesian product
  std::vector<SizeRuleSpec> size_rules;                             // params given as rules (none of them in `params`)
  std::vector<RunMode> modes;                                       // empty: the run's modes
  // end_to_end: the strategies each normal point also runs end to end (docs/end-to-end.md); empty:
  // none. overlap_chunks: the chunk counts of its overlap runs (the one-chunk run always joins them).
  std::vector<EndToEndStrategy> end_to_end;
  std::vector<int> overlap_chunks;
  bool end_to_end_all = false;  // end_to_end = true: overlap only where the family can be split
  SourceLocation where;
};

// `rooflab run --set NAME=VALUE[,VALUE...]`: the values replace the parameter's in every study
// whose family declares it (a list is swept).
struct ParamOverride {
  std::string name;
  std::vector<double> values;
};

// `[capture] folder`: the folder `rooflab capture` recorded an application into (docs/capture-timeline.md);
// the batch reads its log and shows the application's timeline beside the families' records.
struct CaptureSpec {
  std::string folder;  // absolute, resolved against the config's folder
  SourceLocation where;
};

struct BatchConfig {
  std::string path;  // file, or "<embedded default>"
  RunSettings run;
  std::vector<StudySpec> studies;
  std::optional<CaptureSpec> capture;
  std::vector<ParamOverride> param_overrides;  // from the command line, not the file
  std::string text;                            // the TOML as given, kept in the results
};

}  // namespace rooflab

// A tuned configuration written back as a manifest entry: every key of the base variant as the
// manifest reader takes it, the tuned values in its defines.
#include "reports/text/tuned_variant_toml.hpp"

#include <algorithm>

#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

std::string tomlString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string list(const std::vector<std::string>& items, bool quote = true) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + (quote ? tomlString(items[i]) : items[i]);
  return out + "]";
}

std::vector<std::string> texts(const std::vector<ManifestExpression>& expressions) {
  std::vector<std::string> out;
  for (const ManifestExpression& e : expressions) out.push_back(e.text);
  return out;
}

std::vector<std::string> argTexts(const LaunchSpec& launch) {
  std::vector<std::string> out;
  for (const KernelArgSpec& arg : launch.args) out.push_back(arg.text);
  return out;
}

std::string launchTable(const LaunchSpec& launch) {
  std::string out = "{ kernel = " + tomlString(launch.kernel) + ", args = " + list(argTexts(launch)) +
                    ", global = " + list(texts(launch.global));
  if (!launch.local.empty()) out += ", local = " + list(texts(launch.local));
  if (launch.repeat) out += ", repeat = " + tomlString(launch.repeat->text) + ", index = " + tomlString(launch.index);
  if (!launch.pingpong.empty()) {
    std::vector<std::string> pairs;
    for (const BufferSwap& swap : launch.pingpong) pairs.push_back(list({swap.first, swap.second}));
    out += ", pingpong = " + list(pairs, false);
  }
  return out + " }";
}

std::string defineValue(const DefineSpec& d) {
  if (d.is_number) return d.value;
  if (d.is_expression) return tomlString(d.value);
  if (d.value == "1" || d.value == "0") return d.value;
  return tomlString("raw:" + d.value);
}

// The base's defines with the configuration's values; a tuned family param becomes a define, which
// the variant's expressions see in the param's place.
std::string definesTable(const VariantSpec& base, const TuningResult& result, const TunedConfiguration& tuned) {
  std::vector<std::pair<std::string, std::string>> defines;
  for (const DefineSpec& d : base.defines) defines.emplace_back(d.name, defineValue(d));
  for (std::size_t i = 0; i < result.dimensions.size(); ++i) {
    const std::string& name = result.dimensions[i].name;
    auto at = std::find_if(defines.begin(), defines.end(), [&](const auto& d) { return d.first == name; });
    if (at == defines.end()) at = defines.insert(defines.end(), {name, ""});
    at->second = formatNumber(tuned.values[i]);
  }
  std::string out = "{ ";
  for (std::size_t i = 0; i < defines.size(); ++i)
    out += (i ? ", " : "") + defines[i].first + " = " + defines[i].second;
  return out + " }";
}

std::string optionalExpression(const char* key, const std::optional<ManifestExpression>& e) {
  return e ? std::string(key) + " = " + tomlString(e->text) + "\n" : "";
}

// Four significant digits, as printf's %.4g wrote them when the search wrote this comment.
std::string snippetMicroseconds(double ns) { return formatGeneral(ns / 1000, 4) + " µs"; }

}  // namespace

std::string manifestSnippet(const VariantSpec& base, const TuningResult& result, std::size_t best,
                            const std::string& name, const std::string& device) {
  const TunedConfiguration& tuned = result.configurations.at(best);
  std::string text = "# Found by `rooflab tune` (" + toString(result.searcher) + " searcher, " +
                     std::to_string(result.evaluations) + " of " + std::to_string(result.valid) +
                     " valid configurations run) on " + device + " at";
  for (const std::string& param : result.param_order)
    if (result.params.count(param)) text += " " + param + "=" + formatNumber(result.params.at(param));
  if (tuned.median_ns) text += ": " + snippetMicroseconds(*tuned.median_ns) + " median";
  if (result.baseline && result.configurations[*result.baseline].median_ns)
    text += " (" + base.name +
            " as written: " + snippetMicroseconds(*result.configurations[*result.baseline].median_ns) + ")";
  text += ".\n";
  for (const TuningDimension& d : result.dimensions)
    if (d.kind == "param")
      text += "# " + d.name + " is a family param: here a define, which this variant's expressions see in its place.\n";
  text += "[[variants]]\nname = " + tomlString(name) + "\n";
  text +=
      "description = " + tomlString(base.description.empty() ? base.name + ", tuned" : base.description + " (tuned)") +
      "\n";
  std::vector<std::string> sources;
  for (const auto& file : base.sources) sources.push_back(file.lexically_relative(base.include_dir).string());
  text += "source = " + (sources.size() == 1 ? tomlString(sources.front()) : list(sources)) + "\n";
  if (!base.scratch.empty()) {
    std::vector<std::string> scratch;
    for (const BufferSpec& b : base.scratch)
      scratch.push_back("{ name = " + tomlString(b.name) + ", type = " + tomlString(b.type.name()) +
                        ", count = " + tomlString(b.count.text) +
                        (b.init_file ? ", init = " + tomlString(b.init_file->written) : "") + " }");
    text += "scratch = " + list(scratch, false) + "\n";
  }
  if (base.launches.size() == 1 && !base.launches.front().repeat) {  // a repeat is written only in `launches`
    const LaunchSpec& launch = base.launches.front();
    text += "kernel = " + tomlString(launch.kernel) + "\nargs = " + list(argTexts(launch)) +
            "\nglobal = " + list(texts(launch.global)) + "\n";
    if (!launch.local.empty()) text += "local = " + list(texts(launch.local)) + "\n";
  } else {
    std::vector<std::string> launches;
    for (const LaunchSpec& launch : base.launches) launches.push_back(launchTable(launch));
    text += "launches = " + list(launches, false) + "\n";
  }
  text += "defines = " + definesTable(base, result, tuned) + "\n";
  if (!base.build_options.empty()) text += "build_options = " + tomlString(base.build_options) + "\n";
  text += optionalExpression("flops", base.flops) + optionalExpression("bytes", base.bytes) +
          optionalExpression("global_accesses", base.global_accesses) +
          optionalExpression("local_accesses", base.local_accesses);
  if (base.global_accesses_unmeasured) text += "global_accesses = " + tomlString(kUnmeasuredWork) + "\n";
  if (base.tolerance) text += "tolerance = " + formatNumber(*base.tolerance) + "\n";
  return text;
}

}  // namespace rooflab::reports

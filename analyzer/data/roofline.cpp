// The roofline's names, as results files spell them.
#include "analyzer/data/roofline.hpp"

namespace rooflab {

std::string toString(RooflineBound bound) {
  switch (bound) {
    case RooflineBound::memory: return "memory";
    case RooflineBound::compute: return "compute";
    case RooflineBound::latency: return "latency";
    case RooflineBound::unknown: break;
  }
  return "unknown";
}

std::string toString(IntensitySource source) { return source == IntensitySource::counters ? "counters" : "analytic"; }

std::string toString(MemoryLevel level) {
  switch (level) {
    case MemoryLevel::dram: return "dram";
    case MemoryLevel::global: return "global";
    case MemoryLevel::l1: return "l1";
    case MemoryLevel::l2: return "l2";
    case MemoryLevel::local: return "local";
  }
  return "dram";
}

std::optional<MemoryLevel> parseMemoryLevel(std::string_view text) {
  for (MemoryLevel level : {MemoryLevel::dram, MemoryLevel::global, MemoryLevel::l1, MemoryLevel::l2, MemoryLevel::local})
    if (text == toString(level)) return level;
  return std::nullopt;
}

std::string toString(Arithmetic arithmetic) {
  switch (arithmetic) {
    case Arithmetic::fp32: return "fp32";
    case Arithmetic::fp64: return "fp64";
    case Arithmetic::int32: return "int32";
  }
  return "fp32";
}

std::optional<Arithmetic> parseArithmetic(std::string_view text) {
  for (Arithmetic arithmetic : {Arithmetic::fp32, Arithmetic::fp64, Arithmetic::int32})
    if (text == toString(arithmetic)) return arithmetic;
  return std::nullopt;
}

std::string levelPlacementKey(const std::string& model_key, MemoryLevel level) {
  return level == MemoryLevel::dram ? model_key : model_key + "_" + toString(level);
}

std::optional<RooflineBound> parseRooflineBound(std::string_view text) {
  for (RooflineBound bound : {RooflineBound::memory, RooflineBound::compute, RooflineBound::latency, RooflineBound::unknown})
    if (text == toString(bound)) return bound;
  return std::nullopt;
}

std::optional<IntensitySource> parseIntensitySource(std::string_view text) {
  for (IntensitySource source : {IntensitySource::analytic, IntensitySource::counters})
    if (text == toString(source)) return source;
  return std::nullopt;
}

}  // namespace rooflab

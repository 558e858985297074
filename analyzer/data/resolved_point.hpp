#pragma once
// A study point with every manifest expression evaluated for its parameters, once (as nvbench
// resolves a point's axis values into its `state`): building, launching, verifying, the PTX bridge
// and the roofline placement read these values and never evaluate an expression again. Types only;
// manifest/resolve_point.hpp evaluates them.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/batch_config.hpp"
#include "analyzer/data/family_manifest.hpp"
#include "analyzer/data/run_record.hpp"

namespace rooflab {

struct RunPoint {
  const FamilyManifest* family = nullptr;
  const VariantSpec* variant = nullptr;
  ParamValues params;  // the family defaults overlaid with the study's values
  RunMode mode = RunMode::normal;
  const WhatIfSpec* what_if = nullptr;  // RunMode::what_if: which of the variant's what-ifs
};

// One buffer of a point: a family buffer, or one of the variant's scratch buffers.
struct ResolvedBuffer {
  const BufferSpec* spec = nullptr;
  bool scratch = false;     // the variant's own, not the family's (no host input, never verified)
  std::uint64_t count = 0;  // elements of spec->type
  // count x the element's size; UINT64_MAX when that does not fit 64 bits (no device takes it).
  std::uint64_t bytes = 0;

  // Its starting contents are made by the host: a family input, or any buffer read from a file (a
  // scratch buffer too: a captured application's intermediate data).
  bool hasHostInput() const { return spec->init_file || (!scratch && spec->access != BufferAccess::write); }
  // Some launch may write it: a scratch buffer, or a family buffer not declared read-only.
  bool writtenByLaunches() const { return scratch || spec->access != BufferAccess::read; }
};

// A kernel argument resolved for one point: what the OpenCL launch and the PTX bridge both need.
struct ResolvedArg {
  KernelArgSpec::Kind kind = KernelArgSpec::Kind::scalar;
  std::string buffer;                   // Kind::buffer
  double scalar_value = 0;              // Kind::scalar: as evaluated
  std::vector<std::byte> scalar_bytes;  // Kind::scalar: in the argument's type, as clSetKernelArg takes it
  std::size_t local_bytes = 0;          // Kind::local_bytes
};
// One entry of a variant's launches: its first repetition, and how many follow. Repetitions are not
// stored one by one (a repeat may be large); manifest/resolve_point.hpp's launchRepetition makes
// repetition k when the run enqueues it, from the entry's expressions (`varies`) or its pingpong.
struct ResolvedLaunch {
  LaunchGeometry geometry;
  std::vector<ResolvedArg> args;
  std::uint64_t repeat = 1;
  bool varies = false;  // its geometry or a scalar argument reads the repetition's index
};

struct ResolvedPoint;

// One chunk of an overlapped end-to-end run: the variant resolved at the family's split parameter
// equal to the chunk's length, and where the chunk starts in each family buffer.
struct ResolvedChunk {
  std::uint64_t elements = 0;                 // the split parameter's value for this chunk
  std::vector<std::uint64_t> buffer_offsets;  // per family buffer (manifest order), in elements of its type
  std::shared_ptr<const ResolvedPoint> point;
};

// What a normal point's end-to-end runs need, resolved with it ([[study]] end_to_end).
struct EndToEndRequest {
  std::vector<EndToEndStrategy> strategies;  // in the order they run; overlap last
  // Overlap only: one split per chunk count, the one-chunk split first.
  std::vector<std::vector<ResolvedChunk>> splits;
};

struct ResolvedPoint {
  RunPoint run_point;
  WorkEstimate work;
  // What follows -D RL_MODE=<mode> on the compiler's command line: " -D NAME=value" for each
  // define, then the variant's own build options.
  std::string program_options;
  double tolerance = 0;                  // the variant's, else the family's
  std::vector<ResolvedBuffer> buffers;   // the family's in manifest order, then the variant's scratch
  std::vector<ResolvedLaunch> launches;  // in order
  // A normal point of a family checked against a reference variant: that variant at the same
  // parameters, resolved with this point (its outputs are the expected ones). Null for a cpu:
  // reference, no reference, another mode, the reference variant itself, or when it could not be
  // resolved for a reason of the variant's own (reference_error says which).
  std::shared_ptr<const ResolvedPoint> reference_point;
  std::string reference_error;
  std::optional<EndToEndRequest> end_to_end;  // a normal point of a study asking for end-to-end runs

  const ResolvedBuffer* findBuffer(const std::string& name) const;
  // What its host inputs are made of: each input buffer's name, type, count and contents rule. Points
  // with the same key share their inputs (every mode and variant of a family at one size, a tuned
  // work-group size): the runner makes and uploads them once.
  std::string inputsKey() const;
};

// A point of a batch: resolved once when the batch is planned, or why it could not be (the
// point's record then carries that error, as any other failure of the point).
struct PlannedPoint {
  RunPoint run_point;
  std::optional<ResolvedPoint> resolved;
  std::string resolve_error;
  bool bad_input = false;  // resolve_error is an input error (the plan refuses the batch), not the variant's
};
}  // namespace rooflab

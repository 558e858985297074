// The overlapped end-to-end run: the data split in chunks along the family's split parameter (each
// chunk a point resolved by the plan), chunk k on queue k mod 2, each chunk's non-blocking uploads,
// kernels and non-blocking downloads in order on its queue, so that one chunk's transfers overlap
// another's kernel. The application's arrays are in pinned host memory (mapped CL_MEM_ALLOC_HOST_PTR
// buffers): a non-blocking copy from pageable memory is staged by the driver before the call returns.
#include <cstring>

#include "analyzer/run/end_to_end_buffers.hpp"
#include "analyzer/run/end_to_end_runner.hpp"

namespace rooflab {
namespace {

using namespace end_to_end;

class OverlapRun {
 public:
  OverlapRun(const PointLauncher& launcher, cl::CommandQueue (&queues)[2], const PreparedPoint& prepared,
             const std::vector<ResolvedChunk>& split, const std::map<std::string, HostBuffer>& inputs)
      : queues_(queues),
        whole_(*prepared.resolved),
        split_(split),
        inputs_(inputs),
        queue_count_(split.size() > 1 ? 2 : 1) {
    const std::size_t buffers = family().buffers.size();
    for (std::size_t b = 0; b < buffers; ++b) {
      const ResolvedBuffer& whole = whole_.buffers[b];
      staging_.emplace_back(launcher.context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, whole.bytes);
      pinned_.push_back(static_cast<std::byte*>(
          queues_[0].enqueueMapBuffer(staging_.back(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, whole.bytes)));
      if (hasInput(*whole.spec)) std::memcpy(pinned_.back(), inputs_.at(whole.spec->name).bytes.data(), whole.bytes);
      if (whole.spec->isOutput()) poisoned_.emplace(whole.spec->name, poisonedHost(whole));
    }
    for (const ResolvedChunk& chunk : split_) {
      PreparedPoint& point = chunks_.emplace_back();
      point.resolved = chunk.point.get();
      point.program = prepared.program;
      for (const ResolvedBuffer& b : chunk.point->buffers)
        point.buffers.emplace(b.spec->name, cl::Buffer(launcher.context(), CL_MEM_READ_WRITE, b.bytes));
      std::vector<LaunchGeometry> geometry;
      launcher.setUpLaunches(point, geometry);
    }
    // Inputs that do not cross are resident: each chunk's part uploaded once, untimed.
    for (std::size_t k = 0; k < split_.size(); ++k)
      for (std::size_t b = 0; b < buffers; ++b)
        if (whole_.buffers[b].spec->access == BufferAccess::read &&
            whole_.buffers[b].spec->crossing() == BufferLink::none)
          writeSlice(queues_[0], k, b, CL_TRUE, nullptr);
  }
  ~OverlapRun() {
    for (std::size_t b = 0; b < pinned_.size(); ++b) try {
        queues_[0].enqueueUnmapMemObject(staging_[b], pinned_[b]);
      } catch (const cl::Error&) {
      }
    try {
      queues_[0].finish();
    } catch (const cl::Error&) {
    }
  }
  OverlapRun(const OverlapRun&) = delete;
  OverlapRun& operator=(const OverlapRun&) = delete;

  EndToEndParts once() {
    reset();
    struct Issued {
      cl::Event event;
      CommandPart part;
      int queue;
    };
    std::vector<Issued> issued;
    for (std::size_t k = 0; k < split_.size(); ++k) {
      const int q = static_cast<int>(k % std::size_t(queue_count_));
      for (std::size_t b = 0; b < family().buffers.size(); ++b)
        if (goesUp(family().buffers[b].crossing())) {
          issued.push_back({{}, CommandPart::upload, q});
          writeSlice(queues_[q], k, b, CL_FALSE, &issued.back().event);
        }
      PreparedPoint& point = chunks_[k];
      std::vector<cl::Event> kernels;
      enqueueLaunches(queues_[q], point, kernels);
      for (cl::Event& event : kernels) issued.push_back({std::move(event), CommandPart::kernel, q});
      for (std::size_t b = 0; b < family().buffers.size(); ++b)
        if (comesDown(family().buffers[b].crossing())) {
          issued.push_back({{}, CommandPart::download, q});
          readSlice(queues_[q], k, b, CL_FALSE, &issued.back().event);
        }
      queues_[q].flush();
    }
    for (int q = 0; q < queue_count_; ++q) queues_[q].finish();
    std::vector<TimedCommand> commands;
    for (const Issued& command : issued) commands.push_back(timed(command.event, command.part, command.queue));
    return partsOf(commands);
  }

  // The application's output arrays after the last run; slices that do not come down read untimed.
  std::map<std::string, HostBuffer> outputs() {
    std::map<std::string, HostBuffer> out;
    for (std::size_t b = 0; b < family().buffers.size(); ++b) {
      const ResolvedBuffer& whole = whole_.buffers[b];
      if (!whole.spec->isOutput()) continue;
      if (!comesDown(whole.spec->crossing()))
        for (std::size_t k = 0; k < split_.size(); ++k) readSlice(queues_[0], k, b, CL_TRUE, nullptr);
      HostBuffer host(whole.spec->name, whole.spec->type, static_cast<std::size_t>(whole.count));
      std::memcpy(host.bytes.data(), pinned_[b], whole.bytes);
      out.emplace(whole.spec->name, std::move(host));
    }
    return out;
  }

  int launches() const {
    int count = 0;
    for (const PreparedPoint& point : chunks_) count += static_cast<int>(point.launchCount());
    return count;
  }

 private:
  const FamilyManifest& family() const { return *whole_.run_point.family; }

  std::size_t offsetBytes(std::size_t k, std::size_t b) const {
    return static_cast<std::size_t>(split_[k].buffer_offsets[b] * whole_.buffers[b].spec->type.bytes());
  }
  cl::Buffer& chunkBuffer(std::size_t k, std::size_t b) { return chunks_[k].buffers.at(whole_.buffers[b].spec->name); }
  std::size_t chunkBytes(std::size_t k, std::size_t b) const {
    return static_cast<std::size_t>(split_[k].point->buffers[b].bytes);
  }

  void writeSlice(cl::CommandQueue& queue, std::size_t k, std::size_t b, cl_bool blocking, cl::Event* event) {
    queue.enqueueWriteBuffer(chunkBuffer(k, b), blocking, 0, chunkBytes(k, b), pinned_[b] + offsetBytes(k, b), nullptr,
                             event);
  }
  void readSlice(cl::CommandQueue& queue, std::size_t k, std::size_t b, cl_bool blocking, cl::Event* event) {
    queue.enqueueReadBuffer(chunkBuffer(k, b), blocking, 0, chunkBytes(k, b), pinned_[b] + offsetBytes(k, b), nullptr,
                            event);
  }

  void reset() {
    for (std::size_t k = 0; k < split_.size(); ++k)
      for (const ResolvedBuffer& b : split_[k].point->buffers)
        if (b.scratch || b.spec->isOutput())
          poisonDevice(queues_[0], chunks_[k].buffers.at(b.spec->name), b.spec->type, 0,
                       static_cast<std::size_t>(b.bytes));
    queues_[0].finish();
    for (std::size_t b = 0; b < family().buffers.size(); ++b) {
      const ResolvedBuffer& whole = whole_.buffers[b];
      if (!whole.spec->isOutput()) continue;
      const bool restore = hasInput(*whole.spec);
      const HostBuffer& from = restore ? inputs_.at(whole.spec->name) : poisoned_.at(whole.spec->name);
      std::memcpy(pinned_[b], from.bytes.data(), whole.bytes);
      if (restore && !goesUp(whole.spec->crossing()))
        for (std::size_t k = 0; k < split_.size(); ++k) writeSlice(queues_[0], k, b, CL_TRUE, nullptr);
    }
  }

  cl::CommandQueue (&queues_)[2];
  const ResolvedPoint& whole_;
  const std::vector<ResolvedChunk>& split_;
  const std::map<std::string, HostBuffer>& inputs_;
  int queue_count_;
  std::vector<cl::Buffer> staging_;
  std::vector<std::byte*> pinned_;
  std::map<std::string, HostBuffer> poisoned_;
  std::vector<PreparedPoint> chunks_;
};

}  // namespace

EndToEndRun EndToEndRunner::runOverlapped(const std::vector<ResolvedChunk>& split, const PreparedPoint& prepared,
                                          const Buffers& inputs, const OutputCheck& check,
                                          const RepetitionProgress& progress) {
  EndToEndRun run;
  run.strategy = EndToEndStrategy::overlap;
  run.chunks = static_cast<int>(split.size());
  run.queues = split.size() > 1 ? 2 : 1;
  for (const ResolvedChunk& chunk : split) run.chunk_elements.push_back(chunk.elements);
  countCrossings(*prepared.resolved, run);
  OverlapRun overlap(launcher_, queues_, prepared, split, inputs);
  run.launches = overlap.launches();
  repeat(
      run, [&] { return overlap.once(); }, progress);
  run.verification = check(overlap.outputs());
  return run;
}

}  // namespace rooflab

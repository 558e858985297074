#pragma once
// The capture library's state inside the user's process (docs/capture.md): the real OpenCL entry
// points it forwards to, the handles it has seen, the log it appends to and the data it saves.
// Nothing here may change what the program's own calls return.
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl_icd.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#define CAPTURE_EXPORT extern "C" __attribute__((visibility("default")))

namespace rooflab_capture {

// The functions the capture calls: the next layer's (OPENCL_LAYERS) or the real loader's (LD_PRELOAD).
extern cl_icd_dispatch next;
// Fills `next` from the real loader when no layer table came first; false when no loader was found.
bool ensureNext();
// "layer" or "preload": how the capture came into the process.
void setMechanism(const char* mechanism);

// One JSON object of the log, built key by key; finish() gives the line with its newline.
class JsonLine {
 public:
  explicit JsonLine(const char* type);
  JsonLine& number(const char* key, std::uint64_t value);
  JsonLine& integer(const char* key, std::int64_t value);
  JsonLine& text(const char* key, std::string_view value);
  JsonLine& flag(const char* key, bool value);
  JsonLine& raw(const char* key, const std::string& json);
  std::string finish();

 private:
  std::string line_;
};
std::string jsonQuoted(std::string_view text);
std::string jsonNumbers(const std::size_t* values, std::size_t count);
std::string hexBytes(const void* data, std::size_t bytes);
// Sets the application's error code, where it asked for one.
inline void failWith(cl_int* errcode_ret, cl_int code) {
  if (errcode_ret != nullptr) *errcode_ret = code;
}

struct ArgumentInfo {
  std::string type_name, name, address_space;
};
struct ArgumentValue {
  std::string kind = "unset";  // buffer | local | scalar | null-buffer | unset | image | svm | sampler
  cl_mem mem = nullptr;
  std::uint64_t buffer_id = 0;
  std::uint64_t size_bytes = 0;
  std::vector<unsigned char> bytes;
};
struct KernelState {
  std::uint64_t id = 0;
  const void* program = nullptr;
  std::string name;
  std::vector<ArgumentInfo> info;
  std::vector<ArgumentValue> args;
};
struct ProgramState {
  std::uint64_t id = 0;
  std::string kind = "source";
  std::string source_blob;  // data/ name of the source text
  std::string options;      // as the program passed them
};
struct BufferState {
  std::uint64_t id = 0;
  std::size_t bytes = 0;
  const char* unsupported = nullptr;  // "sub-buffer", "image", "pipe", "GL sharing": not replayable
};
struct QueueState {
  std::uint64_t id = 0;
  bool out_of_order = false;
};
// A command whose event the capture reads once it is complete.
struct PendingEvent {
  std::uint64_t sequence = 0;
  cl_event event = nullptr;
};

struct State {
  std::mutex mutex;
  std::uint64_t next_id = 1;
  std::uint64_t next_sequence = 1;
  std::uint64_t calls = 0;
  std::unordered_map<const void*, std::uint64_t> contexts;
  std::unordered_map<const void*, ProgramState> programs;
  std::unordered_map<const void*, KernelState> kernels;
  std::unordered_map<const void*, BufferState> buffers;
  std::unordered_map<const void*, QueueState> queues;
  std::unordered_map<std::string, std::uint64_t> launches;  // a launch's configuration -> its id
  std::vector<PendingEvent> pending;
  bool device_named = false;
};
// The state, locked by the caller through state().mutex.
State& state();
// Counts one OpenCL call of the program; the first one starts the log. Call with the mutex held.
void countCall();
std::uint64_t nowNs();
// Appends a line to the log with one write(2) (nothing when no capture folder was named).
void writeLine(const std::string& line);
// Saves bytes as data/<hash>; returns the file's name, or "" when it could not be written.
std::string saveBlob(const void* data, std::size_t bytes);
// Names something the replay cannot reproduce; the program's call has already run.
void noteUnsupported(const char* feature, const char* call);
// Reads the times of the program's completed commands (all of them when `all_done`), and lets go
// of the events the capture held for them. Call with the mutex held.
void collectEventTimes(bool all_done);

}  // namespace rooflab_capture

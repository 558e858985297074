#pragma once
// An application's OpenCL calls as `rooflab capture` recorded them (docs/capture.md), as typed
// values: the programs and kernels it built, the buffers it made, every command it enqueued with
// its event times, and the data its kernels read and wrote. The capture library writes the log
// (capture/), json/ reads it into these types, the timeline and the replay generator read them.
// Types and their names only.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rooflab {

// A file of the capture's data/ folder, named by the hash of its bytes (the same bytes saved twice
// are one file).
struct CaptureBlob {
  std::string name;  // file name under data/
  std::uint64_t bytes = 0;
};

// What a program was built from; only source programs can be replayed.
enum class CapturedProgramKind { source, binary, il, built_in };
std::string toString(CapturedProgramKind kind);  // "source" | "binary" | "il" | "built-in"
std::optional<CapturedProgramKind> parseCapturedProgramKind(std::string_view text);

struct CapturedProgram {
  std::uint64_t id = 0;  // the handle's number in the log
  CapturedProgramKind kind = CapturedProgramKind::source;
  std::optional<CaptureBlob> source;  // the source strings joined, as the program passed them
  std::string build_options;          // as the program passed them to clBuildProgram
  std::string build_log;
  bool built = false;  // the build succeeded
};

// A kernel argument as the program last set it before a launch.
enum class CapturedArgumentKind { buffer, local, scalar, null_buffer, unset };
std::string toString(CapturedArgumentKind kind);  // "buffer" | "local" | "scalar" | "null-buffer" | "unset"
std::optional<CapturedArgumentKind> parseCapturedArgumentKind(std::string_view text);

struct CapturedArgument {
  CapturedArgumentKind kind = CapturedArgumentKind::unset;
  std::uint64_t buffer_id = 0;      // buffer: the buffer's handle number
  std::uint64_t size_bytes = 0;     // local: the __local size; scalar: its size
  std::vector<std::uint8_t> value;  // scalar: its bytes as passed to clSetKernelArg
  // From clGetKernelArgInfo where the program was built with argument info (the capture adds
  // -cl-kernel-arg-info), else empty: the declared type ("float*", "int") and name.
  std::string type_name;
  std::string name;
  std::string address_space;  // "global" | "constant" | "local" | "private" | ""
};

struct CapturedKernel {
  std::uint64_t id = 0;
  std::uint64_t program_id = 0;
  std::string name;
};

struct CapturedBuffer {
  std::uint64_t id = 0;
  std::uint64_t size_bytes = 0;
  std::uint64_t flags = 0;                 // cl_mem_flags as passed
  bool host_ptr = false;                   // created with a host pointer (USE/COPY_HOST_PTR)
  std::optional<std::uint64_t> parent_id;  // a sub-buffer of that buffer (not replayable)
};

// The kind of an enqueued command.
enum class CapturedCommandKind { kernel, write, read, copy, fill, map, unmap, marker, barrier, other };
std::string toString(CapturedCommandKind kind);  // "kernel" | "write" | "read" | "copy" | "fill" | "map" | "unmap" |
                                                 // "marker" | "barrier" | "other"
std::optional<CapturedCommandKind> parseCapturedCommandKind(std::string_view text);

// Each stage of a command as the queue's profiling events reported it, in device nanoseconds;
// absent where the command's event was never complete or its queue gave no times.
struct CapturedEventTimes {
  std::uint64_t queued_ns = 0;
  std::uint64_t submit_ns = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
};

struct CapturedCommand {
  std::uint64_t sequence = 0;  // order of the call in the program
  std::uint64_t queue_id = 0;
  CapturedCommandKind kind = CapturedCommandKind::other;
  std::string call;                 // the OpenCL function, "clEnqueueNDRangeKernel"
  std::uint64_t host_begin_ns = 0;  // the host's steady clock around the call
  std::uint64_t host_end_ns = 0;
  bool blocking = false;
  std::uint64_t wait_list_size = 0;
  std::optional<CapturedEventTimes> times;
  // Transfers: the buffer(s), bytes moved and, for map, the map flags.
  std::uint64_t buffer_id = 0;
  std::uint64_t other_buffer_id = 0;  // copy: the destination
  std::uint64_t bytes = 0;
  std::uint64_t map_flags = 0;
  // Kernels: the launch this command is an instance of (CapturedLaunch::id).
  std::optional<std::uint64_t> launch_id;
};

// One distinct kernel launch: the same program, options, kernel, argument types, scalar values,
// local sizes and NDRange launched again is the same launch, counted in `commands`.
struct CapturedLaunch {
  std::uint64_t id = 0;
  std::uint64_t kernel_id = 0;
  std::uint32_t work_dim = 1;
  std::vector<std::uint64_t> global_size;
  std::vector<std::uint64_t> global_offset;              // empty: no offset
  std::optional<std::vector<std::uint64_t>> local_size;  // absent: the program passed NULL
  std::vector<CapturedArgument> arguments;
  std::uint64_t commands = 0;  // how many times the program enqueued it
  // The buffers its arguments name, saved just before its first instance ran and just after it
  // finished (same order as the buffer arguments; absent where saving failed, with the reason).
  struct BufferState {
    std::uint64_t buffer_id = 0;
    std::optional<CaptureBlob> before;
    std::optional<CaptureBlob> after;
  };
  std::vector<BufferState> buffers;
  std::optional<std::string> not_replayable;  // why this launch cannot be replayed, in words
};

struct CapturedQueue {
  std::uint64_t id = 0;
  std::uint64_t properties = 0;  // as the program asked (the capture adds profiling)
  bool out_of_order = false;
};

// Something the program used that the replay cannot reproduce (images, SVM, pipes, ...): named,
// the program still ran unchanged.
struct CaptureUnsupported {
  std::string feature;  // "image", "svm", "sub-buffer", "pipe", "out-of-order queue", ...
  std::string call;     // the OpenCL call where it was seen
  std::uint64_t count = 0;
};

// The program run under capture, and how it ended.
struct CapturedProcess {
  std::vector<std::string> command;  // program and arguments
  std::optional<int> exit_code;
  std::optional<int> signal;  // killed by it
  std::uint64_t wall_ns = 0;  // from start to exit, as rooflab capture timed it
  std::string mechanism;      // "layer" (OPENCL_LAYERS) | "preload" (libOpenCL shim)
};

struct CaptureLog {
  CapturedProcess process;
  std::string platform_name;
  std::string device_name;
  std::vector<CapturedProgram> programs;
  std::vector<CapturedKernel> kernels;
  std::vector<CapturedBuffer> buffers;
  std::vector<CapturedQueue> queues;
  std::vector<CapturedLaunch> launches;
  std::vector<CapturedCommand> commands;  // in the program's order
  std::vector<CaptureUnsupported> unsupported;
  bool complete = false;         // the log ends with the program's exit (else it was killed or crashed)
  std::uint64_t calls_seen = 0;  // OpenCL calls the library saw; 0: "no OpenCL call was seen"
};

}  // namespace rooflab

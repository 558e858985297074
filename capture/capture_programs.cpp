// Programs, their builds and kernels, and the arguments a program sets on them. The build gets
// -cl-kernel-arg-info so that each argument's address space, type and name can be asked.
#include <cstring>

#include "capture/capture_state.hpp"

using namespace rooflab_capture;

namespace {

cl_program recordProgram(cl_program program, const char* kind, const std::string& source, const char* call) {
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  if (program == nullptr) return program;
  ProgramState& p = state().programs[program];
  p = ProgramState{};
  p.id = state().next_id++;
  p.kind = kind;
  JsonLine line("program");
  line.number("id", p.id).text("kind", kind).text("call", call);
  if (p.kind == "source") {
    p.source_blob = saveBlob(source.data(), source.size());
    line.raw("source", "{\"name\":" + jsonQuoted(p.source_blob) + ",\"bytes\":" + std::to_string(source.size()) + "}");
  }
  writeLine(line.finish());
  if (p.kind == "binary") noteUnsupported("program binary", call);
  if (p.kind == "il") noteUnsupported("IL program", call);
  if (p.kind == "built-in") noteUnsupported("built-in kernels", call);
  return program;
}

std::string programText(cl_program program, cl_device_id device, cl_program_build_info what) {
  std::size_t bytes = 0;
  if (next.clGetProgramBuildInfo(program, device, what, 0, nullptr, &bytes) != CL_SUCCESS || bytes == 0) return "";
  std::string text(bytes, '\0');
  if (next.clGetProgramBuildInfo(program, device, what, bytes, text.data(), nullptr) != CL_SUCCESS) return "";
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

void recordBuild(cl_program program, const cl_device_id* devices, const char* options, cl_int status) {
  cl_device_id device = devices != nullptr ? devices[0] : nullptr;
  if (device == nullptr) next.clGetProgramInfo(program, CL_PROGRAM_DEVICES, sizeof device, &device, nullptr);
  const std::string log = programText(program, device, CL_PROGRAM_BUILD_LOG);
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  const auto found = state().programs.find(program);
  if (found == state().programs.end()) return;
  found->second.options = options != nullptr ? options : "";
  writeLine(JsonLine("build")
                .number("program", found->second.id)
                .text("options", found->second.options)
                .flag("built", status == CL_SUCCESS)
                .integer("status", status)
                .text("log", log)
                .finish());
}

std::string kernelArgText(cl_kernel kernel, cl_uint index, cl_kernel_arg_info what) {
  std::size_t bytes = 0;
  if (next.clGetKernelArgInfo == nullptr ||
      next.clGetKernelArgInfo(kernel, index, what, 0, nullptr, &bytes) != CL_SUCCESS || bytes == 0)
    return "";
  std::string text(bytes, '\0');
  if (next.clGetKernelArgInfo(kernel, index, what, bytes, text.data(), nullptr) != CL_SUCCESS) return "";
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

const char* addressSpaceName(cl_kernel kernel, cl_uint index) {
  cl_kernel_arg_address_qualifier space = 0;
  if (next.clGetKernelArgInfo == nullptr || next.clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                                                    sizeof space, &space, nullptr) != CL_SUCCESS)
    return "";
  switch (space) {
    case CL_KERNEL_ARG_ADDRESS_GLOBAL: return "global";
    case CL_KERNEL_ARG_ADDRESS_CONSTANT: return "constant";
    case CL_KERNEL_ARG_ADDRESS_LOCAL: return "local";
    case CL_KERNEL_ARG_ADDRESS_PRIVATE: return "private";
    default: return "";
  }
}

// Call with the mutex held.
void recordKernel(cl_kernel kernel, cl_program program, const char* name) {
  if (kernel == nullptr) return;
  KernelState& k = state().kernels[kernel];
  k = KernelState{};
  k.id = state().next_id++;
  k.program = program;
  k.name = name;
  cl_uint count = 0;
  next.clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr);
  k.info.resize(count);
  k.args.resize(count);
  std::string args = "[";
  for (cl_uint i = 0; i < count; ++i) {
    k.info[i] = {kernelArgText(kernel, i, CL_KERNEL_ARG_TYPE_NAME), kernelArgText(kernel, i, CL_KERNEL_ARG_NAME),
                 addressSpaceName(kernel, i)};
    args += std::string(i ? "," : "") + "{\"type\":" + jsonQuoted(k.info[i].type_name) +
            ",\"name\":" + jsonQuoted(k.info[i].name) + ",\"space\":" + jsonQuoted(k.info[i].address_space) + "}";
  }
  const auto found = state().programs.find(program);
  writeLine(JsonLine("kernel")
                .number("id", k.id)
                .number("program", found == state().programs.end() ? 0 : found->second.id)
                .text("name", name)
                .raw("args", args + "]")
                .finish());
}

std::string kernelName(cl_kernel kernel) {
  std::size_t bytes = 0;
  if (next.clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &bytes) != CL_SUCCESS) return "";
  std::string name(bytes, '\0');
  next.clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, bytes, name.data(), nullptr);
  while (!name.empty() && name.back() == '\0') name.pop_back();
  return name;
}

// What an argument is, from its value and, where the build gave it, its declared address space.
ArgumentValue classifyArgument(const ArgumentInfo& info, std::size_t size, const void* value) {
  ArgumentValue arg;
  arg.size_bytes = size;
  if (info.address_space == "local" || (value == nullptr && size > 0 && info.address_space.empty())) {
    arg.kind = "local";
    return arg;
  }
  if (info.type_name.rfind("image", 0) == 0) return arg.kind = "image", arg;
  if (info.type_name == "sampler_t") return arg.kind = "sampler", arg;
  const bool memory_space = info.address_space == "global" || info.address_space == "constant";
  if (size == sizeof(cl_mem) && (memory_space || info.address_space.empty())) {
    const cl_mem mem = value != nullptr ? *static_cast<const cl_mem*>(value) : nullptr;
    const auto found = state().buffers.find(mem);
    if (found != state().buffers.end()) {
      arg.kind = found->second.unsupported != nullptr ? found->second.unsupported : "buffer";
      arg.mem = mem;
      arg.buffer_id = found->second.id;
      return arg;
    }
    if (mem == nullptr && (memory_space || value == nullptr)) return arg.kind = "null-buffer", arg;
    if (memory_space) return arg.kind = "buffer", arg;  // a buffer the capture did not see made
  }
  arg.kind = "scalar";
  if (value != nullptr)
    arg.bytes.assign(static_cast<const unsigned char*>(value), static_cast<const unsigned char*>(value) + size);
  return arg;
}

}  // namespace

CAPTURE_EXPORT cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                                                const size_t* lengths, cl_int* errcode_ret) {
  if (!ensureNext()) return failWith(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  cl_program program = next.clCreateProgramWithSource(context, count, strings, lengths, errcode_ret);
  std::string source;
  for (cl_uint i = 0; program != nullptr && i < count; ++i)
    source.append(strings[i], lengths != nullptr && lengths[i] != 0 ? lengths[i] : std::strlen(strings[i]));
  return recordProgram(program, "source", source, "clCreateProgramWithSource");
}

CAPTURE_EXPORT cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                                const cl_device_id* devices, const size_t* lengths,
                                                                const unsigned char** binaries, cl_int* binary_status,
                                                                cl_int* errcode_ret) {
  if (!ensureNext()) return failWith(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  cl_program program =
      next.clCreateProgramWithBinary(context, num_devices, devices, lengths, binaries, binary_status, errcode_ret);
  return recordProgram(program, "binary", "", "clCreateProgramWithBinary");
}

CAPTURE_EXPORT cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void* il, size_t length,
                                                            cl_int* errcode_ret) {
  if (!ensureNext() || next.clCreateProgramWithIL == nullptr)
    return failWith(errcode_ret, CL_INVALID_OPERATION), nullptr;
  cl_program program = next.clCreateProgramWithIL(context, il, length, errcode_ret);
  return recordProgram(program, "il", "", "clCreateProgramWithIL");
}

CAPTURE_EXPORT cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                                        const cl_device_id* devices,
                                                                        const char* kernel_names, cl_int* errcode_ret) {
  if (!ensureNext()) return failWith(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  cl_program program = next.clCreateProgramWithBuiltInKernels(context, num_devices, devices, kernel_names, errcode_ret);
  return recordProgram(program, "built-in", "", "clCreateProgramWithBuiltInKernels");
}

CAPTURE_EXPORT cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* devices,
                                                 const char* options, void(CL_CALLBACK* notify)(cl_program, void*),
                                                 void* user_data) {
  if (!ensureNext()) return CL_INVALID_PROGRAM;
  std::string with_info = options != nullptr ? options : "";
  if (with_info.find("-cl-kernel-arg-info") == std::string::npos) with_info += " -cl-kernel-arg-info";
  const cl_int status = next.clBuildProgram(program, num_devices, devices, with_info.c_str(), notify, user_data);
  recordBuild(program, devices, options, status);
  return status;
}

CAPTURE_EXPORT cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id* devices,
                                                   const char* options, cl_uint num_headers, const cl_program* headers,
                                                   const char** header_names,
                                                   void(CL_CALLBACK* notify)(cl_program, void*), void* user_data) {
  if (!ensureNext()) return CL_INVALID_PROGRAM;
  const cl_int status = next.clCompileProgram(program, num_devices, devices, options, num_headers, headers,
                                              header_names, notify, user_data);
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  noteUnsupported("separate compile and link", "clCompileProgram");
  return status;
}

CAPTURE_EXPORT cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char* name, cl_int* errcode_ret) {
  if (!ensureNext()) return failWith(errcode_ret, CL_OUT_OF_HOST_MEMORY), nullptr;
  cl_kernel kernel = next.clCreateKernel(program, name, errcode_ret);
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  recordKernel(kernel, program, name != nullptr ? name : "");
  return kernel;
}

CAPTURE_EXPORT cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                                           cl_uint* num_kernels_ret) {
  if (!ensureNext()) return CL_INVALID_PROGRAM;
  const cl_int status = next.clCreateKernelsInProgram(program, num_kernels, kernels, num_kernels_ret);
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  for (cl_uint i = 0; status == CL_SUCCESS && kernels != nullptr && i < num_kernels; ++i)
    if (kernels[i] != nullptr) recordKernel(kernels[i], program, kernelName(kernels[i]).c_str());
  return status;
}

CAPTURE_EXPORT cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint index, size_t size, const void* value) {
  if (!ensureNext()) return CL_INVALID_KERNEL;
  const cl_int status = next.clSetKernelArg(kernel, index, size, value);
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  const auto found = state().kernels.find(kernel);
  if (status != CL_SUCCESS || found == state().kernels.end() || index >= found->second.args.size()) return status;
  found->second.args[index] = classifyArgument(found->second.info[index], size, value);
  return status;
}

CAPTURE_EXPORT cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint index, const void* value) {
  if (!ensureNext() || next.clSetKernelArgSVMPointer == nullptr) return CL_INVALID_OPERATION;
  const cl_int status = next.clSetKernelArgSVMPointer(kernel, index, value);
  std::lock_guard<std::mutex> lock(state().mutex);
  countCall();
  noteUnsupported("svm", "clSetKernelArgSVMPointer");
  const auto found = state().kernels.find(kernel);
  if (status == CL_SUCCESS && found != state().kernels.end() && index < found->second.args.size())
    found->second.args[index].kind = "svm";
  return status;
}

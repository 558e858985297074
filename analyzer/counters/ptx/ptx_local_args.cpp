#include "analyzer/counters/ptx/ptx_local_args.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace rooflab::counters {
namespace ptx_detail {
namespace {

std::size_t localAlignment(const PtxParam& param) { return std::max<std::size_t>(16, param.align_bytes); }

// `ld.param.u64 %rd3, [dyn_param_2];` -> the register, when the line is exactly that load of `param`.
std::optional<std::string> localPointerLoadTarget(const std::string& code, const std::string& param) {
  std::istringstream in(code);
  std::string op, reg, address, rest;
  in >> op;
  if (op != "ld.param.u64" && op != "ld.param.b64" && op != "ld.param.s64") return std::nullopt;
  std::string operands;
  std::getline(in, operands);
  // Normalise spacing: "%rd3, [ dyn_param_2 ] ;" -> "%rd3,[dyn_param_2];"
  std::string compact;
  for (char c : operands)
    if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
  const std::string suffix = ",[" + param + "];";
  if (compact.size() <= suffix.size() || compact.compare(compact.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  reg = compact.substr(0, compact.size() - suffix.size());
  if (reg.empty() || reg[0] != '%') return std::nullopt;
  for (char c : reg)
    if (!isIdentifierChar(c)) return std::nullopt;
  return reg;
}

}  // namespace

std::size_t dynamicLocalAlignment(const std::vector<EntryLocation>& entries) {
  std::size_t extern_align = 16;
  for (const EntryLocation& entry : entries)
    for (const PtxParam& p : entry.signature.params)
      if (p.kind == PtxParamKind::local_pointer) extern_align = std::max(extern_align, localAlignment(p));
  return extern_align;
}

LocalArgOffsets placeLocalArguments(const std::vector<EntryLocation>& entries,
                                    const LocalArgBytesByKernel& local_arg_bytes,
                                    std::map<std::string, DynamicLocalLayout>& layouts) {
  LocalArgOffsets local_offsets;
  for (const EntryLocation& entry : entries) {
    const PtxKernelSignature& sig = entry.signature;
    const std::size_t count = sig.localPointerCount();
    if (count == 0) continue;
    std::vector<std::size_t> offsets;
    if (const auto sizes = local_arg_bytes.find(sig.name); sizes != local_arg_bytes.end()) {
      if (sizes->second.size() != count)
        fail(sig.name, sig.line,
             std::to_string(count) + " __local arguments, but " + std::to_string(sizes->second.size()) +
                 " sizes were given");
      DynamicLocalLayout layout = layoutDynamicLocal(sig, sizes->second);
      offsets = layout.offsets_bytes;
      layouts[sig.name] = std::move(layout);
    } else if (count == 1) {
      offsets = {0};
    } else {
      fail(sig.name, sig.line,
           std::to_string(count) + " __local arguments: their sizes are needed to place them in dynamic shared memory");
    }
    std::size_t index = 0;
    for (const PtxParam& p : sig.params)
      if (p.kind == PtxParamKind::local_pointer) local_offsets[sig.name][p.name] = offsets[index++];
  }
  return local_offsets;
}

std::optional<std::string> replaceLocalPointerLoad(const SourceLine& body, const std::string& kernel,
                                                   const std::map<std::string, std::size_t>& offsets,
                                                   const std::string& symbol) {
  for (const auto& [param, offset] : offsets) {
    if (findToken(body.code, param) == std::string::npos) continue;
    const std::optional<std::string> reg = localPointerLoadTarget(body.code, param);
    if (!reg)
      fail(kernel, body.number,
           "__local parameter " + param + " is used other than by 'ld.param.u64 %rd, [" + param +
               "];', which the PTX bridge cannot rewrite: '" + trim(body.text) + "'");
    const std::string indent = leadingWhitespace(body.text);
    std::ostringstream out;
    out << indent << "mov.u64 \t" << *reg << ", " << symbol << ";\n";
    if (offset > 0) out << indent << "add.s64 \t" << *reg << ", " << *reg << ", " << offset << ";\n";
    return out.str();
  }
  return std::nullopt;
}

}  // namespace ptx_detail

using namespace ptx_detail;

DynamicLocalLayout layoutDynamicLocal(const PtxKernelSignature& kernel,
                                      const std::vector<std::size_t>& local_arg_bytes) {
  if (local_arg_bytes.size() != kernel.localPointerCount())
    throw PtxRewriteError("kernel " + kernel.name + ": " + std::to_string(kernel.localPointerCount()) +
                          " __local arguments, but " + std::to_string(local_arg_bytes.size()) + " sizes were given");
  DynamicLocalLayout layout;
  std::size_t next = 0;
  std::size_t index = 0;
  for (const PtxParam& param : kernel.params) {
    if (param.kind != PtxParamKind::local_pointer) continue;
    const std::size_t offset = roundUp(next, localAlignment(param));
    layout.offsets_bytes.push_back(offset);
    next = offset + local_arg_bytes[index++];
  }
  layout.total_bytes = next;
  return layout;
}

}  // namespace rooflab::counters

// rewriteForCuda: the walk over the module that applies the rewrites of ptx_rewrite.hpp. Rewrites 1-3
// and dropping the kernels not kept are here; 4 (__local arguments) is in ptx_local_args.cpp, 5
// (__local arrays) in ptx_local_arrays.cpp, 6 (__constant arguments) in ptx_constant_args.cpp, the
// parsing of `.entry` in ptx_entries.cpp and the line model in ptx_text.cpp.
#include "analyzer/counters/ptx/ptx_rewrite.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>

#include "analyzer/counters/ptx/ptx_constant_args.hpp"
#include "analyzer/counters/ptx/ptx_entries.hpp"
#include "analyzer/counters/ptx/ptx_local_args.hpp"
#include "analyzer/counters/ptx/ptx_local_arrays.hpp"
#include "analyzer/counters/ptx/ptx_text.hpp"

namespace rooflab::counters {

using namespace ptx_detail;

namespace {

// `.target sm_90, texmode_independent` -> `.target sm_90`.
std::string dropTexmodeIndependent(const SourceLine& line) {
  const std::size_t pos = findToken(line.code, "texmode_independent");
  if (pos == std::string::npos) return line.text;
  std::size_t begin = pos, end = pos + std::string_view("texmode_independent").size();
  std::size_t before = begin;
  while (before > 0 && std::isspace(static_cast<unsigned char>(line.code[before - 1]))) --before;
  if (before > 0 && line.code[before - 1] == ',') {
    begin = before - 1;
    while (begin > 0 && std::isspace(static_cast<unsigned char>(line.code[begin - 1]))) --begin;
  } else {
    while (end < line.code.size() && std::isspace(static_cast<unsigned char>(line.code[end]))) ++end;
    if (end < line.code.size() && line.code[end] == ',') ++end;
    while (end < line.code.size() && std::isspace(static_cast<unsigned char>(line.code[end]))) ++end;
  }
  return line.text.substr(0, begin) + line.text.substr(end);
}

// NVIDIA's OpenCL passes launch geometry in environment registers (read off the PTX of rooflab's
// kernels on an H100, driver 580): %envreg0-2 are added to %ctaid (a group-id offset, for launches
// the driver splits), %envreg3-5 to the global id (the global work offset), and %envreg6-8 are
// get_num_groups(). The bridge launches one grid without offsets, so 0-5 become 0 and 6-8 the grid
// size. Any other register is refused: a wrong guess once turned a grid-stride loop's step into 0
// and hung the GPU.
std::string replaceEnvRegisters(const std::string& text, const std::string& code) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (code.compare(i, 7, "%envreg") == 0) {
      std::size_t end = i + 7;
      while (end < code.size() && std::isdigit(static_cast<unsigned char>(code[end]))) ++end;
      const bool whole = end > i + 7 && (end >= code.size() || !isIdentifierChar(code[end]));
      if (whole) {
        const int index = std::stoi(code.substr(i + 7, end - i - 7));
        if (index <= 5) out += '0';
        else if (index <= 8) out += std::string("%nctaid.") + "xyz"[index - 6];
        else
          throw std::runtime_error("the PTX reads %envreg" + std::to_string(index) +
                                   ", an OpenCL environment register whose meaning the bridge does not know "
                                   "(%envreg0-8 are supported: group and global offsets, number of groups)");
        i = end;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

// The parameter list, rewritten in NVVM's layout: one parameter a line.
void writeParameterList(std::ostringstream& out, const std::vector<SourceLine>& lines, const EntryLocation& entry) {
  out << lines[entry.entry_line].text.substr(0, entry.open_col) << '(';
  bool first = true;
  for (const ParsedParam& p : entry.params) {
    if (p.param.kind == PtxParamKind::local_pointer) continue;
    out << (first ? "\n" : ",\n") << '\t';
    if (p.param.kind == PtxParamKind::global_pointer || p.param.kind == PtxParamKind::constant_pointer) {
      out << ".param " << p.type << ' ' << p.param.name;
    } else {
      out << p.text;
    }
    first = false;
  }
  if (!first) out << '\n';
  out << ')'
      << replaceEnvRegisters(lines[entry.close_line].text.substr(entry.close_col + 1),
                             lines[entry.close_line].code.substr(entry.close_col + 1))
      << '\n';
}

// The lines between ')' and the end of the body: the kernel's __local arrays in OpenCL's layout,
// the loads of __local arguments' addresses, and __constant accesses in their global form.
void writeBody(std::ostringstream& out, const std::vector<SourceLine>& lines, const EntryLocation& entry,
               const LocalArgOffsets& local_offsets, const std::string& static_local_symbol, CudaReadyPtx& result) {
  const std::string& kernel = entry.signature.name;
  const auto offsets = local_offsets.find(kernel);
  const auto static_local =
      planOpenClStaticLocal(lines, entry.close_line + 1, entry.body_close_line, static_local_symbol);
  if (static_local) result.opencl_static_local_bytes[kernel] = static_local->first.total_bytes;
  std::set<std::string> constant_params;
  for (const ParsedParam& p : entry.params)
    if (p.param.kind == PtxParamKind::constant_pointer) constant_params.insert(p.param.name);
  const std::set<std::string> constant_registers =
      constant_params.empty()
          ? std::set<std::string>{}
          : constantAddressRegisters(lines, entry.close_line + 1, entry.body_close_line, constant_params, kernel);
  for (std::size_t b = entry.close_line + 1; b <= entry.body_close_line; ++b) {
    const SourceLine& body = lines[b];
    if (static_local) {
      const StaticLocalLayout& layout = static_local->first;
      if (layout.declaration_lines.count(b)) {
        if (b == *layout.declaration_lines.begin())
          out << leadingWhitespace(body.text) << ".shared .align " << layout.align_bytes << " .b8 "
              << static_local_symbol << '[' << layout.total_bytes
              << "];  // rooflab: OpenCL's layout of the kernel's __local arrays\n";
        continue;
      }
      if (const auto it = static_local->second.find(b); it != static_local->second.end()) {
        out << replaceEnvRegisters(it->second, it->second) << '\n';
        continue;
      }
    }
    std::optional<std::string> load;
    if (offsets != local_offsets.end())
      load = replaceLocalPointerLoad(body, kernel, offsets->second, result.dynamic_local_symbol);
    if (load) {
      out << *load;
      continue;
    }
    // The code (comments blanked) rewritten alike, so that its columns stay the text's.
    out << replaceEnvRegisters(
               globalFormOfConstantAccess(body, constant_registers),
               globalFormOfConstantAccess(SourceLine{body.code, body.code, body.number}, constant_registers))
        << '\n';
  }
}

}  // namespace

CudaReadyPtx rewriteForCuda(std::string_view opencl_ptx, const LocalArgBytesByKernel& local_arg_bytes,
                            const std::set<std::string>& keep_kernels) {
  const std::string text = ptxTextFromProgramBinary(opencl_ptx);
  const std::vector<SourceLine> lines = splitLines(text);
  requirePtx(lines);
  const std::vector<EntryLocation> entries = locateEntries(lines);

  CudaReadyPtx result;
  for (const EntryLocation& entry : entries) result.kernels.push_back(entry.signature);
  const std::size_t extern_align = dynamicLocalAlignment(entries);
  const bool any_local = std::any_of(entries.begin(), entries.end(),
                                     [](const EntryLocation& e) { return e.signature.localPointerCount() > 0; });
  if (any_local) result.dynamic_local_symbol = uniqueSymbol(text, "rooflab_dynamic_local");
  const LocalArgOffsets local_offsets = placeLocalArguments(entries, local_arg_bytes, result.local_layouts);

  const std::string static_local_symbol = uniqueSymbol(text, "rooflab_opencl_local");
  std::ostringstream out;
  std::size_t next_entry = 0;
  bool extern_declared = false;
  std::optional<std::size_t> extern_after_line;  // after .address_size, else after .target
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string directive = firstToken(lines[i].code);
    if (directive == ".address_size" || (directive == ".target" && !extern_after_line)) extern_after_line = i;
  }
  auto declareExtern = [&] {
    if (!any_local || extern_declared) return;
    out << "\n// rooflab PTX bridge: OpenCL __local arguments live in the launch's dynamic shared memory.\n"
        << ".extern .shared .align " << extern_align << " .b8 " << result.dynamic_local_symbol << "[];\n";
    extern_declared = true;
  };

  for (std::size_t i = 0; i < lines.size(); ++i) {
    const SourceLine& line = lines[i];
    if (next_entry < entries.size() && i == entries[next_entry].entry_line) {
      const EntryLocation& entry = entries[next_entry++];
      const std::string& kernel = entry.signature.name;
      if (!keep_kernels.empty() && keep_kernels.count(kernel) == 0) {
        i = entry.body_open_line ? entry.body_close_line : entry.close_line;
        continue;
      }
      declareExtern();  // a module without .target would reach here first; PTX requires it anyway

      writeParameterList(out, lines, entry);
      if (!entry.body_open_line) {
        i = entry.close_line;
        continue;
      }

      writeBody(out, lines, entry, local_offsets, static_local_symbol, result);
      i = entry.body_close_line;
      continue;
    }

    const std::string directive = firstToken(line.code);
    out << (directive == ".target" ? dropTexmodeIndependent(line) : replaceEnvRegisters(line.text, line.code)) << '\n';
    if (extern_after_line && i == *extern_after_line) declareExtern();
  }
  result.ptx = out.str();
  return result;
}

}  // namespace rooflab::counters

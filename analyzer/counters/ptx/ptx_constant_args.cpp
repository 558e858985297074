#include "analyzer/counters/ptx/ptx_constant_args.hpp"

#include <cctype>

namespace rooflab::counters::ptx_detail {
namespace {

// One instruction of a body line: its opcode (after any `@%p` guard) and its operands; empty opcode
// for labels, directives and blank lines.
struct Instruction {
  std::string opcode;                 // "ld.param.u64", "mad.wide.s32"
  std::vector<std::string> operands;  // as written, trimmed: "%rd4", "[%rd5+8]", "{%f1, %f2}"
  std::size_t opcode_col = 0;         // where the opcode starts in the line
};

Instruction readInstruction(const std::string& code) {
  Instruction in;
  std::size_t pos = code.find_first_not_of(" \t");
  if (pos == std::string::npos || code[pos] == '.' || code[pos] == '{' || code[pos] == '}') return in;
  if (code[pos] == '@') pos = code.find_first_of(" \t", pos), pos = code.find_first_not_of(" \t", pos);
  if (pos == std::string::npos) return in;
  const std::size_t end = code.find_first_of(" \t;", pos);
  in.opcode = code.substr(pos, end - pos);
  in.opcode_col = pos;
  if (!in.opcode.empty() && in.opcode.back() == ':') return Instruction{};  // a label
  const std::size_t semicolon = code.find(';', pos);
  if (end == std::string::npos || semicolon == std::string::npos) return in;
  std::string operand;
  int depth = 0;
  for (std::size_t i = end; i < semicolon; ++i) {
    const char c = code[i];
    depth += (c == '{' || c == '[') ? 1 : (c == '}' || c == ']') ? -1 : 0;
    if (c == ',' && depth == 0) {
      in.operands.push_back(trim(operand));
      operand.clear();
    } else {
      operand += c;
    }
  }
  if (!trim(operand).empty()) in.operands.push_back(trim(operand));
  return in;
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// Whether `operand` names one of `registers` as a whole word.
bool namesAny(const std::string& operand, const std::set<std::string>& registers) {
  for (const std::string& r : registers)
    if (findToken(operand, r) != std::string::npos) return true;
  return false;
}

// "[%rd4]" or "[%rd4+16]" -> "%rd4"; "" for anything else.
std::string addressRegister(const std::string& operand) {
  if (operand.size() < 3 || operand.front() != '[' || operand.back() != ']') return "";
  std::string inner = operand.substr(1, operand.size() - 2);
  const std::size_t plus = inner.find('+');
  return trim(plus == std::string::npos ? inner : inner.substr(0, plus));
}

}  // namespace

std::set<std::string> constantAddressRegisters(const std::vector<SourceLine>& lines, std::size_t first,
                                               std::size_t last, const std::set<std::string>& params,
                                               const std::string& kernel) {
  std::set<std::string> registers;
  for (std::size_t b = first; b <= last && b < lines.size(); ++b) {
    const Instruction in = readInstruction(lines[b].code);
    for (const std::string& param : params) {
      if (findToken(lines[b].code, param) == std::string::npos) continue;
      if (!startsWith(in.opcode, "ld.param.") || in.operands.size() != 2 || in.operands[1] != "[" + param + "]")
        fail(kernel, lines[b].number,
             "__constant pointer parameter " + param + " is used other than by 'ld.param.u64 %rdX, [" + param +
                 "];' (" + trim(lines[b].code) + "), which the bridge cannot point at a buffer");
      registers.insert(in.operands[0]);
    }
  }
  // Forward through every instruction that computes a register from one (PTX from NVVM is nearly
  // SSA; a loop's moves are caught by repeating until nothing is added). Loads are values, not
  // addresses, and stores define nothing.
  for (std::size_t before = 0; before != registers.size();) {
    before = registers.size();
    for (std::size_t b = first; b <= last && b < lines.size(); ++b) {
      const Instruction in = readInstruction(lines[b].code);
      if (in.opcode.empty() || in.operands.size() < 2 || startsWith(in.opcode, "ld.") || startsWith(in.opcode, "st.") ||
          startsWith(in.opcode, "setp.") || in.operands[0].empty() || in.operands[0][0] != '%')
        continue;
      for (std::size_t o = 1; o < in.operands.size(); ++o)
        if (namesAny(in.operands[o], registers)) registers.insert(in.operands[0]);
    }
  }
  return registers;
}

std::string globalFormOfConstantAccess(const SourceLine& body, const std::set<std::string>& registers) {
  const Instruction in = readInstruction(body.code);
  if (registers.empty() || in.opcode.empty()) return body.text;
  auto replaceOpcode = [&](const std::string& from, const std::string& to) {
    return body.text.substr(0, in.opcode_col) + to + in.opcode.substr(from.size()) +
           body.text.substr(in.opcode_col + in.opcode.size());
  };
  if (startsWith(in.opcode, "ld.const.") && in.operands.size() == 2 && registers.count(addressRegister(in.operands[1])))
    return replaceOpcode("ld.const.", "ld.global.nc.");
  if (in.operands.size() == 2 && namesAny(in.operands[1], registers)) {
    if (startsWith(in.opcode, "cvta.to.const.")) return replaceOpcode("cvta.to.const.", "cvta.to.global.");
    if (startsWith(in.opcode, "cvta.const.")) return replaceOpcode("cvta.const.", "cvta.global.");
  }
  return body.text;
}

}  // namespace rooflab::counters::ptx_detail

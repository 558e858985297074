#include "analyzer/manifest/kernel_source.hpp"

#include <cctype>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "analyzer/support/errors.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

// A kernel source or header is a regular file of bounded size: a FIFO or a device would block or
// never end, and a huge file would be held several times over (joined, preprocessed, rewritten).
constexpr std::uintmax_t kMaxSourceBytes = 16u << 20;

void requireReadableSource(const fs::path& path, const std::string& included_from) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return;  // reading it says so
  if (!fs::is_regular_file(status))
    throw InputError(included_from + "kernel source " + path.string() +
                     " is not a regular file (a FIFO, a device or a socket): rooflab reads only files");
  const std::uintmax_t bytes = fs::file_size(path, ec);
  if (!ec && bytes > kMaxSourceBytes)
    throw InputError(included_from + "kernel source " + path.string() + " has " + std::to_string(bytes >> 20) +
                     " MiB, more than the " + std::to_string(kMaxSourceBytes >> 20) + " MiB a kernel source may have");
}

std::string readText(const fs::path& path) {
  requireReadableSource(path, "");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read kernel source " + path.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The text between double quotes in `#line`: a backslash or a quote is escaped.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The file names of the `#include "x"` lines of `text` (comments already removed), with their lines.
std::vector<std::pair<std::string, int>> quotedIncludes(const std::string& text) {
  std::vector<std::pair<std::string, int>> names;
  std::istringstream lines(text);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    std::size_t at = line.find_first_not_of(" \t");
    if (at == std::string::npos || line[at] != '#') continue;
    at = line.find_first_not_of(" \t", at + 1);
    if (at == std::string::npos || line.compare(at, 7, "include") != 0) continue;
    const std::size_t open = line.find_first_not_of(" \t", at + 7);
    if (open == std::string::npos || line[open] != '"') continue;  // <...> is the compiler's own
    const std::size_t close = line.find('"', open + 1);
    if (close != std::string::npos) names.emplace_back(line.substr(open + 1, close - open - 1), number);
  }
  return names;
}

void appendWithIncludes(const fs::path& file, const fs::path& include_folder, std::set<fs::path>& seen,
                        std::string& out, std::vector<fs::path>* visited = nullptr) {
  if (!seen.insert(file).second) return;  // include guards make a second copy empty; cycles end here
  if (visited) visited->push_back(file);
  const std::string text = withoutComments(readText(file));
  out += text;
  out += '\n';
  for (const auto& [name, line] : quotedIncludes(text)) {
    std::error_code ec;
    for (const fs::path& dir : {file.parent_path(), include_folder}) {
      const fs::path candidate = (dir / name).lexically_normal();
      // The compiler would open it: a FIFO or a huge header is named with the line that includes it.
      requireReadableSource(candidate,
                            file.filename().string() + ":" + std::to_string(line) + ": #include \"" + name + "\": ");
      if (fs::is_regular_file(candidate, ec)) {
        appendWithIncludes(candidate, include_folder, seen, out, visited);
        break;
      }
    }
  }
}

}  // namespace

std::string joinSourceFiles(const std::vector<fs::path>& files, const fs::path& folder) {
  std::string joined;
  for (const fs::path& file : files) {
    // Filenames of listed files are relative to the family folder, as the manifest names them.
    const fs::path shown = file.lexically_relative(folder);
    joined += "\n#line 1 " + quoted(shown.empty() ? file.string() : shown.string()) + "\n";
    try {
      joined += readText(file);
    } catch (const InputError& e) {
      throw VariantError(e.what());
    }
  }
  return joined + "\n";
}

std::string includeOption(const fs::path& folder) {
  auto hasSpace = [](const std::string& path) { return path.find_first_of(" \t\n\"'\\") != std::string::npos; };
  if (!hasSpace(folder.string())) return "-I " + folder.string();
  // PoCL splits build options at spaces and passes quotes on as part of the path, so a folder whose
  // path has a space is reached through a link of its own under the temp folder (named by a hash of
  // the path, so every build of the run, and later runs, share it).
  std::error_code ec;
  const fs::path link =
      fs::temp_directory_path(ec) / ("rooflab-include-" + std::to_string(std::hash<std::string>{}(folder.string())));
  if (hasSpace(link.string()))
    throw VariantError("the family folder '" + folder.string() +
                       "' has a space in its path, and so has the temp folder: the OpenCL compiler cannot be given it "
                       "as an include folder");
  if (fs::read_symlink(link, ec) != folder) {
    fs::remove(link, ec);
    fs::create_directory_symlink(folder, link, ec);
    if (ec && fs::read_symlink(link, ec) != folder)  // another process may have made the same link meanwhile
      throw VariantError("cannot make the include link " + link.string() + " to '" + folder.string() + "'");
  }
  return "-I " + link.string();
}

std::string withoutComments(const std::string& text) {
  std::string out = text;
  enum class State { code, line_comment, block_comment, string, character } state = State::code;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    const char next = i + 1 < out.size() ? out[i + 1] : '\0';
    switch (state) {
      case State::code:
        if (c == '/' && next == '/') {
          state = State::line_comment;
          out[i] = ' ';
        } else if (c == '/' && next == '*') {
          state = State::block_comment;
          out[i] = out[i + 1] = ' ';
          ++i;
        } else if (c == '"') {
          state = State::string;
        } else if (c == '\'') {
          state = State::character;
        }
        break;
      case State::line_comment:
        if (c == '\n') state = State::code;
        else out[i] = ' ';
        break;
      case State::block_comment:
        if (c == '*' && next == '/') {
          state = State::code;
          out[i] = out[i + 1] = ' ';
          ++i;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
      case State::string:
      case State::character:
        if (c == '\\') ++i;
        else if (c == (state == State::string ? '"' : '\'')) state = State::code;
        break;
    }
  }
  return out;
}

std::string sourceTextWithIncludes(const std::vector<fs::path>& files, const fs::path& include_folder) {
  std::set<fs::path> seen;
  std::string out;
  for (const fs::path& file : files) appendWithIncludes(file, include_folder, seen, out);
  return out;
}

std::vector<fs::path> sourceFilesWithIncludes(const std::vector<fs::path>& files, const fs::path& include_folder) {
  std::set<fs::path> seen;
  std::string text;
  std::vector<fs::path> visited;
  for (const fs::path& file : files) appendWithIncludes(file, include_folder, seen, text, &visited);
  return visited;
}

// A plain scan: std::regex recursed once per character here and overflowed the stack on a 35 KB
// stretch without braces.
bool sourceDefinesKernel(const std::string& source, const std::string& kernel) {
  auto isIdent = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  auto tokenAt = [&](std::size_t at, const std::string& word) {
    return source.compare(at, word.size(), word) == 0 && (at == 0 || !isIdent(source[at - 1])) &&
           (at + word.size() >= source.size() || !isIdent(source[at + word.size()]));
  };
  for (std::size_t at = source.find("kernel"); at != std::string::npos; at = source.find("kernel", at + 1)) {
    std::size_t start = at;
    if (at >= 2 && source.compare(at - 2, 2, "__") == 0) start = at - 2;
    if (!tokenAt(start, start == at ? "kernel" : "__kernel")) continue;
    for (std::size_t i = at + 6; i < source.size() && source[i] != ';' && source[i] != '{' && source[i] != '}'; ++i) {
      if (!tokenAt(i, kernel)) continue;
      std::size_t j = i + kernel.size();
      while (j < source.size() && std::isspace(static_cast<unsigned char>(source[j]))) ++j;
      if (j < source.size() && source[j] == '(') return true;
    }
  }
  return false;
}

bool sourceUsesAtomics(const std::string& source) {
  // atomic_add, atomic_cmpxchg, atomic_fetch_add_explicit (OpenCL 1.1+, 2.0) and atom_add (the 1.0
  // extensions).
  return source.find("atomic_") != std::string::npos || source.find("atom_") != std::string::npos;
}

}  // namespace rooflab

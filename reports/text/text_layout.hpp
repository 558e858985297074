#pragma once
// How the text reports lay words out: columns counted as a terminal shows them, and names made safe
// for a file.
#include <cstddef>
#include <cstdint>
#include <string>

namespace rooflab::reports {

// Characters on screen, not bytes: "µs" is one byte more than it shows.
std::size_t screenColumns(const std::string& text);

// `text` padded with spaces to `width` screen columns, on the left when `right` (right-aligned).
std::string padded(const std::string& text, std::size_t width, bool right);

// "1 kernel", "3 kernels".
std::string plural(std::uint64_t count, const std::string& one, const std::string& many);

// `text` with every character other than a letter, digit, '-' or '_' replaced by '_'.
std::string fileSafe(const std::string& text);

}  // namespace rooflab::reports

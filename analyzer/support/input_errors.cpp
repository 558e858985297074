#include "analyzer/support/input_errors.hpp"

#include <algorithm>

namespace rooflab {
namespace {

std::string joined(const std::vector<std::string>& messages) {
  std::string text;
  for (const std::string& message : messages) text += (text.empty() ? "" : "\nrooflab: ") + message;
  return text;
}

}  // namespace

InputErrors::InputErrors(std::vector<std::string> messages)
    : InputError(joined(messages)), messages_(std::move(messages)) {}

void InputErrorList::add(const std::string& message) {
  if (std::find(messages_.begin(), messages_.end(), message) == messages_.end()) messages_.push_back(message);
}

void InputErrorList::throwIfAny() const {
  if (messages_.size() == 1) throw InputError(messages_.front());
  if (!messages_.empty()) throw InputErrors(messages_);
}

}  // namespace rooflab

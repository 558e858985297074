#pragma once
// Input errors gathered instead of thrown one at a time: a manifest, a config or a results file
// with three mistakes says all three in one run, each on a line of its own.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/support/errors.hpp"

namespace rooflab {

// Several input errors at once. what() is every message, one a line, each line after the first
// behind "rooflab: " as the command line prints the first; messages() keeps them apart.
class InputErrors : public InputError {
 public:
  explicit InputErrors(std::vector<std::string> messages);
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  std::vector<std::string> messages_;
};

// Collects the input errors of the steps it runs; each step is checked on its own, so one mistake
// does not hide the next.
class InputErrorList {
 public:
  // Runs `step`; an InputError it throws is kept (each message of an InputErrors) and false returned.
  template <class Step>
  bool attempt(Step&& step) {
    try {
      std::forward<Step>(step)();
      return true;
    } catch (const InputErrors& e) {
      for (const std::string& message : e.messages()) add(message);
    } catch (const InputError& e) {
      add(e.what());
    }
    return false;
  }
  // Keeps `message` unless it is kept already: checks that share a cause (a family's expression
  // checked for each of its variants) say it once.
  void add(const std::string& message);
  bool empty() const { return messages_.empty(); }
  std::size_t size() const { return messages_.size(); }
  const std::vector<std::string>& messages() const { return messages_; }
  // Throws InputErrors (InputError for one message) when any were kept.
  void throwIfAny() const;

 private:
  std::vector<std::string> messages_;
};

}  // namespace rooflab

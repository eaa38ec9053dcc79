// For tests of bad input: the message of the InputError `f` throws, with a test failure when it
// throws nothing or anything else (a crash or another exception type is what these tests guard
// against), and a check that the message names every one of `parts` (file, line, key, limit).
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <initializer_list>
#include <string>

#include "models/common/error.h"

namespace gputlm::test {

template <class F>
std::string input_error(F&& f, std::initializer_list<const char*> parts = {}) {
  std::string message;
  try {
    f();
    ADD_FAILURE() << "accepted: no InputError";
    return {};
  } catch (const InputError& e) {
    message = e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not an InputError: " << e.what();
    return {};
  }
  for (const char* p : parts)
    EXPECT_NE(message.find(p), std::string::npos) << "'" << p << "' not in: " << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "more than one line: " << message;
  return message;
}

}  // namespace gputlm::test

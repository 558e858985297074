// A point's launches and buffers as the PTX bridge replays them (no GPU needed).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "analyzer/run/bridge_arguments.hpp"

using namespace rooflab;
namespace rc = rooflab::counters;

TEST(BridgeLaunches, ArgumentsAndGeometryKeepTheirOpenclOrder) {
  ResolvedLaunch launch;
  launch.geometry = {"k", {1024, 8}, {64, 8}};
  ResolvedArg buffer;
  buffer.kind = KernelArgSpec::Kind::buffer;
  buffer.buffer = "in";
  ResolvedArg scalar;
  scalar.kind = KernelArgSpec::Kind::scalar;
  scalar.scalar_bytes = {std::byte{1}, std::byte{0}, std::byte{0}, std::byte{0}};
  ResolvedArg local;
  local.kind = KernelArgSpec::Kind::local_bytes;
  local.local_bytes = 2048;
  launch.args = {buffer, scalar, local};

  const std::vector<rc::BridgeLaunch> bridged = rc::bridgeLaunches({launch});
  ASSERT_EQ(bridged.size(), 1u);
  EXPECT_EQ(bridged[0].kernel, "k");
  EXPECT_EQ(bridged[0].global, (std::vector<std::size_t>{1024, 8}));
  EXPECT_EQ(bridged[0].local, (std::vector<std::size_t>{64, 8}));
  ASSERT_EQ(bridged[0].args.size(), 3u);
  EXPECT_EQ(bridged[0].args[0].kind, rc::BridgeArg::Kind::buffer);
  EXPECT_EQ(bridged[0].args[0].buffer_name, "in");
  EXPECT_EQ(bridged[0].args[1].kind, rc::BridgeArg::Kind::scalar);
  EXPECT_EQ(bridged[0].args[1].scalar_bytes, scalar.scalar_bytes);
  EXPECT_EQ(bridged[0].args[2].kind, rc::BridgeArg::Kind::local);
  EXPECT_EQ(bridged[0].args[2].local_bytes, 2048u);

  launch.geometry.local.clear();
  try {
    rc::bridgeLaunches({launch});
    FAIL() << "a launch without a local size was bridged";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "launch of k has no local size in the manifest; the CUDA bridge needs one");
  }
}

// The bridge's own copies are the buffers a launch may write: a read-write input as OpenCL got it, an
// output poisoned. An input it only reads is uploaded from the caller's inputs, never copied.
TEST(BridgeLaunches, WrittenInputsStartAsOpenclGotThemOutputsPoisonedReadOnlyInputsNotCopied) {
  BufferSpec in_spec{"in", ElementType::parse("float").value(), {}, BufferInit::iota, BufferAccess::read};
  BufferSpec io_spec{"io", ElementType::parse("float").value(), {}, BufferInit::iota, BufferAccess::read_write};
  BufferSpec out_spec{"out", ElementType::parse("float").value(), {}, BufferInit::zero, BufferAccess::write};
  ResolvedPoint point;
  point.buffers = {{&in_spec, false, 4, 16}, {&io_spec, false, 2, 8}, {&out_spec, false, 3, 12}};
  std::map<std::string, HostBuffer> inputs;
  HostBuffer in("in", in_spec.type, 4), io("io", io_spec.type, 2);
  fillBuffer(in, BufferInit::iota, 1);
  fillBuffer(io, BufferInit::iota, 1);
  inputs.emplace("in", in);
  inputs.emplace("io", io);

  const auto buffers = rc::bridgeBuffers(point, inputs);
  ASSERT_EQ(buffers.size(), 2u);
  EXPECT_EQ(buffers.count("in"), 0u);
  EXPECT_EQ(buffers.at("io").bytes, io.bytes);
  EXPECT_EQ(buffers.at("out").count, 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(buffers.at("out").scalarAt(i)));
}

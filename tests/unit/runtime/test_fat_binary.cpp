// The fat binary reader (runtime/fat_binary.h) on containers built here byte by byte in the
// layout nvcc 13 writes: plain, zstd- and LZ4-compressed PTX entries, machine code only, damage.
#include <gtest/gtest.h>

#include <lz4.h>
#include <zstd.h>
#include <cstring>

#include "models/common/error.h"
#include "runtime/fat_binary.h"

namespace {

using gputlm::runtime::FatBinaryEntry;

template <typename T>
void put(std::vector<uint8_t>& v, size_t at, T value) {
  std::memcpy(v.data() + at, &value, sizeof value);
}

const std::string kPtx =
    ".version 9.0\n.target sm_75\n.address_size 64\n// padding padding padding padding padding\n";

// One entry: header of 80 bytes (PTX) or 64 (ELF), payload padded to 8 bytes.
std::vector<uint8_t> entry(uint16_t kind, uint32_t arch, uint64_t flags, const std::string& payload,
                           size_t uncompressed) {
  const size_t header = kind == FatBinaryEntry::kPtx ? 80 : 64,
               padded = (payload.size() + 7) / 8 * 8;
  std::vector<uint8_t> e(header + padded, 0);
  put<uint16_t>(e, 0, kind);
  put<uint16_t>(e, 2, 0x101);
  put<uint32_t>(e, 4, static_cast<uint32_t>(header));
  put<uint64_t>(e, 8, padded);
  if (flags & (gputlm::runtime::kFlagLz4 | gputlm::runtime::kFlagZstd)) {
    put<uint32_t>(e, 16, static_cast<uint32_t>(payload.size()));
    put<uint64_t>(e, 56, uncompressed);
  }
  put<uint32_t>(e, 28, arch);
  put<uint64_t>(e, 40, flags);
  std::memcpy(e.data() + header, payload.data(), payload.size());
  return e;
}

std::vector<uint8_t> container(const std::vector<std::vector<uint8_t>>& entries) {
  std::vector<uint8_t> c(16, 0);
  for (const auto& e : entries) c.insert(c.end(), e.begin(), e.end());
  put<uint32_t>(c, 0, gputlm::runtime::kContainerMagic);
  put<uint16_t>(c, 4, 1);
  put<uint16_t>(c, 6, 16);
  put<uint64_t>(c, 8, c.size() - 16);
  return c;
}

std::string zstd(const std::string& s) {
  std::string out(ZSTD_compressBound(s.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), s.data(), s.size(), 3));
  return out;
}

std::string lz4(const std::string& s) {
  std::string out(LZ4_compressBound(static_cast<int>(s.size())), '\0');
  out.resize(LZ4_compress_default(s.data(), out.data(), static_cast<int>(s.size()),
                                  static_cast<int>(out.size())));
  return out;
}

TEST(FatBinary, PlainPtxIsReadWithoutItsPadding) {
  const auto c = container({entry(FatBinaryEntry::kElf, 75, 0x11, std::string(40, 'x'), 0),
                            entry(FatBinaryEntry::kPtx, 75, 0x11, kPtx, 0)});
  const auto entries = gputlm::runtime::read_container(c.data(), c.size(), "test");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(gputlm::runtime::select_ptx(entries, "test").payload, kPtx);
}

TEST(FatBinary, ZstdAndLz4CompressedPtxIsDecompressed) {
  for (const auto& [flag, packed] : {std::pair{gputlm::runtime::kFlagZstd | 0x11, zstd(kPtx)},
                                     std::pair{gputlm::runtime::kFlagLz4 | 0x11, lz4(kPtx)}}) {
    const auto c = container({entry(FatBinaryEntry::kPtx, 75, flag, packed, kPtx.size())});
    const auto entries = gputlm::runtime::read_container(c.data(), c.size(), "test");
    EXPECT_EQ(gputlm::runtime::select_ptx(entries, "test").payload, kPtx) << std::hex << flag;
  }
}

TEST(FatBinary, ThePtxOfTheLowestArchitectureIsChosen) {
  const auto c = container({entry(FatBinaryEntry::kPtx, 86, 0x11, "// 86\n", 0),
                            entry(FatBinaryEntry::kPtx, 75, 0x11, "// 75\n", 0)});
  EXPECT_EQ(gputlm::runtime::select_ptx(gputlm::runtime::read_container(c.data(), c.size(), "test"),
                                        "test")
                .arch,
            75u);
}

TEST(FatBinary, MachineCodeOnlyIsAnErrorNamingTheFlagsThatEmbedPtx) {
  const auto c = container({entry(FatBinaryEntry::kElf, 75, 0x11, std::string(16, 'x'), 0)});
  const auto entries = gputlm::runtime::read_container(c.data(), c.size(), "fat binary 0");
  try {
    gputlm::runtime::select_ptx(entries, "fat binary 0");
    FAIL() << "no PTX accepted";
  } catch (const gputlm::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("fat binary 0 holds no PTX (only machine code for sm_75)"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("-arch=sm_75"), std::string::npos) << e.what();
  }
}

TEST(FatBinary, DamageIsAnErrorNamingWhere) {
  auto c = container({entry(FatBinaryEntry::kPtx, 75, gputlm::runtime::kFlagZstd, "not zstd at all",
                            kPtx.size())});
  EXPECT_THROW(gputlm::runtime::read_container(c.data(), c.size(), "test"), gputlm::InputError);
  EXPECT_THROW(gputlm::runtime::read_container(c.data(), c.size() - 8, "test"),
               gputlm::InputError);  // truncated
  put<uint32_t>(c, 0, 0x12345678);
  EXPECT_THROW(gputlm::runtime::read_container(c.data(), c.size(), "test"), gputlm::InputError);
}

}  // namespace

namespace {

// A -rdc=true program's registration (crt/link.stub): a version-2 wrapper whose container holds
// machine code only, and the NULL-terminated list of its objects' own containers.
TEST(FatBinary, ADeviceLinkedWrapperGivesThePtxOfEachObject) {
  const auto linked = container({entry(FatBinaryEntry::kElf, 75, 0x11, std::string(16, 'x'), 0)});
  const auto first = container({entry(FatBinaryEntry::kElf, 75, 0x11, std::string(16, 'y'), 0),
                                entry(FatBinaryEntry::kPtx, 75, 0x11, "// one\n", 0)});
  const auto second = container({entry(FatBinaryEntry::kPtx, 75, 0x11, "// two\n", 0)});
  const void* objects[] = {first.data(), second.data(), nullptr};
  struct {
    uint32_t magic, version;
    const void* data;
    const void* fatbins;
  } wrapper{gputlm::runtime::kWrapperMagic, 2, linked.data(), objects};
  EXPECT_EQ(gputlm::runtime::prelinked_ptx(&wrapper, "test"),
            (std::vector<std::string>{"// one\n", "// two\n"}));
  wrapper.version = 1;  // an ordinary registration: its own container only
  EXPECT_TRUE(gputlm::runtime::prelinked_ptx(&wrapper, "test").empty());
}

}  // namespace

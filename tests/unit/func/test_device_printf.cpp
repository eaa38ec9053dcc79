// Device printf's formatting (models/func/printf_format.h): C's conversions, flags, widths,
// precisions and length modifiers (C11 7.21.6.1, expected texts worked out from its rules), the
// argument buffer's layout (each argument at a multiple of its own size, after the default
// promotions) and CUDA's own rules (at most 32 arguments, the return value).
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <map>
#include <vector>

#include "models/func/printf_format.h"

namespace gputlm::func {
namespace {

// An argument buffer as nvcc lays it out, and device strings by address.
class Buffer : public PrintfArguments {
 public:
  Buffer& i32(int32_t v) { return put(&v, 4); }
  Buffer& i64(int64_t v) { return put(&v, 8); }
  Buffer& f64(double v) { return put(&v, 8); }
  Buffer& str(uint64_t address, std::string s) {
    m_strings[address] = std::move(s);
    return i64(static_cast<int64_t>(address));
  }
  uint64_t next(unsigned bytes) override {
    m_read = (m_read + bytes - 1) / bytes * bytes;
    uint64_t v = 0;
    EXPECT_LE(m_read + bytes, m_bytes.size()) << "read past the arguments";
    if (m_read + bytes <= m_bytes.size()) std::memcpy(&v, m_bytes.data() + m_read, bytes);
    m_read += bytes;
    return v;
  }
  std::string string_at(uint64_t address, size_t max) override {
    const std::string& s = m_strings.at(address);
    ++strings_read;
    return s.substr(0, max);
  }
  size_t bytes_read() const { return m_read; }
  int strings_read = 0;

 private:
  Buffer& put(const void* v, size_t n) {
    m_bytes.resize((m_bytes.size() + n - 1) / n * n);
    m_bytes.insert(m_bytes.end(), static_cast<const uint8_t*>(v),
                   static_cast<const uint8_t*>(v) + n);
    return *this;
  }
  std::vector<uint8_t> m_bytes;
  size_t m_read = 0;
  std::map<uint64_t, std::string> m_strings;
};

std::string format(const char* f, Buffer b) { return format_printf(f, b).text; }

TEST(DevicePrintf, TextWithoutConversionsIsCopiedAndPercentPercentIsOnePercent) {
  Buffer none;
  const PrintfOutput out = format_printf("100%% sure\n", none);
  EXPECT_EQ(out.text, "100% sure\n");
  EXPECT_EQ(out.arguments, 0) << "no arguments parsed";
}

TEST(DevicePrintf, FormatsEachIntegerConversionAsCDoes) {
  EXPECT_EQ(format("%d %i", Buffer().i32(-42).i32(7)), "-42 7");
  EXPECT_EQ(format("%u", Buffer().i32(-1)), "4294967295");
  EXPECT_EQ(format("%x %X %o", Buffer().i32(255).i32(255).i32(8)), "ff FF 10");
  EXPECT_EQ(format("%c%c", Buffer().i32('o').i32('k')), "ok");
}

TEST(DevicePrintf, FormatsEachFloatingConversionAsCDoes) {
  EXPECT_EQ(format("%f", Buffer().f64(3.14159)), "3.141590");
  EXPECT_EQ(format("%F", Buffer().f64(std::numeric_limits<double>::infinity())), "INF");
  EXPECT_EQ(format("%e %E", Buffer().f64(12345.678).f64(0.00012)), "1.234568e+04 1.200000E-04");
  EXPECT_EQ(format("%g %g %G", Buffer().f64(0.0001).f64(123456789.0).f64(1e-10)),
            "0.0001 1.23457e+08 1E-10");
  EXPECT_EQ(format("%a %A", Buffer().f64(1.0).f64(-0.5)), "0x1p+0 -0X1P-1");
}

TEST(DevicePrintf, FlagsWidthAndPrecisionFollowC) {
  EXPECT_EQ(format("[%5d][%-5d][%05d][%+d][% d]", Buffer().i32(42).i32(42).i32(42).i32(42).i32(42)),
            "[   42][42   ][00042][+42][ 42]");
  EXPECT_EQ(format("[%#x][%#o][%.3d][%8.3f][%-8.2e]",
                   Buffer().i32(255).i32(8).i32(7).f64(3.14159).f64(31.4)),
            "[0xff][010][007][   3.142][3.14e+01]");
  EXPECT_EQ(format("[%#.0f][%.0f][%#g]", Buffer().f64(3.0).f64(2.5).f64(1.5)), "[3.][2][1.50000]");
  EXPECT_EQ(format("[%.0d]", Buffer().i32(0)), "[]") << "zero with precision 0 prints no digits";
}

TEST(DevicePrintf, StarTakesWidthAndPrecisionFromIntArguments) {
  EXPECT_EQ(format("[%*d][%-*d][%.*f]", Buffer().i32(4).i32(7).i32(3).i32(7).i32(2).f64(1.005)),
            "[   7][7  ][1.00]");
  EXPECT_EQ(format("[%*d]", Buffer().i32(-4).i32(7)), "[7   ]")
      << "a negative width is the '-' flag";
  EXPECT_EQ(format("[%.*f]", Buffer().i32(-1).f64(0.5)), "[0.500000]")
      << "a negative precision is as if omitted";
}

TEST(DevicePrintf, LengthModifiersPickTheArgumentSizeAndConversion) {
  EXPECT_EQ(format("%lld %ld %llx", Buffer().i64(-5000000000).i64(1LL << 40).i64(-1)),
            "-5000000000 1099511627776 ffffffffffffffff");
  EXPECT_EQ(format("%zu %jd %td", Buffer().i64(7).i64(-8).i64(9)), "7 -8 9");
  // h and hh: the promoted int is converted back to short and char (C11 7.21.6.1p7).
  EXPECT_EQ(format("%hd %hu %hhd %hhx", Buffer().i32(70000).i32(-1).i32(300).i32(0x1ff)),
            "4464 65535 44 ff");
}

TEST(DevicePrintf, ArgumentsAreReadEachAtAMultipleOfItsSize) {
  // int, double, int, long long: nvcc's layout puts the double at 8 and the long long at 24.
  Buffer b;
  b.i32(1).f64(2.5).i32(3).i64(4);
  const PrintfOutput out = format_printf("%d %.1f %d %lld", b);
  EXPECT_EQ(out.text, "1 2.5 3 4");
  EXPECT_EQ(b.bytes_read(), 32u);
  EXPECT_EQ(out.arguments, 4);
}

TEST(DevicePrintf, PercentSReadsTheDeviceStringUpToThePrecision) {
  Buffer b;
  b.str(0x1000, "hello").str(0x2000, "world").str(0x3000, "abcdef");
  EXPECT_EQ(format_printf("[%s][%8s][%.3s]", b).text, "[hello][   world][abc]");
  Buffer null;
  null.i64(0).i64(0);
  EXPECT_EQ(format_printf("[%s][%.3s]", null).text, "[(null)][]")
      << "glibc's text for a null %s, empty when it does not fit";
}

TEST(DevicePrintf, PercentPPrintsTheAddressAsTheHostLibraryDoes) {
  EXPECT_EQ(format("%p", Buffer().i64(0x10002000)), "0x10002000");
}

TEST(DevicePrintf, AtMost32ArgumentsAreTakenAndLaterConversionsAreWrittenAsTheyStand) {
  Buffer b;
  std::string f, want;
  for (int i = 0; i < 33; ++i) {
    if (i < 32) b.i32(i);
    f += "%d ";
    want += i < 32 ? std::to_string(i) + " " : "%d ";
  }
  const PrintfOutput out = format_printf(f, b);
  EXPECT_EQ(out.text, want);
  EXPECT_EQ(out.arguments, 32);
}

TEST(DevicePrintf, AnUnknownConversionOrATruncatedOneIsWrittenAsItStands) {
  EXPECT_EQ(format("%k %d", Buffer().i32(5)), "%k 5") << "takes no argument";
  EXPECT_EQ(format("%n|%d", Buffer().i32(6)), "%n|6") << "%n is not one of CUDA's conversions";
  EXPECT_EQ(format("end %-5", Buffer()), "end %-5");
}

TEST(DevicePrintf, TheRecordSizeCountsHeaderArgumentsAndStrings) {
  Buffer b;
  b.i32(1).str(0x1000, "abcdefghij");  // 10 characters + NUL: 16 bytes
  EXPECT_EQ(format_printf("%d %s", b).record_bytes, 16u + 8 + 8 + 16);
}

}  // namespace
}  // namespace gputlm::func

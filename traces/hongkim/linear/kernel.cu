// Linear image filter: every output pixel is the average of the 3 x 3 neighbourhood around it
// (a box blur), per colour channel, for an RGB image of interleaved bytes; one pixel per thread.
// Neighbours outside the image are replaced by the nearest edge pixel (clamped coordinates), so
// every thread runs the same 27 byte loads and 3 byte stores. Sums are float additions of
// integers (exact); the mean is sum * (1/9) rounded to the nearest integer.
extern "C" __global__ void linear(const unsigned char* in, unsigned char* out, unsigned width, unsigned height) {
  const unsigned p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= width * height) return;
  const unsigned y = p / width;
  const unsigned x = p - y * width;
  // Byte offsets of the three columns and the three rows, clamped to the image.
  const unsigned cols[3] = {3 * (x > 0 ? x - 1 : 0), 3 * x, 3 * (x + 1 < width ? x + 1 : x)};
  const unsigned rows[3] = {3 * width * (y > 0 ? y - 1 : 0), 3 * width * y, 3 * width * (y + 1 < height ? y + 1 : y)};
  float r = 0.0f, g = 0.0f, b = 0.0f;
#pragma unroll
  for (int i = 0; i < 3; ++i) {
#pragma unroll
    for (int j = 0; j < 3; ++j) {
      const unsigned char* px = in + rows[i] + cols[j];
      r += px[0];
      g += px[1];
      b += px[2];
    }
  }
  const float ninth = 1.0f / 9.0f;
  unsigned char* dst = out + 3 * p;
  dst[0] = static_cast<unsigned char>(__float2uint_rn(r * ninth));
  dst[1] = static_cast<unsigned char>(__float2uint_rn(g * ninth));
  dst[2] = static_cast<unsigned char>(__float2uint_rn(b * ninth));
}

// Black-Scholes pricing of European call and put options (NVIDIA CUDA SDK BlackScholes), one
// option per loop trip, grid-stride over the options: stock price S, strike X, years to expiry T
// per option, riskless rate R and volatility V for all. The cumulative normal distribution is the
// SDK's 5-term polynomial approximation. As in the SDK (BlackScholes_kernel.cuh), the divisions,
// exponentials and logarithm are the fast intrinsics (__fdividef, __expf, __logf) and sqrt(T) is
// 1 / rsqrtf(T): the SDK's optimised form, about half the instructions of the accurate library
// calls.

__device__ __forceinline__ float cnd(float d) {
  const float A1 = 0.31938153f;
  const float A2 = -0.356563782f;
  const float A3 = 1.781477937f;
  const float A4 = -1.821255978f;
  const float A5 = 1.330274429f;
  const float RSQRT2PI = 0.39894228040143267793994605993438f;
  const float k = __fdividef(1.0f, 1.0f + 0.2316419f * fabsf(d));
  float c = RSQRT2PI * __expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
  if (d > 0.0f) c = 1.0f - c;
  return c;
}

extern "C" __global__ void blackscholes(const float* S, const float* X, const float* T,
                                        float* call, float* put, unsigned n, float R, float V) {
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float s = S[i], x = X[i], t = T[i];
    const float sqrt_t = __fdividef(1.0f, rsqrtf(t));
    const float d1 = __fdividef(__logf(s / x) + (R + 0.5f * V * V) * t, V * sqrt_t);
    const float d2 = d1 - V * sqrt_t;
    const float cnd1 = cnd(d1);
    const float cnd2 = cnd(d2);
    const float exp_rt = __expf(-R * t);
    call[i] = s * cnd1 - x * exp_rt * cnd2;
    put[i] = x * exp_rt * (1.0f - cnd2) - s * (1.0f - cnd1);
  }
}

// Black-Scholes prices of European call and put options, one option per thread. Every option has
// its own spot price, strike, time to expiry, riskless rate and volatility (five loads) and gets a
// call and a put price (two stores). The standard normal distribution function N(d) uses the
// Abramowitz & Stegun 26.2.17 polynomial in t = 1 / (1 + p |d|), and N(-d) = 1 - N(d).
__device__ __forceinline__ float normal_cdf(float d) {
  const float t = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  const float poly = t * (0.319381530f + t * (-0.356563782f + t * (1.781477937f + t * (-1.821255978f + t * 1.330274429f))));
  const float tail = 0.3989422804f * expf(-0.5f * d * d) * poly;  // N(-|d|)
  return d < 0.0f ? tail : 1.0f - tail;
}

extern "C" __global__ void blackscholes(const float* spot, const float* strike, const float* years, const float* rate,
                                        const float* vol, float* call, float* put, unsigned options) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= options) return;
  const float s = spot[i], x = strike[i], t = years[i], r = rate[i], v = vol[i];
  const float v_sqrt_t = v * sqrtf(t);
  const float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / v_sqrt_t;
  const float d2 = d1 - v_sqrt_t;
  const float discounted_x = x * expf(-r * t);
  const float n1 = normal_cdf(d1), n2 = normal_cdf(d2);
  call[i] = s * n1 - discounted_x * n2;
  put[i] = discounted_x * (1.0f - n2) - s * (1.0f - n1);
}

// Thrust as today's code uses it (CCCL of CUDA 13): device_vector, sequence, sort, reduce,
// inclusive_scan, sort_by_key and transform with a lambda; each result checked on the host.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdio>

int main() {
  const int n = 10000;
  thrust::device_vector<int> v(n);
  thrust::sequence(v.begin(), v.end(), n, -1);  // n, n-1, ..., 1
  thrust::sort(v.begin(), v.end());
  const long sum = thrust::reduce(v.begin(), v.end(), 0L);
  thrust::inclusive_scan(v.begin(), v.end(), v.begin());
  thrust::host_vector<int> scanned = v;
  bool ok = sum == long(n) * (n + 1) / 2;
  for (int i = 0; i < n; ++i) ok = ok && scanned[i] == (i + 1) * (i + 2) / 2;

  thrust::device_vector<int> keys(n), values(n);
  thrust::sequence(keys.begin(), keys.end());
  thrust::transform(keys.begin(), keys.end(), keys.begin(),
                    [] __device__(int k) { return (k * 7919) % 1000; });
  thrust::sequence(values.begin(), values.end());
  thrust::sort_by_key(keys.begin(), keys.end(), values.begin());
  thrust::host_vector<int> k = keys, val = values;
  for (int i = 0; i < n; ++i) {
    ok = ok && (k[i] == (val[i] * 7919) % 1000);
    if (i) ok = ok && (k[i - 1] < k[i] || (k[i - 1] == k[i] && val[i - 1] < val[i]));  // stable
  }
  std::printf("thrust_algorithms: %s (sum %ld, last prefix %d)\n", ok ? "PASSED" : "FAILED", sum,
              scanned[n - 1]);
  return ok ? 0 : 1;
}

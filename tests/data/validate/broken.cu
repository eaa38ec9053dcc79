// A program that does not compile (an undeclared name): tests/system/test_validate.cpp checks that
// gputlm validate reports it as "build failed" with nvcc's error line and still runs the others.
__global__ void broken(float* out) { out[threadIdx.x] = undeclared_value; }

int main() { return 0; }

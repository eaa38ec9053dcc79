MemcpyHtoD,0x00007fb0fc400000,200000
kernel-1.traceg

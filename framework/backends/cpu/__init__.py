"""The CPU runtime: oneDNN, MKL GEMM, vector BLAS, OpenMP and BLAS thread control, the thread pool
and the kernels' scratch workspace."""

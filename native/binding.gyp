{
  "targets": [
    {
      "target_name": "toolgen_gemm",
      "sources": ["gemm.cc"],
      "cflags_cc": ["-O3", "-std=c++17"]
    }
  ]
}

// glibc's malloc tuning (mallopt), which the Glibc module does not export: Sources/adjust/MallocPolicy.swift.
#include <malloc.h>

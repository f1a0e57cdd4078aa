// glibc's malloc tuning (mallopt), which the Glibc module does not export: Sources/adjust/LongRunMemory.swift.
#include <malloc.h>

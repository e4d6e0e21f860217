// The declaration of libFuzzer's driver is all this target provides; libclang_rt.fuzzer defines it.
#include "CFuzzDriver.h"

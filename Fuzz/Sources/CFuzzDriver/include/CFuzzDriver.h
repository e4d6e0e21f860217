#ifndef LOOKD_CFUZZDRIVER_H
#define LOOKD_CFUZZDRIVER_H
#include <stddef.h>
#include <stdint.h>

/// One fuzzer input: bytes and their count. Returns 0 (libFuzzer's contract).
typedef int (*lookd_fuzz_callback)(const uint8_t *data, size_t size);

/// libFuzzer's driver (libclang_rt.fuzzer, linked by -sanitize=fuzzer): parses libFuzzer's command line and
/// runs `callback` over the corpus and generated inputs. Returns the process exit status.
int LLVMFuzzerRunDriver(int *argc, char ***argv, lookd_fuzz_callback callback);

#endif

#ifndef THRUM_C_FUZZER_DRIVER_H
#define THRUM_C_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for programs that have their own `main` (compiler-rt FuzzerDriver.cpp).
/// Declared weak: it is null unless the program was linked with `-sanitize=fuzzer`.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size))
    __attribute__((weak));

/// Whether libFuzzer is linked in.
int thrum_fuzzer_available(void);

/// Calls `LLVMFuzzerRunDriver`, or returns -1 when libFuzzer is not linked in.
int thrum_run_fuzzer(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif

#include "CFuzzerDriver.h"

int thrum_fuzzer_available(void) { return LLVMFuzzerRunDriver != NULL; }

int thrum_run_fuzzer(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size)) {
    if (LLVMFuzzerRunDriver == NULL) return -1;
    return LLVMFuzzerRunDriver(argc, argv, callback);
}

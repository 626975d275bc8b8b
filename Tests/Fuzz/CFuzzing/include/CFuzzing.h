#ifndef C_FUZZING_H
#define C_FUZZING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (its `main` without being one): fuzzes with the arguments given, or
/// runs the files given once each. Linked into the fuzz targets in the fuzzing build only;
/// declared weak, so that the other builds link without it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size))
    __attribute__((weak));

/// Whether libFuzzer's driver is linked into this program.
bool fuzz_driver_linked(void);

#endif

#include "CFuzzing.h"

bool fuzz_driver_linked(void) {
    return LLVMFuzzerRunDriver != NULL;
}

#include "lookd_icu.h"
#include <unicode/utypes.h>

extern "C" const char *lookd_icu_error_name(int32_t error_code) {
    return u_errorName(static_cast<UErrorCode>(error_code));
}

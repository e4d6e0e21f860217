#include "lookd_icu.h"
#include <unicode/uversion.h>

extern "C" const char *lookd_icu_version(void) {
    static char text[U_MAX_VERSION_STRING_LENGTH];
    static const bool ready = [] {
        UVersionInfo info;
        u_getVersion(info);
        u_versionToString(info, text);
        return true;
    }();
    (void)ready;
    return text;
}

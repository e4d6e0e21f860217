#ifndef LOOKD_ICU_H
#define LOOKD_ICU_H
/* The shim between lookd and the system ICU (Debian libicu-dev 72).
 * This public header includes no ICU header and exposes no ICU type (DESIGN.md Fact 1). */
#ifdef __cplusplus
extern "C" {
#endif

/** The ICU version in use, e.g. "72.1". Static storage; never NULL. */
const char *lookd_icu_version(void);

#ifdef __cplusplus
}
#endif
#endif

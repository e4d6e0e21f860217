// The ICU headers CICU includes. Never imported into Swift: Foundation carries its own ICU (docs/design.md).
#include <unicode/utypes.h>

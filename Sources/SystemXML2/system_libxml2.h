// libxml2's parser header. Swift code reaches libxml2 through CXML's opaque API only.
#include <libxml/parser.h>

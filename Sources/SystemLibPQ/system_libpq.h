// PostgreSQL's client header. Swift code reaches libpq through CLibPQ's opaque API only.
#include <libpq-fe.h>

/* spec_text.h — the one place that writes a SPEC from a family name and its
 * parameter string, "family[:params]" (docs/families.md). The graph keeps the
 * result as its origin.spec; a report's `topology` key is the same text made
 * from its family and params items (docs/json.md). */
#ifndef MOORE_CORE_SPEC_TEXT_H
#define MOORE_CORE_SPEC_TEXT_H

#include "moore/error.h"

/* A new string "family:params", or "family" when params is NULL or empty;
 * NULL (and err set) when memory runs out. The caller frees it. */
char *core_spec_join(const char *family, const char *params, moore_error *err);

#endif

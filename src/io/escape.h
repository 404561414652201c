/* escape.h — internal to src/io: writing arbitrary text (labels, family and
 * parameter strings) into the text formats whose syntax it could break. */
#ifndef MOORE_IO_ESCAPE_H
#define MOORE_IO_ESCAPE_H

#include <stdio.h>

/* A malloc'ed copy of s that is valid UTF-8 without control characters:
 * every byte that is not part of a valid sequence, and every control
 * character, becomes '?'. NULL when out of memory. */
char *io_clean_text(const char *s);

/* s as XML character data or attribute value (& < > " ' escaped), cleaned. */
int io_put_xml(FILE *out, const char *s);
/* s as the inside of a DOT double-quoted string (" and \ escaped), cleaned. */
int io_put_dot(FILE *out, const char *s);

#endif

/* escape.c — making label and origin text safe for XML, DOT and JSON.
 *
 * Labels come from families ("(0,x,y)") and origins from file headers, so in
 * principle they can hold anything; an exporter must never let such text end
 * an attribute early or produce a file its reader rejects. Every format here
 * wants UTF-8 without control characters (XML 1.0 forbids most of them
 * outright), so text is first cleaned, then escaped per format. */
#include "io/escape.h"
#include "moore/error.h"

#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when it is invalid:
 * overlong forms, surrogates and code points above U+10FFFF are invalid. */
static int utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    int n;
    unsigned min, cp;
    if (c < 0x80)
        return 1;
    if ((c & 0xE0) == 0xC0) { n = 2; min = 0x80; cp = c & 0x1F; }
    else if ((c & 0xF0) == 0xE0) { n = 3; min = 0x800; cp = c & 0x0F; }
    else if ((c & 0xF8) == 0xF0) { n = 4; min = 0x10000; cp = c & 0x07; }
    else return 0;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

char *io_clean_text(const char *s)
{
    size_t len = strlen(s);
    char *d = moore_malloc(len + 1, 1, NULL);
    if (!d)
        return NULL;
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, o = 0;
    while (i < len) {
        int n = utf8_len(p + i);
        if (n == 0 || (n == 1 && (p[i] < 32 || p[i] == 127))) {
            d[o++] = '?';
            i++;
        } else {
            memcpy(d + o, p + i, (size_t)n);
            o += (size_t)n;
            i += (size_t)n;
        }
    }
    d[o] = '\0';
    return d;
}

int io_put_xml(FILE *out, const char *s)
{
    char *c = io_clean_text(s);
    if (!c)
        return -1;
    for (const char *p = c; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default: fputc(*p, out);
        }
    }
    free(c);
    return 0;
}

int io_put_dot(FILE *out, const char *s)
{
    char *c = io_clean_text(s);
    if (!c)
        return -1;
    for (const char *p = c; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', out);
        fputc(*p, out);
    }
    free(c);
    return 0;
}

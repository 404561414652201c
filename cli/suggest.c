/* suggest.c — "did you mean" for the command line: commands from the command
 * table, options from each command's own usage text (every "--name" it
 * lists), so a new option is suggested the moment it is documented. */
#include "cli.h"

#include <ctype.h>
#include <string.h>
#include "moore/suggest.h"

#define OPTIONS_MAX 64

const cli_command *cli_command_find(const char *name)
{
    for (const cli_command *c = cli_commands(); c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

const char *cli_suggest_command(const char *word, char *buf, size_t len)
{
    const char *names[64];
    int n = 0;
    for (const cli_command *c = cli_commands(); c->name && n < 63; c++)
        names[n++] = c->name;
    names[n] = NULL;
    return moore_suggest_text(word, names, buf, len);
}

/* The "--name" words of a usage text, each once, into store. */
static int usage_options(const char *usage, char store[][32], const char **names)
{
    int n = 0;
    for (const char *s = strstr(usage, "--"); s && n < OPTIONS_MAX - 1; s = strstr(s + 2, "--")) {
        size_t len = 2;
        while (isalnum((unsigned char)s[len]) || s[len] == '-')
            len++;
        if (len <= 2 || len >= 32)
            continue;
        snprintf(store[n], 32, "%.*s", (int)len, s);
        int seen = 0;
        for (int i = 0; i < n && !seen; i++)
            seen = strcmp(store[i], store[n]) == 0;
        if (!seen) {
            names[n] = store[n];
            n++;
        }
    }
    names[n] = NULL;
    return n;
}

const char *cli_suggest_option(const char *cmd, const char *word, char *buf, size_t len)
{
    const cli_command *c = cli_command_find(cmd);
    char store[OPTIONS_MAX][32], bare[32];
    const char *names[OPTIONS_MAX];
    snprintf(bare, sizeof bare, "%.*s", (int)strcspn(word, "="), word);
    if (!c || !usage_options(c->usage, store, names)) {
        if (len)
            buf[0] = '\0';
        return buf;
    }
    return moore_suggest_text(bare, names, buf, len);
}

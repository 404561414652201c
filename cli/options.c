/* options.c — the options every command takes, handled in one place before
 * the command runs (docs/json.md):
 *   --threads N      OpenMP threads for the whole run (and the metric options)
 *   --progress       progress on stderr even when stderr is not a terminal
 *   --json=pretty    the same as --json: indented JSON (the default)
 *   --json=lines     one compact JSON object per line (for streams and jq -c)
 * main() calls cli_common_options() once; it takes these words out of argv so
 * each command sees only its own options (a command that lists --threads or
 * --progress in its usage keeps them and handles them itself), and turns
 * --json=lines / --json=pretty into the plain --json the command parses. */
#include "cli.h"

#include <cjson/cJSON.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

static struct {
    int threads;    /* 0 = OpenMP default */
    int progress;   /* --progress given */
    int lines;      /* --json=lines */
} common;

/* 1 when the usage text of cmd lists option name itself. */
static int usage_lists(const char *cmd, const char *name)
{
    const cli_command *c = cli_command_find(cmd);
    size_t n = strlen(name);
    for (const char *s = c ? strstr(c->usage, name) : NULL; s; s = strstr(s + 1, name))
        if (s[n] != '-' && s[n] != '=' && (s[n] < 'a' || s[n] > 'z'))
            return 1;
    return 0;
}

/* Parses the value of --threads; 0 on success, else prints and returns 2. */
static int threads_value(const char *cmd, const char *v)
{
    char *end;
    long t = v ? strtol(v, &end, 10) : 0;
    if (!v)
        return cli_usage_error("%s: option --threads needs a value", cmd);
    if (*v == '\0' || *end != '\0')
        return cli_usage_error("%s: --threads '%s' is not an integer", cmd, v);
    if (t < 1 || t > 4096)
        return cli_usage_error("%s: --threads %s is outside 1..4096", cmd, v);
    common.threads = (int)t;
    omp_set_num_threads(common.threads);
    return 0;
}

/* Handles argv[*i] when it is a common option; 1 = consumed (drop it), 0 =
 * keep it, -1 = error printed. May turn argv[*i] into "--json". */
static int common_word(const char *cmd, int argc, char **argv, int *i)
{
    const char *s = argv[*i];
    if (strcmp(s, "--json=lines") == 0 || strcmp(s, "--json=pretty") == 0) {
        common.lines = s[7] == 'l';
        argv[*i] = "--json";
        return 0;
    }
    if (strncmp(s, "--json=", 7) == 0)
        return cli_usage_error("%s: --json='%s' is not 'pretty' or 'lines'", cmd, s + 7) ? -1 : 0;
    if (strcmp(s, "--progress") == 0 && !usage_lists(cmd, "--progress")) {
        common.progress = 1;
        return 1;
    }
    if (strncmp(s, "--threads", 9) == 0 && (s[9] == '\0' || s[9] == '=') &&
        !usage_lists(cmd, "--threads")) {
        const char *v = s[9] == '=' ? s + 10 : (*i + 1 < argc ? argv[++*i] : NULL);
        return threads_value(cmd, v) ? -1 : 1;
    }
    return 0;
}

int cli_common_options(int *argc, char **argv)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--") == 0) {   /* the rest are not options */
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        int first = i;
        int r = common_word(argv[0], *argc, argv, &i);
        if (r < 0)
            return 2;
        if (r == 0)
            argv[out++] = argv[first];
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

int cli_threads(void) { return common.threads; }
int cli_progress_forced(void) { return common.progress; }
int cli_json_pretty(void) { return !common.lines; }

/* Prints one value: indented, or compact on one line with --json=lines. */
static int json_put(const cJSON *v)
{
    char *s = common.lines ? cJSON_PrintUnformatted(v) : cJSON_Print(v);
    if (!s)
        return 1;
    puts(s);
    free(s);
    cli_stdout_flush();
    return 0;
}

int cli_json_print(cJSON *v)
{
    int rc = 1;
    if (v && common.lines && cJSON_IsArray(v)) {   /* a stream: one row a line */
        rc = 0;
        for (const cJSON *e = v->child; e && !rc; e = e->next)
            rc = json_put(e);
    } else if (v) {
        rc = json_put(v);
    }
    cJSON_Delete(v);
    return rc;
}

int cli_json_row(const cJSON *row, int *first)
{
    if (common.lines)
        return json_put(row);
    char *s = cJSON_Print(row);
    if (!s)
        return 1;
    fputs(*first ? "[\n" : ",\n", stdout);
    fputs(s, stdout);
    free(s);
    cli_stdout_flush();
    *first = 0;
    return 0;
}

void cli_json_rows_end(int first)
{
    if (!common.lines)
        fputs(first ? "[]\n" : "\n]\n", stdout);
    cli_stdout_flush();
}

int cli_cost_model(const char *name_or_path, moore_cost_model *m)
{
    moore_error err;
    moore_error_clear(&err);
    moore_cost_model_default(m);
    if (name_or_path && moore_cost_model_load(name_or_path, m, &err))
        return cli_fail(&err);
    return 0;
}

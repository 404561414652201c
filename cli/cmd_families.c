/* cmd_families.c — `moore families [--json]`: every family and its keys. */
#include "cli.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

const char cmd_families_usage[] =
    "usage: moore families [--json]\n\n"
    "Lists every topology family, its paper, and its keys with defaults.\n"
    "A default of '-' is derived from other keys; an empty default means required.\n"
    "  --json    an array of {family, summary, paper, keys: [{key, required, default, help}]}\n"
    "            (default: null when required or derived from other keys)\n";

/* A key's default as JSON: null when required ("") or derived ("-"), a
 * number when it is one, else the rule as text ("k/2"). */
static cJSON *default_json(const char *def)
{
    char *end;
    double v = strtod(def, &end);
    if (!*def || strcmp(def, "-") == 0)
        return cJSON_CreateNull();
    return *end == '\0' ? cJSON_CreateNumber(v) : cJSON_CreateString(def);
}

static int print_json(void)
{
    cJSON *arr = cJSON_CreateArray();
    for (const moore_family *f = moore_families(); f->name; f++) {
        cJSON *o = cJSON_CreateObject(), *keys = cJSON_CreateArray();
        cJSON_AddStringToObject(o, "family", f->name);
        cJSON_AddStringToObject(o, "summary", f->summary);
        cJSON_AddStringToObject(o, "paper", f->paper);
        for (const moore_param_info *p = f->params; p && p->key; p++) {
            cJSON *k = cJSON_CreateObject();
            cJSON_AddStringToObject(k, "key", p->key);
            cJSON_AddBoolToObject(k, "required", *p->def == '\0');
            cJSON_AddItemToObject(k, "default", default_json(p->def));
            cJSON_AddStringToObject(k, "help", p->help);
            cJSON_AddItemToArray(keys, k);
        }
        cJSON_AddItemToObject(o, "keys", keys);
        cJSON_AddItemToArray(arr, o);
    }
    return cli_json_print(arr);
}

int cmd_families(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else
            return cli_usage_error("families: unexpected argument '%s'", argv[i]);
    }
    if (json)
        return print_json();
    for (const moore_family *f = moore_families(); f->name; f++) {
        printf("%s — %s\n    paper: %s\n", f->name, f->summary, f->paper);
        for (const moore_param_info *p = f->params; p && p->key; p++)
            printf("    %-8s default %-6s %s\n", p->key, *p->def ? p->def : "(req)", p->help);
    }
    return 0;
}

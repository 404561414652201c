/* json.c — small checks on a sweep file's JSON: known keys only, lists of
 * names, and whether a family takes a key. Kept apart from grid.c so that the
 * expansion reads as the grammar it implements. */
#include "sweep_internal.h"

#include <stdio.h>
#include <string.h>

int sweep_check_keys(const cJSON *obj, const char *const *known, const char *where,
                     moore_error *err)
{
    for (const cJSON *k = obj->child; k; k = k->next) {
        int ok = 0;
        for (int i = 0; known[i] && !ok; i++)
            ok = strcmp(k->string, known[i]) == 0;
        if (!ok)
            return moore_error_set(err, MOORE_EINVAL, "%s: unknown key '%s'", where, k->string);
    }
    return MOORE_OK;
}

int sweep_join_list(const cJSON *v, char *buf, size_t len, const char *key, moore_error *err)
{
    buf[0] = '\0';
    if (cJSON_IsString(v) && *v->valuestring && strlen(v->valuestring) < len) {
        snprintf(buf, len, "%s", v->valuestring);
        return MOORE_OK;
    }
    if (!cJSON_IsArray(v) || !v->child)
        return moore_error_set(err, MOORE_EINVAL, "'%s' must be a name or a non-empty list of "
                               "names", key);
    for (const cJSON *e = v->child; e; e = e->next) {
        if (!cJSON_IsString(e) || !*e->valuestring || strchr(e->valuestring, ','))
            return moore_error_set(err, MOORE_EINVAL, "'%s' must list names", key);
        if (strlen(buf) + strlen(e->valuestring) + 2 > len)
            return moore_error_set(err, MOORE_EINVAL, "the list '%s' is too long", key);
        if (*buf)
            strcat(buf, ",");
        strcat(buf, e->valuestring);
    }
    return MOORE_OK;
}

int sweep_family_has_key(const moore_family *f, const char *key)
{
    for (const moore_param_info *p = f->params; p && p->key; p++)
        if (strcmp(p->key, key) == 0)
            return 1;
    return 0;
}

int sweep_error_prefix(moore_error *err, const char *prefix)
{
    char msg[MOORE_ERRMSG_LEN];
    snprintf(msg, sizeof msg, "%s", err->msg);
    return moore_error_set(err, err->code, "%s: %s", prefix, msg);
}

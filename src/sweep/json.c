/* json.c — small checks on a sweep file's JSON: known keys only, lists of
 * names, and whether a family takes a key. Kept apart from grid.c so that the
 * expansion reads as the grammar it implements. */
#include "sweep_internal.h"

#include <stdio.h>
#include <stdlib.h>
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

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The first key that one object of v's tree holds twice, or NULL; sorting
 * the names keeps a large object linear-logarithmic. */
static const char *duplicate_key(const cJSON *v, int *nomem)
{
    size_t n = 0;
    for (const cJSON *k = v->child; k; k = k->next) {
        const char *d = k->child ? duplicate_key(k, nomem) : NULL;
        if (d || *nomem)
            return d;
        n++;
    }
    if (!cJSON_IsObject(v) || n < 2)
        return NULL;
    const char **names = malloc(n * sizeof *names);
    if (!names) {
        *nomem = 1;
        return NULL;
    }
    n = 0;
    for (const cJSON *k = v->child; k; k = k->next)
        names[n++] = k->string;
    qsort(names, n, sizeof *names, cmp_names);
    const char *d = NULL;
    for (size_t i = 1; i < n && !d; i++)
        if (strcmp(names[i - 1], names[i]) == 0)
            d = names[i];
    free(names);
    return d;
}

int sweep_check_duplicates(const cJSON *root, const char *where, moore_error *err)
{
    int nomem = 0;
    const char *d = duplicate_key(root, &nomem);
    if (nomem)
        return moore_error_set(err, MOORE_ENOMEM, "sweep: out of memory");
    return d ? moore_error_set(err, MOORE_EINVAL, "%s: key '%s' appears twice in one object",
                               where, d)
             : MOORE_OK;
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

/* report.c — the ordered key/value results list and its two renderings.
 *
 * JSON goes through cJSON so escaping and number formatting are someone else's
 * well-tested code; doubles are printed with 17 significant digits by cJSON,
 * and non-finite values become null because JSON has no NaN. */
#include "core/alloc.h"
#include "core/spec_text.h"
#include "moore/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

void moore_report_init(moore_report *r) { memset(r, 0, sizeof *r); }

static void item_clear(moore_report_item *it)
{
    free(it->s);
    free(it->ia);
    free(it->da);
    it->s = NULL;
    it->ia = NULL;
    it->da = NULL;
    it->len = 0;
}

void moore_report_clear(moore_report *r)
{
    for (int i = 0; i < r->count; i++)
        item_clear(&r->items[i]);
    free(r->items);
    moore_report_init(r);
}

const moore_report_item *moore_report_get(const moore_report *r, const char *key)
{
    for (int i = 0; i < r->count; i++)
        if (strcmp(r->items[i].key, key) == 0)
            return &r->items[i];
    return NULL;
}

/* Returns the slot for key, cleared, creating it at the end if new. */
static moore_report_item *slot(moore_report *r, const char *key, moore_value_type t,
                               moore_error *err)
{
    moore_report_item *it = (moore_report_item *)moore_report_get(r, key);
    if (!it) {
        if (strlen(key) >= sizeof it->key) {
            moore_error_set(err, MOORE_EINTERNAL, "report key '%s' too long", key);
            return NULL;
        }
        if (r->count == r->cap) {
            int cap = r->cap ? 2 * r->cap : 32;
            moore_report_item *p = realloc(r->items, (size_t)cap * sizeof *p);
            if (!p) {
                moore_error_set(err, MOORE_ENOMEM, "out of memory growing a report");
                return NULL;
            }
            r->items = p;
            r->cap = cap;
        }
        it = &r->items[r->count++];
        memset(it, 0, sizeof *it);
        strcpy(it->key, key);
    }
    item_clear(it);
    it->type = t;
    return it;
}

int moore_report_int(moore_report *r, const char *key, int64_t v, moore_error *err)
{
    moore_report_item *it = slot(r, key, MOORE_VALUE_INT, err);
    if (!it)
        return err ? err->code : MOORE_ENOMEM;
    it->i = v;
    return MOORE_OK;
}

int moore_report_double(moore_report *r, const char *key, double v, moore_error *err)
{
    moore_report_item *it = slot(r, key, MOORE_VALUE_DOUBLE, err);
    if (!it)
        return err ? err->code : MOORE_ENOMEM;
    it->d = v;
    return MOORE_OK;
}

int moore_report_bool(moore_report *r, const char *key, int v, moore_error *err)
{
    moore_report_item *it = slot(r, key, MOORE_VALUE_BOOL, err);
    if (!it)
        return err ? err->code : MOORE_ENOMEM;
    it->i = v != 0;
    return MOORE_OK;
}

int moore_report_null(moore_report *r, const char *key, moore_error *err)
{
    return slot(r, key, MOORE_VALUE_NULL, err) ? MOORE_OK : (err ? err->code : MOORE_ENOMEM);
}

int moore_report_string(moore_report *r, const char *key, const char *v, moore_error *err)
{
    moore_report_item *it = slot(r, key, MOORE_VALUE_STRING, err);
    if (!it)
        return err ? err->code : MOORE_ENOMEM;
    size_t len = strlen(v) + 1;
    it->s = moore_malloc(len, 1, err);
    if (!it->s)
        return core_alloc_code(err);
    memcpy(it->s, v, len);
    return MOORE_OK;
}

int moore_report_int_array(moore_report *r, const char *key, const int64_t *v, int64_t len,
                           moore_error *err)
{
    moore_report_item *it = slot(r, key, MOORE_VALUE_INT_ARRAY, err);
    if (!it)
        return err ? err->code : MOORE_ENOMEM;
    it->ia = moore_malloc((size_t)len, sizeof *v, err);
    if (!it->ia)
        return core_alloc_code(err);
    if (len)
        memcpy(it->ia, v, (size_t)len * sizeof *v);
    it->len = len;
    return MOORE_OK;
}

int moore_report_double_array(moore_report *r, const char *key, const double *v, int64_t len,
                              moore_error *err)
{
    moore_report_item *it = slot(r, key, MOORE_VALUE_DOUBLE_ARRAY, err);
    if (!it)
        return err ? err->code : MOORE_ENOMEM;
    it->da = moore_malloc((size_t)len, sizeof *v, err);
    if (!it->da)
        return core_alloc_code(err);
    if (len)
        memcpy(it->da, v, (size_t)len * sizeof *v);
    it->len = len;
    return MOORE_OK;
}

double moore_report_number(const moore_report *r, const char *key)
{
    const moore_report_item *it = moore_report_get(r, key);
    if (!it)
        return NAN;
    switch (it->type) {
    case MOORE_VALUE_INT:
    case MOORE_VALUE_BOOL: return (double)it->i;
    case MOORE_VALUE_DOUBLE: return it->d;
    default: return NAN;
    }
}

static cJSON *item_json(const moore_report_item *it)
{
    switch (it->type) {
    case MOORE_VALUE_INT: return cJSON_CreateNumber((double)it->i);
    case MOORE_VALUE_DOUBLE: return isfinite(it->d) ? cJSON_CreateNumber(it->d) : cJSON_CreateNull();
    case MOORE_VALUE_BOOL: return cJSON_CreateBool((int)it->i);
    case MOORE_VALUE_STRING: return cJSON_CreateString(it->s);
    case MOORE_VALUE_NULL: return cJSON_CreateNull();
    case MOORE_VALUE_INT_ARRAY: {
        cJSON *a = cJSON_CreateArray();
        for (int64_t k = 0; a && k < it->len; k++)
            cJSON_AddItemToArray(a, cJSON_CreateNumber((double)it->ia[k]));
        return a;
    }
    case MOORE_VALUE_DOUBLE_ARRAY: {
        cJSON *a = cJSON_CreateArray();
        for (int64_t k = 0; a && k < it->len; k++)
            cJSON_AddItemToArray(a, isfinite(it->da[k]) ? cJSON_CreateNumber(it->da[k])
                                                        : cJSON_CreateNull());
        return a;
    }
    }
    return NULL;
}

/* The identity of a result (docs/json.md): "topology" is the SPEC that
 * rebuilds it, family:params, ahead of the family and params items. */
static void add_topology(const moore_report *r, cJSON *obj)
{
    const char *family = NULL, *params = NULL;
    for (int i = 0; i < r->count; i++) {
        const moore_report_item *it = &r->items[i];
        if (strcmp(it->key, "topology") == 0)
            return;
        if (it->type == MOORE_VALUE_STRING && strcmp(it->key, "family") == 0)
            family = it->s;
        if (it->type == MOORE_VALUE_STRING && strcmp(it->key, "params") == 0)
            params = it->s;
    }
    char *spec = family ? core_spec_join(family, params, NULL) : NULL;
    if (spec)
        cJSON_AddStringToObject(obj, "topology", spec);
    free(spec);
}

int moore_report_write_json(const moore_report *r, FILE *out, int pretty, moore_error *err)
{
    cJSON *obj = cJSON_CreateObject();
    if (!obj)
        return moore_error_set(err, MOORE_ENOMEM, "out of memory building JSON");
    add_topology(r, obj);
    for (int i = 0; i < r->count; i++)
        cJSON_AddItemToObject(obj, r->items[i].key, item_json(&r->items[i]));
    char *text = pretty ? cJSON_Print(obj) : cJSON_PrintUnformatted(obj);
    cJSON_Delete(obj);
    if (!text)
        return moore_error_set(err, MOORE_ENOMEM, "out of memory printing JSON");
    int bad = fputs(text, out) < 0 || fputc('\n', out) == EOF;
    free(text);
    return bad ? moore_error_set(err, MOORE_EIO, "could not write JSON output") : MOORE_OK;
}

static void write_value(const moore_report_item *it, FILE *out)
{
    switch (it->type) {
    case MOORE_VALUE_INT: fprintf(out, "%lld", (long long)it->i); break;
    case MOORE_VALUE_DOUBLE: fprintf(out, "%.6g", it->d); break;
    case MOORE_VALUE_BOOL: fputs(it->i ? "yes" : "no", out); break;
    case MOORE_VALUE_STRING: fputs(it->s, out); break;
    case MOORE_VALUE_NULL: fputs("-", out); break;
    case MOORE_VALUE_INT_ARRAY:
        for (int64_t k = 0; k < it->len; k++)
            fprintf(out, "%s%lld", k ? " " : "", (long long)it->ia[k]);
        break;
    case MOORE_VALUE_DOUBLE_ARRAY:
        for (int64_t k = 0; k < it->len; k++)
            fprintf(out, "%s%.6g", k ? " " : "", it->da[k]);
        break;
    }
}

int moore_report_write_text(const moore_report *r, FILE *out, moore_error *err)
{
    size_t w = 0;
    for (int i = 0; i < r->count; i++)
        if (strlen(r->items[i].key) > w)
            w = strlen(r->items[i].key);
    for (int i = 0; i < r->count; i++) {
        fprintf(out, "%-*s  ", (int)w, r->items[i].key);
        write_value(&r->items[i], out);
        fputc('\n', out);
    }
    return ferror(out) ? moore_error_set(err, MOORE_EIO, "could not write output") : MOORE_OK;
}

/* cost.c — the cost and power model: its documented defaults, the JSON model
 * file that overrides them, and the price of one cable.
 *
 * Defaults (docs/layout.md gives the sources): per-port switch price and the
 * length-dependent electrical/optical cable prices of the Slim Fly cost model
 * (Besta & Hoefler, SC'14, Mellanox FDR10 fits scaled to 40 Gb/s), power per
 * port from the same paper; floor geometry and the copper reach are this
 * project's stated assumptions. */
#include "core/alloc.h"
#include "moore/layout.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void moore_cost_model_default(moore_cost_model *m)
{
    memset(m, 0, sizeof *m);
    m->switch_port_cost = 350.4;
    m->electrical_cable_fixed = 0.5771 * 40.0;
    m->electrical_cable_per_m = 0.4079 * 40.0;
    m->optical_cable_fixed = 7.2745 * 40.0;
    m->optical_cable_per_m = 0.0919 * 40.0;
    m->electrical_max_m = 5.0;
    m->rack_width_m = 0.6;
    m->rack_depth_m = 1.2;
    m->aisle_m = 1.2;
    m->cable_overhead_m = 2.0;
    m->intra_rack_m = 1.0;
    m->switches_per_rack = 0;
    m->port_power_w = 2.8;
}

double moore_layout_cable_cost(const moore_cost_model *m, double length_m)
{
    if (length_m <= m->electrical_max_m)
        return m->electrical_cable_fixed + m->electrical_cable_per_m * length_m;
    return m->optical_cable_fixed + m->optical_cable_per_m * length_m;
}

/* The model's numeric keys, by offset. */
typedef struct cost_key {
    const char *name;
    size_t offset;
} cost_key;

static const cost_key COST_KEYS[] = {
    { "switch_port_cost", offsetof(moore_cost_model, switch_port_cost) },
    { "electrical_cable_fixed", offsetof(moore_cost_model, electrical_cable_fixed) },
    { "electrical_cable_per_m", offsetof(moore_cost_model, electrical_cable_per_m) },
    { "optical_cable_fixed", offsetof(moore_cost_model, optical_cable_fixed) },
    { "optical_cable_per_m", offsetof(moore_cost_model, optical_cable_per_m) },
    { "electrical_max_m", offsetof(moore_cost_model, electrical_max_m) },
    { "rack_width_m", offsetof(moore_cost_model, rack_width_m) },
    { "rack_depth_m", offsetof(moore_cost_model, rack_depth_m) },
    { "aisle_m", offsetof(moore_cost_model, aisle_m) },
    { "cable_overhead_m", offsetof(moore_cost_model, cable_overhead_m) },
    { "intra_rack_m", offsetof(moore_cost_model, intra_rack_m) },
    { "port_power_w", offsetof(moore_cost_model, port_power_w) },
    { NULL, 0 }
};

#define COST_VALUE_MAX 1e12

/* Sets one key of the model from a JSON value; refuses what the rules refuse. */
static int cost_set_key(moore_cost_model *m, const char *path, const cJSON *item,
                        moore_error *err)
{
    const char *key = item->string;
    if (!cJSON_IsNumber(item))
        return moore_error_set(err, MOORE_EINVAL, "%s: key '%s' is not a number (every model "
                               "value must be a non-negative number)", path, key);
    double v = item->valuedouble;
    if (v < 0)
        return moore_error_set(err, MOORE_EINVAL, "%s: %s = %g is negative (every model value "
                               "must be a non-negative number)", path, key, v);
    /* Costs and lengths are multiplied by link and port counts and summed: a
     * bound far above any real price or distance keeps every total finite. */
    if (!(v <= COST_VALUE_MAX))
        return moore_error_set(err, MOORE_EINVAL, "%s: %s = %g is above %g (every model value "
                               "must be a number in 0..%g)", path, key, v, COST_VALUE_MAX,
                               COST_VALUE_MAX);
    if (strcmp(key, "switches_per_rack") == 0) {
        if (v != floor(v) || v > MOORE_MAX_SWITCHES)
            return moore_error_set(err, MOORE_EINVAL, "%s: switches_per_rack = %g must be a "
                                   "whole number (0 = family default)", path, v);
        m->switches_per_rack = (int32_t)v;
        return MOORE_OK;
    }
    for (const cost_key *k = COST_KEYS; k->name; k++)
        if (strcmp(k->name, key) == 0) {
            *(double *)((char *)m + k->offset) = v;
            return MOORE_OK;
        }
    return moore_error_set(err, MOORE_EINVAL, "%s: unknown key '%s' (known: switch_port_cost, "
                           "electrical_cable_fixed, electrical_cable_per_m, optical_cable_fixed, "
                           "optical_cable_per_m, electrical_max_m, rack_width_m, rack_depth_m, "
                           "aisle_m, cable_overhead_m, intra_rack_m, switches_per_rack, "
                           "port_power_w)", path, key);
}

/* The whole file as a NUL-terminated string. */
static int cost_slurp(const char *path, char **out, moore_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return moore_error_set(err, MOORE_EIO, "%s: cannot open the model file", path);
    size_t cap = 4096, len = 0;
    char *buf = moore_malloc(cap, 1, err);
    int rc = buf ? MOORE_OK : moore_alloc_code(err);
    while (!rc) {
        if (len + 1 >= cap) {
            if (cap >= ((size_t)1 << 24)) {
                rc = moore_error_set(err, MOORE_EINVAL, "%s: model file larger than 16 MB",
                                     path);
                break;
            }
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                rc = moore_error_set(err, MOORE_ENOMEM, "%s: out of memory", path);
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - 1 - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (!rc && ferror(f))
        rc = moore_error_set(err, MOORE_EIO, "%s: read error", path);
    fclose(f);
    if (rc) {
        free(buf);
        return rc;
    }
    buf[len] = '\0';
    *out = buf;
    return MOORE_OK;
}

int moore_cost_model_read(const char *path, moore_cost_model *m, moore_error *err)
{
    char *text = NULL;
    cJSON *root = NULL;
    moore_cost_model next = *m;
    int rc = cost_slurp(path, &text, err);
    if (rc)
        goto done;
    root = cJSON_ParseWithOpts(text, NULL, 1); /* nothing but blanks after the object */
    if (!root || !cJSON_IsObject(root)) {
        rc = moore_error_set(err, MOORE_EINVAL, "%s: not a JSON object of model keys (alone in "
                             "the file)", path);
        goto done;
    }
    for (const cJSON *item = root->child; !rc && item; item = item->next) {
        for (const cJSON *prev = root->child; !rc && prev != item; prev = prev->next)
            if (strcmp(prev->string, item->string) == 0)
                rc = moore_error_set(err, MOORE_EINVAL, "%s: key '%s' is given twice", path,
                                     item->string);
        if (!rc)
            rc = cost_set_key(&next, path, item, err);
    }
    if (!rc)
        *m = next;
done:
    cJSON_Delete(root);
    free(text);
    return rc;
}

/* cost.c — the cost and power models: the two built-in ones ("400g", the
 * default, and "2014"), the link speeds with their copper reach and optics,
 * the JSON model file that overrides any value, stock cable lengths, and the
 * price of one cable.
 *
 * docs/layout.md gives the source of every value. "2014" is the Slim Fly cost
 * model (Besta & Hoefler, SC'14: Mellanox FDR10 fits scaled to 40 Gb/s);
 * "400g" is this project's estimate of a current 400 Gb/s build from public
 * list prices (not quotes). Both price the whole switch chassis, so a design
 * with more switches at the same ports in use costs more. */
#include "core/alloc.h"
#include "layout_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A link speed: the longest passive copper cable its IEEE standard specifies,
 * and the names of the copper cable and of the optics at that speed. */
typedef struct cost_speed {
    double gbps, copper_m;
    const char *copper, *optics;
} cost_speed;

static const cost_speed SPEEDS[] = {
    { 40, 5.0, "QSFP+ DAC", "QSFP+ 40G-SR4" },
    { 100, 5.0, "QSFP28 DAC", "QSFP28 100G-DR" },
    { 200, 3.0, "QSFP56 DAC", "QSFP56 200G-FR4" },
    { 400, 3.0, "QSFP-DD DAC", "QSFP-DD 400G-DR4" },
    { 800, 2.0, "OSFP DAC", "OSFP 800G-2xDR4" },
    { 0, 0, NULL, NULL }
};

static const cost_speed *cost_speed_find(double gbps)
{
    for (const cost_speed *s = SPEEDS; s->copper; s++)
        if (s->gbps == gbps)
            return s;
    return NULL;
}

static void cost_apply_speed(moore_cost_model *m, const cost_speed *s)
{
    m->link_gbps = s->gbps;
    m->electrical_max_m = s->copper_m;
    snprintf(m->copper_type, sizeof m->copper_type, "%s", s->copper);
    snprintf(m->optics_type, sizeof m->optics_type, "%s", s->optics);
}

/* A built-in model: its speed, prices, power and rack heights; the floor
 * (0.6 × 1.2 m racks, 1.2 m aisles, 2 m overhead, 1 m inside a rack) and 1U
 * servers are the same in both. */
typedef struct cost_builtin {
    const char *name;
    double gbps, switch_cost, switch_port_cost, el_fixed, el_per_m, transceiver, opt_fixed,
        opt_per_m, port_w, transceiver_w;
    int32_t rack_units, switch_units;
} cost_builtin;

static const cost_builtin BUILTIN[] = {
    /* A current 400 Gb/s build: estimates from public list prices (docs/layout.md). */
    { "400g", 400, 10000.0, 400.0, 100.0, 40.0, 700.0, 20.0, 1.0, 6.0, 10.0, 42, 2 },
    /* Besta & Hoefler, SC'14, per Gb/s at 40 Gb/s; the optical cable's fixed
     * term is its two transceivers. */
    { "2014", 40, 0.0, 350.4, 0.5771 * 40.0, 0.4079 * 40.0, 7.2745 * 40.0 / 2.0, 0.0,
      0.0919 * 40.0, 2.8, 0.0, 48, 1 },
    { NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }
};

static void cost_model_builtin(const cost_builtin *b, moore_cost_model *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", b->name);
    cost_apply_speed(m, cost_speed_find(b->gbps));
    m->switch_cost = b->switch_cost;
    m->switch_port_cost = b->switch_port_cost;
    m->electrical_cable_fixed = b->el_fixed;
    m->electrical_cable_per_m = b->el_per_m;
    m->transceiver_cost = b->transceiver;
    m->optical_cable_fixed = b->opt_fixed;
    m->optical_cable_per_m = b->opt_per_m;
    m->port_power_w = b->port_w;
    m->transceiver_power_w = b->transceiver_w;
    m->rack_units = b->rack_units;
    m->switch_units = b->switch_units;
    m->server_units = 1;
    m->rack_width_m = 0.6;
    m->rack_depth_m = 1.2;
    m->aisle_m = 1.2;
    m->cable_overhead_m = 2.0;
    m->intra_rack_m = 1.0;
}

void moore_cost_model_default(moore_cost_model *m) { cost_model_builtin(&BUILTIN[0], m); }

int moore_cost_model_named(const char *name, moore_cost_model *m, moore_error *err)
{
    for (const cost_builtin *b = BUILTIN; name && b->name; b++)
        if (strcmp(name, b->name) == 0) {
            cost_model_builtin(b, m);
            return MOORE_OK;
        }
    return moore_error_set(err, MOORE_EINVAL, "unknown cost model '%s' (built in: 400g, "
                           "2014; or a JSON model file)", name ? name : "(null)");
}

double moore_layout_buy_length(double length_m)
{
    static const double STOCK[] = { 1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 75, 100 };
    for (size_t i = 0; i < sizeof STOCK / sizeof *STOCK; i++)
        if (length_m <= STOCK[i])
            return STOCK[i];
    return 50.0 * ceil(length_m / 50.0);
}

double moore_layout_cable_cost(const moore_cost_model *m, double length_m)
{
    if (length_m <= m->electrical_max_m)
        return m->electrical_cable_fixed + m->electrical_cable_per_m * length_m;
    return 2.0 * m->transceiver_cost + m->optical_cable_fixed + m->optical_cable_per_m * length_m;
}

/* The model's keys: numbers by offset, whole numbers by offset, strings by offset. */
typedef enum { KEY_NUMBER, KEY_COUNT, KEY_TEXT } key_kind;

typedef struct cost_key {
    const char *name;
    size_t offset;
    key_kind kind;
} cost_key;

#define NUM(f) { #f, offsetof(moore_cost_model, f), KEY_NUMBER }
#define CNT(f) { #f, offsetof(moore_cost_model, f), KEY_COUNT }
#define TXT(f) { #f, offsetof(moore_cost_model, f), KEY_TEXT }
static const cost_key COST_KEYS[] = {
    NUM(link_gbps), TXT(copper_type), TXT(optics_type), NUM(switch_cost),
    NUM(switch_port_cost), CNT(switch_radix), NUM(electrical_cable_fixed),
    NUM(electrical_cable_per_m), NUM(transceiver_cost), NUM(optical_cable_fixed),
    NUM(optical_cable_per_m), NUM(electrical_max_m), NUM(rack_width_m), NUM(rack_depth_m),
    NUM(aisle_m), NUM(cable_overhead_m), NUM(intra_rack_m), CNT(switches_per_rack),
    CNT(rack_units), CNT(switch_units), CNT(server_units), NUM(port_power_w),
    NUM(transceiver_power_w), { NULL, 0, KEY_NUMBER }
};
#undef NUM
#undef CNT
#undef TXT

#define COST_KNOWN "base, link_gbps, copper_type, optics_type, switch_cost, switch_port_cost, " \
    "switch_radix, electrical_cable_fixed, electrical_cable_per_m, transceiver_cost, "          \
    "optical_cable_fixed, optical_cable_per_m, electrical_max_m, rack_width_m, rack_depth_m, "  \
    "aisle_m, cable_overhead_m, intra_rack_m, switches_per_rack, rack_units, switch_units, "    \
    "server_units, port_power_w, transceiver_power_w"

/* A string key's value. */
static int cost_set_text(char *slot, const char *path, const cJSON *item, moore_error *err)
{
    if (!cJSON_IsString(item) || strlen(item->valuestring) >= 32 || !*item->valuestring)
        return moore_error_set(err, MOORE_EINVAL, "%s: key '%s' must be a name of 1 to 31 "
                               "characters", path, item->string);
    snprintf(slot, 32, "%s", item->valuestring);
    return MOORE_OK;
}

#define COST_VALUE_MAX 1e12

/* Sets one key of the model from a JSON value; refuses what the rules refuse. */
static int cost_set_key(moore_cost_model *m, const char *path, const cJSON *item,
                        moore_error *err)
{
    const char *key = item->string;
    const cost_key *k = COST_KEYS;
    while (k->name && strcmp(k->name, key) != 0)
        k++;
    if (!k->name)
        return moore_error_set(err, MOORE_EINVAL, "%s: unknown key '%s' (known: " COST_KNOWN
                               ")", path, key);
    char *slot = (char *)m + k->offset;
    if (k->kind == KEY_TEXT)
        return cost_set_text(slot, path, item, err);
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
    if (k->kind == KEY_COUNT) {
        if (v != floor(v) || v > MOORE_MAX_SWITCHES)
            return moore_error_set(err, MOORE_EINVAL, "%s: %s = %g must be a whole number",
                                   path, key, v);
        *(int32_t *)slot = (int32_t)v;
    } else {
        *(double *)slot = v;
    }
    return MOORE_OK;
}

/* "base" and "link_gbps" come before the other keys, whatever their place. */
static int cost_set_base(moore_cost_model *m, const char *path, const cJSON *root,
                         moore_error *err)
{
    const cJSON *base = cJSON_GetObjectItemCaseSensitive(root, "base");
    if (base && (!cJSON_IsString(base) || moore_cost_model_named(base->valuestring, m, err)))
        return moore_error_set(err, MOORE_EINVAL, "%s: base must be a built-in model name "
                               "(400g or 2014)", path);
    const cJSON *speed = cJSON_GetObjectItemCaseSensitive(root, "link_gbps");
    if (!speed)
        return MOORE_OK;
    const cost_speed *s = cJSON_IsNumber(speed) ? cost_speed_find(speed->valuedouble) : NULL;
    if (!s)
        return moore_error_set(err, MOORE_EINVAL, "%s: link_gbps must be 40, 100, 200, 400 or "
                               "800", path);
    cost_apply_speed(m, s);
    return MOORE_OK;
}

int layout_model_check(const moore_cost_model *m, const char *who, moore_error *err)
{
    if (m->rack_units < 1 || m->switch_units < 1 || m->server_units < 1)
        return moore_error_set(err, MOORE_EINVAL, "%s: rack_units, switch_units and "
                               "server_units must be at least 1", who);
    if (m->switch_units > m->rack_units || m->server_units > m->rack_units)
        return moore_error_set(err, MOORE_EINVAL, "%s: a switch (%d U) or a server (%d U) is "
                               "taller than a rack (%d U)", who, (int)m->switch_units,
                               (int)m->server_units, (int)m->rack_units);
    return MOORE_OK;
}

/* The whole file as a NUL-terminated string. */
static int cost_slurp(const char *path, char **out, moore_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return moore_error_set(err, MOORE_EIO, "%s: cannot open the model file (built-in "
                               "models: 400g, 2014)", path);
    size_t cap = 4096, len = 0;
    char *buf = moore_malloc(cap, 1, err);
    int rc = buf ? MOORE_OK : core_alloc_code(err);
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
    if (!rc) {
        buf[len] = '\0';
        *out = buf;
        buf = NULL;
    }
    free(buf);
    return rc;
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
    for (const cJSON *item = root->child; !rc && item; item = item->next)
        for (const cJSON *prev = root->child; !rc && prev != item; prev = prev->next)
            if (strcmp(prev->string, item->string) == 0)
                rc = moore_error_set(err, MOORE_EINVAL, "%s: key '%s' is given twice", path,
                                     item->string);
    if (!rc)
        rc = cost_set_base(&next, path, root, err);
    for (const cJSON *item = root->child; !rc && item; item = item->next)
        if (strcmp(item->string, "base") != 0 && strcmp(item->string, "link_gbps") != 0)
            rc = cost_set_key(&next, path, item, err);
    if (!rc)
        rc = layout_model_check(&next, path, err);
    for (const cJSON *item = root ? root->child : NULL; !rc && item; item = item->next)
        if (strcmp(item->string, "base") != 0) { /* changes something: its own model */
            snprintf(next.name, sizeof next.name, "custom");
            break;
        }
    if (!rc)
        *m = next;
done:
    cJSON_Delete(root);
    free(text);
    return rc;
}

int moore_cost_model_load(const char *name_or_path, moore_cost_model *m, moore_error *err)
{
    for (const cost_builtin *b = BUILTIN; name_or_path && b->name; b++)
        if (strcmp(name_or_path, b->name) == 0)
            return moore_cost_model_named(name_or_path, m, err);
    moore_cost_model_default(m);
    return moore_cost_model_read(name_or_path, m, err);
}

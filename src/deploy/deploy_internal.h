/* deploy_internal.h — what the files of src/deploy/ share: allocating a
 * fabric from its port counts, and reading cable-plan rows into one. */
#ifndef MOORE_DEPLOY_INTERNAL_H
#define MOORE_DEPLOY_INTERNAL_H

#include <stdio.h>
#include "moore/deploy.h"

/* A fabric with ports[s] ports on switch s (all unconnected), hcas HCAs
 * without switch, GUIDs by moore's scheme and empty names. */
int deploy_fabric_alloc(int32_t switches, int32_t hcas, const int32_t *ports,
                        moore_ib_fabric **out, moore_error *err);
/* Connects switch port (a, pa) to (b, pb) both ways (IB ports from 1);
 * refuses a port beyond a switch's count or already connected. */
int deploy_fabric_link(moore_ib_fabric *f, int32_t a, int32_t pa, int32_t b, int32_t pb,
                       const char *what, moore_error *err);
/* Reads cable plan rows (header then cable,from_switch,from_rack,from_port,
 * to_switch,to_rack,to_port,...) from in; calls back once per row with
 * 0-based plan ports. `name` names the input in messages. */
typedef int (*deploy_cable_fn)(void *ctx, int64_t row, int32_t a, int32_t pa, int32_t b,
                               int32_t pb, moore_error *err);
int deploy_plan_rows(FILE *in, const char *name, int32_t switches, deploy_cable_fn fn, void *ctx,
                     moore_error *err);
/* DIR exists as a directory afterwards (created when missing), or an error names it. */
int deploy_make_dir(const char *dir, moore_error *err);
/* Switch s of f's port count. */
static inline int32_t deploy_ports(const moore_ib_fabric *f, int32_t s)
{
    return (int32_t)(f->port_offs[s + 1] - f->port_offs[s]);
}

#endif

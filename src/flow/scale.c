/* scale.c — every traffic matrix brought to unit scale before a solver sees it.
 *
 * θ is homogeneous of degree −1 in the demands: θ(c·T) = θ(T)/c. The solvers
 * are not: Clp's tolerances are absolute (1e-9), so demands of 1e20 or 1e-20
 * made it stop without an optimum, and the approximation's bookkeeping
 * underflowed at 1e308 and reported a wrong θ as converged. So the exact and
 * the approximate entry points solve T' = T·2^−e instead, where 2^e is the
 * power of two with the largest demand of T' in [0.5, 1), and report
 * θ(T) = θ(T')·2^−e, and the same for both bounds and for the bounds passed
 * to the progress callback. A power of two makes both multiplications exact
 * (no rounding), so the bounds stay proven. A matrix whose scaled demands or
 * whose θ fall outside the normal range of a double is refused with one
 * message instead of being answered with rounded or wrapped numbers. */
#include "core/alloc.h"
#include "flow_internal.h"

#include <float.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

/* The progress callback's bounds back at the caller's scale. */
static void scale_bounds(void *ctx, int64_t phase, double lower, double upper, double seconds)
{
    const flow_scale *sc = ctx;
    sc->user->bounds(sc->user->bounds_ctx, phase, ldexp(lower, -sc->e), ldexp(upper, -sc->e),
                     seconds);
}

/* The two largest (top) or smallest positive (!top) weights of a compact
 * matrix, as the demand between their switches (0 with fewer than two). */
static double scale_pair(const moore_traffic *t, int top)
{
    double a = 0, b = 0; /* a first, b second */
    int k = 0;
    for (int32_t v = 0; v < t->n; v++) {
        double w = t->weight[v];
        if (!(w > 0))
            continue;
        k++;
        if (k == 1 || (top ? w > a : w < a)) {
            b = a;
            a = w;
        } else if (k == 2 || (top ? w > b : w < b)) {
            b = w;
        }
    }
    return k < 2 ? 0 : a * b / t->weight_div;
}

/* The largest demand. */
static double scale_max(const moore_traffic *t)
{
    if (t->weight)
        return scale_pair(t, 1);
    double max = 0;
    for (int64_t k = 0; k < t->offs[t->n]; k++)
        max = t->demand[k] > max ? t->demand[k] : max;
    return max;
}

/* A compact matrix times 2^−e: the same weights over a divisor 2^e times
 * larger, which rounds every demand exactly as scaling it would. */
static int scale_compact(const moore_traffic *t, int e, moore_traffic **out, moore_error *err)
{
    moore_traffic *c;
    int rc = flow_traffic_alloc_compact(t->n, t->name, &c, err);
    if (rc)
        return rc;
    memcpy(c->offs, t->offs, ((size_t)t->n + 1) * sizeof *c->offs);
    memcpy(c->weight, t->weight, (size_t)t->n * sizeof *c->weight);
    c->weight_div = ldexp(t->weight_div, e);
    c->total = ldexp(t->total, -e);
    c->unit_endpoints = t->unit_endpoints;
    *out = c;
    return MOORE_OK;
}

static int scale_range_error(double small, double max, moore_error *err)
{
    return moore_error_set(err, MOORE_EINVAL,
                           "throughput: demands %g and %g are more than a double's "
                           "range apart (about 1e308); drop the smaller one", small, max);
}

/* The listed (unweighted) matrix t times 2^−e into *out, handed over on
 * success; max: t's largest demand, for the message when one underflows. */
static int scale_copy(const moore_traffic *t, int e, double max, moore_traffic **out,
                      moore_error *err)
{
    int64_t entries = t->offs[t->n];
    moore_traffic *c = NULL;
    int rc = flow_traffic_alloc(t->n, entries, t->name, &c, err);
    if (!rc) {
        memcpy(c->offs, t->offs, ((size_t)t->n + 1) * sizeof *c->offs);
        memcpy(c->dst, t->dst, (size_t)entries * sizeof *c->dst);
        c->total = 0;
    }
    for (int64_t k = 0; !rc && k < entries; k++) {
        c->demand[k] = ldexp(t->demand[k], -e);
        c->total += c->demand[k];
        if (c->demand[k] < DBL_MIN)
            rc = scale_range_error(t->demand[k], max, err);
    }
    if (!rc) {
        *out = c;
        c = NULL;
    }
    moore_traffic_free(c);
    return rc;
}

int flow_scale_begin(const moore_traffic *t, const moore_flow_options *o, flow_scale *sc,
                     moore_error *err)
{
    memset(sc, 0, sizeof *sc);
    sc->user = o;
    sc->o = *o;
    sc->t = t;
    double max = scale_max(t);
    if (max > 0 && isfinite(max))
        frexp(max, &sc->e);   /* 2^(e−1) ≤ max < 2^e */
    if (o->bounds)
        sc->o.bounds = scale_bounds, sc->o.bounds_ctx = sc;
    int rc = MOORE_OK;
    if (sc->e != 0 && t->weight) {
        double small = scale_pair(t, 0);
        if (ldexp(small, -sc->e) < DBL_MIN)
            rc = scale_range_error(small, max, err);
        else
            rc = scale_compact(t, sc->e, &sc->copy, err);
    } else if (sc->e != 0) {
        rc = scale_copy(t, sc->e, max, &sc->copy, err);
    }
    if (!rc && sc->copy)
        sc->t = sc->copy;
    return rc;
}

/* Refuses a value that does not survive the way back to the caller's scale. */
static int scale_check(double scaled, double v, int e, moore_error *err)
{
    if (scaled == 0 || (isfinite(v) && v >= DBL_MIN))
        return MOORE_OK;
    if (!isfinite(v))
        return moore_error_set(err, MOORE_EINVAL,
                               "throughput: theta = %.6g x 2^%d for these demands is above "
                               "the largest double (1.8e308); scale the matrix", scaled, -e);
    return moore_error_set(err, MOORE_EINVAL,
                           "throughput: theta = %.6g x 2^%d (about %.3g) for these demands is "
                           "below the smallest normal double (2.2e-308); scale the matrix",
                           scaled, -e, v);
}

int flow_scale_back(const flow_scale *sc, moore_flow_result *out, moore_error *err)
{
    int rc = MOORE_OK;
    double *v[] = { &out->throughput, &out->lower, &out->upper };
    for (int i = 0; !rc && sc->e != 0 && i < 3; i++) {
        double back = ldexp(*v[i], -sc->e);
        rc = scale_check(*v[i], back, sc->e, err);
        if (!rc)
            *v[i] = back;
    }
    return rc;
}

void flow_scale_clear(flow_scale *sc)
{
    moore_traffic_free(sc->copy);
    sc->copy = NULL;
}

int flow_scaled_solve(const moore_graph *g, const moore_traffic *t, const moore_flow_options *o,
                      moore_flow_result *out, moore_error *err, flow_solver solve)
{
    moore_flow_options def;
    o = flow_options_or_default(o, &def);
    memset(out, 0, sizeof *out);
    flow_scale sc;
    int rc = flow_scale_begin(t, o, &sc, err);
    if (!rc)
        rc = solve(g, sc.t, &sc.o, out, err);
    if (!rc)
        rc = flow_scale_back(&sc, out, err);
    flow_scale_clear(&sc);
    return rc;
}

/* spectrum.c — the "spectral" metric group: the adjacency spectrum of a
 * topology (moore_spectrum_compute, src/families/spectrum.c on the solvers
 * of src/linalg/) under the keys `moore stats --json` prints. */
#include "moore/spectrum.h"
#include "metrics/groups.h"

#include <math.h>

/* The "spectral" metric group (src/analysis/registry.c). */
int metric_spectral(const moore_graph *g, const moore_metric_options *o, moore_report *r,
                          moore_error *err)
{
    moore_spectrum s;
    int rc = moore_spectrum_compute(g, o, MOORE_EIG_AUTO, &s, err);
    if (rc)
        return rc;
    moore_error_clear(err); /* a non-convergence note is not an error here */
    if (!s.converged)
        rc = moore_report_bool(r, "spectral_converged", 0, err);
    struct { const char *key; double v; } vals[] = {
        { "lambda1", s.lambda1 },
        { "lambda2", s.lambda2 },
        { "lambda_min", s.lambda_min },
        { "spectral_gap", s.spectral_gap },
        { "lambda_nontrivial", s.lambda_nontrivial },
        { "ramanujan_bound", s.ramanujan_bound },
    };
    for (size_t i = 0; !rc && i < sizeof vals / sizeof vals[0]; i++)
        rc = isfinite(vals[i].v) ? moore_report_double(r, vals[i].key, vals[i].v, err)
                                 : moore_report_null(r, vals[i].key, err);
    if (!rc)
        rc = s.converged && isfinite(s.lambda_nontrivial) && isfinite(s.ramanujan_bound)
                 ? moore_report_bool(r, "is_ramanujan", s.is_ramanujan, err)
                 : moore_report_null(r, "is_ramanujan", err);
    if (!rc)
        rc = isfinite(s.algebraic_connectivity)
                 ? moore_report_double(r, "algebraic_connectivity", s.algebraic_connectivity, err)
                 : moore_report_null(r, "algebraic_connectivity", err);
    return rc;
}

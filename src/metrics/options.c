/* options.c — the defaults of the options every metric group takes. They
 * live with the metrics, below the registry, because areas above the
 * metrics (resilience's trials) fill them in too. */
#include "moore/metrics.h"

#include <string.h>

void moore_metric_options_default(moore_metric_options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
}

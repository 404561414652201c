/* compare_step.h — the hooks `moore compare` calls for --job (compare_step.c),
 * whose options `moore report` parses the same way:
 * its options, their check, the step keys of a JSON row, and the ranking by
 * step time printed after the text table. */
#ifndef MOORE_CLI_COMPARE_STEP_H
#define MOORE_CLI_COMPARE_STEP_H

#include "cli.h"

struct cJSON;

/* 1 when argv[a->i] is --job, --link-rate or --step-routing (consumed). */
int cli_compare_step_option(cli_args *a);
/* After parsing: 0, or the exit status after one line (a bad rate or job)
 * naming the command cmd ("compare", "report"). */
int cli_compare_step_check(const char *cmd);
/* After a successful check: the --job given (NULL: none), its --link-rate in
 * *gbps and its --step-routing in *routing (NULL: optimal). */
const char *cli_compare_step_job(double *gbps, const char **routing);
/* With --job: step_seconds_lower/upper, ideal_seconds, slowdown and
 * cost_per_step of the row's topology added to o. */
void cli_compare_step_json(const char *spec, const moore_report *row, struct cJSON *o);
/* With --job: the rows ranked by step time (0, or 1 when printing failed). */
int cli_compare_step_table(const moore_compare *c);

#endif

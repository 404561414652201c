/* cmd_lift.c — `moore lift TOPO [--times T] [--seed S] -o FILE`: 2-lifts with
 * a searched signing (docs/xpander.md), reporting what each lift did to the
 * spectrum. The report goes to stdout, or to stderr when the topology itself
 * is written to stdout. */
#include "cli.h"

#include <string.h>

const char cmd_lift_usage[] =
    "usage: moore lift TOPO [--times T] [--seed S] [--tries N] [--evals E] [-o FILE] [-f FORMAT]\n"
    "                  [--json]\n\n"
    "Doubles TOPO by a 2-lift (Bilu & Linial): the copy of switch v is v+N, and each link\n"
    "becomes a parallel or a crossed pair. The signing minimises the spectral radius of the\n"
    "signed adjacency matrix, rho(A_s), by random tries plus greedy sign flips checked with\n"
    "the eigensolver. Prints lambda2 before and after, rho(A_s), and whether the gap was kept\n"
    "(rho(A_s) <= lambda2 of the graph lifted).\n\n"
    "  --times T          lift T times (N -> 2^T N; default 1)\n"
    "  --seed S           seed of the signing search (default 1; lift i uses S+i)\n"
    "  --tries N          random starting signings per lift (default 4)\n"
    "  --evals E          eigen-solves per try for the greedy flips (default 32)\n"
    "  -o, --output FILE  where the lifted topology goes (default: standard output)\n"
    "  -f, --format NAME  output format (default edgelist)\n"
    "  --json             the report as one JSON object per lift\n";

typedef struct lift_print {
    FILE *out;
    int json, times;
} lift_print;

static int print_step(FILE *out, int json, int step, int times, int32_t from, int32_t to,
                      const moore_lift_result *r)
{
    if (!json) {
        fprintf(out, "lift %d/%d: %d -> %d switches\n", step, times, (int)from, (int)to);
        fprintf(out, "  lambda2 before     %.6f\n", r->lambda2_before);
        fprintf(out, "  lambda2 after      %.6f\n", r->lambda2_after);
        fprintf(out, "  rho(A_s)           %.6f  (A_s spectrum in [%.6f, %.6f])\n", r->rho,
                r->signed_min, r->signed_max);
        fprintf(out, "  lambda_nontrivial  %.6f -> %.6f\n", r->nontrivial_before,
                r->nontrivial_after);
        fprintf(out, "  ramanujan bound    %.6f\n", r->ramanujan_bound);
        fprintf(out, "  gap kept           %s  (rho(A_s) %s lambda2 before)\n",
                r->gap_kept ? "yes" : "no", r->gap_kept ? "<=" : ">");
        fprintf(out, "  lambda2 kept       %s\n", r->lambda2_kept ? "yes" : "no");
        fprintf(out, "  ramanujan signing  %s  (rho(A_s) %s 2 sqrt(d-1))\n",
                r->signing_ramanujan ? "yes" : "no", r->signing_ramanujan ? "<=" : ">");
        return 0;
    }
    moore_report rep;
    moore_error err;
    moore_report_init(&rep);
    int rc = moore_report_int(&rep, "step", step, &err);
    if (!rc) rc = moore_report_int(&rep, "switches_before", from, &err);
    if (!rc) rc = moore_report_int(&rep, "switches_after", to, &err);
    if (!rc) rc = moore_report_double(&rep, "lambda2_before", r->lambda2_before, &err);
    if (!rc) rc = moore_report_double(&rep, "lambda2_after", r->lambda2_after, &err);
    if (!rc) rc = moore_report_double(&rep, "rho", r->rho, &err);
    if (!rc) rc = moore_report_double(&rep, "signed_min", r->signed_min, &err);
    if (!rc) rc = moore_report_double(&rep, "signed_max", r->signed_max, &err);
    if (!rc) rc = moore_report_double(&rep, "lambda_nontrivial_before", r->nontrivial_before, &err);
    if (!rc) rc = moore_report_double(&rep, "lambda_nontrivial_after", r->nontrivial_after, &err);
    if (!rc) rc = moore_report_double(&rep, "ramanujan_bound", r->ramanujan_bound, &err);
    if (!rc) rc = moore_report_bool(&rep, "gap_kept", r->gap_kept, &err);
    if (!rc) rc = moore_report_bool(&rep, "lambda2_kept", r->lambda2_kept, &err);
    if (!rc) rc = moore_report_bool(&rep, "ramanujan_signing", r->signing_ramanujan, &err);
    if (!rc) rc = moore_report_write_json(&rep, out, cli_json_pretty(), &err);
    moore_report_clear(&rep);
    return rc ? cli_fail(&err) : 0;
}

/* moore_lift_step: prints each lift's report as soon as it is done. */
static int lift_step(void *ctx, int step, const moore_graph *before, const moore_graph *after,
                     const moore_lift_result *r)
{
    cli_progress_done();
    const lift_print *lp = ctx;
    return print_step(lp->out, lp->json, step, lp->times, before->n, after->n, r);
}

int cmd_lift(int argc, char **argv)
{
    cli_args a;
    const char *topo = NULL, *out = "-", *format = "edgelist";
    long long times = 1, seed = 1, tries = 4, evals = 32;
    int json = 0;
    cli_args_init(&a, argc, argv);
    for (; a.i < a.argc && !a.bad; a.i++) {
        if (cli_option(&a, "--output", "-o"))
            out = a.value;
        else if (cli_option(&a, "--format", "-f"))
            format = a.value;
        else if (cli_option(&a, "--times", NULL))
            cli_int_value(&a, "--times", 1, 20, &times);
        else if (cli_option(&a, "--seed", NULL))
            cli_int_value(&a, "--seed", 0, (long long)9e18, &seed);
        else if (cli_option(&a, "--tries", NULL))
            cli_int_value(&a, "--tries", 1, 100000, &tries);
        else if (cli_option(&a, "--evals", NULL))
            cli_int_value(&a, "--evals", 1, 100000, &evals);
        else if (cli_flag(&a, "--json", NULL))
            json = 1;
        else if (cli_positional(&a, &topo))
            return 2;
    }
    if (a.bad)
        return 2;
    if (!topo)
        return cli_usage_error("lift: missing TOPO (see 'moore lift --help')");
    moore_graph *g = NULL, *h = NULL;
    int status = cli_load_for_output(topo, format, &g);
    if (status)
        return status;
    moore_error err;
    moore_error_clear(&err);
    int rc = moore_lift_check_times(g, (int)times, &err);
    lift_print lp = { strcmp(out, "-") == 0 ? stderr : stdout, json, (int)times };
    moore_lift_options o;
    moore_lift_options_default(&o);
    o.seed = (uint64_t)seed;
    o.tries = (int)tries;
    o.max_evals = (int)evals;
    o.progress = cli_progress;
    o.progress_ctx = &lp;
    if (!rc) {
        rc = moore_lift_times(g, (int)times, &o, lift_step, &lp, &h, &err);
        cli_progress_done();
        moore_graph_free(g); /* before the lift is written: not part of the peak */
        g = NULL;
    }
    if (!rc)
        rc = moore_graph_write(h, out, format, &err);
    moore_graph_free(g);
    moore_graph_free(h);
    if (rc) /* err.code 0: lift_step stopped the lifts (its exit status) */
        return err.code ? cli_fail(&err) : rc;
    return 0;
}

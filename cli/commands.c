/* commands.c — the command table: one line per command, in help order. */
#include "cli.h"

int cmd_build(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_families(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_grow(int argc, char **argv);
int cmd_iso(int argc, char **argv);
int cmd_lift(int argc, char **argv);
int cmd_expand(int argc, char **argv);
int cmd_throughput(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_layout(int argc, char **argv);
int cmd_route(int argc, char **argv);
int cmd_fail(int argc, char **argv);
int cmd_deploy(int argc, char **argv);
int cmd_step(int argc, char **argv);

extern const char cmd_build_usage[], cmd_stats_usage[], cmd_families_usage[];
extern const char cmd_plan_usage[], cmd_compare_usage[];
extern const char cmd_grow_usage[];
extern const char cmd_iso_usage[], cmd_lift_usage[], cmd_expand_usage[];
extern const char cmd_throughput_usage[];
extern const char cmd_sweep_usage[];
extern const char cmd_report_usage[];
extern const char cmd_layout_usage[];
extern const char cmd_route_usage[];
extern const char cmd_fail_usage[];
extern const char cmd_deploy_usage[];
extern const char cmd_step_usage[];

static const cli_command COMMANDS[] = {
    { "build", "build a topology and write it to a file", cmd_build_usage, cmd_build },
    { "stats", "measure a topology (distances, spectrum, ...)", cmd_stats_usage, cmd_stats },
    { "families", "list topology families and their keys", cmd_families_usage, cmd_families },
    { "plan", "what each family can build with switches of radix R", cmd_plan_usage, cmd_plan },
    { "compare", "build and measure each family's pick for a radix and endpoint count",
      cmd_compare_usage, cmd_compare },
    { "grow", "every family's path through growing server counts: rewiring, cost, throughput",
      cmd_grow_usage, cmd_grow },
    { "iso", "tell whether two topologies are isomorphic (nauty/Traces)", cmd_iso_usage, cmd_iso },
    { "lift", "double a topology by a 2-lift with a searched signing", cmd_lift_usage,
      cmd_lift },
    { "expand", "add switches the way Jellyfish grows", cmd_expand_usage, cmd_expand },
    { "throughput", "max concurrent flow under a traffic matrix (LP or (1+eps) bounds)",
      cmd_throughput_usage, cmd_throughput },
    { "step", "a training step's communication time by phase, against a non-blocking fabric",
      cmd_step_usage, cmd_step },
    { "sweep", "measure a sweep file's configurations into an SQLite database", cmd_sweep_usage,
      cmd_sweep },
    { "report", "the comparison as one self-contained HTML page with figures", cmd_report_usage,
      cmd_report },
    { "layout", "racks, floor, cable plan (CSV), cost and power", cmd_layout_usage, cmd_layout },
    { "route", "routes (ECMP, KSP, Valiant, UGAL), tables and deadlock-free layers",
      cmd_route_usage, cmd_route },
    { "fail", "what survives random link, switch or rack failures (seeded trials)",
      cmd_fail_usage, cmd_fail },
    { "deploy", "InfiniBand fabric file and OpenSM forwarding tables", cmd_deploy_usage, cmd_deploy },
    { NULL, NULL, NULL, NULL }
};

const cli_command *cli_commands(void) { return COMMANDS; }

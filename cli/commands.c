/* commands.c — the command table: one line per command, in help order. */
#include "cli.h"

int cmd_build(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_families(int argc, char **argv);
int cmd_throughput(int argc, char **argv);

extern const char cmd_build_usage[], cmd_stats_usage[], cmd_families_usage[];
extern const char cmd_throughput_usage[];

static const cli_command COMMANDS[] = {
    { "build", "build a topology and write it to a file", cmd_build_usage, cmd_build },
    { "stats", "measure a topology (distances, spectrum, ...)", cmd_stats_usage, cmd_stats },
    { "families", "list topology families and their keys", cmd_families_usage, cmd_families },
    { "throughput", "max concurrent flow under a traffic matrix (LP or (1+eps) bounds)",
      cmd_throughput_usage, cmd_throughput },
    { NULL, NULL, NULL, NULL }
};

const cli_command *cli_commands(void) { return COMMANDS; }

/* cli/cli.h — the commands of the simsched tool that live outside main.c. */
#ifndef SIMSCHED_CLI_H
#define SIMSCHED_CLI_H

/** simsched pelt (cli/pelt.c): argv[0] is "pelt". Returns the exit status. */
int ss_cli_pelt(int argc, char **argv);

struct ss_workload;
/** Print the workload's loader warnings (simsched/rtapp.h) to stderr, one line each. */
void ss_cli_workload_warnings(const struct ss_workload *w);
struct ss_topology;
/** Print the machine's build warnings (ss_topology_warnings()) to stderr, one line each. */
void ss_cli_topology_warnings(const struct ss_topology *t);

/** simsched sweep --spec FILE --out FILE [--jobs N] [--shard K/N] [--resume] (cli/sweep.c). */
int ss_cli_sweep(int argc, char **argv);
/** simsched report FILE... [--metric M] [--format F] [--policies A,B] [--out FILE] (cli/sweep.c). */
int ss_cli_report(int argc, char **argv);

#endif

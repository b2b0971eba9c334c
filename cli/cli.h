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

/**
 * --policy-plugin FILE.so (repeatable; run, compare, sweep, policies; cli/main.c):
 * load each plugin and register its policy (docs/policies.md). files may be
 * NULL. Returns 0, or the exit status (1) after printing the loader's error.
 * *name is the policy of the only plugin given (NULL with none or several).
 */
int ss_cli_load_plugins(char **files, const char **name);

/** simsched sweep --spec FILE --out FILE [--jobs N] [--shard K/N] [--resume] [--policy-plugin FILE.so]... (cli/sweep.c). */
int ss_cli_sweep(int argc, char **argv);
/** simsched report FILE... [--metric M] [--format F] [--policies A,B] [--out FILE] (cli/sweep.c). */
int ss_cli_report(int argc, char **argv);

#endif

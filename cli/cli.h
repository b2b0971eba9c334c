/* cli/cli.h — commands implemented outside main.c. */
#ifndef SIMSCHED_CLI_H
#define SIMSCHED_CLI_H

/* simsched sweep --spec FILE --out FILE [--jobs N] [--shard K/N] [--resume] */
int ss_cli_sweep(int argc, char **argv);
/* simsched report FILE... [--metric M] [--format F] [--policies A,B] [--out FILE] */
int ss_cli_report(int argc, char **argv);

#endif

/* cli/cli.h — the commands of the simsched tool that live outside main.c. */
#ifndef SIMSCHED_CLI_H
#define SIMSCHED_CLI_H

/** simsched pelt (cli/pelt.c): argv[0] is "pelt". Returns the exit status. */
int ss_cli_pelt(int argc, char **argv);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands, bpftool style: `auditskip NAME ARGS...` runs do_NAME() with
 * argv[0] the command's name (counting's: the program's); each parses its
 * own options and returns the exit status.
 */
#ifndef __CLI_COMMANDS_H
#define __CLI_COMMANDS_H

struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary; /* one line, for auditskip --help */
};

/* main.c's table, NULL-terminated: counting's --help lists it. */
extern const struct cli_command cli_commands[];

int do_count(int argc, char **argv);
int do_rules(int argc, char **argv);
int do_calibrate(int argc, char **argv);
int do_advise(int argc, char **argv);
int do_profile(int argc, char **argv);
int do_whatif(int argc, char **argv);
int do_hotspots(int argc, char **argv);

#endif /* __CLI_COMMANDS_H */

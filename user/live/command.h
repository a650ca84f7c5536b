/* SPDX-License-Identifier: GPL-2.0 */
/* `-- COMMAND`: a child that execs only once it is being counted. */
#ifndef __COMMAND_H
#define __COMMAND_H

#include <stdbool.h>
#include <sys/types.h>

struct command {
	pid_t pid;
	int gate_fd; /* one byte on it lets the child exec; end of file makes it exit */
	int err_fd;  /* the child's exec errno, or EOF once exec succeeded */
};

/* Forks a child that waits at the gate; 0 or a negative errno. */
int command_spawn(struct command *c, char **argv);
/* Opens the gate; 0 once exec succeeded, else the negative exec errno. */
int command_release(struct command *c);
/* The child's exit status as a shell reports it (128+signal), or -1 while it runs. */
int command_poll(struct command *c, bool block);
/* Kills the child (at the gate or running) and reaps it; its status. */
int command_abort(struct command *c);

#endif /* __COMMAND_H */

// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>
#include "live/command.h"

#define COMMAND_GO 'g'

int command_spawn(struct command *c, char **argv)
{
	int gate[2], err[2];

	if (pipe2(gate, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return -errno;
	c->pid = fork();
	if (c->pid < 0) {
		int e = errno;

		close(gate[0]);
		close(gate[1]);
		close(err[0]);
		close(err[1]);
		c->pid = 0;
		return -e;
	}
	if (c->pid == 0) {
		char byte;
		int e;

		close(gate[1]);
		close(err[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		/*
		 * Only the loader's byte means "counted now": end of file means it
		 * died or gave up, and the command must not run uncounted.
		 */
		if (read(gate[0], &byte, 1) != 1 || byte != COMMAND_GO)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(gate[0]);
	close(err[1]);
	c->gate_fd = gate[1];
	c->err_fd = err[0];
	return 0;
}

int command_release(struct command *c)
{
	char go = COMMAND_GO;
	int e = 0;
	ssize_t n;

	if (write(c->gate_fd, &go, 1) != 1)
		return -errno;
	close(c->gate_fd);
	c->gate_fd = -1;
	do
		n = read(c->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->err_fd);
	c->err_fd = -1;
	return n == sizeof(e) ? -e : 0;
}

int command_poll(struct command *c, bool block)
{
	int status;
	pid_t r;

	do
		r = waitpid(c->pid, &status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r != c->pid)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int command_abort(struct command *c)
{
	if (c->gate_fd >= 0)
		close(c->gate_fd);
	if (c->err_fd >= 0)
		close(c->err_fd);
	c->gate_fd = c->err_fd = -1;
	if (c->pid <= 0)
		return -1;
	kill(c->pid, SIGKILL);
	return command_poll(c, true);
}

/*
 * pager.c - long outputs (a verify of 400 lines, kernels of a big run) go
 * through a pager when standard output is a terminal, as git does:
 * $PROFDB_PAGER, else $PAGER, else less with LESS=FRX (quit when the text
 * fits one screen, keep colours, leave the text on the screen).  Anything
 * that is not a terminal (a pipe, a file, CI) gets the output directly, and
 * --no-pager turns it off.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"

static pid_t pager_pid = -1;

/* Commands whose output is a progress line and a short summary. */
static int never_paged(const char *cmd)
{
	static const char *const direct[] = { "ingest", "push", "pull" };
	for (size_t i = 0; i < sizeof direct / sizeof direct[0]; i++)
		if (strcmp(cmd, direct[i]) == 0)
			return 1;
	return 0;
}

/* The table code sizes itself from the terminal; once stdout is the pipe to
 * the pager it cannot ask, so the width is handed on in $COLUMNS. */
static void keep_terminal_width(void)
{
	struct winsize ws;
	char cols[16];

	if (getenv("COLUMNS") || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0)
		return;
	snprintf(cols, sizeof cols, "%u", (unsigned)ws.ws_col);
	setenv("COLUMNS", cols, 1);
}

void cli_pager_start(const char *cmd)
{
	const char *pager = getenv("PROFDB_PAGER");
	int fd[2];

	if (!isatty(STDOUT_FILENO) || never_paged(cmd))
		return;
	if (!pager)
		pager = getenv("PAGER");
	if (!pager || !*pager)
		pager = "less";
	if (strcmp(pager, "cat") == 0)
		return;
	keep_terminal_width();
	setenv("LESS", "FRX", 0);
	if (pipe(fd) != 0)
		return; /* no pager is better than no output */
	fflush(stdout);
	pager_pid = fork();
	if (pager_pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return;
	}
	if (pager_pid == 0) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	dup2(fd[1], STDOUT_FILENO);
	close(fd[0]);
	close(fd[1]);
}

void cli_pager_finish(void)
{
	int status;

	if (pager_pid <= 0)
		return;
	fflush(stdout);
	fclose(stdout); /* the pager sees the end of its input */
	while (waitpid(pager_pid, &status, 0) < 0)
		;
	pager_pid = -1;
}

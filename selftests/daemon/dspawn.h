/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Starting a real vschedd for the programs that drive one from outside
 * (vssoak, vsmutate): a child whose standard output and error go to a log
 * file, appended to across the daemon's lives, so that one file tells a
 * whole run.
 */
#ifndef VS_SELFTESTS_DSPAWN_H
#define VS_SELFTESTS_DSPAWN_H

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* Fork and exec @argv[0] with its output appended to @log; the child's pid, -1 when fork fails. */
static inline pid_t dspawn_logged(const char *log, const char *const argv[])
{
	pid_t pid;
	int fd;

	fflush(NULL);
	pid = fork();
	if (pid)
		return pid;
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
		_exit(127);
	/* execv() does not change them; its prototype predates const. */
	execv(argv[0], (char *const *)argv);
	_exit(127);
}

#endif /* VS_SELFTESTS_DSPAWN_H */

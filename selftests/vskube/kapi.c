// SPDX-License-Identifier: Apache-2.0
/* The test API server for vskube's unit tests (kapi.h). */
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "kapi.h"

void kapi_init(struct kapi *k, const char *prefix)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->dir, sizeof(k->dir), "/tmp/%s-XXXXXX", prefix);
	cr_assert_not_null(mkdtemp(k->dir));
	snprintf(k->portfile, sizeof(k->portfile), "%s/port", k->dir);
}

void kapi_start(struct kapi *k, u32 bookmark_ms, char **server)
{
	char exe[PATH_MAX], bin[PATH_MAX + 32], url[64], every[16];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f = NULL;
	unsigned int port = 0;

	cr_assert_gt(n, 0);
	exe[n] = '\0';
	/* the tests are OBJ/selftests/vs-selftests, the server OBJ/selftests/kube/kapiserver */
	snprintf(bin, sizeof(bin), "%s/kube/kapiserver", dirname(exe));
	cr_assert_eq(access(bin, X_OK), 0, "no kapiserver at %s (make builds it)", bin);
	snprintf(every, sizeof(every), "%u", bookmark_ms);
	unlink(k->portfile);
	k->pid = fork();
	cr_assert_geq(k->pid, 0);
	if (!k->pid) {
		/* Its own process, not a shell's child: SIGTERM must reach it. */
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		if (bookmark_ms)
			execl(bin, bin, "--port-file", k->portfile, "--bookmark-interval", every,
			      (char *)NULL);
		else
			execl(bin, bin, "--port-file", k->portfile, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 200 && !(f = fopen(k->portfile, "r")); i++)
		usleep(20000);
	cr_assert_not_null(f, "kapiserver did not start");
	cr_assert_eq(fscanf(f, "%u", &port), 1);
	fclose(f);
	snprintf(url, sizeof(url), "http://127.0.0.1:%u", port);
	free(*server);
	*server = strdup(url);
	cr_assert_not_null(*server);
}

void kapi_stop(struct kapi *k)
{
	int status;

	if (k->pid <= 0)
		return;
	kill(k->pid, SIGTERM);
	waitpid(k->pid, &status, 0);
	k->pid = 0;
}

void kapi_fini(struct kapi *k)
{
	char cmd[128];

	kapi_stop(k);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", k->dir);
	cr_assert_eq(system(cmd), 0);
}

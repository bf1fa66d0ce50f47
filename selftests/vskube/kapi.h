/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The test API server (selftests/kube/, Documentation/kube-test-apiserver.md)
 * for vskube's unit tests: started in its own process, beside the test
 * binary in the object tree, stopped with SIGTERM. Failures are the
 * test's (Criterion assertions).
 */
#ifndef SELFTESTS_VSKUBE_KAPI_H
#define SELFTESTS_VSKUBE_KAPI_H

#include <sys/types.h>

#include "core/compiler.h"

struct kapi {
	pid_t pid;			/* 0: not running */
	char dir[64];			/* its port file's, removed by kapi_fini() */
	char portfile[128];
};

/* A directory for the server's port file, named after @prefix ("kinf-test"). */
void kapi_init(struct kapi *k, const char *prefix);

/*
 * Start kapiserver (bookmarks every @bookmark_ms, 0: its default) and put
 * its URL in *@server, freeing what was there.
 */
void kapi_start(struct kapi *k, u32 bookmark_ms, char **server);

/* Stop it, if it runs. */
void kapi_stop(struct kapi *k);

/* Stop it and remove the directory. */
void kapi_fini(struct kapi *k);

#endif /* SELFTESTS_VSKUBE_KAPI_H */

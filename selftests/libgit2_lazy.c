// SPDX-License-Identifier: Apache-2.0
/*
 * libgit2, initialised only when Criterion first needs it.
 *
 * Criterion calls git_libgit2_init() as each of its processes starts: the
 * runner and every test's own (each test runs in a process of its own).
 * It uses libgit2 for one thing, the diff of the two sides of a failed
 * assertion. Debian's libgit2 is built on mbedtls, and its initialisation
 * reads and parses the system's whole CA bundle: 56% of the instructions
 * a test process runs before its test, and most of what makes each of the
 * unit tests cost seconds under valgrind (Documentation/build.md).
 *
 * Defined here, in the test binary, the three functions Criterion imports
 * from libgit2 are found before libgit2's own (the executable comes first
 * in the dynamic linker's search). Initialisation and shutdown are only
 * counted; the first diff initialises libgit2 for real, and the last
 * shutdown after that shuts it down.
 */
#include <dlfcn.h>
#include <git2/diff.h>
#include <git2/global.h>
#include <stdio.h>
#include <stdlib.h>

#include "libgit2_lazy.h"

static int lazy_inits;		/* git_libgit2_init() calls not yet shut down */
static bool lazy_real;		/* libgit2's own init has run */

/* libgit2's definition of @name; the process cannot go on without it. */
static void *real(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);

	if (!fn) {
		fprintf(stderr, "libgit2_lazy: no %s after the test binary: %s\n", name, dlerror());
		abort();
	}
	return fn;
}

int git_libgit2_init(void)
{
	return ++lazy_inits;
}

int git_libgit2_shutdown(void)
{
	if (lazy_inits == 0)
		return 0;		/* nothing to shut down */
	if (--lazy_inits == 0 && lazy_real) {
		int (*shutdown)(void) = real("git_libgit2_shutdown");

		lazy_real = false;
		shutdown();
	}
	return lazy_inits;
}

int git_diff_buffers(const void *old_buffer, size_t old_len, const char *old_as_path,
		     const void *new_buffer, size_t new_len, const char *new_as_path,
		     const git_diff_options *options, git_diff_file_cb file_cb,
		     git_diff_binary_cb binary_cb, git_diff_hunk_cb hunk_cb,
		     git_diff_line_cb line_cb, void *payload)
{
	int (*diff)(const void *, size_t, const char *, const void *, size_t, const char *,
		    const git_diff_options *, git_diff_file_cb, git_diff_binary_cb,
		    git_diff_hunk_cb, git_diff_line_cb, void *);

	if (!lazy_real) {
		int (*init)(void) = real("git_libgit2_init");
		int ret = init();

		if (ret < 0)
			return ret;
		lazy_real = true;
	}
	diff = real("git_diff_buffers");
	return diff(old_buffer, old_len, old_as_path, new_buffer, new_len, new_as_path,
		    options, file_cb, binary_cb, hunk_cb, line_cb, payload);
}

bool libgit2_lazy_initialised(void)
{
	return lazy_real;
}

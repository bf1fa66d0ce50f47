// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for libgit2_lazy.c: a test process starts without libgit2's own
 * initialisation (the CA bundle it parses), and a diff, the one thing
 * Criterion asks of libgit2, still works and initialises it first.
 */
#include <criterion/criterion.h>
#include <git2/diff.h>
#include <stdio.h>
#include <string.h>

#include "libgit2_lazy.h"

Test(libgit2_lazy, a_test_process_starts_without_libgit2s_own_initialisation)
{
	cr_assert(!libgit2_lazy_initialised());
}

struct lines {
	char text[64];
	size_t len;
};

static int take_line(const git_diff_delta *delta, const git_diff_hunk *hunk,
		     const git_diff_line *line, void *payload)
{
	struct lines *l = payload;
	int n;

	(void)delta;
	(void)hunk;
	n = snprintf(l->text + l->len, sizeof(l->text) - l->len, "%c%.*s", line->origin,
		     (int)line->content_len, line->content);
	cr_assert(n > 0 && (size_t)n < sizeof(l->text) - l->len);
	l->len += (size_t)n;
	return 0;
}

Test(libgit2_lazy, the_first_diff_initialises_libgit2_and_diffs)
{
	static const char old[] = "a\nb\n", new[] = "a\nc\n";
	struct lines l = { .len = 0 };

	cr_assert_eq(git_diff_buffers(old, strlen(old), "old", new, strlen(new), "new", NULL,
				      NULL, NULL, NULL, take_line, &l), 0);
	cr_assert(libgit2_lazy_initialised());
	cr_assert_str_eq(l.text, " a\n-b\n+c\n");
}

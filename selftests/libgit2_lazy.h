/* SPDX-License-Identifier: Apache-2.0 */
/* libgit2, initialised only when Criterion first diffs (libgit2_lazy.c). */
#ifndef SELFTESTS_LIBGIT2_LAZY_H
#define SELFTESTS_LIBGIT2_LAZY_H

#include <stdbool.h>

/* Whether libgit2's own initialisation has run in this process. */
bool libgit2_lazy_initialised(void);

#endif

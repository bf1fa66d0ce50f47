/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Name tables for the core's enums. Every enum the outside world writes as
 * text (task statuses, PodGroup phases, queue states...) is a table of
 * names indexed by value; these two helpers look up either way so that each
 * enum's parse and name functions are one line each.
 */
#ifndef VS_CORE_ENUM_H
#define VS_CORE_ENUM_H

#include "core/err.h"

/* names[v] for v < nr, or "?" for anything else. */
const char *vs_enum_name(const char *const *names, unsigned int nr, unsigned int v);

/*
 * The index of @s in @names, or -EINVAL with a message listing the accepted
 * names after "unknown @what".
 */
int vs_enum_parse(const char *const *names, unsigned int nr, const char *s,
		  const char *what, struct vs_err *err);

#endif /* VS_CORE_ENUM_H */

// SPDX-License-Identifier: Apache-2.0
/*
 * Lookups in enum name tables. See enum.h.
 */
#include <stdio.h>
#include <string.h>

#include "core/enum.h"

const char *vs_enum_name(const char *const *names, unsigned int nr, unsigned int v)
{
	return v < nr && names[v] ? names[v] : "?";
}

int vs_enum_parse(const char *const *names, unsigned int nr, const char *s,
		  const char *what, struct vs_err *err)
{
	char list[VS_ERR_MSG_MAX];
	size_t len = 0;

	for (unsigned int i = 0; i < nr; i++)
		if (names[i] && s && !strcmp(s, names[i]))
			return (int)i;

	list[0] = '\0';
	for (unsigned int i = 0; i < nr && len < sizeof(list); i++) {
		if (!names[i])
			continue;
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					len ? ", " : "", names[i]);
	}
	return vs_err_set(err, EINVAL, "unknown %s \"%s\" (one of: %s)", what,
			  s ? s : "", list);
}

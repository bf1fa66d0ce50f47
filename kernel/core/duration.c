// SPDX-License-Identifier: Apache-2.0
/*
 * Go's durations, as Volcano's and Kubernetes' flags take them: vschedd's
 * --period, vskube's leader election timings.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "core/duration.h"

static const struct {
	const char *name;
	u64 ns;
} duration_units[] = {
	{ "ns", 1 },
	{ "us", 1000 },
	{ "\u00b5s", 1000 },		/* micro sign, as Go accepts */
	{ "\u03bcs", 1000 },		/* Greek mu */
	{ "ms", 1000000 },
	{ "s", 1000000000ull },
	{ "m", 60 * 1000000000ull },
	{ "h", 3600 * 1000000000ull },
};

static u64 duration_unit(const char *u, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(duration_units); i++)
		if (strlen(duration_units[i].name) == len && !memcmp(duration_units[i].name, u, len))
			return duration_units[i].ns;
	return 0;
}

/* As Go's time.ParseDuration, without negative durations. */
int vs_parse_duration(const char *s, u32 max_ms, u32 *out, const char **why)
{
	const unsigned __int128 limit = (unsigned __int128)max_ms * 1000000;
	unsigned __int128 total = 0;
	const char *p = s;

	if (*p == '+')
		p++;
	if (!strcmp(p, "0")) {
		*out = 0;
		return 0;
	}
	if (!*p) {
		*why = "empty";
		return -EINVAL;
	}
	while (*p) {
		unsigned __int128 whole = 0, frac = 0, scale = 1;
		bool digits = false;
		const char *unit;
		u64 unit_ns;

		for (; isdigit((unsigned char)*p); p++, digits = true) {
			whole = whole * 10 + (unsigned)(*p - '0');
			if (whole > limit) {
				*why = "too long";
				return -ERANGE;
			}
		}
		if (*p == '.') {
			/* Digits past the 18th cannot change a whole number of nanoseconds. */
			for (p++; isdigit((unsigned char)*p); p++, digits = true) {
				if (scale < 1000000000000000000ull) {
					frac = frac * 10 + (unsigned)(*p - '0');
					scale *= 10;
				}
			}
		}
		if (!digits) {
			*why = "a number is missing";
			return -EINVAL;
		}
		for (unit = p; *p && !isdigit((unsigned char)*p) && *p != '.'; p++)
			;
		if (unit == p) {
			*why = "a unit is missing (ns, us, ms, s, m, h)";
			return -EINVAL;
		}
		unit_ns = duration_unit(unit, (size_t)(p - unit));
		if (!unit_ns) {
			*why = "unknown unit (ns, us, ms, s, m, h)";
			return -EINVAL;
		}
		total += whole * unit_ns + frac * unit_ns / scale;
		if (total > limit) {
			*why = "too long";
			return -ERANGE;
		}
	}
	if (total % 1000000) {
		*why = "not a whole number of milliseconds";
		return -EINVAL;
	}
	*out = (u32)(total / 1000000);
	return 0;
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Go's durations: see duration.h.
 *
 * A duration is terms of a decimal number and a unit ("1h", "30m",
 * "1.5s"). Everything is counted in nanoseconds in 64 bits: the largest
 * duration asked for (a u32 of milliseconds, under 5e15 ns) leaves room, and
 * a product or sum that would not fit is past it anyway. A term's fraction
 * is converted exactly, rounded down to the nanosecond as Go's integer
 * arithmetic would: read from its last digit to its first, each step
 * divides what follows by ten, and floor((d + floor(x)) / 10) is
 * floor((d + x) / 10), so no intermediate loses a nanosecond.
 */
#include <errno.h>
#include <string.h>

#include "lib/duration.h"

#define NS_PER_US	1000ull
#define NS_PER_MS	(1000 * NS_PER_US)
#define NS_PER_S	(1000 * NS_PER_MS)

/* Past the 18th, a fraction's digits are below a nanosecond of any unit. */
#define FRACTION_DIGITS_MAX	18

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The nanoseconds in one @unit (@len bytes, not terminated), 0 for a unit
 * Go does not know. Microseconds are "us", or "µs" with the micro sign or
 * the Greek mu, as Go accepts them.
 */
static u64 unit_ns(const char *unit, size_t len)
{
	const size_t pre = len - 1;	/* what comes before a final 's' */

	if (len == 1 && *unit == 'h')
		return 3600 * NS_PER_S;
	if (len == 1 && *unit == 'm')
		return 60 * NS_PER_S;
	if (!len || unit[pre] != 's')
		return 0;
	if (!pre)
		return NS_PER_S;
	if (pre == 1 && *unit == 'm')
		return NS_PER_MS;
	if (pre == 1 && *unit == 'n')
		return 1;
	if ((pre == 1 && *unit == 'u') ||
	    (pre == strlen("\u00b5") && !memcmp(unit, "\u00b5", pre)) ||
	    (pre == strlen("\u03bc") && !memcmp(unit, "\u03bc", pre)))
		return NS_PER_US;
	return 0;
}

/* floor(0.DIGITS * @unit), for the @nr digits at @digits. */
static u64 fraction_ns(const char *digits, size_t nr, u64 unit)
{
	u64 ns = 0;

	while (nr--)
		ns = ((u64)(digits[nr] - '0') * unit + ns) / 10;
	return ns;
}

/* One term at *@p, added to *@total; *@p is left after its unit. */
static int add_term(const char **p, u64 limit, u64 *total, struct vsnl_err *err)
{
	const char *s = *p, *frac = NULL, *unit;
	size_t nr_frac = 0;
	u64 whole = 0, ns, scale;
	bool has_whole = is_digit(*s);

	while (is_digit(*s)) {
		whole = 10 * whole + (u64)(*s++ - '0');
		/* Every unit is a nanosecond or more: the term is past the limit already. */
		if (whole > limit)
			return vsnl_err_set(err, ERANGE, "too long");
	}
	if (*s == '.') {
		frac = ++s;
		while (is_digit(*s))
			s++;
		nr_frac = (size_t)(s - frac);
	}
	if (!has_whole && !nr_frac)
		return vsnl_err_set(err, EINVAL, "a number is missing");
	unit = s;
	while (*s && *s != '.' && !is_digit(*s))
		s++;
	if (s == unit)
		return vsnl_err_set(err, EINVAL, "a unit is missing (ns, us, ms, s, m, h)");
	scale = unit_ns(unit, (size_t)(s - unit));
	if (!scale)
		return vsnl_err_set(err, EINVAL, "unknown unit (ns, us, ms, s, m, h)");
	if (nr_frac > FRACTION_DIGITS_MAX)
		nr_frac = FRACTION_DIGITS_MAX;
	if (__builtin_mul_overflow(whole, scale, &ns) ||
	    __builtin_add_overflow(ns, fraction_ns(frac, nr_frac, scale), &ns) ||
	    __builtin_add_overflow(*total, ns, total) || *total > limit)
		return vsnl_err_set(err, ERANGE, "too long");
	*p = s;
	return 0;
}

int vsnl_parse_duration(const char *s, u32 max_ms, u32 *out, struct vsnl_err *err)
{
	const u64 limit = max_ms * NS_PER_MS;
	u64 total = 0;
	int ret;

	if (*s == '+')
		s++;
	if (!*s)
		return vsnl_err_set(err, EINVAL, "empty");
	if (!strcmp(s, "0")) {
		*out = 0;
		return 0;
	}
	do {
		ret = add_term(&s, limit, &total, err);
		if (ret)
			return ret;
	} while (*s);
	if (total % NS_PER_MS)
		return vsnl_err_set(err, EINVAL, "not a whole number of milliseconds");
	*out = (u32)(total / NS_PER_MS);
	return 0;
}

// SPDX-License-Identifier: Apache-2.0
/*
 * Kubernetes' quantities in the protocol's units: see quantity.h. The
 * grammar is resource.Quantity's: a sign, digits with at most one decimal
 * point, then a binary suffix (Ki..Ei), a decimal one (n, u, m, k..E) or an
 * exponent (e3, E-2). The value is computed exactly, never in floating
 * point, and rounded up to the unit as Kubernetes rounds.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/quantity.h"

/* Text in a message: at most this much of it, what is not printable as '?'. */
#define SHOWN_MAX	80

static const char *shown(char *buf, const char *s, size_t len)
{
	size_t n = len < SHOWN_MAX ? len : SHOWN_MAX;

	for (size_t i = 0; i < n; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f ? '?' : s[i];
	strcpy(buf + n, n < len ? "..." : "");
	return buf;
}

__printf(4, 5)
static int refuse(struct vsnl_err *err, const char *s, size_t len, const char *fmt, ...)
{
	char why[128], text[SHOWN_MAX + 4];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return vsnl_err_set(err, EINVAL, "invalid quantity \"%s\": %s", shown(text, s, len), why);
}

/* A suffix: the power of ten and the power of two it multiplies by. */
static const struct {
	const char *name;
	int exp10;
	unsigned int exp2;
} suffixes[] = {
	{ "Ki", 0, 10 }, { "Mi", 0, 20 }, { "Gi", 0, 30 }, { "Ti", 0, 40 }, { "Pi", 0, 50 },
	{ "Ei", 0, 60 }, { "n", -9, 0 }, { "u", -6, 0 }, { "m", -3, 0 }, { "k", 3, 0 },
	{ "M", 6, 0 }, { "G", 9, 0 }, { "T", 12, 0 }, { "P", 15, 0 }, { "E", 18, 0 },
};

/*
 * The @slen bytes at @sfx after the number: a suffix of the table (first,
 * so that "1E" is an exa and "1E3" an exponent), else e or E, a sign and
 * digits, bounded as Kubernetes keeps an exponent in an int32.
 */
static int read_suffix(const char *s, size_t len, const char *sfx, size_t slen, s64 *exp10,
		       unsigned int *exp2, struct vsnl_err *err)
{
	char text[SHOWN_MAX + 4];
	size_t i = 1;
	s64 e = 0;
	bool minus = false;

	*exp10 = 0;
	*exp2 = 0;
	if (!slen)
		return 0;
	for (size_t k = 0; k < ARRAY_SIZE(suffixes); k++) {
		if (strlen(suffixes[k].name) == slen && !memcmp(suffixes[k].name, sfx, slen)) {
			*exp10 = suffixes[k].exp10;
			*exp2 = suffixes[k].exp2;
			return 0;
		}
	}
	if (*sfx != 'e' && *sfx != 'E')
		return refuse(err, s, len, "unknown suffix \"%s\"", shown(text, sfx, slen));
	if (i < slen && (sfx[i] == '+' || sfx[i] == '-'))
		minus = sfx[i++] == '-';
	if (i == slen)
		return refuse(err, s, len, "exponent \"%s\" has no digits", shown(text, sfx, slen));
	for (; i < slen; i++) {
		if (sfx[i] < '0' || sfx[i] > '9')
			return refuse(err, s, len, "unknown suffix \"%s\"", shown(text, sfx, slen));
		e = e * 10 + (sfx[i] - '0');
		if (e > INT32_MAX)
			return refuse(err, s, len, "exponent out of range");
	}
	*exp10 = minus ? -e : e;
	return 0;
}

/* The mantissa's digits, the integer part's then the fraction's, as one run. */
struct mantissa {
	const char *whole, *frac;
	size_t nr_whole, nr;
};

static unsigned int digit(const struct mantissa *m, size_t k)
{
	return (unsigned int)((k < m->nr_whole ? m->whole[k] : m->frac[k - m->nr_whole]) - '0');
}

/*
 * ceil(0.DIGITS * 10^@point * 2^@exp2) into *@out, or -ERANGE past
 * INT64_MAX - 1. The digits before the point make a 128-bit integer,
 * checked as it grows; the ones after it are multiplied by 2^@exp2 as on
 * paper, from the last up, so that what carries out of the first joins the
 * integer and any nonzero digit left over rounds it up. A digit shifted by
 * at most 60 plus a carry below 2^60 fits in 64 bits.
 */
static int mantissa_value(const struct mantissa *m, s64 point, unsigned int exp2, s64 *out)
{
	const unsigned __int128 max = INT64_MAX - 1;
	size_t split = point <= 0 ? 0 : (u64)point < m->nr ? (size_t)point : m->nr;
	unsigned __int128 v = 0;
	bool inexact = false;
	u64 carry = 0;

	for (size_t k = 0; k < split; k++) {
		v = v * 10 + digit(m, k);
		if (v > max)
			return -ERANGE;
	}
	for (s64 z = (s64)m->nr; z < point && v; z++) {
		v *= 10;
		if (v > max)
			return -ERANGE;
	}
	v <<= exp2;
	for (size_t k = m->nr; k > split; k--) {
		u64 t = ((u64)digit(m, k - 1) << exp2) + carry;

		inexact |= t % 10 != 0;
		carry = t / 10;
	}
	/* zeros between the point and the first digit: they only shift the carry */
	for (s64 z = point; z < 0 && carry; z++) {
		inexact |= carry % 10 != 0;
		carry /= 10;
	}
	v += carry + inexact;
	if (v > max)
		return -ERANGE;
	*out = (s64)v;
	return 0;
}

int vsnl_quantity_parse(const char *s, size_t len, unsigned int milli, s64 *out,
			struct vsnl_err *err)
{
	struct mantissa m = { NULL, NULL, 0, 0 };
	unsigned int exp2;
	bool minus = false;
	size_t i = 0;
	s64 exp10, v;
	int ret;

	if (!len)
		return refuse(err, s, len, "empty");
	for (size_t k = 0; k < len; k++)
		if (s[k] == ' ' || (s[k] >= '\t' && s[k] <= '\r'))
			return refuse(err, s, len, "contains whitespace");
	if (s[i] == '+' || s[i] == '-')
		minus = s[i++] == '-';
	if (i < len && (s[i] == '+' || s[i] == '-'))
		return refuse(err, s, len, "more than one sign");
	m.whole = s + i;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	m.nr_whole = (size_t)(s + i - m.whole);
	m.nr = m.nr_whole;
	if (i < len && s[i] == '.') {
		m.frac = s + ++i;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		m.nr += (size_t)(s + i - m.frac);
		if (i < len && s[i] == '.')
			return refuse(err, s, len, "more than one decimal point");
	}
	if (!m.nr)
		return refuse(err, s, len, "no digits");
	ret = read_suffix(s, len, s + i, len - i, &exp10, &exp2, err);
	if (ret)
		return ret;
	/* "-0" is zero, as Sign() says in Kubernetes; any other negative is refused */
	for (size_t k = 0; minus && k < m.nr; k++)
		if (digit(&m, k))
			return refuse(err, s, len, "negative values are not allowed");
	/* |exp10| <= INT32_MAX and the lengths are a string's: no overflow */
	if (mantissa_value(&m, (s64)m.nr_whole + exp10 + milli, exp2, &v))
		return refuse(err, s, len, "quantity too large");
	*out = v;
	return 0;
}

unsigned int vsnl_res_milli(const char *dim)
{
	return strcmp(dim, "memory") && strcmp(dim, "pods") ? 3 : 0;
}

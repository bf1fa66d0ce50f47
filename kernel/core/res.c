// SPDX-License-Identifier: Apache-2.0
/*
 * Resource vectors and Kubernetes quantities. This file keeps the tables
 * of dimension names (cpu, memory and pods fixed, scalars registered on
 * first use after the rules Kubernetes and Volcano's IsScalarResourceName
 * apply), the exact parsing of quantity text into a dimension's integer units
 * and its canonical printing back, and the arithmetic and comparisons of
 * Volcano's pkg/scheduler/api/resource_info.go. Each comparison mirrors its Go
 * function predicate for predicate, including which side's scalar map it
 * walks and how it treats a scalar absent from one side, because the
 * scheduler's decisions depend on those asymmetries. Volcano's nil and empty
 * scalar maps are both "no bit in @present" here.
 *
 * Invariant kept by every function here: a scalar dimension whose bit is not
 * in @present holds 0, so that vectors compare and copy as plain memory.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <inttypes.h>

#include "core/res.h"
#include "core/resvec.h"

BUILD_BUG_ON(VS_RES_MAX > 32);	/* @present and vs_resmask_t are 32 bits */
BUILD_BUG_ON(VS_RES_PODS != 2);

/* "requests." + prefix must stay a DNS subdomain (IsExtendedResourceName). */
#define REQUESTS_PREFIX		"requests."
#define QUALIFIED_NAME_MAX	63

#define SCALARS_MASK	((vs_resmask_t)~VS_RES_ALWAYS)

/* ---- the dimension name table ---- */

static const char *const fixed_dims[] = {
	[VS_RES_CPU] = "cpu",
	[VS_RES_MEMORY] = "memory",
	[VS_RES_PODS] = "pods",
};

void vs_res_dims_init(struct vs_res_dims *dims)
{
	memset(dims, 0, sizeof(*dims));
	for (unsigned int d = 0; d < ARRAY_SIZE(fixed_dims); d++) {
		dims->len[d] = (u8)strlen(fixed_dims[d]);
		memcpy(dims->name[d], fixed_dims[d], dims->len[d]);
	}
	dims->n = ARRAY_SIZE(fixed_dims);
}

int vs_res_dim_lookup(const struct vs_res_dims *dims, const char *name, size_t len)
{
	unsigned int d;

	for (d = 0; d < dims->n; d++)
		if (dims->len[d] == len && !memcmp(dims->name[d], name, len))
			return d;
	return -ENOENT;
}

void vs_res_dims_rewind(struct vs_res_dims *dims, unsigned int mark)
{
	unsigned int d;

	if (mark < VS_RES_PODS + 1)
		mark = VS_RES_PODS + 1;
	for (d = mark; d < dims->n; d++) {
		dims->len[d] = 0;
		dims->name[d][0] = '\0';
	}
	if (mark < dims->n)
		dims->n = mark;
}

unsigned int vs_res_dim_milli(unsigned int dim)
{
	/* NewResource: Value() for memory and pods, MilliValue() for the rest */
	return dim == VS_RES_MEMORY || dim == VS_RES_PODS ? 0 : 3;
}

/*
 * Error messages quote text from the outside world: cut it to a readable
 * length and show control bytes as '?', so that a message is always one
 * printable line.
 */
#define QUOTE_MAX	80

struct quoted {
	char s[QUOTE_MAX + 4];
};

static const char *quote(struct quoted *q, const char *s, size_t len)
{
	size_t i, n = len < QUOTE_MAX ? len : QUOTE_MAX;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		q->s[i] = c < 0x20 || c >= 0x7f ? '?' : c;
	}
	if (n < len) {
		memcpy(q->s + n, "...", 3);
		n += 3;
	}
	q->s[n] = '\0';
	return q->s;
}

__printf(4, 5)
static int name_err(struct vs_err *err, const char *name, size_t len,
		    const char *fmt, ...)
{
	char reason[160];
	struct quoted q;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	return vs_err_set(err, EINVAL, "invalid resource name \"%s\": %s",
			  quote(&q, name, len), reason);
}

static bool has_prefix(const char *s, size_t len, const char *prefix)
{
	size_t plen = strlen(prefix);

	return len >= plen && !memcmp(s, prefix, plen);
}

static bool contains(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static bool is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/*
 * RFC 1123 subdomain: labels of lowercase letters, digits and '-', joined by
 * '.', each starting and ending with a letter or digit.
 */
static bool is_dns_subdomain(const char *s, size_t len)
{
	size_t i;

	if (!len || len > VS_RES_NAME_MAX)
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (is_lower_alnum(c))
			continue;
		if (i == 0 || i == len - 1)
			return false;
		if (c == '.' && is_lower_alnum(s[i - 1]) && is_lower_alnum(s[i + 1]))
			continue;
		if (c != '-')
			return false;
	}
	return true;
}

/* The name part of a qualified name: [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])? */
static bool is_qualified_part(const char *s, size_t len)
{
	size_t i;

	if (!len || len > QUALIFIED_NAME_MAX)
		return false;
	if (!is_alnum(s[0]) || !is_alnum(s[len - 1]))
		return false;
	for (i = 1; i + 1 < len; i++)
		if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

static int check_chars(const char *name, size_t len, struct vs_err *err)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = name[i];

		if (is_alnum(c) || c == '-' || c == '_' || c == '.' || c == '/')
			continue;
		if (c >= 0x20 && c < 0x7f)
			return name_err(err, name, len, "invalid character '%c'", c);
		return name_err(err, name, len, "invalid character 0x%02x", c);
	}
	return 0;
}

/*
 * A name with a domain prefix. Volcano's IsScalarResourceName accepts it as an
 * extended resource (not in *kubernetes.io/, no "requests." prefix, and
 * "requests." + name still a qualified name) or as a prefixed native resource
 * (anything in *kubernetes.io/). Both must first be a Kubernetes qualified
 * name: DNS-subdomain prefix, '/', a name part of at most 63 characters.
 */
static int check_prefixed(const char *name, size_t len, const char *slash,
			  struct vs_err *err)
{
	size_t plen = slash - name;
	const char *part = slash + 1;
	size_t part_len = len - plen - 1;

	if (memchr(part, '/', part_len))
		return name_err(err, name, len, "more than one '/'");
	if (!is_dns_subdomain(name, plen))
		return name_err(err, name, len,
				"prefix \"%.*s\" is not a DNS subdomain (lowercase letters, digits, '-' and '.')",
				(int)(plen < 64 ? plen : 64), name);
	if (!is_qualified_part(part, part_len))
		return name_err(err, name, len,
				"\"%.*s\" must be 1-63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit",
				(int)(part_len < 64 ? part_len : 64), part);
	if (has_prefix(name, len, "count/"))
		return name_err(err, name, len,
				"an object-count quota (\"count/...\"), not a resource");
	if (contains(name, len, "kubernetes.io/"))
		return 0;
	if (has_prefix(name, len, REQUESTS_PREFIX))
		return name_err(err, name, len,
				"\"requests.\" names belong to resource quotas, not resources");
	if (plen + strlen(REQUESTS_PREFIX) > VS_RES_NAME_MAX)
		return name_err(err, name, len,
				"prefix longer than %zu characters, too long for an extended resource",
				VS_RES_NAME_MAX - strlen(REQUESTS_PREFIX));
	return 0;
}

/* A name without prefix: only the few Kubernetes defines are resources. */
static int check_unprefixed(const char *name, size_t len, struct vs_err *err)
{
	static const char hugepages[] = "hugepages-";
	static const char volumes[] = "attachable-volumes-";
	s64 size;

	if (!is_qualified_part(name, len))
		return name_err(err, name, len,
				"must be at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit");
	if (len == strlen("ephemeral-storage") &&
	    !memcmp(name, "ephemeral-storage", len))
		return 0;
	if (has_prefix(name, len, hugepages)) {
		size_t off = sizeof(hugepages) - 1;

		if (vs_quantity_parse(name + off, len - off, 0, &size, NULL) < 0 ||
		    size <= 0)
			return name_err(err, name, len,
					"huge page size \"%.*s\" is not a positive quantity",
					(int)(len - off), name + off);
		return 0;
	}
	if (has_prefix(name, len, volumes) && len > sizeof(volumes) - 1)
		return 0;
	return name_err(err, name, len,
			"not a resource Kubernetes defines; extended resources need a domain prefix, as in \"example.com/%.*s\"",
			(int)(len < 64 ? len : 64), name);
}

static int check_scalar_name(const char *name, size_t len, struct vs_err *err)
{
	const char *slash;
	int ret;

	if (!len)
		return vs_err_set(err, EINVAL, "invalid resource name \"\": empty");
	if (len > VS_RES_NAME_MAX)
		return name_err(err, name, len, "longer than %d characters",
				VS_RES_NAME_MAX);
	ret = check_chars(name, len, err);
	if (ret)
		return ret;
	slash = memchr(name, '/', len);
	if (slash)
		return check_prefixed(name, len, slash, err);
	return check_unprefixed(name, len, err);
}

int vs_res_dim_get(struct vs_res_dims *dims, const char *name, size_t len,
		   struct vs_err *err)
{
	struct quoted q;
	int d, ret;

	d = vs_res_dim_lookup(dims, name, len);
	if (d >= 0)
		return d;
	ret = check_scalar_name(name, len, err);
	if (ret)
		return ret;
	if (dims->n >= VS_RES_MAX)
		return vs_err_set(err, ENOSPC,
				  "resource \"%s\": no free dimension, all %d are registered",
				  quote(&q, name, len), VS_RES_MAX);
	d = dims->n;
	memcpy(dims->name[d], name, len);
	dims->name[d][len] = '\0';
	dims->len[d] = len;
	dims->n++;
	return d;
}

/* ---- quantities ---- */

__printf(4, 5)
static int qty_err(struct vs_err *err, const char *s, size_t len,
		   const char *fmt, ...)
{
	char reason[128];
	struct quoted q;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	return vs_err_set(err, EINVAL, "invalid quantity \"%s\": %s",
			  quote(&q, s, len), reason);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Kubernetes' suffixes: a power of ten and a power of two each. */
static const struct {
	char s[3];
	s8 exp10;
	u8 exp2;
} qty_suffixes[] = {
	{ "Ki", 0, 10 }, { "Mi", 0, 20 }, { "Gi", 0, 30 },
	{ "Ti", 0, 40 }, { "Pi", 0, 50 }, { "Ei", 0, 60 },
	{ "n", -9, 0 }, { "u", -6, 0 }, { "m", -3, 0 },
	{ "k", 3, 0 }, { "M", 6, 0 }, { "G", 9, 0 },
	{ "T", 12, 0 }, { "P", 15, 0 }, { "E", 18, 0 },
};

/*
 * The suffix, one of the table's or an exponent e/E[+-]digits. The table is
 * tried first, so "1E" is an exa and "1E3" an exponent, as in Kubernetes.
 * Exponents are bounded as Kubernetes keeps them in an int32.
 */
static int parse_suffix(const char *s, size_t len, const char *sfx,
			size_t slen, s64 *exp10, unsigned int *exp2,
			struct vs_err *err)
{
	struct quoted q;
	bool neg = false;
	s64 e = 0;
	size_t i;

	*exp10 = 0;
	*exp2 = 0;
	if (!slen)
		return 0;
	for (i = 0; i < ARRAY_SIZE(qty_suffixes); i++) {
		if (strlen(qty_suffixes[i].s) == slen &&
		    !memcmp(qty_suffixes[i].s, sfx, slen)) {
			*exp10 = qty_suffixes[i].exp10;
			*exp2 = qty_suffixes[i].exp2;
			return 0;
		}
	}
	if (sfx[0] != 'e' && sfx[0] != 'E')
		return qty_err(err, s, len, "unknown suffix \"%s\"",
			       quote(&q, sfx, slen));
	i = 1;
	if (i < slen && (sfx[i] == '+' || sfx[i] == '-'))
		neg = sfx[i++] == '-';
	if (i == slen)
		return qty_err(err, s, len, "exponent \"%s\" has no digits",
			       quote(&q, sfx, slen));
	for (; i < slen; i++) {
		if (!is_digit(sfx[i]))
			return qty_err(err, s, len, "unknown suffix \"%s\"",
				       quote(&q, sfx, slen));
		e = e * 10 + (sfx[i] - '0');
		if (e > INT32_MAX)
			return qty_err(err, s, len, "exponent out of range");
	}
	*exp10 = neg ? -e : e;
	return 0;
}

/* The digits of a number, integer part then fraction, as one string. */
struct digits {
	const char *ip;
	size_t ilen;
	const char *fp;
};

static inline unsigned int digit_at(const struct digits *d, size_t k)
{
	return (k < d->ilen ? d->ip[k] : d->fp[k - d->ilen]) - '0';
}

/*
 * The value is the digit string D = int||frac with its decimal point at
 * @point (after the first @point digits; it may lie beyond either end), times
 * 2^@exp2. Computes ceil(value) exactly, or -ERANGE past INT64_MAX - 1 (the
 * largest finite amount: INT64_MAX is VS_RES_INF).
 *
 * The integer part accumulates in 128 bits and is checked at every digit. The
 * fraction is multiplied by 2^exp2 from its last digit up, as by hand: each
 * step keeps one digit and carries the rest, the final carry joins the integer
 * part and any digit left nonzero rounds up. Digits times 2^60 plus a carry
 * below 2^60 stay under 2^64, so 64 bits suffice for the fraction.
 */
static int qty_value(const char *ip, size_t ilen, const char *fp, size_t flen,
		     s64 point, unsigned int exp2, s64 *out)
{
	const unsigned __int128 limit = VS_RES_INF - 1;
	const struct digits dg = { ip, ilen, fp };
	size_t n = ilen + flen, k, start;
	unsigned __int128 acc = 0;
	bool rest = false;
	u64 carry = 0;
	s64 z;

	start = point <= 0 ? 0 : (u64)point < n ? (size_t)point : n;
	for (k = 0; k < start; k++) {
		acc = acc * 10 + digit_at(&dg, k);
		if (acc > limit)
			return -ERANGE;
	}
	/* zeros past the last digit: at most 19 before acc overflows */
	for (z = n; z < point && acc; z++) {
		acc *= 10;
		if (acc > limit)
			return -ERANGE;
	}
	acc <<= exp2;

	for (k = n; k-- > start;) {
		u64 t = ((u64)digit_at(&dg, k) << exp2) + carry;

		rest |= t % 10;
		carry = t / 10;
	}
	/* leading zeros of the fraction: only shift the carry out */
	for (z = point; z < 0 && carry; z++) {
		rest |= carry % 10;
		carry /= 10;
	}
	acc += carry + rest;
	if (acc > limit)
		return -ERANGE;
	*out = (s64)acc;
	return 0;
}

int vs_quantity_parse(const char *s, size_t len, unsigned int milli, s64 *out,
		      struct vs_err *err)
{
	size_t i = 0, ilen, flen = 0, k;
	const char *ip, *fp = NULL;
	unsigned int exp2;
	bool neg = false;
	s64 exp10, v;
	int ret;

	if (!len)
		return qty_err(err, s, len, "empty");
	for (k = 0; k < len; k++)
		if (s[k] == ' ' || (s[k] >= '\t' && s[k] <= '\r'))
			return qty_err(err, s, len, "contains whitespace");

	if (s[i] == '+' || s[i] == '-')
		neg = s[i++] == '-';
	if (i < len && (s[i] == '+' || s[i] == '-'))
		return qty_err(err, s, len, "more than one sign");
	ip = s + i;
	while (i < len && is_digit(s[i]))
		i++;
	ilen = s + i - ip;
	if (i < len && s[i] == '.') {
		fp = s + ++i;
		while (i < len && is_digit(s[i]))
			i++;
		flen = s + i - fp;
		if (i < len && s[i] == '.')
			return qty_err(err, s, len, "more than one decimal point");
	}
	if (!ilen && !flen)
		return qty_err(err, s, len, "no digits");

	ret = parse_suffix(s, len, s + i, len - i, &exp10, &exp2, err);
	if (ret)
		return ret;

	if (neg) {
		const struct digits digits = { ip, ilen, fp };

		/* "-0" and "-0.0" are zero, as Sign() says in Kubernetes */
		for (k = 0; k < ilen + flen; k++)
			if (digit_at(&digits, k))
				return qty_err(err, s, len,
					       "negative values are not allowed");
	}
	/* |exp10| < 2^31 and the lengths are sizes of real strings: no overflow */
	ret = qty_value(ip, ilen, fp, flen, (s64)ilen + exp10 + milli, exp2, &v);
	if (ret)
		return qty_err(err, s, len, "quantity too large");
	*out = v;
	return 0;
}

static u64 pow_u64(u64 base, unsigned int n)
{
	u64 p = 1;

	while (n--)
		p *= base;
	return p;
}

int vs_quantity_fmt(char *buf, size_t len, s64 v, unsigned int milli, bool binary)
{
	static const char bin_sfx[][3] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	static const char dec_sfx[][2] = { "", "k", "M", "G", "T", "P", "E" };
	const char *sign = v < 0 ? "-" : "";
	u64 m = v < 0 ? -(u64)v : (u64)v;
	unsigned int k;

	if (v == VS_RES_INF)
		return snprintf(buf, len, "unlimited");
	if (!m)
		return snprintf(buf, len, "0");
	if (milli) {
		u64 unit = pow_u64(10, milli);

		if (m % unit == 0)
			return snprintf(buf, len, "%s%" PRIu64, sign, m / unit);
		if (milli == 3)
			return snprintf(buf, len, "%s%" PRIu64 "m", sign, m);
		return snprintf(buf, len, "%s%" PRIu64 "e-%u", sign, m, milli);
	}
	if (binary) {
		for (k = ARRAY_SIZE(bin_sfx) - 1; k > 0; k--)
			if (m % ((u64)1 << (10 * k)) == 0)
				return snprintf(buf, len, "%s%" PRIu64 "%s", sign,
						m >> (10 * k), bin_sfx[k]);
	}
	for (k = ARRAY_SIZE(dec_sfx) - 1; k > 0; k--) {
		u64 unit = pow_u64(1000, k);

		if (m % unit == 0)
			return snprintf(buf, len, "%s%" PRIu64 "%s", sign,
					m / unit, dec_sfx[k]);
	}
	return snprintf(buf, len, "%s%" PRIu64, sign, m);
}

int vs_res_set_quantity(struct vs_res_dims *dims, struct vs_res *r, const char *name,
			size_t name_len, const char *qty, size_t qty_len, struct vs_err *err)
{
	struct quoted q;
	s64 v;
	int d, ret;

	d = vs_res_dim_get(dims, name, name_len, err);
	if (d < 0)
		return d;
	ret = vs_quantity_parse(qty, qty_len, vs_res_dim_milli(d), &v, err);
	if (ret) {
		vs_err_prefix(err, "resource \"%s\": ", quote(&q, name, name_len));
		return ret;
	}
	vs_res_set(r, d, v);
	return 0;
}

/* snprintf at @pos of a buffer that may already be full; returns the new pos. */
__printf(4, 5)
static size_t append(char *buf, size_t len, size_t pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(pos < len ? buf + pos : NULL, pos < len ? len - pos : 0,
		      fmt, ap);
	va_end(ap);
	return n > 0 ? pos + n : pos;
}

int vs_res_fmt(const struct vs_res_dims *dims, char *buf, size_t len, const struct vs_res *r)
{
	char q[32];
	size_t pos;
	unsigned int d;
	u32 m;

	if (len)
		buf[0] = '\0';
	vs_quantity_fmt(q, sizeof(q), r->v[VS_RES_CPU], 3, false);
	pos = append(buf, len, 0, "cpu %s", q);
	vs_quantity_fmt(q, sizeof(q), r->v[VS_RES_MEMORY], 0, true);
	pos = append(buf, len, pos, ", memory %s", q);
	for_each_res_dim(d, m, r->present & SCALARS_MASK) {
		const char *name = vs_res_dim_name(dims, d);

		vs_quantity_fmt(q, sizeof(q), r->v[d], vs_res_dim_milli(d), false);
		if (name)
			pos = append(buf, len, pos, ", %s %s", name, q);
		else
			pos = append(buf, len, pos, ", dim%u %s", d, q);
	}
	return (int)pos;
}

/* ---- arithmetic ---- */

/*
 * a - b as Volcano's float64 gives it: MaxFloat64 absorbs any finite amount
 * (INF - x = INF), MaxFloat64 - MaxFloat64 is 0, and x - MaxFloat64 is
 * -MaxFloat64 (-VS_RES_INF).
 */
static inline s64 sat_sub(s64 a, s64 b)
{
	s64 s;

	if (unlikely(a == VS_RES_INF))
		return b == VS_RES_INF ? 0 : VS_RES_INF;
	if (unlikely(b == VS_RES_INF))
		return -VS_RES_INF;
	if (unlikely(__builtin_sub_overflow(a, b, &s)))
		return a >= 0 ? VS_RES_INF : -VS_RES_INF;
	return s;
}

DEFINE_RES_SCALAR_OR(vs_res, s64)

/* Get(): cpu and memory always, scalars with absent as zero. */
static inline s64 res_get(const struct vs_res *r, unsigned int d)
{
	return d < 2 ? r->v[d] : scalar_or(r, d, 0);
}

void vs_res_set_infinite(struct vs_res *r)
{
	vs_res_clear(r);
	r->v[VS_RES_CPU] = VS_RES_INF;
	r->v[VS_RES_MEMORY] = VS_RES_INF;
}

DEFINE_RES_SET(vs_res_set, vs_res, s64)

void vs_res_add(struct vs_res *r, const struct vs_res *rr)
{
	unsigned int d;
	u32 m;

	r->v[VS_RES_CPU] = vs_res_sat_add(r->v[VS_RES_CPU], rr->v[VS_RES_CPU]);
	r->v[VS_RES_MEMORY] = vs_res_sat_add(r->v[VS_RES_MEMORY], rr->v[VS_RES_MEMORY]);
	/* r.ScalarResources[name] += q creates the entries r lacked */
	for_each_res_dim(d, m, rr->present)
		r->v[d] = vs_res_sat_add(scalar_or(r, d, 0), rr->v[d]);
	r->present |= rr->present;
}

void vs_res_sub(struct vs_res *r, const struct vs_res *rr)
{
	unsigned int d;
	u32 m;

	r->v[VS_RES_CPU] = sat_sub(r->v[VS_RES_CPU], rr->v[VS_RES_CPU]);
	r->v[VS_RES_MEMORY] = sat_sub(r->v[VS_RES_MEMORY], rr->v[VS_RES_MEMORY]);
	/*
	 * Volcano's sub returns early on a nil scalar map; otherwise
	 * "r.ScalarResources[n] -= q" writes every scalar of rr into r, so a
	 * scalar r lacked becomes present (at -q).
	 */
	if (!r->present)
		return;
	for_each_res_dim(d, m, rr->present)
		r->v[d] = sat_sub(scalar_or(r, d, 0), rr->v[d]);
	r->present |= rr->present;
}

void vs_res_set_max(struct vs_res *r, const struct vs_res *rr)
{
	unsigned int d;
	u32 m;

	if (rr->v[VS_RES_CPU] > r->v[VS_RES_CPU])
		r->v[VS_RES_CPU] = rr->v[VS_RES_CPU];
	if (rr->v[VS_RES_MEMORY] > r->v[VS_RES_MEMORY])
		r->v[VS_RES_MEMORY] = rr->v[VS_RES_MEMORY];
	/* a scalar r lacks is copied whatever its value, even negative */
	for_each_res_dim(d, m, rr->present)
		if (!(r->present & VS_RES_BIT(d)) || rr->v[d] > r->v[d])
			r->v[d] = rr->v[d];
	r->present |= rr->present;
}

DEFINE_RES_MIN_DIMENSION(vs_res_min_dimension, vs_res)

/*
 * In double precision, as Volcano computes, then truncated toward zero: a
 * product that Volcano would hold as 2.9999 is 2 here. Amounts above 2^53
 * lose their low bits, as they do in Volcano's float64.
 */
static s64 mul_ratio(s64 v, double ratio)
{
	double p;

	if (v == VS_RES_INF)
		return VS_RES_INF;
	p = (double)v * ratio;
	if (p != p)
		return 0;
	if (p >= 0x1p63)
		return VS_RES_INF;
	if (p <= -0x1p63)
		return -VS_RES_INF;
	return (s64)p;
}

void vs_res_multi(struct vs_res *r, double ratio)
{
	unsigned int d;
	u32 m;

	r->v[VS_RES_CPU] = mul_ratio(r->v[VS_RES_CPU], ratio);
	r->v[VS_RES_MEMORY] = mul_ratio(r->v[VS_RES_MEMORY], ratio);
	for_each_res_dim(d, m, r->present)
		r->v[d] = mul_ratio(r->v[d], ratio);
}

/* ---- comparisons ---- */

/*
 * Integer forms of Volcano's float predicates with minResource = 0.1:
 * "v < 0.1" is v <= 0, "v >= 0.1" is v > 0, "l < r || |l - r| < 0.1" is l <= r.
 */

bool vs_res_is_empty(const struct vs_res *r)
{
	unsigned int d;
	u32 m;

	if (r->v[VS_RES_CPU] > 0 || r->v[VS_RES_MEMORY] > 0)
		return false;
	/* every pod asks for one "pods": it never makes a request non-empty */
	for_each_res_dim(d, m, r->present & ~VS_RES_BIT(VS_RES_PODS))
		if (r->v[d] > 0)
			return false;
	return true;
}

bool vs_res_is_zero(const struct vs_res *r, unsigned int dim)
{
	return res_get(r, dim) <= 0;
}

vs_resmask_t vs_res_names(const struct vs_res *r)
{
	vs_resmask_t names = 0;
	unsigned int d;
	u32 m;

	if (r->v[VS_RES_CPU] > 0)
		names |= VS_RES_BIT(VS_RES_CPU);
	if (r->v[VS_RES_MEMORY] > 0)
		names |= VS_RES_BIT(VS_RES_MEMORY);
	for_each_res_dim(d, m, r->present)
		if (r->v[d] > 0)
			names |= VS_RES_BIT(d);
	return names;
}

bool vs_res_equal(const struct vs_res *r, const struct vs_res *rr)
{
	unsigned int d;
	u32 m;

	if (r->v[VS_RES_CPU] != rr->v[VS_RES_CPU] ||
	    r->v[VS_RES_MEMORY] != rr->v[VS_RES_MEMORY])
		return false;
	/* r's scalars only: a scalar only rr has is never looked at */
	for_each_res_dim(d, m, r->present)
		if (r->v[d] != scalar_or(rr, d, 0))
			return false;
	return true;
}

bool vs_res_less(const struct vs_res *r, const struct vs_res *rr,
		 enum vs_dim_default def)
{
	unsigned int d;
	u32 m;

	if (!(r->v[VS_RES_CPU] < rr->v[VS_RES_CPU]) ||
	    !(r->v[VS_RES_MEMORY] < rr->v[VS_RES_MEMORY]))
		return false;
	/* r lacking a scalar rr has: an unlimited amount is less than nothing */
	if (def == VS_DIM_INFINITY && (rr->present & ~r->present))
		return false;
	for_each_res_dim(d, m, r->present) {
		if (!(rr->present & VS_RES_BIT(d))) {
			if (def == VS_DIM_INFINITY)
				continue;
			if (!(r->v[d] < 0))
				return false;
		} else if (!(r->v[d] < rr->v[d])) {
			return false;
		}
	}
	return true;
}

bool vs_res_less_equal(const struct vs_res *r, const struct vs_res *rr,
		       enum vs_dim_default def)
{
	unsigned int d;
	u32 m;

	if (r->v[VS_RES_CPU] > rr->v[VS_RES_CPU] ||
	    r->v[VS_RES_MEMORY] > rr->v[VS_RES_MEMORY])
		return false;
	if (def == VS_DIM_INFINITY && (rr->present & ~r->present))
		return false;
	for_each_res_dim(d, m, r->present) {
		if (!(rr->present & VS_RES_BIT(d))) {
			if (def == VS_DIM_INFINITY)
				continue;
			if (r->v[d] > 0)
				return false;
		} else if (r->v[d] > rr->v[d]) {
			return false;
		}
	}
	return true;
}

vs_resmask_t vs_res_exceeding(const struct vs_res *r, const struct vs_res *rr,
			      enum vs_dim_default def)
{
	vs_resmask_t over = 0;
	unsigned int d;
	u32 m;

	if (r->v[VS_RES_CPU] > rr->v[VS_RES_CPU])
		over |= VS_RES_BIT(VS_RES_CPU);
	if (r->v[VS_RES_MEMORY] > rr->v[VS_RES_MEMORY])
		over |= VS_RES_BIT(VS_RES_MEMORY);
	/* unlike LessEqual, a scalar only rr has does not matter, even for Infinity */
	for_each_res_dim(d, m, r->present) {
		if (!(rr->present & VS_RES_BIT(d)) && def == VS_DIM_INFINITY)
			continue;
		if (r->v[d] > scalar_or(rr, d, 0))
			over |= VS_RES_BIT(d);
	}
	return over;
}

vs_resmask_t vs_res_exceeding_dim(const struct vs_res *r, const struct vs_res *rr,
				  const struct vs_res *req)
{
	vs_resmask_t over = 0;
	unsigned int d;
	u32 m;

	if (!r)
		return 0;
	if (!rr)
		return vs_res_names(r);
	if (!req)
		return vs_res_exceeding(r, rr, VS_DIM_ZERO);
	if (req->v[VS_RES_CPU] > 0 && r->v[VS_RES_CPU] > rr->v[VS_RES_CPU])
		over |= VS_RES_BIT(VS_RES_CPU);
	if (req->v[VS_RES_MEMORY] > 0 && r->v[VS_RES_MEMORY] > rr->v[VS_RES_MEMORY])
		over |= VS_RES_BIT(VS_RES_MEMORY);
	/* "if r.scalar is nil, whatever rr.scalar is, r is less or equal to rr" */
	if (!r->present)
		return over;
	for_each_res_dim(d, m, req->present & ~VS_RES_BIT(VS_RES_PODS))
		if (req->v[d] > 0 && scalar_or(r, d, 0) > scalar_or(rr, d, 0))
			over |= VS_RES_BIT(d);
	return over;
}

bool vs_res_less_partly(const struct vs_res *r, const struct vs_res *rr,
			enum vs_dim_default def)
{
	unsigned int d;
	u32 m;

	if (r->v[VS_RES_CPU] < rr->v[VS_RES_CPU] ||
	    r->v[VS_RES_MEMORY] < rr->v[VS_RES_MEMORY])
		return true;
	/* a scalar only rr has counts as less, whatever rr's value (even 0) */
	if (def == VS_DIM_ZERO && (rr->present & ~r->present))
		return true;
	for_each_res_dim(d, m, r->present) {
		if (!(rr->present & VS_RES_BIT(d))) {
			if (def == VS_DIM_INFINITY)
				return true;
			if (r->v[d] < 0)
				return true;
		} else if (r->v[d] < rr->v[d]) {
			return true;
		}
	}
	return false;
}

bool vs_res_less_equal_partly(const struct vs_res *r, const struct vs_res *rr,
			      enum vs_dim_default def)
{
	unsigned int d;
	u32 m;

	if (r->v[VS_RES_CPU] <= rr->v[VS_RES_CPU] ||
	    r->v[VS_RES_MEMORY] <= rr->v[VS_RES_MEMORY])
		return true;
	if (def == VS_DIM_ZERO && (rr->present & ~r->present))
		return true;
	for_each_res_dim(d, m, r->present) {
		if (!(rr->present & VS_RES_BIT(d))) {
			if (def == VS_DIM_INFINITY)
				return true;
			if (r->v[d] <= 0)
				return true;
		} else if (r->v[d] <= rr->v[d]) {
			return true;
		}
	}
	return false;
}

/*
 * Diff fills absent scalars with float64(defaultValue): 0 for Zero, -1 for
 * Infinity, and then treats any -1 as "unlimited" and passes it through as
 * -1. A real amount of exactly -1 takes the same path, in Volcano as here.
 */
#define DIFF_INFINITY	(-1)

void vs_res_diff(const struct vs_res *r, const struct vs_res *rr,
		 enum vs_dim_default def, struct vs_res *inc, struct vs_res *dec)
{
	s64 fill = def == VS_DIM_INFINITY ? DIFF_INFINITY : 0;
	struct vs_res up = { 0 }, down = { 0 };
	unsigned int d;
	u32 m;

	for (d = 0; d < 2; d++) {
		if (r->v[d] > rr->v[d])
			up.v[d] = sat_sub(r->v[d], rr->v[d]);
		else
			down.v[d] = sat_sub(rr->v[d], r->v[d]);
	}
	/* every scalar of either side lands in exactly one of the two */
	for_each_res_dim(d, m, r->present | rr->present) {
		s64 l = scalar_or(r, d, fill), rv = scalar_or(rr, d, fill);

		if (l == DIFF_INFINITY)
			vs_res_set(&up, d, l);
		else if (rv == DIFF_INFINITY)
			vs_res_set(&down, d, rv);
		else if (l > rv)
			vs_res_set(&up, d, sat_sub(l, rv));
		else
			vs_res_set(&down, d, sat_sub(rv, l));
	}
	*inc = up;
	*dec = down;
}

double vs_share(s64 l, s64 r)
{
	if (r == 0)
		return l == 0 ? 0 : 1;
	return (double)l / (double)r;
}

double vs_res_dominant_share(const struct vs_res *alloc, const struct vs_res *total)
{
	double share = 0;
	unsigned int d;
	u32 m;

	/* total.ResourceNames(): pods counts too when the total has some */
	for_each_res_dim(d, m, vs_res_names(total)) {
		double s = vs_share(res_get(alloc, d), total->v[d]);

		if (s > share)
			share = s;
	}
	return share;
}

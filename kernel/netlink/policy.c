// SPDX-License-Identifier: Apache-2.0
/*
 * Attribute validation: see policy.h.
 *
 * The walk reads each attribute once, in order, checking its header against
 * the bytes left in its set before anything else, so that nothing past the
 * message is ever read. It keeps a stack of the nests it is in, which costs
 * nothing until something fails: then the stack names the attribute as a
 * path, and the occurrence of a repeated attribute is found by counting its
 * earlier siblings (which passed already, so they are safe to walk again).
 */
#include <libmnl/libmnl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "netlink/policy.h"
#include "vsched/vsched.h"

/* One attribute set being walked: the message's top level, or a nest. */
struct vs_nla_frame {
	const struct vs_nla_policy *pol;	/* the nest's entry; NULL at the top level */
	const struct nlattr *nest;		/* NULL at the top level */
	const void *data;			/* the set's first attribute */
	size_t len;
	u16 maxattr;
};

struct vs_nla_walk {
	const struct nlmsghdr *nlh;
	struct vs_extack *ext;
	unsigned int mode;
	unsigned int depth;			/* frames in use: 1 at the top level */
	struct vs_nla_frame f[VS_NEST_MAX + 1];
};

static const char *const type_names[__VS_NLA_TYPE_MAX] = {
	[VS_NLA_UNSPEC]	= "unknown",
	[VS_NLA_U8]	= "u8",
	[VS_NLA_U16]	= "u16",
	[VS_NLA_U32]	= "u32",
	[VS_NLA_S32]	= "s32",
	[VS_NLA_U64]	= "u64",
	[VS_NLA_S64]	= "s64",
	[VS_NLA_FLAG]	= "flag",
	[VS_NLA_STRING]	= "string",
	[VS_NLA_NESTED]	= "nest",
	[VS_NLA_REJECT]	= "rejected",
};

/* The payload size of the fixed-size types; 0 for the others (and flags). */
static const u8 fixed_len[__VS_NLA_TYPE_MAX] = {
	[VS_NLA_U8]	= 1,
	[VS_NLA_U16]	= 2,
	[VS_NLA_U32]	= 4,
	[VS_NLA_S32]	= 4,
	[VS_NLA_U64]	= 8,
	[VS_NLA_S64]	= 8,
};

const char *vs_nla_type_name(enum vs_nla_type type)
{
	return (unsigned int)type < __VS_NLA_TYPE_MAX ? type_names[type] : "invalid";
}

static inline u16 nla_type_of(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}

static inline u64 bit_of(u16 type)
{
	return 1ULL << type;
}

/* Append to @buf of @size at *@n, never past its end. */
__printf(4, 5)
static void cat(char *buf, size_t size, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (*n >= size - 1)
		return;
	va_start(ap, fmt);
	r = vsnprintf(buf + *n, size - *n, fmt, ap);
	va_end(ap);
	if (r > 0)
		*n = min_t(size_t, *n + (size_t)r, size - 1);
}

/* Which occurrence of its type @a is in the set of @parent, from 0. */
static unsigned int occurrence(const struct vs_nla_frame *parent, const struct nlattr *a)
{
	const char *p = parent->data;
	unsigned int i = 0;

	while ((const void *)p < (const void *)a) {
		const struct nlattr *sib = (const void *)p;

		i += nla_type_of(sib) == nla_type_of(a);
		p += NLA_ALIGN(sib->nla_len);
	}
	return i;
}

/* "node.taint[1]": the path of an attribute with entry @pol in the set of frame @k. */
static void path_elem(const struct vs_nla_walk *w, unsigned int k, const struct nlattr *a,
		      const struct vs_nla_policy *pol, char *buf, size_t size, size_t *n)
{
	cat(buf, size, n, "%s%s", *n ? "." : "", pol->name);
	if (pol->flags & VS_NLA_F_MULTI)
		cat(buf, size, n, "[%u]", occurrence(&w->f[k], a));
}

static void path_of_set(const struct vs_nla_walk *w, char *buf, size_t size, size_t *n)
{
	for (unsigned int k = 1; k < w->depth; k++)
		path_elem(w, k - 1, w->f[k].nest, w->f[k].pol, buf, size, n);
}

static void point_at(struct vs_nla_walk *w, const void *where)
{
	vs_extack_set_attr(w->ext, w->nlh, where);
}

/*
 * Refuse the attribute @a (entry @pol, or NULL when it has none) of the
 * innermost set: "node.taint[1].effect (VS_TAINT_A_EFFECT): <why>".
 */
__printf(4, 5)
static int bad(struct vs_nla_walk *w, const void *a, const struct vs_nla_policy *pol,
	       const char *fmt, ...)
{
	char path[VS_ERR_MSG_MAX], why[VS_ERR_MSG_MAX];
	size_t n = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	path_of_set(w, path, sizeof(path), &n);
	if (pol) {
		path_elem(w, w->depth - 1, a, pol, path, sizeof(path), &n);
		cat(path, sizeof(path), &n, " (%s)", pol->id);
	}
	point_at(w, a);
	if (!n)
		return vs_extack_fail(w->ext, EINVAL, "%s", why);
	return vs_extack_fail(w->ext, EINVAL, "%s: %s", path, why);
}

static int missing(struct vs_nla_walk *w, u16 type, const struct vs_nla_policy *pol)
{
	const struct vs_nla_frame *set = &w->f[w->depth - 1];
	char path[VS_ERR_MSG_MAX];
	size_t n = 0;

	path_of_set(w, path, sizeof(path), &n);
	cat(path, sizeof(path), &n, "%s%s (%s)", n ? "." : "", pol->name, pol->id);
	/* As the kernel: the offset is the nest's, and none at the top level. */
	if (set->nest) {
		point_at(w, set->nest);
		if (!w->ext->has_miss_nest && w->ext->has_offs) {
			w->ext->miss_nest = w->ext->offs;
			w->ext->has_miss_nest = true;
		}
	}
	if (!w->ext->miss_type)
		w->ext->miss_type = type;
	return vs_extack_fail(w->ext, EINVAL, "%s: required but missing", path);
}

static int check_range(struct vs_nla_walk *w, const struct nlattr *a,
		       const struct vs_nla_policy *pol)
{
	const void *p = mnl_attr_get_payload(a);
	bool is_signed = pol->type == VS_NLA_S32 || pol->type == VS_NLA_S64;
	s64 sv;
	u64 uv;

	switch (pol->type) {
	case VS_NLA_U8:
		uv = *(const u8 *)p;
		break;
	case VS_NLA_U16:
		uv = *(const u16 *)p;
		break;
	case VS_NLA_U32:
		uv = *(const u32 *)p;
		break;
	case VS_NLA_S32:
		sv = *(const s32 *)p;
		break;
	case VS_NLA_U64:
	case VS_NLA_S64:
		/* 8-byte values are only 4-byte aligned in a message. */
		memcpy(&uv, p, sizeof(uv));
		sv = (s64)uv;
		break;
	default:
		return 0;
	}
	if (is_signed) {
		if (sv < pol->min || sv > pol->max)
			return bad(w, a, pol, "%lld is out of range %lld..%lld", (long long)sv,
				   (long long)pol->min, (long long)pol->max);
	} else if (uv < (u64)pol->min || uv > (u64)pol->max) {
		return bad(w, a, pol, "%llu is out of range %llu..%llu", (unsigned long long)uv,
			   (unsigned long long)pol->min, (unsigned long long)pol->max);
	}
	return 0;
}

static int check_string(struct vs_nla_walk *w, const struct nlattr *a,
			const struct vs_nla_policy *pol)
{
	const char *s = mnl_attr_get_payload(a);
	size_t len = a->nla_len - NLA_HDRLEN;

	if (!len || s[len - 1] != '\0')
		return bad(w, a, pol, "string not NUL-terminated");
	/* One string, one NUL: a NUL inside would make the string shorter than it says. */
	if (memchr(s, '\0', len - 1))
		return bad(w, a, pol, "string has a NUL before its end");
	if (pol->len && len > pol->len)
		return bad(w, a, pol, "string of %zu bytes with its NUL, at most %u", len,
			   pol->len);
	return 0;
}

static int walk_set(struct vs_nla_walk *w, const struct vs_nla_policy *policy,
		    const struct nlattr **tb);

static int check_nest(struct vs_nla_walk *w, const struct nlattr *a,
		      const struct vs_nla_policy *pol)
{
	struct vs_nla_frame *f;
	int ret;

	if (w->depth > VS_NEST_MAX)
		return bad(w, a, pol, "nested deeper than %d levels", VS_NEST_MAX);
	if (!pol->nested || pol->maxattr > VS_NLA_SET_MAX)
		return bad(w, a, pol, "no policy for this nest");
	f = &w->f[w->depth++];
	f->pol = pol;
	f->nest = a;
	f->data = mnl_attr_get_payload(a);
	f->len = a->nla_len - NLA_HDRLEN;
	f->maxattr = pol->maxattr;
	ret = walk_set(w, pol->nested, NULL);
	w->depth--;
	return ret;
}

static int check_attr(struct vs_nla_walk *w, const struct nlattr *a,
		      const struct vs_nla_policy *pol)
{
	size_t len = a->nla_len - NLA_HDRLEN;
	bool nested_flag = a->nla_type & NLA_F_NESTED;

	if (pol->type == VS_NLA_REJECT)
		return bad(w, a, pol, "not taken by this command");
	if ((pol->flags & VS_NLA_F_RO) && !(w->mode & VS_NLA_V_REPLY))
		return bad(w, a, pol, "read-only, not accepted in a request");
	if ((pol->flags & VS_NLA_F_RESTORE) && !(w->mode & (VS_NLA_V_REPLY | VS_NLA_V_RESTORE)))
		return bad(w, a, pol, "only a checkpoint being restored gives it");
	if (a->nla_type & NLA_F_NET_BYTEORDER)
		return bad(w, a, pol, "NLA_F_NET_BYTEORDER set: values are in host byte order");
	if (pol->type == VS_NLA_NESTED && !nested_flag)
		return bad(w, a, pol, "a nest without NLA_F_NESTED");
	if (pol->type != VS_NLA_NESTED && nested_flag)
		return bad(w, a, pol, "NLA_F_NESTED set on a %s", vs_nla_type_name(pol->type));

	switch (pol->type) {
	case VS_NLA_U8:
	case VS_NLA_U16:
	case VS_NLA_U32:
	case VS_NLA_S32:
	case VS_NLA_U64:
	case VS_NLA_S64:
		if (len != fixed_len[pol->type])
			return bad(w, a, pol, "%s of %zu bytes, needs %u",
				   vs_nla_type_name(pol->type), len, fixed_len[pol->type]);
		return (pol->flags & VS_NLA_F_RANGE) ? check_range(w, a, pol) : 0;
	case VS_NLA_FLAG:
		if (len)
			return bad(w, a, pol, "flag of %zu bytes, needs none", len);
		return 0;
	case VS_NLA_STRING:
		return check_string(w, a, pol);
	case VS_NLA_NESTED:
		return check_nest(w, a, pol);
	default:
		/* A table entry of no known type is a bug in the table: refuse, safely. */
		return bad(w, a, pol, "no policy for type %u", pol->type);
	}
}

/* The set of the innermost frame, against @policy; @tb (top level only) gets the last of each. */
static int walk_set(struct vs_nla_walk *w, const struct vs_nla_policy *policy,
		    const struct nlattr **tb)
{
	const struct vs_nla_frame *set = &w->f[w->depth - 1];
	const char *p = set->data, *end = p + set->len;
	u64 seen = 0;
	int ret;

	while (p < end) {
		const struct nlattr *a = (const void *)p;
		size_t left = (size_t)(end - p);
		const struct vs_nla_policy *pol;
		u16 type;

		if (left < NLA_HDRLEN)
			return bad(w, p, NULL, "%zu bytes left, too few for an attribute header",
				   left);
		if (a->nla_len < NLA_HDRLEN)
			return bad(w, a, NULL, "attribute length %u is shorter than its header",
				   a->nla_len);
		if (a->nla_len > left)
			return bad(w, a, NULL, "attribute length %u runs past the end of its %s "
				   "(%zu bytes left)", a->nla_len, set->nest ? "nest" : "message",
				   left);
		type = nla_type_of(a);
		pol = type && type <= set->maxattr ? &policy[type] : NULL;
		if (!pol || pol->type == VS_NLA_UNSPEC)
			return bad(w, a, NULL, "unknown attribute type %u (the highest is %u)",
				   type, set->maxattr);
		ret = check_attr(w, a, pol);
		if (ret)
			return ret;
		if ((seen & bit_of(type)) && !(pol->flags & VS_NLA_F_MULTI))
			return bad(w, a, pol, "given more than once");
		seen |= bit_of(type);
		if (tb)
			tb[type] = a;
		/* The last attribute may lack its padding: then this ends the loop. */
		p += min_t(size_t, NLA_ALIGN(a->nla_len), left);
	}
	if (w->mode & VS_NLA_V_REPLY)
		return 0;
	for (u16 t = 1; t <= set->maxattr; t++)
		if ((policy[t].flags & VS_NLA_F_REQUIRED) && !(seen & bit_of(t)))
			return missing(w, t, &policy[t]);
	return 0;
}

int vs_nla_validate(const struct nlmsghdr *nlh, size_t hdrlen, const struct vs_nla_policy *policy,
		    u16 maxattr, const struct nlattr **tb, unsigned int mode,
		    struct vs_extack *ext)
{
	struct vs_nla_walk w = { .nlh = nlh, .ext = ext, .mode = mode, .depth = 1 };
	size_t start = NLMSG_HDRLEN + NLMSG_ALIGN(hdrlen);
	int ret;

	if (tb)
		memset(tb, 0, (maxattr + 1u) * sizeof(*tb));
	if (maxattr > VS_NLA_SET_MAX)
		return vs_extack_fail(ext, EINVAL, "policy of %u attributes: at most %u", maxattr,
				      VS_NLA_SET_MAX);
	if (nlh->nlmsg_len < start)
		return vs_extack_fail(ext, EINVAL, "message of %u bytes, shorter than its headers "
				      "(%zu)", nlh->nlmsg_len, start);
	w.f[0].data = (const char *)nlh + start;
	w.f[0].len = nlh->nlmsg_len - start;
	w.f[0].maxattr = maxattr;
	ret = walk_set(&w, policy, tb);
	if (ret && tb)
		memset(tb, 0, (maxattr + 1u) * sizeof(*tb));
	return ret;
}

void vs_nla_tb(const struct nlmsghdr *nlh, size_t hdrlen, u16 maxattr, const struct nlattr **tb)
{
	const struct nlattr *a;

	memset(tb, 0, (maxattr + 1u) * sizeof(*tb));
	mnl_attr_for_each(a, nlh, hdrlen) {
		u16 type = mnl_attr_get_type(a);

		if (type <= maxattr)
			tb[type] = a;
	}
}

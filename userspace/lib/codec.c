// SPDX-License-Identifier: Apache-2.0
/*
 * The typed codec's checks (codec.h): what a client puts is refused before
 * it is sent when the daemon's policy would refuse it, and what it reads is
 * checked against the same policy before a getter trusts its length. The
 * tables come from the spec (codec_gen.c); the rules are the daemon's
 * (kernel/netlink/policy.c), which userspace cannot link: a value out of
 * range, a string too long or not NUL-terminated, a repeat of what does not
 * repeat, an unknown attribute, one the set does not take, a nest deeper
 * than VS_NEST_MAX.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>

#include "lib/codec.h"
#include "vsched/vsched.h"

/* An attribute on the way down: its name, and its index when it repeats (else -1). */
struct codec_frame {
	const char *name;
	int index;
};

/*
 * A path from the top nest to the attribute at fault: "node.taints[1].effect".
 * It is kept as frames and written out only for a message: every reply
 * is walked whole, and most of them are well formed.
 */
struct codec_walk {
	struct vsnl_err *err;
	unsigned int mode;
	unsigned int depth;
	unsigned int nr;		/* frames in frame[] */
	struct codec_frame frame[VS_NEST_MAX + 2];
	char path[192];
};

__attribute__((format(printf, 2, 3)))
static int codec_fail(struct vsnl_err *err, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->err = -EINVAL;
		err->has_offset = false;
		err->seq = 0;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static const char *codec_path(struct codec_walk *w)
{
	size_t len = 0;
	unsigned int i;
	int n;

	w->path[0] = '\0';
	for (i = 0; i < w->nr && len < sizeof(w->path); i++) {
		const struct codec_frame *f = &w->frame[i];

		if (f->index < 0)
			n = snprintf(w->path + len, sizeof(w->path) - len, "%s%s", i ? "." : "",
				     f->name);
		else
			n = snprintf(w->path + len, sizeof(w->path) - len, "%s%s[%d]", i ? "." : "",
				     f->name, f->index);
		if (n < 0)
			break;
		len += (size_t)n;
	}
	return w->path;
}

static const unsigned int codec_fixed_len[] = {
	[VSNL_CODEC_U8] = 1, [VSNL_CODEC_U16] = 2, [VSNL_CODEC_U32] = 4, [VSNL_CODEC_S32] = 4,
	[VSNL_CODEC_U64] = 8, [VSNL_CODEC_S64] = 8,
};

static bool codec_is_int(uint8_t type)
{
	return type >= VSNL_CODEC_U8 && type <= VSNL_CODEC_S64;
}

static bool codec_is_signed(uint8_t type)
{
	return type == VSNL_CODEC_S32 || type == VSNL_CODEC_S64;
}

static int codec_walk_set(struct codec_walk *w, const struct vsnl_codec_set *set,
			  const void *data, size_t len, const struct nlattr **tb);

static int codec_room(struct vsnl_err *err, const struct vsnl_codec_set *set,
		      const struct vsnl_codec_attr *pol)
{
	if (err) {
		err->err = -EMSGSIZE;
		err->has_offset = false;
		err->seq = 0;
		snprintf(err->msg, sizeof(err->msg), "%s.%s: no room in the message", set->name,
			 pol->name);
	}
	return -EMSGSIZE;
}

static int codec_check(struct codec_walk *w, const struct vsnl_codec_attr *pol,
		       const struct nlattr *a)
{
	const void *p = mnl_attr_get_payload(a);
	size_t len = mnl_attr_get_payload_len(a);
	uint64_t uv = 0;
	int64_t sv;

	if (pol->type == VSNL_CODEC_REJECT)
		return codec_fail(w->err, "%s: not taken here", codec_path(w));
	if ((pol->flags & VSNL_CODEC_F_RO) && (w->mode & VSNL_CODEC_REQUEST))
		return codec_fail(w->err, "%s: read-only, not accepted in a request",
				  codec_path(w));
	if ((pol->type == VSNL_CODEC_NESTED) != !!(a->nla_type & NLA_F_NESTED))
		return codec_fail(w->err, "%s: NLA_F_NESTED %s", codec_path(w),
				  pol->type == VSNL_CODEC_NESTED ? "missing" : "on no nest");
	if (codec_is_int(pol->type)) {
		if (len != codec_fixed_len[pol->type])
			return codec_fail(w->err, "%s: %zu bytes, needs %u", codec_path(w), len,
					  codec_fixed_len[pol->type]);
		if (!(pol->flags & VSNL_CODEC_F_RANGE) || (w->mode & VSNL_CODEC_REPLY))
			return 0;
		/* 8-byte values are only 4-byte aligned in a message. */
		memcpy(&uv, p, len);
		if (codec_is_signed(pol->type)) {
			sv = pol->type == VSNL_CODEC_S32 ? (int32_t)(uint32_t)uv : (int64_t)uv;
			if (sv < pol->min || sv > pol->max)
				return codec_fail(w->err, "%s: %" PRId64 " out of %" PRId64 "..%" PRId64,
						  codec_path(w), sv, pol->min, pol->max);
		} else if (uv < (uint64_t)pol->min || uv > (uint64_t)pol->max) {
			return codec_fail(w->err, "%s: %" PRIu64 " out of %" PRIu64 "..%" PRIu64,
					  codec_path(w), uv, (uint64_t)pol->min,
					  (uint64_t)pol->max);
		}
		return 0;
	}
	switch (pol->type) {
	case VSNL_CODEC_FLAG:
		return len ? codec_fail(w->err, "%s: a flag of %zu bytes", codec_path(w), len) : 0;
	case VSNL_CODEC_STRING:
		if (!len || ((const char *)p)[len - 1] || memchr(p, '\0', len - 1))
			return codec_fail(w->err, "%s: not one NUL-terminated string",
					  codec_path(w));
		if (pol->len && len > pol->len)
			return codec_fail(w->err, "%s: %zu bytes with the NUL, at most %u",
					  codec_path(w), len, pol->len);
		return 0;
	case VSNL_CODEC_NESTED:
		if (w->depth >= VS_NEST_MAX)
			return codec_fail(w->err, "%s: nested deeper than %d", codec_path(w),
					  VS_NEST_MAX);
		return codec_walk_set(w, pol->nested, p, len, NULL);
	default:
		return codec_fail(w->err, "%s: unknown here", codec_path(w));
	}
}

static int codec_walk_set(struct codec_walk *w, const struct vsnl_codec_set *set,
			  const void *data, size_t len, const struct nlattr **tb)
{
	unsigned int base = w->nr;
	unsigned int count[64] = { 0 };
	uint64_t seen = 0;
	const struct nlattr *a;
	uint16_t t;
	int ret = 0;

	w->depth++;
	for (a = data; mnl_attr_ok(a, (int)((const char *)data + len - (const char *)a));
	     a = mnl_attr_next(a)) {
		const struct vsnl_codec_attr *pol;

		t = mnl_attr_get_type(a);
		pol = t <= set->maxattr ? &set->attrs[t] : NULL;
		if (!pol || pol->type == VSNL_CODEC_UNSPEC) {
			ret = codec_fail(w->err, "%s%sattribute type %u unknown in %s",
					 codec_path(w), base ? ": " : "", t, set->name);
			break;
		}
		if (base >= sizeof(w->frame) / sizeof(w->frame[0])) {
			ret = codec_fail(w->err, "%s: nested deeper than %d", codec_path(w),
					 VS_NEST_MAX);
			break;
		}
		w->frame[base].name = pol->name;
		w->frame[base].index = (pol->flags & VSNL_CODEC_F_MULTI) ? (int)count[t] : -1;
		w->nr = base + 1;
		if (!(pol->flags & VSNL_CODEC_F_MULTI) && (seen & (1ULL << t)))
			ret = codec_fail(w->err, "%s: given twice", codec_path(w));
		if (!ret)
			ret = codec_check(w, pol, a);
		if (ret)
			break;
		seen |= 1ULL << t;
		count[t]++;
		if (tb)
			tb[t] = a;
		w->nr = base;
	}
	if (!ret && (const char *)a != (const char *)data + len)
		ret = codec_fail(w->err, "%s: a truncated attribute",
				 base ? codec_path(w) : set->name);
	for (t = 1; !ret && (w->mode & VSNL_CODEC_REQUEST) && t <= set->maxattr; t++)
		if ((set->attrs[t].flags & VSNL_CODEC_F_REQUIRED) && !(seen & (1ULL << t)))
			ret = codec_fail(w->err, "%s%s%s: required but missing", codec_path(w),
					 base ? "." : "", set->attrs[t].name);
	w->depth--;
	return ret;
}

static int codec_parse(const struct vsnl_codec_set *set, const void *data, size_t len,
		       const struct nlattr **tb, unsigned int mode, struct vsnl_err *err)
{
	struct codec_walk w = { .err = err, .mode = mode };
	int ret;

	memset(tb, 0, (set->maxattr + 1) * sizeof(*tb));
	ret = codec_walk_set(&w, set, data, len, tb);
	if (ret)
		memset(tb, 0, (set->maxattr + 1) * sizeof(*tb));
	return ret;
}

int vsnl_codec_parse(const struct vsnl_codec_set *set, const struct nlattr *nest,
		     const struct nlattr **tb, unsigned int mode, struct vsnl_err *err)
{
	if (!(nest->nla_type & NLA_F_NESTED))
		return codec_fail(err, "%s: a nest without NLA_F_NESTED", set->name);
	return codec_parse(set, mnl_attr_get_payload(nest), mnl_attr_get_payload_len(nest), tb,
			   mode, err);
}

int vsnl_codec_parse_msg(const struct vsnl_codec_set *set, const struct nlmsghdr *nlh,
			 size_t hdrlen, const struct nlattr **tb, unsigned int mode,
			 struct vsnl_err *err)
{
	if (nlh->nlmsg_len < NLMSG_HDRLEN + NLMSG_ALIGN(hdrlen))
		return codec_fail(err, "%s: a message shorter than its header", set->name);
	return codec_parse(set, mnl_nlmsg_get_payload_offset(nlh, hdrlen),
			   nlh->nlmsg_len - NLMSG_HDRLEN - NLMSG_ALIGN(hdrlen), tb, mode, err);
}

static const struct vsnl_codec_attr *codec_attr(const struct vsnl_codec_set *set, uint16_t type,
						uint8_t want, struct vsnl_err *err)
{
	const struct vsnl_codec_attr *pol = type <= set->maxattr ? &set->attrs[type] : NULL;

	if (!pol || pol->type == VSNL_CODEC_UNSPEC || pol->type == VSNL_CODEC_REJECT ||
	    (want && pol->type != want) || (!want && !codec_is_int(pol->type))) {
		codec_fail(err, "%s: attribute type %u is no %s it takes", set->name, type,
			   want == VSNL_CODEC_STRING ? "string" : want == VSNL_CODEC_FLAG ? "flag" :
			   want == VSNL_CODEC_NESTED ? "nest" : "integer");
		return NULL;
	}
	return pol;
}

/*
 * An attribute with its padding zeroed: libmnl 1.0.4's mnl_attr_put()
 * leaves it as the buffer had it, and a client that builds its requests
 * one after another in one buffer would send what the one before left
 * there. false, with nothing written, when it does not fit.
 */
static bool codec_put(struct nlmsghdr *nlh, size_t cap, uint16_t type, size_t len,
		      const void *data)
{
	struct nlattr *a = mnl_nlmsg_get_payload_tail(nlh);

	if (!mnl_attr_put_check(nlh, cap, type, len, data))
		return false;
	memset((char *)mnl_attr_get_payload(a) + len, 0, MNL_ALIGN(len) - len);
	return true;
}

static int codec_put_fixed(struct nlmsghdr *nlh, size_t cap, const struct vsnl_codec_set *set,
			   uint16_t type, uint64_t uv, struct vsnl_err *err)
{
	const struct vsnl_codec_attr *pol = &set->attrs[type];
	uint8_t u8 = uv;
	uint16_t u16 = uv;
	uint32_t u32 = uv;
	const void *p = pol->type == VSNL_CODEC_U8 ? (const void *)&u8 :
			pol->type == VSNL_CODEC_U16 ? (const void *)&u16 :
			codec_fixed_len[pol->type] == 4 ? (const void *)&u32 : (const void *)&uv;

	if (!codec_put(nlh, cap, type, codec_fixed_len[pol->type], p))
		return codec_room(err, set, pol);
	return 0;
}

int vsnl_codec_put_int(struct nlmsghdr *nlh, size_t cap, const struct vsnl_codec_set *set,
		       uint16_t type, int64_t value, struct vsnl_err *err)
{
	const struct vsnl_codec_attr *pol = codec_attr(set, type, 0, err);
	int64_t lo, hi;

	if (!pol)
		return -EINVAL;
	if (!codec_is_signed(pol->type))
		return value < 0 ? codec_fail(err, "%s.%s: %" PRId64 " is negative", set->name,
					      pol->name, value) :
				   vsnl_codec_put_uint(nlh, cap, set, type, (uint64_t)value, err);
	lo = pol->type == VSNL_CODEC_S32 ? INT32_MIN : INT64_MIN;
	hi = pol->type == VSNL_CODEC_S32 ? INT32_MAX : INT64_MAX;
	if (pol->flags & VSNL_CODEC_F_RANGE) {
		lo = pol->min;
		hi = pol->max;
	}
	if (value < lo || value > hi)
		return codec_fail(err, "%s.%s: %" PRId64 " out of %" PRId64 "..%" PRId64, set->name,
				  pol->name, value, lo, hi);
	return codec_put_fixed(nlh, cap, set, type, (uint64_t)value, err);
}

int vsnl_codec_put_uint(struct nlmsghdr *nlh, size_t cap, const struct vsnl_codec_set *set,
			uint16_t type, uint64_t value, struct vsnl_err *err)
{
	const struct vsnl_codec_attr *pol = codec_attr(set, type, 0, err);
	uint64_t lo = 0, hi;

	if (!pol)
		return -EINVAL;
	if (codec_is_signed(pol->type))
		return value > INT64_MAX ? codec_fail(err, "%s.%s: %" PRIu64 " out of range",
						      set->name, pol->name, value) :
					   vsnl_codec_put_int(nlh, cap, set, type, (int64_t)value, err);
	hi = codec_fixed_len[pol->type] == 8 ? UINT64_MAX :
	     (1ULL << (8 * codec_fixed_len[pol->type])) - 1;
	if (pol->flags & VSNL_CODEC_F_RANGE) {
		lo = (uint64_t)pol->min;
		hi = (uint64_t)pol->max;
	}
	if (value < lo || value > hi)
		return codec_fail(err, "%s.%s: %" PRIu64 " out of %" PRIu64 "..%" PRIu64, set->name,
				  pol->name, value, lo, hi);
	return codec_put_fixed(nlh, cap, set, type, value, err);
}

int vsnl_codec_put_str(struct nlmsghdr *nlh, size_t cap, const struct vsnl_codec_set *set,
		       uint16_t type, const char *value, struct vsnl_err *err)
{
	const struct vsnl_codec_attr *pol = codec_attr(set, type, VSNL_CODEC_STRING, err);
	size_t len;

	if (!pol)
		return -EINVAL;
	len = strlen(value) + 1;
	if (pol->len && len > pol->len)
		return codec_fail(err, "%s.%s: %zu bytes with the NUL, at most %u", set->name,
				  pol->name, len, pol->len);
	if (!codec_put(nlh, cap, type, len, value))
		return codec_room(err, set, pol);
	return 0;
}

int vsnl_codec_put_flag(struct nlmsghdr *nlh, size_t cap, const struct vsnl_codec_set *set,
			uint16_t type, struct vsnl_err *err)
{
	const struct vsnl_codec_attr *pol = codec_attr(set, type, VSNL_CODEC_FLAG, err);
	static const char none;

	if (!pol)
		return -EINVAL;
	if (!mnl_attr_put_check(nlh, cap, type, 0, &none))
		return codec_room(err, set, pol);
	return 0;
}

struct nlattr *vsnl_codec_nest_start(struct nlmsghdr *nlh, size_t cap,
				     const struct vsnl_codec_set *set, uint16_t type,
				     struct vsnl_err *err)
{
	const struct vsnl_codec_attr *pol = codec_attr(set, type, VSNL_CODEC_NESTED, err);
	struct nlattr *nest;

	if (!pol)
		return NULL;
	nest = mnl_attr_nest_start_check(nlh, cap, type);
	if (!nest)
		codec_room(err, set, pol);
	return nest;
}

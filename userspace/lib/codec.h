/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The typed codec of vsched's protocol: put an attribute only when its
 * set's policy takes the value, and parse a nest only when every attribute
 * in it is what its policy says. The policies are the daemon's own, made
 * from the same spec (Documentation/netlink/vsched.yaml) by
 * scripts/vsnl-gen.py: codec_gen.h declares, per attribute set, a table
 * (struct vsnl_codec_set), a parse into a typed table of attributes, and a
 * put per attribute; this file holds what they call.
 *
 * Messages are built in the caller's buffer with libmnl, as
 * vsnl_msg_put() starts them; nothing allocates.
 */
#ifndef VSNL_CODEC_H
#define VSNL_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/netlink.h>

#include "lib/vsnl.h"

/* An attribute's type, as the daemon's policies (kernel/netlink/policy.h) have them. */
enum vsnl_codec_type {
	VSNL_CODEC_UNSPEC,		/* no entry: unknown here */
	VSNL_CODEC_U8,
	VSNL_CODEC_U16,
	VSNL_CODEC_U32,
	VSNL_CODEC_S32,
	VSNL_CODEC_U64,
	VSNL_CODEC_S64,
	VSNL_CODEC_FLAG,
	VSNL_CODEC_STRING,
	VSNL_CODEC_NESTED,
	VSNL_CODEC_REJECT,		/* known, not taken by this set */
};

#define VSNL_CODEC_F_REQUIRED	0x01
#define VSNL_CODEC_F_MULTI	0x02
#define VSNL_CODEC_F_RO		0x04
#define VSNL_CODEC_F_RANGE	0x08
#define VSNL_CODEC_F_RESTORE	0x10
#define VSNL_CODEC_F_TIME	0x20	/* seconds since 1970 (display: time) */

struct vsnl_codec_set;

struct vsnl_codec_attr {
	uint8_t type;			/* enum vsnl_codec_type */
	uint8_t flags;			/* VSNL_CODEC_F_* */
	uint16_t len;			/* strings: most bytes with the NUL; 0: any */
	const char *name;		/* "allocatable", a path element in messages */
	const struct vsnl_codec_set *nested;
	int64_t min;			/* VSNL_CODEC_F_RANGE: signed types compare signed, */
	int64_t max;			/* unsigned ones unsigned */
	/* an enum's entries as clients show them, by value ("Running"); NULL: a number */
	const char *const *names;
	uint16_t nr_names;
};

struct vsnl_codec_set {
	const char *name;		/* the spec's: "node", "node-key" */
	uint16_t maxattr;
	const struct vsnl_codec_attr *attrs;	/* [0..maxattr] */
};

/* Parse modes. */
#define VSNL_CODEC_REQUEST	0x01	/* as the daemon checks a request: required, no read-only */
/*
 * As a client reads a reply: types, lengths, strings, repeats and nesting,
 * but not the ranges a request is held to. A reply says what the daemon
 * has, which a request may not ask for (conf.periodMs is 0 when periodic
 * cycles are off); readers show an enum past its names as a number or "?".
 */
#define VSNL_CODEC_REPLY	0x02

/*
 * Check every attribute of @nest against @set, recursively, and fill
 * @tb[0..set->maxattr] with the last of each type (NULL where absent).
 * Returns 0, or -EINVAL with @err naming the attribute by its path
 * ("node.taints[1].effect: 7 out of 0..2"); @tb is then all NULL.
 */
int vsnl_codec_parse(const struct vsnl_codec_set *set, const struct nlattr *nest,
		     const struct nlattr **tb, unsigned int mode, struct vsnl_err *err);

/* The same for the attributes of the message @nlh after its payload's first @hdrlen bytes. */
int vsnl_codec_parse_msg(const struct vsnl_codec_set *set, const struct nlmsghdr *nlh,
			 size_t hdrlen, const struct nlattr **tb, unsigned int mode,
			 struct vsnl_err *err);

/*
 * Put attribute @type of @set in @nlh (a buffer of @cap bytes). 0, -EINVAL
 * when the policy refuses the value or the type (@err says why), -EMSGSIZE
 * when it does not fit.
 */
int vsnl_codec_put_int(struct nlmsghdr *nlh, size_t cap, const struct vsnl_codec_set *set,
		       uint16_t type, int64_t value, struct vsnl_err *err);
int vsnl_codec_put_uint(struct nlmsghdr *nlh, size_t cap, const struct vsnl_codec_set *set,
			uint16_t type, uint64_t value, struct vsnl_err *err);
int vsnl_codec_put_str(struct nlmsghdr *nlh, size_t cap, const struct vsnl_codec_set *set,
		       uint16_t type, const char *value, struct vsnl_err *err);
int vsnl_codec_put_flag(struct nlmsghdr *nlh, size_t cap, const struct vsnl_codec_set *set,
			uint16_t type, struct vsnl_err *err);
/* A nest: NULL when it does not fit or is not a nest of @set (@err says which). */
struct nlattr *vsnl_codec_nest_start(struct nlmsghdr *nlh, size_t cap,
				     const struct vsnl_codec_set *set, uint16_t type,
				     struct vsnl_err *err);

/*
 * The table a vsnl_cb is handed is a struct vsnl_vsched_tb's, filled by
 * libvsnl through the reply set's policy (vsnl_codec_reply): its values
 * read with the vsnl_vsched_get_*() getters, its nests with their sets'
 * parse.
 */
struct vsnl_vsched_tb;

static inline const struct vsnl_vsched_tb *vsnl_reply_tb(struct nlattr **tb)
{
	return (const struct vsnl_vsched_tb *)(const void *)tb;
}

#endif /* VSNL_CODEC_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Attribute policies, after the kernel's struct nla_policy: one table per
 * attribute set, indexed by attribute type, says what each attribute is
 * (type, length, range, nested set) and whether a request may or must carry
 * it. vs_nla_validate() checks every attribute of a request against its
 * command's table, recursively, before any handler reads it, so that
 * handlers (parse.c) trust the shape of what they read.
 *
 * Validation allocates nothing and recurses at most VS_NEST_MAX deep: the
 * daemon runs it on every message from every client.
 */
#ifndef VS_NETLINK_POLICY_H
#define VS_NETLINK_POLICY_H

#include <linux/netlink.h>

#include "netlink/extack.h"

enum vs_nla_type {
	VS_NLA_UNSPEC,		/* no entry: the attribute is unknown here */
	VS_NLA_U8,
	VS_NLA_U16,
	VS_NLA_U32,
	VS_NLA_S32,
	VS_NLA_U64,
	VS_NLA_S64,
	VS_NLA_FLAG,		/* no payload: true by its presence */
	VS_NLA_STRING,		/* NUL-terminated, at most .len bytes with the NUL */
	VS_NLA_NESTED,		/* a nest of the set .nested[0..maxattr] */
	VS_NLA_REJECT,		/* known, but not taken by this command */
	__VS_NLA_TYPE_MAX
};

/* Entry flags. */
#define VS_NLA_F_REQUIRED	0x01	/* a request must carry it */
#define VS_NLA_F_MULTI		0x02	/* may repeat; otherwise a second one is refused */
#define VS_NLA_F_RO		0x04	/* read-only: in replies only, refused in requests */
#define VS_NLA_F_RANGE		0x08	/* integers: min <= value <= max */
/*
 * Restore-only: what a checkpoint carries beyond the spec (a VolcanoJob's
 * state); refused in a request unless validated with VS_NLA_V_RESTORE.
 */
#define VS_NLA_F_RESTORE	0x10

/* The most attributes a set may have: validation tracks them in a u64. */
#define VS_NLA_SET_MAX		63

struct vs_nla_policy {
	u8 type;			/* enum vs_nla_type */
	u8 flags;			/* VS_NLA_F_* */
	u16 len;			/* strings: most bytes with the NUL; 0: nla_len's */
	u16 maxattr;			/* nests: the highest type in .nested */
	const char *name;		/* "allocatable": a path element in messages */
	const char *id;			/* "VS_NODE_A_ALLOCATABLE" */
	const struct vs_nla_policy *nested;
	/* Ranges compare as s64 for signed types and as u64 for unsigned ones. */
	s64 min;
	s64 max;
};

/*
 * Entries by designated initialiser, as the kernel's NLA_POLICY_* macros:
 * the attribute's constant is both the index and the id in messages.
 */
#define VS_NLA_ENTRY(_attr, _name, _type, ...)					\
	[_attr] = { .type = (_type), .name = (_name), .id = #_attr, __VA_ARGS__ }
#define VS_NLA_STR(_attr, _name, _len, ...)					\
	VS_NLA_ENTRY(_attr, _name, VS_NLA_STRING, .len = (_len), __VA_ARGS__)
#define VS_NLA_INT(_attr, _name, _type, ...)					\
	VS_NLA_ENTRY(_attr, _name, _type, __VA_ARGS__)
#define VS_NLA_RANGE(_attr, _name, _type, _min, _max, _flags)			\
	VS_NLA_ENTRY(_attr, _name, _type, .min = (_min), .max = (_max),		\
		     .flags = VS_NLA_F_RANGE | (_flags))
#define VS_NLA_NEST(_attr, _name, _set, _maxattr, ...)				\
	VS_NLA_ENTRY(_attr, _name, VS_NLA_NESTED, .nested = (_set),		\
		     .maxattr = (_maxattr), __VA_ARGS__)
#define VS_NLA_REJECTED(_attr, _name)						\
	VS_NLA_ENTRY(_attr, _name, VS_NLA_REJECT)

/* Validation modes. */
#define VS_NLA_V_REPLY		0x01	/* a reply: read-only allowed, nothing required */
#define VS_NLA_V_RESTORE	0x02	/* a checkpoint's message: restore-only allowed */

/*
 * Validate the attributes of the message @nlh that follow its payload's
 * first @hdrlen bytes (GENL_HDRLEN for generic netlink) against @policy
 * (attribute types 1..@maxattr), then fill @tb[0..@maxattr] with the last
 * occurrence of each top-level attribute (NULL where absent).
 *
 * Returns 0, or -EINVAL (-ERANGE never: a value out of range is EINVAL, as
 * in the kernel) with @ext naming the attribute as a path ("node.taint[1].
 * effect (VS_TAINT_A_EFFECT)") and its offset from the start of @nlh; @tb is
 * then all NULL. @nlh->nlmsg_len bytes must be readable.
 */
int vs_nla_validate(const struct nlmsghdr *nlh, size_t hdrlen, const struct vs_nla_policy *policy,
		    u16 maxattr, const struct nlattr **tb, unsigned int mode,
		    struct vs_extack *ext);

/*
 * @tb as vs_nla_validate() fills it, checking nothing: only for a message
 * that passed vs_nla_validate() with the same @maxattr and has not changed
 * since (a batch's held copy, which only the daemon writes), so that a
 * message is walked against its policy once, not once more when applied.
 */
void vs_nla_tb(const struct nlmsghdr *nlh, size_t hdrlen, u16 maxattr, const struct nlattr **tb);

/* The name of a type, for messages and documentation ("u32"). */
const char *vs_nla_type_name(enum vs_nla_type type);

#endif /* VS_NETLINK_POLICY_H */

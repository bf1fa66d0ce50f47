/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Generic netlink families and their ops tables, after the kernel's
 * struct genl_family and struct genl_ops: one const table per family,
 * indexed by command, says for each command its policy, whether it takes
 * plain requests (doit) and dumps (dumpit), and whether it needs the admin
 * permission. vs_genl_rcv_msg() is the one way a request reaches a handler:
 * it checks the framing, the command, the permission and the policy, runs
 * the handler, and answers errors, acks and the end of dumps itself.
 *
 * Two families: vsched's (VSCHED_GENL_ID, its table in policies.c) and the
 * controller's (GENL_ID_CTRL), whose CTRL_CMD_GETFAMILY tells generic
 * netlink tooling vsched's id, version, commands and multicast groups.
 */
#ifndef VS_NETLINK_FAMILY_H
#define VS_NETLINK_FAMILY_H

#include "core/mem.h"
#include "netlink/msg.h"
#include "netlink/policy.h"
#include "vsched/vsched.h"

/* Op flags. */
#define VS_OP_DO	0x01	/* takes requests without NLM_F_DUMP */
#define VS_OP_DUMP	0x02	/* takes NLM_F_DUMP */
#define VS_OP_ADMIN	0x04	/* needs the admin permission, as GENL_ADMIN_PERM */
#define VS_OP_NOTIFY	0x08	/* a notification: sent by the daemon, never a request */
#define VS_OP_GROWS	0x10	/* adds to the core: refused past the memory cap */

/* Who sent the request, from the daemon's client state. */
struct vs_genl_ctx {
	u32 portid;			/* the client's: nlmsg_pid of its replies */
	bool admin;			/* root or the admin group (SO_PEERCRED) */
	/*
	 * The daemon restoring a checkpoint (netlink/checkpoint.h): objects
	 * are made as the checkpoint gives them, state included, without the
	 * controllers, whose own state is in the checkpoint too. No client's
	 * context is ever one.
	 */
	bool restore;
	/*
	 * The daemon's memory cap (vschedd --max-memory): past it, ops with
	 * VS_OP_GROWS are refused with ENOMEM. NULL: none (the daemon's own
	 * requests, a checkpoint being restored, tests).
	 */
	const struct vs_mem_cap *mem;
	void *priv;			/* the daemon's state, for its handlers */
};

/*
 * Where a dump is between parts. The dispatcher zeroes it when the dump
 * starts; the handler keeps its position in pos[] (as netlink_callback's
 * args[]), or in key_ns/key_name the key of the last object it sent (a
 * dump of objects in name order: "" before the first); the daemon keeps
 * it, and the request, until the dump is over.
 */
struct vs_genl_dump {
	u64 pos[4];
	char key_ns[VS_NAME_MAX];
	char key_name[VS_NAME_MAX];
	unsigned int parts;		/* parts answered so far */
};

struct vs_genl_family;
struct vs_genl_op;

/* What a handler gets, after the kernel's struct genl_info. */
struct vs_genl_info {
	struct vs_genl_ctx *ctx;
	const struct vs_genl_family *family;
	const struct vs_genl_op *op;
	const struct nlmsghdr *nlh;		/* the request */
	const struct genlmsghdr *genlhdr;
	const struct nlattr *const *attrs;	/* validated, [0..op->maxattr], last of each */
	struct vs_extack *extack;		/* say why, and point at the attribute */
	struct vs_nl_reply *reply;		/* room for errors is kept aside */
	struct vs_genl_dump *dump;		/* dumpit only */
};

struct vs_genl_op {
	u8 cmd;				/* its index in the table */
	u8 flags;			/* VS_OP_* */
	u16 maxattr;			/* of .policy and .dump_policy */
	const char *name;		/* "VS_CMD_NODE_NEW", for messages */
	const struct vs_nla_policy *policy;
	const struct vs_nla_policy *dump_policy;	/* NLM_F_DUMP; NULL: .policy */
	/*
	 * A request: 0 (the dispatcher acks it if asked) or a negative errno
	 * with info->extack filled (what the handler added to the reply is
	 * dropped). NULL: the command is not implemented yet (EOPNOTSUPP).
	 */
	int (*doit)(struct vs_genl_info *info);
	/*
	 * One part of a dump: messages of NLM_F_MULTI into info->reply while
	 * they fit, keeping the position in info->dump. Returns > 0 when more
	 * parts follow, 0 when the dump is complete (the dispatcher ends it
	 * with NLMSG_DONE), or a negative errno.
	 */
	int (*dumpit)(struct vs_genl_info *info);
	/*
	 * A dump that holds something between parts lets it go: called when
	 * the dump is abandoned (the client went), after its last part, or
	 * both, so it must be idempotent. NULL: nothing held.
	 */
	void (*done)(struct vs_genl_dump *dump);
};

struct vs_genl_family {
	const char *name;
	u16 id;				/* its nlmsg_type */
	u8 version;
	u16 maxattr;
	const struct vs_genl_op *ops;	/* indexed by command; entries without .name are none */
	unsigned int n_ops;
	const char *const *mcgrps;	/* multicast group names by id; [0] unused */
	unsigned int n_mcgrps;		/* the highest id */
};

extern const struct vs_genl_family vs_genl_vsched;	/* policies.c */
extern const struct vs_genl_family vs_genl_ctrl;	/* family.c */

/*
 * Everything a reply or notification of vsched's family may carry at its
 * top level (VS_A_MAX + 1 entries), read-only attributes included: for
 * checking replies with VS_NLA_V_REPLY.
 */
extern const struct vs_nla_policy vs_genl_reply_policy[];

/* The op of @cmd in @family, or NULL. */
const struct vs_genl_op *vs_genl_op_find(const struct vs_genl_family *family, u8 cmd);

/*
 * 0, or -ENOMEM with @ext saying why when @op adds to the core
 * (VS_OP_GROWS) and the memory cap of @ctx is reached. The dispatcher
 * asks before every handler; a batch asks as it holds a message and
 * again as it applies it, the batch itself having grown the core.
 */
int vs_genl_mem_check(const struct vs_genl_ctx *ctx, const struct vs_genl_op *op,
		      struct vs_extack *ext);

/*
 * Handle one request (a message from vs_nl_iter_next()) and put all of its
 * answer into @reply: the handler's messages, then the ack (NLM_F_ACK), the
 * NLMSG_DONE of a dump, or the NLMSG_ERROR of a refusal. @reply needs
 * VS_NL_ERROR_MIN bytes free at least: that much is kept from the handler.
 *
 * Returns 0 when the request is answered, 1 when a dump has more parts to
 * come (call vs_genl_dump_next() with the same request and @dump once the
 * client has read this part), or the negative errno it was refused with
 * (@ext says why; the NLMSG_ERROR is in @reply).
 */
int vs_genl_rcv_msg(struct vs_genl_ctx *ctx, const struct nlmsghdr *nlh,
		    struct vs_nl_reply *reply, struct vs_genl_dump *dump, struct vs_extack *ext);

/* The next part of a dump vs_genl_rcv_msg() started: the same returns. */
int vs_genl_dump_next(struct vs_genl_ctx *ctx, const struct nlmsghdr *nlh,
		      struct vs_nl_reply *reply, struct vs_genl_dump *dump, struct vs_extack *ext);

/*
 * The dump of the request @nlh is over or abandoned: what its op's done()
 * lets go. Safe to call more than once, and for any request.
 */
void vs_genl_dump_done(const struct nlmsghdr *nlh, struct vs_genl_dump *dump);

/* For handlers: open a reply message of the request's family and command. */
struct nlmsghdr *vs_genl_reply_put(struct vs_genl_info *info, u16 flags);

#endif /* VS_NETLINK_FAMILY_H */

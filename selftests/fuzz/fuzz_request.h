/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the kube fuzz target checks of the requests the manifest reader
 * (kube/kread.h) makes of the API server's objects: that the daemon reads
 * them or says why. The manifest target checks its requests itself
 * (fuzz_manifest.c).
 */
#ifndef VS_SELFTESTS_FUZZ_REQUEST_H
#define VS_SELFTESTS_FUZZ_REQUEST_H

#include <linux/genetlink.h>
#include <string.h>

#include "core/arena.h"
#include "fuzz.h"
#include "kube/kread.h"
#include "netlink/extack.h"
#include "netlink/family.h"
#include "netlink/msg.h"
#include "netlink/parse.h"
#include "netlink/policy.h"
#include "vsched/vsched.h"

/*
 * @doc's request @nlh (its NEW with @spec, else its DEL) passes what the
 * daemon checks first, framing and the command's attribute policy, and a
 * NEW's object is read with the daemon's parsers (in @arena, reset), its
 * resource names going in the table of @daemon as they would in the
 * daemon's cluster: their answer, 0 or the refusal in @err, which must say
 * why. The manifest reader without the core (kube/kread.h) leaves the
 * daemon to refuse what the parsers refuse (names, values).
 */
static inline int fuzz_request_parse(struct vs_cluster *daemon, const struct kr_doc *doc,
				     const struct nlmsghdr *nlh, bool spec,
				     struct vs_arena *arena, struct vs_err *err)
{
	const struct kr_kind_info *k = kr_kind(doc->kind);
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	const struct nlattr *tb[VS_A_MAX + 1];
	const struct vs_genl_op *op;
	struct vs_extack ext;
	union {
		struct vs_node_spec node;
		struct vs_queue_spec queue;
		struct vs_job_spec pg;
		struct vs_task_spec task;
		struct vs_vjob_spec vjob;
		struct vs_prioclass_spec pc;
	} s;
	int ret = 0;

	vs_extack_clear(&ext);
	FUZZ_ASSERT(!vs_nl_msg_check(nlh, &ext), "%s", ext.err.msg);
	op = vs_genl_op_find(&vs_genl_vsched, g->cmd);
	FUZZ_ASSERT(op && op->maxattr <= VS_A_MAX, "command %u", g->cmd);
	FUZZ_ASSERT(!vs_nla_validate(nlh, GENL_HDRLEN, op->policy, op->maxattr, tb, 0, &ext),
		    "%s %s/%s: %s", op->name, doc->ns ? doc->ns : "", doc->name, ext.err.msg);
	FUZZ_ASSERT(tb[k->attr], "%s without its object", op->name);
	if (!spec)
		return 0;
	memset(&s, 0, sizeof(s));
	switch (doc->kind) {
	case KR_PRIOCLASS:
		ret = vs_nl_parse_prioclass(tb[k->attr], arena, &s.pc, err);
		break;
	case KR_QUEUE:
		ret = vs_nl_parse_queue(daemon, tb[k->attr], arena, &s.queue, err);
		break;
	case KR_NODE:
		ret = vs_nl_parse_node(daemon, tb[k->attr], arena, &s.node, err);
		break;
	case KR_PODGROUP:
		ret = vs_nl_parse_podgroup(daemon, tb[k->attr], arena, &s.pg, err);
		break;
	case KR_VJOB:
		ret = vs_nl_parse_vjob(daemon, tb[k->attr], arena, &s.vjob, err);
		break;
	case KR_POD:
		ret = vs_nl_parse_task(daemon, tb[k->attr], arena, &s.task, err);
		break;
	default:
		FUZZ_ASSERT(0, "kind %d", doc->kind);
	}
	FUZZ_ASSERT(!ret || err->msg[0], "%s %s/%s refused without a reason", op->name,
		    doc->ns ? doc->ns : "", doc->name);
	vs_arena_reset(arena);
	return ret;
}

#endif /* VS_SELFTESTS_FUZZ_REQUEST_H */

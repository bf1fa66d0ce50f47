// SPDX-License-Identifier: Apache-2.0
/*
 * Fuzz target: the control socket's messages. The input is one datagram
 * from one client, as vschedd receives it: split into messages, each
 * checked (framing, command, permission, attribute policy) and handled by
 * the real handlers, batches and dumps included, on a core with a
 * scheduler on Volcano's default configuration, so that configuration
 * sets and cycles run too, with the events and status groups on.
 *
 * FUZZ_NETLINK_TRACE=1 in the environment prints each message's result.
 *
 * What must hold whatever the bytes: every answer is whole messages;
 * a dump ends; the client's going drops an open batch; and the core is
 * whole afterwards (vs_cluster_check(): accounting, indexes, pools).
 */
#include <libmnl/libmnl.h>
#include <string.h>

#include "core/arena.h"
#include "core/cluster.h"
#include "fuzz.h"
#include "netlink/batch.h"
#include "netlink/events.h"
#include "netlink/handlers.h"
#include "netlink/msg.h"
#include "registry/builtin.h"
#include "sched/conf.h"
#include "sched/framework.h"
#include "sched/session.h"

/* As vschedd's reply buffer (VSCHEDD_REPLY_MAX). */
#define REPLY_MAX	(128u << 10)
/* A dump of the cluster a datagram can make ends long before this. */
#define DUMP_PARTS_MAX	100000u

static char out[REPLY_MAX] __attribute__((aligned(4)));
/* FUZZ_NETLINK_TRACE set: each message's answer on standard error, to read a seed. */
static int trace = -1;

/* The answers in @r are whole netlink messages, back to back. */
static void check_reply(const struct vs_nl_reply *r)
{
	const struct nlmsghdr *nlh = (const void *)out;
	int left = (int)r->len;

	while (mnl_nlmsg_ok(nlh, left))
		nlh = mnl_nlmsg_next(nlh, &left);
	FUZZ_ASSERT(left == 0, "%d bytes of a broken answer", left);
}

/* The rest of a dump @nlh began, part by part, as the client reads them. */
static void finish_dump(struct vs_genl_ctx *ctx, const struct nlmsghdr *nlh,
			struct vs_genl_dump *dump)
{
	struct nlmsghdr *req = malloc(nlh->nlmsg_len);
	struct vs_nl_reply r;
	struct vs_extack ext;
	unsigned int parts = 0;
	int ret;

	FUZZ_ASSERT(req, "out of memory");
	memcpy(req, nlh, nlh->nlmsg_len);
	do {
		vs_nl_reply_init(&r, out, sizeof(out), ctx->portid);
		vs_extack_clear(&ext);
		ret = vs_genl_dump_next(ctx, req, &r, dump, &ext);
		FUZZ_ASSERT(ret <= 1, "%d", ret);
		FUZZ_ASSERT(r.len > 0, "a part of a dump with nothing in it");
		check_reply(&r);
	} while (ret == 1 && ++parts < DUMP_PARTS_MAX);
	FUZZ_ASSERT(ret != 1, "a dump of more than %u parts", DUMP_PARTS_MAX);
	free(req);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vs_cluster cl;
	struct vs_arena arena;
	struct vs_sched sched;
	struct vs_nl_core core;
	struct vs_nl_batch batch;
	struct vs_genl_ctx ctx;
	struct vs_genl_dump dump;
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err err = { { 0 } };
	const struct nlmsghdr *nlh;
	struct vs_nl_iter it;
	struct vs_nl_reply r;
	struct vs_extack ext;
	int ret;

	if (trace < 0)
		trace = getenv("FUZZ_NETLINK_TRACE") != NULL;
	memset(&core, 0, sizeof(core));
	memset(&batch, 0, sizeof(batch));
	FUZZ_ASSERT(!vs_cluster_init(&cl), "cluster");
	/* Room for anything a datagram can make, not for a VolcanoJob of a billion pods. */
	cl.limits = (struct vs_cluster_limits){
		.nodes = 2000, .queues = 1000, .podgroups = 2000, .tasks = 20000,
		.vjobs = 1000, .prioclasses = 100, .hypernodes = 1000,
	};
	vs_arena_init(&arena, 4096);
	vs_registry_names(vs_builtin_registry(), &names);
	FUZZ_ASSERT(!vs_conf_parse(vs_conf_default_text, strlen(vs_conf_default_text),
				   "default.conf", &names, VS_CONF_FLAGS_DEFAULT_ON, &conf, &err),
		    "%s", err.msg);
	FUZZ_ASSERT(!vs_sched_init(&sched, &cl, vs_builtin_registry(), conf, &err), "%s", err.msg);
	core.cl = &cl;
	core.arena = &arena;
	core.sched = &sched;
	core.hooks = &vs_nl_event_hooks;
	core.hooks_priv = &core;
	core.events.on = true;
	core.status.on = true;
	ctx = (struct vs_genl_ctx){ .portid = 9, .admin = true, .priv = &core };

	vs_nl_iter_init(&it, data, size);
	for (;;) {
		vs_extack_clear(&ext);
		vs_nl_reply_init(&r, out, sizeof(out), ctx.portid);
		ret = vs_nl_iter_next(&it, &nlh, &ext);
		if (!ret)
			break;
		if (ret < 0) {
			/* as the daemon: the rest is lost, answered once, and dooms a batch */
			FUZZ_ASSERT(ext.err.msg[0], "a broken datagram refused without a reason");
			vs_nl_batch_doom(&batch, &it.bad, &ext);
			vs_nl_reply_error(&r, &it.bad, ret, &ext);
			check_reply(&r);
			break;
		}
		ret = vs_nl_rcv(&ctx, &batch, nlh, &r, &dump, &ext);
		if (trace)
			fprintf(stderr, "seq %u: %d %s\n", nlh->nlmsg_seq, ret, ext.err.msg);
		FUZZ_ASSERT(ret <= 1, "%d", ret);
		FUZZ_ASSERT(ret >= 0 || ext.err.msg[0], "refused (%d) without a reason", ret);
		check_reply(&r);
		if (ret == 1)
			finish_dump(&ctx, nlh, &dump);
		/* what the message made for the groups goes out, as the daemon sends it */
		vs_nl_events_sent(&core.events);
		vs_nl_events_sent(&core.status);
	}
	/* The client goes: an open batch is dropped, never applied. */
	vs_nl_batch_release(&batch);
	FUZZ_ASSERT(!vs_cluster_check(&cl, &err), "%s", err.msg);

	vs_nl_events_release(&core.events);
	vs_nl_events_release(&core.status);
	vs_sched_destroy(&sched);
	vs_arena_destroy(&arena);
	vs_cluster_destroy(&cl);
	return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the tests of the control commands and of batches share: a core with
 * a cluster and (if asked) a scheduler on Volcano's default configuration,
 * one admin client with its batch, requests sent as the daemon will send
 * them (vs_nl_rcv()), objects written as a client writes them, and readers
 * of the replies.
 */
#ifndef VS_SELFTESTS_CTLTEST_H
#define VS_SELFTESTS_CTLTEST_H

#include "nltest.h"
#include "../sched/testreg.h"
#include "netlink/batch.h"
#include "netlink/ctl.h"
#include "netlink/events.h"
#include "netlink/handlers.h"
#include "sched/framework.h"
#include "sched/session.h"

#define CT_MI		(1024LL * 1024)

static struct {
	struct vs_cluster cl;
	struct vs_arena arena;
	struct vs_sched sched;
	struct vs_nl_core core;
	struct vs_genl_ctx ctx;
	struct vs_nl_reply reply;
	struct vs_extack ext;
	struct vs_genl_dump dump;
	struct vs_nl_batch batch;
	char req[1 << 17] __attribute__((aligned(4)));
	char out[1 << 17] __attribute__((aligned(4)));
} ct;

/* A core on a fresh cluster; with a scheduler on Volcano's default configuration if @sched. */
static inline void ct_setup(bool sched)
{
	struct vs_err e = { { 0 } };

	memset(&ct.batch, 0, sizeof(ct.batch));
	memset(&ct.core, 0, sizeof(ct.core));
	cr_assert_eq(vs_cluster_init(&ct.cl), 0);
	vs_arena_init(&ct.arena, 4096);
	ct.core.cl = &ct.cl;
	ct.core.arena = &ct.arena;
	if (sched) {
		struct vs_conf_names names;
		struct vs_conf *conf;

		vs_registry_names(vs_test_registry(), &names);
		cr_assert_eq(vs_conf_parse(vs_conf_default_text, strlen(vs_conf_default_text),
					   "default.conf", &names, VS_CONF_FLAGS_DEFAULT_ON, &conf,
					   &e), 0, "%s", e.msg);
		cr_assert_eq(vs_sched_init(&ct.sched, &ct.cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
		ct.core.sched = &ct.sched;
	}
	ct.ctx = (struct vs_genl_ctx){ .portid = 7, .admin = true, .priv = &ct.core };
}

static inline void ct_teardown(void)
{
	vs_nl_batch_release(&ct.batch);
	if (ct.core.sched)
		vs_sched_destroy(&ct.sched);
	vs_arena_destroy(&ct.arena);
	vs_cluster_destroy(&ct.cl);
}

static inline void ct_setup_sched(void)
{
	ct_setup(true);
}

static inline void ct_setup_objects(void)
{
	ct_setup(false);
}

/* A request of @cmd in ct.req: seq 42, NLM_F_REQUEST and @flags. */
static inline struct nlmsghdr *ct_req(u8 cmd, u16 flags)
{
	memset(ct.req, 0, 256);
	return nlt_request(ct.req, cmd, flags);
}

/*
 * Send every message of the datagram @buf (@len bytes) as the daemon does,
 * answers into ct.out one after the other. Returns the first failure (its
 * extack in ct.ext), else the return of the last message.
 */
static inline int ct_send_dgram(const void *buf, size_t len)
{
	const struct nlmsghdr *nlh;
	struct vs_extack ext;
	struct vs_nl_iter it;
	int ret = 0, r;

	vs_nl_reply_init(&ct.reply, ct.out, sizeof(ct.out), ct.ctx.portid);
	vs_nl_iter_init(&it, buf, len);
	vs_extack_clear(&ct.ext);
	for (;;) {
		vs_extack_clear(&ext);
		r = vs_nl_iter_next(&it, &nlh, &ext);
		if (r < 0) {
			/* as the daemon: answer the broken message, doom an open batch */
			vs_nl_reply_error(&ct.reply, &it.bad, r, &ext);
			vs_nl_batch_doom(&ct.batch, &it.bad, &ext);
			if (ret >= 0) {
				ret = r;
				ct.ext = ext;
			}
		}
		if (r <= 0)
			break;
		r = vs_nl_rcv(&ct.ctx, &ct.batch, nlh, &ct.reply, &ct.dump, &ext);
		if (ret >= 0) {
			ret = r;
			ct.ext = ext;
		}
	}
	return ret;
}

static inline int ct_send(const struct nlmsghdr *nlh)
{
	return ct_send_dgram(nlh, nlh->nlmsg_len);
}

/* The message after @nlh in a datagram being written: a request of @cmd with sequence @seq. */
static inline struct nlmsghdr *ct_next(struct nlmsghdr *nlh, u8 cmd, u16 flags, u32 seq)
{
	struct nlmsghdr *next = nlt_request((char *)nlh + NLMSG_ALIGN(nlh->nlmsg_len), cmd, flags);

	next->nlmsg_seq = seq;
	return next;
}

/* The length of a datagram from @first to the end of @last. */
static inline size_t ct_len(const struct nlmsghdr *first, const struct nlmsghdr *last)
{
	return (size_t)((const char *)last - (const char *)first) + last->nlmsg_len;
}

/* ---- objects as a client writes them ---- */

static inline void ct_put_res(struct nlmsghdr *nlh, u16 type, s64 mcpu, s64 mem, s64 pods)
{
	struct nlattr *r = mnl_attr_nest_start(nlh, type);

	mnl_attr_put_u64(nlh, VS_RES_A_CPU, (u64)mcpu);
	mnl_attr_put_u64(nlh, VS_RES_A_MEMORY, (u64)mem);
	if (pods >= 0)
		mnl_attr_put_u64(nlh, VS_RES_A_PODS, (u64)pods);
	mnl_attr_nest_end(nlh, r);
}

static inline void ct_put_node(struct nlmsghdr *nlh, const char *name, s64 mcpu)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE);

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, name);
	if (mcpu >= 0)
		ct_put_res(nlh, VS_NODE_A_ALLOCATABLE, mcpu, mcpu * CT_MI, 110);
	mnl_attr_nest_end(nlh, n);
}

static inline void ct_put_queue(struct nlmsghdr *nlh, const char *name, u32 weight)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_QUEUE);

	mnl_attr_put_strz(nlh, VS_QUEUE_A_NAME, name);
	if (weight)
		mnl_attr_put_u32(nlh, VS_QUEUE_A_WEIGHT, weight);
	mnl_attr_nest_end(nlh, n);
}

static inline void ct_put_pg(struct nlmsghdr *nlh, const char *name, const char *queue,
			     u32 min_member)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_PODGROUP);

	mnl_attr_put_strz(nlh, VS_PG_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_PG_A_NAME, name);
	if (queue)
		mnl_attr_put_strz(nlh, VS_PG_A_QUEUE, queue);
	if (min_member)
		mnl_attr_put_u32(nlh, VS_PG_A_MIN_MEMBER, min_member);
	mnl_attr_nest_end(nlh, n);
}

/* A task of namespace "ns" in @pg, asking @mcpu; on @node with @status when @node is set. */
static inline void ct_put_task(struct nlmsghdr *nlh, const char *name, const char *pg, s64 mcpu,
			       const char *node, enum vs_task_status_uapi status)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_TASK);

	mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_TASK_A_NAME, name);
	if (pg)
		mnl_attr_put_strz(nlh, VS_TASK_A_PODGROUP, pg);
	if (mcpu >= 0)
		ct_put_res(nlh, VS_TASK_A_REQUEST, mcpu, mcpu * CT_MI, -1);
	if (node) {
		mnl_attr_put_strz(nlh, VS_TASK_A_NODE, node);
		mnl_attr_put_u32(nlh, VS_TASK_A_STATUS, status);
	}
	mnl_attr_nest_end(nlh, n);
}

/* Only a key: DEL and GET. */
static inline void ct_put_key(struct nlmsghdr *nlh, u16 type, const char *ns, const char *name)
{
	static const u16 name_type[] = {
		[VS_A_NODE] = VS_NODE_A_NAME, [VS_A_QUEUE] = VS_QUEUE_A_NAME,
		[VS_A_PODGROUP] = VS_PG_A_NAME, [VS_A_TASK] = VS_TASK_A_NAME,
		[VS_A_VJOB] = VS_VJOB_A_NAME, [VS_A_PRIOCLASS] = VS_PC_A_NAME,
	};
	static const u16 ns_type[] = {
		[VS_A_PODGROUP] = VS_PG_A_NAMESPACE, [VS_A_TASK] = VS_TASK_A_NAMESPACE,
		[VS_A_VJOB] = VS_VJOB_A_NAMESPACE,
	};
	struct nlattr *n = mnl_attr_nest_start(nlh, type);

	if (ns)
		mnl_attr_put_strz(nlh, ns_type[type], ns);
	mnl_attr_put_strz(nlh, name_type[type], name);
	mnl_attr_nest_end(nlh, n);
}

/* A VS_CMD_TASK_STATUS of the task ns/@name. */
static inline void ct_put_report(struct nlmsghdr *nlh, const char *name,
				 enum vs_task_event event, const char *nominated)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_TASK);

	mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_TASK_A_NAME, name);
	mnl_attr_put_u32(nlh, VS_TASK_A_EVENT, event);
	if (nominated)
		mnl_attr_put_strz(nlh, VS_TASK_A_NOMINATED_NODE, nominated);
	mnl_attr_nest_end(nlh, n);
}

static inline void ct_put_event(struct nlmsghdr *nlh, const char *name,
				enum vs_task_event event)
{
	ct_put_report(nlh, name, event, NULL);
}

/* A VS_A_BIND_RESULT for the task ns/@name; @node and @msg when not NULL. */
static inline void ct_put_bind(struct nlmsghdr *nlh, const char *name, const char *node,
			       s32 error, const char *msg)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_BIND_RESULT);

	mnl_attr_put_strz(nlh, VS_BIND_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_BIND_A_NAME, name);
	if (node)
		mnl_attr_put_strz(nlh, VS_BIND_A_NODE, node);
	mnl_attr_put_u32(nlh, VS_BIND_A_ERROR, (u32)error);
	if (msg)
		mnl_attr_put_strz(nlh, VS_BIND_A_MESSAGE, msg);
	mnl_attr_nest_end(nlh, n);
}

/* Describe one notification into @buf of @len bytes; the length written. */
typedef size_t (*ct_describe_fn)(const struct nlmsghdr *nlh, char *buf, size_t len);

/*
 * The notifications waiting in @ev (core.events, core.status), each checked
 * against the reply policy as a client reads them and described into @text
 * of @size bytes; @ev is then empty, as after the daemon sent it.
 */
static inline char *ct_take_notes(struct vs_nl_events *ev, ct_describe_fn describe, char *text,
				  size_t size)
{
	const struct nlmsghdr *nlh = (const void *)ev->buf;
	int left = (int)ev->len;
	size_t n = 0;
	u32 nr = 0;

	text[0] = 0;
	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		const struct nlattr *tb[VS_A_MAX + 1];
		struct vs_extack e = { 0 };

		cr_assert_eq(vs_nla_validate(nlh, GENL_HDRLEN, vs_genl_reply_policy, VS_A_MAX, tb,
					     VS_NLA_V_REPLY, &e), 0, "%s", e.err.msg);
		n += describe(nlh, text + n, size - n);
		nr++;
	}
	cr_assert_eq(left, 0, "the notifications are whole messages");
	cr_assert_eq(nr, ev->nr);
	cr_assert_not(ev->lost);
	vs_nl_events_sent(ev);
	return text;
}

/* Send one request that must succeed. */
#define CT_OK(_nlh)	cr_assert_eq(ct_send(_nlh), 0, "%s", ct.ext.err.msg)

/*
 * A request of @_cmd, filled by the statements that follow (which see it
 * as __n), sent, and asserted to succeed.
 */
#define CT_SEND_OK(_cmd, ...)							\
	do {									\
		struct nlmsghdr *__n = ct_req(_cmd, 0);				\
										\
		__VA_ARGS__;							\
		CT_OK(__n);							\
	} while (0)

/* One cycle now, as VS_CMD_CYCLE_RUN runs it. */
static inline void ct_cycle(void)
{
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
}

/* A VS_CMD_TASK_STATUS of ns/@name: @event, and @exit_code when not 0; what it returns. */
static inline int ct_report(const char *name, enum vs_task_event event, s32 exit_code)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_TASK_STATUS, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_TASK);

	mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_TASK_A_NAME, name);
	mnl_attr_put_u32(nlh, VS_TASK_A_EVENT, event);
	if (exit_code)
		mnl_attr_put_u32(nlh, VS_TASK_A_EXIT_CODE, (u32)exit_code);
	mnl_attr_nest_end(nlh, n);
	return ct_send(nlh);
}

/* ---- replies ---- */

/* The @n-th message (from 0) of the reply, or NULL. */
static inline const struct nlmsghdr *ct_reply_msg(unsigned int n)
{
	const struct nlmsghdr *r = (const void *)ct.out;
	int left = (int)ct.reply.len;

	for (; mnl_nlmsg_ok(r, left); r = mnl_nlmsg_next(r, &left))
		if (!n--)
			return r;
	return NULL;
}

static inline unsigned int ct_reply_count(void)
{
	unsigned int n = 0;

	while (ct_reply_msg(n))
		n++;
	return n;
}

/* The sequence number of the @n-th reply message. */
static inline u32 ct_reply_seq(unsigned int n)
{
	const struct nlmsghdr *r = ct_reply_msg(n);

	cr_assert_not_null(r, "no reply message %u", n);
	return r ? r->nlmsg_seq : 0;
}

/* The errno of the @n-th reply message, an NLMSG_ERROR (0: an ack). */
static inline int ct_reply_errno(unsigned int n)
{
	const struct nlmsghdr *r = ct_reply_msg(n);

	cr_assert_not_null(r, "no reply message %u", n);
	cr_assert_eq(r->nlmsg_type, NLMSG_ERROR, "reply %u is no NLMSG_ERROR", n);
	return ((const struct nlmsgerr *)mnl_nlmsg_get_payload(r))->error;
}

/* The top-level attribute @type of a generic netlink message, or NULL. */
static inline const struct nlattr *ct_attr(const struct nlmsghdr *nlh, u16 type)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN)
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

/* The attribute @type inside @nest, or NULL. */
static inline const struct nlattr *ct_nested(const struct nlattr *nest, u16 type)
{
	const struct nlattr *a;

	if (!nest)
		return NULL;
	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

/* The reply message of vsched's family, checked against the reply policy. */
static inline const struct nlmsghdr *ct_reply_genl(void)
{
	const struct nlattr *tb[VS_A_MAX + 1];
	const struct nlmsghdr *r = ct_reply_msg(0);
	struct vs_extack e = { 0 };

	cr_assert_not_null(r);
	cr_assert_eq(r->nlmsg_type, VSCHED_GENL_ID);
	cr_assert_eq(r->nlmsg_seq, 42);
	cr_assert_eq(vs_nla_validate(r, GENL_HDRLEN, vs_genl_reply_policy, VS_A_MAX, tb,
				     VS_NLA_V_REPLY, &e), 0, "%s", e.err.msg);
	return r;
}

/* ---- the cluster, by the core's own calls ---- */

static inline struct vs_task *ct_task(const char *name)
{
	return vs_task_find(&ct.cl, "ns", name);
}

#endif /* VS_SELFTESTS_CTLTEST_H */

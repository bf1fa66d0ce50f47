/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Requests to a daemon under test, built as vsctl builds them (libvsnl,
 * libnl's nla_put_*): what the tests that drive a daemon through libvsnl
 * share.
 */
#ifndef VS_SELFTESTS_DREQ_H
#define VS_SELFTESTS_DREQ_H

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "core/compiler.h"
#include "lib/vsnl.h"

/* Resources; @pods only for a node's (a task's request counts its pod itself). */
static inline void dr_put_res(struct nl_msg *m, int type, u64 mcpu, u64 mem, u64 pods)
{
	struct nlattr *res = nla_nest_start(m, type);

	nla_put_u64(m, VS_RES_A_CPU, mcpu);
	nla_put_u64(m, VS_RES_A_MEMORY, mem);
	if (pods)
		nla_put_u64(m, VS_RES_A_PODS, pods);
	nla_nest_end(m, res);
}

static inline struct nl_msg *dr_node_new(const char *name, u64 mcpu)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_NODE_NEW, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_NODE);

	nla_put_string(m, VS_NODE_A_NAME, name);
	dr_put_res(m, VS_NODE_A_ALLOCATABLE, mcpu, 8ULL << 30, 110);
	nla_nest_end(m, n);
	return m;
}

static inline struct nl_msg *dr_queue_new(const char *name)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_QUEUE_NEW, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_QUEUE);

	nla_put_string(m, VS_QUEUE_A_NAME, name);
	nla_put_u32(m, VS_QUEUE_A_WEIGHT, 1);
	nla_nest_end(m, n);
	return m;
}

static inline struct nl_msg *dr_pg_new(const char *ns, const char *name, const char *queue, u32 min)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_PODGROUP_NEW, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_PODGROUP);

	nla_put_string(m, VS_PG_A_NAMESPACE, ns);
	nla_put_string(m, VS_PG_A_NAME, name);
	nla_put_string(m, VS_PG_A_QUEUE, queue);
	nla_put_u32(m, VS_PG_A_MIN_MEMBER, min);
	nla_nest_end(m, n);
	return m;
}

static inline struct nl_msg *dr_task_new(const char *ns, const char *name, const char *pg, u64 mcpu)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_TASK_NEW, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_TASK);

	nla_put_string(m, VS_TASK_A_NAMESPACE, ns);
	nla_put_string(m, VS_TASK_A_NAME, name);
	nla_put_string(m, VS_TASK_A_PODGROUP, pg);
	dr_put_res(m, VS_TASK_A_REQUEST, mcpu, 1ULL << 30, 0);
	nla_nest_end(m, n);
	return m;
}

/* A request of @cmd that names task @ns/@name and nothing else (GET, DEL). */
static inline struct nl_msg *dr_task_key(u8 cmd, const char *ns, const char *name)
{
	struct nl_msg *m = vsnl_msg_new(cmd, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_TASK);

	nla_put_string(m, VS_TASK_A_NAMESPACE, ns);
	nla_put_string(m, VS_TASK_A_NAME, name);
	nla_nest_end(m, n);
	return m;
}

/* The same for PodGroup @ns/@name. */
static inline struct nl_msg *dr_pg_key(u8 cmd, const char *ns, const char *name)
{
	struct nl_msg *m = vsnl_msg_new(cmd, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_PODGROUP);

	nla_put_string(m, VS_PG_A_NAMESPACE, ns);
	nla_put_string(m, VS_PG_A_NAME, name);
	nla_nest_end(m, n);
	return m;
}

#endif /* VS_SELFTESTS_DREQ_H */

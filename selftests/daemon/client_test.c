// SPDX-License-Identifier: Apache-2.0
/*
 * vschedd's parts in-process, with a client on a socketpair: the admin
 * permission, subscriptions and the binder's mode, the out-queue's bound
 * and the ENOBUFS that follows an overrun, the receive queue a connection
 * asks for (VS_CMD_CONN_SET), and VS_CMD_DECISIONS split over messages of
 * bounded size.
 */
#include <sys/epoll.h>
#include <sys/resource.h>

#include "dtest.h"
#include "netlink/policy.h"

static struct dtest t;
static struct vschedd d;
static struct vs_client *c;
static int peer = -1;			/* the client's end */

static void setup(void)
{
	struct vschedd_opts o = { .period_ms = 0 };
	struct ucred cred = { .pid = getpid(), .uid = 1000, .gid = 1000 };
	struct vs_err err = { { 0 } };
	int sv[2];

	dt_paths(&t);
	o.socket_path = t.path;
	vs_log_file = fopen(t.log, "ae");
	cr_assert_eq(vschedd_init(&d, &o, &err), 0, "%s", err.msg);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	c = vschedd_client_new(&d, sv[0], &cred, NULL, 0);
	cr_assert_not_null(c);
	peer = sv[1];
}

static void teardown(void)
{
	vschedd_destroy(&d);
	close(peer);
	if (vs_log_file)
		fclose(vs_log_file);
	vs_log_file = NULL;
	dt_cleanup(&t);
}

TestSuite(vschedd_parts, .init = setup, .fini = teardown);

Test(vschedd_parts, the_admin_permission_is_roots_or_the_admin_groups)
{
	struct vschedd_opts o = { 0 };
	const gid_t groups[] = { 10, 4242, 20 };

	cr_assert(vschedd_peer_admin(&o, 0, 1000, NULL, 0));
	cr_assert_not(vschedd_peer_admin(&o, 1000, 1000, groups, 3));
	o.have_admin_group = true;
	o.admin_gid = 4242;
	cr_assert(vschedd_peer_admin(&o, 1000, 1000, groups, 3), "a supplementary group");
	cr_assert(vschedd_peer_admin(&o, 1000, 4242, NULL, 0), "the peer's group");
	cr_assert_not(vschedd_peer_admin(&o, 1000, 1000, groups, 1));
	/* A client of uid 1000 is no admin here. */
	cr_assert_not(c->ctx.admin);
	cr_assert_eq(c->ctx.priv, &d.core);
	cr_assert_neq(c->ctx.portid, 0);
}

Test(vschedd_parts, the_binder_is_auto_until_an_admin_subscribes_to_decisions)
{
	cr_assert(vschedd_binder_auto(&d));
	/* A reader hears the decisions, and the daemon still confirms them. */
	vschedd_client_subscribe(&d, c, VS_MCGRP_DECISIONS, true);
	cr_assert_eq(d.nr_subscribers[VS_MCGRP_DECISIONS], 1);
	cr_assert(vschedd_binder_auto(&d), "a reader's subscription made it the binder");
	vschedd_client_subscribe(&d, c, VS_MCGRP_DECISIONS, false);
	/* As a client of root's or the admin group's would be. */
	c->ctx.admin = true;
	vschedd_client_subscribe(&d, c, VS_MCGRP_DECISIONS, true);
	vschedd_client_subscribe(&d, c, VS_MCGRP_DECISIONS, true);	/* twice is once */
	cr_assert_eq(d.nr_subscribers[VS_MCGRP_DECISIONS], 1);
	cr_assert_not(vschedd_binder_auto(&d));
	d.opts.binder = VSCHEDD_BINDER_AUTO;
	cr_assert(vschedd_binder_auto(&d), "--binder=auto confirms whoever listens");
	d.opts.binder = VSCHEDD_BINDER_DEFAULT;
	/* A client that goes leaves its groups. */
	vschedd_client_kill(&d, c);
	cr_assert_eq(d.nr_subscribers[VS_MCGRP_DECISIONS], 0);
	cr_assert(vschedd_binder_auto(&d));
	vschedd_client_reap(&d);
	c = NULL;
}

/*
 * Read what the client's end holds, letting the daemon send what waits
 * (as epoll would say the socket has room), until nothing is left; each
 * message to @cb.
 */
static void drain(void (*cb)(const struct nlmsghdr *nlh, void *arg), void *arg)
{
	static char rx[VSCHEDD_REPLY_MAX];

	for (;;) {
		ssize_t n;

		while ((n = recv(peer, rx, sizeof(rx), MSG_DONTWAIT)) > 0) {
			int left = (int)n;

			for (struct nlmsghdr *nlh = (struct nlmsghdr *)rx; mnl_nlmsg_ok(nlh, left);
			     nlh = mnl_nlmsg_next(nlh, &left))
				cb(nlh, arg);
		}
		if (list_empty(&c->outq) && !c->overrun)
			return;
		c->w.ready(&c->w, EPOLLOUT);
	}
}

struct cycles_seen {
	u64 next;			/* the id expected next, if no gap */
	u32 count, gaps;
	int enobufs;
	bool after_enobufs;		/* a notification came after the ENOBUFS */
};

static void see_cycle(const struct nlmsghdr *nlh, void *arg)
{
	struct cycles_seen *s = arg;
	const struct nlattr *a, *id;
	const char *msg;

	if (nlh->nlmsg_type == NLMSG_ERROR) {
		s->enobufs = dt_error(nlh, &msg);
		cr_assert_eq(nlh->nlmsg_seq, 0);
		cr_assert_eq(nlh->nlmsg_pid, c->ctx.portid);
		cr_assert(strstr(msg, "notifications were dropped"), "%s", msg);
		return;
	}
	if (s->enobufs)
		s->after_enobufs = true;
	a = mnl_nlmsg_get_payload_offset(nlh, GENL_HDRLEN);
	cr_assert_eq(mnl_attr_get_type(a), VS_A_CYCLE);
	id = mnl_attr_get_payload(a);
	cr_assert_eq(mnl_attr_get_type(id), VS_CYCLE_A_ID);
	if (mnl_attr_get_u64(id) != s->next)
		s->gaps++;
	cr_assert_gt(mnl_attr_get_u64(id), s->next - 1, "out of order");
	s->next = mnl_attr_get_u64(id) + 1;
	s->count++;
}

Test(vschedd_parts, notifications_past_the_bound_are_dropped_then_enobufs_tells_it)
{
	struct vs_nl_cycle cy = { 0 };
	struct cycles_seen s = { .next = 1 };
	const u32 n = 4000;

	d.outq_max = 16 << 10;
	vschedd_client_subscribe(&d, c, VS_MCGRP_CYCLES, true);
	for (u32 i = 1; i <= n; i++) {
		cy.id = i;
		vschedd_notify_cycle(&d, &cy);
	}
	cr_assert(c->overrun, "the socket and the out-queue held %u notifications", n);
	cr_assert_leq(c->outq_bytes, d.outq_max);
	drain(see_cycle, &s);
	cr_assert_eq(s.enobufs, -ENOBUFS);
	cr_assert_not(s.after_enobufs, "the ENOBUFS comes after what was kept");
	cr_assert_lt(s.count, n);
	/* As netlink drops what does not fit, the newest went: the oldest came, without a hole. */
	cr_assert_eq(s.gaps, 0, "what was kept came in order");
	cr_assert_eq(s.next, s.count + 1);
	/* Told, the client gets notifications again. */
	cy.id = n + 1;
	vschedd_notify_cycle(&d, &cy);
	s.enobufs = 0;
	s.next = n + 1;
	s.gaps = 0;
	drain(see_cycle, &s);
	cr_assert_eq(s.gaps, 0);
	cr_assert_eq(s.next, n + 2);
	cr_assert_eq(s.enobufs, 0);
}

/* Another client of @uid on a socketpair: its end in *@end. */
static struct vs_client *client_of(uid_t uid, int *end)
{
	struct ucred cred = { .pid = getpid(), .uid = uid, .gid = uid };
	struct vs_client *x;
	int sv[2];

	cr_assert_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	x = vschedd_client_new(&d, sv[0], &cred, NULL, 0);
	cr_assert_not_null(x);
	*end = sv[1];
	return x;
}

/* Cycle notifications to everyone in the cycles group until @c has @bytes waiting (or @most went). */
static u32 notify_until(const struct vs_client *x, size_t bytes, u32 most)
{
	struct vs_nl_cycle cy = { 0 };
	u32 i;

	for (i = 1; i <= most && x->outq_bytes < bytes; i++) {
		cy.id = i;
		vschedd_notify_cycle(&d, &cy);
	}
	return i - 1;
}

Test(vschedd_parts, unprivileged_readers_queue_no_more_than_their_bound_together)
{
	struct cycles_seen s = { .next = 1 };
	struct vs_client *other, *admin;
	int other_end, admin_end;
	u32 n;

	d.unpriv_queue_max = 64 << 10;
	other = client_of(1001, &other_end);
	admin = client_of(0, &admin_end);
	cr_assert(admin->ctx.admin);
	/* Each asks for a large queue, and reads nothing. */
	for (struct vs_client *x = c;; x = x == c ? other : admin) {
		vschedd_client_set_rcvbuf(&d, x, 16 << 20);
		vschedd_client_subscribe(&d, x, VS_MCGRP_CYCLES, true);
		if (x == admin)
			break;
	}
	n = notify_until(admin, 256 << 10, 100000);
	cr_assert_geq(admin->outq_bytes, 256 << 10, "%u notifications", n);
	/* The two readers share the bound, and are told; the admin's queue is its own. */
	cr_assert_leq(c->outq_bytes + other->outq_bytes, 64 << 10);
	cr_assert_eq(d.queued_unpriv, c->outq_bytes + other->outq_bytes);
	cr_assert_geq(d.queued, c->outq_bytes + other->outq_bytes + admin->outq_bytes);
	cr_assert(c->overrun && other->overrun);
	cr_assert_not(admin->overrun);
	/* What was kept comes in order, then ENOBUFS. */
	drain(see_cycle, &s);
	cr_assert_eq(s.enobufs, -ENOBUFS);
	cr_assert_not(s.after_enobufs);
	cr_assert_eq(s.gaps, 0);
	/* What a reader read makes room again: the bytes charged follow the queues. */
	cr_assert_eq(d.queued_unpriv, other->outq_bytes);
	vschedd_client_kill(&d, other);
	vschedd_client_kill(&d, admin);
	cr_assert_eq(d.queued_unpriv, 0);
	cr_assert_eq(d.queued, 0);
	close(other_end);
	close(admin_end);
}

Test(vschedd_parts, what_waits_for_readers_does_not_count_against_the_memory_cap)
{
	u64 used;

	if (!vs_mem_counted(NULL))
		cr_skip_test("the allocator counts nothing here (valgrind replaces it)");
	vschedd_client_set_rcvbuf(&d, c, 16 << 20);
	vschedd_client_subscribe(&d, c, VS_MCGRP_CYCLES, true);
	d.mem_cap.max = vs_mem_allocated() + (1 << 20);
	notify_until(c, 4 << 20, 1000000);
	cr_assert_geq(c->outq_bytes, 4 << 20);
	cr_assert_geq(vs_mem_allocated(), d.mem_cap.max, "the queue is in the heap");
	/* The writers' view: the state alone, under its cap. */
	cr_assert_not(vs_mem_cap_reached(c->ctx.mem, &used), "%llu bytes counted",
		      (unsigned long long)used);
	cr_assert_lt(used, d.mem_cap.max);
}

Test(vschedd_parts, replies_are_kept_past_the_bound_and_dropped_past_the_hard_one)
{
	static char buf[VSCHEDD_REPLY_MAX];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	unsigned int sent = 0, got = 0;

	d.outq_max = 16 << 10;
	/* Replies (not notifications) of 4 KiB: kept until the hard bound, 4 x outq_max. */
	memset(buf, 0, 4096);
	nlh->nlmsg_len = 4096;
	nlh->nlmsg_type = NLMSG_NOOP;
	for (;;) {
		nlh->nlmsg_seq = sent;
		if (vschedd_send(&d, c, buf, 4096, false))
			break;
		sent++;
		cr_assert_lt(sent, 10000, "the socket and the out-queue took everything");
	}
	cr_assert_eq(c->outq_bytes, 4 * d.outq_max, "replies wait up to the hard bound");
	cr_assert(c->overrun);
	for (;;) {
		ssize_t len;

		while ((len = recv(peer, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const char *msg;

				cr_assert_eq(dt_error(nlh, &msg), -ENOBUFS);
				cr_assert_eq(got, sent, "the ENOBUFS comes after what was kept");
				continue;
			}
			cr_assert_eq(nlh->nlmsg_seq, got);
			got++;
		}
		if (list_empty(&c->outq) && !c->overrun)
			break;
		c->w.ready(&c->w, EPOLLOUT);
	}
	cr_assert_eq(got, sent);
}

/* ---- the receive queue a connection asks for ---- */

struct conn_answer {
	int error;			/* the NLMSG_ERROR's, 0 for an ack */
	const char *msg;
	u32 offs;			/* NLMSGERR_ATTR_OFFS, 0 when none */
	bool have_conn;			/* a VS_CMD_CONN_GET reply came */
	u64 rcvbuf, rcvbuf_max;
	u32 portid;
	u8 hold;
	bool hold_padded;		/* VS_CONN_A_HOLD's three bytes of padding are zero */
};

/*
 * @cmd for the client's own connection (VS_CMD_CONN_SET of @rcvbuf), handed
 * to the daemon as its socket would hand it over, and its answers read.
 * *@attr_offs: where VS_CONN_A_RCVBUF is in the request. A @rcvbuf of 0
 * leaves the nest empty.
 */
static void conn_request(u8 cmd, u64 rcvbuf, struct conn_answer *ans, u32 *attr_offs)
{
	static char buf[4096], rx[VSCHEDD_REPLY_MAX];
	struct nlmsghdr *nlh = nlt_request(buf, cmd, NLM_F_ACK);
	ssize_t n;
	int left;

	if (cmd == VS_CMD_CONN_SET) {
		struct nlattr *nest = mnl_attr_nest_start(nlh, VS_A_CONN);

		if (attr_offs)
			*attr_offs = nlh->nlmsg_len;
		if (rcvbuf)
			mnl_attr_put_u64(nlh, VS_CONN_A_RCVBUF, rcvbuf);
		mnl_attr_nest_end(nlh, nest);
	}
	memset(ans, 0, sizeof(*ans));
	vschedd_rcv(&d, c, buf, nlh->nlmsg_len);
	n = recv(peer, rx, sizeof(rx), MSG_DONTWAIT);
	cr_assert_gt(n, 0, "answered");
	left = (int)n;
	for (nlh = (struct nlmsghdr *)rx; mnl_nlmsg_ok(nlh, left);
	     nlh = mnl_nlmsg_next(nlh, &left)) {
		const struct nlattr *a, *b;

		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
			size_t off = sizeof(*e);

			ans->error = dt_error(nlh, &ans->msg);
			if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
				off += e->msg.nlmsg_len - NLMSG_HDRLEN;
			if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
				mnl_attr_for_each(a, nlh, NLMSG_ALIGN(off))
					if (mnl_attr_get_type(a) == NLMSGERR_ATTR_OFFS)
						ans->offs = mnl_attr_get_u32(a);
			continue;
		}
		a = mnl_nlmsg_get_payload_offset(nlh, GENL_HDRLEN);
		cr_assert_eq(mnl_attr_get_type(a), VS_A_CONN);
		ans->have_conn = true;
		mnl_attr_for_each_nested(b, a) {
			if (mnl_attr_get_type(b) == VS_CONN_A_RCVBUF)
				ans->rcvbuf = mnl_attr_get_u64(b);
			else if (mnl_attr_get_type(b) == VS_CONN_A_RCVBUF_MAX)
				ans->rcvbuf_max = mnl_attr_get_u64(b);
			else if (mnl_attr_get_type(b) == VS_CONN_A_PORTID)
				ans->portid = mnl_attr_get_u32(b);
			else if (mnl_attr_get_type(b) == VS_CONN_A_HOLD) {
				const u8 *p = mnl_attr_get_payload(b);

				ans->hold = p[0];
				ans->hold_padded = !p[1] && !p[2] && !p[3];
			}
		}
	}
}

/* As many cycle notifications as it takes a queue of 16 KiB to overflow, and more. */
static struct cycles_seen notify_cycles(u32 n)
{
	struct cycles_seen s = { .next = 1 };
	struct vs_nl_cycle cy = { 0 };

	for (u32 i = 1; i <= n; i++) {
		cy.id = i;
		vschedd_notify_cycle(&d, &cy);
	}
	drain(see_cycle, &s);
	return s;
}

Test(vschedd_parts, a_connection_reads_its_receive_queue_and_the_maximum)
{
	struct conn_answer ans;

	/* What earlier answers left in the reply buffer never reaches a client. */
	memset(d.txbuf, 0xa5, VSCHEDD_REPLY_MAX);
	conn_request(VS_CMD_CONN_GET, 0, &ans, NULL);
	cr_assert_eq(ans.error, 0, "%s", ans.msg);
	cr_assert(ans.have_conn);
	cr_assert(ans.hold_padded, "a u8's padding is zeroed");
	cr_assert_eq(ans.rcvbuf, VSCHEDD_OUTQ_MAX, "16 MiB until it asks");
	cr_assert_eq(ans.rcvbuf_max, VSCHEDD_RCVBUF_MAX_DEFAULT);
	cr_assert_eq(ans.portid, c->ctx.portid);
	cr_assert_eq(ans.hold, 0, "no hold until it asks");
	cr_assert_not(c->ctx.admin, "no admin permission needed");
}

Test(vschedd_parts, a_conn_set_that_sets_nothing_is_refused_and_changes_nothing)
{
	struct conn_answer ans;

	conn_request(VS_CMD_CONN_SET, 0, &ans, NULL);
	cr_assert_eq(ans.error, -EINVAL);
	cr_assert_str_eq(ans.msg, "conn: nothing to set: give rcvbuf (VS_CONN_A_RCVBUF) or hold "
			 "(VS_CONN_A_HOLD)");
	conn_request(VS_CMD_CONN_GET, 0, &ans, NULL);
	cr_assert_eq(ans.rcvbuf, VSCHEDD_OUTQ_MAX);
	cr_assert_eq(d.nr_holds, 0);
}

Test(vschedd_parts, a_queue_asked_larger_holds_what_the_default_drops)
{
	struct cycles_seen s;
	struct conn_answer ans;
	const u32 n = 4000;

	d.outq_max = 16 << 10;
	vschedd_client_subscribe(&d, c, VS_MCGRP_CYCLES, true);
	s = notify_cycles(n);
	cr_assert_eq(s.enobufs, -ENOBUFS, "the default queue overflows");
	cr_assert_lt(s.count, n);

	conn_request(VS_CMD_CONN_SET, 1 << 20, &ans, NULL);
	cr_assert_eq(ans.error, 0, "%s", ans.msg);
	cr_assert_not(ans.have_conn, "SET answers with its ack only");
	conn_request(VS_CMD_CONN_GET, 0, &ans, NULL);
	cr_assert_eq(ans.rcvbuf, 1 << 20);
	s = notify_cycles(n);
	cr_assert_eq(s.enobufs, 0, "1 MiB holds them");
	cr_assert_eq(s.count, n);
	cr_assert_eq(s.gaps, 0);

	/* Smaller again, it overflows again: the bound is the connection's. */
	conn_request(VS_CMD_CONN_SET, VS_CONN_RCVBUF_MIN, &ans, NULL);
	cr_assert_eq(ans.error, 0, "%s", ans.msg);
	s = notify_cycles(n);
	cr_assert_eq(s.enobufs, -ENOBUFS);
	cr_assert_leq(c->outq_bytes, VS_CONN_RCVBUF_MIN);
}

Test(vschedd_parts, a_queue_over_the_maximum_is_refused_with_the_maximum)
{
	struct conn_answer ans;
	u32 offs;

	d.rcvbuf_max = 32 << 20;
	conn_request(VS_CMD_CONN_SET, (32 << 20) + 1, &ans, &offs);
	cr_assert_eq(ans.error, -EINVAL);
	cr_assert_str_eq(ans.msg, "conn.rcvbuf (VS_CONN_A_RCVBUF): 33554433 bytes is more than "
			 "this daemon's maximum, 33554432 bytes (vschedd --rcvbuf-max)");
	cr_assert_eq(ans.offs, offs, "it points at the attribute");
	conn_request(VS_CMD_CONN_GET, 0, &ans, NULL);
	cr_assert_eq(ans.rcvbuf, VSCHEDD_OUTQ_MAX, "nothing changed");
	cr_assert_eq(ans.rcvbuf_max, 32 << 20);
	/* The maximum itself is taken; less than a notification datagram is not. */
	conn_request(VS_CMD_CONN_SET, 32 << 20, &ans, NULL);
	cr_assert_eq(ans.error, 0, "%s", ans.msg);
	conn_request(VS_CMD_CONN_SET, VS_CONN_RCVBUF_MIN - 1, &ans, NULL);
	cr_assert_eq(ans.error, -EINVAL);
	cr_assert(strstr(ans.msg, "conn.rcvbuf (VS_CONN_A_RCVBUF): 65535 is out of range"),
		  "%s", ans.msg);
}

Test(vschedd_parts, replies_wait_up_to_four_times_the_queue_asked_for)
{
	static char buf[4096];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	unsigned int sent = 0;

	d.outq_max = 16 << 10;
	vschedd_client_set_rcvbuf(&d, c, VS_CONN_RCVBUF_MIN);
	nlh->nlmsg_len = sizeof(buf);
	nlh->nlmsg_type = NLMSG_NOOP;
	while (!vschedd_send(&d, c, buf, sizeof(buf), false)) {
		sent++;
		cr_assert_lt(sent, 10000, "the socket and the out-queue took everything");
	}
	cr_assert_eq(c->outq_bytes, 4 * VS_CONN_RCVBUF_MIN, "past the queue, as far as the hard "
		     "bound of the connection");
	cr_assert(c->overrun);
}

struct decisions_seen {
	u32 msgs, decisions, evicts;
	size_t largest;
};

static void see_decisions(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[VS_NLA_SET_MAX + 1], *a, *f;
	struct decisions_seen *s = arg;
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	struct vs_extack ext;
	char name[32];
	bool first = true;

	cr_assert_eq(nlh->nlmsg_type, VSCHED_GENL_ID);
	cr_assert_eq(g->cmd, VS_CMD_DECISIONS);
	cr_assert_eq(nlh->nlmsg_seq, 0);
	cr_assert_eq(nlh->nlmsg_pid, 0);
	vs_extack_clear(&ext);
	cr_assert_eq(vs_nla_validate(nlh, GENL_HDRLEN, vs_genl_reply_policy, VS_A_MAX, tb,
				     VS_NLA_V_REPLY, &ext), 0, "%s", ext.err.msg);
	s->msgs++;
	if (nlh->nlmsg_len > s->largest)
		s->largest = nlh->nlmsg_len;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (first) {
			cr_assert_eq(mnl_attr_get_type(a), VS_A_CYCLE_ID);
			cr_assert_eq(mnl_attr_get_u64(a), 7);
			first = false;
			continue;
		}
		cr_assert_eq(mnl_attr_get_type(a), VS_A_DECISION);
		snprintf(name, sizeof(name), "task-%05u", s->decisions);
		mnl_attr_for_each_nested(f, a) {
			switch (mnl_attr_get_type(f)) {
			case VS_DECISION_A_KIND:
				if (mnl_attr_get_u32(f) == VS_DECISION_EVICT)
					s->evicts++;
				break;
			case VS_DECISION_A_NAMESPACE:
				cr_assert_str_eq(mnl_attr_get_str(f), "team-a");
				break;
			case VS_DECISION_A_NAME:
				cr_assert_str_eq(mnl_attr_get_str(f), name, "in order");
				break;
			case VS_DECISION_A_NODE:
				cr_assert_str_eq(mnl_attr_get_str(f), "node-1");
				break;
			case VS_DECISION_A_REASON:
				cr_assert_str_eq(mnl_attr_get_str(f), "preempt");
				break;
			}
		}
		s->decisions++;
	}
}

Test(vschedd_parts, a_cycles_decisions_fill_messages_of_bounded_size_in_order)
{
	struct decisions_seen s = { 0 };
	struct vs_task task = { .ns = "team-a" };
	char name[32];
	const u32 n = 5000;

	vschedd_client_subscribe(&d, c, VS_MCGRP_DECISIONS, true);
	d.sched.stats.cycles = 7;	/* as during the session of cycle 7 */
	for (u32 i = 0; i < n; i++) {
		bool evict = !(i % 10);

		snprintf(name, sizeof(name), "task-%05u", i);
		task.name = name;
		vschedd_notify_decision(&d, evict ? VS_DECISION_EVICT : VS_DECISION_BIND, &task,
					"node-1", evict ? "preempt" : NULL);
		if (!(i % 500))
			drain(see_decisions, &s);
	}
	vschedd_notify_decisions_end(&d);
	drain(see_decisions, &s);
	cr_assert_eq(s.decisions, n);
	cr_assert_eq(s.evicts, n / 10);
	cr_assert_gt(s.msgs, 3, "%u messages", s.msgs);
	cr_assert_leq(s.largest, VSCHEDD_NOTIFY_MAX);
	cr_assert_gt(s.largest, VSCHEDD_NOTIFY_MAX - 128, "messages are filled");
}

Test(vschedd_parts, nothing_is_built_for_a_group_nobody_joined)
{
	struct vs_task task = { .ns = "ns", .name = "t" };

	vschedd_notify_decision(&d, VS_DECISION_BIND, &task, "n1", NULL);
	cr_assert_null(d.dec_nlh);
	vschedd_notify_decisions_end(&d);
	cr_assert_eq(recv(peer, d.rxbuf, 16, MSG_DONTWAIT), -1);
	cr_assert_eq(errno, EAGAIN);
}

/* ---- events ---- */

struct events_seen {
	u32 events, event_dgrams, acks;
	size_t largest;			/* of the datagrams of events */
	int enobufs;
	bool event_after_ack;
};

/* As drain(), by datagram: what the client's end gets. */
static void read_events(struct events_seen *s)
{
	static char rx[VSCHEDD_REPLY_MAX];

	for (;;) {
		ssize_t n;

		while ((n = recv(peer, rx, sizeof(rx), MSG_DONTWAIT)) > 0) {
			struct nlmsghdr *nlh = (struct nlmsghdr *)rx;
			int left = (int)n;

			if (nlh->nlmsg_type == VSCHED_GENL_ID) {
				s->event_dgrams++;
				s->largest = max_t(size_t, s->largest, (size_t)n);
			}
			for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
				const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
				const char *msg;
				int err;

				if (nlh->nlmsg_type != NLMSG_ERROR) {
					cr_assert_eq(nlh->nlmsg_type, VSCHED_GENL_ID);
					cr_assert_eq(g->cmd, VS_CMD_EVENT);
					cr_assert_eq(nlh->nlmsg_seq, 0);
					s->events++;
					s->event_after_ack |= s->acks > 0;
					continue;
				}
				err = dt_error(nlh, &msg);
				if (!err)
					s->acks++;
				else
					s->enobufs = err;
			}
		}
		if (list_empty(&c->outq) && !c->overrun)
			return;
		c->w.ready(&c->w, EPOLLOUT);
	}
}

Test(vschedd_parts, a_batchs_events_go_in_bounded_datagrams_before_its_ack)
{
	struct events_seen s = { 0 };
	const u32 n = 2000;
	struct nlmsghdr *nlh;
	struct dt_dgram g;
	char name[32];

	c->ctx.admin = true;
	cr_assert_not(d.core.events.on);
	vschedd_client_subscribe(&d, c, VS_MCGRP_EVENTS, true);
	cr_assert(d.core.events.on, "someone listens: events are made");
	dt_dgram_init(&g, (size_t)n * 256 + 4096);
	dt_msg_end(&g, dt_msg(&g, VS_CMD_BATCH_BEGIN, 0, 1));
	for (u32 i = 0; i < n; i++) {
		nlh = dt_msg(&g, VS_CMD_NODE_NEW, 0, 2 + i);
		snprintf(name, sizeof(name), "node-%05u", i);
		dt_put_node(nlh, name);
		dt_msg_end(&g, nlh);
	}
	dt_msg_end(&g, dt_msg(&g, VS_CMD_BATCH_END, NLM_F_ACK, 2 + n));
	vschedd_rcv(&d, c, g.buf, g.len);
	free(g.buf);
	read_events(&s);
	cr_assert_eq(s.events, n);
	cr_assert_eq(s.acks, 1);
	cr_assert_not(s.event_after_ack, "what END applied is told before END is answered");
	cr_assert_gt(s.event_dgrams, 1, "%u datagrams", s.event_dgrams);
	cr_assert_leq(s.largest, VSCHEDD_NOTIFY_MAX);
	cr_assert_eq(d.core.events.len, 0, "sent, the buffer is empty");
	vschedd_client_subscribe(&d, c, VS_MCGRP_EVENTS, false);
	cr_assert_not(d.core.events.on);
}

Test(vschedd_parts, lost_events_are_told_with_enobufs)
{
	struct events_seen s = { 0 };

	vschedd_client_subscribe(&d, c, VS_MCGRP_EVENTS, true);
	d.core.events.lost = true;	/* as when the buffer could not grow */
	vschedd_notify_events(&d);
	cr_assert_not(d.core.events.lost, "told");
	read_events(&s);
	cr_assert_eq(s.enobufs, -ENOBUFS);
	cr_assert_eq(s.events, 0);
}

/* ---- --self-check ---- */

Test(vschedd_parts, the_self_check_passes_a_sound_core)
{
	d.opts.self_check = true;
	vschedd_self_check(&d, "nothing");
}

Test(vschedd_parts, the_self_check_aborts_on_a_broken_count, .signal = SIGABRT)
{
	d.opts.self_check = true;
	d.cl.nr_tasks++;	/* a task counted that no PodGroup holds */
	vschedd_self_check(&d, "a broken count");
}

Test(vschedd_parts, out_of_descriptors_without_a_spare_the_listener_rests)
{
	struct rlimit low, old;
	char *log;
	int fd;

	/* The spare lost (to another process, under ENFILE): nothing to refuse on. */
	close(d.spare_fd);
	d.spare_fd = -1;
	fd = dt_connect(t.path);
	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	/* No descriptor free below the limit: it stops at the first hole. */
	for (low.rlim_cur = 0; fcntl((int)low.rlim_cur, F_GETFD) >= 0; low.rlim_cur++)
		;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &low), 0, "%s", strerror(errno));
	d.lw.ready(&d.lw, EPOLLIN);
	d.lw.ready(&d.lw, EPOLLIN);
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &old), 0);
	/* Not watched for a while, the connection left waiting, nothing counted as refused. */
	cr_assert_eq(d.lw.events, 0);
	cr_assert_gt(d.listen_resume_ns, 0);
	cr_assert_eq(d.core.ctl.conn_refused, 0);
	cr_assert_eq(d.nr_clients, 1);
	fflush(vs_log_file);
	log = dt_log(&t);
	cr_assert(strstr(log, "accept: Too many open files: new connections wait in the backlog, "
			 "100 ms at a time"), "%s", log);
	cr_assert_null(strstr(strstr(log, "accept: ") + 1, "accept: "), "said twice: %s", log);
	free(log);
	close(fd);
}

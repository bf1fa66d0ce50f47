// SPDX-License-Identifier: Apache-2.0
/*
 * vschedd's clients: one connection each, with the peer's credentials, its
 * admin permission, and an out-queue for what its socket did not take yet.
 *
 * The out-queue is how the daemon never blocks on a client: a datagram
 * goes to the socket at once when nothing waits before it, else it waits
 * in order and goes out when epoll says the socket has room. Notifications
 * are dropped past the client's receive queue (d->outq_max unless it asked
 * for another, as SO_RCVBUF sizes a netlink socket's) and the client gets ENOBUFS once it has read
 * what was queued, as netlink tells a listener its receive queue
 * overflowed; a client over the bound is not read from until it drains, so
 * that its own requests cannot grow the queue without end either. What
 * waits is charged to its connection, as a socket's receive queue is: the
 * memory cap (--max-memory) does not count it, and the connections without
 * the admin permission, which anyone may open, share one more bound
 * (--unpriv-queue-max) past which what would wait for them is dropped the
 * same way.
 *
 * A client whose peer is gone (EPIPE, or ECONNRESET when it left answers
 * unread) becomes deaf: what would go to it is discarded, but the requests
 * it sent before it went are still read and applied, as netlink applies a
 * request when it is sent, and a batch whose END arrived is applied whole;
 * the client is freed at end of file, with a batch left open dropped.
 */
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/log.h"
#include "daemon/vschedd.h"

bool vschedd_peer_admin(const struct vschedd_opts *o, uid_t uid, gid_t gid,
			const gid_t *groups, size_t nr_groups)
{
	if (uid == 0)
		return true;
	if (!o->have_admin_group)
		return false;
	if (gid == o->admin_gid)
		return true;
	for (size_t i = 0; i < nr_groups; i++)
		if (groups[i] == o->admin_gid)
			return true;
	return false;
}

size_t vschedd_client_rcvbuf(const struct vschedd *d, const struct vs_client *c)
{
	return c->rcvbuf ? (size_t)c->rcvbuf : d->outq_max;
}

/* What to ask epoll for: requests unless over the bound, room while something waits. */
static void client_update(struct vschedd *d, struct vs_client *c)
{
	u32 events = 0;

	if (c->dead)
		return;
	if (c->deaf || c->outq_bytes <= vschedd_client_rcvbuf(d, c))
		events |= EPOLLIN;
	if (!c->deaf && (!list_empty(&c->outq) || c->overrun || c->dump_req))
		events |= EPOLLOUT;
	if (vschedd_watch_set(d, &c->w, events))
		vs_warn("client %u: epoll: %s", c->ctx.portid, strerror(errno));
}

/*
 * @m waits for @c: charged to the connection, and to the daemon's totals
 * (the heap it takes, which the memory cap does not count; the bytes
 * waiting for readers without the admin permission).
 */
static void outq_add(struct vschedd *d, struct vs_client *c, struct vs_outmsg *m)
{
	m->charge = malloc_usable_size(m);
	list_add_tail(&m->node, &c->outq);
	c->outq_bytes += m->len;
	d->queued += m->charge;
	if (!c->ctx.admin)
		d->queued_unpriv += m->len;
}

static void outq_del(struct vschedd *d, struct vs_client *c, struct vs_outmsg *m)
{
	list_del(&m->node);
	c->outq_bytes -= m->len;
	d->queued -= m->charge;
	if (!c->ctx.admin)
		d->queued_unpriv -= m->len;
	free(m);
}

static void outq_free(struct vschedd *d, struct vs_client *c)
{
	struct vs_outmsg *m, *tmp;

	list_for_each_entry_safe(m, tmp, &c->outq, node)
		outq_del(d, c, m);
}

/* The peer is gone (@errnum from send or recv): nothing more goes to it. */
static void client_deaf(struct vschedd *d, struct vs_client *c, int errnum)
{
	vs_v(1, "client %u (pid %d): %s: its answers are discarded", c->ctx.portid,
	     (int)c->pid, strerror(errnum));
	c->deaf = true;
	c->overrun = false;
	outq_free(d, c);
	vschedd_dump_end(c);
	client_update(d, c);
}

int vschedd_send(struct vschedd *d, struct vs_client *c, const void *buf, size_t len,
		 bool notification)
{
	/*
	 * Replies wait up to four times the receive queue: past the queue the
	 * client is not read from, so that only one datagram's answers can go
	 * beyond it, and the hard bound is never reached short of a datagram
	 * asking for gigabytes.
	 */
	size_t limit = notification ? vschedd_client_rcvbuf(d, c) : 4 * vschedd_client_rcvbuf(d, c);
	struct vs_outmsg *m;

	if (c->dead)
		return -EPIPE;
	if (c->deaf || !len)
		return 0;
	if (list_empty(&c->outq)) {
		if (send(c->w.fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT) >= 0)
			return 0;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			client_deaf(d, c, errno);
			return -EPIPE;
		}
	}
	if (c->outq_bytes + len > limit) {
		if (!c->overrun)
			vs_v(1, "client %u (pid %d): %zu bytes wait for it: %s dropped, ENOBUFS "
			     "follows", c->ctx.portid, (int)c->pid, c->outq_bytes,
			     notification ? "notifications" : "replies");
		c->overrun = true;
		return -ENOBUFS;
	}
	/* Readers anyone may open share one bound: they cannot take the state's memory. */
	if (!c->ctx.admin && d->queued_unpriv + len > d->unpriv_queue_max) {
		if (!c->overrun)
			vs_v(1, "client %u (pid %d): the connections without the admin "
			     "permission have %llu bytes waiting: its %s dropped, ENOBUFS "
			     "follows", c->ctx.portid, (int)c->pid,
			     (unsigned long long)d->queued_unpriv,
			     notification ? "notifications" : "replies");
		c->overrun = true;
		return -ENOBUFS;
	}
	m = malloc(sizeof(*m) + len);
	if (!m) {
		c->overrun = true;	/* lost: the client must resynchronise */
		client_update(d, c);
		return -ENOMEM;
	}
	m->len = len;
	memcpy(m->data, buf, len);
	outq_add(d, c, m);
	client_update(d, c);
	return 0;
}

/* The socket has room: what waits goes, then ENOBUFS if owed, then the dump goes on. */
static void client_writable(struct vschedd *d, struct vs_client *c)
{
	struct vs_outmsg *m, *tmp;
	alignas(NLMSG_ALIGNTO) unsigned char buf[NLMSG_HDRLEN + sizeof(struct nlmsgerr) +
						 VS_NL_ERROR_MIN];
	struct vs_nl_reply r;

	list_for_each_entry_safe(m, tmp, &c->outq, node) {
		if (send(c->w.fd, m->data, m->len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
				client_deaf(d, c, errno);
			return;
		}
		outq_del(d, c, m);
	}
	if (c->overrun) {
		c->overrun = false;
		vs_nl_reply_init(&r, buf, sizeof(buf), c->ctx.portid);
		if (!vschedd_put_enobufs(&r))
			vschedd_send(d, c, buf, r.len, false);
	}
	vschedd_dump_continue(d, c);
}

/*
 * Whether a recv() of 0 bytes was the end of the stream. On SOCK_SEQPACKET
 * an empty datagram reads as 0 bytes too, and only the peer's shutdown
 * (POLLRDHUP) tells them apart. A peer that sent empty datagrams and then
 * closed at once has its empty datagrams read as its end, which loses
 * nothing it sent but what follows them.
 */
static bool client_closed(const struct vs_client *c)
{
	struct pollfd pfd = { .fd = c->w.fd, .events = POLLRDHUP };

	return poll(&pfd, 1, 0) != 0;
}

static void client_read(struct vschedd *d, struct vs_client *c)
{
	for (int i = 0; i < VSCHEDD_BURST && !c->dead; i++) {
		ssize_t n;

		if (!c->deaf && c->outq_bytes > vschedd_client_rcvbuf(d, c))
			return;		/* it reads its answers first */
		n = recv(c->w.fd, d->rxbuf, VS_MSG_MAX, MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				return;
			/*
			 * A peer that closed with answers unread leaves
			 * ECONNRESET pending: the first recv or send reports
			 * it once and the datagrams it sent are still queued
			 * behind it. They are read to end of file, as any
			 * gone peer's are.
			 */
			if (errno == ECONNRESET) {
				if (!c->deaf)
					client_deaf(d, c, errno);
				continue;
			}
			vs_v(1, "client %u (pid %d): %s", c->ctx.portid, (int)c->pid,
			     strerror(errno));
			vschedd_client_kill(d, c);
			return;
		}
		if (!n && client_closed(c)) {
			vschedd_client_kill(d, c);
			return;
		}
		if (!n)
			continue;	/* an empty datagram: nothing to do, as netlink ignores it */
		vschedd_rcv(d, c, d->rxbuf, (size_t)n);
	}
}

static void client_ready(struct vschedd_watch *w, u32 events)
{
	struct vs_client *c = container_of(w, struct vs_client, w);
	struct vschedd *d = c->d;

	if (c->dead)
		return;
	/* A peer gone shows first on a send: writing first makes the client deaf. */
	if (events & (EPOLLOUT | EPOLLHUP | EPOLLERR) && !c->deaf)
		client_writable(d, c);
	if (events & (EPOLLIN | EPOLLHUP | EPOLLERR))
		client_read(d, c);
	client_update(d, c);
}

struct vs_client *vschedd_client_new(struct vschedd *d, int fd, const struct ucred *cred,
				     const gid_t *groups, size_t nr_groups)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int sndbuf = 2 * VSCHEDD_REPLY_MAX;
	struct vs_client *c = calloc(1, sizeof(*c));

	if (!c) {
		vs_warn("pid %d: out of memory for a client: refused", (int)cred->pid);
		close(fd);
		return NULL;
	}
	c->d = d;
	c->w = (struct vschedd_watch) { .fd = fd, .events = EPOLLIN, .ready = client_ready };
	INIT_LIST_HEAD(&c->outq);
	c->pid = cred->pid;
	c->uid = cred->uid;
	c->gid = cred->gid;
	c->ctx.portid = d->next_portid++;
	if (!d->next_portid)
		d->next_portid = 1;	/* 0 is the daemon's own */
	c->ctx.admin = vschedd_peer_admin(&d->opts, cred->uid, cred->gid, groups, nr_groups);
	c->ctx.mem = &d->mem_cap;
	c->ctx.priv = &d->core;
	/* Room for a few reply datagrams in flight; the kernel caps it at wmem_max. */
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	ev.data.ptr = &c->w;
	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		vs_warn("pid %d: epoll: %s: refused", (int)cred->pid, strerror(errno));
		close(fd);
		free(c);
		return NULL;
	}
	list_add_tail(&c->node, &d->clients);
	d->nr_clients++;
	vs_v(1, "client %u connected: pid %d uid %u gid %u%s", c->ctx.portid, (int)c->pid,
	     (unsigned int)c->uid, (unsigned int)c->gid, c->ctx.admin ? " (admin)" : "");
	return c;
}

void vschedd_client_overrun(struct vschedd *d, struct vs_client *c)
{
	if (c->dead || c->deaf)
		return;
	c->overrun = true;
	client_update(d, c);
}

/*
 * What waits already stays, as a smaller SO_RCVBUF drops nothing queued:
 * the next notifications find the new bound.
 */
void vschedd_client_set_rcvbuf(struct vschedd *d, struct vs_client *c, u64 rcvbuf)
{
	c->rcvbuf = rcvbuf;
	vs_v(1, "client %u: notifications queued up to %llu bytes", c->ctx.portid,
	     (unsigned long long)rcvbuf);
	client_update(d, c);
}

void vschedd_client_subscribe(struct vschedd *d, struct vs_client *c, unsigned int group,
			      bool join)
{
	u32 bit = 1u << group;

	if (join == !!(c->groups & bit))
		return;
	c->groups ^= bit;
	if (join)
		d->nr_subscribers[group]++;
	else
		d->nr_subscribers[group]--;
	/*
	 * Only an admin's subscription to decisions makes it a binder: a
	 * reader may listen, but never changes who confirms the binds.
	 */
	if (group == VS_MCGRP_DECISIONS && c->ctx.admin) {
		if (join)
			d->nr_binders++;
		else
			d->nr_binders--;
	}
	/* Events are made only while somebody listens. */
	d->core.events.on = d->nr_subscribers[VS_MCGRP_EVENTS] > 0;
	d->core.status.on = d->nr_subscribers[VS_MCGRP_STATUS] > 0;
	vs_v(1, "client %u %s %s%s", c->ctx.portid, join ? "joined" : "left",
	     vs_genl_vsched.mcgrps[group],
	     group == VS_MCGRP_DECISIONS && c->ctx.admin ? " (a binder)" : "");
}

void vschedd_client_hold(struct vschedd *d, struct vs_client *c, bool hold)
{
	if (c->hold == hold)
		return;
	c->hold = hold;
	if (hold)
		d->nr_holds++;
	else
		d->nr_holds--;
	vs_v(1, "client %u %s periodic cycles (%u holding)", c->ctx.portid,
	     hold ? "holds" : "releases", d->nr_holds);
}

void vschedd_client_kill(struct vschedd *d, struct vs_client *c)
{
	if (c->dead)
		return;
	for (unsigned int g = 1; g <= VS_MCGRP_MAX; g++)
		vschedd_client_subscribe(d, c, g, false);
	vschedd_client_hold(d, c, false);
	c->dead = true;
	epoll_ctl(d->epfd, EPOLL_CTL_DEL, c->w.fd, NULL);
	close(c->w.fd);
	c->w.fd = -1;
	outq_free(d, c);
	vschedd_dump_end(c);
	/* A batch left open is dropped, never applied. */
	vs_nl_batch_release(&c->batch);
	d->nr_clients--;
	vs_v(1, "client %u (pid %d) gone", c->ctx.portid, (int)c->pid);
}

void vschedd_client_reap(struct vschedd *d)
{
	struct vs_client *c, *tmp;

	list_for_each_entry_safe(c, tmp, &d->clients, node) {
		if (!c->dead)
			continue;
		list_del(&c->node);
		free(c);
	}
}

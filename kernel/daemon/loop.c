// SPDX-License-Identifier: Apache-2.0
/*
 * vschedd's event loop and its own descriptors: the listening socket, the
 * timer that paces cycles, the signals, and the configuration file. See
 * vschedd.h.
 *
 * epoll is level-triggered and every descriptor is non-blocking; each
 * ready descriptor's handler does a bounded amount of work and returns, so
 * one busy client cannot starve the others or the timer. A client that
 * goes while events are at hand is only marked dead, and freed when the
 * batch of events is over, so no event ever reaches freed memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/log.h"
#include "daemon/vschedd.h"
#include "netlink/ctlconf.h"
#include "registry/builtin.h"
#include "sched/framework.h"

#define VSCHEDD_BACKLOG		128

int vschedd_watch_set(struct vschedd *d, struct vschedd_watch *w, u32 events)
{
	struct epoll_event ev = { .events = events, .data.ptr = w };

	if (w->events == events)
		return 0;
	if (epoll_ctl(d->epfd, EPOLL_CTL_MOD, w->fd, &ev))
		return -errno;
	w->events = events;
	return 0;
}

static int watch_add(struct vschedd *d, struct vschedd_watch *w,
		     void (*ready)(struct vschedd_watch *, u32))
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = w };

	w->ready = ready;
	w->events = EPOLLIN;
	return epoll_ctl(d->epfd, EPOLL_CTL_ADD, w->fd, &ev) ? -errno : 0;
}

/* ---- the configuration ---- */

static int load_conf(const struct vschedd_opts *o, struct vs_conf **conf, struct vs_err *err)
{
	struct vs_conf_names names;

	vs_registry_names(vs_builtin_registry(), &names);
	if (!o->conf_path)
		return vs_conf_parse(vs_conf_default_text, strlen(vs_conf_default_text),
				     "the built-in configuration", &names,
				     VS_CONF_FLAGS_DEFAULT_ON, conf, err);
	return vs_conf_load_file(o->conf_path, &names, conf, err);
}

int vschedd_reload(struct vschedd *d, struct vs_err *err)
{
	struct vs_conf *conf;
	int ret = load_conf(&d->opts, &conf, err);

	if (ret)
		return ret;
	return vs_sched_set_conf(&d->sched, conf, err);	/* takes conf */
}

/* ---- the timer ---- */

/* Cycles every @ms milliseconds from now on; 0: none. */
static int arm_timer(struct vschedd *d, u32 ms)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };

	its.it_interval.tv_sec = ms / 1000;
	its.it_interval.tv_nsec = (long)(ms % 1000) * 1000000L;
	its.it_value = its.it_interval;
	if (timerfd_settime(d->tw.fd, 0, &its, NULL))
		return -errno;
	d->armed_ms = ms;
	return 0;
}

/*
 * The period in force is the one VS_CMD_CONF_SET gave last, else --period's
 * (both kept in core.ctl.period_ms, 0 when cycles run only on request).
 */
static void follow_period(struct vschedd *d)
{
	u32 ms = d->core.ctl.period_ms;

	if (ms == d->armed_ms)
		return;
	if (arm_timer(d, ms))
		vs_error("cannot set the scheduling period to %u ms: %s", ms, strerror(errno));
	else
		vs_info("scheduling every %u ms", ms);
}

static void timer_ready(struct vschedd_watch *w, u32 events)
{
	struct vschedd *d = container_of(w, struct vschedd, tw);
	struct vs_err err = { { 0 } };
	u64 ticks;

	if (read(w->fd, &ticks, sizeof(ticks)) != sizeof(ticks))
		return;
	/* A client loading the cluster in several batches holds them (VS_CONN_A_HOLD). */
	if (d->nr_holds) {
		vs_v(2, "periodic cycle skipped: %u connection(s) hold cycles", d->nr_holds);
		return;
	}
	/* Periods missed are not made up: one cycle sees all there is. */
	if (vschedd_cycle(d, &err))
		vs_error("cycle %llu: %s", (unsigned long long)d->sched.stats.cycles, err.msg);
}

/* ---- signals ---- */

/* SIGUSR1: what the daemon holds, in one line of the log. */
static void log_state(const struct vschedd *d)
{
	const struct vs_cluster *cl = &d->cl;

	vs_info("SIGUSR1: %u nodes, %u queues, %u PodGroups, %u tasks, %u VolcanoJobs, "
		"%u priority classes; %u clients; %llu cycles, %llu binds, %llu evictions; "
		"heap %llu MiB", cl->nr_nodes, cl->nr_queues, cl->nr_jobs, cl->nr_tasks,
		cl->nr_vjobs, cl->nr_prioclasses, d->nr_clients,
		(unsigned long long)d->sched.stats.cycles,
		(unsigned long long)d->sched.stats.binds,
		(unsigned long long)d->sched.stats.evicts,
		(unsigned long long)(vs_mem_allocated() >> 20));
}

/* SIGUSR2: the whole-core check once, on demand; a fault is logged, not fatal. */
static void check_now(const struct vschedd *d)
{
	struct vs_err err = { { 0 } };

	if (vs_cluster_check(&d->cl, &err))
		vs_error("SIGUSR2: the core is not whole: %s", err.msg);
	else
		vs_info("SIGUSR2: the core is whole (%u nodes, %u tasks checked)", d->cl.nr_nodes,
			d->cl.nr_tasks);
}

static void signal_ready(struct vschedd_watch *w, u32 events)
{
	struct vschedd *d = container_of(w, struct vschedd, sw);
	struct signalfd_siginfo si;

	while (read(w->fd, &si, sizeof(si)) == sizeof(si)) {
		struct vs_err err = { { 0 } };

		switch (si.ssi_signo) {
		case SIGTERM:
		case SIGINT:
			vs_info("%s: stopping", strsignal((int)si.ssi_signo));
			d->stop = true;
			break;
		case SIGHUP:
			if (vschedd_reload(d, &err))
				vs_error("SIGHUP: %s; the configuration in force stays", err.msg);
			else
				vs_info("SIGHUP: configuration %s loaded",
					d->opts.conf_path ? d->opts.conf_path : "(built in)");
			break;
		case SIGUSR1:
			log_state(d);
			break;
		case SIGUSR2:
			check_now(d);
			break;
		}
	}
}

static int take_signals(struct vschedd *d)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	if (sigprocmask(SIG_BLOCK, &mask, &d->old_mask))
		return -errno;
	/* Sends say MSG_NOSIGNAL; this is for anything else that writes. */
	sigaction(SIGPIPE, &ign, &d->old_pipe);
	d->signals_taken = true;
	d->sw.fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	return d->sw.fd < 0 ? -errno : 0;
}

/* ---- the listening socket ---- */

/* mkdir -p of the socket's directory. */
static int make_dirs(const char *path, struct vs_err *err)
{
	char dir[PATH_MAX], *p;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return vs_err_set(err, ENAMETOOLONG, "%s: path too long", path);
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; ; p++) {
		bool last = !*p;

		if (*p != '/' && !last)
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return vs_err_set(err, errno, "cannot make the socket's directory %s: %s",
					  dir, strerror(errno));
		if (last)
			return 0;
		*p = '/';
	}
}

/*
 * A socket file left by a daemon that died is in the way and goes; one a
 * daemon listens on belongs to it, and anything else is not ours to remove.
 */
static int clear_stale(const char *path, const struct sockaddr_un *sa, struct vs_err *err)
{
	struct stat st;
	int fd, ret;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : vs_err_set(err, errno, "%s: %s", path,
							strerror(errno));
	if (!S_ISSOCK(st.st_mode))
		return vs_err_set(err, EEXIST, "%s exists and is not a socket: not removed", path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return vs_err_set(err, errno, "socket: %s", strerror(errno));
	ret = connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) ? errno : 0;
	close(fd);
	if (!ret)
		return vs_err_set(err, EADDRINUSE, "%s: a daemon is listening on it already",
				  path);
	if (ret != ECONNREFUSED)
		return vs_err_set(err, ret, "%s: cannot tell whether a daemon listens on it: %s",
				  path, strerror(ret));
	if (unlink(path) && errno != ENOENT)
		return vs_err_set(err, errno, "%s: cannot remove the stale socket: %s", path,
				  strerror(errno));
	vs_info("removed the stale socket %s (nothing listened on it)", path);
	return 0;
}

/*
 * The socket is made at PATH~ and linked to PATH once it listens, so that a
 * client that sees PATH (and a daemon that asks whether anyone listens on
 * it, clear_stale()) never finds a socket that refuses connections. A PATH~
 * left by a start that died there is removed; link() never replaces what a
 * daemon that started meanwhile put at PATH.
 */
static int listen_on(struct vschedd *d, struct vs_err *err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX }, tmp = { .sun_family = AF_UNIX };
	const char *path = d->opts.socket_path;
	size_t len = strlen(path);
	struct stat st;
	mode_t umask_was;
	int fd, ret;

	if (len > VSCHEDD_SOCKET_PATH_MAX)
		return vs_err_set(err, ENAMETOOLONG, "socket path %s: longer than %d bytes", path,
				  VSCHEDD_SOCKET_PATH_MAX);
	memcpy(sa.sun_path, path, len + 1);
	memcpy(tmp.sun_path, path, len);
	memcpy(tmp.sun_path + len, "~", 2);
	ret = make_dirs(path, err);
	if (!ret)
		ret = clear_stale(path, &sa, err);
	if (!ret && !lstat(tmp.sun_path, &st)) {
		if (!S_ISSOCK(st.st_mode))
			return vs_err_set(err, EEXIST, "%s exists and is not a socket: not removed",
					  tmp.sun_path);
		if (unlink(tmp.sun_path) && errno != ENOENT)
			return vs_err_set(err, errno, "%s: cannot remove it: %s", tmp.sun_path,
					  strerror(errno));
	}
	if (ret)
		return ret;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return vs_err_set(err, errno, "socket: %s", strerror(errno));
	/* Made 0660 from the start: no moment when others could connect. */
	umask_was = umask(0117);
	ret = bind(fd, (struct sockaddr *)&tmp, sizeof(tmp)) ? -errno : 0;
	umask(umask_was);
	if (ret) {
		vs_err_set(err, ret, "cannot bind %s: %s", tmp.sun_path, strerror(-ret));
		goto out_close;
	}
	if (d->opts.have_admin_group && chown(tmp.sun_path, (uid_t)-1, d->opts.admin_gid)) {
		ret = vs_err_set(err, errno, "cannot give %s to group %u: %s", tmp.sun_path,
				 (unsigned int)d->opts.admin_gid, strerror(errno));
		goto out_unlink;
	}
	if (listen(fd, VSCHEDD_BACKLOG)) {
		ret = vs_err_set(err, errno, "cannot listen on %s: %s", tmp.sun_path,
				 strerror(errno));
		goto out_unlink;
	}
	if (link(tmp.sun_path, path)) {
		ret = errno == EEXIST ?
		      vs_err_set(err, EADDRINUSE, "%s: a daemon is listening on it already", path) :
		      vs_err_set(err, errno, "cannot link %s to %s: %s", tmp.sun_path, path,
				 strerror(errno));
		goto out_unlink;
	}
	unlink(tmp.sun_path);
	if (lstat(path, &st)) {
		ret = vs_err_set(err, errno, "%s: %s", path, strerror(errno));
		unlink(path);
		goto out_close;
	}
	d->sock_dev = st.st_dev;
	d->sock_ino = st.st_ino;
	d->sock_made = true;
	d->lw.fd = fd;
	return 0;

out_unlink:
	unlink(tmp.sun_path);
out_close:
	close(fd);
	return ret;
}

/* Remove the socket file, if it is still the one made (another daemon may have taken the path). */
static void unlink_socket(struct vschedd *d)
{
	struct stat st;

	if (!d->sock_made)
		return;
	if (!lstat(d->opts.socket_path, &st) && st.st_dev == d->sock_dev &&
	    st.st_ino == d->sock_ino)
		unlink(d->opts.socket_path);
	d->sock_made = false;
}

/*
 * The peer's supplementary groups (SO_PEERGROUPS, as they were when it
 * connected): in @small when they fit, else in memory the caller frees.
 * They matter only to the admin group.
 */
static gid_t *peer_groups(struct vschedd *d, int fd, pid_t pid, gid_t *small, size_t cap,
			  size_t *nr)
{
	socklen_t len = (socklen_t)(cap * sizeof(gid_t));
	gid_t *groups;
	int e;

	*nr = 0;
	if (!d->opts.have_admin_group)
		return small;
	if (!getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, small, &len)) {
		*nr = len / sizeof(gid_t);
		return small;
	}
	e = errno;
	if (e == ERANGE) {
		groups = malloc(len);
		if (groups && !getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len)) {
			*nr = len / sizeof(gid_t);
			return groups;
		}
		e = groups ? errno : ENOMEM;
		free(groups);
	}
	vs_warn("pid %d: its supplementary groups cannot be read (%s): only its group counts",
		(int)pid, strerror(e));
	return small;
}

/* ---- out of descriptors ---- */

/* The descriptor kept to be given up when accept() finds none (listen_ready()). */
static int spare_open(void)
{
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/*
 * A failed accept() in the log at most once per VSCHEDD_ACCEPT_LOG_MS,
 * with the connections refused since the line before: a flood of clients
 * against a full descriptor table must not become a flood of log lines.
 */
static void accept_note(struct vschedd *d, int errnum, bool refused)
{
	u64 now = vs_nl_now_ns(&d->core);

	if (refused) {
		d->core.ctl.conn_refused++;
		d->refused_unlogged++;
	}
	if (now < d->accept_log_ns)
		return;
	d->accept_log_ns = now + VSCHEDD_ACCEPT_LOG_MS * 1000000ull;
	if (!refused) {
		vs_warn("accept: %s: new connections wait in the backlog, %u ms at a time "
			"(said at most every %u s)", strerror(errnum), VSCHEDD_ACCEPT_BACKOFF_MS,
			VSCHEDD_ACCEPT_LOG_MS / 1000);
		return;
	}
	vs_warn("accept: %s: %llu connection(s) refused since the last report, %llu in all "
		"(said at most every %u s)", strerror(errnum),
		(unsigned long long)d->refused_unlogged,
		(unsigned long long)d->core.ctl.conn_refused, VSCHEDD_ACCEPT_LOG_MS / 1000);
	d->refused_unlogged = 0;
}

/*
 * accept() failed and left the connection queued: epoll reports the
 * listener ready again at once, and trying again at once would spin. Out
 * of descriptors, the spare is given up for the connection, which is
 * closed at once (its client reads end of file and may come back), and
 * taken again; otherwise (out of memory, or no spare to be had) the
 * listener is not watched for VSCHEDD_ACCEPT_BACKOFF_MS and the
 * connections wait in the backlog.
 */
static void accept_failed(struct vschedd *d, int errnum)
{
	int fd;

	if ((errnum == EMFILE || errnum == ENFILE) && d->spare_fd >= 0) {
		close(d->spare_fd);
		fd = accept4(d->lw.fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0)
			close(fd);
		else
			errnum = errno;
		d->spare_fd = spare_open();
		if (fd >= 0) {
			accept_note(d, errnum, true);
			return;
		}
		if (errnum == EAGAIN || errnum == EWOULDBLOCK || errnum == EINTR ||
		    errnum == ECONNABORTED)
			return;
	}
	d->listen_resume_ns = vs_nl_now_ns(&d->core) + VSCHEDD_ACCEPT_BACKOFF_MS * 1000000ull;
	if (vschedd_watch_set(d, &d->lw, 0))
		vs_error("the listening socket: epoll: %s", strerror(errno));
	accept_note(d, errnum, false);
}

/*
 * The listener rested long enough: watched again, with its spare taken
 * again if it was lost. The milliseconds until then, or -1 when it is
 * watched (an epoll timeout).
 */
static int listen_tick(struct vschedd *d)
{
	u64 now;

	if (!d->listen_resume_ns)
		return -1;
	now = vs_nl_now_ns(&d->core);
	if (now < d->listen_resume_ns)
		return (int)((d->listen_resume_ns - now + 999999) / 1000000);
	d->listen_resume_ns = 0;
	if (d->spare_fd < 0)
		d->spare_fd = spare_open();
	if (vschedd_watch_set(d, &d->lw, EPOLLIN))
		vs_error("the listening socket: epoll: %s", strerror(errno));
	return -1;
}

static void listen_ready(struct vschedd_watch *w, u32 events)
{
	struct vschedd *d = container_of(w, struct vschedd, lw);
	gid_t small[64], *groups;
	struct ucred cred;
	socklen_t len;
	size_t nr;
	int fd;

	for (int i = 0; i < VSCHEDD_BURST; i++) {
		fd = accept4(w->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
			    errno != ECONNABORTED)
				accept_failed(d, errno);
			return;
		}
		len = sizeof(cred);
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
			vs_warn("a client without credentials (SO_PEERCRED: %s): refused",
				strerror(errno));
			close(fd);
			continue;
		}
		groups = peer_groups(d, fd, cred.pid, small, ARRAY_SIZE(small), &nr);
		vschedd_client_new(d, fd, &cred, groups, nr);
		if (groups != small)
			free(groups);
	}
}

/* ---- the daemon ---- */

/*
 * The memory cap (--max-memory) for the clients' requests, refused when
 * nothing counts the heap here: a cap that cannot hold is not kept quiet.
 */
static int mem_cap_init(struct vschedd *d, const struct vschedd_opts *opts, struct vs_err *err)
{
	const char *source, *why;

	d->mem_cap = (struct vs_mem_cap){ .max = opts->max_memory, .charged = &d->queued };
	if (!opts->max_memory || vs_mem_counted(&source))
		return 0;
	why = source ? "the allocator counts nothing here (under valgrind, which replaces it?)" :
		       "this vschedd is built without an allocator that counts its heap (jemalloc)";
	return vs_err_set(err, EINVAL, "--max-memory: %s, so the cap cannot be kept", why);
}

/* The limits of the options over the defaults, but those left 0. */
static void limits_set(struct vs_cluster_limits *l, const struct vs_cluster_limits *o)
{
	l->nodes = o->nodes ? o->nodes : l->nodes;
	l->queues = o->queues ? o->queues : l->queues;
	l->podgroups = o->podgroups ? o->podgroups : l->podgroups;
	l->tasks = o->tasks ? o->tasks : l->tasks;
	l->vjobs = o->vjobs ? o->vjobs : l->vjobs;
	l->prioclasses = o->prioclasses ? o->prioclasses : l->prioclasses;
	l->hypernodes = o->hypernodes ? o->hypernodes : l->hypernodes;
}

/* The core as a first start has it: the cluster empty, the configuration of the options. */
static int core_init(struct vschedd *d, struct vs_err *err)
{
	const struct vschedd_opts *opts = &d->opts;
	struct vs_hnctl_conf topology = { 0 };
	struct vs_conf *conf;
	int ret;

	ret = vs_cluster_init(&d->cl);
	if (ret)
		return vs_err_set(err, ret, "cannot make the cluster: %s", strerror(-ret));
	limits_set(&d->cl.limits, &opts->limits);
	/* Its clients list: the order is kept from the start, never built in one go. */
	vs_cluster_keep_names(&d->cl);
	if (opts->controller_conf_path) {
		ret = vs_nl_ctlconf_load_file(opts->controller_conf_path, &topology, err);
		if (ret)
			goto out_cluster;
	}
	ret = load_conf(opts, &conf, err);
	if (ret)
		goto out_topology;
	ret = vs_sched_init(&d->sched, &d->cl, vs_builtin_registry(), conf, err); /* takes conf */
	if (ret)
		goto out_topology;
	vschedd_sink_init(d);
	vs_arena_init(&d->arena, 0);
	d->core = (struct vs_nl_core) {
		.cl = &d->cl,
		.arena = &d->arena,
		.sched = &d->sched,
		.host = &vschedd_host_ops,
		.host_priv = d,
		.hooks = &vs_nl_event_hooks,
		.scheduler = opts->scheduler_name,
	};
	d->core.hooks_priv = &d->core;
	vs_nl_topology_set(&d->core, &topology);
	d->core.ctl.period_ms = opts->period_ms;
	d->core.ctl.on_request = !opts->period_ms;
	d->self = (struct vs_genl_ctx) { .portid = 0, .admin = true, .priv = &d->core };
	return 0;

out_topology:
	vs_hnctl_conf_free(&topology);
out_cluster:
	vs_cluster_destroy(&d->cl);
	return ret;
}

static void core_destroy(struct vschedd *d)
{
	vs_nl_events_release(&d->core.events);
	vs_nl_events_release(&d->core.status);
	vs_nl_topology_release(&d->core);
	vs_arena_destroy(&d->arena);
	vs_sched_destroy(&d->sched);
	vs_cluster_destroy(&d->cl);
}

int vschedd_init(struct vschedd *d, const struct vschedd_opts *opts, struct vs_err *err)
{
	int ret;

	memset(d, 0, sizeof(*d));
	d->opts = *opts;
	d->epfd = d->lw.fd = d->tw.fd = d->sw.fd = d->spare_fd = -1;
	d->next_portid = 1;
	d->outq_max = VSCHEDD_OUTQ_MAX;
	d->rcvbuf_max = opts->rcvbuf_max ? opts->rcvbuf_max : VSCHEDD_RCVBUF_MAX_DEFAULT;
	d->unpriv_queue_max = opts->unpriv_queue_max ? opts->unpriv_queue_max :
			      VSCHEDD_UNPRIV_QUEUE_MAX_DEFAULT;
	INIT_LIST_HEAD(&d->clients);
	vs_binds_init(&d->waits, &d->cl, (u64)opts->bind_timeout_ms * 1000000ULL);

	ret = core_init(d, err);
	if (ret)
		return ret;
	ret = mem_cap_init(d, opts, err);
	if (ret)
		goto out_core;
	/*
	 * Before the socket: no client sees the core half restored. The cap
	 * does not hold a checkpoint back: what was kept comes back whole.
	 */
	ret = vschedd_checkpoint_restore(d, err);
	if (ret == VSCHEDD_CKPT_SET_ASIDE) {
		/* It made part of the file: thrown away whole, the core starts again empty. */
		core_destroy(d);
		ret = core_init(d, err);
		if (ret)
			return ret;
		ret = vschedd_checkpoint_set_aside(d, err);
	}
	if (ret)
		goto out_core;
	if (d->mem_cap.max) {
		u64 held = vs_mem_allocated();

		if (held >= d->mem_cap.max)
			vs_warn("memory cap %llu MiB: %llu MiB held already; requests that add "
				"to the state are refused until deletes bring it under",
				(unsigned long long)(d->mem_cap.max >> 20),
				(unsigned long long)(held >> 20));
		else
			vs_info("memory cap %llu MiB, %llu MiB held",
				(unsigned long long)(d->mem_cap.max >> 20),
				(unsigned long long)(held >> 20));
	}
	d->core.ctl.on_request = !d->core.ctl.period_ms;

	d->rxbuf = malloc(VS_MSG_MAX);
	d->txbuf = malloc(VSCHEDD_REPLY_MAX);
	d->notebuf = malloc(VSCHEDD_NOTIFY_MAX);
	if (!d->rxbuf || !d->txbuf || !d->notebuf) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_fds;
	}
	ret = take_signals(d);
	if (!ret) {
		d->tw.fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		d->epfd = epoll_create1(EPOLL_CLOEXEC);
		if (d->tw.fd < 0 || d->epfd < 0)
			ret = -errno;
	}
	if (ret) {
		vs_err_set(err, ret, "%s", strerror(-ret));
		goto out_fds;
	}
	ret = listen_on(d, err);
	if (ret)
		goto out_fds;
	d->spare_fd = spare_open();
	if (d->spare_fd < 0) {
		ret = vs_err_set(err, errno, "cannot keep a spare descriptor (/dev/null): %s",
				 strerror(errno));
		goto out_fds;
	}
	ret = watch_add(d, &d->lw, listen_ready);
	if (!ret)
		ret = watch_add(d, &d->tw, timer_ready);
	if (!ret)
		ret = watch_add(d, &d->sw, signal_ready);
	if (!ret)
		ret = arm_timer(d, d->core.ctl.period_ms);
	if (ret) {
		vs_err_set(err, ret, "%s", strerror(-ret));
		goto out_fds;
	}
	return 0;

out_fds:
	vschedd_destroy(d);
	return ret;
out_core:
	core_destroy(d);
	return ret;
}

void vschedd_destroy(struct vschedd *d)
{
	struct vs_client *c;

	list_for_each_entry(c, &d->clients, node)
		vschedd_client_kill(d, c);
	vschedd_client_reap(d);
	if (d->lw.fd >= 0)
		close(d->lw.fd);
	if (d->spare_fd >= 0)
		close(d->spare_fd);
	d->spare_fd = -1;
	unlink_socket(d);
	if (d->tw.fd >= 0)
		close(d->tw.fd);
	if (d->sw.fd >= 0)
		close(d->sw.fd);
	if (d->epfd >= 0)
		close(d->epfd);
	d->lw.fd = d->tw.fd = d->sw.fd = d->epfd = -1;
	if (d->signals_taken) {
		sigaction(SIGPIPE, &d->old_pipe, NULL);
		sigprocmask(SIG_SETMASK, &d->old_mask, NULL);
		d->signals_taken = false;
	}
	free(d->rxbuf);
	free(d->txbuf);
	free(d->notebuf);
	free(d->binds);
	free(d->evicts);
	d->evicts = NULL;
	vs_binds_destroy(&d->waits);
	d->rxbuf = d->txbuf = d->notebuf = NULL;
	d->binds = NULL;
	core_destroy(d);
}

static const char *binder_name(enum vschedd_binder binder)
{
	switch (binder) {
	case VSCHEDD_BINDER_AUTO:
		return "auto";
	case VSCHEDD_BINDER_EXTERNAL:
		return "external";
	case VSCHEDD_BINDER_DEFAULT:
		break;
	}
	return "auto while nobody subscribes to decisions";
}

int vschedd_run(struct vschedd *d)
{
	struct epoll_event evs[64];
	int ret = 0;

	if (d->armed_ms)
		vs_info("vschedd listening on %s, scheduling every %u ms, binder %s",
			d->opts.socket_path, d->armed_ms, binder_name(d->opts.binder));
	else
		vs_info("vschedd listening on %s, cycles on request only, binder %s",
			d->opts.socket_path, binder_name(d->opts.binder));
	while (!d->stop) {
		/* Binds past their timeout fail first; the wait ends at the next deadline. */
		int timeout = vschedd_binds_expire(d), due = vschedd_checkpoint_tick(d);
		int resume = listen_tick(d);
		int n;

		if (due >= 0 && (timeout < 0 || due < timeout))
			timeout = due;
		if (resume >= 0 && (timeout < 0 || resume < timeout))
			timeout = resume;

		vschedd_notify_events(d);	/* of the binds that failed */
		n = epoll_wait(d->epfd, evs, (int)ARRAY_SIZE(evs), timeout);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			vs_error("epoll_wait: %s", strerror(errno));
			break;
		}
		for (int i = 0; i < n && !d->stop; i++) {
			struct vschedd_watch *w = evs[i].data.ptr;

			w->ready(w, evs[i].events);
		}
		vschedd_client_reap(d);
		follow_period(d);
	}
	if (d->opts.checkpoint_path && vschedd_checkpoint_write(d, "stop") && !ret)
		ret = -EIO;
	vs_info("vschedd stopped after %llu cycles",
		(unsigned long long)d->sched.stats.cycles);
	return ret;
}

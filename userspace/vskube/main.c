// SPDX-License-Identifier: Apache-2.0
/*
 * vskube: vsched's bridge to Kubernetes (Documentation/vskube.md).
 *
 * One thread. It waits in kcl_poll() on the API server's transfers and on
 * the decisions connection to vschedd; the informers' events gather in
 * ksync's round, which goes to vschedd as a batch after each wait; bind
 * and evict decisions go to the API server, and their results back with
 * the next batch. When vschedd goes away, the bridge connects again (with
 * backoff) and loads it from fresh lists: nothing is lost.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "lib/duration.h"
#include "lib/log.h"
#include "lib/sched_metrics.h"
#include "lib/vsnl.h"
#include "vskube/informer.h"
#include "vskube/kbind.h"
#include "vskube/kstatus.h"
#include "vskube/kclient.h"
#include "vskube/kserve.h"
#include "vskube/kubeconfig.h"
#include "vskube/ksync.h"
#include "vskube/leader.h"

#define VSKUBE_VERBOSITY_MAX	10
/* What the decisions connection asks vschedd to queue: a cycle binding a million pods. */
#define VSKUBE_DEC_RCVBUF	(256ull << 20)
#define VSKUBE_RECONNECT_MIN_MS	500u
#define VSKUBE_RECONNECT_MAX_MS	30000u

struct vskube_opts {
	const char *kubeconfig;
	const char *context;
	const char *master;
	const char *socket;
	const char *scheduler;
	u32 page;
	u32 inflight;
	int verbosity;
	bool once;			/* exit once loaded and idle: for tests */
	bool leader_elect;
	struct kle_config le;
	const char *listen;		/* --listen-address: /metrics, /healthz, /readyz; "": none */
};

/* How long a leader that stops waits for its Lease to be released. */
#define VSKUBE_RELEASE_MS	5000u

/*
 * How long a scrape of /metrics waits for vschedd's statistics. vschedd
 * answers between cycles; a scrape that finds it busier than this goes
 * without the scheduler's families (vskube_scheduler_metrics_failures_total).
 */
#define VSKUBE_SCRAPE_TIMEOUT_MS	2000u

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	stopping = sig;
}

static void usage(FILE *out)
{
	fprintf(out,
"usage: vskube [--kubeconfig FILE] [--context NAME] [--master URL] [--socket PATH]\n"
"              [--scheduler-name NAME] [--list-page-size N] [--bind-workers N]\n"
"              [--leader-elect[=BOOL]] [--leader-elect-lease-duration D]\n"
"              [--leader-elect-renew-deadline D] [--leader-elect-retry-period D]\n"
"              [--leader-elect-resource-namespace NS] [--leader-elect-resource-name NAME]\n"
"              [--listen-address ADDR] [-v N]\n"
"       vskube --help | --version\n"
"\n"
"Keeps vschedd in step with a Kubernetes cluster that has Volcano's CRDs, and\n"
"carries its decisions back: vsched as a drop-in replacement for Volcano's scheduler.\n"
"\n"
"    --kubeconfig FILE     the kubeconfig (else $KUBECONFIG, in-cluster, ~/.kube/config)\n"
"    --context NAME        its context to use (default: the current one)\n"
"    --master URL          the API server, over the kubeconfig's\n"
"    -s, --socket PATH     vschedd's socket (default: $%s, else %s)\n"
"    --scheduler-name NAME the pods to schedule: spec.schedulerName (default volcano)\n"
"    --list-page-size N    objects per page of a list (default 500)\n"
"    --bind-workers N      bindings and evictions at once (default %u)\n"
"    --leader-elect[=BOOL] run only while holding a coordination.k8s.io Lease (default false)\n"
"    --leader-elect-lease-duration D   default 15s (Go durations: 500ms, 1m30s)\n"
"    --leader-elect-renew-deadline D   default 10s\n"
"    --leader-elect-retry-period D     default 2s\n"
"    --leader-elect-resource-namespace NS  the Lease's (default volcano-system)\n"
"    --leader-elect-resource-name NAME     the Lease's name (default vc-scheduler)\n"
"    --listen-address ADDR /metrics, /healthz, /readyz on HOST:PORT (default :8080; \"\": none)\n"
"    -v, --v N             log verbosity, 0..%d, as klog's\n"
"    -h, --help            this text\n"
"    -V, --version         the version\n"
"\n"
"See vskube(8) and Documentation/vskube.md.\n",
		VSCHED_SOCKET_ENV, VSCHED_SOCKET_DEFAULT, KBIND_INFLIGHT_DEFAULT,
		VSKUBE_VERBOSITY_MAX);
}

static bool parse_u32(const char *flag, const char *s, u32 min, u32 max, u32 *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || errno || v < min || v > max || *s == '-') {
		fprintf(stderr, "vskube: %s: \"%s\" is not a number from %u to %u\n", flag, s,
			min, max);
		return false;
	}
	*out = (u32)v;
	return true;
}

enum { OPT_KUBECONFIG = 0x100, OPT_CONTEXT, OPT_MASTER, OPT_SCHEDULER, OPT_PAGE, OPT_WORKERS,
       OPT_ONCE, OPT_LE, OPT_LE_LEASE, OPT_LE_RENEW, OPT_LE_RETRY, OPT_LE_NS, OPT_LE_NAME,
       OPT_LISTEN };

static bool parse_ms(const char *flag, const char *s, u32 *out)
{
	struct vsnl_err e = { 0 };

	if (!vsnl_parse_duration(s, 24 * 3600 * 1000, out, &e) && *out)
		return true;
	/* A duration read whole but zero has no message of its own. */
	fprintf(stderr, "vskube: %s: \"%s\" is not a duration from 1ms to 24h: %s\n", flag, s,
		e.msg[0] ? e.msg : "zero");
	return false;
}

/* 0: run; 1: exit 0 (--help, --version); 2: usage error. */
static int parse_args(int argc, char **argv, struct vskube_opts *o)
{
	static const struct option longopts[] = {
		{ "kubeconfig", required_argument, NULL, OPT_KUBECONFIG },
		{ "context", required_argument, NULL, OPT_CONTEXT },
		{ "master", required_argument, NULL, OPT_MASTER },
		{ "socket", required_argument, NULL, 's' },
		{ "scheduler-name", required_argument, NULL, OPT_SCHEDULER },
		{ "list-page-size", required_argument, NULL, OPT_PAGE },
		{ "bind-workers", required_argument, NULL, OPT_WORKERS },
		{ "exit-when-idle", no_argument, NULL, OPT_ONCE },
		{ "leader-elect", optional_argument, NULL, OPT_LE },
		{ "leader-elect-lease-duration", required_argument, NULL, OPT_LE_LEASE },
		{ "leader-elect-renew-deadline", required_argument, NULL, OPT_LE_RENEW },
		{ "leader-elect-retry-period", required_argument, NULL, OPT_LE_RETRY },
		{ "leader-elect-resource-namespace", required_argument, NULL, OPT_LE_NS },
		{ "leader-elect-resource-name", required_argument, NULL, OPT_LE_NAME },
		{ "listen-address", required_argument, NULL, OPT_LISTEN },
		{ "v", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	u32 v;
	int c;

	memset(o, 0, sizeof(*o));
	o->scheduler = "volcano";
	o->inflight = KBIND_INFLIGHT_DEFAULT;
	o->le.ns = "volcano-system";
	o->le.name = "vc-scheduler";
	o->listen = ":8080";
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:v:hV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_KUBECONFIG:
			o->kubeconfig = optarg;
			break;
		case OPT_CONTEXT:
			o->context = optarg;
			break;
		case OPT_MASTER:
			if (strncmp(optarg, "http://", 7) && strncmp(optarg, "https://", 8)) {
				fprintf(stderr, "vskube: --master: \"%s\" is not an http:// or "
					"https:// URL\n", optarg);
				return 2;
			}
			o->master = optarg;
			break;
		case 's':
			if (!*optarg) {
				fprintf(stderr, "vskube: --socket: the path is empty\n");
				return 2;
			}
			o->socket = optarg;
			break;
		case OPT_SCHEDULER:
			if (!*optarg) {
				fprintf(stderr, "vskube: --scheduler-name: the name is empty\n");
				return 2;
			}
			o->scheduler = optarg;
			break;
		case OPT_PAGE:
			if (!parse_u32("--list-page-size", optarg, 1, 100000, &o->page))
				return 2;
			break;
		case OPT_WORKERS:
			if (!parse_u32("--bind-workers", optarg, 1, 10000, &o->inflight))
				return 2;
			break;
		case OPT_ONCE:
			o->once = true;
			break;
		case OPT_LE:
			if (!optarg || !strcmp(optarg, "true")) {
				o->leader_elect = true;
			} else if (!strcmp(optarg, "false")) {
				o->leader_elect = false;
			} else {
				fprintf(stderr, "vskube: --leader-elect: \"%s\" is not true or false\n",
					optarg);
				return 2;
			}
			break;
		case OPT_LE_LEASE:
			if (!parse_ms("--leader-elect-lease-duration", optarg, &o->le.lease_ms))
				return 2;
			break;
		case OPT_LE_RENEW:
			if (!parse_ms("--leader-elect-renew-deadline", optarg, &o->le.renew_ms))
				return 2;
			break;
		case OPT_LE_RETRY:
			if (!parse_ms("--leader-elect-retry-period", optarg, &o->le.retry_ms))
				return 2;
			break;
		case OPT_LE_NS:
			o->le.ns = optarg;
			break;
		case OPT_LE_NAME:
			o->le.name = optarg;
			break;
		case OPT_LISTEN:
			o->listen = optarg;
			break;
		case 'v':
			if (!parse_u32("-v", optarg, 0, VSKUBE_VERBOSITY_MAX, &v))
				return 2;
			o->verbosity = (int)v;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case 'V':
			printf("vskube %s\n", VSCHED_VERSION);
			return 1;
		case ':':
			fprintf(stderr, "vskube: %s needs a value\n", argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "vskube: unknown option %s (vskube --help lists them)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "vskube: unexpected argument \"%s\"\n", argv[optind]);
		return 2;
	}
	if (o->leader_elect) {
		struct vsnl_err e = { 0 };

		if (kle_config_check(&o->le, &e)) {
			fprintf(stderr, "vskube: %s\n", e.msg);
			return 2;
		}
	}
	if (*o->listen) {
		struct vsnl_err e = { 0 };
		struct kserve_addr a;

		if (kserve_parse_addr("--listen-address", o->listen, &a, &e)) {
			fprintf(stderr, "vskube: %s\n", e.msg);
			return 2;
		}
	}
	return 0;
}

/* The two connections to vschedd: requests and batches; decisions and statuses. */
struct link {
	struct vsnl *nl, *dec;
	struct ksync *sync;
	struct kbind *bind;
	struct kstatus *status;
};

static void link_close(struct link *l)
{
	kbind_free(l->bind);
	kstatus_free(l->status);
	ksync_free(l->sync);
	vsnl_close(l->dec);
	vsnl_close(l->nl);
	memset(l, 0, sizeof(*l));
}

/* kstatus compares a first status with what ksync's informers saw. */
static int status_lookup(void *ctx, enum kstatus_kind kind, const char *ns, const char *name,
			 u64 *digest)
{
	return ksync_status_lookup(ctx, kind, ns, name, digest);
}

static int link_open(struct link *l, struct kcl *c, const struct vskube_opts *o,
		     struct vsnl_err *err)
{
	struct ksync_opts so = { .scheduler = o->scheduler, .page = o->page };

	memset(l, 0, sizeof(*l));
	l->nl = vsnl_open(o->socket, err);
	l->dec = l->nl ? vsnl_open(o->socket, err) : NULL;
	if (!l->dec)
		goto fail;
	/*
	 * The decisions' subscriber is the binder: vschedd waits for our
	 * results. The statuses come on the same connection, after the
	 * decisions of their cycle.
	 */
	if (vsnl_set_rcvbuf(l->dec, VSKUBE_DEC_RCVBUF, err) ||
	    vsnl_subscribe(l->dec, VS_MCGRP_DECISIONS, err) ||
	    vsnl_subscribe(l->dec, VS_MCGRP_STATUS, err))
		goto fail;
	l->sync = ksync_new(c, l->nl, &so, err);
	l->status = l->sync ? kstatus_new(c, o->scheduler, 0) : NULL;
	if (l->status)
		kstatus_set_lookup(l->status, status_lookup, l->sync);
	l->bind = l->status ? kbind_new(c, l->sync, l->status, o->inflight) : NULL;
	if (!l->bind) {
		err->err = -ENOMEM;
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		goto fail;
	}
	if (ksync_load(l->sync, err))
		goto fail;
	return 0;
fail:
	link_close(l);
	return err->err ? err->err : -EIO;
}

/* What the loop keeps: the link to vschedd, leadership, the endpoint and its metrics. */
struct bridge {
	const struct vskube_opts *o;
	struct kcl *c;
	struct link l;
	struct kle *le;
	bool lost;			/* leadership lost: exit, as Volcano's scheduler does */
	struct vsnl_prom_reg *reg;
	struct kserve *ks;
	struct vsnl_prom_metric *m_leader, *m_synced, *m_loads, *m_batches, *m_sent, *m_unchanged,
			     *m_refused, *m_decisions, *m_binds, *m_evicts, *m_status,
			     *m_status_failures, *m_events, *m_skipped, *m_scrape_failures;
	struct ksync_stats seen_sync;
	struct kbind_stats seen_bind;
	struct kstatus_stats seen_status;
};

static bool idle(const struct link *l)
{
	return ksync_synced(l->sync) && !kbind_pending(l->bind) && !kstatus_pending(l->status);
}

static bool leading(const struct bridge *b)
{
	return !b->le || kle_is_leader(b->le);
}

static void le_started(struct kle *le, void *ctx)
{
	const struct bridge *b = ctx;

	vsnl_info("successfully acquired lease %s/%s as %s", b->o->le.ns, b->o->le.name,
		  kle_identity(le));
}

static void le_stopped(struct kle *le, bool released, void *ctx)
{
	struct bridge *b = ctx;

	if (!released) {
		vsnl_error("leaderelection lost");
		b->lost = true;
	}
}

static void le_new_leader(struct kle *le, const char *identity, void *ctx)
{
	vsnl_info("new leader elected: %s", identity);
}

static void le_trouble(struct kle *le, const char *what, void *ctx)
{
	vsnl_warn("leader election: %s", what);
}

static const struct kle_ops le_ops = {
	.started = le_started,
	.stopped = le_stopped,
	.new_leader = le_new_leader,
	.trouble = le_trouble,
};

static int healthz(void *ctx, struct vsnl_err *why)
{
	return 0;
}

static int readyz(void *ctx, struct vsnl_err *why)
{
	const struct bridge *b = ctx;

	if (!leading(b) || (b->l.sync && ksync_synced(b->l.sync)))
		return 0;
	return vsnl_err_set(why, EAGAIN, b->l.sync ? "loading vschedd from the API server" :
			    "not connected to vschedd");
}

/*
 * The scheduler's metrics under Volcano's names (lib/sched_metrics.h), as
 * vschedd answers them now, on a connection of the scrape's own: a
 * timeout leaves it in no state the link's requests could inherit. Only a
 * bridge linked to its vschedd has them; a standby serves its own.
 */
static int gather(void *ctx, struct vsnl_prom_reg *reg)
{
	const struct timeval tv = { .tv_sec = VSKUBE_SCRAPE_TIMEOUT_MS / 1000,
				    .tv_usec = VSKUBE_SCRAPE_TIMEOUT_MS % 1000 * 1000 };
	struct bridge *b = ctx;
	struct vsnl_err err = { 0 };
	struct vsnl *c;
	int ret;

	if (!b->l.nl)
		return -ENOTCONN;
	c = vsnl_open(b->o->socket, &err);
	if (!c) {
		ret = err.err ? err.err : -ENOTCONN;
		goto fail;
	}
	if (setsockopt(vsnl_fd(c), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		ret = -errno;
		snprintf(err.msg, sizeof(err.msg), "SO_RCVTIMEO: %s", strerror(errno));
	} else {
		ret = vsnl_sched_metrics(c, reg, &err);
	}
	vsnl_close(c);
	if (!ret)
		return 0;
	if (ret == -EAGAIN || ret == -EWOULDBLOCK)
		snprintf(err.msg, sizeof(err.msg), "vschedd did not answer within %u ms",
			 VSKUBE_SCRAPE_TIMEOUT_MS);
fail:
	vsnl_prom_inc(b->m_scrape_failures, 0);
	vsnl_warn("/metrics without the scheduler's metrics: %s", err.msg);
	return ret;
}

static const struct kserve_ops serve_ops = {
	.healthz = healthz,
	.readyz = readyz,
	.gather = gather,
};

static const char *const by_what[] = { "reader", "vschedd" };
static const char *const results[] = { "success", "error" };
static const char *const status_kinds[] = { "podgroup", "pod", "queue" };
static const char *const skip_whys[] = { "unchanged", "absent" };

static int metrics_init(struct bridge *b, struct vsnl_err *err)
{
#define D(_m, _name, _help, _kind)						\
	{ &b->_m, { .name = _name, .help = _help, .kind = _kind } }
#define DL(_m, _name, _help, _label, _values)					\
	{ &b->_m, { .name = _name, .help = _help, .kind = VSNL_PROM_COUNTER,		\
		    .labels = { _label }, .values = _values, .nr_series = 2 } }
	const struct {
		struct vsnl_prom_metric **m;
		struct vsnl_prom_desc d;
	} v[] = {
		D(m_leader, "vskube_leader",
		  "1 while this bridge leads (or runs without leader election).", VSNL_PROM_GAUGE),
		D(m_synced, "vskube_synced", "1 once vschedd holds what the API server listed.",
		  VSNL_PROM_GAUGE),
		D(m_loads, "vskube_loads_total", "Loads of vschedd from fresh lists.",
		  VSNL_PROM_COUNTER),
		D(m_batches, "vskube_batches_total", "Batches vschedd applied.", VSNL_PROM_COUNTER),
		D(m_sent, "vskube_messages_sent_total", "Requests vschedd applied.",
		  VSNL_PROM_COUNTER),
		D(m_unchanged, "vskube_objects_unchanged_total",
		  "Objects not sent: vschedd has them as they are.", VSNL_PROM_COUNTER),
		DL(m_refused, "vskube_objects_refused_total", "Objects left out, by who refused "
		   "them.", "by", by_what),
		D(m_decisions, "vskube_decisions_total", "Bind and evict decisions read.",
		  VSNL_PROM_COUNTER),
		DL(m_binds, "vskube_binds_total", "Binding POSTs, by result.", "result", results),
		DL(m_evicts, "vskube_evictions_total",
		   "Evictions (or deletions where refused), by result.", "result", results),
		{ &b->m_status, { .name = "vskube_status_writes_total",
				  .help = "Statuses written (PodGroup status, pod PodScheduled "
					  "condition, queue allocated), by kind.",
				  .kind = VSNL_PROM_COUNTER, .labels = { "kind" },
				  .values = status_kinds, .nr_series = 3 } },
		D(m_status_failures, "vskube_status_write_failures_total",
		  "Statuses and Events that could not be written.", VSNL_PROM_COUNTER),
		DL(m_skipped, "vskube_status_writes_skipped_total",
		   "Statuses not written: the API server has them already, or has no such "
		   "PodGroup.", "why", skip_whys),
		D(m_events, "vskube_events_total", "Events recorded on pods and PodGroups.",
		  VSNL_PROM_COUNTER),
		D(m_scrape_failures, "vskube_scheduler_metrics_failures_total",
		  "Scrapes served without the scheduler's metrics: vschedd not reached, or "
		  "busy for longer than 2 s.", VSNL_PROM_COUNTER),
	};
#undef D
#undef DL

	struct vsnl_err pe = { 0 };

	b->reg = vsnl_prom_reg_new();
	if (!b->reg)
		return vsnl_err_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		*v[i].m = vsnl_prom_register(b->reg, &v[i].d, &pe);
		if (!*v[i].m)
			return vsnl_err_set(err, pe.err, "%s", pe.msg);
	}
	return 0;
}

#define ADD_DELTA(m, series, now, seen)	do {					\
	vsnl_prom_add((m), (series), (double)((now) - (seen)));			\
	(seen) = (now);								\
} while (0)

/* The counters follow the stats of the link, which start again with each link. */
static void metrics_update(struct bridge *b)
{
	const struct kstatus_stats *st;
	const struct ksync_stats *ss;
	const struct kbind_stats *bs;

	vsnl_prom_set(b->m_leader, 0, leading(b));
	vsnl_prom_set(b->m_synced, 0, b->l.sync && ksync_synced(b->l.sync));
	if (!b->l.sync)
		return;
	ss = ksync_stats(b->l.sync);
	bs = kbind_stats(b->l.bind);
	ADD_DELTA(b->m_loads, 0, ss->loads, b->seen_sync.loads);
	ADD_DELTA(b->m_batches, 0, ss->batches, b->seen_sync.batches);
	ADD_DELTA(b->m_sent, 0, ss->sent, b->seen_sync.sent);
	ADD_DELTA(b->m_unchanged, 0, ss->unchanged, b->seen_sync.unchanged);
	ADD_DELTA(b->m_refused, 0, ss->refused_read, b->seen_sync.refused_read);
	ADD_DELTA(b->m_refused, 1, ss->refused_core, b->seen_sync.refused_core);
	ADD_DELTA(b->m_decisions, 0, bs->decisions, b->seen_bind.decisions);
	ADD_DELTA(b->m_binds, 0, bs->binds, b->seen_bind.binds);
	ADD_DELTA(b->m_binds, 1, bs->bind_failures, b->seen_bind.bind_failures);
	ADD_DELTA(b->m_evicts, 0, bs->evictions, b->seen_bind.evictions);
	ADD_DELTA(b->m_evicts, 1, bs->evict_failures, b->seen_bind.evict_failures);
	st = kstatus_stats(b->l.status);
	ADD_DELTA(b->m_status, 0, st->podgroups, b->seen_status.podgroups);
	ADD_DELTA(b->m_status, 1, st->pods, b->seen_status.pods);
	ADD_DELTA(b->m_status, 2, st->queues, b->seen_status.queues);
	ADD_DELTA(b->m_status_failures, 0, st->failures, b->seen_status.failures);
	ADD_DELTA(b->m_events, 0, st->events, b->seen_status.events);
	ADD_DELTA(b->m_skipped, 0, st->unchanged, b->seen_status.unchanged);
	ADD_DELTA(b->m_skipped, 1, st->absent, b->seen_status.absent);
}

static void link_drop(struct bridge *b)
{
	/*
	 * The link's stats go with it: what it did since the last update
	 * (a bind whose result vschedd, just gone, was not told) is
	 * counted first.
	 */
	metrics_update(b);
	link_close(&b->l);
	memset(&b->seen_sync, 0, sizeof(b->seen_sync));
	memset(&b->seen_bind, 0, sizeof(b->seen_bind));
	memset(&b->seen_status, 0, sizeof(b->seen_status));
}

/* One wait and what follows it. */
static int step(struct bridge *b, u64 *backoff)
{
	const struct vskube_opts *o = b->o;
	struct vsnl_err err = { 0 };
	struct vsnl_err e = { 0 };
	struct curl_waitfd fds[2];
	unsigned int nr = 0;
	u64 now, next = UINT64_MAX;
	int timeout;

	if (leading(b) && !b->l.nl) {
		if (link_open(&b->l, b->c, o, &err)) {
			vsnl_error("vschedd at %s: %s; trying again in %llu ms",
				   o->socket ? o->socket : vsnl_default_path(), err.msg,
				   (unsigned long long)*backoff);
			next = kinf_clock_ms() + *backoff;
			*backoff = *backoff * 2 > VSKUBE_RECONNECT_MAX_MS ?
				   VSKUBE_RECONNECT_MAX_MS : *backoff * 2;
		} else {
			vsnl_info("connected to vschedd at %s",
				  o->socket ? o->socket : vsnl_default_path());
			*backoff = VSKUBE_RECONNECT_MIN_MS;
		}
	}
	now = kinf_clock_ms();
	if (b->l.sync) {
		u64 t = ksync_tick(b->l.sync, now);

		next = t < next ? t : next;
		fds[nr++] = (struct curl_waitfd){ .fd = vsnl_fd(b->l.dec),
						  .events = CURL_WAIT_POLLIN };
	}
	if (b->le) {
		u64 t = kle_tick(b->le, now);

		next = t < next ? t : next;
	}
	timeout = next <= now ? 0 : next - now > 1000 ? 1000 : (int)(next - now);
	if (b->ks) {
		int t = kserve_timeout_ms(b->ks);

		if (t >= 0 && t < timeout)
			timeout = t;
		fds[nr++] = (struct curl_waitfd){ .fd = kserve_fd(b->ks),
						  .events = CURL_WAIT_POLLIN };
	}
	if (kcl_poll(b->c, fds, nr, timeout, &e)) {
		vsnl_error("the API client failed: %s", e.msg);
		return -EIO;
	}
	if (b->ks && kserve_run(b->ks, &e))
		vsnl_warn("%s", e.msg);
	if (b->l.nl && (kbind_read(b->l.bind, b->l.dec, &err) < 0 ||
			ksync_flush(b->l.sync, &err))) {
		vsnl_error("vschedd: %s: connecting again, then loading it again", err.msg);
		link_drop(b);
	}
	metrics_update(b);
	return 0;
}

/* A leader that stops lets go of its Lease, so that a standby takes over at once. */
static void release(struct bridge *b)
{
	struct vsnl_err e = { 0 };
	u64 until = kinf_clock_ms() + VSKUBE_RELEASE_MS;

	link_drop(b);
	kle_release(b->le);
	while (!kle_done(b->le) && kinf_clock_ms() < until) {
		kle_tick(b->le, kinf_clock_ms());
		if (kcl_poll(b->c, NULL, 0, 100, &e))
			break;
	}
}

static int run(const struct vskube_opts *o, struct kcl *c)
{
	struct bridge b = { .o = o, .c = c };
	struct vsnl_err e = { 0 };
	u64 backoff = VSKUBE_RECONNECT_MIN_MS;
	int ret = 0;

	if (metrics_init(&b, &e))
		goto fail;
	if (*o->listen) {
		b.ks = kserve_new("--listen-address", o->listen, b.reg, &serve_ops, &b, &e);
		if (!b.ks)
			goto fail;
		vsnl_info("serving /metrics, /healthz and /readyz on port %u", kserve_port(b.ks));
	}
	if (o->leader_elect) {
		b.le = kle_new(c, &o->le, &le_ops, &b, &e);
		if (!b.le)
			goto fail;
		vsnl_info("attempting to acquire leader lease %s/%s as %s...", o->le.ns, o->le.name,
			  kle_identity(b.le));
		kle_start(b.le);
	}
	while (!stopping && !b.lost) {
		if (step(&b, &backoff)) {
			ret = 1;
			break;
		}
		if (o->once && b.l.sync && idle(&b.l))
			break;
	}
	if (stopping)
		vsnl_info("signal %d: stopping", (int)stopping);
	if (b.lost)
		ret = 1;
	else if (b.le && kle_is_leader(b.le))
		release(&b);
	goto out;
fail:
	vsnl_error("vskube cannot start: %s", e.msg);
	ret = 1;
out:
	link_drop(&b);
	kle_free(b.le);
	kserve_free(b.ks);
	vsnl_prom_reg_free(b.reg);
	return ret;
}

int main(int argc, char **argv)
{
	struct vskube_opts o;
	struct kc_config cfg = { 0 };
	struct vsnl_err err = { 0 };
	struct kc_env env;
	struct sigaction sa = { .sa_handler = on_signal };
	struct kcl *c;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret == 1 ? 0 : 2;
	/* the core that the manifest reader still links logs at the same -v */
	vsnl_log_verbosity = o.verbosity;
	kc_env_default(&env);
	if (kc_load(o.kubeconfig, o.context, &env, &cfg, &err)) {
		vsnl_error("vskube cannot start: %s", err.msg);
		return 1;
	}
	if (o.master) {
		free(cfg.server);
		cfg.server = strdup(o.master);
	}
	vsnl_info("API server %s (%s)", cfg.server, cfg.origin);
	c = kcl_new(&cfg, &err);
	if (!c) {
		vsnl_error("vskube cannot start: %s", err.msg);
		kc_config_free(&cfg);
		return 1;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	ret = run(&o, c);
	kcl_free(c);
	kc_config_free(&cfg);
	return ret;
}

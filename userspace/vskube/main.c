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

#include "core/log.h"
#include "lib/vsnl.h"
#include "vskube/informer.h"
#include "vskube/kbind.h"
#include "vskube/kclient.h"
#include "vskube/kubeconfig.h"
#include "vskube/ksync.h"

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
};

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	stopping = sig;
}

static void usage(FILE *out)
{
	fprintf(out,
"usage: vskube [--kubeconfig FILE] [--context NAME] [--master URL] [--socket PATH]\n"
"              [--scheduler-name NAME] [--list-page-size N] [--bind-workers N] [-v N]\n"
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
"    -v, --v N             log verbosity, 0..%d, as klog's\n"
"    -h, --help            this text\n"
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
       OPT_ONCE };

/* 0: run; 1: exit 0 (--help); 2: usage error. */
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
		{ "v", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	u32 v;
	int c;

	memset(o, 0, sizeof(*o));
	o->scheduler = "volcano";
	o->inflight = KBIND_INFLIGHT_DEFAULT;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:v:h", longopts, NULL)) != -1) {
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
		case 'v':
			if (!parse_u32("-v", optarg, 0, VSKUBE_VERBOSITY_MAX, &v))
				return 2;
			o->verbosity = (int)v;
			break;
		case 'h':
			usage(stdout);
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
	return 0;
}

/* The two connections to vschedd: requests and batches; decisions. */
struct link {
	struct vsnl *nl, *dec;
	struct ksync *sync;
	struct kbind *bind;
};

static void link_close(struct link *l)
{
	kbind_free(l->bind);
	ksync_free(l->sync);
	vsnl_close(l->dec);
	vsnl_close(l->nl);
	memset(l, 0, sizeof(*l));
}

static int link_open(struct link *l, struct kcl *c, const struct vskube_opts *o,
		     struct vsnl_err *err)
{
	struct ksync_opts so = { .scheduler = o->scheduler, .page = o->page };
	struct vs_err e = { { 0 } };

	memset(l, 0, sizeof(*l));
	l->nl = vsnl_open(o->socket, err);
	l->dec = l->nl ? vsnl_open(o->socket, err) : NULL;
	if (!l->dec)
		goto fail;
	/* the decisions' subscriber is the binder: vschedd waits for our results */
	if (vsnl_set_rcvbuf(l->dec, VSKUBE_DEC_RCVBUF, err) ||
	    vsnl_subscribe(l->dec, VS_MCGRP_DECISIONS, err))
		goto fail;
	l->sync = ksync_new(c, l->nl, &so, &e);
	l->bind = l->sync ? kbind_new(c, l->sync, o->inflight) : NULL;
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

static bool idle(const struct link *l, const struct kcl *c)
{
	return ksync_synced(l->sync) && !kbind_pending(l->bind);
}

static int run(const struct vskube_opts *o, struct kcl *c)
{
	u32 backoff = VSKUBE_RECONNECT_MIN_MS;
	struct link l = { 0 };
	int ret = 0;

	while (!stopping) {
		struct vsnl_err err = { 0 };
		struct vs_err e = { { 0 } };
		struct curl_waitfd fd = { 0 };
		u64 now, next;
		int timeout;

		if (!l.nl) {
			if (link_open(&l, c, o, &err)) {
				vs_error("vschedd at %s: %s; trying again in %u ms",
					 o->socket ? o->socket : vsnl_default_path(), err.msg,
					 backoff);
				usleep(backoff * 1000);
				backoff = backoff * 2 > VSKUBE_RECONNECT_MAX_MS ?
					  VSKUBE_RECONNECT_MAX_MS : backoff * 2;
				continue;
			}
			vs_info("connected to vschedd at %s",
				o->socket ? o->socket : vsnl_default_path());
			backoff = VSKUBE_RECONNECT_MIN_MS;
		}
		now = kinf_clock_ms();
		next = ksync_tick(l.sync, now);
		timeout = next <= now ? 0 : next - now > 1000 ? 1000 : (int)(next - now);
		fd.fd = vsnl_fd(l.dec);
		fd.events = CURL_WAIT_POLLIN;
		if (kcl_poll(c, &fd, 1, timeout, &e)) {
			vs_error("the API client failed: %s", e.msg);
			ret = 1;
			break;
		}
		if (kbind_read(l.bind, l.dec, &err) < 0 || ksync_flush(l.sync, &err)) {
			vs_error("vschedd: %s: connecting again, then loading it again", err.msg);
			link_close(&l);
			continue;
		}
		if (o->once && idle(&l, c))
			break;
	}
	if (stopping)
		vs_info("signal %d: stopping", (int)stopping);
	link_close(&l);
	return ret;
}

int main(int argc, char **argv)
{
	struct vskube_opts o;
	struct kc_config cfg = { 0 };
	struct vs_err err = { { 0 } };
	struct kc_env env;
	struct sigaction sa = { .sa_handler = on_signal };
	struct kcl *c;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret == 1 ? 0 : 2;
	vs_log_verbosity = o.verbosity;
	kc_env_default(&env);
	if (kc_load(o.kubeconfig, o.context, &env, &cfg, &err)) {
		vs_error("vskube cannot start: %s", err.msg);
		return 1;
	}
	if (o.master) {
		free(cfg.server);
		cfg.server = strdup(o.master);
	}
	vs_info("API server %s (%s)", cfg.server, cfg.origin);
	c = kcl_new(&cfg, &err);
	if (!c) {
		vs_error("vskube cannot start: %s", err.msg);
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

// SPDX-License-Identifier: Apache-2.0
/*
 * kapiserver: a test Kubernetes API server (Documentation/kube-test-apiserver.md).
 * This file owns the process: options, the store's first objects, and the
 * one loop that runs libmicrohttpd and the watches' timers until SIGTERM
 * or SIGINT, after which everything is let go so that a sanitizer build
 * reports real leaks only.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kapi.h"

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	stopping = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kapiserver [--port N] [--port-file PATH] [--bookmark-interval MS]\n"
		"                  [--history N] [--load FILE] [--creation-step S] [-v]\n"
		"A test Kubernetes API server on 127.0.0.1, plain HTTP, for the tests.\n"
		"  --port N               listen on N (default 0: any free port)\n"
		"  --port-file PATH       write the port there once listening\n"
		"  --bookmark-interval MS between BOOKMARK events of a watch (default 1000)\n"
		"  --history N            events kept for watches to replay (default 10000)\n"
		"  --load FILE            start with these objects, one JSON object a line\n"
		"  --creation-step S      stamp each created object at least S seconds after the\n"
		"                         one before (default 0: the clock)\n"
		"  -v, --verbose          log every request on standard error\n");
}

static int parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || !*s || *end || *v > max || s[0] == '-' ? -1 : 0;
}

static int parse_opts(int argc, char **argv, struct kapi_options *o)
{
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "port-file", required_argument, NULL, 'f' },
		{ "bookmark-interval", required_argument, NULL, 'b' },
		{ "history", required_argument, NULL, 'H' },
		{ "load", required_argument, NULL, 'l' },
		{ "creation-step", required_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int c;

	o->bookmark_ms = 1000;
	o->history = 10000;
	while ((c = getopt_long(argc, argv, "p:f:b:H:l:c:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_uint(optarg, 65535, &v))
				goto bad;
			o->port = (unsigned int)v;
			break;
		case 'f':
			o->port_file = optarg;
			break;
		case 'b':
			if (parse_uint(optarg, 3600000, &v) || !v)
				goto bad;
			o->bookmark_ms = (unsigned int)v;
			break;
		case 'H':
			if (parse_uint(optarg, 10000000, &v) || !v)
				goto bad;
			o->history = v;
			break;
		case 'l':
			o->load = optarg;
			break;
		case 'c':
			if (parse_uint(optarg, 86400, &v))
				goto bad;
			o->creation_step = (unsigned int)v;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind == argc)
		return 0;
	fprintf(stderr, "kapiserver: unexpected argument \"%s\"\n", argv[optind]);
	return -1;
bad:
	fprintf(stderr, "kapiserver: invalid value \"%s\"\n", optarg);
	return -1;
}

/* Written whole, then renamed: a reader never sees half a number. */
static int write_port_file(const char *path, unsigned int port)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "%u\n", port);
	if (fclose(f) || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct kapi_server srv = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	int ret = 1;

	INIT_LIST_HEAD(&srv.watches);
	if (parse_opts(argc, argv, &srv.opts))
		return 2;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (kapi_store_init(&srv.store, srv.opts.history) || kapi_rest_init(&srv)) {
		fprintf(stderr, "kapiserver: out of memory\n");
		goto out_store;
	}
	if (srv.opts.load && kapi_load(&srv, srv.opts.load))
		goto out_store;
	if (kapi_http_start(&srv)) {
		fprintf(stderr, "kapiserver: cannot listen on 127.0.0.1:%u\n", srv.opts.port);
		goto out_store;
	}
	if (srv.opts.port_file && write_port_file(srv.opts.port_file, srv.port)) {
		fprintf(stderr, "kapiserver: cannot write %s: %s\n", srv.opts.port_file,
			strerror(errno));
		goto out_http;
	}
	printf("kapiserver: listening on http://127.0.0.1:%u\n", srv.port);
	fflush(stdout);

	/*
	 * One round: MHD serves whatever is ready (waiting at most until the
	 * next watch timer, or a second, so that a signal is never missed for
	 * long), then the watches that now have work are resumed.
	 */
	while (!stopping) {
		unsigned int wait = kapi_watch_tick(&srv);

		MHD_run_wait(srv.daemon, (int32_t)(wait < 1000 ? wait : 1000));
	}
	ret = 0;
out_http:
	kapi_http_stop(&srv);
out_store:
	free(srv.fail_message);
	kapi_store_fini(&srv.store);
	return ret;
}

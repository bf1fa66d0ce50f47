// SPDX-License-Identifier: Apache-2.0
/*
 * vschedd's command line: the flags, their checks and the manual page that
 * --help prints. Every value is checked here, before anything starts; a bad
 * one is named with the flag it came from (or $VSCHED_SOCKET) and vschedd
 * exits 2, as the other programs do on a usage error.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

#include "controllers/controllers.h"
#include "core/duration.h"
#include "core/names.h"
#include "daemon/vschedd.h"
#include "netlink/ctl.h"

#ifndef VSCHED_VERSION
#define VSCHED_VERSION "unknown"
#endif

#define VSCHEDD_VERBOSITY_MAX	10

/* Long options without a short one. */
enum {
	OPT_NO_SELF_CHECK = 0x100, OPT_LIMIT, OPT_MAX_MEMORY, OPT_CHECKPOINT,
	OPT_CHECKPOINT_INTERVAL, OPT_SET_ASIDE_BAD_CHECKPOINT, OPT_UNPRIV_QUEUE_MAX,
	OPT_SCHEDULER_NAME,
	OPT_CONTROLLER_CONF,
};

static void usage(FILE *out)
{
	fprintf(out,
"NAME\n"
"    vschedd - the vsched scheduler daemon\n"
"\n"
"SYNOPSIS\n"
"    vschedd [--socket PATH] [--conf FILE] [--period DURATION]\n"
"            [--binder auto|external] [--bind-timeout DURATION]\n"
"            [--admin-group GROUP] [--rcvbuf-max SIZE]\n"
"            [--unpriv-queue-max SIZE]\n"
"            [--limit KIND=N]... [--max-memory SIZE]\n"
"            [--checkpoint FILE] [--checkpoint-interval DURATION]\n"
"            [--set-aside-bad-checkpoint] [--scheduler-name NAME]\n"
"            [--controller-conf FILE] [--self-check | --no-self-check] [-v N]\n"
"    vschedd --help | --version\n"
"\n"
"DESCRIPTION\n"
"    vschedd holds the cluster (nodes, queues, PodGroups, tasks, VolcanoJobs,\n"
"    priority classes) in memory and schedules it as Volcano's scheduler does,\n"
"    one cycle every period and one whenever a client asks. Clients speak\n"
"    vsched's generic netlink protocol on a Unix socket (vsctl, libvsnl).\n"
"\n"
"OPTIONS\n"
"    -s, --socket PATH\n"
"        Listen on PATH (default $%s, else %s). Its\n"
"        directory is made if missing; the socket is made with mode 0660; a\n"
"        socket file nothing listens on is replaced, one a daemon listens on\n"
"        is not.\n"
"    -c, --conf FILE\n"
"        The scheduler configuration, Volcano's volcano-scheduler.conf\n"
"        (default: Volcano's built-in one). SIGHUP reads it again. A\n"
"        regular file: a FIFO or a device is refused at once.\n"
"    -p, --period DURATION\n"
"        Run a cycle every DURATION, a Go duration such as 1s, 500ms or 1m30s\n"
"        (default 1s, Volcano's schedule-period; at most 24h). 0: cycles run\n"
"        only on request (VS_CMD_CYCLE_RUN, \"vsctl cycle run\") until a\n"
"        client sets a period (VS_CMD_CONF_SET).\n"
"    -b, --binder auto|external\n"
"        auto: the daemon confirms each of its binds itself, as a binder and a\n"
"        kubelet would (standalone). external: bind decisions wait for\n"
"        VS_CMD_BIND_RESULT from a binder. Without the flag: auto while no\n"
"        client with the admin permission subscribes to the decisions group,\n"
"        external while one does (a reader's subscription changes nothing).\n"
"    -t, --bind-timeout DURATION\n"
"        How long a bind decision waits for its VS_CMD_BIND_RESULT (default\n"
"        30s, at most 1h; 0: forever). Past it the bind counts as failed: the\n"
"        task leaves its node, is Pending again and is retried after a\n"
"        backoff of 1s, doubling up to 10s per failure in a row.\n"
"    -g, --admin-group GROUP\n"
"        Members of GROUP (a name or a gid) may change state; root always may.\n"
"        The socket file is given to GROUP, so that its members can connect.\n"
"    -r, --rcvbuf-max SIZE\n"
"        The most notifications a client may have the daemon queue for its\n"
"        connection (VS_CMD_CONN_SET, as SO_RCVBUF sizes a netlink socket's\n"
"        receive queue); a larger request is refused. Each connection queues\n"
"        16M until it asks. SIZE is bytes with an optional K, M, G or T (powers\n"
"        of 1024): default 256M, from 16M to 64G.\n"
"    --unpriv-queue-max SIZE\n"
"        The most the connections without the admin permission may have\n"
"        waiting for them together (notifications and replies their sockets\n"
"        have not taken yet). Past it, what would wait for one of them is\n"
"        dropped and that connection gets ENOBUFS; nobody else is affected.\n"
"        The admin's connections are bounded by their own queue alone. No\n"
"        connection's queue counts against --max-memory. SIZE as for\n"
"        --rcvbuf-max: default 64M, from 16M to 64G.\n"
"    --limit KIND=N\n"
"        The most objects of KIND the daemon holds: nodes (default %u),\n"
"        queues (%u), podgroups (%u), tasks (%u), vjobs (%u),\n"
"        prioclasses (%u) or hypernodes (%u). A request that would make one more is refused\n"
"        (ENOSPC, naming the limit) and changes nothing, and so is a\n"
"        VolcanoJob whose replicas pass the limit of tasks. Repeat the flag\n"
"        for several kinds.\n"
"    --max-memory SIZE\n"
"        The most heap the daemon holds, as its allocator counts it (what the\n"
"        objects, their indexes and the held batches take; the resident set\n"
"        runs somewhat above it; what waits in the connections' out-queues is\n"
"        not counted, it has its own bounds). Past it, a request that adds or\n"
"        changes objects (NEW, SET, the configuration, VolcanoJob commands)\n"
"        is refused with ENOMEM, saying so, and changes nothing; deletes, task\n"
"        status, bind results, reads, dumps and cycles go on, so that the\n"
"        daemon can get back under it. SIZE as for --rcvbuf-max, from 64M to\n"
"        64T (default: no cap).\n"
"    --checkpoint FILE\n"
"        Keep the state in FILE (standalone mode): restored at start if FILE\n"
"        exists, written every --checkpoint-interval and at a clean stop\n"
"        (SIGTERM, SIGINT), each time whole under FILE.tmp, synced, then\n"
"        renamed over FILE. A restore is whole or nothing: a FILE that is\n"
"        not a regular file, damaged, truncated, or has a request refused\n"
"        (its index and byte are named) stops the daemon at start, saying\n"
"        why, and is left as it is. Only a FILE that is not there is a first\n"
"        start, empty. The checkpoint's configuration and period are\n"
"        restored unless --conf or --period is given. Binds not yet confirmed\n"
"        are scheduled again.\n"
"    --checkpoint-interval DURATION\n"
"        How often to write the checkpoint (default 1m, at most 24h; 0: only\n"
"        at a clean stop).\n"
"    --set-aside-bad-checkpoint\n"
"        When the --checkpoint FILE cannot be restored, rename it to\n"
"        FILE.bad-YYYYMMDDTHHMMSSZ (UTC) and start empty instead of not\n"
"        starting, saying so in the log. What FILE held is not in the\n"
"        daemon. A FILE that restores is restored as without the flag.\n"
"    --scheduler-name NAME\n"
"        The pods this daemon places: a task whose VS_TASK_A_SCHEDULER names\n"
"        another scheduler is only accounted for, on its node, in a shadow\n"
"        PodGroup, and refused while it is on no node (default \"volcano\",\n"
"        Volcano's; a DNS subdomain).\n"
"    --controller-conf FILE\n"
"        The controllers' configuration, Volcano's volcano-controller.conf:\n"
"        its networkTopologyDiscovery with source label makes HyperNodes\n"
"        from node labels (Documentation/controllers.md). Read at start; a\n"
"        bad FILE stops the daemon before it listens. A regular file.\n"
"    -C, --self-check\n"
"        After every datagram of requests, every cycle and every bind that\n"
"        timed out, check the core's accounting (each node's used, idle,\n"
"        releasing and pipelined resources against its tasks, each\n"
"        PodGroup's and queue's counts and totals, the indexes) and abort,\n"
"        saying what is wrong, if it does not hold. It costs a walk of the\n"
"        cluster each time: for tests. Off by default (on in a debug build,\n"
"        make DEBUG=1 or SANITIZE=1).\n"
"    --no-self-check\n"
"        Do not: the default of a build that is not for debugging.\n"
"    -v, --verbosity N\n"
"        Log verbosity, as klog's -v: 0 (default) to %d.\n"
"    -h, --help\n"
"        This text.\n"
"    -V, --version\n"
"        The version.\n"
"\n"
"PERMISSIONS\n"
"    Anyone who can open the socket may read (GET, dumps, statistics, the\n"
"    configuration) and subscribe. Changing anything (NEW, SET, DEL, task\n"
"    status, bind results, the configuration, cycles, batches, reset, holding\n"
"    periodic cycles, being the binder) needs the admin permission: the\n"
"    peer's credentials (SO_PEERCRED) are root's, or the admin group is its\n"
"    group or one of its supplementary groups.\n"
"\n"
"SIGNALS\n"
"    SIGTERM, SIGINT  stop cleanly: clients are closed, the socket file removed,\n"
"                     the checkpoint written (--checkpoint).\n"
"    SIGHUP           read the configuration file again; a bad one is logged\n"
"                     (FILE:LINE: reason) and the one in force stays.\n"
"    SIGUSR1          log what the daemon holds: objects of each kind,\n"
"                     clients, cycles, binds and evictions so far.\n"
"    SIGUSR2          check the whole core once (as --self-check does) and\n"
"                     log the result; a fault is logged, not fatal.\n"
"\n"
"ENVIRONMENT\n"
"    %s  the socket, when --socket is not given.\n"
"\n"
"EXIT STATUS\n"
"    0 after a clean stop, 1 when it cannot start or serve, 2 on a bad\n"
"    argument.\n"
"\n"
"SEE ALSO\n"
"    vsctl(8), Documentation/vschedd.md, Documentation/protocol.md\n",
		VSCHED_SOCKET_ENV, VSCHED_SOCKET_DEFAULT, VS_LIMIT_NODES, VS_LIMIT_QUEUES,
		VS_LIMIT_PODGROUPS, VS_LIMIT_TASKS, VS_LIMIT_VJOBS, VS_LIMIT_PRIOCLASSES,
		VS_LIMIT_HYPERNODES, VSCHEDD_VERBOSITY_MAX, VSCHED_SOCKET_ENV);
}

/* ---- the other values ---- */

static bool socket_path_ok(const char *what, const char *path, FILE *err)
{
	struct sockaddr_un sa;

	if (!*path) {
		fprintf(err, "vschedd: %s: the socket path is empty\n", what);
		return false;
	}
	BUILD_BUG_ON(VSCHEDD_SOCKET_PATH_MAX + 1 > sizeof(sa.sun_path) - 1);
	if (strlen(path) > VSCHEDD_SOCKET_PATH_MAX) {
		fprintf(err, "vschedd: %s: the socket path is %zu bytes long; vschedd takes at "
			"most %d (a Unix socket's address holds %zu, and the socket is made at "
			"PATH~ first)\n", what, strlen(path), VSCHEDD_SOCKET_PATH_MAX,
			sizeof(sa.sun_path) - 1);
		return false;
	}
	return true;
}

/* A group by name, else by number. */
static bool parse_group(const char *s, gid_t *gid, FILE *err)
{
	struct group *gr = *s ? getgrnam(s) : NULL;
	unsigned long v;
	char *end;

	if (gr) {
		*gid = gr->gr_gid;
		return true;
	}
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s && isdigit((unsigned char)*s) && !*end && !errno && v < (gid_t)-1) {
		*gid = (gid_t)v;
		return true;
	}
	fprintf(err, "vschedd: --admin-group: no group named \"%s\", and it is not a gid\n", s);
	return false;
}

/*
 * A size in bytes, with an optional K, M, G or T (Ki, Mi, Gi, Ti alike:
 * powers of 1024), from @min to @max; else false, said with @opt and
 * @range ("16M to 64G").
 */
static bool parse_size(const char *opt, const char *s, u64 min, u64 max, const char *range,
		       u64 *out, FILE *err)
{
	static const struct {
		const char *suffix;
		unsigned int shift;
	} units[] = {
		{ "", 0 }, { "K", 10 }, { "Ki", 10 }, { "M", 20 }, { "Mi", 20 },
		{ "G", 30 }, { "Gi", 30 }, { "T", 40 }, { "Ti", 40 },
	};
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!isdigit((unsigned char)*s) || errno)
		goto bad;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		if (v > max >> units[i].shift)
			goto bad;
		v <<= units[i].shift;
		if (v < min)
			goto bad;
		*out = v;
		return true;
	}
bad:
	fprintf(err, "vschedd: %s: \"%s\" is not a size from %s (bytes, or with K, M, G or "
		"T)\n", opt, s, range);
	return false;
}

static bool parse_verbosity(const char *s, int *out, FILE *err)
{
	long v;
	char *end;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < 0 || v > VSCHEDD_VERBOSITY_MAX) {
		fprintf(err, "vschedd: -v: \"%s\" is not a verbosity from 0 to %d\n", s,
			VSCHEDD_VERBOSITY_MAX);
		return false;
	}
	*out = (int)v;
	return true;
}

/* --limit KIND=N */
static bool parse_limit(const char *s, struct vs_cluster_limits *limits, FILE *err)
{
	struct vs_err e = { { 0 } };
	const char *eq = strchr(s, '=');
	char kind[32], *end;
	unsigned long v;

	if (!eq || (size_t)(eq - s) >= sizeof(kind)) {
		fprintf(err, "vschedd: --limit: \"%s\" is not KIND=N (such as tasks=2000000)\n", s);
		return false;
	}
	memcpy(kind, s, (size_t)(eq - s));
	kind[eq - s] = '\0';
	errno = 0;
	v = strtoul(eq + 1, &end, 10);
	if (!eq[1] || *end || errno || eq[1] == '-' || v > UINT32_MAX) {
		fprintf(err, "vschedd: --limit: \"%s\" is not a count from 1 to %u\n", eq + 1,
			UINT32_MAX);
		return false;
	}
	if (vs_cluster_limit_set(limits, kind, (u32)v, &e)) {
		fprintf(err, "vschedd: --limit: %s\n", e.msg);
		return false;
	}
	return true;
}

enum vschedd_args vschedd_parse_args(int argc, char **argv, struct vschedd_opts *o, FILE *out,
				     FILE *err)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "conf", required_argument, NULL, 'c' },
		{ "period", required_argument, NULL, 'p' },
		{ "binder", required_argument, NULL, 'b' },
		{ "bind-timeout", required_argument, NULL, 't' },
		{ "admin-group", required_argument, NULL, 'g' },
		{ "rcvbuf-max", required_argument, NULL, 'r' },
		{ "unpriv-queue-max", required_argument, NULL, OPT_UNPRIV_QUEUE_MAX },
		{ "self-check", no_argument, NULL, 'C' },
		{ "no-self-check", no_argument, NULL, OPT_NO_SELF_CHECK },
		{ "limit", required_argument, NULL, OPT_LIMIT },
		{ "max-memory", required_argument, NULL, OPT_MAX_MEMORY },
		{ "checkpoint", required_argument, NULL, OPT_CHECKPOINT },
		{ "checkpoint-interval", required_argument, NULL, OPT_CHECKPOINT_INTERVAL },
		{ "set-aside-bad-checkpoint", no_argument, NULL, OPT_SET_ASIDE_BAD_CHECKPOINT },
		{ "scheduler-name", required_argument, NULL, OPT_SCHEDULER_NAME },
		{ "controller-conf", required_argument, NULL, OPT_CONTROLLER_CONF },
		{ "verbosity", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *env = getenv(VSCHED_SOCKET_ENV), *why;
	struct vs_err e = { { 0 } };
	bool from_flag = false;
	int c;

	memset(o, 0, sizeof(*o));
	o->socket_path = VSCHED_SOCKET_DEFAULT;
	if (env && *env)
		o->socket_path = env;
	o->period_ms = VS_NL_PERIOD_DEFAULT_MS;
	o->bind_timeout_ms = VSCHEDD_BIND_TIMEOUT_DEFAULT_MS;
	o->rcvbuf_max = VSCHEDD_RCVBUF_MAX_DEFAULT;
	o->unpriv_queue_max = VSCHEDD_UNPRIV_QUEUE_MAX_DEFAULT;
	o->self_check = VSCHEDD_SELF_CHECK_DEFAULT;
	o->checkpoint_interval_ms = VSCHEDD_CHECKPOINT_INTERVAL_DEFAULT_MS;
	o->scheduler_name = VS_DEFAULT_SCHEDULER;
	optind = 0;		/* glibc: start over, as tests parse several command lines */
	opterr = 0;		/* said here, with the flag's name */
	while ((c = getopt_long(argc, argv, ":s:c:p:b:t:g:r:Cv:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->socket_path = optarg;
			from_flag = true;
			break;
		case 'c':
			if (!*optarg) {
				fprintf(err, "vschedd: --conf: the file name is empty\n");
				return VSCHEDD_ARGS_USAGE;
			}
			o->conf_path = optarg;
			o->conf_given = true;
			break;
		case 'p':
			if (vs_parse_duration(optarg, VS_NL_PERIOD_MAX_MS, &o->period_ms, &why)) {
				fprintf(err, "vschedd: --period: \"%s\" is not a period from 1ms to "
					"24h, or 0: %s\n", optarg, why);
				return VSCHEDD_ARGS_USAGE;
			}
			o->conf_given = true;
			break;
		case 'b':
			if (!strcmp(optarg, "auto")) {
				o->binder = VSCHEDD_BINDER_AUTO;
			} else if (!strcmp(optarg, "external")) {
				o->binder = VSCHEDD_BINDER_EXTERNAL;
			} else {
				fprintf(err, "vschedd: --binder: \"%s\" is neither auto nor "
					"external\n", optarg);
				return VSCHEDD_ARGS_USAGE;
			}
			break;
		case 't':
			if (vs_parse_duration(optarg, VSCHEDD_BIND_TIMEOUT_MAX_MS,
						   &o->bind_timeout_ms, &why)) {
				fprintf(err, "vschedd: --bind-timeout: \"%s\" is not a timeout from "
					"1ms to 1h, or 0: %s\n", optarg, why);
				return VSCHEDD_ARGS_USAGE;
			}
			break;
		case 'g':
			if (!parse_group(optarg, &o->admin_gid, err))
				return VSCHEDD_ARGS_USAGE;
			o->have_admin_group = true;
			break;
		case 'r':
			if (!parse_size("--rcvbuf-max", optarg, VSCHEDD_OUTQ_MAX,
					VSCHEDD_RCVBUF_MAX_LIMIT, "16M to 64G", &o->rcvbuf_max, err))
				return VSCHEDD_ARGS_USAGE;
			break;
		case OPT_UNPRIV_QUEUE_MAX:
			if (!parse_size("--unpriv-queue-max", optarg, VSCHEDD_OUTQ_MAX,
					VSCHEDD_RCVBUF_MAX_LIMIT, "16M to 64G",
					&o->unpriv_queue_max, err))
				return VSCHEDD_ARGS_USAGE;
			break;
		case 'C':
			o->self_check = true;
			break;
		case OPT_NO_SELF_CHECK:
			o->self_check = false;
			break;
		case OPT_LIMIT:
			if (!parse_limit(optarg, &o->limits, err))
				return VSCHEDD_ARGS_USAGE;
			break;
		case OPT_MAX_MEMORY:
			if (!parse_size("--max-memory", optarg, VSCHEDD_MAX_MEMORY_MIN,
					VSCHEDD_MAX_MEMORY_LIMIT, "64M to 64T", &o->max_memory,
					err))
				return VSCHEDD_ARGS_USAGE;
			break;
		case OPT_CHECKPOINT:
			if (!*optarg) {
				fprintf(err, "vschedd: --checkpoint: the file name is empty\n");
				return VSCHEDD_ARGS_USAGE;
			}
			o->checkpoint_path = optarg;
			break;
		case OPT_CHECKPOINT_INTERVAL:
			if (vs_parse_duration(optarg, VSCHEDD_CHECKPOINT_INTERVAL_MAX_MS,
					      &o->checkpoint_interval_ms, &why)) {
				fprintf(err, "vschedd: --checkpoint-interval: \"%s\" is not an "
					"interval from 1ms to 24h, or 0: %s\n", optarg, why);
				return VSCHEDD_ARGS_USAGE;
			}
			break;
		case OPT_SET_ASIDE_BAD_CHECKPOINT:
			o->set_aside_bad_checkpoint = true;
			break;
		case OPT_SCHEDULER_NAME:
			if (vs_check_dns_subdomain(optarg, strlen(optarg), "scheduler name", &e)) {
				fprintf(err, "vschedd: --scheduler-name: %s\n", e.msg);
				return VSCHEDD_ARGS_USAGE;
			}
			o->scheduler_name = optarg;
			break;
		case OPT_CONTROLLER_CONF:
			o->controller_conf_path = optarg;
			break;
		case 'v':
			if (!parse_verbosity(optarg, &o->verbosity, err))
				return VSCHEDD_ARGS_USAGE;
			break;
		case 'h':
			usage(out);
			return VSCHEDD_ARGS_EXIT;
		case 'V':
			fprintf(out, "vschedd %s\n", VSCHED_VERSION);
			return VSCHEDD_ARGS_EXIT;
		case ':':
			fprintf(err, "vschedd: %s needs a value (see vschedd --help)\n",
				argv[optind - 1]);
			return VSCHEDD_ARGS_USAGE;
		default:
			fprintf(err, "vschedd: unknown option %s (see vschedd --help)\n",
				argv[optind - 1]);
			return VSCHEDD_ARGS_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(err, "vschedd: unexpected argument \"%s\": vschedd takes only options "
			"(see vschedd --help)\n", argv[optind]);
		return VSCHEDD_ARGS_USAGE;
	}
	if (o->set_aside_bad_checkpoint && !o->checkpoint_path) {
		fprintf(err, "vschedd: --set-aside-bad-checkpoint: there is no checkpoint to set "
			"aside without --checkpoint FILE\n");
		return VSCHEDD_ARGS_USAGE;
	}
	if (!socket_path_ok(from_flag ? "--socket" : "$" VSCHED_SOCKET_ENV, o->socket_path, err))
		return VSCHEDD_ARGS_USAGE;
	return VSCHEDD_ARGS_RUN;
}

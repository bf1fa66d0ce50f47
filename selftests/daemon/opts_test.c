// SPDX-License-Identifier: Apache-2.0
/*
 * vschedd's command line: Go durations for --period, every flag's checks
 * and their messages, $VSCHED_SOCKET, --help and --version.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/duration.h"
#include "daemon/vschedd.h"
#include "netlink/ctl.h"

TestSuite(vschedd_opts);

Test(vschedd_opts, go_durations_are_read_to_the_millisecond)
{
	static const struct {
		const char *s;
		u32 ms;
	} good[] = {
		{ "0", 0 }, { "0s", 0 }, { "1s", 1000 }, { "500ms", 500 }, { "1m30s", 90000 },
		{ "1.5s", 1500 }, { "2h", 7200000 }, { "+3s", 3000 }, { "1500000us", 1500 },
		{ "1000000000ns", 1000 }, { "2000\u00b5s", 2 }, { ".5s", 500 }, { "24h", 86400000 },
		{ "1h0m0.001s", 3600001 },
	};
	static const struct {
		const char *s;
		int ret;
		const char *why;
	} bad[] = {
		{ "", -EINVAL, "empty" }, { "5", -EINVAL, "a unit is missing" },
		{ "5x", -EINVAL, "unknown unit" }, { "-1s", -EINVAL, "a number is missing" },
		{ "1.5ms", -EINVAL, "not a whole number of milliseconds" },
		{ "500us", -EINVAL, "not a whole number" }, { "25h", -ERANGE, "too long" },
		{ "99999999999999999999999h", -ERANGE, "too long" }, { "s", -EINVAL, "a number" },
		{ "1s2", -EINVAL, "a unit is missing" },
	};
	const char *why;
	u32 ms;

	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		ms = 12345;
		cr_assert_eq(vs_parse_duration(good[i].s, VS_NL_PERIOD_MAX_MS, &ms, &why), 0,
			     "%s: %s", good[i].s, why);
		cr_assert_eq(ms, good[i].ms, "%s: %u", good[i].s, ms);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		why = "";
		cr_assert_eq(vs_parse_duration(bad[i].s, VS_NL_PERIOD_MAX_MS, &ms, &why),
			     bad[i].ret, "%s", bad[i].s);
		cr_assert(strstr(why, bad[i].why), "%s: %s", bad[i].s, why);
	}
}

/*
 * Parse "vschedd" and @args (NULL-terminated), as writable strings that
 * the options may point into until the next call; what went to stdout and
 * stderr lands in @out and @err (free them).
 */
static enum vschedd_args parse(struct vschedd_opts *o, char **out, char **err,
			       const char *const *args)
{
	static char store[16][160];
	char *argv[ARRAY_SIZE(store) + 1];
	enum vschedd_args ret;
	size_t lo, le;
	FILE *fo = open_memstream(out, &lo), *fe = open_memstream(err, &le);
	int argc = 0;

	cr_assert(fo && fe);
	snprintf(store[argc], sizeof(store[0]), "vschedd");
	argv[argc] = store[argc];
	for (argc++; *args; args++, argc++) {
		cr_assert_lt(argc, (int)ARRAY_SIZE(store));
		snprintf(store[argc], sizeof(store[0]), "%s", *args);
		argv[argc] = store[argc];
	}
	argv[argc] = NULL;
	ret = vschedd_parse_args(argc, argv, o, fo, fe);
	fclose(fo);
	fclose(fe);
	return ret;
}

#define PARSE(o, out, err, ...) \
	parse(o, out, err, (const char *const[]){ __VA_ARGS__, NULL })

Test(vschedd_opts, defaults_are_volcanos_and_the_environment_names_the_socket)
{
	struct vschedd_opts o;
	const char *const none[] = { NULL };
	char *out, *err;

	unsetenv(VSCHED_SOCKET_ENV);
	cr_assert_eq(parse(&o, &out, &err, none), VSCHEDD_ARGS_RUN);
	cr_assert_str_eq(o.socket_path, VSCHED_SOCKET_DEFAULT);
	cr_assert_eq(o.period_ms, 1000);
	cr_assert_eq(o.binder, VSCHEDD_BINDER_DEFAULT);
	cr_assert_eq(o.bind_timeout_ms, 30000);
	cr_assert_null(o.conf_path);
	cr_assert_not(o.have_admin_group);
	cr_assert_eq(o.rcvbuf_max, 256 << 20);
	cr_assert_null(o.checkpoint_path, "memory only");
	cr_assert_eq(o.checkpoint_interval_ms, 60000);
	cr_assert_not(o.conf_given);
	cr_assert_str_eq(o.scheduler_name, "volcano", "Volcano's scheduler name");
	free(out);
	free(err);

	setenv(VSCHED_SOCKET_ENV, "/tmp/env.sock", 1);
	cr_assert_eq(parse(&o, &out, &err, none), VSCHEDD_ARGS_RUN);
	cr_assert_str_eq(o.socket_path, "/tmp/env.sock");
	free(out);
	free(err);
	/* The flag wins. */
	cr_assert_eq(PARSE(&o, &out, &err, "--socket", "/tmp/flag.sock"), VSCHEDD_ARGS_RUN);
	cr_assert_str_eq(o.socket_path, "/tmp/flag.sock");
	free(out);
	free(err);
	unsetenv(VSCHED_SOCKET_ENV);
}

Test(vschedd_opts, every_flag_is_taken)
{
	struct vschedd_opts o;
	char *out, *err;

	cr_assert_eq(PARSE(&o, &out, &err, "-s", "/tmp/a.sock", "--conf=/etc/v.conf",
			   "--period", "250ms", "--binder=external", "--admin-group", "0",
			   "-v", "4", "--bind-timeout", "1m30s", "--self-check"), VSCHEDD_ARGS_RUN,
		     "%s", err);
	cr_assert_eq(o.bind_timeout_ms, 90000);
	cr_assert(o.self_check);
	cr_assert_str_eq(o.socket_path, "/tmp/a.sock");
	cr_assert_str_eq(o.conf_path, "/etc/v.conf");
	cr_assert_eq(o.period_ms, 250);
	cr_assert_eq(o.binder, VSCHEDD_BINDER_EXTERNAL);
	cr_assert(o.have_admin_group);
	cr_assert_eq(o.admin_gid, 0);
	cr_assert_eq(o.verbosity, 4);
	free(out);
	free(err);
	cr_assert_eq(PARSE(&o, &out, &err, "--period", "0", "--binder", "auto", "-g", "root"),
		     VSCHEDD_ARGS_RUN, "%s", err);
	cr_assert_eq(o.period_ms, 0);
	cr_assert_eq(o.binder, VSCHEDD_BINDER_AUTO);
	cr_assert_eq(o.admin_gid, 0, "the group root by name");
	cr_assert_eq(o.self_check, VSCHEDD_SELF_CHECK_DEFAULT, "on in debug builds only");
	free(out);
	free(err);
	cr_assert_eq(PARSE(&o, &out, &err, "--self-check", "--no-self-check"), VSCHEDD_ARGS_RUN,
		     "%s", err);
	cr_assert_not(o.self_check, "the last word counts");
	free(out);
	free(err);
	/* Sizes in bytes or powers of 1024. */
	cr_assert_eq(PARSE(&o, &out, &err, "--rcvbuf-max", "1G"), VSCHEDD_ARGS_RUN, "%s", err);
	cr_assert_eq(o.rcvbuf_max, 1ull << 30);
	free(out);
	free(err);
	cr_assert_eq(PARSE(&o, &out, &err, "-r", "16777216"), VSCHEDD_ARGS_RUN, "%s", err);
	cr_assert_eq(o.rcvbuf_max, 16 << 20);
	free(out);
	free(err);
	cr_assert_eq(PARSE(&o, &out, &err, "--rcvbuf-max=512Mi"), VSCHEDD_ARGS_RUN, "%s", err);
	cr_assert_eq(o.rcvbuf_max, 512 << 20);
	free(out);
	free(err);
	/* What unprivileged connections queue together: 64M unless given, 16M at least. */
	cr_assert_eq(o.unpriv_queue_max, 64 << 20);
	cr_assert_eq(PARSE(&o, &out, &err, "--unpriv-queue-max", "32M"), VSCHEDD_ARGS_RUN, "%s",
		     err);
	cr_assert_eq(o.unpriv_queue_max, 32 << 20);
	free(out);
	free(err);
	cr_assert_eq(PARSE(&o, &out, &err, "--unpriv-queue-max=1M"), VSCHEDD_ARGS_USAGE);
	cr_assert(strstr(err, "--unpriv-queue-max"), "%s", err);
	free(out);
	free(err);
	/* The memory cap: none unless given. */
	cr_assert_eq(o.max_memory, 0);
	cr_assert_eq(PARSE(&o, &out, &err, "--max-memory", "6G"), VSCHEDD_ARGS_RUN, "%s", err);
	cr_assert_eq(o.max_memory, 6ull << 30);
	free(out);
	free(err);
	cr_assert_eq(PARSE(&o, &out, &err, "--max-memory=1Ti"), VSCHEDD_ARGS_RUN, "%s", err);
	cr_assert_eq(o.max_memory, 1ull << 40);
	free(out);
	free(err);
	/* Limits, one kind per flag; a kind not named keeps its default (0 here). */
	cr_assert_eq(PARSE(&o, &out, &err, "--limit", "tasks=5000000", "--limit=nodes=10"),
		     VSCHEDD_ARGS_RUN, "%s", err);
	cr_assert_eq(o.limits.tasks, 5000000);
	cr_assert_eq(o.limits.nodes, 10);
	cr_assert_eq(o.limits.queues, 0);
	free(out);
	free(err);
	/* Checkpoints; --conf or --period keeps a checkpoint's configuration out. */
	cr_assert_eq(PARSE(&o, &out, &err, "--checkpoint", "/var/lib/vsched/state",
			   "--checkpoint-interval=30s"), VSCHEDD_ARGS_RUN, "%s", err);
	cr_assert_str_eq(o.checkpoint_path, "/var/lib/vsched/state");
	cr_assert_eq(o.checkpoint_interval_ms, 30000);
	cr_assert_not(o.conf_given);
	cr_assert_not(o.set_aside_bad_checkpoint, "a bad checkpoint stops the daemon");
	free(out);
	free(err);
	cr_assert_eq(PARSE(&o, &out, &err, "--checkpoint", "/var/lib/vsched/state",
			   "--set-aside-bad-checkpoint"), VSCHEDD_ARGS_RUN, "%s", err);
	cr_assert(o.set_aside_bad_checkpoint);
	free(out);
	free(err);
	cr_assert_eq(PARSE(&o, &out, &err, "--checkpoint-interval", "0", "--period", "2s"),
		     VSCHEDD_ARGS_RUN, "%s", err);
	cr_assert_eq(o.checkpoint_interval_ms, 0);
	cr_assert(o.conf_given);
	free(out);
	free(err);
	cr_assert_eq(PARSE(&o, &out, &err, "--scheduler-name", "batch.example.com"),
		     VSCHEDD_ARGS_RUN, "%s", err);
	cr_assert_str_eq(o.scheduler_name, "batch.example.com");
	free(out);
	free(err);
}

Test(vschedd_opts, a_bad_argument_says_what_and_where)
{
	static const struct {
		const char *flag, *value, *said;
	} cases[] = {
		{ "--period", "5x", "vschedd: --period: \"5x\" is not a period from 1ms to 24h, "
				    "or 0: unknown unit" },
		{ "--period", "48h", "vschedd: --period: \"48h\" is not a period" },
		{ "--bind-timeout", "2h", "vschedd: --bind-timeout: \"2h\" is not a timeout from 1ms "
					  "to 1h, or 0" },
		{ "--binder", "manual", "vschedd: --binder: \"manual\" is neither auto nor external" },
		{ "--admin-group", "no-such-group-here", "vschedd: --admin-group: no group named "
							 "\"no-such-group-here\"" },
		{ "-v", "11", "vschedd: -v: \"11\" is not a verbosity from 0 to 10" },
		{ "--rcvbuf-max", "15M", "vschedd: --rcvbuf-max: \"15M\" is not a size from 16M to "
					 "64G (bytes, or with K, M, G or T)" },
		{ "--rcvbuf-max", "65G", "is not a size from 16M to 64G" },
		{ "--rcvbuf-max", "1T", "is not a size" },
		{ "--rcvbuf-max", "-1G", "is not a size" },
		{ "-v", "x", "is not a verbosity" },
		{ "--max-memory", "63M", "vschedd: --max-memory: \"63M\" is not a size from 64M to "
					 "64T (bytes, or with K, M, G or T)" },
		{ "--max-memory", "65T", "is not a size from 64M to 64T" },
		{ "--max-memory", "4GB", "is not a size" },
		{ "--max-memory", "", "is not a size" },
		{ "--limit", "tasks", "vschedd: --limit: \"tasks\" is not KIND=N" },
		{ "--limit", "tasks=0", "vschedd: --limit: the limit of tasks must be at least 1" },
		{ "--limit", "tasks=-5", "vschedd: --limit: \"-5\" is not a count from 1 to" },
		{ "--limit", "tasks=5000000000", "is not a count from 1 to 4294967295" },
		{ "--limit", "pods=5", "vschedd: --limit: \"pods\" is no kind of object with a limit" },
		{ "--conf", "", "vschedd: --conf: the file name is empty" },
		{ "--scheduler-name", "Volcano", "vschedd: --scheduler-name: invalid scheduler "
						 "name \"Volcano\"" },
		{ "--scheduler-name", "", "vschedd: --scheduler-name: scheduler name" },
		{ "--checkpoint", "", "vschedd: --checkpoint: the file name is empty" },
		{ "--checkpoint-interval", "2d", "vschedd: --checkpoint-interval: \"2d\" is not an "
						 "interval from 1ms to 24h, or 0" },
		{ "--socket", "", "vschedd: --socket: the socket path is empty" },
		{ "--socket", "/tmp/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
			      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.sock",
		  "vschedd: --socket: the socket path is 121 bytes long; vschedd takes at most 106 "
		  "(a Unix socket's address holds 107, and the socket is made at PATH~ first)" },
	};
	struct vschedd_opts o;
	char *out, *err;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		cr_assert_eq(PARSE(&o, &out, &err, cases[i].flag, cases[i].value),
			     VSCHEDD_ARGS_USAGE, "%s %s", cases[i].flag, cases[i].value);
		cr_assert(strstr(err, cases[i].said), "%s %s said: %s", cases[i].flag,
			  cases[i].value, err);
		free(out);
		free(err);
	}
	cr_assert_eq(PARSE(&o, &out, &err, "serve"), VSCHEDD_ARGS_USAGE);
	cr_assert(strstr(err, "unexpected argument \"serve\""), "%s", err);
	free(out);
	free(err);
	cr_assert_eq(PARSE(&o, &out, &err, "--frobnicate"), VSCHEDD_ARGS_USAGE);
	cr_assert(strstr(err, "unknown option --frobnicate"), "%s", err);
	free(out);
	free(err);
	cr_assert_eq(PARSE(&o, &out, &err, "--period"), VSCHEDD_ARGS_USAGE);
	cr_assert(strstr(err, "--period needs a value"), "%s", err);
	free(out);
	free(err);
	cr_assert_eq(PARSE(&o, &out, &err, "--set-aside-bad-checkpoint"), VSCHEDD_ARGS_USAGE);
	cr_assert(strstr(err, "vschedd: --set-aside-bad-checkpoint: there is no checkpoint to set "
			 "aside without --checkpoint FILE"), "%s", err);
	free(out);
	free(err);

	setenv(VSCHED_SOCKET_ENV, "/tmp/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
				  "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.sock", 1);
	cr_assert_eq(PARSE(&o, &out, &err, "-v", "1"), VSCHEDD_ARGS_USAGE);
	cr_assert(strstr(err, "vschedd: $VSCHED_SOCKET: the socket path is"), "%s", err);
	free(out);
	free(err);
	unsetenv(VSCHED_SOCKET_ENV);
}

/* 106 bytes, the room of a Unix socket's address less the "~" of PATH~, and not one more. */
Test(vschedd_opts, a_socket_path_takes_the_room_the_socket_is_made_in)
{
	struct vschedd_opts o;
	char path[108], *out, *err;

	memset(path, 'a', sizeof(path));
	memcpy(path, "/tmp/", 5);
	path[106] = '\0';
	cr_assert_eq(PARSE(&o, &out, &err, "--socket", path), VSCHEDD_ARGS_RUN, "%s", err);
	free(out);
	free(err);
	path[106] = 'a';
	path[107] = '\0';
	cr_assert_eq(PARSE(&o, &out, &err, "--socket", path), VSCHEDD_ARGS_USAGE);
	cr_assert(strstr(err, "the socket path is 107 bytes long; vschedd takes at most 106"),
		  "%s", err);
	free(out);
	free(err);
}

Test(vschedd_opts, help_is_a_manual_page_and_version_the_version)
{
	struct vschedd_opts o;
	char *out, *err;

	cr_assert_eq(PARSE(&o, &out, &err, "--help"), VSCHEDD_ARGS_EXIT);
	for (const char *const *s = (const char *const[]){ "NAME", "SYNOPSIS", "OPTIONS",
		"--socket PATH", "--conf FILE", "--period DURATION", "--binder auto|external",
		"--admin-group GROUP", "PERMISSIONS", "SIGNALS", "SIGHUP", "EXIT STATUS",
		VSCHED_SOCKET_DEFAULT, NULL }; *s; s++)
		cr_assert(strstr(out, *s), "--help lacks %s", *s);
	cr_assert_str_empty(err);
	free(out);
	free(err);
	cr_assert_eq(PARSE(&o, &out, &err, "--version"), VSCHEDD_ARGS_EXIT);
	cr_assert(!strncmp(out, "vschedd ", 8), "%s", out);
	free(out);
	free(err);
}

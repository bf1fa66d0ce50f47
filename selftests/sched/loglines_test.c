// SPDX-License-Identifier: Apache-2.0
/*
 * The log lines Volcano users grep for (seed 002's debugging guide), in
 * Volcano's words and at its verbosity: a cycle at -v 4 says which jobs
 * allocate skips and adds, which queues and jobs it tries, which tasks it
 * binds, what the nodes hold after, which statements it commits and
 * discards; at -v 2 it says none of it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"
#include "victimtest.h"

static char *text;
static size_t text_len;
static FILE *saved_file;
static int saved_verbosity;

static void setup(void)
{
	vt_setup();
	vt_queue("default", 1, true);
	saved_file = vs_log_file;
	saved_verbosity = vs_log_verbosity;
}

static void teardown(void)
{
	vs_log_file = saved_file;
	vs_log_verbosity = saved_verbosity;
	free(text);
	text = NULL;
	vt_teardown();
}

TestSuite(loglines, .init = setup, .fini = teardown);

static const char conf[] =
	"actions: enqueue, allocate, backfill\n"
	"tiers:\n"
	"- plugins:\n"
	"  - name: priority\n"
	"  - name: gang\n"
	"  - name: conformance\n"
	"- plugins:\n"
	"  - name: overcommit\n"
	"  - name: proportion\n"
	"  - name: predicates\n";

/* One cycle at verbosity @v, its log in text. */
static void logged_cycle(int v)
{
	FILE *f = open_memstream(&text, &text_len);

	cr_assert_not_null(f);
	vs_log_file = f;
	vs_log_verbosity = v;
	vt_cycle();
	vs_log_file = saved_file;
	vs_log_verbosity = saved_verbosity;
	cr_assert_eq(fclose(f), 0);
}

static void cluster(void)
{
	struct vs_job_spec spec;
	struct vs_job *j;

	vt_start(conf);
	vt_node("n1", 2000, 10);
	vt_job("fits", "default", 1, VS_PG_INQUEUE, NULL);
	vt_task("fits-0", "fits", 1000, NULL);
	/* Two of 800 where one fits once fits-0 is placed: placed, then discarded. */
	vt_job("gang", "default", 2, VS_PG_INQUEUE, NULL);
	vt_task("gang-0", "gang", 800, NULL);
	vt_task("gang-1", "gang", 800, NULL);
	/* Too big for enqueue to admit: allocate skips it, Pending. */
	vs_job_spec_init(&spec, "ns", "big");
	spec.queue = "default";
	spec.min_member = 1;
	spec.min_resources = vt_res(100000);
	spec.has_min_resources = true;
	spec.phase = VS_PG_PENDING;
	cr_assert_eq(vs_job_add(&vt_cl, &spec, &j, NULL), 0);
	vt_task("big-0", "big", 100000, NULL);
}

Test(loglines, a_cycle_says_what_volcano_says_at_v4)
{
	static const char *const lines[] = {
		"] Job <ns/big> Queue <default> skip allocate, reason: job status is pending.\n",
		"] Added Job <ns/fits> into Queue <default>\n",
		"] Added Job <ns/gang> into Queue <default>\n",
		"] Try to allocate resource to 1 Queues\n",
		"] Try to allocate resource queue=\"default\" job=\"ns/fits\" taskNum=1\n",
		"] There are <1> nodes for Job <ns/fits>\n",
		"] Binding Task <ns/fits-0> to node <n1>\n",
		"] After allocated Task <ns/fits-0> to Node <n1>: idle <cpu 1, memory 1000Mi",
		"] Committing operations ...\n",
		"] Binding Task <ns/gang-0> to node <n1>\n",
		"] Discarding operations ...\n",
	};

	cluster();
	logged_cycle(4);
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		cr_expect_not_null(strstr(text, lines[i]), "no \"%s\" in:\n%s", lines[i], text);
	/* klog's form: severity, date, time, pid, file:line. */
	cr_assert_eq(text[0], 'I');
	cr_assert_not_null(strstr(text, " allocate.c:"));
}

Test(loglines, v2_says_none_of_it)
{
	cluster();
	logged_cycle(2);
	cr_assert_null(strstr(text, "Binding Task"), "%s", text);
	cr_assert_null(strstr(text, "operations ..."), "%s", text);
}

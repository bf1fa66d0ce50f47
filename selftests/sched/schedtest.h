/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the scheduler tests share: a scheduler started on a configuration
 * text, with a session open on it, failing the test with the loader's
 * message when the text is refused.
 */
#ifndef VS_SELFTESTS_SCHEDTEST_H
#define VS_SELFTESTS_SCHEDTEST_H

#include <string.h>
#include <criterion/criterion.h>

#include "sched/session.h"

/* Flags not written in @text are on, as in a volcano-scheduler.conf. */
static inline void st_open(struct vs_sched *sched, struct vs_cluster *cl, const char *text,
			   struct vs_session **ssn)
{
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	vs_framework_names(&names);
	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(sched, cl, conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_session_open(sched, ssn, &e), 0, "%s", e.msg);
}

/* Only the plugin @name, with @args (a YAML flow mapping) as its arguments. */
static inline void st_open_plugin(struct vs_sched *sched, struct vs_cluster *cl, const char *name,
				  const char *args, struct vs_session **ssn)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "actions: allocate\ntiers:\n- plugins:\n  - name: %s\n    arguments: %s\n",
		 name, args);
	st_open(sched, cl, text, ssn);
}

#endif /* VS_SELFTESTS_SCHEDTEST_H */

// SPDX-License-Identifier: Apache-2.0
/*
 * libvsnl's log against the core's: vskube logs through the first, the
 * core it still links through the second, and users grep both as klog's
 * lines, so the two must write the same line for the same call.
 */
#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/log.h"
#include "lib/log.h"

/* What the log wrote to @f since it was opened, at most @cap - 1 bytes. */
static void read_back(FILE *f, char *buf, size_t cap)
{
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
}

/* The line with its time (the only part that may differ) cut out. */
static void without_time(char *line)
{
	/* "W1123 01:35:00.123456 ...": the time runs from offset 6 for 15 bytes */
	cr_assert_gt(strlen(line), 21u, "line too short: %s", line);
	memmove(line + 6, line + 21, strlen(line + 21) + 1);
}

Test(client_log, a_line_says_severity_date_time_pid_source_line_and_text)
{
	FILE *f = tmpfile();
	char buf[512];
	regex_t re;

	cr_assert(f);
	vsnl_log_file = f;
	vsnl_log_print('W', "userspace/vskube/kbind.c", 126, "Failed to bind pod <%s>", "ns/p");
	vsnl_log_file = NULL;
	read_back(f, buf, sizeof(buf));
	fclose(f);

	cr_assert_eq(regcomp(&re, "^W[0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6} +[0-9]+ "
			     "kbind\\.c:126\\] Failed to bind pod <ns/p>\n$", REG_EXTENDED), 0);
	cr_assert_eq(regexec(&re, buf, 0, NULL, 0), 0, "not klog's form: %s", buf);
	regfree(&re);
}

Test(client_log, a_verbose_line_prints_only_at_its_level_and_above)
{
	FILE *f = tmpfile();
	char buf[512];

	cr_assert(f);
	vsnl_log_file = f;
	vsnl_log_verbosity = 2;
	vsnl_v(3, "hidden at -v 2");
	vsnl_v(2, "shown at -v 2");
	vsnl_log_verbosity = 0;
	vsnl_v(1, "hidden at -v 0");
	vsnl_warn("warnings always print");
	vsnl_log_file = NULL;
	read_back(f, buf, sizeof(buf));
	fclose(f);

	cr_assert_null(strstr(buf, "hidden"), "%s", buf);
	cr_assert_not_null(strstr(buf, "] shown at -v 2\n"), "%s", buf);
	cr_assert_not_null(strstr(buf, "] warnings always print\n"), "%s", buf);
}

Test(client_log, the_client_writes_the_line_the_core_writes)
{
	FILE *fc = tmpfile(), *fu = tmpfile();
	char core[512], user[512];

	cr_assert(fc && fu);
	vs_log_file = fc;
	vsnl_log_file = fu;
	vs_log_print('E', "kernel/daemon/cycle.c", 7, "%s %d", "cycle", 42);
	vsnl_log_print('E', "kernel/daemon/cycle.c", 7, "%s %d", "cycle", 42);
	vs_log_file = NULL;
	vsnl_log_file = NULL;
	read_back(fc, core, sizeof(core));
	read_back(fu, user, sizeof(user));
	fclose(fc);
	fclose(fu);

	without_time(core);
	without_time(user);
	cr_assert_str_eq(user, core);
}

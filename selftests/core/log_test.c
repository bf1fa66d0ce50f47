// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for klog-format logging (core/log.h): the line format users grep,
 * and verbosity gating that skips even the arguments of lines that are off.
 */
#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/log.h"

static char buf[4096];
static FILE *mem;

static void setup(void)
{
	memset(buf, 0, sizeof(buf));
	mem = fmemopen(buf, sizeof(buf), "w");
	cr_assert_not_null(mem);
	vs_log_file = mem;
	vs_log_verbosity = 0;
}

static void teardown(void)
{
	vs_log_file = NULL;
	fclose(mem);
}

TestSuite(log, .init = setup, .fini = teardown);

static int evaluated;

static int side_effect(void)
{
	return ++evaluated;
}

Test(log, lines_read_as_klog_writes_them)
{
	regex_t re;

	vs_info("Try to allocate resource to %d tasks of Job <%s>", 3, "ns/pg");
	vs_warn("overused");
	fflush(mem);
	cr_assert_eq(regcomp(&re, "^I[0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6} +[0-9]+ "
			     "log_test\\.c:[0-9]+\\] Try to allocate resource to 3 tasks of Job "
			     "<ns/pg>\nW[0-9]{4} .* log_test\\.c:[0-9]+\\] overused\n$",
			     REG_EXTENDED), 0);
	cr_assert_eq(regexec(&re, buf, 0, NULL, 0), 0, "%s", buf);
	regfree(&re);
}

Test(log, verbose_lines_print_only_at_their_level)
{
	vs_v(2, "hidden %d", side_effect());
	fflush(mem);
	cr_assert_str_empty(buf);
	cr_assert_eq(evaluated, 0, "the arguments of a line that is off were evaluated");
	vs_log_verbosity = 2;
	vs_v(2, "shown %d", side_effect());
	fflush(mem);
	cr_assert(strstr(buf, "] shown 1\n"), "%s", buf);
}

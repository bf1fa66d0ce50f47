// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for struct vs_err: the first message wins, prefixes add context,
 * long messages are cut without overflowing, and a NULL carrier is accepted.
 */
#include <string.h>
#include <criterion/criterion.h>

#include "core/err.h"

Test(err, set_returns_negative_errno_and_keeps_first_message)
{
	struct vs_err err = { 0 };

	cr_assert_eq(vs_err_set(&err, EINVAL, "bad %s", "thing"), -EINVAL);
	cr_assert_str_eq(err.msg, "bad thing");
	cr_assert_eq(vs_err_set(&err, -ENOENT, "later"), -ENOENT);
	cr_assert_str_eq(err.msg, "bad thing");
	cr_assert(vs_err_is_set(&err));
	vs_err_clear(&err);
	cr_assert_not(vs_err_is_set(&err));
}

Test(err, prefix_adds_context_in_front)
{
	struct vs_err err = { 0 };

	vs_err_set(&err, EINVAL, "invalid quantity \"1x\"");
	vs_err_prefix(&err, "node %s: ", "n1");
	cr_assert_str_eq(err.msg, "node n1: invalid quantity \"1x\"");
}

Test(err, long_messages_are_truncated_not_overflowed)
{
	struct vs_err err = { 0 };
	char big[600];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	vs_err_set(&err, EINVAL, "%s", big);
	cr_assert_eq(strlen(err.msg), VS_ERR_MSG_MAX - 1);
	vs_err_prefix(&err, "%s", "ctx: ");
	cr_assert_eq(strlen(err.msg), VS_ERR_MSG_MAX - 1);
	cr_assert_eq(strncmp(err.msg, "ctx: x", 6), 0);
	vs_err_prefix(&err, "%s", big);
	cr_assert_eq(strlen(err.msg), VS_ERR_MSG_MAX - 1);
}

Test(err, null_carrier_is_accepted)
{
	cr_assert_eq(vs_err_set(NULL, EPERM, "nobody hears"), -EPERM);
	vs_err_prefix(NULL, "x");
	cr_assert_not(vs_err_is_set(NULL));
}

static __printf(3, 4) int at(struct vs_err *err, u32 line, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vs_err_vat(err, EINVAL, "file.conf", line, fmt, ap);
	va_end(ap);
	return ret;
}

Test(err, errors_in_files_name_the_file_and_line)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(at(&e, 7, "unknown key \"%s\"", "tiers2"), -EINVAL);
	cr_assert_str_eq(e.msg, "file.conf:7: unknown key \"tiers2\"");
	cr_assert_eq(at(&e, 9, "later"), -EINVAL);
	cr_assert_str_eq(e.msg, "file.conf:7: unknown key \"tiers2\"", "the first error stays");
	cr_assert_eq(at(NULL, 1, "dropped"), -EINVAL);
}

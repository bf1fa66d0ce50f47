/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The core's error carrier, after the kernel's netlink_ext_ack: functions
 * return a negative errno and, when the caller passed a struct vs_err, leave
 * a human message in it that says what was wrong and where. The message is
 * reported once, by whoever faces the user (the socket layer answers with it
 * as NLMSGERR_ATTR_MSG; tools print it).
 *
 * A NULL struct vs_err * is always accepted: the message is then dropped.
 */
#ifndef VS_CORE_ERR_H
#define VS_CORE_ERR_H

#include <stdarg.h>

#include <errno.h>
#include "core/compiler.h"

#define VS_ERR_MSG_MAX	256

struct vs_err {
	char msg[VS_ERR_MSG_MAX];
};

/*
 * Set the message (printf-style) unless one is already set: the innermost
 * failure knows best what went wrong, and outer layers add context with
 * vs_err_prefix(). Returns @errnum, negated if it was positive, so that
 * "return vs_err_set(err, EINVAL, ...)" reads naturally.
 */
__printf(3, 4)
int vs_err_set(struct vs_err *err, int errnum, const char *fmt, ...);

/*
 * vs_err_set() for an error in a file: "source:line: message", as
 * compilers and the configuration and scenario loaders report them.
 */
__printf(5, 0)
int vs_err_vat(struct vs_err *err, int errnum, const char *source, u32 line, const char *fmt,
	       va_list ap);

/* Prepend context ("node n1: ") to the message already there. */
__printf(2, 3)
void vs_err_prefix(struct vs_err *err, const char *fmt, ...);

static inline void vs_err_clear(struct vs_err *err)
{
	if (err)
		err->msg[0] = '\0';
}

static inline bool vs_err_is_set(const struct vs_err *err)
{
	return err && err->msg[0];
}

#endif /* VS_CORE_ERR_H */

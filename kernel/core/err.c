// SPDX-License-Identifier: Apache-2.0
/*
 * struct vs_err: formatting of error messages. See err.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"

int vs_err_set(struct vs_err *err, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (errnum > 0)
		errnum = -errnum;
	if (!err || err->msg[0])
		return errnum;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return errnum;
}

int vs_err_vat(struct vs_err *err, int errnum, const char *source, u32 line, const char *fmt,
	       va_list ap)
{
	char msg[VS_ERR_MSG_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	return vs_err_set(err, errnum, "%s:%u: %s", source, line, msg);
}

void vs_err_prefix(struct vs_err *err, const char *fmt, ...)
{
	char prefix[VS_ERR_MSG_MAX];
	size_t plen, mlen;
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);

	plen = strlen(prefix);
	mlen = strlen(err->msg);
	if (plen >= sizeof(err->msg))
		plen = sizeof(err->msg) - 1;
	if (plen + mlen >= sizeof(err->msg))
		mlen = sizeof(err->msg) - 1 - plen;
	memmove(err->msg + plen, err->msg, mlen);
	memcpy(err->msg, prefix, plen);
	err->msg[plen + mlen] = '\0';
}

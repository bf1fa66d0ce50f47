// SPDX-License-Identifier: Apache-2.0
/*
 * Kubernetes name validation: DNS subdomains and labels (RFC 1123) and the
 * qualified names used as label keys. See names.h.
 */
#include <string.h>

#include "core/names.h"

/* At most this much of a bad name is quoted back, so messages stay readable. */
#define QUOTE_MAX 64

static bool is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool is_alnum(char c)
{
	return is_lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

static int bad(struct vs_err *err, const char *what, const char *s, size_t len,
	       const char *why)
{
	int n = len > QUOTE_MAX ? QUOTE_MAX : (int)len;

	return vs_err_set(err, EINVAL, "invalid %s \"%.*s%s\": %s", what, n, s,
			  len > QUOTE_MAX ? "..." : "", why);
}

/*
 * One dot-separated part of a DNS subdomain, or a whole DNS label:
 * [a-z0-9]([-a-z0-9]*[a-z0-9])?. Kubernetes' subdomain check puts no length
 * limit on the parts, only on the whole name.
 */
static int check_dns_part(const char *part, size_t plen, const char *what,
			  const char *all, size_t all_len, struct vs_err *err)
{
	if (!plen)
		return bad(err, what, all, all_len, "empty label between dots");
	if (!is_lower_alnum(part[0]) || !is_lower_alnum(part[plen - 1]))
		return bad(err, what, all, all_len,
			   "must start and end with a lowercase letter or digit");
	for (size_t i = 0; i < plen; i++)
		if (!is_lower_alnum(part[i]) && part[i] != '-')
			return bad(err, what, all, all_len,
				   "only lowercase letters, digits, '-' and '.' are allowed");
	return 0;
}

int vs_check_dns_label(const char *s, size_t len, const char *what,
		       struct vs_err *err)
{
	if (!len)
		return vs_err_set(err, EINVAL, "%s is empty", what);
	if (memchr(s, '.', len))
		return bad(err, what, s, len, "'.' is not allowed");
	if (len > VS_DNS_LABEL_MAX)
		return bad(err, what, s, len, "longer than 63 characters");
	return check_dns_part(s, len, what, s, len, err);
}

int vs_check_dns_subdomain(const char *s, size_t len, const char *what,
			   struct vs_err *err)
{
	size_t start = 0;

	if (!len)
		return vs_err_set(err, EINVAL, "%s is empty", what);
	if (len > VS_DNS_SUBDOMAIN_MAX)
		return bad(err, what, s, len, "longer than 253 characters");
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != '.')
			continue;
		if (check_dns_part(s + start, i - start, what, s, len, err))
			return -EINVAL;
		start = i + 1;
	}
	return 0;
}

/* The name part of a qualified name: [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])? */
static int check_qualified_name(const char *s, size_t len, const char *what,
				const char *all, size_t all_len, struct vs_err *err)
{
	if (!len)
		return bad(err, what, all, all_len, "name part is empty");
	if (len > VS_LABEL_NAME_MAX)
		return bad(err, what, all, all_len, "name part is longer than 63 characters");
	if (!is_alnum(s[0]) || !is_alnum(s[len - 1]))
		return bad(err, what, all, all_len,
			   "must start and end with a letter or digit");
	for (size_t i = 0; i < len; i++)
		if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return bad(err, what, all, all_len,
				   "only letters, digits, '-', '_' and '.' are allowed");
	return 0;
}

int vs_check_label_key(const char *s, size_t len, const char *what,
		       struct vs_err *err)
{
	const char *slash;
	struct vs_err inner = { { 0 } };

	if (!len)
		return vs_err_set(err, EINVAL, "%s is empty", what);
	slash = memchr(s, '/', len);
	if (!slash)
		return check_qualified_name(s, len, what, s, len, err);
	if (memchr(slash + 1, '/', len - (size_t)(slash + 1 - s)))
		return bad(err, what, s, len, "more than one '/'");
	if (slash == s)
		return bad(err, what, s, len, "prefix before '/' is empty");
	if (vs_check_dns_subdomain(s, (size_t)(slash - s), "prefix", &inner))
		return bad(err, what, s, len,
			   "prefix must be a DNS subdomain (lowercase letters, digits, '-' and '.')");
	return check_qualified_name(slash + 1, len - (size_t)(slash + 1 - s), what,
				    s, len, err);
}

int vs_check_label_value(const char *s, size_t len, const char *what,
			 struct vs_err *err)
{
	if (!len)
		return 0;
	return check_qualified_name(s, len, what, s, len, err);
}

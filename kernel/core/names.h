/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Validation of the names Kubernetes gives objects and labels, so that the
 * core refuses what the API server would refuse, with the same reasons.
 *
 *   object names (nodes, pods, podgroups, queues, priority classes):
 *	a DNS subdomain (RFC 1123): at most 253 characters of lowercase
 *	letters, digits, '-' and '.', starting and ending alphanumeric
 *   namespaces: a DNS label: at most 63 characters, no '.'
 *   label and taint keys: an optional DNS-subdomain prefix and '/', then a
 *	name of at most 63 characters of letters, digits, '-', '_' and '.',
 *	starting and ending alphanumeric
 *   label values: empty, or a name as above
 *
 * Each function takes the text with its length (it need not be terminated),
 * returns 0 or -EINVAL, and puts the reason in @err naming @what ("node
 * name", "label key") and quoting the text.
 */
#ifndef VS_CORE_NAMES_H
#define VS_CORE_NAMES_H

#include <stddef.h>
#include "core/err.h"

#define VS_DNS_SUBDOMAIN_MAX	253
#define VS_DNS_LABEL_MAX	63
#define VS_LABEL_NAME_MAX	63

int vs_check_dns_subdomain(const char *s, size_t len, const char *what,
			   struct vs_err *err);
int vs_check_dns_label(const char *s, size_t len, const char *what,
		       struct vs_err *err);
int vs_check_label_key(const char *s, size_t len, const char *what,
		       struct vs_err *err);
int vs_check_label_value(const char *s, size_t len, const char *what,
			 struct vs_err *err);

#endif /* VS_CORE_NAMES_H */

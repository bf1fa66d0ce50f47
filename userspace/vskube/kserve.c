// SPDX-License-Identifier: Apache-2.0
/*
 * vskube's /metrics, /healthz and /readyz: see kserve.h.
 *
 * The registry owns copies of its families' names, labels and bounds and
 * one array of numbers per family, so that an update is a store at an
 * index. A histogram keeps each series' counts per bucket (not
 * cumulative: an observation touches one), the +Inf bucket last, and
 * its sum; the cumulative counts Prometheus reads are summed at render.
 *
 * The server is libmicrohttpd in epoll mode with no thread of its own:
 * it runs only inside kserve_run(), on the caller's thread, so a probe's
 * callback and a scrape's render see the caller's state as it is between
 * two of its steps. Every request is answered on the first call of the
 * access handler, before any body is read: nothing a client sends is
 * kept beyond the connection's memory pool.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <microhttpd.h>

#include "core/list.h"
#include "vskube/kserve.h"

/* What messages call the address when the caller names no flag. */
#define KSERVE_FLAG	"listen address"
#define KSERVE_ADDR_WANT "want HOST:PORT, :PORT or [IPv6]:PORT"

struct kserve_metric {
	struct list_head node;
	enum kserve_kind kind;
	char *name;
	char *help;
	u32 nr_labels;
	u32 nr_series;			/* 1 without labels */
	u32 nr_buckets;			/* finite bounds; the +Inf bucket follows them */
	char *labels[KSERVE_LABELS_MAX];
	char **values;			/* nr_series x nr_labels */
	double *bounds;
	double *value;			/* per series: the value; a histogram's sum */
	u64 *counts;			/* per series, nr_buckets + 1: a histogram's buckets */
};

struct kserve_reg {
	struct list_head metrics;
};

struct kserve {
	struct MHD_Daemon *daemon;
	const struct kserve_reg *reg;
	const struct kserve_ops *ops;
	void *ctx;
	int fd;				/* MHD's epoll set */
	u16 port;
	bool started;			/* MHD's messages go to ops->log, not into @msg */
	size_t hint;			/* the last exposition's length */
	char msg[VS_ERR_MSG_MAX];	/* MHD's last message while starting */
};

/* ------------------------------------------------------------------------- */
/* The registry. */

struct kserve_reg *kserve_reg_new(void)
{
	struct kserve_reg *reg = calloc(1, sizeof(*reg));

	if (reg)
		INIT_LIST_HEAD(&reg->metrics);
	return reg;
}

static void metric_free(struct kserve_metric *m)
{
	if (!m)
		return;
	if (m->values)
		for (u32 i = 0; i < m->nr_series * m->nr_labels; i++)
			free(m->values[i]);
	for (u32 i = 0; i < KSERVE_LABELS_MAX; i++)
		free(m->labels[i]);
	free(m->values);
	free(m->bounds);
	free(m->value);
	free(m->counts);
	free(m->help);
	free(m->name);
	free(m);
}

void kserve_reg_free(struct kserve_reg *reg)
{
	struct kserve_metric *m, *n;

	if (!reg)
		return;
	list_for_each_entry_safe(m, n, &reg->metrics, node) {
		list_del(&m->node);
		metric_free(m);
	}
	free(reg);
}

static bool name_char(char c, bool first, bool colon)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (colon && c == ':') || (!first && c >= '0' && c <= '9');
}

/* A metric name may hold ':' (recording rules' names); a label name may not. */
static bool valid_name(const char *s, bool colon)
{
	if (!s || !*s)
		return false;
	for (const char *p = s; *p; p++)
		if (!name_char(*p, p == s, colon))
			return false;
	return true;
}

static const char *const hist_suffixes[] = { "_bucket", "_sum", "_count" };

/* Whether @m's lines use the name @name (a histogram's lines carry suffixes). */
static bool metric_uses(const struct kserve_metric *m, const char *name)
{
	size_t len = strlen(m->name);

	if (!strcmp(m->name, name))
		return true;
	if (m->kind != KSERVE_HISTOGRAM || strncmp(m->name, name, len))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(hist_suffixes); i++)
		if (!strcmp(name + len, hist_suffixes[i]))
			return true;
	return false;
}

/* Two families whose lines share a name would read as one to Prometheus. */
static const struct kserve_metric *name_taken(const struct kserve_reg *reg,
					      const struct kserve_desc *d)
{
	const struct kserve_metric *m;
	char name[256 + 8];

	list_for_each_entry(m, &reg->metrics, node) {
		if (metric_uses(m, d->name))
			return m;
		if (d->kind != KSERVE_HISTOGRAM)
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(hist_suffixes); i++) {
			snprintf(name, sizeof(name), "%s%s", d->name, hist_suffixes[i]);
			if (metric_uses(m, name))
				return m;
		}
	}
	return NULL;
}

static int check_labels(const struct kserve_desc *d, u32 *nr, struct vs_err *err)
{
	u32 n = 0;

	while (n < KSERVE_LABELS_MAX && d->labels[n])
		n++;
	for (u32 i = 0; i < n; i++) {
		const char *l = d->labels[i];

		if (!valid_name(l, false))
			return vs_err_set(err, EINVAL, "label \"%s\": not a label name", l);
		if (!strncmp(l, "__", 2))
			return vs_err_set(err, EINVAL,
					  "label %s: names that begin with __ are Prometheus'", l);
		if (d->kind == KSERVE_HISTOGRAM && !strcmp(l, "le"))
			return vs_err_set(err, EINVAL, "label le: a histogram's buckets use it");
		for (u32 j = 0; j < i; j++)
			if (!strcmp(l, d->labels[j]))
				return vs_err_set(err, EINVAL, "label %s: given twice", l);
	}
	if (!n && (d->nr_series || d->values))
		return vs_err_set(err, EINVAL, "series given without labels");
	if (n && (!d->nr_series || !d->values))
		return vs_err_set(err, EINVAL, "labels without series");
	if (d->nr_series > KSERVE_SERIES_MAX)
		return vs_err_set(err, EINVAL, "%u series: at most %u", d->nr_series,
				  KSERVE_SERIES_MAX);
	for (u32 s = 0; s < d->nr_series; s++) {
		const char *const *row = d->values + (size_t)s * n;

		for (u32 i = 0; i < n; i++)
			if (!row[i])
				return vs_err_set(err, EINVAL, "series %u: no value for %s", s,
						  d->labels[i]);
		for (u32 t = 0; t < s; t++) {
			const char *const *other = d->values + (size_t)t * n;
			u32 i = 0;

			while (i < n && !strcmp(row[i], other[i]))
				i++;
			if (i == n)
				return vs_err_set(err, EINVAL,
						  "series %u: the same labels as series %u", s, t);
		}
	}
	*nr = n;
	return 0;
}

/* Increasing finite bounds; a last +Inf is dropped, as the +Inf bucket is always there. */
static int check_buckets(const struct kserve_desc *d, u32 *nr, struct vs_err *err)
{
	u32 n = d->nr_buckets;

	if (d->kind != KSERVE_HISTOGRAM) {
		if (n || d->buckets)
			return vs_err_set(err, EINVAL, "buckets given to a counter or a gauge");
		*nr = 0;
		return 0;
	}
	if (n && !d->buckets)
		return vs_err_set(err, EINVAL, "%u buckets but no bounds", n);
	if (n && isinf(d->buckets[n - 1]) && d->buckets[n - 1] > 0)
		n--;
	if (n > KSERVE_BUCKETS_MAX)
		return vs_err_set(err, EINVAL, "%u buckets: at most %u", n, KSERVE_BUCKETS_MAX);
	for (u32 i = 0; i < n; i++) {
		if (isnan(d->buckets[i]) || isinf(d->buckets[i]))
			return vs_err_set(err, EINVAL, "bucket %u: not a finite number", i);
		if (i && !(d->buckets[i] > d->buckets[i - 1]))
			return vs_err_set(err, EINVAL, "bucket %u: %g is not above %g", i,
					  d->buckets[i], d->buckets[i - 1]);
	}
	*nr = n;
	return 0;
}

static int check_desc(const struct kserve_reg *reg, const struct kserve_desc *d, u32 *nr_labels,
		      u32 *nr_buckets, struct vs_err *err)
{
	const struct kserve_metric *other;

	if (!valid_name(d->name, true))
		return vs_err_set(err, EINVAL, "metric \"%s\": not a metric name",
				  d->name ? d->name : "");
	if (strlen(d->name) > 255)
		return vs_err_set(err, EINVAL, "metric %.32s...: longer than 255 bytes", d->name);
	if (d->kind != KSERVE_COUNTER && d->kind != KSERVE_GAUGE && d->kind != KSERVE_HISTOGRAM)
		return vs_err_set(err, EINVAL,
				  "metric %s: kind %d is none of counter, gauge, histogram",
				  d->name, (int)d->kind);
	other = name_taken(reg, d);
	if (other)
		return vs_err_set(err, EEXIST, "metric %s: its name is taken by %s", d->name,
				  other->name);
	if (check_labels(d, nr_labels, err) || check_buckets(d, nr_buckets, err)) {
		vs_err_prefix(err, "metric %s: ", d->name);
		return -EINVAL;
	}
	return 0;
}

struct kserve_metric *kserve_register(struct kserve_reg *reg, const struct kserve_desc *d,
				      struct vs_err *err)
{
	struct kserve_metric *m;
	u32 nr_labels = 0, nr_buckets = 0, nr_series;

	if (check_desc(reg, d, &nr_labels, &nr_buckets, err))
		return NULL;
	nr_series = nr_labels ? d->nr_series : 1;
	m = calloc(1, sizeof(*m));
	if (!m)
		goto out_nomem;
	m->kind = d->kind;
	m->nr_labels = nr_labels;
	m->nr_series = nr_series;
	m->nr_buckets = nr_buckets;
	m->name = strdup(d->name);
	m->help = d->help ? strdup(d->help) : NULL;
	m->value = calloc(nr_series, sizeof(*m->value));
	if (!m->name || (d->help && !m->help) || !m->value)
		goto out_nomem;
	for (u32 i = 0; i < nr_labels; i++)
		if (!(m->labels[i] = strdup(d->labels[i])))
			goto out_nomem;
	if (nr_labels) {
		m->values = calloc((size_t)nr_series * nr_labels, sizeof(*m->values));
		if (!m->values)
			goto out_nomem;
		for (u32 i = 0; i < nr_series * nr_labels; i++)
			if (!(m->values[i] = strdup(d->values[i])))
				goto out_nomem;
	}
	if (d->kind == KSERVE_HISTOGRAM) {
		m->bounds = calloc(nr_buckets ? nr_buckets : 1, sizeof(*m->bounds));
		m->counts = calloc((size_t)nr_series * (nr_buckets + 1), sizeof(*m->counts));
		if (!m->bounds || !m->counts)
			goto out_nomem;
		if (nr_buckets)
			memcpy(m->bounds, d->buckets, nr_buckets * sizeof(*m->bounds));
	}
	list_add_tail(&m->node, &reg->metrics);
	return m;

out_nomem:
	metric_free(m);
	vs_err_set(err, ENOMEM, "metric %s: out of memory", d->name);
	return NULL;
}

void kserve_add(struct kserve_metric *m, u32 series, double v)
{
	if (!m || series >= m->nr_series || m->kind == KSERVE_HISTOGRAM)
		return;
	/* A counter only goes up (or starts again with the process). */
	if (m->kind == KSERVE_COUNTER && !(v >= 0))
		return;
	m->value[series] += v;
}

void kserve_set(struct kserve_metric *m, u32 series, double v)
{
	if (m && series < m->nr_series && m->kind == KSERVE_GAUGE)
		m->value[series] = v;
}

void kserve_observe(struct kserve_metric *m, u32 series, double v)
{
	u32 lo = 0, hi;

	if (!m || series >= m->nr_series || m->kind != KSERVE_HISTOGRAM)
		return;
	/* The first bound at or above @v (le: less or equal); NaN falls in +Inf. */
	hi = m->nr_buckets;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (v <= m->bounds[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	if (isnan(v))
		lo = m->nr_buckets;
	m->counts[(size_t)series * (m->nr_buckets + 1) + lo]++;
	m->value[series] += v;
}

double kserve_value(const struct kserve_metric *m, u32 series)
{
	return m && series < m->nr_series ? m->value[series] : 0;
}

/* ------------------------------------------------------------------------- */
/* The text exposition format. */

struct kserve_buf {
	char *p;
	size_t len, cap;
	bool nomem;			/* one check at the end instead of one per write */
};

static void buf_put(struct kserve_buf *b, const char *s, size_t n)
{
	if (b->nomem)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->nomem = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void buf_puts(struct kserve_buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

/*
 * @s escaped as the format wants: backslash and newline in HELP text,
 * and the double quote too in a label value.
 */
static void buf_put_escaped(struct kserve_buf *b, const char *s, bool quote)
{
	const char *run = s;

	for (; *s; s++) {
		const char *esc = NULL;

		if (*s == '\\')
			esc = "\\\\";
		else if (*s == '\n')
			esc = "\\n";
		else if (*s == '"' && quote)
			esc = "\\\"";
		if (!esc)
			continue;
		buf_put(b, run, (size_t)(s - run));
		buf_puts(b, esc);
		run = s + 1;
	}
	buf_put(b, run, (size_t)(s - run));
}

/*
 * A float as Prometheus' Go clients write one (strconv 'g', shortest):
 * the fewest digits that read back as the same double, in exponent form
 * below 1e-4 and from 1e+06 on; NaN, +Inf and -Inf by name.
 */
static void format_float(char *out, size_t len, double v)
{
	char e[40];
	int digits, exp;

	if (isnan(v)) {
		snprintf(out, len, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(out, len, v > 0 ? "+Inf" : "-Inf");
		return;
	}
	for (digits = 1; digits < 17; digits++) {
		snprintf(e, sizeof(e), "%.*e", digits - 1, v);
		if (strtod(e, NULL) == v)
			break;
	}
	snprintf(e, sizeof(e), "%.*e", digits - 1, v);
	exp = atoi(strchr(e, 'e') + 1);
	if (exp < -4 || exp >= 6)
		snprintf(out, len, "%s", e);
	else
		snprintf(out, len, "%.*f", digits - 1 - exp > 0 ? digits - 1 - exp : 0, v);
}

/* NAME[SUFFIX][{l="v",...[,le="LE"]}] VALUE */
static void put_sample(struct kserve_buf *b, const struct kserve_metric *m, const char *suffix,
		       u32 series, const char *le, const char *value)
{
	const char *sep = "{";

	buf_puts(b, m->name);
	buf_puts(b, suffix);
	for (u32 i = 0; i < m->nr_labels; i++) {
		buf_puts(b, sep);
		buf_puts(b, m->labels[i]);
		buf_puts(b, "=\"");
		buf_put_escaped(b, m->values[(size_t)series * m->nr_labels + i], true);
		buf_puts(b, "\"");
		sep = ",";
	}
	if (le) {
		buf_puts(b, sep);
		buf_puts(b, "le=\"");
		buf_puts(b, le);
		buf_puts(b, "\"");
		sep = ",";
	}
	if (sep[0] == ',')
		buf_puts(b, "}");
	buf_puts(b, " ");
	buf_puts(b, value);
	buf_puts(b, "\n");
}

static void put_histogram(struct kserve_buf *b, const struct kserve_metric *m, u32 s)
{
	const u64 *counts = m->counts + (size_t)s * (m->nr_buckets + 1);
	char le[40], num[40];
	u64 cum = 0;

	for (u32 i = 0; i <= m->nr_buckets; i++) {
		cum += counts[i];
		if (i < m->nr_buckets)
			format_float(le, sizeof(le), m->bounds[i]);
		else
			snprintf(le, sizeof(le), "+Inf");
		snprintf(num, sizeof(num), "%" PRIu64, cum);
		put_sample(b, m, "_bucket", s, le, num);
	}
	format_float(num, sizeof(num), m->value[s]);
	put_sample(b, m, "_sum", s, NULL, num);
	snprintf(num, sizeof(num), "%" PRIu64, cum);
	put_sample(b, m, "_count", s, NULL, num);
}

static const char *const kind_names[] = {
	[KSERVE_COUNTER] = "counter",
	[KSERVE_GAUGE] = "gauge",
	[KSERVE_HISTOGRAM] = "histogram",
};

static void put_metric(struct kserve_buf *b, const struct kserve_metric *m)
{
	char num[40];

	if (m->help) {
		buf_puts(b, "# HELP ");
		buf_puts(b, m->name);
		buf_puts(b, " ");
		buf_put_escaped(b, m->help, false);
		buf_puts(b, "\n");
	}
	buf_puts(b, "# TYPE ");
	buf_puts(b, m->name);
	buf_puts(b, " ");
	buf_puts(b, kind_names[m->kind]);
	buf_puts(b, "\n");
	for (u32 s = 0; s < m->nr_series; s++) {
		if (m->kind == KSERVE_HISTOGRAM) {
			put_histogram(b, m, s);
			continue;
		}
		format_float(num, sizeof(num), m->value[s]);
		put_sample(b, m, "", s, NULL, num);
	}
}

char *kserve_render(const struct kserve_reg *reg, size_t hint, size_t *len)
{
	struct kserve_buf b = { 0 };
	const struct kserve_metric *m;

	b.p = malloc(hint + 1);
	if (!b.p)
		return NULL;
	b.cap = hint + 1;
	b.p[0] = '\0';
	if (reg)
		list_for_each_entry(m, &reg->metrics, node)
			put_metric(&b, m);
	if (b.nomem) {
		free(b.p);
		return NULL;
	}
	*len = b.len;
	return b.p;
}

/* ------------------------------------------------------------------------- */
/* The listen address. */

static int addr_fail(struct vs_err *err, const char *flag, const char *text, const char *fmt,
		     ...) __printf(4, 5);

static int addr_fail(struct vs_err *err, const char *flag, const char *text, const char *fmt,
		     ...)
{
	char why[VS_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return vs_err_set(err, EINVAL, "%s \"%.64s\": %s", flag ? flag : KSERVE_FLAG, text, why);
}

/* As Go's net.SplitHostPort, then a port that is a number: no service names. */
int kserve_parse_addr(const char *flag, const char *text, struct kserve_addr *out,
		      struct vs_err *err)
{
	const char *host, *port, *colon;
	size_t host_len;
	unsigned long n;

	memset(out, 0, sizeof(*out));
	if (!text || !*text)
		return addr_fail(err, flag, "", "empty (" KSERVE_ADDR_WANT ")");
	if (text[0] == '[') {
		const char *close = strchr(text, ']');

		if (!close)
			return addr_fail(err, flag, text, "missing ']' after the IPv6 address");
		if (!close[1])
			return addr_fail(err, flag, text, "missing port (" KSERVE_ADDR_WANT ")");
		if (close[1] != ':')
			return addr_fail(err, flag, text, "'%c' after ']': a ':' and the port "
					 "must follow", close[1]);
		host = text + 1;
		host_len = (size_t)(close - host);
		port = close + 2;
		if (!host_len)
			return addr_fail(err, flag, text, "no address between '[' and ']'");
	} else {
		colon = strrchr(text, ':');
		if (!colon)
			return addr_fail(err, flag, text, "missing port (" KSERVE_ADDR_WANT ")");
		host = text;
		host_len = (size_t)(colon - text);
		port = colon + 1;
		if (memchr(host, ':', host_len))
			return addr_fail(err, flag, text, "too many colons: an IPv6 address "
					 "goes in brackets, as [::1]:8080");
	}
	if (memchr(host, '[', host_len) || memchr(host, ']', host_len) || strchr(port, '[') ||
	    strchr(port, ']'))
		return addr_fail(err, flag, text, "a '[' or ']' out of place");
	if (host_len >= sizeof(out->host))
		return addr_fail(err, flag, text, "the host is longer than %zu bytes",
				 sizeof(out->host) - 1);
	if (!*port)
		return addr_fail(err, flag, text, "missing port (" KSERVE_ADDR_WANT ")");
	/* Digits only: strtoul() would take a sign, spaces and 0x. */
	if (strspn(port, "0123456789") != strlen(port) || strlen(port) > 5)
		return addr_fail(err, flag, text, "port \"%.16s\" is not a number from 0 to 65535",
				 port);
	n = strtoul(port, NULL, 10);
	if (n > 65535)
		return addr_fail(err, flag, text, "port %lu is not a number from 0 to 65535", n);
	memcpy(out->host, host, host_len);
	out->host[host_len] = '\0';
	out->port = (u16)n;
	return 0;
}

union kserve_sockaddr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
};

/*
 * Where to bind: every address is IPv6's any with IPv4 mapped (as Go
 * listens on ":8080"), or IPv4's any where the kernel has no IPv6; a
 * host is resolved, its first IPv4 address preferred, as Go does.
 */
static int resolve(const struct kserve_addr *a, const char *flag, const char *text,
		   union kserve_sockaddr *out, bool *dual, struct vs_err *err)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
	struct addrinfo *res, *pick = NULL;
	int fd, rc;

	memset(out, 0, sizeof(*out));
	*dual = false;
	if (!a->host[0]) {
		fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0) {
			close(fd);
			out->in6.sin6_family = AF_INET6;
			out->in6.sin6_addr = in6addr_any;
			out->in6.sin6_port = htons(a->port);
			*dual = true;
		} else {
			out->in.sin_family = AF_INET;
			out->in.sin_addr.s_addr = htonl(INADDR_ANY);
			out->in.sin_port = htons(a->port);
		}
		return 0;
	}
	/* A host with a ':' can only be an IPv6 address: no name to look up. */
	if (strchr(a->host, ':'))
		hints.ai_flags |= AI_NUMERICHOST;
	rc = getaddrinfo(a->host, NULL, &hints, &res);
	if (rc)
		return vs_err_set(err, EINVAL, "%s \"%.64s\": %s: %s", flag, text, a->host,
				  gai_strerror(rc));
	for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		if (ai->ai_family == AF_INET) {
			pick = ai;
			break;
		}
		if (ai->ai_family == AF_INET6 && !pick)
			pick = ai;
	}
	/* An IPv4 or IPv6 address: either fits. */
	if (pick)
		memcpy(out, pick->ai_addr, min_t(size_t, pick->ai_addrlen, sizeof(*out)));
	freeaddrinfo(res);
	if (!pick)
		return vs_err_set(err, EINVAL, "%s \"%.64s\": %s has no IP address", flag,
				  text, a->host);
	if (out->sa.sa_family == AF_INET) {
		out->in.sin_port = htons(a->port);
	} else {
		out->in6.sin6_port = htons(a->port);
		*dual = IN6_IS_ADDR_UNSPECIFIED(&out->in6.sin6_addr);
	}
	return 0;
}

/* ------------------------------------------------------------------------- */
/* The server. */

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status, const char *text,
			     size_t len, enum MHD_ResponseMemoryMode mode, const char *type)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, (void *)text, mode);
	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free((void *)text);
		return MHD_NO;
	}
	if (MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type) != MHD_YES ||
	    (status == MHD_HTTP_METHOD_NOT_ALLOWED &&
	     MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD") != MHD_YES)) {
		MHD_destroy_response(r);
		return MHD_NO;
	}
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_text(struct MHD_Connection *conn, unsigned int status,
				  const char *text)
{
	return reply(conn, status, text, strlen(text), MHD_RESPMEM_PERSISTENT,
		     "text/plain; charset=utf-8");
}

static enum MHD_Result serve_metrics(struct kserve *ks, struct MHD_Connection *conn)
{
	size_t len = 0;
	char *text = kserve_render(ks->reg, ks->hint, &len);

	if (!text)
		return reply_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
	ks->hint = len;
	return reply(conn, MHD_HTTP_OK, text, len, MHD_RESPMEM_MUST_FREE, KSERVE_CONTENT_TYPE);
}

/* "ok", as Kubernetes' components answer; else the check's reason with a 500. */
static enum MHD_Result serve_check(struct MHD_Connection *conn,
				  int (*check)(void *ctx, struct vs_err *why), void *ctx,
				  const char *fallback)
{
	struct vs_err why = { { 0 } };

	if (!check || !check(ctx, &why))
		return reply_text(conn, MHD_HTTP_OK, "ok");
	if (!why.msg[0])
		snprintf(why.msg, sizeof(why.msg), "%s", fallback);
	return reply(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, why.msg, strlen(why.msg),
		     MHD_RESPMEM_MUST_COPY, "text/plain; charset=utf-8");
}

static enum MHD_Result serve_healthz(struct kserve *ks, struct MHD_Connection *conn)
{
	return serve_check(conn, ks->ops ? ks->ops->healthz : NULL, ks->ctx, "not healthy");
}

static enum MHD_Result serve_readyz(struct kserve *ks, struct MHD_Connection *conn)
{
	return serve_check(conn, ks->ops ? ks->ops->readyz : NULL, ks->ctx, "not ready");
}

static const struct kserve_route {
	const char *path;
	enum MHD_Result (*serve)(struct kserve *ks, struct MHD_Connection *conn);
} routes[] = {
	{ .path = "/metrics", .serve = serve_metrics },
	{ .path = "/healthz", .serve = serve_healthz },
	{ .path = "/readyz", .serve = serve_readyz },
};

/*
 * Answered on the first call, whatever the request carries: a body is
 * never read (libmicrohttpd closes the connection after answering one
 * it did not read), and a query string is not part of @url.
 */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **state)
{
	struct kserve *ks = cls;

	for (size_t i = 0; i < ARRAY_SIZE(routes); i++) {
		if (strcmp(url, routes[i].path))
			continue;
		if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
			return reply_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
					  "405 method not allowed\n");
		return routes[i].serve(ks, conn);
	}
	return reply_text(conn, MHD_HTTP_NOT_FOUND, "404 page not found\n");
}

static void on_log(void *cls, const char *fmt, va_list ap) __printf(2, 0);

/* While starting, the last message is the reason kserve_new() gives; then the owner's. */
static void on_log(void *cls, const char *fmt, va_list ap)
{
	struct kserve *ks = cls;
	size_t len;

	vsnprintf(ks->msg, sizeof(ks->msg), fmt, ap);
	len = strlen(ks->msg);
	while (len && (ks->msg[len - 1] == '\n' || ks->msg[len - 1] == '.'))
		ks->msg[--len] = '\0';
	if (ks->started && ks->ops && ks->ops->log)
		ks->ops->log(ks->ctx, ks->msg);
}

struct kserve *kserve_new(const char *flag, const char *addr, const struct kserve_reg *reg,
			  const struct kserve_ops *ops, void *ctx, struct vs_err *err)
{
	unsigned int flags = MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
	const union MHD_DaemonInfo *info;
	union kserve_sockaddr sa;
	struct kserve_addr a;
	struct kserve *ks;
	bool dual;

	if (!flag)
		flag = KSERVE_FLAG;
	if (kserve_parse_addr(flag, addr, &a, err) || resolve(&a, flag, addr, &sa, &dual, err))
		return NULL;
	ks = calloc(1, sizeof(*ks));
	if (!ks) {
		vs_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	ks->reg = reg;
	ks->ops = ops;
	ks->ctx = ctx;
	if (sa.sa.sa_family == AF_INET6)
		flags |= dual ? MHD_USE_DUAL_STACK : MHD_USE_IPv6;
	/* The logger first, so that a failure to bind is told to it. */
	ks->daemon = MHD_start_daemon(flags, a.port, NULL, NULL, on_request, ks,
				      MHD_OPTION_EXTERNAL_LOGGER, on_log, ks,
				      MHD_OPTION_SOCK_ADDR, &sa.sa,
				      MHD_OPTION_CONNECTION_LIMIT, (unsigned int)KSERVE_CONN_MAX,
				      MHD_OPTION_CONNECTION_MEMORY_LIMIT,
				      (size_t)KSERVE_CONN_MEMORY,
				      MHD_OPTION_CONNECTION_TIMEOUT,
				      (unsigned int)KSERVE_CONN_TIMEOUT_S,
				      MHD_OPTION_END);
	if (!ks->daemon) {
		vs_err_set(err, EADDRNOTAVAIL, "%s \"%.64s\": %s", flag, addr,
			   ks->msg[0] ? ks->msg : "cannot listen");
		free(ks);
		return NULL;
	}
	info = MHD_get_daemon_info(ks->daemon, MHD_DAEMON_INFO_BIND_PORT);
	ks->port = info && info->port ? info->port : a.port;
	info = MHD_get_daemon_info(ks->daemon, MHD_DAEMON_INFO_EPOLL_FD);
	ks->fd = info ? info->epoll_fd : -1;
	ks->started = true;
	return ks;
}

void kserve_free(struct kserve *ks)
{
	if (!ks)
		return;
	MHD_stop_daemon(ks->daemon);
	free(ks);
}

int kserve_fd(const struct kserve *ks)
{
	return ks->fd;
}

int kserve_timeout_ms(struct kserve *ks)
{
	MHD_UNSIGNED_LONG_LONG ms;

	if (MHD_get_timeout(ks->daemon, &ms) != MHD_YES)
		return -1;
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

int kserve_run(struct kserve *ks, struct vs_err *err)
{
	if (MHD_run(ks->daemon) != MHD_YES)
		return vs_err_set(err, EIO, "libmicrohttpd: the server cannot be run");
	return 0;
}

u16 kserve_port(const struct kserve *ks)
{
	return ks->port;
}

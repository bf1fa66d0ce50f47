// SPDX-License-Identifier: Apache-2.0
/*
 * Small pieces of the Kubernetes wire format that the rest of kapiserver
 * shares: timestamps, uids and generated names, RFC 7386 merge patches, the
 * base64url of continue tokens, object names and dotted field paths.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "kapi.h"

uint64_t kapi_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void format_time(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void kapi_timestamp(char *buf, size_t len)
{
	format_time(time(NULL), buf, len);
}

/*
 * With --creation-step S, each creation is stamped at least S seconds
 * after the one before: objects made one after another in a second get
 * distinct creation times, in the order they were made, whatever a
 * client's timing (a test's bridge that lists them, or watches).
 */
void kapi_creation_timestamp(struct kapi_server *srv, char *buf, size_t len)
{
	time_t t = time(NULL);

	if (srv->opts.creation_step && srv->last_created &&
	    t < srv->last_created + (time_t)srv->opts.creation_step)
		t = srv->last_created + (time_t)srv->opts.creation_step;
	srv->last_created = t;
	format_time(t, buf, len);
}

static void random_bytes(unsigned char *b, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = getrandom(b + got, n - got, 0);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			/* Uniqueness, not secrecy: the clock will do. */
			for (; got < n; got++)
				b[got] = (unsigned char)(kapi_now_ms() * 2654435761u >> (got % 24));
			return;
		}
		got += (size_t)r;
	}
}

void kapi_uid(char *buf, size_t len)
{
	unsigned char b[16];

	random_bytes(b, sizeof(b));
	b[6] = (b[6] & 0x0f) | 0x40;	/* version 4 */
	b[8] = (b[8] & 0x3f) | 0x80;	/* RFC 4122 variant */
	snprintf(buf, len,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
		 b[12], b[13], b[14], b[15]);
}

/* The apiserver's alphabet for generateName: no vowels, no look-alikes. */
void kapi_random_suffix(char *buf, size_t n)
{
	static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
	unsigned char b[16];

	if (n > sizeof(b))
		n = sizeof(b);
	random_bytes(b, n);
	for (size_t i = 0; i < n; i++)
		buf[i] = alphabet[b[i] % (sizeof(alphabet) - 1)];
	buf[n] = '\0';
}

/*
 * A strategic merge patch is a merge patch whose lists of objects can be
 * merged by key instead of replaced. kapiserver has no schemas to say which
 * lists and which keys, so it guesses as Kubernetes declares them most
 * often: "conditions" by "type"; any other list whose elements, in the
 * object and in the patch, all have a string "name" (containers, volumes,
 * env, ...) by "name". Elements with "$patch": "delete" are removed, other
 * "$" directives ($setElementOrder/..., $retainKeys, ...) are ignored. A
 * plain merge patch replaces every list.
 */
static bool keyed_list(json_t *list, const char *mk)
{
	size_t i;
	json_t *e;

	json_array_foreach(list, i, e)
		if (!json_is_string(json_object_get(e, mk)))
			return false;
	return true;
}

static const char *merge_key(const char *field, json_t *cur, json_t *patch)
{
	if (!json_is_array(cur) || !json_is_array(patch) || !json_array_size(patch))
		return NULL;
	if (!strcmp(field, "conditions") && keyed_list(cur, "type") && keyed_list(patch, "type"))
		return "type";
	if (keyed_list(cur, "name") && keyed_list(patch, "name"))
		return "name";
	return NULL;
}

static void merge_into(json_t *dst, json_t *patch, bool strategic);

static void merge_list(json_t *list, json_t *patch, const char *mk)
{
	size_t i, j;
	json_t *p, *e;

	json_array_foreach(patch, i, p) {
		const char *key = json_string_value(json_object_get(p, mk));
		const char *directive = json_string_value(json_object_get(p, "$patch"));
		json_t *found = NULL;

		json_array_foreach(list, j, e)
			if (!strcmp(json_string_value(json_object_get(e, mk)), key)) {
				found = e;
				break;
			}
		if (directive && !strcmp(directive, "delete")) {
			if (found)
				json_array_remove(list, j);
			continue;
		}
		if (!found) {
			found = json_object();
			json_array_append_new(list, found);
		}
		merge_into(found, p, true);
	}
}

static void merge_into(json_t *dst, json_t *patch, bool strategic)
{
	const char *k;
	json_t *v;

	json_object_foreach(patch, k, v) {
		json_t *cur = json_object_get(dst, k);
		const char *mk;

		if (k[0] == '$')
			continue;
		if (json_is_null(v)) {
			json_object_del(dst, k);
		} else if (json_is_object(v)) {
			if (!json_is_object(cur)) {
				cur = json_object();
				json_object_set_new(dst, k, cur);
			}
			merge_into(cur, v, strategic);
		} else if (strategic && (mk = merge_key(k, cur, v))) {
			merge_list(cur, v, mk);
		} else {
			json_object_set_new(dst, k, json_deep_copy(v));
		}
	}
}

json_t *kapi_merge_patch(json_t *target, json_t *patch, bool strategic)
{
	json_t *out;

	if (!json_is_object(patch))
		return json_deep_copy(patch);
	out = json_is_object(target) ? json_deep_copy(target) : json_object();
	if (out)
		merge_into(out, patch, strategic);
	return out;
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

char *kapi_base64url_encode(const char *data, size_t len)
{
	const unsigned char *d = (const unsigned char *)data;
	char *out = malloc(len / 3 * 4 + 5);
	size_t o = 0, i;

	if (!out)
		return NULL;
	for (i = 0; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)d[i] << 16 | (uint32_t)d[i + 1] << 8 | d[i + 2];

		out[o++] = b64[v >> 18 & 63];
		out[o++] = b64[v >> 12 & 63];
		out[o++] = b64[v >> 6 & 63];
		out[o++] = b64[v & 63];
	}
	if (i < len) {
		uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < len ? (uint32_t)d[i + 1] << 8 : 0);

		out[o++] = b64[v >> 18 & 63];
		out[o++] = b64[v >> 12 & 63];
		if (i + 1 < len)
			out[o++] = b64[v >> 6 & 63];
	}
	out[o] = '\0';
	return out;
}

char *kapi_base64url_decode(const char *text, size_t *len)
{
	size_t n = strlen(text), o = 0;
	uint32_t acc = 0;
	unsigned int bits = 0;
	char *out = malloc(n / 4 * 3 + 4);

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *p = text[i] ? strchr(b64, text[i]) : NULL;

		if (text[i] == '=')
			break;
		if (!p) {
			free(out);
			return NULL;
		}
		acc = acc << 6 | (uint32_t)(p - b64);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (char)(acc >> bits & 0xff);
		}
	}
	out[o] = '\0';
	*len = o;
	return out;
}

bool kapi_valid_name(const char *name, bool label)
{
	size_t n = strlen(name);

	if (!n || n > (label ? 63 : 253))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		bool alnum = islower(c) || isdigit(c);
		bool edge = i == 0 || i == n - 1 || name[i - 1] == '.' || name[i + 1] == '.';

		if (alnum)
			continue;
		if (c == '-' && !edge)
			continue;
		if (c == '.' && !label && !edge)
			continue;
		return false;
	}
	return true;
}

const char *kapi_field(json_t *obj, const char *path)
{
	char part[128];
	const char *p = path;

	while (obj && *p) {
		size_t n = strcspn(p, ".");

		if (n >= sizeof(part))
			return "";
		memcpy(part, p, n);
		part[n] = '\0';
		obj = json_object_get(obj, part);
		p += n;
		if (*p == '.')
			p++;
	}
	if (json_is_string(obj))
		return json_string_value(obj);
	if (json_is_true(obj))
		return "true";
	if (json_is_false(obj))
		return "false";
	return "";
}

const char *kapi_meta_str(json_t *obj, const char *field)
{
	json_t *v = json_object_get(json_object_get(obj, "metadata"), field);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

bool kapi_parse_rv(const char *text, uint64_t *rv)
{
	char *end;

	if (!text || !isdigit((unsigned char)text[0]))
		return false;
	errno = 0;
	*rv = strtoull(text, &end, 10);
	return !errno && !*end;
}

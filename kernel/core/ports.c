// SPDX-License-Identifier: Apache-2.0
/*
 * Host ports (ports.h), with the API server's validation of them and
 * kube-scheduler's HostPortInfo.CheckConflict: an address of "" or
 * "0.0.0.0" binds every address, and so overlaps any other.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/enum.h"
#include "core/ports.h"
#include "core/strtab.h"

static const char *const protocol_names[VS_NR_PORT_PROTOCOLS] = {
	[VS_PORT_TCP] = "TCP",
	[VS_PORT_UDP] = "UDP",
	[VS_PORT_SCTP] = "SCTP",
};

int vs_port_protocol_parse(const char *s, enum vs_port_protocol *out, struct vs_err *err)
{
	int v;

	if (!s || !*s) {
		*out = VS_PORT_TCP;	/* the API server's default */
		return 0;
	}
	v = vs_enum_parse(protocol_names, VS_NR_PORT_PROTOCOLS, s, "protocol", err);
	if (v < 0)
		return v;
	*out = (enum vs_port_protocol)v;
	return 0;
}

const char *vs_port_protocol_name(enum vs_port_protocol p)
{
	return vs_enum_name(protocol_names, VS_NR_PORT_PROTOCOLS, p);
}

#define ANY_IP	"0.0.0.0"

static bool valid_ip(const char *s)
{
	unsigned char buf[sizeof(struct in6_addr)];

	return inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1;
}

void vs_host_ports_free(struct vs_strtab *strs, struct vs_host_ports *ports)
{
	if (!ports)
		return;
	for (u32 i = 0; i < ports->nr; i++)
		if (ports->p[i].ip)
			vs_str_put(strs, ports->p[i].ip);
	free(ports);
}

static bool same_key(const struct vs_host_port_spec *a, const struct vs_host_port_spec *b)
{
	const char *ia = a->ip ? a->ip : "", *ib = b->ip ? b->ip : "";

	return a->port == b->port && a->protocol == b->protocol && !strcmp(ia, ib);
}

int vs_host_ports_new(struct vs_strtab *strs, const struct vs_host_port_spec *specs, u32 nr,
		      struct vs_host_ports **out, struct vs_err *err)
{
	struct vs_host_ports *ports;

	*out = NULL;
	if (!nr)
		return 0;
	for (u32 i = 0; i < nr; i++) {
		const struct vs_host_port_spec *s = &specs[i];

		if (s->port < 1 || s->port > 65535)
			return vs_err_set(err, EINVAL, "hostPorts[%u]: hostPort %u is not in "
					  "1..65535", i, s->port);
		if ((unsigned int)s->protocol >= VS_NR_PORT_PROTOCOLS)
			return vs_err_set(err, EINVAL, "hostPorts[%u]: unknown protocol %u", i,
					  (unsigned int)s->protocol);
		if (s->ip && *s->ip && !valid_ip(s->ip))
			return vs_err_set(err, EINVAL, "hostPorts[%u]: hostIP \"%s\" is not an "
					  "IPv4 or IPv6 address", i, s->ip);
		/* As the API server's AccumulateUniqueHostPorts: the strings as given. */
		for (u32 j = 0; j < i; j++)
			if (same_key(&specs[j], s))
				return vs_err_set(err, EINVAL, "hostPorts[%u]: duplicate %s/%s/%u",
						  i, vs_port_protocol_name(s->protocol),
						  s->ip ? s->ip : "", s->port);
	}
	ports = calloc(1, sizeof(*ports) + nr * sizeof(ports->p[0]));
	if (!ports)
		return vs_err_set(err, ENOMEM, "out of memory for host ports");
	for (u32 i = 0; i < nr; i++) {
		struct vs_host_port *p = &ports->p[i];

		p->port = (u16)specs[i].port;
		p->protocol = (u8)specs[i].protocol;
		ports->nr++;
		if (specs[i].ip && *specs[i].ip &&
		    !(p->ip = vs_str_get_cstr(strs, specs[i].ip))) {
			vs_host_ports_free(strs, ports);
			return vs_err_set(err, ENOMEM, "out of memory for host ports");
		}
	}
	*out = ports;
	return 0;
}

/* "" (NULL here) and "0.0.0.0" bind every address. */
static bool any_ip(const char *ip)
{
	return !ip || !strcmp(ip, ANY_IP);
}

static bool port_conflict(const struct vs_host_port *a, const struct vs_host_port *b)
{
	if (a->port != b->port || a->protocol != b->protocol)
		return false;
	/* interned: equal strings are one pointer */
	return a->ip == b->ip || any_ip(a->ip) || any_ip(b->ip);
}

bool vs_host_ports_conflict(const struct vs_host_ports *a, const struct vs_host_ports *b)
{
	if (!a || !b)
		return false;
	for (u32 i = 0; i < a->nr; i++)
		for (u32 j = 0; j < b->nr; j++)
			if (port_conflict(&a->p[i], &b->p[j]))
				return true;
	return false;
}

bool vs_host_ports_equal(const struct vs_host_ports *a, const struct vs_host_ports *b)
{
	u32 nr = a ? a->nr : 0;

	if (nr != (b ? b->nr : 0))
		return false;
	for (u32 i = 0; i < nr; i++)
		if (a->p[i].port != b->p[i].port || a->p[i].protocol != b->p[i].protocol ||
		    a->p[i].ip != b->p[i].ip)
			return false;
	return true;
}

int vs_host_port_fmt(char *buf, size_t size, const struct vs_host_port *p)
{
	return snprintf(buf, size, "%s/%s/%u", vs_port_protocol_name(p->protocol),
			p->ip ? p->ip : ANY_IP, p->port);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A pod's host ports: the ports of its containers that carry a hostPort,
 * which the pod takes on the node it runs on (kube-scheduler's NodePorts).
 * Two pods' ports conflict when protocol and port are equal and the host
 * addresses overlap: equal, or either is 0.0.0.0 (every address), which is
 * also what an absent hostIP means. Set once when the task is made and only
 * read after; a pod without host ports has none (NULL).
 */
#ifndef VS_CORE_PORTS_H
#define VS_CORE_PORTS_H

#include "core/compiler.h"
#include "core/err.h"

struct vs_strtab;

enum vs_port_protocol {
	VS_PORT_TCP,			/* the default */
	VS_PORT_UDP,
	VS_PORT_SCTP,
	VS_NR_PORT_PROTOCOLS
};

int vs_port_protocol_parse(const char *s, enum vs_port_protocol *out, struct vs_err *err);
const char *vs_port_protocol_name(enum vs_port_protocol p);

struct vs_host_port_spec {
	u32 port;			/* hostPort, 1..65535 */
	enum vs_port_protocol protocol;
	const char *ip;			/* hostIP; NULL or "": 0.0.0.0 */
};

struct vs_host_port {
	const char *ip;			/* interned; NULL: 0.0.0.0, every address */
	u16 port;
	u8 protocol;			/* enum vs_port_protocol */
};

struct vs_host_ports {
	u32 nr;
	struct vs_host_port p[];
};

/*
 * As the API server validates a pod: each port in 1..65535, a known
 * protocol, hostIP an IPv4 or IPv6 address, and no (protocol, hostIP, port)
 * twice. *@out is NULL when @nr is 0.
 */
int vs_host_ports_new(struct vs_strtab *strs, const struct vs_host_port_spec *specs, u32 nr,
		      struct vs_host_ports **out, struct vs_err *err);
void vs_host_ports_free(struct vs_strtab *strs, struct vs_host_ports *ports);

/* Whether a port of @a and a port of @b could not both be bound on one node. */
bool vs_host_ports_conflict(const struct vs_host_ports *a, const struct vs_host_ports *b);

/* Whether @a and @b are the same ports, in the same order. */
bool vs_host_ports_equal(const struct vs_host_ports *a, const struct vs_host_ports *b);

/* "TCP/0.0.0.0/80": the form kube-scheduler's messages and vsctl use. */
int vs_host_port_fmt(char *buf, size_t size, const struct vs_host_port *p);

#endif /* VS_CORE_PORTS_H */

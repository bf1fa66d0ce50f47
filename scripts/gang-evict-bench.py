#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write a scenario for measuring gang-aware against task-level preemption.

A full three-tier cluster: SPINES spines of LEAVES leaves of NODES nodes
(8 cpu each), every node full of 1-cpu tasks of low-priority running jobs
(16 tasks on two nodes of a leaf, minMember 12), and GANGS pending
high-priority gangs of SIZE tasks, hard within tier 1. The scenario runs
one action (gangpreempt, preempt, or preempt with
enableTopologyAwarePreemption) and expects nothing: measure it, e.g.

  scripts/gang-evict-bench.py gangpreempt > gp.yaml
  valgrind --tool=callgrind --toggle-collect=gangpreempt_execute \\
      ./vsctl scenario run gp.yaml

Documentation/benchmarks.md, "Gang preemption", has the figures.
"""
import argparse


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=["gangpreempt", "preempt", "preempt-topology-aware"])
    ap.add_argument("--spines", type=int, default=4)
    ap.add_argument("--leaves", type=int, default=16, help="leaves per spine")
    ap.add_argument("--nodes", type=int, default=16, help="nodes per leaf (even)")
    ap.add_argument("--gangs", type=int, default=20)
    ap.add_argument("--size", type=int, default=32, help="tasks per gang")
    a = ap.parse_args()
    if a.nodes % 2:
        ap.error("--nodes must be even: a running job spans two nodes")

    action = "preempt" if a.action.startswith("preempt") else a.action
    out = ['source: "vsched bench: %s on a full three-tier cluster"' % a.action,
           "actions: [%s]" % action]
    if a.action == "preempt-topology-aware":
        out += ["actionArguments:", "  preempt: {enableTopologyAwarePreemption: true}"]
    out += [
        "plugins:",
        "  - - {name: priority, enableJobOrder: true, enableTaskOrder: true,"
        " enablePreemptable: true, enableJobStarving: true}",
        "    - {name: gang, enablePreemptable: true, enableJobPipelined: true,"
        " enableJobReady: true, enableJobStarving: true}",
        "    - {name: conformance, enablePreemptable: true}",
        "  - - {name: predicates, enablePredicate: true}",
        "    - {name: network-topology-aware, enableNodeOrder: true,"
        " enabledHyperNodeOrder: true, enabledHyperNodeGradient: true}",
        "priorityClasses:",
        "  - {name: high, value: 1000}",
        "  - {name: low, value: 1}",
        "queues:",
        "  - {name: q1, weight: 1}",
        "nodes:",
    ]
    nodes = []
    for s in range(a.spines):
        for l in range(a.leaves):
            for n in range(a.nodes):
                name = "s%d-l%d-n%d" % (s, l, n)
                nodes.append(name)
                out.append('  - {name: %s, allocatable: {cpu: "8", memory: 64Gi, pods: "110"}}'
                           % name)
    out.append("hypernodes:")
    for s in range(a.spines):
        for l in range(a.leaves):
            out += ["  - name: leaf-%d-%d" % (s, l), "    tier: 1", "    members:",
                    '      - {type: Node, selector: {regexMatch: {pattern: "^s%d-l%d-"}}}'
                    % (s, l)]
    for s in range(a.spines):
        out += ["  - name: spine-%d" % s, "    tier: 2", "    members:",
                '      - {type: HyperNode, selector: {regexMatch: {pattern: "^leaf-%d-"}}}' % s]
    out.append("podgroups:")
    pods = []
    for j, i in enumerate(range(0, len(nodes), 2)):
        job = "low-%d" % j
        out.append("  - {name: %s, namespace: ns, queue: q1, minMember: 12,"
                   " priorityClass: low, phase: Running}" % job)
        for k in range(16):
            pods.append("  - {name: %s-%d, namespace: ns, podgroup: %s, phase: Running,"
                        ' node: %s, priority: 1, request: {cpu: "1", memory: 1Gi}}'
                        % (job, k, job, nodes[i + k // 8]))
    for g in range(a.gangs):
        gang = "high-%d" % g
        out.append("  - {name: %s, namespace: ns, queue: q1, minMember: %d, priorityClass: high,"
                   " phase: Inqueue, networkTopology: {mode: hard, highestTierAllowed: 1}}"
                   % (gang, a.size))
        for k in range(a.size):
            pods.append("  - {name: %s-%d, namespace: ns, podgroup: %s, priority: 1000,"
                        ' request: {cpu: "1", memory: 1Gi}}' % (gang, k, gang))
    out.append("pods:")
    out += pods
    print("\n".join(out))


if __name__ == "__main__":
    main()

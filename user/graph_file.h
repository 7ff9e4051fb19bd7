/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txctl: a network description file (create graph file:PATH) read into a
 * neutral graph of processors, switches and cables.  Two formats, told
 * apart by the file's first word outside comments:
 *
 * - BookSim2's "anynet" file, when that word is "router" or "node".  A
 *   line is "router R" followed by what R is cabled to, "node N" (a
 *   processor) or "router S" (another switch), each optionally followed by
 *   a link latency, which must be 1; or "node N router R".  Nodes become
 *   processors, routers switches.
 * - A plain edge list otherwise: "U V" a line, a cable between processors
 *   U and V; no switches.
 *
 * In both, "#" starts a comment anywhere on a line and blank lines are
 * ignored.  Ids are decimal numbers from 0 to 4294967295, neither dense
 * nor sorted: processor i is the i-th smallest node id (edge list: the
 * i-th smallest id), switch j the j-th smallest router id.  A cable listed
 * twice, from either end, is one cable.  The graph must be connected and
 * have at least two processors.
 */
#ifndef TXCTL_GRAPH_FILE_H
#define TXCTL_GRAPH_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct graph_file {
	uint32_t procs;		/* processors: vertices 0 .. procs - 1 */
	uint32_t switches;	/* switches: vertices procs .. procs + switches - 1 */
	uint32_t ncables;	/* undirected cables, each once */
	/*
	 * ncables pairs of vertex numbers, the smaller first, no two alike
	 * and none a loop.  anynet: each processor's cable to its switch, in
	 * processor order, then the cables between switches, ascending; edge
	 * list: ascending.  So a graph's cables come out the same however
	 * its file orders them.
	 */
	uint32_t (*cable)[2];
	uint32_t *proc_id;	/* procs entries, ascending: each processor's id in the file */
	uint32_t *switch_id;	/* switches entries, ascending: each switch's router id */
	bool anynet;		/* the file was an anynet file (else an edge list) */
};

/*
 * Parse @len bytes of @text (no terminating NUL needed; NULs are ordinary
 * bytes) named @fname in messages.  @max_vertices is txnet's max_nodes
 * (processors and switches together), @max_cables the most cables the
 * caller can build; either exceeded is -E2BIG.  Other refusals are
 * -EINVAL, and -ENOMEM is out of memory.
 *
 * Returns 0 with @g filled in (free with graph_file_free()), or a negative
 * errno with @g zeroed, nothing left allocated, and @msg (@msglen bytes,
 * may be 0) holding "FNAME:LINE: reason" (no "Error:" prefix, no newline;
 * "FNAME: reason" for what no one line is to blame for).
 */
int graph_file_parse(const char *text, size_t len, const char *fname, uint64_t max_vertices,
		     uint64_t max_cables, struct graph_file *g, char *msg, size_t msglen);

/*
 * graph_file_parse() of the file at @path, which names it in messages.
 * An unreadable file is its -errno; a file over 1 GiB is -E2BIG.
 */
int graph_file_read(const char *path, uint64_t max_vertices, uint64_t max_cables,
		    struct graph_file *g, char *msg, size_t msglen);

/* Free what a successful parse allocated and zero @g; a zeroed @g is fine too. */
void graph_file_free(struct graph_file *g);

#endif /* TXCTL_GRAPH_FILE_H */

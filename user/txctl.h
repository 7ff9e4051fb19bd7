/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txctl: control utility of txnet, shared declarations.
 *
 * One file per subcommand, named after it (create.c, show.c, link.c,
 * node.c, ...), each exporting a do_<cmd>() and usage_<cmd>(); the
 * dispatch table lives in txctl.c.  show_links.c is "show NET links".
 * Shared helpers: args.c (grammar), output.c (text/JSON), nl.c (netlink),
 * topology.c (topology keywords), network.c (network descriptions),
 * result.c (run results and run keywords), items.c, values.c and dests.c
 * (run's list arguments), series_dump.c (a run's time series), plot.c
 * (SVG), graph_file.c (network description files, BookSim anynet or edge
 * lists), schedule_file.c (schedule files), msccl_ir.c and msccl_import.c
 * (MSCCL algorithms as schedules).  create.c also holds the TOPOLOGY ARGS grammar (topology_put()).
 */
#ifndef TXCTL_H
#define TXCTL_H

#include <stdbool.h>
#include <stdio.h>

#define TXCTL_VERSION	"0.1"

/* Exit statuses, documented in txctl.8. */
#define EXIT_OK		0	/* success */
#define EXIT_USAGE	1	/* usage or argument error, nothing sent */
#define EXIT_KERNEL	2	/* netlink, module or kernel error */
#define EXIT_RUN	3	/* run: the exchange failed or was stopped */

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);	/* argv[0] is the command */
	void (*usage)(FILE *f);
	const char *description;
};

const struct command *find_command(const char *name);

/* One block per subcommand; argv[0] is the command name. */
int do_create(int argc, char **argv);
void usage_create(FILE *f);
int do_show(int argc, char **argv);
void usage_show(FILE *f);
int do_destroy(int argc, char **argv);
void usage_destroy(FILE *f);
int do_set(int argc, char **argv);
void usage_set(FILE *f);
int do_run(int argc, char **argv);
void usage_run(FILE *f);
int do_stop(int argc, char **argv);
void usage_stop(FILE *f);
int do_send(int argc, char **argv);
void usage_send(FILE *f);
int do_link(int argc, char **argv);
void usage_link(FILE *f);
int do_node(int argc, char **argv);
void usage_node(FILE *f);
int do_recv(int argc, char **argv);
void usage_recv(FILE *f);
int do_monitor(int argc, char **argv);
void usage_monitor(FILE *f);
int do_help(int argc, char **argv);
void usage_help(FILE *f);
int do_bounds(int argc, char **argv);
int do_latin(int argc, char **argv);
void usage_latin(FILE *f);
void usage_bounds(FILE *f);
int do_import(int argc, char **argv);
void usage_import(FILE *f);
int do_series(int argc, char **argv);
void usage_series(FILE *f);
/* series.c: network @name's last run's series drawn into @path; an exit status */
struct txnl;
int series_plot(struct txnl *nl, const char *name, const char *path);

/*
 * create.c: TXNET_A_TOPOLOGY (TXNET_A_BASE) and TXNET_A_DIMS from
 * "TOPOLOGY ARGS..." at argv[0]; on return argv[0] is the first argument
 * not consumed.  Errors exit with @usage.
 */
struct nlmsghdr;
void topology_put(struct nlmsghdr *nlh, int *pargc, char ***pargv, void (*usage)(FILE *f));
/*
 * After a topology_put() of "graph file:PATH": @nlh followed by the
 * file's cables (and, with @ids, its vertex ids), in a buffer of *@room
 * bytes to free(); NULL for any other topology.
 */
struct nlmsghdr *graph_request(const struct nlmsghdr *nlh, bool ids, size_t *room);
/*
 * @nlh sent on @nl, followed by graph_request()'s cables when the
 * topology is a graph from a file, its reply to @cb: 0 or an errno (not
 * printed).
 */
struct txnl;
int topology_request(struct txnl *nl, struct nlmsghdr *nlh, bool ids,
		     int (*cb)(const struct nlmsghdr *nlh, void *data), void *data);

#endif /* TXCTL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txctl run's schedule files: "schedule file:PATH" read, checked against
 * the run asked for and the network, and sent as TXNET_A_SCHEDULE; a
 * failed replay's move traced to its line; "save FILE": the moves the
 * engine accepted, fetched (TXNET_CMD_SCHEDULE) and written as a file.
 */
#ifndef TXCTL_RUN_SCHEDULE_H
#define TXCTL_RUN_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "network.h"
#include "nl.h"
#include "result.h"

/*
 * Read the schedule file of @arg ("file:PATH") for a run of @op; its root
 * is the run's, and a root given (@has_root) must be it.  Exits with a
 * message naming the file and line on any refusal.  The root to send.
 */
uint32_t run_schedule_load(const char *arg, int op, bool has_root, uint32_t root);

/*
 * Whether network @name is the one the loaded file was made for, and
 * runs the port model it was made for: EXIT_OK, or EXIT_USAGE with the
 * difference printed.
 */
int run_schedule_check_net(struct txnl *nl, const char *name);

/*
 * The MSCCL algorithm of @arg ("file:PATH") imported for network @name,
 * with @root, for a run of @op, as the loaded file: EXIT_OK, or an exit
 * status with the refusal printed.  Each move's line is its step's.
 */
int run_schedule_msccl(struct txnl *nl, const char *name, const char *arg, int op, uint32_t root);

/*
 * The MSCCL algorithm at @path imported for the network @ni describes
 * (its spec, port model and processors) into @sf: 0, or an errno with
 * the refusal printed.
 */
struct schedule_file;
int msccl_for_network(const char *path, const struct txnet_info *ni, uint32_t root,
		      struct schedule_file *sf);

/* @nlh followed by the loaded file's steps, in a request of *@room bytes (the caller frees it). */
struct nlmsghdr *run_schedule_request(const struct nlmsghdr *nlh, size_t *room);

/* A replay that failed at a move: the file's line of it, on stderr. */
void run_schedule_blame(const struct txnet_res *res);

/* The moves of run @res on network @name, written to @path: EXIT_OK or why not. */
int run_save(struct txnl *nl, const char *name, const struct txnet_res *res, const char *path);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * txctl run ... schedule file:PATH | save FILE (run_schedule.h).  What the
 * file says is checked here so that a mistake names its line; the kernel
 * checks all of it again, and judges every move.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/txnet.h>

#include "args.h"
#include "msccl_import.h"
#include "network.h"
#include "output.h"
#include "run_schedule.h"
#include "schedule_file.h"
#include "txctl.h"

/* The file being replayed: read once, sent once, kept to trace a failure to its line. */
static struct schedule_file loaded;
static const char *loaded_path;

static void __attribute__((noreturn)) refuse(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "Error: %s: ", loaded_path);
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, ".\n");
	exit(EXIT_USAGE);
}

uint32_t run_schedule_load(const char *arg, int op, bool has_root, uint32_t root)
{
	char msg[512], made[16], given[16];

	if (strncmp(arg, "file:", 5) || !arg[5])
		invarg(arg, "schedule", "must be file:PATH");
	loaded_path = arg + 5;
	if (schedule_file_read(loaded_path, &loaded, msg, sizeof(msg))) {
		fprintf(stderr, "Error: %s.\n", msg);
		exit(EXIT_USAGE);
	}
	if (op_by_name(loaded.operation) != op)
		refuse("made for %s, not %s", loaded.operation, op_name((uint32_t)op));
	if (op_has_root(op) && !loaded.has_root)
		refuse("a %s%s needs a root: the header has no \"root R\"", loaded.operation, "");
	if (!op_has_root(op) && loaded.has_root)
		refuse("a %s%s has no root: the header's \"root\" is out of place", loaded.operation,
		       "");
	snprintf(made, sizeof(made), "%" PRIu32, loaded.root);
	snprintf(given, sizeof(given), "%" PRIu32, root);
	if (has_root && root != loaded.root)
		refuse("made for root %s, not %s", made, given);
	return loaded.root;
}

static const char *port_text(uint32_t model)
{
	return model == TXNET_PORT_SINGLE ? "single-port" : "all-port";
}

int run_schedule_check_net(struct txnl *nl, const char *name)
{
	static struct txnet_info ni;

	if (network_get(nl, name, &ni))
		return EXIT_KERNEL;
	if (strcmp(ni.spec, loaded.network))
		refuse("made for network \"%s\", not \"%s\"", loaded.network, ni.spec);
	if (strcmp(port_text(ni.port_model), loaded.port_model))
		refuse("made for %s, and the network is %s", loaded.port_model,
		       port_text(ni.port_model));
	return EXIT_OK;
}

int msccl_for_network(const char *path, const struct txnet_info *ni, uint32_t root,
		      struct schedule_file *sf)
{
	struct msccl_target t = {
		.network = ni->spec,
		.single_port = ni->port_model == TXNET_PORT_SINGLE,
		.root = root,
	};
	struct msccl_algo a;
	char msg[1024];
	int err;

	err = msccl_read(path, &a, msg, sizeof(msg));
	if (!err && a.ngpus != ni->nodes) {
		snprintf(msg, sizeof(msg), "%s:%" PRIu32 ": ngpus=\"%" PRIu32 "\", and %s has %"
			 PRIu32 " processors", path, a.line, a.ngpus, ni->spec, ni->nodes);
		err = -EINVAL;
	}
	if (!err)
		err = msccl_import(&a, path, &t, sf, msg, sizeof(msg));
	msccl_free(&a);
	if (err)
		fprintf(stderr, "Error: %s.\n", msg);
	return err;
}

int run_schedule_msccl(struct txnl *nl, const char *name, const char *arg, int op, uint32_t root)
{
	static struct txnet_info ni;

	if (strncmp(arg, "file:", 5) || !arg[5])
		invarg(arg, "msccl", "must be file:PATH");
	loaded_path = arg + 5;
	if (network_get(nl, name, &ni))
		return EXIT_KERNEL;
	if (msccl_for_network(loaded_path, &ni, root, &loaded))
		return EXIT_USAGE;
	if (op_by_name(loaded.operation) != op)
		refuse("its collective is txnet's %s, not %s", loaded.operation,
		       op_name((uint32_t)op));
	return EXIT_OK;
}

struct nlmsghdr *run_schedule_request(const struct nlmsghdr *nlh, size_t *room)
{
	size_t bytes = loaded.nsteps * sizeof(*loaded.step);
	struct nlmsghdr *big;

	*room = nlh->nlmsg_len + MNL_ALIGN(sizeof(struct nlattr)) * 2 + MNL_ALIGN(sizeof(uint32_t)) +
		MNL_ALIGN(strlen(loaded.network) + 1) +
		txnl_list_room(bytes, sizeof(*loaded.step));
	big = malloc(*room);
	if (!big) {
		fprintf(stderr, "Error: out of memory for the schedule's request.\n");
		exit(EXIT_USAGE);
	}
	memcpy(big, nlh, nlh->nlmsg_len);
	/* what the file was made for, which the kernel checks again */
	mnl_attr_put_strz(big, TXNET_A_SCHEDULE_SPEC, loaded.network);
	mnl_attr_put_u32(big, TXNET_A_PORT_MODEL, strcmp(loaded.port_model, "single-port") ?
						  TXNET_PORT_ALL : TXNET_PORT_SINGLE);
	if (txnl_put_list(big, *room, TXNET_A_SCHEDULE, loaded.step, bytes, sizeof(*loaded.step))) {
		fprintf(stderr, "Error: the schedule does not fit one request.\n");
		exit(EXIT_USAGE);
	}
	return big;
}

void run_schedule_blame(const struct txnet_res *res)
{
	uint32_t line;

	if (!loaded_path || !result_has(res, TXNET_A_RES_ERROR_TICK) ||
	    !result_has(res, TXNET_A_RES_ERROR_MOVE))
		return;
	line = schedule_file_line(&loaded, res->error_tick, res->error_move);
	if (line)
		fprintf(stderr, "%s:%u: the move of tick %" PRIu64 " that broke the rule\n",
			loaded_path, line, res->error_tick);
}

struct saved {
	struct schedule_file *sf;
	size_t cap;
	uint32_t run_id;
	bool other;		/* a part of another run's moves */
};

static int part_cb(const struct nlmsghdr *nlh, void *data)
{
	struct saved *s = data;
	struct schedule_file *sf = s->sf;
	const struct nlattr *a;
	size_t n;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == TXNET_A_RUN_ID &&
		    (mnl_attr_validate(a, MNL_TYPE_U32) < 0 || mnl_attr_get_u32(a) != s->run_id))
			s->other = true;
		if (mnl_attr_get_type(a) != TXNET_A_SCHEDULE)
			continue;
		n = mnl_attr_get_payload_len(a) / sizeof(*sf->step);
		if (sf->nsteps + n > s->cap) {
			size_t cap = s->cap ? 2 * s->cap : 4096;
			struct schedule_step *step;

			while (cap < sf->nsteps + n)
				cap *= 2;
			step = realloc(sf->step, cap * sizeof(*step));
			if (!step)
				return -ENOMEM;
			sf->step = step;
			s->cap = cap;
		}
		memcpy(sf->step + sf->nsteps, mnl_attr_get_payload(a), n * sizeof(*sf->step));
		sf->nsteps += n;
	}
	return 0;
}

static void restart(void *data)
{
	struct saved *s = data;

	s->sf->nsteps = 0;
	s->other = false;
}

int run_save(struct txnl *nl, const char *name, const struct txnet_res *res, const char *path)
{
	static union {
		char buf[TXNL_BUF_SIZE];
		struct nlmsghdr align;
	} tx;
	static struct txnet_info ni;
	struct schedule_file sf = { 0 };
	struct saved s = { .sf = &sf, .run_id = res->run_id };
	struct nlmsghdr *nlh;
	FILE *f;
	int err;

	if (network_get(nl, name, &ni))
		return EXIT_KERNEL;
	nlh = txnl_msg(tx.buf, TXNET_CMD_SCHEDULE, 0);
	mnl_attr_put_strz(nlh, TXNET_A_NAME, name);
	err = txnl_dump(nl, nlh, part_cb, restart, &s);
	if (!err && s.other) {
		snprintf(nl->errmsg, sizeof(nl->errmsg),
			 "another run ended before run %u's moves were read", res->run_id);
		err = -EAGAIN;
	}
	if (err) {
		txnl_perror(nl, err);
		free(sf.step);
		return EXIT_KERNEL;
	}
	snprintf(sf.network, sizeof(sf.network), "%s", ni.spec);
	snprintf(sf.operation, sizeof(sf.operation), "%s", op_name(res->op));
	snprintf(sf.port_model, sizeof(sf.port_model), "%s", port_text(res->port_model));
	sf.has_root = op_has_root((int)res->op);
	sf.root = res->root;
	sf.form = schedule_form_of(sf.operation);
	f = fopen(path, "w");
	err = f ? schedule_file_write(f, &sf) : -errno;
	if (f && fclose(f) && !err)
		err = -EIO;
	free(sf.step);
	if (err) {
		fprintf(stderr, "Error: %s: %s.\n", path, strerror(-err));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of txctl's MSCCL-IR import (user/msccl_ir.c, msccl_import.c):
 * the algorithms of selftests/msccl/ timed in the ticks their own
 * structure implies, their moves naming what each chunk carries, the
 * file written and read back as a schedule; and every refusal (XML that
 * is not MSCCL-IR, a collective txnet has no operation for, steps that
 * wait for each other in a loop, a chunk that holds nothing) with the
 * file's name and line.  Whether the moves are legal is the engine's:
 * the VM test replays these files (txnet_txctl.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "msccl_import.h"

#ifndef MSCCL_DIR
#error "MSCCL_DIR: the directory of the test algorithms"
#endif

static int import_file(const char *name, const char *net, bool single, uint32_t root,
		       struct schedule_file *sf, char *msg, size_t msglen)
{
	struct msccl_target t = { .network = net, .single_port = single, .root = root };
	struct msccl_algo a;
	char path[512];
	int err;

	snprintf(path, sizeof(path), "%s/%s", MSCCL_DIR, name);
	err = msccl_read(path, &a, msg, msglen);
	if (err)
		return err;
	err = msccl_import(&a, path, &t, sf, msg, msglen);
	msccl_free(&a);
	return err;
}

static int import_text(const char *text, uint32_t root, struct schedule_file *sf, char *msg,
		       size_t msglen)
{
	struct msccl_target t = { .network = "ring 2", .root = root };
	struct msccl_algo a;
	int err;

	err = msccl_parse(text, strlen(text), "a.xml", &a, msg, msglen);
	if (err)
		return err;
	err = msccl_import(&a, "a.xml", &t, sf, msg, msglen);
	msccl_free(&a);
	return err;
}

static size_t moves(const struct schedule_file *sf)
{
	size_t i, n = 0;

	for (i = 0; i < sf->nsteps; i++)
		n += sf->step[i].from != SCHEDULE_TICK;
	return n;
}

/* Each processor of @sf's moves receives @each, and sends at most one a tick over a cable. */
static void expect_each_receives(struct __test_metadata *_metadata, const struct schedule_file *sf,
				 uint32_t n, size_t each)
{
	size_t got[64] = { 0 }, i;
	uint32_t r;

	for (i = 0; i < sf->nsteps; i++)
		if (sf->step[i].from != SCHEDULE_TICK)
			got[sf->step[i].to]++;
	for (r = 0; r < n; r++)
		EXPECT_EQ(each, got[r]) TH_LOG("rank %u", r);
}

/*
 * A ring allgather of n ranks: every chunk travels n - 1 hops, one a
 * tick, and every rank forwards in lockstep, so it ends in n - 1 ticks
 * (Patarasuk and Yuan, "Bandwidth optimal all-reduce algorithms for
 * clusters of workstations", JPDC 2009, the allgather half) with
 * n (n - 1) moves, every one a copy of its source's message.
 */
TEST(ring_allgather)
{
	struct schedule_file sf;
	char msg[512];
	size_t i;

	ASSERT_EQ(0, import_file("allgather_ring.xml", "ring 8", false, 0, &sf, msg, sizeof(msg)))
		TH_LOG("%s", msg);
	EXPECT_STREQ("multinode-broadcast", sf.operation);
	EXPECT_STREQ("ring 8", sf.network);
	EXPECT_EQ(0, sf.has_root);
	EXPECT_EQ(8 - 1, sf.ticks);
	EXPECT_EQ(8 * (8 - 1), moves(&sf));
	expect_each_receives(_metadata, &sf, 8, 8 - 1);
	for (i = 0; i < sf.nsteps; i++) {
		if (sf.step[i].from == SCHEDULE_TICK)
			continue;
		/* around the ring, one way */
		EXPECT_EQ((sf.step[i].from + 1) % 8, sf.step[i].to);
		EXPECT_EQ(SCHEDULE_NONE, sf.step[i].b);
		EXPECT_NE(0, sf.line[i]);
	}
	schedule_file_free(&sf);
}

/*
 * Recursive doubling on 8 = 2^3 ranks: round k moves the 2^k chunks a
 * rank holds over one cable, a chunk a tick, after round k - 1's have
 * arrived: 1 + 2 + 4 = n - 1 ticks (Thakur, Rabenseifner and Gropp,
 * "Optimization of collective communication operations in MPICH", IJHPCA
 * 2005), under either port model, since a rank uses one cable a round.
 */
TEST(recursive_doubling_allgather)
{
	struct schedule_file sf;
	char msg[512];
	int single;

	for (single = 0; single <= 1; single++) {
		ASSERT_EQ(0, import_file("allgather_recursive_doubling.xml", "hypercube 3", single, 0,
					 &sf, msg, sizeof(msg))) TH_LOG("%s", msg);
		EXPECT_EQ(1 + 2 + 4, sf.ticks);
		EXPECT_EQ(8 * (8 - 1), moves(&sf));
		expect_each_receives(_metadata, &sf, 8, 8 - 1);
		EXPECT_STREQ(single ? "single-port" : "all-port", sf.port_model);
		schedule_file_free(&sf);
	}
}

/*
 * All pairs on complete 8: each rank sends each other rank its chunk over
 * their own cable, all at once under all-port: one tick, n (n - 1) moves,
 * each the message from its sender to its receiver.
 */
TEST(allpairs_alltoall)
{
	struct schedule_file sf;
	char msg[512];
	size_t i;

	ASSERT_EQ(0, import_file("alltoall_allpairs.xml", "complete 8", false, 0, &sf, msg,
				 sizeof(msg))) TH_LOG("%s", msg);
	EXPECT_STREQ("total-exchange", sf.operation);
	EXPECT_EQ(1, sf.ticks);
	EXPECT_EQ(8 * (8 - 1), moves(&sf));
	for (i = 1; i < sf.nsteps; i++) {
		EXPECT_EQ(sf.step[i].from, sf.step[i].a);
		EXPECT_EQ(sf.step[i].to, sf.step[i].b);
	}
	schedule_file_free(&sf);
}

/*
 * A binomial tree to rank 0 of 8: round k's senders are the ranks whose
 * lowest set bit is k, each once every partial it waits for has arrived:
 * log2 8 = 3 ticks, n - 1 moves, each toward the root's result.
 */
TEST(binomial_reduce)
{
	struct schedule_file sf;
	char msg[512];
	size_t i;

	ASSERT_EQ(0, import_file("reduce_binomial.xml", "hypercube 3", false, 0, &sf, msg,
				 sizeof(msg))) TH_LOG("%s", msg);
	EXPECT_STREQ("accumulate", sf.operation);
	EXPECT_EQ(1, sf.has_root);
	EXPECT_EQ(0, sf.root);
	EXPECT_EQ(3, sf.ticks);
	EXPECT_EQ(8 - 1, moves(&sf));
	for (i = 0; i < sf.nsteps; i++)
		if (sf.step[i].from != SCHEDULE_TICK)
			EXPECT_EQ(0, sf.step[i].a);
	schedule_file_free(&sf);
	/* a root the algorithm does not have */
	EXPECT_EQ(-EINVAL, import_file("reduce_binomial.xml", "hypercube 3", false, 8, &sf, msg,
				       sizeof(msg)));
	EXPECT_NE(NULL, strstr(msg, "root 8: the algorithm has 8 ranks")) TH_LOG("%s", msg);
}

/*
 * Allreduce by recursive doubling on 8 = 2^3 ranks: round k sends each
 * rank's partial (of the 2^k ranks that agree with it above bit k) across
 * dimension k, and reduces the one received into it: log2 8 = 3 ticks,
 * n log2 n moves, each the partial of an interval of ranks (Thakur,
 * Rabenseifner and Gropp, IJHPCA 2005).
 */
TEST(recursive_doubling_allreduce)
{
	struct schedule_file sf;
	char msg[512];
	size_t i;

	ASSERT_EQ(0, import_file("allreduce_recursive_doubling.xml", "hypercube 3", false, 0, &sf,
				 msg, sizeof(msg))) TH_LOG("%s", msg);
	EXPECT_STREQ("data-sum", sf.operation);
	EXPECT_EQ(3, sf.ticks);
	EXPECT_EQ(8 * 3, moves(&sf));
	for (i = 0; i < sf.nsteps; i++) {
		const struct schedule_step *st = &sf.step[i];

		if (st->from == SCHEDULE_TICK)
			continue;
		/* an aligned block of 2^k ranks holding the sender: lo <= from <= hi */
		EXPECT_LE(st->a, st->from);
		EXPECT_LE(st->from, st->b);
		EXPECT_EQ(0, st->a % (st->b - st->a + 1));
	}
	schedule_file_free(&sf);
}

/*
 * A ring allreduce of one chunk: the partial grows from rank 0 around to
 * rank n - 1, a hop a tick, and the sum goes on around from n - 1 to n - 2:
 * 2 (n - 1) = 14 ticks and as many moves, one a tick.
 */
TEST(ring_allreduce)
{
	struct schedule_file sf;
	char msg[512];

	ASSERT_EQ(0, import_file("allreduce_ring.xml", "ring 8", false, 0, &sf, msg, sizeof(msg)))
		TH_LOG("%s", msg);
	EXPECT_EQ(2 * (8 - 1), sf.ticks);
	EXPECT_EQ(2 * (8 - 1), moves(&sf));
	/* tick 7: rank 6 sends the partial of 0 .. 6; tick 8: rank 7 the sum, of all 8 */
	EXPECT_EQ(6, sf.step[2 * 6 + 1].from);
	EXPECT_EQ(0, sf.step[2 * 6 + 1].a);
	EXPECT_EQ(6, sf.step[2 * 6 + 1].b);
	EXPECT_EQ(7, sf.step[2 * 7 + 1].from);
	EXPECT_EQ(7, (sf.step[2 * 7 + 1].b - sf.step[2 * 7 + 1].a + 8) % 8);
	schedule_file_free(&sf);
}

/* What the import writes is a schedule file: read back, the same steps. */
TEST(written_file_reads_back)
{
	struct schedule_file sf, back;
	char msg[512], *text = NULL;
	size_t len = 0;
	FILE *f;

	ASSERT_EQ(0, import_file("allgather_ring.xml", "ring 8", false, 0, &sf, msg, sizeof(msg)))
		TH_LOG("%s", msg);
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, schedule_file_write(f, &sf));
	fclose(f);
	ASSERT_EQ(0, schedule_file_parse(text, len, "w.sched", &back, msg, sizeof(msg)))
		TH_LOG("%s", msg);
	ASSERT_EQ(sf.nsteps, back.nsteps);
	EXPECT_EQ(0, memcmp(sf.step, back.step, sf.nsteps * sizeof(*sf.step)));
	EXPECT_EQ(sf.ticks, back.ticks);
	free(text);
	schedule_file_free(&back);
	schedule_file_free(&sf);
}

#define ALGO(coll, body) \
	"<algo name=\"t\" ngpus=\"2\" coll=\"" coll "\" inplace=\"0\">\n" body "</algo>\n"
#define STEP(s, type, sb, so, db, doff, cnt, depid, deps) \
	"<step s=\"" #s "\" type=\"" type "\" srcbuf=\"" sb "\" srcoff=\"" #so "\" dstbuf=\"" \
	db "\" dstoff=\"" #doff "\" cnt=\"" #cnt "\" depid=\"" #depid "\" deps=\"" #deps \
	"\" hasdep=\"0\"/>\n"

/* A two-rank allgather: each sends its chunk to the other. */
static const char swap[] = ALGO("allgather",
	"<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n"
	"<tb id=\"0\" send=\"1\" recv=\"1\" chan=\"0\">\n"
	STEP(0, "s", "i", 0, "o", 0, 1, -1, -1)
	STEP(1, "r", "i", 0, "o", 1, 1, -1, -1)
	"</tb></gpu>\n"
	"<gpu id=\"1\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n"
	"<tb id=\"0\" send=\"0\" recv=\"0\" chan=\"0\">\n"
	STEP(0, "s", "i", 0, "o", 1, 1, -1, -1)
	STEP(1, "r", "i", 0, "o", 0, 1, -1, -1)
	"</tb></gpu>\n");

/* Both ranks receive before they send: each waits for the other. */
static const char deadlock[] = ALGO("allgather",
	"<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n"
	"<tb id=\"0\" send=\"1\" recv=\"1\" chan=\"0\">\n"
	STEP(0, "r", "i", 0, "o", 1, 1, -1, -1)
	STEP(1, "s", "i", 0, "o", 0, 1, -1, -1)
	"</tb></gpu>\n"
	"<gpu id=\"1\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n"
	"<tb id=\"0\" send=\"0\" recv=\"0\" chan=\"0\">\n"
	STEP(0, "r", "i", 0, "o", 0, 1, -1, -1)
	STEP(1, "s", "i", 0, "o", 1, 1, -1, -1)
	"</tb></gpu>\n");

TEST(two_ranks_swap)
{
	struct schedule_file sf;
	char msg[512];

	ASSERT_EQ(0, import_text(swap, 0, &sf, msg, sizeof(msg))) TH_LOG("%s", msg);
	/* one tick mark and the two sends, each its rank's own message */
	ASSERT_EQ(3, sf.nsteps);
	EXPECT_EQ(1, sf.ticks);
	EXPECT_EQ(0, sf.step[1].from);
	EXPECT_EQ(0, sf.step[1].a);
	EXPECT_EQ(1, sf.step[2].a);
	EXPECT_EQ(4, sf.line[1]);
	schedule_file_free(&sf);
}

static void expect_refused(struct __test_metadata *_metadata, const char *text, int err,
			   const char *where, const char *why)
{
	struct schedule_file sf = { 0 };
	char msg[1024];

	EXPECT_EQ(err, import_text(text, 0, &sf, msg, sizeof(msg))) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(msg, where)) TH_LOG("want \"%s\" in \"%s\"", where, msg);
	EXPECT_NE(NULL, strstr(msg, why)) TH_LOG("want \"%s\" in \"%s\"", why, msg);
	EXPECT_EQ(NULL, sf.step);
	EXPECT_EQ(0, sf.nsteps);
}

TEST(loop_of_waits_names_the_steps)
{
	expect_refused(_metadata, deadlock, -EINVAL, "a.xml:4: ",
		       "steps wait for each other in a loop: rank 0 threadblock 0 step 0 (line 4)"
		       " waits for rank 1 threadblock 0 step 0 (line 9) waits for rank 0"
		       " threadblock 0 step 0 (line 4)");
}

/* A dependency of a step on a later step of its own threadblock is a loop of one. */
TEST(step_waiting_for_its_own_later_step)
{
	static const char text[] = ALGO("allgather",
		"<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n"
		"<tb id=\"0\" send=\"1\" recv=\"1\" chan=\"0\">\n"
		STEP(0, "s", "i", 0, "o", 0, 1, 0, 1)
		STEP(1, "r", "i", 0, "o", 1, 1, -1, -1)
		"</tb></gpu>\n"
		"<gpu id=\"1\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n"
		"<tb id=\"0\" send=\"0\" recv=\"0\" chan=\"0\">\n"
		STEP(0, "s", "i", 0, "o", 1, 1, -1, -1)
		STEP(1, "r", "i", 0, "o", 0, 1, -1, -1)
		"</tb></gpu>\n");

	expect_refused(_metadata, text, -EINVAL, "a.xml:4: ", "in a loop: rank 0 threadblock 0"
		       " step 0 (line 4) waits for rank 0 threadblock 0 step 0 (line 4)");
}

/* Rank 1 doing nothing; rank 1 receiving one chunk from rank 0. */
#define IDLE1	"<gpu id=\"1\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\"/>\n"
#define RECV1	"<gpu id=\"1\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n" \
		"<tb id=\"0\" send=\"-1\" recv=\"0\" chan=\"0\">\n" \
		STEP(0, "r", "i", 0, "o", 0, 1, -1, -1) "</tb></gpu>\n"
#define IDLE0	"<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\"/>\n"

TEST(refusals_name_the_line)
{
	/* XML that is not well-formed */
	expect_refused(_metadata, "<algo ngpus=\"2\" coll=\"allgather\">\n</gpu>\n", -EINVAL,
		       "a.xml:2: ", "not well-formed XML: mismatched tag");
	/* not MSCCL-IR */
	expect_refused(_metadata, "<schedule/>\n", -EINVAL, "a.xml:1: ",
		       "<schedule> where a <algo> belongs");
	expect_refused(_metadata, ALGO("allgather", "<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"2\""
		       " s_chunks=\"0\"><tb id=\"0\" send=\"1\" recv=\"-1\" chan=\"0\">\n<op step=\"0\""
		       " type=\"s\"/></tb></gpu>"), -EINVAL, "a.xml:3: ", "newer format");
	expect_refused(_metadata, ALGO("allgather", "<gpu id=\"2\"/>\n"), -EINVAL, "a.xml:2: ",
		       "<gpu> id=\"2\": expected a number from 0 to 1");
	expect_refused(_metadata, ALGO("allgather", IDLE0), -EINVAL, "a.xml:1: ",
		       "has no <gpu id=\"1\">");
	expect_refused(_metadata, "<algo coll=\"allgather\" ngpus=\"70000\"/>\n", -EINVAL,
		       "a.xml:1: ", "ngpus=\"70000\": expected a number from 1 to 65536");
	expect_refused(_metadata, ALGO("allgather", IDLE0 "<gpu id=\"1\" i_chunks=\"1\""
		       " o_chunks=\"2\" s_chunks=\"0\">\n<tb id=\"0\" send=\"0\" recv=\"-1\">\n"
		       STEP(0, "s", "i", 0, "o", 0, 1, 1, 0) "</tb></gpu>\n"), -EINVAL,
		       "a.xml:5: ", "depends on step 0 of threadblock 1, which rank 1 does not have");
	/* a collective txnet has no operation for, or with chunks split finer */
	expect_refused(_metadata, ALGO("allreduce",
		       "<gpu id=\"0\" i_chunks=\"2\" o_chunks=\"2\" s_chunks=\"0\"/>\n"
		       "<gpu id=\"1\" i_chunks=\"2\" o_chunks=\"2\" s_chunks=\"0\"/>\n"), -EINVAL,
		       "a.xml:2: ", "rank 0's i_chunks 2: txnet's data-sum moves one message a rank");
	expect_refused(_metadata, ALGO("custom", IDLE0 IDLE1), -EINVAL, "a.xml:1: ",
		       "coll \"custom\"");
	expect_refused(_metadata, ALGO("allgather",
		       "<gpu id=\"0\" i_chunks=\"2\" o_chunks=\"4\" s_chunks=\"0\"/>\n"
		       "<gpu id=\"1\" i_chunks=\"2\" o_chunks=\"4\" s_chunks=\"0\"/>\n"), -EINVAL,
		       "a.xml:2: ", "rank 0's o_chunks 4: txnet's multinode-broadcast moves one"
		       " message a rank (o_chunks = 2)");
}

TEST(steps_that_cannot_run)
{
	static const char no_sender[] = ALGO("allgather", IDLE0 RECV1);
	static const char out_of_range[] = ALGO("allgather",
		"<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n"
		"<tb id=\"0\" send=\"1\" recv=\"-1\" chan=\"0\">\n"
		STEP(0, "s", "o", 2, "o", 0, 1, -1, -1) "</tb></gpu>\n" IDLE1);
	static const char empty_chunk[] = ALGO("allgather",
		"<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n"
		"<tb id=\"0\" send=\"1\" recv=\"-1\" chan=\"0\">\n"
		STEP(0, "s", "o", 1, "o", 0, 1, -1, -1) "</tb></gpu>\n" RECV1);
	static const char reduces_messages[] = ALGO("allgather",
		"<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n"
		"<tb id=\"0\" send=\"-1\" recv=\"-1\" chan=\"0\">\n"
		STEP(0, "re", "i", 0, "i", 0, 1, -1, -1) "</tb></gpu>\n" IDLE1);
	static const char never_received[] = ALGO("allgather",
		"<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n"
		"<tb id=\"0\" send=\"1\" recv=\"-1\" chan=\"0\">\n"
		STEP(0, "s", "i", 0, "o", 0, 1, -1, -1) "</tb></gpu>\n"
		"<gpu id=\"1\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n"
		"<tb id=\"0\" send=\"-1\" recv=\"0\" chan=\"0\"/></gpu>\n");
	static const char no_receiver[] = ALGO("allgather",
		"<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n"
		"<tb id=\"0\" send=\"1\" recv=\"-1\" chan=\"0\">\n"
		STEP(0, "s", "i", 0, "o", 0, 1, -1, -1) "</tb></gpu>\n" IDLE1);

	expect_refused(_metadata, no_sender, -EINVAL, "a.xml:4: ",
		       "threadblock 0 of rank 1 receives from rank 0 on channel 0, where no"
		       " threadblock sends to it");
	expect_refused(_metadata, no_receiver, -EINVAL, "a.xml:3: ",
		       "threadblock 0 of rank 0 sends to rank 1 on channel 0, where no"
		       " threadblock receives from it");
	expect_refused(_metadata, out_of_range, -EINVAL, "a.xml:4: ",
		       "srcbuf o[2] and 1 chunks on: rank 0's buffer o holds 2 chunks");
	expect_refused(_metadata, empty_chunk, -EINVAL, "a.xml:4: ",
		       "rank 0 sends chunk 0 of this s step, which holds nothing");
	expect_refused(_metadata, reduces_messages, -EINVAL, "a.xml:4: ",
		       "reduces a allgather's messages");
	expect_refused(_metadata, never_received, -EINVAL, "a.xml:3: ",
		       "threadblock 0 of rank 0 sends 1 chunks to rank 1 on channel 0 that it never"
		       " receives");
}

/*
 * A data sum's processor holds one partial: what arrives joins it.  Rank
 * 0 receives 1's partial into its scratch buffer and then sends its own,
 * which the replay's 0 no longer holds apart: refused at the step.  And a
 * reduce of two partials that overlap counts a rank twice.
 */
TEST(allreduce_partials)
{
	static const char scratch[] = ALGO("allreduce",
		"<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"1\" s_chunks=\"1\">\n"
		"<tb id=\"0\" send=\"1\" recv=\"1\" chan=\"0\">\n"
		STEP(0, "r", "i", 0, "s", 0, 1, -1, -1)
		STEP(1, "s", "i", 0, "o", 0, 1, -1, -1)
		"</tb></gpu>\n"
		"<gpu id=\"1\" i_chunks=\"1\" o_chunks=\"1\" s_chunks=\"0\">\n"
		"<tb id=\"0\" send=\"0\" recv=\"0\" chan=\"0\">\n"
		STEP(0, "s", "i", 0, "o", 0, 1, -1, -1)
		STEP(1, "r", "i", 0, "o", 0, 1, -1, -1)
		"</tb></gpu>\n");
	static const char twice[] = ALGO("allreduce",
		"<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"1\" s_chunks=\"0\">\n"
		"<tb id=\"0\" send=\"1\" recv=\"1\" chan=\"0\">\n"
		STEP(0, "rrc", "i", 0, "i", 0, 1, -1, -1)
		STEP(1, "s", "i", 0, "i", 0, 1, -1, -1)
		"</tb></gpu>\n"
		"<gpu id=\"1\" i_chunks=\"1\" o_chunks=\"1\" s_chunks=\"0\">\n"
		"<tb id=\"0\" send=\"0\" recv=\"0\" chan=\"0\">\n"
		STEP(0, "s", "i", 0, "i", 0, 1, -1, -1)
		STEP(1, "rrc", "i", 0, "i", 0, 1, -1, -1)
		"</tb></gpu>\n");

	expect_refused(_metadata, scratch, -EINVAL, "a.xml:5: ",
		       "rank 0 sends the sum of ranks 0-0, and holds that of ranks 0-1");
	expect_refused(_metadata, twice, -EINVAL, "a.xml:10: ",
		       "reduces the sum of ranks 0-1 with that of ranks 1-1");
}

TEST_HARNESS_MAIN

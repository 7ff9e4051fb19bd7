// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of txctl's network description files (user/graph_file.c):
 * anynet and edge-list files parsed to the graph their text describes, and
 * every refusal with its errno, the file's name and the line to blame.
 * Every expected count is derived from the file text beside it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "graph_file.h"

#define MAXV	65536
#define MAXC	(1u << 20)

static int parse_text(const char *text, struct graph_file *g, char *msg, size_t msglen)
{
	return graph_file_parse(text, strlen(text), "my.net", MAXV, MAXC, g, msg, msglen);
}

static int cmp_pair(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Whether @g's cables are the @n pairs of @want (each smaller end first), as sets. */
static bool same_cables(const struct graph_file *g, const uint32_t (*want)[2], uint32_t n)
{
	uint32_t (*a)[2], (*b)[2];
	bool same;

	if (g->ncables != n)
		return false;
	a = malloc((n + 1) * sizeof(*a));
	b = malloc((n + 1) * sizeof(*b));
	if (!a || !b) {
		free(a);
		free(b);
		return false;
	}
	memcpy(a, g->cable, n * sizeof(*a));
	memcpy(b, want, n * sizeof(*b));
	qsort(a, n, sizeof(*a), cmp_pair);
	qsort(b, n, sizeof(*b), cmp_pair);
	same = !memcmp(a, b, n * sizeof(*a));
	free(a);
	free(b);
	return same;
}

/*
 * @text is refused with -@err, the message starting "my.net:@line: "
 * ("my.net: " for line 0) and holding @needle, and nothing is left in g.
 */
#define REFUSED(text, len, err, line, needle) do {					\
		struct graph_file g_;							\
		char msg_[512], want_[64];						\
		int ret_ = graph_file_parse(text, len, "my.net", MAXV, MAXC, &g_, msg_,	\
					    sizeof(msg_));				\
											\
		if (line)								\
			snprintf(want_, sizeof(want_), "my.net:%d: ", (int)(line));	\
		else									\
			snprintf(want_, sizeof(want_), "my.net: ");			\
		ASSERT_EQ(-(err), ret_) TH_LOG("%s", msg_);				\
		ASSERT_EQ(0, strncmp(msg_, want_, strlen(want_))) TH_LOG("%s", msg_);	\
		ASSERT_NE(NULL, strstr(msg_, needle)) TH_LOG("%s", msg_);		\
		ASSERT_EQ(NULL, g_.cable);						\
		ASSERT_EQ(NULL, g_.proc_id);						\
		ASSERT_EQ(NULL, g_.switch_id);						\
		ASSERT_EQ(0, g_.procs + g_.switches + g_.ncables);			\
	} while (0)
#define REFUSED_TEXT(text, err, line, needle) REFUSED(text, strlen(text), err, line, needle)

/*
 * BookSim's example has this shape: three routers in a triangle, three
 * nodes on each.  Here the triangle's sides are listed 0-1, 1-2, 2-0 (each
 * once), with latencies of 1 on two of them and a comment line.
 */
static const char triangle[] =
	"# three switches in a triangle, three processors on each\n"
	"router 0 node 0 node 1 node 2 router 1 1\n"
	"router 1 node 3 node 4 node 5 router 2\n"
	"router 2 node 6 node 7 node 8 router 0 1\n";

TEST(booksim_triangle)
{
	struct graph_file g;
	char msg[256];
	uint32_t i;
	/*
	 * nodes 0..8 are processors 0..8, routers 0, 1, 2 vertices 9, 10, 11;
	 * node i is on router i / 3; the sides are {9,10}, {9,11}, {10,11}
	 */
	uint32_t want[12][2];

	for (i = 0; i < 9; i++) {
		want[i][0] = i;
		want[i][1] = 9 + i / 3;
	}
	memcpy(want[9], (uint32_t[2]){ 9, 10 }, sizeof(want[9]));
	memcpy(want[10], (uint32_t[2]){ 9, 11 }, sizeof(want[10]));
	memcpy(want[11], (uint32_t[2]){ 10, 11 }, sizeof(want[11]));

	ASSERT_EQ(0, parse_text(triangle, &g, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_TRUE(g.anynet);
	ASSERT_EQ(9, g.procs);
	ASSERT_EQ(3, g.switches);
	ASSERT_EQ(12, g.ncables);	/* 9 nodes' cables + the 3 sides */
	for (i = 0; i < 9; i++)
		ASSERT_EQ(i, g.proc_id[i]);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(i, g.switch_id[i]);
	/* the documented order: processors' cables by processor, then the sides ascending */
	for (i = 0; i < 12; i++) {
		ASSERT_EQ(want[i][0], g.cable[i][0]) TH_LOG("cable %u", i);
		ASSERT_EQ(want[i][1], g.cable[i][1]) TH_LOG("cable %u", i);
	}
	graph_file_free(&g);
	ASSERT_EQ(NULL, g.cable);
}

/* @text parses to processors @procs (4) and switches @switches (3) by their ids, and cables @want (6). */
static void expect_numbering(struct __test_metadata *_metadata, const char *text,
			     const uint32_t *procs, const uint32_t *switches, const uint32_t (*want)[2])
{
	struct graph_file g;
	char msg[256];
	uint32_t i;

	ASSERT_EQ(0, parse_text(text, &g, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(4, g.procs);
	ASSERT_EQ(3, g.switches);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(procs[i], g.proc_id[i]);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(switches[i], g.switch_id[i]);
	ASSERT_TRUE(same_cables(&g, want, 6));
	graph_file_free(&g);
}

TEST(sparse_unsorted_ids)
{
	/*
	 * nodes 15, 3, 42, 8: ascending 3, 8, 15, 42 are processors 0..3;
	 * routers 70, 20, 5: ascending 5, 20, 70 are vertices 4, 5, 6.
	 * Cables: node 3-router 70 {0,6}, node 8-router 5 {1,4},
	 * node 15-router 70 {2,6}, node 42-router 20 {3,5},
	 * router 20-70 {5,6}, router 5-20 {4,5}.
	 */
	static const char text[] =
		"router 70 node 15 node 3\n"
		"router 20 node 42 router 70\n"
		"router 5 node 8 router 20\n";
	static const uint32_t want[6][2] = {
		{ 0, 6 }, { 1, 4 }, { 2, 6 }, { 3, 5 }, { 5, 6 }, { 4, 5 },
	};
	static const uint32_t procs[4] = { 3, 8, 15, 42 }, switches[3] = { 5, 20, 70 };

	expect_numbering(_metadata, text, procs, switches, want);
}

TEST(sparse_large_ids)
{
	/*
	 * sparse_unsorted_ids with every id times 10000000: ids far above the
	 * count of mentions are numbered by a sort, not a table, and as their
	 * order is the same, so are the ranks and the cables.
	 */
	static const char text[] =
		"router 700000000 node 150000000 node 30000000\n"
		"router 200000000 node 420000000 router 700000000\n"
		"router 50000000 node 80000000 router 200000000\n";
	static const uint32_t want[6][2] = {
		{ 0, 6 }, { 1, 4 }, { 2, 6 }, { 3, 5 }, { 5, 6 }, { 4, 5 },
	};
	static const uint32_t procs[4] = { 30000000, 80000000, 150000000, 420000000 };
	static const uint32_t switches[3] = { 50000000, 200000000, 700000000 };

	expect_numbering(_metadata, text, procs, switches, want);
}

TEST(earliest_error_wins)
{
	/* a node on two routers (line 2) before a malformed line (3) */
	REFUSED_TEXT("router 1 node 7 router 2\nrouter 2 node 7\nrouter x\n", EINVAL, 2,
		     "node 7 attached to router 2, but line 1 attached it to router 1");
	/* a malformed line (1) before a node on two routers (3) */
	REFUSED_TEXT("router x\nrouter 1 node 7 router 2\nrouter 2 node 7\n", EINVAL, 1,
		     "expected a router id (");
	/* the cable past max_cables 1 (line 2) before the node on two routers (3) */
	{
		static const char text[] =
			"router 1 node 7\nrouter 1 node 8\nrouter 2 node 7\n";
		struct graph_file g;
		char msg[256];

		ASSERT_EQ(-E2BIG, graph_file_parse(text, strlen(text), "my.net", MAXV, 1, &g, msg,
						   sizeof(msg)));
		ASSERT_STREQ("my.net:2: more than max_cables 1 cables", msg);
	}
	/* the triangle's vertex past max_nodes 11 (line 4) before a malformed line 5 */
	{
		char text[512];
		struct graph_file g;
		char msg[256];

		snprintf(text, sizeof(text), "%srouter 5 nod 5\n", triangle);
		ASSERT_EQ(-E2BIG, graph_file_parse(text, strlen(text), "my.net", 11, MAXC, &g, msg,
						   sizeof(msg)));
		ASSERT_STREQ("my.net:4: more than max_nodes 11 vertices", msg);
		/* within the limit, the malformed line is what is wrong */
		ASSERT_EQ(-EINVAL, graph_file_parse(text, strlen(text), "my.net", 12, MAXC, &g, msg,
						    sizeof(msg)));
		ASSERT_EQ(0, strncmp(msg, "my.net:5: ", 10)) TH_LOG("%s", msg);
	}
}

TEST(cable_listed_again_is_one)
{
	/*
	 * The cable between routers 1 and 2 is listed from router 1 (line 1),
	 * from router 2 (line 2) and from router 2 again (line 3); node 10
	 * twice under router 1.  Processors: nodes 10, 20 (0, 1); routers 1, 2
	 * (2, 3); cables {0,2}, {1,3}, {2,3}: three.
	 */
	static const char text[] =
		"router 1 node 10 router 2\n"
		"router 2 node 20 router 1\n"
		"router 2 router 1 1	# the same cable, from the same end as line 2\n"
		"router 1 node 10\n";
	static const char once[] = "router 1 node 10 router 2\nrouter 2 node 20\n";
	static const uint32_t want[3][2] = { { 0, 2 }, { 1, 3 }, { 2, 3 } };
	struct graph_file g, h;
	char msg[256];

	ASSERT_EQ(0, parse_text(text, &g, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_TRUE(same_cables(&g, want, 3));
	ASSERT_EQ(0, parse_text(once, &h, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(h.ncables, g.ncables);
	ASSERT_EQ(0, memcmp(h.cable, g.cable, g.ncables * sizeof(*g.cable)));
	graph_file_free(&g);
	graph_file_free(&h);
	/* merged listings count once against the limit: 3 cables fit max_cables 3 */
	ASSERT_EQ(0, graph_file_parse(text, strlen(text), "my.net", MAXV, 3, &g, msg,
				      sizeof(msg))) TH_LOG("%s", msg);
	graph_file_free(&g);
}

TEST(node_heads_comments_blanks)
{
	/*
	 * "node N router R" lines (BookSim reads them too), CRLF line ends,
	 * tabs, a comment before the first word and comments glued to words.
	 * Nodes 1, 2 on router 7 (vertex 2): cables {0,2}, {1,2}.
	 */
	static const char text[] =
		"# leading comment\r\n"
		"\n"
		"   \t\n"
		"node 1\trouter 7 1\r\n"
		"node 2 router 7#glued comment\r\n"
		"router 7 node 2 # listed again\n";
	static const uint32_t want[2][2] = { { 0, 2 }, { 1, 2 } };
	struct graph_file g;
	char msg[256];

	ASSERT_EQ(0, parse_text(text, &g, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_TRUE(g.anynet);
	ASSERT_EQ(2, g.procs);
	ASSERT_EQ(1, g.switches);
	ASSERT_TRUE(same_cables(&g, want, 2));
	graph_file_free(&g);
}

TEST(latency)
{
	struct graph_file g;
	char msg[256];

	/* 1 is a txnet link's one tick, written any way */
	ASSERT_EQ(0, parse_text("router 0 node 0 1 node 1 router 1 01\nrouter 1 node 2 1\n", &g,
				msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(3, g.procs);
	graph_file_free(&g);
	REFUSED_TEXT("router 0 node 0 node 1 router 1\nrouter 1 node 2 router 0 2\n", EINVAL, 2,
		     "latency 2: txnet's links take one tick");
	REFUSED_TEXT("router 0 node 0 0 node 1\n", EINVAL, 1, "latency 0: txnet's links take one tick");
	REFUSED_TEXT("router 0 node 0\nrouter 0 node 1 99999999999\n", EINVAL, 2,
		     "latency 99999999999: txnet's links take one tick");
	/* one latency an entry: BookSim would keep the last */
	REFUSED_TEXT("router 0 node 0 node 1 1 1\n", EINVAL, 1,
		     "expected \"node\" or \"router\" after the latency of node 1, found \"1\"");
	/* a latency follows an entry, not the head */
	REFUSED_TEXT("router 0 1 node 0 node 1\n", EINVAL, 1,
		     "expected \"node\" or \"router\" after router 0, found \"1\"");
}

TEST(edge_list)
{
	/*
	 * A ring of four on ids 10, 20, 30, 40 (processors 0..3), comments
	 * anywhere, a blank line, and the cable 10 20 listed again as 20 10:
	 * cables {0,1}, {1,2}, {2,3}, {0,3}.
	 */
	static const char text[] =
		"# a ring of four\n"
		"10 20   # the first cable\n"
		"20 30\n"
		"\t# an indented comment\n"
		"\n"
		"30 40#glued\n"
		"40\t10\r\n"
		"20 10\n";
	static const uint32_t want[4][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 0, 3 } };
	struct graph_file g;
	char msg[256];
	uint32_t i;

	ASSERT_EQ(0, parse_text(text, &g, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_FALSE(g.anynet);
	ASSERT_EQ(4, g.procs);
	ASSERT_EQ(0, g.switches);
	for (i = 0; i < 4; i++)
		ASSERT_EQ(10 * (i + 1), g.proc_id[i]);
	ASSERT_TRUE(same_cables(&g, want, 4));
	graph_file_free(&g);

	/* the largest id: 0 is processor 0, 4294967295 processor 1 */
	ASSERT_EQ(0, parse_text("4294967295 0\n", &g, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(2, g.procs);
	ASSERT_EQ(4294967295u, g.proc_id[1]);
	graph_file_free(&g);
}

/* The same graph in another order comes out the same: the kernel's digest of it then agrees. */
TEST(canonical_order)
{
	/* the triangle with its lines, entries and cable ends in other orders */
	static const char shuffled[] =
		"router 2 router 1 node 8 node 7 node 6\n"
		"router 1 node 5 node 4 node 3 router 0\n"
		"router 0 node 2 node 1 node 0 router 2\n";
	struct graph_file a, b;
	char msg[256];

	ASSERT_EQ(0, parse_text(triangle, &a, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(0, parse_text(shuffled, &b, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(a.ncables, b.ncables);
	ASSERT_EQ(0, memcmp(a.cable, b.cable, a.ncables * sizeof(*a.cable)));
	graph_file_free(&a);
	graph_file_free(&b);
}

TEST(refuse_malformed_anynet)
{
	REFUSED_TEXT("router 3 node 1 router 4\nrouter 4 node 2\nrouter 4 nod 5\n", EINVAL, 3,
		     "expected \"node\" or \"router\" after router 4, found \"nod\"");
	REFUSED_TEXT("router 3 node 1 router 4\nrouter 4 node 2 Router 3\n", EINVAL, 2,
		     "expected \"node\", \"router\" or a latency after node 2, found \"Router\"");
	REFUSED_TEXT("router 1 node 1 node 2\n5 6\n", EINVAL, 2,
		     "expected \"router\" or \"node\" at the start of a line, found \"5\"");
	REFUSED_TEXT("router 1 node 1 node 2\nrouter\n", EINVAL, 2,
		     "expected a router id after \"router\", found the end of the line");
	REFUSED_TEXT("router 1 node 1 node\n", EINVAL, 1,
		     "expected a node id after \"node\", found the end of the line");
	REFUSED_TEXT("router 1 node x\n", EINVAL, 1, "expected a node id (");
	REFUSED_TEXT("router 1 node +1\n", EINVAL, 1, "found \"+1\"");
	REFUSED_TEXT("router 1 node -1\n", EINVAL, 1, "found \"-1\"");
	REFUSED_TEXT("router 1 node 0x1\n", EINVAL, 1, "found \"0x1\"");
	REFUSED_TEXT("router 4294967296 node 1\n", EINVAL, 1,
		     "expected a router id (a decimal number, 0 to 4294967295) after \"router\", found \"4294967296\"");
	REFUSED_TEXT("node 1 node 2\n", EINVAL, 1,
		     "node 1 cannot be cabled to node 2: a node attaches to a router");
	/* a NUL is an ordinary byte of a word, shown as '?' */
	REFUSED("router 1 node 1\0 node 2\n", 24, EINVAL, 1, "found \"1?\"");
}

TEST(refuse_malformed_edge_list)
{
	REFUSED_TEXT("1 2\n3\n", EINVAL, 2,
		     "expected a second processor id after 3, found the end of the line");
	REFUSED_TEXT("1 2\n2 x\n", EINVAL, 2, "expected a second processor id (");
	REFUSED_TEXT("1 2 3\n", EINVAL, 1, "expected the end of the line after the cable 1 2, found \"3\"");
	REFUSED_TEXT("1 2\nrouter 1 node 3\n", EINVAL, 2, "expected a processor id (");
	/* the first line's word may be a misspelt anynet head */
	REFUSED_TEXT("# a comment\nRouter 1 node 3\n", EINVAL, 2, "or, for anynet, \"router\"");
	REFUSED_TEXT("1 -2\n", EINVAL, 1, "found \"-2\"");
	REFUSED_TEXT("4294967296 1\n", EINVAL, 1, "found \"4294967296\"");
}

TEST(refuse_node_on_two_routers)
{
	REFUSED_TEXT("router 1 node 7 router 2\nrouter 2 node 8\nrouter 2 node 7\n", EINVAL, 3,
		     "node 7 attached to router 2, but line 1 attached it to router 1");
	REFUSED_TEXT("router 1 node 7 router 2\nnode 7 router 1 router 2\n", EINVAL, 2,
		     "node 7 attached to router 2, but line 1 attached it to router 1");
}

TEST(refuse_self_loops)
{
	REFUSED_TEXT("router 1 node 1 node 2\nrouter 1 router 1\n", EINVAL, 2,
		     "router 1 is cabled to itself");
	REFUSED_TEXT("1 2\n3 3\n", EINVAL, 2, "cable 3 3 joins processor 3 to itself");
}

TEST(refuse_too_few_processors)
{
	REFUSED_TEXT("", EINVAL, 0, "no processors");
	REFUSED("", 0, EINVAL, 0, "no processors");
	REFUSED_TEXT("# nothing but comments\n\n", EINVAL, 0, "no processors");
	REFUSED_TEXT("router 1 router 2\n", EINVAL, 0, "no processors");
	REFUSED_TEXT("router 1 router 2\nrouter 2 node 5\n", EINVAL, 2,
		     "node 5 is the only processor; a network needs two");
}

TEST(refuse_unattached)
{
	REFUSED_TEXT("router 1 node 1 node 2\nrouter 9\n", EINVAL, 2,
		     "router 9 has no cables, so it could carry nothing");
	REFUSED_TEXT("router 1 node 1 node 2\nnode 3\n", EINVAL, 2,
		     "node 3 is attached to no router");
}

TEST(refuse_disconnected)
{
	/* nodes 1, 2 on router 1; nodes 3, 4 on routers 2 and 3, cabled to each other */
	REFUSED_TEXT("router 1 node 1 node 2\nrouter 2 node 3 router 3\nrouter 3 node 4\n", EINVAL,
		     2, "node 3 cannot be reached from node 1");
	/* 1-2 from 1; of 3, 4, 5, 6 the smallest is 3, first seen on line 3 */
	REFUSED_TEXT("1 2\n5 6\n3 4\n", EINVAL, 3, "processor 3 cannot be reached from processor 1");
	/* the processors reach each other, routers 5 and 6 only each other */
	REFUSED_TEXT("router 1 node 1 node 2\nrouter 5 router 6\n", EINVAL, 2,
		     "router 5 cannot be reached from node 1");
}

TEST(refuse_over_limits)
{
	struct graph_file g;
	char msg[256];
	int ret;

	/*
	 * The triangle: 12 vertices, the 12th (node 8) on line 4, and 12
	 * cables, the 12th (router 2-0) on line 4 (line 1 is its comment).
	 */
	ret = graph_file_parse(triangle, strlen(triangle), "my.net", 11, MAXC, &g, msg, sizeof(msg));
	ASSERT_EQ(-E2BIG, ret);
	ASSERT_STREQ("my.net:4: more than max_nodes 11 vertices", msg);
	ret = graph_file_parse(triangle, strlen(triangle), "my.net", 12, MAXC, &g, msg, sizeof(msg));
	ASSERT_EQ(0, ret) TH_LOG("%s", msg);
	graph_file_free(&g);
	ret = graph_file_parse(triangle, strlen(triangle), "my.net", MAXV, 11, &g, msg, sizeof(msg));
	ASSERT_EQ(-E2BIG, ret);
	ASSERT_STREQ("my.net:4: more than max_cables 11 cables", msg);
	ASSERT_EQ(NULL, g.cable);
	ret = graph_file_parse(triangle, strlen(triangle), "my.net", MAXV, 12, &g, msg, sizeof(msg));
	ASSERT_EQ(0, ret) TH_LOG("%s", msg);
	graph_file_free(&g);
	/* limits past what u32 counts hold are the same as none */
	ret = graph_file_parse(triangle, strlen(triangle), "my.net", UINT64_MAX, UINT64_MAX, &g,
			       msg, sizeof(msg));
	ASSERT_EQ(0, ret) TH_LOG("%s", msg);
	graph_file_free(&g);
	/* the edge list: 1 2, 2 3 is 3 vertices and 2 cables, over on line 2 */
	ret = graph_file_parse("1 2\n2 3\n", 8, "my.net", 2, MAXC, &g, msg, sizeof(msg));
	ASSERT_EQ(-E2BIG, ret);
	ASSERT_STREQ("my.net:2: more than max_nodes 2 vertices", msg);
	ret = graph_file_parse("1 2\n2 3\n", 8, "my.net", MAXV, 1, &g, msg, sizeof(msg));
	ASSERT_EQ(-E2BIG, ret);
	ASSERT_STREQ("my.net:2: more than max_cables 1 cables", msg);
}

TEST(messages_bounded)
{
	struct graph_file g;
	char msg[8], big[512];
	size_t n = 2u << 20;
	char *text = malloc(n + 64);
	int ret;

	ASSERT_NE(NULL, text);
	/* a 2 MiB word: quoted in 32 bytes and "..." */
	strcpy(text, "router 1 node 1 node 2 ");
	memset(text + strlen(text), 'x', n);
	text[23 + n] = '\n';
	ret = graph_file_parse(text, 24 + n, "my.net", MAXV, MAXC, &g, big, sizeof(big));
	ASSERT_EQ(-EINVAL, ret);
	ASSERT_NE(NULL, strstr(big, "found \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\"")) TH_LOG("%s", big);
	ASSERT_LT(strlen(big), 200);
	/* a short buffer gets a truncated message, a missing one none */
	ret = graph_file_parse(text, 24 + n, "my.net", MAXV, MAXC, &g, msg, sizeof(msg));
	ASSERT_EQ(-EINVAL, ret);
	ASSERT_STREQ("my.net:", msg);
	ASSERT_EQ(-EINVAL, graph_file_parse(text, 24 + n, "my.net", MAXV, MAXC, &g, NULL, 0));
	free(text);
}

TEST(long_line)
{
	/* one line "router 0 node 0 node 1 ... node 199999": 200000 processors, 1 switch */
	uint32_t i, n = 200000;
	size_t cap = 16 + 16 * (size_t)n, len;
	char *text = malloc(cap), msg[256];
	struct graph_file g;

	ASSERT_NE(NULL, text);
	len = (size_t)snprintf(text, cap, "router 0");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len, " node %u", i);
	ASSERT_LT(1u << 20, len);	/* over a MiB on one line */
	ASSERT_EQ(0, graph_file_parse(text, len, "my.net", 1u << 24, MAXC, &g, msg, sizeof(msg)))
		TH_LOG("%s", msg);
	ASSERT_EQ(n, g.procs);
	ASSERT_EQ(1, g.switches);
	ASSERT_EQ(n, g.ncables);
	graph_file_free(&g);
	free(text);
}

TEST(million_cables)
{
	/*
	 * A ring of 1000000 processors, processor ids i * 2654435761 mod 2^32
	 * (odd, so distinct), listed around the ring: 1000000 cables, and the
	 * ids' sorted order differs from the file's.
	 */
	uint32_t i, n = 1000000;
	size_t cap = 24 * (size_t)n, len = 0;
	char *text = malloc(cap), msg[256];
	struct graph_file g;
	struct timespec t0, t1;

	ASSERT_NE(NULL, text);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len, "%u %u\n", i * 2654435761u,
					((i + 1) % n) * 2654435761u);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, graph_file_parse(text, len, "my.net", 1u << 24, 1u << 24, &g, msg,
				      sizeof(msg))) TH_LOG("%s", msg);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	TH_LOG("1000000 cables in %.3f s (sanitized build)",
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	ASSERT_EQ(n, g.procs);
	ASSERT_EQ(n, g.ncables);
	for (i = 1; i < n; i++)
		ASSERT_LT(g.proc_id[i - 1], g.proc_id[i]);
	graph_file_free(&g);
	free(text);
}

TEST(wide_cable_keys)
{
	/*
	 * A path of n = 2^21 + 1 processors, 0 - 1 - ... - 2^21, each cable
	 * listed twice ("i i+1", later "i+1 i"): 2^21 distinct cables among
	 * 2^22 listings.  Ranks take 22 bits and a listing's index 22, too
	 * many to pack beside a pair of ranks in 64 bits: the cables are
	 * sorted with their indices beside the keys.  Processor i is id i, so
	 * the cables must come out as {i, i + 1}, ascending.
	 */
	uint32_t i, n = (1u << 21) + 1;
	size_t cap = 48 * (size_t)n, len = 0;
	char *text = malloc(cap), msg[256];
	struct graph_file g;

	ASSERT_NE(NULL, text);
	/* odd cables forwards first, then even ones, then all backwards */
	for (i = 1; i + 1 < n; i += 2)
		len += (size_t)snprintf(text + len, cap - len, "%u %u\n", i, i + 1);
	for (i = 0; i + 1 < n; i += 2)
		len += (size_t)snprintf(text + len, cap - len, "%u %u\n", i, i + 1);
	for (i = n - 1; i > 0; i--)
		len += (size_t)snprintf(text + len, cap - len, "%u %u\n", i, i - 1);
	ASSERT_EQ(0, graph_file_parse(text, len, "my.net", 1u << 24, 1u << 24, &g, msg,
				      sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(n, g.procs);
	ASSERT_EQ(n - 1, g.ncables);
	for (i = 0; i + 1 < n; i++) {
		ASSERT_EQ(i, g.cable[i][0]);
		ASSERT_EQ(i + 1, g.cable[i][1]);
	}
	graph_file_free(&g);
	free(text);
}

TEST(read_file)
{
	char path[] = "/tmp/graph_file_test.XXXXXX", msg[512];
	struct graph_file g;
	int fd;

	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)strlen(triangle), write(fd, triangle, strlen(triangle)));
	close(fd);
	ASSERT_EQ(0, graph_file_read(path, MAXV, MAXC, &g, msg, sizeof(msg))) TH_LOG("%s", msg);
	ASSERT_EQ(9, g.procs);
	graph_file_free(&g);
	/* a refusal names the path it was given */
	fd = open(path, O_WRONLY | O_APPEND);
	ASSERT_LE(0, fd);
	ASSERT_EQ(9, write(fd, "router 7\n", 9));
	close(fd);
	ASSERT_EQ(-EINVAL, graph_file_read(path, MAXV, MAXC, &g, msg, sizeof(msg)));
	ASSERT_EQ(0, strncmp(msg, path, strlen(path)));
	ASSERT_NE(NULL, strstr(msg, ":5: router 7 has no cables")) TH_LOG("%s", msg);
	unlink(path);
	ASSERT_EQ(-ENOENT, graph_file_read(path, MAXV, MAXC, &g, msg, sizeof(msg)));
	ASSERT_NE(NULL, strstr(msg, "No such file")) TH_LOG("%s", msg);
	ASSERT_EQ(-EISDIR, graph_file_read("/tmp", MAXV, MAXC, &g, msg, sizeof(msg)));
	ASSERT_STREQ("/tmp: Is a directory", msg);
}

TEST_HARNESS_MAIN

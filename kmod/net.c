// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of networks: creation, lookup, destruction, and the two
 * ways networks die without being asked (their netns exits, the module
 * unloads).
 *
 * One mutex, txnet_lock, covers the list, names, ids and settings.  Names
 * are unique module-wide, not per netns, because /sys/kernel/txnet is one
 * tree shared by every namespace; netlink only ever shows a netns its own
 * networks.
 */
#include <linux/bitmap.h>
#include <linux/slab.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "txnet.h"
#include "core/cables.h"

DEFINE_MUTEX(txnet_lock);
LIST_HEAD(txnet_nets);
u32 txnet_generation = 1;	/* 0 would disable dump consistency checks */

static u32 txnet_next_id = 1;
static u64 txnet_mem_charged;		/* under txnet_mem_lock */
static DEFINE_SPINLOCK(txnet_mem_lock);
static bool txnet_dying;

static struct txnet_net *find_name(const char *name)
{
	struct txnet_net *tn;

	list_for_each_entry(tn, &txnet_nets, node)
		if (!strcmp(tn->name, name))
			return tn;
	return NULL;
}

struct txnet_net *txnet_net_find(struct net *net, const char *name)
{
	struct txnet_net *tn;

	lockdep_assert_held(&txnet_lock);
	tn = find_name(name);
	if (tn && !net_eq(txnet_net_ns(tn), net))
		return NULL;
	return tn;
}

/*
 * The smallest N for which "txnetN" is free, as netdev names are picked:
 * one pass marks the numbers in use in a bitmap (among n networks the
 * answer is at most n), so creating many unnamed networks stays linear.
 */
static int pick_name(char *buf)
{
	unsigned long *used, count = 1, i;
	char canon[TXNET_NAME_LEN];
	struct txnet_net *tn;
	unsigned int num;

	list_for_each_entry(tn, &txnet_nets, node)
		count++;
	used = bitmap_zalloc(count, GFP_KERNEL | __GFP_NOWARN);
	if (!used)
		return -ENOMEM;
	list_for_each_entry(tn, &txnet_nets, node) {
		if (sscanf(tn->name, "txnet%u", &num) != 1 || num >= count)
			continue;
		/* only the name pick_name() would give: "txnet07" does not hold 7 */
		snprintf(canon, sizeof(canon), "txnet%u", num);
		if (!strcmp(canon, tn->name))
			__set_bit(num, used);
	}
	i = find_first_zero_bit(used, count);
	bitmap_free(used);
	snprintf(buf, TXNET_NAME_LEN, "txnet%lu", i);
	return 0;
}

static bool name_valid(const char *name)
{
	const char *p;

	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (p = name; *p; p++)
		if (*p == '/' || *p <= ' ' || *p > '~')
			return false;
	return true;
}

/* Take @bytes from mem_budget, or -ENOSPC when it has not that much left. */
int txnet_mem_charge(u64 bytes)
{
	u64 budget = READ_ONCE(txnet_mem_budget);
	int ret = -ENOSPC;

	spin_lock(&txnet_mem_lock);
	if (bytes <= budget && txnet_mem_charged <= budget - bytes) {
		txnet_mem_charged += bytes;
		ret = 0;
	}
	spin_unlock(&txnet_mem_lock);
	return ret;
}

void txnet_mem_uncharge(u64 bytes)
{
	spin_lock(&txnet_mem_lock);
	WARN_ON_ONCE(bytes > txnet_mem_charged);
	txnet_mem_charged -= min(bytes, txnet_mem_charged);
	spin_unlock(&txnet_mem_lock);
}

const struct txn_budget txnet_mem_charger = {
	.charge = txnet_mem_charge,
	.uncharge = txnet_mem_uncharge,
};

u64 txnet_mem_used(void)
{
	u64 used;

	spin_lock(&txnet_mem_lock);
	used = txnet_mem_charged;
	spin_unlock(&txnet_mem_lock);
	return used;
}

/*
 * What one network costs: its graph, the struct itself and its tick
 * thread's kernel stack, so that the budget also bounds how many threads
 * networks can start.
 */
static u64 net_cost(const struct txn_counts *counts)
{
	return txn_graph_bytes(counts) + sizeof(struct txnet_net) + THREAD_SIZE;
}

/* The fault table (fault.c): three bitmaps, over the links and the vertices. */
static u64 faults_cost(const struct txn_counts *counts)
{
	return (2 * ((counts->links + 63) / 64) + (counts->nodes + 63) / 64) * sizeof(u64);
}

/* txn_spec_validate() under max_nodes, its refusal as the requests report one. */
int txnet_spec_counts(struct txn_spec *spec, struct txn_counts *counts,
		      struct txnet_create_err *err)
{
	struct txn_spec_error serr = { .dim = -1 };
	int ret;

	ret = txn_spec_validate(spec, READ_ONCE(txnet_max_nodes), counts, &serr);
	if (ret) {
		err->msg = serr.msg;
		err->dim = serr.dim;
		err->field = serr.field;
	}
	return ret;
}

/*
 * A graph's counts, from its list of cables (core/cables.c re-checks
 * everything txctl checked); shared by NEW and BOUNDS.
 */
int txnet_cables_count(const struct txn_spec *spec, const u32 *cables, u32 ncables,
		       struct txn_counts *counts, struct txnet_create_err *err)
{
	struct txn_cables c = { .n = ncables, .pair = cables };
	struct txn_cables_error cerr;
	int ret;

	if (spec->ndims != 2) {
		err->msg = "a graph takes two sizes: its processors and its switches";
		err->field = TXNET_A_DIMS;
		return -EINVAL;
	}
	c.procs = spec->size[0];
	c.switches = spec->size[1];
	ret = txn_cables_count(&c, READ_ONCE(txnet_max_nodes), counts, &cerr);
	if (ret) {
		err->msg = cerr.msg;
		err->field = cerr.cable == TXN_CABLES_NONE ? TXNET_A_DIMS : TXNET_A_CABLES;
	}
	return ret;
}

/* The graph of a counted list; the caller charged txnet_cables_search_bytes() for it. */
int txnet_cables_graph(const struct txn_spec *spec, const u32 *cables, u32 ncables,
		       struct txn_counts *counts, struct txn_graph *g, bool *exact,
		       struct txnet_create_err *err)
{
	struct txn_cables c = {
		.procs = spec->size[0], .switches = spec->size[1], .n = ncables, .pair = cables,
	};
	struct txn_cables_error cerr = {};
	int ret;

	ret = txn_graph_from_cables(&c, counts, g, exact, &cerr);
	if (ret) {
		err->msg = ret == -ENOMEM ? "out of memory for the network's graph" :
			   cerr.msg ?: "could not build the network's graph";
		err->field = cerr.cable != TXN_CABLES_NONE || cerr.vertex != TXN_CABLES_NONE ?
			     TXNET_A_CABLES : TXNET_A_DIMS;
		return ret;
	}
	counts->diameter = g->diameter;
	return 0;
}

/* The searches of building a graph from cables: four arrays a vertex. */
u64 txnet_cables_search_bytes(const struct txn_counts *counts)
{
	return 4 * counts->nodes * sizeof(u32);
}

/*
 * The file numbers of a graph's vertices: one a vertex, ascending among
 * the processors and among the switches, as txctl numbers them.
 */
static int check_vertex_ids(const struct txnet_create_req *req, const struct txn_counts *counts,
			    struct txnet_create_err *err)
{
	u32 v;

	if (req->nvertex_ids != counts->nodes) {
		err->msg = "vertex ids must number every vertex, one each";
		err->field = TXNET_A_VERTEX_IDS;
		return -EINVAL;
	}
	for (v = 1; v < req->nvertex_ids; v++)
		if (v != counts->procs && req->vertex_ids[v] <= req->vertex_ids[v - 1]) {
			err->msg = "vertex ids must ascend among the processors and among the switches";
			err->field = TXNET_A_VERTEX_IDS;
			return -EINVAL;
		}
	return 0;
}

/* The graph of a NEW's cables, its digest, and the vertex ids kept. */
static int build_cables(struct txnet_net *tn, const struct txnet_create_req *req,
			struct txnet_create_err *err)
{
	struct txn_cables c = {
		.procs = tn->spec.size[0], .switches = tn->spec.size[1],
		.n = req->ncables, .pair = req->cables,
	};
	bool exact;
	int ret;

	ret = txnet_cables_graph(&tn->spec, req->cables, req->ncables, &tn->counts, &tn->graph,
				 &exact, err);
	if (ret)
		return ret;
	tn->diameter_at_least = !exact;
	tn->digest = txn_cables_digest(&c);
	if (req->vertex_ids) {
		tn->vertex_id = kvmalloc_array(req->nvertex_ids, sizeof(u32), GFP_KERNEL_ACCOUNT);
		if (!tn->vertex_id) {
			txn_graph_free(&tn->graph);
			err->msg = "out of memory for the vertex ids";
			return -ENOMEM;
		}
		memcpy(tn->vertex_id, req->vertex_ids, req->nvertex_ids * sizeof(u32));
	}
	return 0;
}

/*
 * The spec as sysfs and GET give it: a graph's counts are its sizes, and
 * the cables and their digest say which graph it is.
 */
static void format_spec(struct txnet_net *tn)
{
	size_t len = txn_spec_format(&tn->spec, tn->spec_str, sizeof(tn->spec_str));

	if (tn->spec.topo == TXNET_TOPO_GRAPH && len < sizeof(tn->spec_str))
		snprintf(tn->spec_str + len, sizeof(tn->spec_str) - len, " cables %llu digest %016llx",
			 tn->counts.links / 2, tn->digest);
}

struct txnet_net *txnet_net_prepare(struct net *net, const struct txnet_create_req *req,
				    struct txnet_create_err *err)
{
	bool graph = req->spec.topo == TXNET_TOPO_GRAPH;
	struct txnet_net *tn;
	u64 cost, transient = 0;
	int ret;

	err->dim = -1;
	err->field = 0;
	if (req->name && !name_valid(req->name)) {
		err->msg = "name must be printable, without spaces or '/'";
		err->field = TXNET_A_NAME;
		return ERR_PTR(-EINVAL);
	}
	if (!graph && (req->cables || req->vertex_ids)) {
		err->msg = "cables and vertex ids are only for a graph";
		err->field = req->cables ? TXNET_A_CABLES : TXNET_A_VERTEX_IDS;
		return ERR_PTR(-EINVAL);
	}

	tn = kzalloc(sizeof(*tn), GFP_KERNEL_ACCOUNT);
	if (!tn) {
		err->msg = "out of memory for the network";
		return ERR_PTR(-ENOMEM);
	}
	tn->spec = req->spec;
	if (graph) {
		ret = txnet_cables_count(&tn->spec, req->cables, req->ncables, &tn->counts, err);
		if (!ret && req->vertex_ids)
			ret = check_vertex_ids(req, &tn->counts, err);
		if (ret)
			goto err_free;
	} else {
		ret = txnet_spec_counts(&tn->spec, &tn->counts, err);
		if (ret)
			goto err_free;
	}

	cost = net_cost(&tn->counts) + faults_cost(&tn->counts);
	if (graph) {
		cost += req->vertex_ids ? tn->counts.nodes * sizeof(u32) : 0;
		transient = txnet_cables_search_bytes(&tn->counts);
	}
	ret = txnet_mem_charge(cost + transient);
	if (ret) {
		err->msg = "network needs more memory than the mem_budget limit leaves";
		err->field = TXNET_A_DIMS;
		goto err_free;
	}
	if (graph) {
		ret = build_cables(tn, req, err);
		txnet_mem_uncharge(transient);
	} else {
		ret = txn_graph_build(&tn->spec, &tn->counts, &tn->graph);
		if (ret)
			err->msg = ret == -ENOMEM ? "out of memory for the network's graph" :
						    "could not build the network's graph";
	}
	if (ret) {
		txnet_mem_uncharge(cost);
		goto err_free;
	}
	ret = txnet_faults_init(&tn->faults, &tn->graph);
	if (ret) {
		kvfree(tn->vertex_id);
		txn_graph_free(&tn->graph);
		txnet_mem_uncharge(cost);
		err->msg = "out of memory for the network's fault table";
		goto err_free;
	}
	tn->mem_bytes = cost;
	/* products only: from the factors, nothing to allocate or search */
	tn->has_te = !txn_te_figures(&tn->spec, &tn->graph, false, &tn->te);

	format_spec(tn);
	tn->port_model = req->port_model ?: TXNET_PORT_ALL;
	tn->tick_ns = req->tick_ns;
	tn->want_netdev = req->netdev;
	tn->state = TXNET_STATE_IDLE;
	init_waitqueue_head(&tn->wq);
	mutex_init(&tn->res_lock);
	write_pnet(&tn->pnet, net);
	return tn;

err_free:
	kfree(tn);
	return ERR_PTR(ret);
}

/* Memory goes here only: the kobject's release, or a registration that failed early. */
void txnet_net_free(struct txnet_net *tn)
{
	txnet_result_release(&tn->last);
	txnet_faults_free(&tn->faults);
	kvfree(tn->vertex_id);
	txn_graph_free(&tn->graph);
	txnet_mem_uncharge(tn->mem_bytes);
	kfree(tn);
}

int txnet_net_register(struct txnet_net *tn, const char *name, struct txnet_create_err *err)
{
	int ret;

	lockdep_assert_held(&txnet_lock);
	if (txnet_dying) {
		err->msg = "txnet is being unloaded";
		ret = -ENODEV;
		goto err_free;
	}
	if (name) {
		if (find_name(name)) {
			err->msg = "a network with this name already exists";
			err->field = TXNET_A_NAME;
			ret = -EEXIST;
			goto err_free;
		}
		strscpy(tn->name, name, sizeof(tn->name));
	} else {
		ret = pick_name(tn->name);
		if (ret) {
			err->msg = "out of memory while picking a txnetN name";
			goto err_free;
		}
	}
	tn->id = txnet_next_id;
	ret = tn->want_netdev ? txnet_fabric_check(tn, &err->msg) : 0;
	if (ret) {
		err->dim = -1;
		err->field = TXNET_A_NETDEV;
		goto err_free;
	}

	/* From here the kobject owns tn: errors go through txnet_sysfs_put(). */
	ret = txnet_sysfs_add(tn);
	if (ret) {
		err->msg = "could not create the sysfs directory";
		goto err_put;
	}
	ret = txnet_tick_start(tn);
	if (ret) {
		err->msg = "could not start the tick thread";
		txnet_sysfs_del(tn);
		goto err_put;
	}
	if (tn->want_netdev) {
		ret = txnet_fabric_create(tn, &err->msg);
		if (ret) {
			err->dim = -1;
			err->field = TXNET_A_NETDEV;
			txnet_tick_stop(tn);
			txnet_sysfs_del(tn);
			goto err_put;
		}
	}
	txnet_debugfs_add(tn);

	txnet_next_id++;
	list_add_tail(&tn->node, &txnet_nets);
	txnet_generation++;
	return 0;

err_put:
	txnet_sysfs_put(tn);
	return ret;
err_free:
	txnet_net_free(tn);
	return ret;
}

/*
 * The one teardown.  The caller holds txnet_lock and has sent whatever
 * notification it owes.  Readers first lose their way in (the netlink
 * list, debugfs and sysfs; removing those waits for readers inside), then
 * the thread stops, and only then is what it and they used freed.
 */
void txnet_net_destroy(struct txnet_net *tn)
{
	lockdep_assert_held(&txnet_lock);
	list_del(&tn->node);
	txnet_generation++;
	tn->dead = true;
	txnet_debugfs_del(tn);
	txnet_sysfs_del(tn);
	/* No transmit reaches the fabric after this, nor the thread an interface. */
	txnet_fabric_unregister(tn);
	txnet_tick_stop(tn);
	txnet_run_free(tn->run);
	tn->run = NULL;
	txnet_ports_free(tn);
	txnet_fabric_free(tn);
	txnet_sysfs_put(tn);
}

int txnet_net_set(struct txnet_net *tn, const u32 *port_model, const u64 *tick_ns,
		  const bool *netdev, const char **why)
{
	int ret;

	lockdep_assert_held(&txnet_lock);
	if (READ_ONCE(tn->state) != TXNET_STATE_IDLE) {
		*why = "network is running an exchange";
		return -EBUSY;
	}
	/* First, so that a refusal leaves the other settings as they were. */
	if (netdev && !*netdev && tn->fabric) {
		*why = "netdev: the interfaces go with the network; they cannot be taken from it";
		return -EOPNOTSUPP;
	}
	if (netdev && *netdev && !tn->fabric) {
		ret = txnet_fabric_check(tn, why) ?: txnet_fabric_create(tn, why);
		if (ret)
			return ret;
	}
	if (port_model)
		WRITE_ONCE(tn->port_model, *port_model);
	if (tick_ns)
		WRITE_ONCE(tn->tick_ns, *tick_ns);
	return 0;
}

/*
 * @net NULL: every network, announced (module unload).  Otherwise the
 * networks of a dying netns, where no socket is left to hear about it.
 */
static void destroy_matching(struct net *net)
{
	struct txnet_net *tn, *tmp;

	mutex_lock(&txnet_lock);
	list_for_each_entry_safe(tn, tmp, &txnet_nets, node) {
		if (net && !net_eq(txnet_net_ns(tn), net))
			continue;
		if (!net)
			txnet_genl_notify_del(tn);
		txnet_net_destroy(tn);
	}
	mutex_unlock(&txnet_lock);
}

/* Module unload: refuse new networks, then destroy every one. */
void txnet_shutdown(void)
{
	mutex_lock(&txnet_lock);
	txnet_dying = true;
	mutex_unlock(&txnet_lock);
	destroy_matching(NULL);
}

static void __net_exit txnet_net_exit(struct net *net)
{
	destroy_matching(net);
}

static struct pernet_operations txnet_pernet_ops = {
	.exit = txnet_net_exit,
};

int txnet_pernet_init(void)
{
	return register_pernet_subsys(&txnet_pernet_ops);
}

void txnet_pernet_exit(void)
{
	unregister_pernet_subsys(&txnet_pernet_ops);
}

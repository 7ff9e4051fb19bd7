// SPDX-License-Identifier: GPL-2.0
/*
 * The live fabric: with TXNET_A_NETDEV, every processor of a network is
 * an Ethernet interface, tx<net><processor>.  A frame one transmits is
 * injected into an open-traffic engine (the route schedule: shortest
 * paths, dimension order on products) and moved hop by hop on the
 * network's tick thread under the timing model, paced like everything
 * else; when it arrives, the destination interface receives it.
 *
 * MAC addresses name the processor: 02:74:NN:PP:PP:PP, NN the network's
 * id (mod 256), PP the processor (24 bits).  A broadcast or multicast
 * frame runs down the shortest-path tree out of its sender, one copy a
 * tree link (fabric_tree.c); on MINs it goes to every other processor as
 * that many packets.  When the
 * frames in flight would pass TXNET_FABRIC_SLOTS the transmit queues
 * stop until the fabric drains: back-pressure, not drops.  What is
 * dropped is counted where `ip -s link` shows it: a MAC no processor has,
 * a frame to oneself, or a destination whose interface is gone, in the
 * sender's tx_dropped; a destination that is down, in its rx_dropped.
 *
 * The interfaces live in the network's netns and may be moved to others;
 * they go away with the network, with the netns that holds them (they
 * have rtnl_link_ops, so the netns' cleanup deletes them rather than
 * sending them home), or with the module.  ndo_uninit, under RTNL, takes
 * an interface out of the table, so that the thread delivers only to
 * registered ones.
 */
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/rtnetlink.h>

#include "txnet.h"
#include "fabric.h"
#include "core/sched.h"

static struct rtnl_link_ops txnet_link_ops __read_mostly = {
	.kind = "txnet",
};

static void mac_of(const struct txnet_net *tn, u32 node, u8 *mac)
{
	mac[0] = 0x02;		/* locally administered, unicast */
	mac[1] = 0x74;		/* 't' */
	mac[2] = (u8)tn->id;
	mac[3] = (u8)(node >> 16);
	mac[4] = (u8)(node >> 8);
	mac[5] = (u8)node;
}

/* The processor a unicast MAC names on this network, or false. */
static bool node_of(const struct txnet_net *tn, const u8 *mac, u32 procs, u32 *node)
{
	if (mac[0] != 0x02 || mac[1] != 0x74 || mac[2] != (u8)tn->id)
		return false;
	*node = (u32)mac[3] << 16 | (u32)mac[4] << 8 | mac[5];
	return *node < procs;
}

bool txnet_fabric_names_fit(const char *name, u32 procs)
{
	return strlen("tx") + strlen(name) + snprintf(NULL, 0, "%u", procs - 1) < IFNAMSIZ;
}

int txnet_fabric_check(const struct txnet_net *tn, const char **why)
{
	if (tn->counts.procs > TXNET_NETDEV_MAX_NODES) {
		*why = "netdev: at most TXNET_NETDEV_MAX_NODES (256) processors get interfaces";
		return -E2BIG;
	}
	if (!txnet_fabric_names_fit(tn->name, tn->counts.procs)) {
		*why = "netdev: the interface names tx<name><N> would pass 15 characters: pick a shorter name";
		return -ENAMETOOLONG;
	}
	return 0;
}

/* Room for @n more frames; if there is none, the queues stop until there is. */
static bool room_for(struct txnet_fabric *f, u32 n, struct net_device *dev)
{
	if (f->in_flight + n <= TXNET_FABRIC_SLOTS)
		return true;
	netif_stop_queue(dev);
	f->stopped = true;
	return false;
}

/* A frame from @src to @dst onto the fabric (@root: a broadcast's sender, or TXN_NONE): false if refused. */
static bool inject(struct txnet_fabric *f, u32 src, u32 dst, const void *data, u32 len, u32 root)
{
	int pkt = txn_engine_inject(&f->e, src, dst, data, len);

	if (pkt < 0)
		return false;
	f->slot_src[pkt] = src;
	f->slot_root[pkt] = root;
	WRITE_ONCE(f->in_flight, f->in_flight + 1);
	return true;
}

/*
 * A broadcast copy from @v one hop on to each of @v's children in the tree
 * out of @root; false if a copy found no slot.  How many: *@kids.
 */
static bool to_children(struct txnet_fabric *f, const u32 *par, u32 v, u32 root,
			const void *data, u32 len, u32 *kids)
{
	const struct txn_graph *g = f->e.g;
	bool all = true;
	u32 l;

	*kids = 0;
	for (l = g->first[v]; l < g->first[v + 1]; l++) {
		if (par[g->dst[l]] != l)
			continue;
		(*kids)++;
		if (data)
			all &= inject(f, v, g->dst[l], data, len, root);
	}
	return all;
}

static netdev_tx_t fabric_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct txnet_port_dev *pd = netdev_priv(dev);
	struct txnet_fabric *f = pd->f;
	const struct ethhdr *eth;
	bool sent = false;
	const u32 *par;
	u32 dst, v, kids;

	if (skb_linearize(skb) || skb->len < ETH_HLEN || skb->len > TXNET_FABRIC_FRAME)
		goto drop;
	eth = (const struct ethhdr *)skb->data;
	spin_lock(&f->lock);
	par = is_multicast_ether_addr(eth->h_dest) ? txnet_fabric_tree(f, pd->node) : NULL;
	if (par) {
		/* down the tree: the first hop's copies now, the rest as they arrive */
		to_children(f, par, pd->node, pd->node, NULL, 0, &kids);
		if (!room_for(f, kids, dev)) {
			spin_unlock(&f->lock);
			return NETDEV_TX_BUSY;
		}
		sent = kids && to_children(f, par, pd->node, pd->node, skb->data, skb->len, &kids);
	} else if (is_multicast_ether_addr(eth->h_dest)) {
		if (f->procs - 1 > TXNET_FABRIC_SLOTS) {
			spin_unlock(&f->lock);
			goto drop;	/* more copies than the fabric ever holds */
		}
		if (!room_for(f, f->procs - 1, dev)) {
			spin_unlock(&f->lock);
			return NETDEV_TX_BUSY;
		}
		for (v = 0; v < f->procs; v++)
			if (v != pd->node)
				sent |= inject(f, pd->node, v, skb->data, skb->len, TXN_NONE);
	} else if (node_of(pd->tn, eth->h_dest, f->procs, &dst) && dst != pd->node) {
		if (!room_for(f, 1, dev)) {
			spin_unlock(&f->lock);
			return NETDEV_TX_BUSY;
		}
		sent = inject(f, pd->node, dst, skb->data, skb->len, TXN_NONE);
	}
	/* a frame counts once, however many copies a broadcast took */
	if (sent) {
		dev->stats.tx_packets++;
		dev->stats.tx_bytes += skb->len;
	} else {
		dev->stats.tx_dropped++;
	}
	spin_unlock(&f->lock);
	wake_up(&pd->tn->wq);
	consume_skb(skb);
	return NETDEV_TX_OK;
drop:
	dev->stats.tx_dropped++;
	kfree_skb(skb);
	return NETDEV_TX_OK;
}

static int fabric_open(struct net_device *dev)
{
	struct txnet_port_dev *pd = netdev_priv(dev);

	/* a node that is down has no carrier until it comes up */
	if (!txnet_node_is_down(&pd->tn->faults, pd->node))
		netif_carrier_on(dev);
	netif_start_queue(dev);
	return 0;
}

static int fabric_stop(struct net_device *dev)
{
	netif_stop_queue(dev);
	netif_carrier_off(dev);
	return 0;
}

/* Under RTNL, whoever unregisters it: the thread delivers to it no more. */
static void fabric_uninit(struct net_device *dev)
{
	struct txnet_port_dev *pd = netdev_priv(dev);
	struct txnet_fabric *f = pd->f;

	spin_lock_bh(&f->lock);
	f->dev[pd->node] = NULL;
	spin_unlock_bh(&f->lock);
}

static const struct net_device_ops fabric_netdev_ops = {
	.ndo_open = fabric_open,
	.ndo_stop = fabric_stop,
	.ndo_uninit = fabric_uninit,
	.ndo_start_xmit = fabric_xmit,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

static void fabric_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &fabric_netdev_ops;
	dev->rtnl_link_ops = &txnet_link_ops;
	dev->needs_free_netdev = true;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = TXNET_FABRIC_FRAME - ETH_HLEN;
}

static u64 fabric_bytes(const struct txnet_net *tn)
{
	return txn_engine_open_bytes(&tn->graph, &txn_sched_route, TXNET_FABRIC_FRAME,
				     TXNET_FABRIC_SLOTS) +
	       2 * TXNET_FABRIC_SLOTS * sizeof(u32) + txnet_fabric_tree_bytes(&tn->graph) +
	       tn->counts.procs * sizeof(struct net_device *) + sizeof(struct txnet_fabric);
}

static void fabric_free(struct txnet_fabric *f)
{
	txn_engine_free(&f->e);
	txnet_fabric_tree_free(f);
	kvfree(f->slot_root);
	kvfree(f->slot_src);
	kvfree(f->dev);
	txnet_mem_uncharge(f->charged);
	kfree(f);
}

static void unregister_all(struct txnet_fabric *f)
{
	LIST_HEAD(kill);
	u32 v;

	rtnl_lock();
	for (v = 0; v < f->procs; v++)
		if (f->dev[v])
			unregister_netdevice_queue(f->dev[v], &kill);
	unregister_netdevice_many(&kill);
	rtnl_unlock();
}

int txnet_fabric_create(struct txnet_net *tn, const char **why)
{
	struct txn_run_params p = {
		.port_model = READ_ONCE(tn->port_model),
		.payload = TXNET_FABRIC_FRAME,
		.budget = &txnet_mem_charger,
	};
	u64 bytes = fabric_bytes(tn);
	struct txnet_port_dev *pd;
	struct net_device *dev;
	struct txnet_fabric *f;
	u8 mac[ETH_ALEN];
	u32 v;
	int ret;

	lockdep_assert_held(&txnet_lock);
	if (txnet_mem_charge(bytes)) {
		*why = "netdev: the interfaces' fabric needs more memory than the mem_budget limit leaves";
		return -ENOSPC;
	}
	ret = -ENOMEM;
	*why = "netdev: out of memory for the interfaces' fabric";
	f = kzalloc(sizeof(*f), TXN_GFP);
	if (!f) {
		txnet_mem_uncharge(bytes);
		return ret;
	}
	f->charged = bytes;
	f->procs = tn->counts.procs;
	spin_lock_init(&f->lock);
	f->slot_src = kvcalloc(TXNET_FABRIC_SLOTS, sizeof(u32), TXN_GFP);
	f->slot_root = kvcalloc(TXNET_FABRIC_SLOTS, sizeof(u32), TXN_GFP);
	f->dev = kvcalloc(f->procs, sizeof(*f->dev), TXN_GFP);
	if (!f->slot_src || !f->slot_root || !f->dev ||
	    txnet_fabric_tree_init(f, &tn->graph, tn->faults.down))
		goto err_free;
	ret = txn_engine_init_open(&f->e, &tn->graph, &txn_sched_route, &p, TXNET_FABRIC_SLOTS);
	if (ret)
		goto err_free;
	/* the faults so far (interfaces added to a live network): nothing in flight to drop */
	txn_engine_set_down(&f->e, tn->faults.down);
	for (v = 0; v < f->procs; v++) {
		char name[TXNET_NAME_LEN + 16];

		/* txnet_fabric_names_fit() said it does: alloc_netdev() takes no longer */
		if (snprintf(name, sizeof(name), "tx%s%u", tn->name, v) >= IFNAMSIZ) {
			ret = -ENAMETOOLONG;
			goto err_unregister;
		}
		dev = alloc_netdev(sizeof(*pd), name, NET_NAME_USER, fabric_setup);
		if (!dev) {
			ret = -ENOMEM;
			goto err_unregister;
		}
		pd = netdev_priv(dev);
		pd->tn = tn;
		pd->f = f;
		pd->node = v;
		mac_of(tn, v, mac);
		eth_hw_addr_set(dev, mac);
		dev_net_set(dev, txnet_net_ns(tn));
		f->dev[v] = dev;
		ret = register_netdev(dev);
		if (ret) {
			f->dev[v] = NULL;
			free_netdev(dev);
			*why = ret == -EEXIST ? "netdev: an interface with one of the names tx<net><N> exists" :
						"netdev: could not register the interfaces";
			goto err_unregister;
		}
	}
	/* Pairs with txnet_fabric_of(): the thread sees it whole. */
	smp_store_release(&tn->fabric, f);
	return 0;

err_unregister:
	unregister_all(f);
err_free:
	fabric_free(f);
	return ret;
}

void txnet_fabric_unregister(struct txnet_net *tn)
{
	if (tn->fabric)
		unregister_all(tn->fabric);
}

/* After txnet_fabric_unregister() and the thread's end. */
void txnet_fabric_free(struct txnet_net *tn)
{
	if (!tn->fabric)
		return;
	fabric_free(tn->fabric);
	tn->fabric = NULL;
}

bool txnet_fabric_busy(struct txnet_net *tn)
{
	struct txnet_fabric *f = txnet_fabric_of(tn);

	return f && READ_ONCE(f->in_flight);
}

/* Frames a fault left without a way: each counted as its sender's tx_dropped. */
static void drop_lost(struct txnet_fabric *f)
{
	struct txn_engine *e = &f->e;
	u32 i, pkt;

	for (i = 0; i < e->nlost; i++) {
		pkt = e->lost[i];
		if (f->dev[f->slot_src[pkt]])
			f->dev[f->slot_src[pkt]]->stats.tx_dropped++;
		txn_engine_release(e, pkt);
		WRITE_ONCE(f->in_flight, f->in_flight - 1);
	}
	e->nlost = 0;
}

void txnet_fabric_faults(struct txnet_net *tn, u32 node)
{
	struct txnet_fabric *f = tn->fabric;
	struct net_device *dev;

	if (!f)
		return;
	spin_lock_bh(&f->lock);
	txnet_fabric_tree_flush(f);
	if (txn_engine_set_down(&f->e, tn->faults.down) < 0) {
		pr_err("txnet: %s: interface traffic stopped: %s\n", tn->name, f->e.v.rule);
		WRITE_ONCE(f->in_flight, 0);
	} else {
		drop_lost(f);
	}
	dev = node < f->procs ? f->dev[node] : NULL;
	if (dev && txnet_node_is_down(&tn->faults, node))
		netif_carrier_off(dev);
	else if (dev && netif_running(dev))
		netif_carrier_on(dev);
	spin_unlock_bh(&f->lock);
}

/* What the last tick delivered, to the destinations' receive paths. */
static void deliver(struct txnet_fabric *f, struct sk_buff_head *rx)
{
	struct txn_engine *e = &f->e;
	struct net_device *dev;
	struct sk_buff *skb;
	const u8 *data;
	const u32 *par;
	u32 i, pkt, len, dst, root, origin, kids;

	for (i = 0; i < e->ndone; i++) {
		pkt = e->done[i];
		data = txn_engine_data(e, pkt, &len);
		dst = txn_pkt_dst(txn_engine_view(e), pkt);
		root = f->slot_root[pkt];
		origin = root != TXN_NONE ? root : f->slot_src[pkt];
		/* a broadcast goes on down its tree, whatever this interface does with it */
		par = root != TXN_NONE ? txnet_fabric_tree(f, root) : NULL;
		if (par && !to_children(f, par, dst, root, data, len, &kids) && f->dev[root])
			f->dev[root]->stats.tx_dropped++;
		dev = f->dev[dst];
		if (dev && netif_running(dev)) {
			skb = netdev_alloc_skb(dev, len + NET_IP_ALIGN);
			if (skb) {
				skb_reserve(skb, NET_IP_ALIGN);
				skb_put_data(skb, data, len);
				skb->protocol = eth_type_trans(skb, dev);
				dev->stats.rx_packets++;
				dev->stats.rx_bytes += len;
				dev_hold(dev);
				__skb_queue_tail(rx, skb);
			} else {
				dev->stats.rx_dropped++;
			}
		} else if (dev) {
			dev->stats.rx_dropped++;
		} else if (f->dev[origin]) {
			/* its interface is gone: the sender hears of the loss */
			f->dev[origin]->stats.tx_dropped++;
		}
		txn_engine_release(e, pkt);
		WRITE_ONCE(f->in_flight, f->in_flight - 1);
	}
}

int txnet_fabric_step(struct txnet_net *tn, const struct txn_taken *taken)
{
	struct txnet_fabric *f = txnet_fabric_of(tn);
	struct sk_buff_head rx;
	struct sk_buff *skb;
	struct net_device *dev;
	int ret;
	u32 v;

	__skb_queue_head_init(&rx);
	spin_lock_bh(&f->lock);
	txn_engine_set_port_model(&f->e, READ_ONCE(tn->port_model));
	txn_engine_set_taken(&f->e, taken);
	ret = txn_engine_tick(&f->e);
	txn_engine_set_taken(&f->e, NULL);
	if (ret < 0) {
		/* The route schedule broke a rule: nothing in flight can be trusted. */
		pr_err("txnet: %s: interface traffic stopped at tick %llu: %s\n",
		       tn->name, f->e.v.tick, f->e.v.rule);
		WRITE_ONCE(f->in_flight, 0);
	} else {
		deliver(f, &rx);
	}
	if (f->stopped && f->in_flight + f->procs <= TXNET_FABRIC_SLOTS) {
		f->stopped = false;
		for (v = 0; v < f->procs; v++)
			if (f->dev[v])
				netif_wake_queue(f->dev[v]);
	}
	ret = !f->in_flight;
	spin_unlock_bh(&f->lock);
	while ((skb = __skb_dequeue(&rx))) {
		dev = skb->dev;
		netif_rx(skb);
		dev_put(dev);
	}
	return ret;
}

int txnet_fabric_init(void)
{
	return rtnl_link_register(&txnet_link_ops);
}

void txnet_fabric_exit(void)
{
	rtnl_link_unregister(&txnet_link_ops);
}

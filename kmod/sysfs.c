// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/txnet/<net>/: one value per file, documented in
 * Documentation/ABI/testing/sysfs-kernel-txnet.
 */
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/string.h>

#include "txnet.h"
#include "core/sched.h"

static struct kobject *txnet_root;

static struct txnet_net *to_net(struct kobject *kobj)
{
	return container_of(kobj, struct txnet_net, kobj);
}

#define TXNET_RO(_name, _fmt, _expr)					\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	struct txnet_net *tn = to_net(kobj);				\
									\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static struct kobj_attribute _name##_attr = __ATTR_RO(_name)

TXNET_RO(id, "%u", tn->id);
TXNET_RO(nodes, "%llu", tn->counts.procs);
TXNET_RO(switches, "%llu", tn->counts.switches);
TXNET_RO(links, "%llu", tn->counts.links);
TXNET_RO(diameter, "%u", tn->counts.diameter);
TXNET_RO(state, "%s", txnet_state_name(READ_ONCE(tn->state)));
TXNET_RO(ticks, "%llu", READ_ONCE(tn->ticks));
TXNET_RO(mem_bytes, "%llu", txnet_net_mem(tn));

static u32 ports_count(struct txnet_net *tn, bool unread)
{
	struct txnet_ports *pt = txnet_ports_of(tn);

	if (!pt)
		return 0;
	return unread ? READ_ONCE(pt->unread) : READ_ONCE(pt->in_flight);
}

TXNET_RO(ports_in_flight, "%u", ports_count(tn, false));
TXNET_RO(ports_unread, "%u", ports_count(tn, true));

TXNET_RO(topology, "%s", tn->spec_str);

/*
 * Writers take txnet_lock with trylock: destroy holds it while sysfs drains
 * its active files, so blocking here would deadlock.
 */
static ssize_t set_locked(struct txnet_net *tn, const u32 *port_model, const u64 *tick_ns,
			  size_t count)
{
	const char *why;
	int ret;

	if (!mutex_trylock(&txnet_lock))
		return restart_syscall();
	ret = txnet_net_set(tn, port_model, tick_ns, NULL, &why);
	mutex_unlock(&txnet_lock);
	return ret ?: count;
}

static ssize_t port_model_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", txnet_port_model_name(READ_ONCE(to_net(kobj)->port_model)));
}

static ssize_t port_model_store(struct kobject *kobj, struct kobj_attribute *attr,
				const char *buf, size_t count)
{
	u32 model;

	if (sysfs_streq(buf, "all"))
		model = TXNET_PORT_ALL;
	else if (sysfs_streq(buf, "single"))
		model = TXNET_PORT_SINGLE;
	else
		return -EINVAL;
	return set_locked(to_net(kobj), &model, NULL, count);
}
static struct kobj_attribute port_model_attr = __ATTR_RW(port_model);

static ssize_t tick_ns_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", READ_ONCE(to_net(kobj)->tick_ns));
}

static ssize_t tick_ns_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	u64 ns;
	int ret = kstrtou64(buf, 10, &ns);

	if (ret)
		return ret;
	if (ns > TXNET_TICK_NS_MAX)
		return -ERANGE;
	return set_locked(to_net(kobj), NULL, &ns, count);
}
static struct kobj_attribute tick_ns_attr = __ATTR_RW(tick_ns);

static struct attribute *txnet_net_attrs[] = {
	&id_attr.attr,
	&topology_attr.attr,
	&nodes_attr.attr,
	&switches_attr.attr,
	&links_attr.attr,
	&diameter_attr.attr,
	&port_model_attr.attr,
	&tick_ns_attr.attr,
	&state_attr.attr,
	&ticks_attr.attr,
	&mem_bytes_attr.attr,
	&ports_in_flight_attr.attr,
	&ports_unread_attr.attr,
	NULL,
};

/*
 * last/: the last finished run.  A value the run does not have (see
 * txnet_result_has()) reads as ENODATA rather than as a made-up number.
 */
static ssize_t last_show(struct kobject *kobj, char *buf,
			 ssize_t (*emit)(const struct txnet_result *r, char *buf))
{
	struct txnet_net *tn = to_net(kobj);
	ssize_t ret;

	mutex_lock(&tn->res_lock);
	ret = tn->last.status == TXNET_RUN_NONE ? -ENODATA : emit(&tn->last, buf);
	mutex_unlock(&tn->res_lock);
	return ret;
}

#define TXNET_LAST(_name, _fmt, _expr, _field)				\
static ssize_t last_##_name##_emit(const struct txnet_result *r, char *buf) \
{									\
	if (!txnet_result_has(r, _field))				\
		return -ENODATA;					\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static ssize_t last_##_name##_show(struct kobject *kobj,		\
				   struct kobj_attribute *attr, char *buf) \
{									\
	return last_show(kobj, buf, last_##_name##_emit);		\
}									\
static struct kobj_attribute last_##_name##_attr =			\
	__ATTR(_name, 0444, last_##_name##_show, NULL)

TXNET_LAST(run_id, "%u", r->run_id, TXNET_A_RES_RUN_ID);
TXNET_LAST(status, "%s", txn_run_status_name(r->status), TXNET_A_RES_STATUS);
TXNET_LAST(op, "%s", txn_op_name(r->op), TXNET_A_RES_OP);
TXNET_LAST(algo, "%s", txn_algo_name(r->algo), TXNET_A_RES_ALGO);
TXNET_LAST(port_model, "%s", txnet_port_model_name(r->port_model), TXNET_A_RES_PORT_MODEL);
TXNET_LAST(nodes, "%u", r->nodes, TXNET_A_RES_NODES);
TXNET_LAST(payload, "%u", r->payload, TXNET_A_RES_PAYLOAD);
TXNET_LAST(seed, "%llu", r->seed, TXNET_A_RES_SEED);
TXNET_LAST(steps, "%llu", r->steps, TXNET_A_RES_STEPS);
TXNET_LAST(ticks, "%llu", r->ticks, TXNET_A_RES_TICKS);
TXNET_LAST(lower_bound, "%llu", r->lower_bound, TXNET_A_RES_LOWER_BOUND);
TXNET_LAST(expected_steps, "%llu", r->expected_steps, TXNET_A_RES_EXPECTED_STEPS);
TXNET_LAST(transmissions, "%llu", r->transmissions, TXNET_A_RES_TRANSMISSIONS);
TXNET_LAST(delivered, "%llu", r->delivered, TXNET_A_RES_DELIVERED);
TXNET_LAST(expected_deliveries, "%llu", r->expected_deliveries, TXNET_A_RES_EXPECTED_DELIVERIES);
TXNET_LAST(verified, "%d", r->verified, TXNET_A_RES_VERIFIED);
TXNET_LAST(wall_ns, "%llu", r->wall_ns, TXNET_A_RES_WALL_NS);
TXNET_LAST(max_lateness_ns, "%llu", r->max_lateness_ns, TXNET_A_RES_MAX_LATENESS_NS);
TXNET_LAST(busy_ns, "%llu", r->busy_ns, TXNET_A_RES_BUSY_NS);
TXNET_LAST(tick_ns, "%llu", r->tick_ns, TXNET_A_RES_TICK_NS);
TXNET_LAST(samples, "%u", r->samples, TXNET_A_RES_SAMPLES);
TXNET_LAST(sample_ticks, "%u", r->sample_ticks, TXNET_A_RES_SAMPLE_TICKS);
TXNET_LAST(max_queue, "%u", r->max_queue, TXNET_A_RES_MAX_QUEUE);
TXNET_LAST(max_queue_node, "%u", r->max_queue_node, TXNET_A_RES_MAX_QUEUE_NODE);
TXNET_LAST(error, "%s", r->error, TXNET_A_RES_ERROR);
TXNET_LAST(error_tick, "%llu", r->error_tick, TXNET_A_RES_ERROR_TICK);
TXNET_LAST(error_node, "%u", r->error_node, TXNET_A_RES_ERROR_NODE);
TXNET_LAST(root, "%u", r->root, TXNET_A_RES_ROOT);
TXNET_LAST(bound, "%s", r->bound ? r->bound : "none", TXNET_A_RES_BOUND);
TXNET_LAST(min_transmissions, "%llu", r->min_transmissions, TXNET_A_RES_MIN_TRANSMISSIONS);
TXNET_LAST(values_seed, "%llu", r->values_seed, TXNET_A_RES_VALUES_SEED);
TXNET_LAST(max_ticks, "%llu", r->max_ticks, TXNET_A_RES_MAX_TICKS);
TXNET_LAST(config, "%llu", r->config, TXNET_A_RES_CONFIG);
TXNET_LAST(config_x, "%u", r->config_x, TXNET_A_RES_CONFIG_X);
TXNET_LAST(block_stage, "%u", r->block_stage, TXNET_A_RES_BLOCK_STAGE);
TXNET_LAST(block_switch, "%u", r->block_switch, TXNET_A_RES_BLOCK_SWITCH);
/* "a b": the input that had the switch first, then the one that needed it the other way */
#define BLOCK_INPUTS_FMT "%u %u"
#define BLOCK_INPUTS(r) (r)->block_inputs[0], (r)->block_inputs[1]
TXNET_LAST(block_inputs, BLOCK_INPUTS_FMT, BLOCK_INPUTS(r), TXNET_A_RES_BLOCK_INPUTS);

static struct attribute *txnet_last_attrs[] = {
	&last_run_id_attr.attr,
	&last_status_attr.attr,
	&last_op_attr.attr,
	&last_algo_attr.attr,
	&last_port_model_attr.attr,
	&last_nodes_attr.attr,
	&last_payload_attr.attr,
	&last_seed_attr.attr,
	&last_steps_attr.attr,
	&last_ticks_attr.attr,
	&last_lower_bound_attr.attr,
	&last_expected_steps_attr.attr,
	&last_transmissions_attr.attr,
	&last_delivered_attr.attr,
	&last_expected_deliveries_attr.attr,
	&last_verified_attr.attr,
	&last_wall_ns_attr.attr,
	&last_max_lateness_ns_attr.attr,
	&last_busy_ns_attr.attr,
	&last_tick_ns_attr.attr,
	&last_samples_attr.attr,
	&last_sample_ticks_attr.attr,
	&last_max_queue_attr.attr,
	&last_max_queue_node_attr.attr,
	&last_error_attr.attr,
	&last_error_tick_attr.attr,
	&last_error_node_attr.attr,
	&last_root_attr.attr,
	&last_bound_attr.attr,
	&last_min_transmissions_attr.attr,
	&last_values_seed_attr.attr,
	&last_max_ticks_attr.attr,
	&last_config_attr.attr,
	&last_config_x_attr.attr,
	&last_block_stage_attr.attr,
	&last_block_switch_attr.attr,
	&last_block_inputs_attr.attr,
	NULL,
};

static const struct attribute_group txnet_last_group = {
	.name = "last",
	.attrs = txnet_last_attrs,
};

static const struct attribute_group txnet_net_group = {
	.attrs = txnet_net_attrs,
};

static const struct attribute_group *txnet_net_groups[] = {
	&txnet_net_group,
	&txnet_last_group,
	NULL,
};

static void txnet_net_release(struct kobject *kobj)
{
	txnet_net_free(to_net(kobj));
}

static const struct kobj_type txnet_net_ktype = {
	.release = txnet_net_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = txnet_net_groups,
};

int txnet_sysfs_add(struct txnet_net *tn)
{
	return kobject_init_and_add(&tn->kobj, &txnet_net_ktype, txnet_root, "%s", tn->name);
}

void txnet_sysfs_del(struct txnet_net *tn)
{
	kobject_del(&tn->kobj);
}

void txnet_sysfs_put(struct txnet_net *tn)
{
	kobject_put(&tn->kobj);
}

int txnet_sysfs_init(void)
{
	txnet_root = kobject_create_and_add("txnet", kernel_kobj);
	return txnet_root ? 0 : -ENOMEM;
}

void txnet_sysfs_exit(void)
{
	kobject_put(txnet_root);
}

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# txnet_ynl.py: the txnet family driven by the kernel's own ynl (its
# tools/net/ynl from Debian's linux-source-6.12: cli.py and lib/, packed
# beside this test in ynl/) through Documentation/netlink/specs/txnet.yaml:
# create, get, dump, set, run, the events group, a run's series, destroy,
# and a refused request whose extack ynl prints.  A client that knows nothing of txnet
# but its spec: what it decodes must be what txctl and sysfs say.  KTAP.

import os
import select
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
YNL = os.path.join(HERE, 'ynl')
SPEC = os.path.join(YNL, 'txnet.yaml')
SYS = '/sys/kernel/txnet'
sys.path.insert(0, YNL)

from lib import YnlFamily, NlError  # noqa: E402  (the kernel's ynl, found above)

counts = {'pass': 0, 'fail': 0}
n = 0


def result(name, bad):
    global n
    n += 1
    if bad:
        for line in bad:
            print(f'# {name}: {line}')
        print(f'not ok {n} {name}')
        counts['fail'] += 1
    else:
        print(f'ok {n} {name}')
        counts['pass'] += 1
    sys.stdout.flush()


def sysfs(net, path):
    with open(os.path.join(SYS, net, path)) as f:
        return f.read().strip()


def dims(*sizes):
    """DIMS as ynl encodes it: element i has attribute type i + 1."""
    return {f'dim-{i + 1}': {'size': s} for i, s in enumerate(sizes)}


def events(ynl, want, guard_s=600):
    """Wait for a notification named @want; the guard is a hang guard only."""
    while True:
        for msg in ynl.async_msg_queue:
            if msg['name'] == want:
                ynl.async_msg_queue.remove(msg)
                return msg['msg']
        ready, _, _ = select.select([ynl.sock], [], [], guard_s)
        if not ready:
            return None
        ynl.check_ntf()


def t_spec_loads(ynl, ev):
    return [f'no operation {op}' for op in
            ('new', 'del', 'get', 'set', 'run', 'stop', 'bounds', 'latin', 'series') if op not in ynl.ops]


def t_new_and_its_event(ynl, ev):
    """create: the reply decoded, and the same description on the events group"""
    bad = []
    r = ynl.do('new', {'name': 'yn0', 'topology': 'torus', 'dims': dims(4, 4)}, None)
    if r.get('nodes') != 16 or r.get('spec') != 'torus 4 4':
        bad.append(f'reply: {r}')
    if r.get('dims') != dims(4, 4):
        bad.append(f'dims decoded as {r.get("dims")}')
    e = events(ev, 'new')
    if not e or e.get('name') != 'yn0' or e.get('id') != r.get('id'):
        bad.append(f'event: {e}')
    if sysfs('yn0', 'nodes') != '16':
        bad.append(f'sysfs nodes {sysfs("yn0", "nodes")}')
    return bad


def t_get(ynl, ev):
    r = ynl.do('get', {'name': 'yn0'}, None)
    if r.get('links') != int(sysfs('yn0', 'links')) or r.get('state') != 'idle':
        return [f'get: {r}']
    return []


def t_dump(ynl, ev):
    ynl.do('new', {'name': 'yn1', 'topology': 'ring', 'dims': dims(5)}, None)
    events(ev, 'new')
    names = sorted(m['name'] for m in ynl.dump('get', {}))
    if names != sorted(os.listdir(SYS)) or 'yn1' not in names:
        return [f'dump {names}, sysfs {sorted(os.listdir(SYS))}']
    return []


def t_set(ynl, ev):
    ynl.do('set', {'name': 'yn0', 'port-model': 'single'}, None)
    r = ynl.do('get', {'name': 'yn0'}, None)
    bad = []
    if r.get('port-model') != 'single' or sysfs('yn0', 'port_model') != 'single':
        bad.append(f'port model {r.get("port-model")}, sysfs {sysfs("yn0", "port_model")}')
    ynl.do('set', {'name': 'yn0', 'port-model': 'all'}, None)
    return bad


def t_run_and_run_done(ynl, ev):
    """the reply names the run, run-done carries its verified result"""
    r = ynl.do('run', {'name': 'yn0', 'op': 'total-exchange'}, None)
    done = events(ev, 'run-done')
    res = (done or {}).get('result', {})
    if not done or done.get('run-id') != r.get('run-id'):
        return [f'run {r}, run-done {done}']
    if res.get('status') != 'done' or res.get('verified') != 1:
        return [f'result {res}']
    if str(res.get('steps')) != sysfs('yn0', 'last/steps'):
        return [f'steps {res.get("steps")}, sysfs {sysfs("yn0", "last/steps")}']
    if res.get('delivered') != 16 * 15:
        return [f'delivered {res.get("delivered")}']
    return []


def t_series_dump(ynl, ev):
    """a recorded run's series, dumped: 2 x 2 link rows of 16 links on a 4x4
    torus whose samples add up to the result's transmissions, a row a node"""
    ynl.do('run', {'name': 'yn0', 'op': 'total-exchange', 'record': 1}, None)
    events(ev, 'run-done')
    rows = [m['series'] for m in ynl.dump('series', {'name': 'yn0'})]
    links = [r for r in rows if r.get('kind') == 'links']
    held = [r for r in rows if r.get('kind') == 'held']
    bad = []
    if sorted((r.get('dim'), r.get('dir'), r.get('links')) for r in links) != \
       [(0, 0, 16), (0, 1, 16), (1, 0, 16), (1, 1, 16)]:
        bad.append(f'link rows {[(r.get("dim"), r.get("dir"), r.get("links")) for r in links]}')
    busy = sum(sum(r['busy']) for r in links)
    if busy != int(sysfs('yn0', 'last/transmissions')):
        bad.append(f'busy samples add up to {busy}, transmissions {sysfs("yn0", "last/transmissions")}')
    if sorted(r.get('node') for r in held) != list(range(16)):
        bad.append(f'node rows {[r.get("node") for r in held]}')
    if any(len(r['held']) != int(sysfs('yn0', 'last/samples')) for r in held):
        bad.append('a node row of another length than last/samples')
    return bad


def t_links_dump(ynl, ev):
    """a link a message, in order, as many as get's links; a cable cut is
    its two links down, and up again"""
    want = ynl.do('get', {'name': 'yn0'}, None).get('links')
    ynl.do('fault', {'name': 'yn0', 'src': 0, 'dst': 1, 'up': 0}, None)
    rows = [m['link'] for m in ynl.dump('links', {'name': 'yn0'})]
    ynl.do('fault', {'name': 'yn0', 'src': 0, 'dst': 1, 'up': 1}, None)
    bad = []
    if [r.get('id') for r in rows] != list(range(want)):
        bad.append(f'{len(rows)} rows for {want} links, ids {[r.get("id") for r in rows][:8]}...')
    down = sorted((r['from'], r['to']) for r in rows if r.get('down'))
    if down != [(0, 1), (1, 0)]:
        bad.append(f'links down {down}, the cable 0-1 cut')
    if any(r.get('hops') != 0 for r in rows):
        bad.append('hops on a network no port or interface has used')
    rows = [m['link'] for m in ynl.dump('links', {'name': 'yn0'})]
    if any(r.get('down') for r in rows):
        bad.append('a link still down once the cable is up')
    return bad


def t_refused_with_extack(ynl, ev):
    """a refused request: the kernel's extack, as ynl decodes it"""
    try:
        ynl.do('run', {'name': 'nosuch', 'op': 'total-exchange'}, None)
    except NlError as e:
        return [] if 'no network with this name' in str(e) else [f'extack not shown: {e}']
    return ['a run on no network was accepted']


def cli(*args):
    return subprocess.run([sys.executable, os.path.join(YNL, 'cli.py'), '--spec', SPEC,
                           '--no-schema', *args], capture_output=True, text=True)


def t_cli_prints_extack(ynl, ev):
    """... and as a user of cli.py sees it, beside a request that works"""
    bad = []
    p = cli('--do', 'del', '--json', '{"name": "nosuch"}')
    if p.returncode == 0 or 'no network with this name' not in p.stdout + p.stderr:
        bad.append(f'exit {p.returncode}: {(p.stdout + p.stderr)[:300]}')
    p = cli('--output-json', '--do', 'get', '--json', '{"name": "yn1"}')
    if p.returncode != 0 or '"spec": "ring 5"' not in p.stdout:
        bad.append(f'get through cli.py: exit {p.returncode}: {(p.stdout + p.stderr)[:300]}')
    return bad


def t_dragonfly_by_name(ynl, ev):
    """the spec's enum names the new families: dragonfly 1 2 1 has 2 h + 1 = 3
    groups of 2 routers, a processor each (Documentation/txnet-topologies.rst)"""
    bad = []
    r = ynl.do('new', {'name': 'yn2', 'topology': 'dragonfly', 'dims': dims(1, 2, 1)}, None)
    events(ev, 'new')
    if r.get('spec') != 'dragonfly 1 2 1' or r.get('nodes') != 6 or r.get('switches') != 6:
        bad.append(f'reply: {r}')
    r = ynl.do('run', {'name': 'yn2', 'op': 'data-sum'}, None)
    done = events(ev, 'run-done')
    if ((done or {}).get('result') or {}).get('verified') != 1:
        bad.append(f'data-sum: {done}')
    ynl.do('del', {'name': 'yn2'}, None)
    events(ev, 'del')
    return bad


def t_graph_from_cables(ynl, ev):
    """a graph by its cables: the star of 3 processors round switch 3, the
    file numbers 5 6 7 and 90 given; processors are 2 apart, 3 cables, 6
    links (Documentation/txnet-topologies.rst)"""
    bad = []
    cables = struct.pack('=6I', 0, 3, 1, 3, 2, 3)
    ids = struct.pack('=4I', 5, 6, 7, 90)
    r = ynl.do('new', {'name': 'yn3', 'topology': 'graph', 'dims': dims(3, 1),
                       'cables': cables, 'vertex-ids': ids}, None)
    events(ev, 'new')
    if (not r.get('spec', '').startswith('graph 3 1 cables 3 digest ') or r.get('nodes') != 3 or
            r.get('switches') != 1 or r.get('links') != 6 or r.get('diameter') != 2):
        bad.append(f'reply: {r}')
    r = ynl.do('get', {'name': 'yn3', 'node': 3}, None)
    if r.get('vertex-id') != 90 or 'graph-digest' not in r:
        bad.append(f'get node 3: {r}')
    r = ynl.do('run', {'name': 'yn3', 'op': 'total-exchange'}, None)
    done = events(ev, 'run-done')
    if ((done or {}).get('result') or {}).get('verified') != 1:
        bad.append(f'total-exchange: {done}')
    ynl.do('del', {'name': 'yn3'}, None)
    events(ev, 'del')
    return bad


def t_del_and_its_event(ynl, ev):
    bad = []
    for name in ('yn0', 'yn1'):
        ynl.do('del', {'name': name}, None)
        e = events(ev, 'del')
        if not e or e.get('name') != name:
            bad.append(f'del event {e}')
        if os.path.exists(os.path.join(SYS, name)):
            bad.append(f'{name} still in sysfs')
    return bad


TESTS = [t_spec_loads, t_new_and_its_event, t_get, t_dump, t_set, t_run_and_run_done,
         t_series_dump, t_links_dump, t_refused_with_extack, t_cli_prints_extack, t_dragonfly_by_name,
         t_graph_from_cables,
         t_del_and_its_event]


def main():
    print('TAP version 13')
    print(f'1..{len(TESTS)}')
    try:
        ynl = YnlFamily(SPEC, '')	# '': the schema was checked on the host
        ev = YnlFamily(SPEC, '')
        ev.ntf_subscribe('events')
        # NEW and DEL are multicast under their own command numbers; the
        # ynl of 6.12 takes only operations marked notify or event for
        # notifications (RUN_DONE is one): tell it these two are as well.
        ev.async_msg_ids |= {ev.msgs['new'].rsp_value, ev.msgs['del'].rsp_value}
    except Exception as e:
        for t in TESTS:
            result(t.__name__[2:], [f'no family: {type(e).__name__}: {e}'])
        return
    for t in TESTS:
        try:
            bad = t(ynl, ev)
        except Exception as e:	# NlError too: an unexpected refusal
            bad = [f'{type(e).__name__}: {e}']
        result(t.__name__[2:], bad)


if __name__ == '__main__':
    main()
    print(f'# Totals: pass:{counts["pass"]} fail:{counts["fail"]} xfail:0 xpass:0 skip:0 error:0')
    sys.exit(1 if counts['fail'] else 0)

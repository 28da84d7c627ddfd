/**
 * Real ClickHouse servers for tests: each an ordinary process of the installed `clickhouse-server`
 * with its own config, data and logs in a scratch folder, listening on free loopback ports; a cluster
 * is two such servers (one shard each) named in a `remote_servers` config plus a ZooKeeper process for
 * `ON CLUSTER` DDL. As on real machines, every node answers HTTP on the same port, each on an address
 * of its own, since the cluster config names only hosts and native ports: 127.0.0.1 and ::1, the two
 * loopback addresses that a server takes for its own (hence two nodes at most). Absent binaries skip the test with a printed reason, except in CI (`CI=true`),
 * where they fail it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

const SERVER_BINARIES = ['/usr/bin/clickhouse-server', '/usr/sbin/clickhouse-server', '/usr/bin/clickhouse'];
const ZOOKEEPER_JAR = '/usr/share/java/zookeeper.jar';

/** The name of the test cluster in the servers' `remote_servers`. */
export const TEST_CLUSTER = 'mdq_test';

/** Running ClickHouse servers. */
export interface ClickHouseServers {
  /** `clickhouse://default@host:port/default` of each server (the first one is queried). */
  readonly urls: readonly string[];
  /** The cluster's name, when started as a cluster. */
  readonly cluster?: string;
  /** Stops the processes and removes their folder. */
  close(): Promise<void>;
}

function serverBinary(): string | undefined {
  return SERVER_BINARIES.find((p) => existsSync(p));
}

/** True when the binaries `what` needs are installed; else skips (or, under CI, fails) the test. */
function available(t: TestContext, what: 'single' | 'cluster'): boolean {
  const missing = [
    serverBinary() ? undefined : 'clickhouse-server',
    what === 'cluster' && !existsSync(ZOOKEEPER_JAR) ? 'zookeeper' : undefined,
  ].filter((m) => m !== undefined);
  if (missing.length === 0) return true;
  const reason = `${missing.join(' and ')} not installed (apt-get install clickhouse-server clickhouse-client zookeeper)`;
  if (process.env.CI === 'true') throw new Error(`${reason}: CI needs it (.ci/run installs it)`);
  console.log(`# skipped: ${reason}`);
  t.skip(reason);
  return false;
}

/** A port free on every address of `hosts` (the first one picks it). */
async function freePort(hosts: readonly string[] = ['127.0.0.1']): Promise<number> {
  for (;;) {
    const port = await bindable(hosts[0] as string, 0);
    let free = true;
    for (const host of hosts.slice(1)) free = free && (await bindable(host, port)) === port;
    if (free) return port;
  }
}

/** A host as written in a URL. */
const bracket = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** The port bound on `host` (`port`, or any when 0), or 0 when it is taken. */
async function bindable(host: string, port: number): Promise<number> {
  const server = createServer();
  const bound = await new Promise<number>((resolve) => {
    server.once('error', () => resolve(0));
    server.listen(port, host, () => resolve((server.address() as { port: number }).port));
  });
  if (bound) await new Promise<void>((resolve) => server.close(() => resolve()));
  return bound;
}

interface NodePorts {
  host: string;
  http: number;
  tcp: number;
}

function config(dir: string, me: NodePorts, shards: readonly NodePorts[], zookeeper?: number): string {
  const remote =
    shards.length > 1
      ? `<remote_servers><${TEST_CLUSTER}>${shards
          .map((s) => `<shard><replica><host>${s.host}</host><port>${s.tcp}</port></replica></shard>`)
          .join('')}</${TEST_CLUSTER}></remote_servers>`
      : '';
  const zk = zookeeper
    ? `<zookeeper><node><host>127.0.0.1</host><port>${zookeeper}</port></node></zookeeper>
       <distributed_ddl><path>/clickhouse/task_queue/ddl</path></distributed_ddl>`
    : '';
  return `<yandex>
  <logger><level>warning</level><log>${dir}/server.log</log><errorlog>${dir}/error.log</errorlog></logger>
  <listen_host>${me.host}</listen_host>
  <http_port>${me.http}</http_port>
  <tcp_port>${me.tcp}</tcp_port>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/files/</user_files_path>
  <format_schema_path>${dir}/schema/</format_schema_path>
  <timezone>UTC</timezone>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <max_concurrent_queries>50</max_concurrent_queries>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  ${remote}
  ${zk}
</yandex>`;
}

const USERS = `<yandex>
  <profiles><default><max_memory_usage>4000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>`;

async function waitFor(what: string, ready: () => Promise<boolean>, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not start within 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts one ClickHouse server (`shards: 1`) or a cluster of `shards` servers with a ZooKeeper, and
 * stops them after the test; undefined when skipped for want of the binaries.
 */
export async function startClickHouse(t: TestContext, shards = 1): Promise<ClickHouseServers | undefined> {
  if (!available(t, shards > 1 ? 'cluster' : 'single')) return undefined;
  const servers = await launchClickHouse(shards);
  t.after(() => servers.close());
  return servers;
}

/** Starts `shards` servers (two or more: a cluster with a ZooKeeper); the caller closes them. */
export async function launchClickHouse(shards = 1): Promise<ClickHouseServers> {
  const root = mkdtempSync(join(tmpdir(), 'mdq-clickhouse-'));
  const children: ChildProcess[] = [];
  let closing = false;
  const close = async () => {
    closing = true;
    for (const c of children.reverse()) await stop(c);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    let zookeeper: number | undefined;
    if (shards > 1) {
      zookeeper = await freePort();
      const dir = join(root, 'zookeeper');
      mkdirSync(join(dir, 'data'), { recursive: true });
      writeFileSync(
        join(dir, 'zoo.cfg'),
        `tickTime=2000\ndataDir=${dir}/data\nclientPort=${zookeeper}\nclientPortAddress=127.0.0.1\nadmin.enableServer=false\n4lw.commands.whitelist=ruok\n`,
      );
      const zk = spawn(
        'java',
        [
          '-Xmx256m',
          '-cp',
          ZOOKEEPER_JAR,
          `-Dzookeeper.log.dir=${dir}`,
          'org.apache.zookeeper.server.quorum.QuorumPeerMain',
          join(dir, 'zoo.cfg'),
        ],
        { stdio: 'ignore' },
      );
      children.push(zk);
      const port = zookeeper;
      // Serving, not only accepting connections: a server whose first ZooKeeper session fails starts
      // its DDL worker in a state 18.16 does not always survive.
      await waitFor('zookeeper', () => zookeeperServes(port), zk);
    }
    // Distinct native ports too: a node takes a cluster entry with its own port on a local address
    // for itself, and both addresses are local to each of them.
    const hosts = ['127.0.0.1', '::1'].slice(0, shards);
    if (hosts.length < shards) throw new Error(`A test cluster has at most ${hosts.length} nodes`);
    const http = await freePort(hosts);
    const used = new Set([http, zookeeper]);
    const ports: NodePorts[] = [];
    for (const host of hosts) {
      let tcp = await freePort(hosts);
      while (used.has(tcp)) tcp = await freePort(hosts);
      used.add(tcp);
      ports.push({ host, http, tcp });
    }
    const binary = serverBinary() as string;
    for (const [i, me] of ports.entries()) {
      const dir = join(root, `node${i}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'config.xml'), config(dir, me, ports, zookeeper));
      writeFileSync(join(dir, 'users.xml'), USERS);
      const args = binary.endsWith('/clickhouse')
        ? ['server', `--config-file=${dir}/config.xml`]
        : [`--config-file=${dir}/config.xml`];
      const server = spawn(binary, args, { cwd: dir, stdio: 'ignore' });
      children.push(server);
      // A server that dies under a test fails it with a refused or dropped connection: say why.
      server.once('exit', (code, signal) => {
        if (closing) return;
        const log = join(dir, 'error.log');
        const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-40).join('\n') : '';
        console.log(
          `# clickhouse-server ${i} (${me.host}) exited while in use: ${signal ?? `code ${code}`}\n${tail}`,
        );
      });
    }
    for (const [i, me] of ports.entries()) {
      await waitFor(
        `clickhouse-server ${i}`,
        async () => (await fetch(`http://${bracket(me.host)}:${me.http}/?query=SELECT%201`)).ok,
        children[children.length - shards + i] as ChildProcess,
      );
      // An ON CLUSTER statement sent before a server's DDL worker has its queue in ZooKeeper can
      // bring 18.16 down: wait until each server sees the queue.
      if (zookeeper !== undefined) {
        const queue = encodeURIComponent(
          "SELECT 1 FROM system.zookeeper WHERE path = '/clickhouse/task_queue/ddl'",
        );
        await waitFor(
          `the DDL queue of clickhouse-server ${i}`,
          async () => (await fetch(`http://${bracket(me.host)}:${me.http}/?query=${queue}`)).ok,
          children[children.length - shards + i] as ChildProcess,
        );
      }
    }
    const servers: ClickHouseServers = {
      urls: ports.map((p) => `clickhouse://default@${bracket(p.host)}:${p.http}/default`),
      ...(shards > 1 && { cluster: TEST_CLUSTER }),
      close,
    };
    return servers;
  } catch (e) {
    await close();
    throw e;
  }
}

/** True when the ZooKeeper on the loopback `port` says it is serving (`ruok`, answered `imok`). */
function zookeeperServes(port: number): Promise<boolean> {
  return import('node:net').then(
    ({ connect }) =>
      new Promise<boolean>((resolve) => {
        let answer = '';
        const socket = connect(port, '127.0.0.1', () => socket.write('ruok'));
        // A server that takes the connection and never answers is not serving yet; without this bound the
        // start would wait for ever, past the test's timeout, and leave its ZooKeeper running.
        socket.setTimeout(2000, () => socket.destroy());
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          answer += chunk;
        });
        socket.once('close', () => resolve(answer === 'imok'));
        socket.once('error', () => resolve(false));
      }),
  );
}

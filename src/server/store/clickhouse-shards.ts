import { ClickHouseStore } from './clickhouse-store.js';

/**
 * Opens a store on each server of `store`'s cluster (every replica of every shard, as the servers'
 * `system.clusters` lists them), for statements that 18.16 cannot run `ON CLUSTER`, such as
 * `REPLACE PARTITION`. The cluster config names hosts and native ports only: each server's HTTP
 * interface is taken to be at its host on the port of `store`'s URL, with the same user, password
 * and database (the usual layout, one server per machine). The caller closes the stores.
 * @throws Error naming the cluster, and the server that does not answer where it was looked for.
 */
export async function openShards(store: ClickHouseStore): Promise<ClickHouseStore[]> {
  const cluster = store.cluster;
  if (!cluster) throw new Error(`${store.location} is not a cluster`);
  const hosts = await store.all<{ shard_num: number; replica_num: number; host_name: string }>(
    'SELECT shard_num, replica_num, host_name FROM system.clusters WHERE cluster = $1 ORDER BY shard_num, replica_num',
    [cluster],
  );
  if (hosts.length === 0) {
    throw new Error(`Cluster ${cluster} is not in system.clusters of ${store.location}`);
  }
  const { target } = store;
  const port = new URL(target.url).port || '8123';
  const credentials = `${encodeURIComponent(target.username)}:${encodeURIComponent(target.password)}`;
  const opened: ClickHouseStore[] = [];
  try {
    for (const { shard_num, replica_num, host_name } of hosts) {
      const host = host_name.includes(':') ? `[${host_name}]` : host_name;
      try {
        opened.push(
          await ClickHouseStore.open(`clickhouse://${credentials}@${host}:${port}/${target.database}`),
        );
      } catch (e) {
        throw new Error(
          `Shard ${shard_num} (replica ${replica_num}) of cluster ${cluster} does not answer over HTTP at ${host}:${port}, the port of the store URL: ${(e as Error).message}`,
          { cause: e },
        );
      }
    }
  } catch (e) {
    for (const s of opened) await s.close();
    throw e;
  }
  return opened;
}

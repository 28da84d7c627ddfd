/**
 * A process that makes sync calls and never closes its bridge, run as its own process by the bridge
 * test: once its work is done it must exit, though the idle worker is parked. Prints the results.
 */
import { SyncBridge } from '../../src/core/sync/bridge.js';

const bridge = new SyncBridge({
  module: new URL('./sync-target.ts', import.meta.url).href,
  exportName: 'Sample',
  args: ['unclosed'],
});
// One request through shared memory, one posted (a Date is not JSON data).
const written = bridge.call('echo', [1]);
const posted = bridge.call('echo', [new Date(0)]);
console.log(JSON.stringify({ written, posted }));

/**
 * A sync call made from a callback of another sync call, run as its own process by the bridge test:
 * the outer call's answer arrives while the inner call waits. Prints both results.
 */
import { SyncBridge } from '../../src/core/sync/bridge.js';

const inner: unknown[] = [];
const bridge: SyncBridge = new SyncBridge({
  module: new URL('./sync-target.ts', import.meta.url).href,
  exportName: 'Sample',
  args: [
    'nested',
    {
      logger: (line: string) => {
        // The outer call goes on logging and answers while this call sleeps.
        if (line.endsWith('line 0')) inner.push(bridge.call('sleep', [200]));
      },
    },
  ],
});
const outer = bridge.call('log', [3]);
bridge.close();
console.log(JSON.stringify({ outer, inner: inner.length }));

import { FuturesClient } from '../../src/index.js';
import { futuresCases } from '../support/cases/futures.js';
import { describeOperations } from '../support/client-cases.js';

describeOperations(
  'Futures client: every operation over loopback HTTP',
  FuturesClient as never,
  'test-key-futures-1',
  futuresCases('v1'),
);

describeOperations(
  'Futures client, version vX: every operation on the older paths',
  ((key: string, options: object) => FuturesClient(key, { ...options, version: 'vX' } as never)) as never,
  'test-key-futures-2',
  futuresCases('vX'),
);

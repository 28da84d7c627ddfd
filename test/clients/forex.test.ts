import { ForexClient } from '../../src/index.js';
import { forexCases } from '../support/cases/forex.js';
import { describeOperations } from '../support/client-cases.js';

describeOperations(
  'Forex client: every operation over loopback HTTP',
  ForexClient as never,
  'test-key-forex-1',
  forexCases,
);

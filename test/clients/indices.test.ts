import { IndexClient } from '../../src/index.js';
import { indicesCases } from '../support/cases/indices.js';
import { describeOperations } from '../support/client-cases.js';

describeOperations(
  'Indices client: every operation over loopback HTTP',
  IndexClient as never,
  'test-key-indices-1',
  indicesCases,
);
